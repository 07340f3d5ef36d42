"""Work too big for the event loop, done in a helper process with its own database connection.

The event loop answers every request of the process: while it decodes a 16 MiB import, folds
15,000 matches or builds the standings of 10,000 players, no ping is answered and no round of
another table is recorded. A thread would not free it: pure Python work in a thread takes the
GIL back every switch interval, and a long call into C code (decoding a big JSON body) holds it
throughout. So the big jobs run in a helper process (``Offload``): spawned on first use, one
by default, shut down with the app. Each helper has an event loop and a
:class:`api.db.database.Database` of its own on the app's database, so a job is the same
service code the handlers run inline, given a session of the helper: it reads, computes and
writes there, and sends back only a small answer (encoded JSON, a few ids). Nothing big
crosses between the processes in either direction: pickling is C code that holds the GIL too.

A job is an async function ``job(database, *args)`` defined at a module's top level (the helper
imports it by name); its arguments must pickle. A :class:`api.edge.problems.Problem` it raises is
raised again in the app, said in the request's language there.

Jobs queue for their helper: a second big import waits for the first instead of doubling the
load on the machine's cores. The app has two :class:`Offload`, each with its helper: one for the
big imports, which anyone may send (16 MiB at most, seconds of work each), and one for a big
tournament's or club's reads and round starts, so that a queue of uploads never holds up an
organiser's standings or next round. Small work never comes here (the callers decide by size),
so a small tournament does not wait behind a big one.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec, TypeVar

from api.db.database import Database
from api.db.engine import create_engine
from api.edge.problems import Fault, Problem
from api.i18n import Phrase
from api.server import lifeline

logger = logging.getLogger(__name__)
P = ParamSpec("P")
T = TypeVar("T")
Job = Callable[Concatenate[Database, P], Awaitable[T]]


@dataclass(frozen=True, slots=True)
class _Refused:
    """A problem raised in the helper, as data: exceptions with keyword-only arguments do not
    pickle."""

    kind: type[Problem]
    text: Phrase
    errors: list[Fault]
    headers: dict[str, str]

    def problem(self) -> Problem:
        refused = self.kind.__new__(self.kind)
        Problem.__init__(refused, self.text, errors=self.errors, headers=self.headers or None)
        return refused


class Offload:
    """The helper processes of one app (see the module's docstring)."""

    def __init__(self, database_url: str, synchronous: str, helpers: int = 1) -> None:
        self._database_url = database_url
        self._synchronous = synchronous
        self._helpers = helpers
        self._pool: ProcessPoolExecutor | None = None

    def _started(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fork would copy the app's threads' locks mid-use (the SQLite driver's).
            self._pool = ProcessPoolExecutor(
                self._helpers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_open,
                initargs=(self._database_url, self._synchronous, os.getpid()))
        return self._pool

    async def run(self, job: Job[P, T], *args: P.args, **_none: P.kwargs) -> T:
        """``job(database, *args)`` in a helper; its problem raised here."""
        outcome = await asyncio.wrap_future(self._started().submit(_run, job, *args))
        if isinstance(outcome, _Refused):
            raise outcome.problem()
        result: T = outcome
        return result

    async def close(self) -> None:
        """Stop the helpers (a job still running is waited for: it may be writing)."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


# In the helper process ----------------------------------------------------------------------

_helper: tuple[asyncio.AbstractEventLoop, Database] | None = None


def _open(database_url: str, synchronous: str, app_process: int) -> None:
    """The helper's event loop and database. The helper dies with its app's process
    (:func:`api.server.lifeline.die_with`): an import left running would go on writing while a new
    server starts and sweeps what it takes for a crash's remains. SIGKILL, as a crash: what
    the job was writing stays hidden under its import's lease, which nobody renews any more,
    for the next start's sweep or any server's once the lease is stale
    (:func:`api.tournaments.backup.sweep_unfinished`)."""
    global _helper
    lifeline.die_with(app_process, signal.SIGKILL)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    database = Database(create_engine(database_url, synchronous=synchronous),
                        synchronous=synchronous)
    _helper = (loop, database)


def _run(job: Job[..., T], *args: Any) -> T | _Refused:
    assert _helper is not None, "the helper was not opened"
    loop, database = _helper
    try:
        return loop.run_until_complete(job(database, *args))
    except Problem as problem:
        return _Refused(type(problem), problem.text, problem.errors, dict(problem.headers or {}))
