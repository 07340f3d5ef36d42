"""A big import stored in short write transactions that take turns with every other writer,
under a lease that tells every server process on the database the import is alive.

A backup of thousands of matches stored in one transaction holds SQLite's write lock (on
PostgreSQL: a transaction of minutes) for as long as it takes, and every table's round waits
behind it. An import is therefore stored a part at a time, each part one short write
transaction (:meth:`Turns.write`); what the parts wrote is invisible until the last part
reveals it (each area marks its rows with :data:`HIDDEN` its own way), and removed again if
a part fails.

On SQLite the parts pause between each other (:data:`SQLITE_TURN`) and try for the write lock
every :data:`LOCK_POLL` seconds: a writer of another process waiting for the lock gets it in
between. The imports run in the helper process (:mod:`api.server.offload`) when they are big.

**Leases.** A process killed mid-import leaves its hidden rows behind, and nothing of them says
whether their import is still being written, perhaps by another ``serve`` on another machine
sharing the PostgreSQL database. So an import holds a lease (a row of ``import_lease``: its
kind, the key its rows are hidden under, the process, a heartbeat), taken in the transaction
of its first part, renewed every ``lease / HEARTBEATS_PER_LEASE`` seconds by the process doing
the writes (a task on its event loop, beside the writes), and given back in the transaction of
the last part (so the rows are revealed exactly when nobody holds them any more) or once a
failed import has removed what it wrote. Every time is the database's clock, never a host's:
hosts whose clocks disagree still agree on which lease is stale.

A sweep (:func:`sweep`) removes an import's rows only when its lease is missing (an import
hidden before leases existed) or stale: no heartbeat for ``TAFELRUNDE_IMPORT_LEASE`` seconds
(default 30, see :class:`api.server.settings.Settings`). It first *claims* the stale lease in
one statement (only one process can), then holds and renews it while it removes the rows, and
gives it back last, so a sweep that dies too leaves a lease the next one claims. An import that
was only slow (a process stopped for longer than the lease, a database that did not answer)
and whose lease was claimed finds out at its next heartbeat or part, or at the latest in its
last part, whose transaction gives back its lease and fails without it: it then removes what it
wrote and fails, and is never revealed half swept.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BindParameter,
    ColumnElement,
    DateTime,
    Float,
    FromClause,
    Select,
    Table,
    and_,
    bindparam,
    select,
)
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import FunctionElement
from sqlmodel import SQLModel

from api.db.database import Database
from api.db.models import IMPORT_HOLDER_LENGTH, ImportLeaseRow
from api.db.statements import Statements
from api.edge.problems import Unavailable
from api.i18n import _

SQLITE_TURN = 0.12
"""The pause between two writes of an import on SQLite, longer than the longest sleep of SQLite's
busy handler (100 ms): a writer of another process waiting for the lock gets it in between."""
LOCK_POLL = 0.002
"""How often an import tries for SQLite's write lock while the server holds it
(:meth:`api.db.database.Database.write`)."""
HIDDEN = "~"
"""Marks what an import stored until it is complete: an id starting with it no request can
name (ids are letters, digits, ``-`` and ``_``), a token hash equal to it no token matches."""
LEASE_SECONDS = 30
"""Seconds without a heartbeat after which an import's lease is stale (the setting's
default)."""
HEARTBEATS_PER_LEASE = 6
"""Heartbeats within one lease: every 5 s for the default 30 s, so that a few missed ones (a
busy database, a paused process) do not yet make it stale."""

logger = logging.getLogger(__name__)
LEASES: Table = SQLModel.metadata.tables[ImportLeaseRow.__tablename__]


class LeaseLost(Unavailable):
    """Another process claimed this import's lease as stale and sweeps its rows: the import
    stops writing, removes what it wrote and fails, answered 503 in the sender's words (the
    server stalled longer than a lease; nothing of it stays, so sending it again is safe)."""

    def __init__(self) -> None:
        super().__init__(_("The import stalled and another server process took it over to "
                           "clean up: nothing of it was kept. Send it again."))


class _DatabaseNow(FunctionElement[datetime]):
    """The database's clock at the statement (not the transaction's start)."""

    type = DateTime(timezone=True)
    inherit_cache = True


class _DatabaseAgo(FunctionElement[datetime]):
    """The database's clock at the statement, less the seconds of the one argument."""

    type = DateTime(timezone=True)
    inherit_cache = True


# SQLite keeps times as text; SQLAlchemy writes 'YYYY-MM-DD HH:MM:SS.ffffff', which compares
# in order with strftime's 'YYYY-MM-DD HH:MM:SS.SSS' (the leases' times are only the database's).
@compiles(_DatabaseNow, "sqlite")
def _sqlite_now(_element: _DatabaseNow, _compiler: SQLCompiler, **_kw: Any) -> str:
    return "strftime('%Y-%m-%d %H:%M:%f', 'now')"


@compiles(_DatabaseNow, "postgresql")
def _postgres_now(_element: _DatabaseNow, _compiler: SQLCompiler, **_kw: Any) -> str:
    return "clock_timestamp()"


@compiles(_DatabaseAgo, "sqlite")
def _sqlite_ago(element: _DatabaseAgo, compiler: SQLCompiler, **kw: Any) -> str:
    seconds = compiler.process(element.clauses, **kw)
    return f"strftime('%Y-%m-%d %H:%M:%f', 'now', '-' || {seconds} || ' seconds')"


@compiles(_DatabaseAgo, "postgresql")
def _postgres_ago(element: _DatabaseAgo, compiler: SQLCompiler, **kw: Any) -> str:
    seconds = compiler.process(element.clauses, **kw)
    return f"clock_timestamp() - make_interval(secs => {seconds})"


_KIND: BindParameter[str] = bindparam("lease_kind")
_KEY: BindParameter[str] = bindparam("lease_key")
_HOLDER: BindParameter[str] = bindparam("lease_holder")
_STALE_BEFORE = _DatabaseAgo(bindparam("stale_seconds", type_=Float()))
_THIS = and_(LEASES.c.kind == _KIND, LEASES.c.key == _KEY)
_MINE = and_(_THIS, LEASES.c.holder == _HOLDER)
_TAKE = LEASES.insert().values(kind=_KIND, key=_KEY, holder=_HOLDER, started_at=_DatabaseNow(),
                               heartbeat_at=_DatabaseNow())
_RENEW = LEASES.update().where(_MINE).values(heartbeat_at=_DatabaseNow()).returning(LEASES.c.key)
_GIVE_BACK = LEASES.delete().where(_MINE).returning(LEASES.c.key)
_CLAIM = LEASES.update().where(_THIS, LEASES.c.heartbeat_at < _STALE_BEFORE).values(
    holder=_HOLDER, heartbeat_at=_DatabaseNow()).returning(LEASES.c.key)
_STALE = select(LEASES.c.key).where(LEASES.c.kind == _KIND,
                                    LEASES.c.heartbeat_at < _STALE_BEFORE)


def holder_name() -> str:
    """This process as a lease names it: host, process id, and a random part, so that no two
    leases of one process (or of two processes of the same id) are taken for each other."""
    return f"{socket.gethostname()} pid {os.getpid()} {secrets.token_hex(4)}"[
        -IMPORT_HOLDER_LENGTH:]


def died_here(holder: str) -> bool:
    """Whether ``holder`` (:func:`holder_name`) is a process of this host that is gone: its
    lease is abandoned whatever its heartbeat says (``serve`` restarted after a crash sweeps
    its own import at once instead of a lease later). A process id in use again, or a host
    name two machines share, only makes it look alive: the lease then goes stale as any."""
    host, said, pid, _random = ([""] * 4 + holder.rsplit(" ", 3))[-4:]
    if host != socket.gethostname() or said != "pid" or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # someone else's process
        return False
    return _unreaped(int(pid))


def _unreaped(pid: int) -> bool:
    """Whether ``pid`` is a zombie: killed with its server, the helper that held a lease waits
    for a parent that is gone to reap it (a container's first process may never), and it still
    answers signal 0 until then. Where /proc cannot tell, it counts as alive."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
    fields = stat.rpartition(")")[2].split()
    return bool(fields) and fields[0] == "Z"


class Lease:
    """One import's (or one sweep's) hold on what is hidden under ``kind`` and ``key``."""

    def __init__(self, database: Database, kind: str, key: str,
                 seconds: float = LEASE_SECONDS) -> None:
        self._database = database
        self.seconds = seconds
        self.lost = False
        self._named = {"lease_kind": kind, "lease_key": key, "lease_holder": holder_name()}
        self._stopping = asyncio.Event()
        self._beating: asyncio.Task[None] | None = None

    async def take(self, statements: Statements) -> None:
        """Take the lease in the transaction of ``statements`` and keep it alive from now on
        (the import's first part: its rows and its lease are there together)."""
        await statements.run(_TAKE, self._named)
        self._beat_from_now()

    @classmethod
    async def claim(cls, database: Database, kind: str, key: str,
                    seconds: float = LEASE_SECONDS, *, abandoned: bool = False) -> Lease | None:
        """The lease of ``key``, taken over if it is stale (and kept alive from now on); None
        if its holder is alive, or another process claimed it first. ``abandoned``: its holder
        is known to be gone (:func:`died_here`), its heartbeat's age does not matter."""
        lease = cls(database, kind, key, seconds)
        async with database.write() as statements:
            claimed = await statements.one(_CLAIM, {**lease._named,
                                                    "stale_seconds": 0 if abandoned else seconds})
        if claimed is None:
            return None
        lease._beat_from_now()
        return lease

    def _beat_from_now(self) -> None:
        self._beating = asyncio.get_running_loop().create_task(self._beat())

    async def _beat(self) -> None:
        every = self.seconds / HEARTBEATS_PER_LEASE
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), every)
                return
            try:
                async with self._database.write() as statements:
                    renewed = await statements.one(_RENEW, self._named)
            except Exception:  # the database busy or away: the next beat may get through
                logger.warning("could not renew the lease of import %s",
                               self._named["lease_key"], exc_info=True)
                continue
            if renewed is None:
                self.lost = True
                logger.warning("the lease of import %s was claimed as stale; it stops",
                               self._named["lease_key"])
                return

    async def give_back(self, statements: Statements) -> None:
        """Give the lease back in the transaction of ``statements`` (the import's last part);
        :class:`LeaseLost`, and the transaction rolled back, if it is not held any more."""
        if await statements.one(_GIVE_BACK, self._named) is None:
            self.lost = True
            raise LeaseLost

    async def release(self) -> None:
        """Give the lease back on its own, if it is still held (what it covered is gone)."""
        await self.stop()
        async with self._database.write() as statements:
            await statements.one(_GIVE_BACK, self._named)

    async def stop(self) -> None:
        """No more heartbeats (the lease row stays as it is: given back, or to go stale)."""
        self._stopping.set()
        if self._beating is not None:
            await self._beating


class Turns:
    """The write transactions of one import, one after the other, each after the others'
    turn; with a ``lease``, the first takes it and :meth:`last` gives it back."""

    def __init__(self, database: Database, lease: Lease | None = None) -> None:
        self._database = database
        self._turn = SQLITE_TURN if database.engine.dialect.name == "sqlite" else 0.0
        self._first = True
        self._lease = lease
        self._storing = True

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Statements]:
        """The next part's write transaction, committed at the end of the block; while
        storing, :class:`LeaseLost` instead once the lease was claimed by a sweep."""
        if not self._first:
            await asyncio.sleep(self._turn)  # on PostgreSQL too: the loop's other work goes on
        if self._storing and self._lease is not None and self._lease.lost:
            raise LeaseLost
        first, self._first = self._first, False
        async with self._database.write(poll=LOCK_POLL) as statements:
            if first and self._lease is not None:
                await self._lease.take(statements)
            yield statements

    @asynccontextmanager
    async def last(self) -> AsyncIterator[Statements]:
        """The last part's write transaction: it reveals the import and gives back its lease,
        or fails (:class:`LeaseLost`) if the lease was claimed, so that nothing half swept is
        ever revealed."""
        async with self.write() as statements:
            yield statements
            if self._lease is not None:
                await self._lease.give_back(statements)

    def undoing(self) -> None:
        """From now on the writes remove what the import wrote: they go on with a lost lease
        (removing what a sweep removes too changes nothing)."""
        self._storing = False

    async def undone(self) -> None:
        """What the import wrote is removed: its lease is given back."""
        if self._lease is not None and not self._first:
            await self._lease.release()

    async def stop(self) -> None:
        """The import is over, however it ended: no more heartbeats."""
        if self._lease is not None:
            await self._lease.stop()


NO_LEASE, STALE, GONE = "no lease", "stale", "holder gone"
Candidates = Sequence[tuple[str, str]]
"""Keys of hidden imports, each with why nobody holds it: :data:`NO_LEASE` (an import from
before leases), :data:`STALE` (no heartbeat for a lease), :data:`GONE` (its process, on this
host, is gone: :func:`died_here`)."""


def with_leases(kind: str, hidden: FromClause,
                key: ColumnElement[str]) -> Select[str, str | None, bool]:
    """Each hidden key of ``hidden`` (its column ``key``) with the holder of the lease of
    ``kind`` on it (None: no lease) and whether it is stale, in one statement
    (``stale_seconds`` its parameter): a key whose lease is missing in the same snapshot as
    its rows was left by an import from before leases (an import takes its lease in the
    transaction of its first rows and gives it back in that of its last)."""
    stale = LEASES.c.heartbeat_at < _STALE_BEFORE
    return select(key, LEASES.c.holder, stale).select_from(hidden.outerjoin(
        LEASES, and_(LEASES.c.kind == kind, LEASES.c.key == key)))


async def candidates(database: Database, statement: Select[str, str | None, bool],
                     seconds: float) -> Candidates:
    """The rows of a :func:`with_leases` statement, live leases left out (but those of
    processes of this host that are gone, :func:`died_here`, which count as stale)."""
    async with database.sessions() as session:
        rows = (await session.execute(statement, {"stale_seconds": seconds})).all()
    found: list[tuple[str, str]] = []
    for key, holder, stale in rows:
        if holder is None:
            found.append((key, NO_LEASE))
        elif stale:
            found.append((key, STALE))
        elif died_here(holder):
            found.append((key, GONE))
    return found


async def stale_leases(database: Database, kind: str, seconds: float) -> Candidates:
    """The keys of ``kind`` whose lease is stale: what a sweep while serving looks at (the
    lease table is small; the hidden rows of imports from before leases are swept at start)."""
    async with database.sessions() as session:
        keys = (await session.execute(_STALE, {"lease_kind": kind,
                                                "stale_seconds": seconds})).scalars()
        return [(key, STALE) for key in keys]


async def sweep(database: Database, kind: str, found: Candidates, seconds: float,
                remove: Callable[[str], Awaitable[None]]) -> int:
    """Remove with ``remove`` each import of ``found`` that nobody holds: one without a lease at
    once, one with a stale (or abandoned) lease once this process has claimed it (held while it
    removes, given back after); how many were removed."""
    removed = 0
    for key, why in found:
        if why == NO_LEASE:
            await remove(key)
            removed += 1
            continue
        lease = await Lease.claim(database, kind, key, seconds, abandoned=why == GONE)
        if lease is None:
            continue
        try:
            await remove(key)
            await lease.release()
        finally:
            await lease.stop()
        removed += 1
    return removed


async def keep_sweeping(sweeps: Sequence[Callable[[], Awaitable[int]]], every: float) -> None:
    """Run ``sweeps`` every ``every`` seconds until cancelled: a serve process sweeps what
    another process (on this machine or another) left when it died, not only at its own
    start."""
    while True:
        await asyncio.sleep(every)
        for one in sweeps:
            try:
                removed = await one()
            except Exception:  # a database away for a moment: the next round tries again
                logger.warning("sweeping abandoned imports failed", exc_info=True)
                continue
            if removed:
                logger.warning("removed %d import(s) abandoned by a process that stopped "
                               "renewing their lease", removed)
