"""The database as the handlers use it: sessions, and the fast ways in for the hot paths.

* :meth:`Database.write` is one write transaction as :class:`api.db.statements.Statements`:
  committed when the block ends, rolled back when it raises. On a SQLite file it runs on the
  event loop (:mod:`api.db.loop_sqlite`) unless another process holds the write lock, in which
  case it goes through the engine; on PostgreSQL straight on an asyncpg connection lent
  without a pool checkout (:class:`api.db.driver_postgres.Lender`, as the two below). With
  ``synchronous="full"`` (the default) the block ends only once the commit is on disk:
  through the engine SQLite syncs inside the commit; on the loop
  :class:`api.db.group_sync.GroupSync` syncs many commits at once on a thread, after this
  process's next writer has had its turn.
* :meth:`Database.read_one` is a read of one row in one statement (on PostgreSQL in autocommit:
  one round trip).
* :meth:`Database.write_one` (PostgreSQL only, :attr:`Database.writes_one_statement`) is a write
  that is one statement, its own transaction: one round trip, no BEGIN and no COMMIT.
* :attr:`Database.sessions` opens ORM sessions for everything else.

On SQLite, writers of this process queue on :attr:`Database.writer_lock` first, whichever way
they then go: SQLite's own busy handler waits by sleeping with a growing backoff, which turns a
queue of writers into idle time; the lock hands over at once. Other processes still meet the
database lock (and, through the engine, its busy timeout).

The loop's writer never checkpoints the WAL itself (a checkpoint syncs to disk); every
``CHECKPOINT_EVERY`` of its commits a checkpoint runs on the engine's thread instead: first beside
the writes, copying the bulk of the WAL, then once more in its turn among this process's writers,
copying the few frames written meanwhile. The second one matters: a checkpoint running beside
writes never copies the last frames, so the WAL is never found complete and restarted, and grows
without end (seen: 150 MB in ten seconds of recording rounds). Between writes it copies every
frame, and the next write starts the WAL afresh; doing the bulk beforehand keeps the writers'
wait short. Every 1,000 commits rather than SQLite's usual 1,000 pages: fewer syncs, and pages
written again and again (a match's row during its rounds) are copied once; the WAL stays around
35 MB when rounds are recorded without pause (bench/api.py).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from typing import TYPE_CHECKING, Any

from sqlalchemy import Executable, text
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from api.db.engine import ONE_STATEMENT, WRITE
from api.db.group_sync import GroupSync
from api.db.loop_sqlite import LoopSQLite, is_busy
from api.db.statements import (
    CompiledStatements,
    EngineStatements,
    Params,
    Row,
    Statements,
)

if TYPE_CHECKING:  # asyncpg is installed with the postgres extra only
    from api.db.driver_postgres import Lender

logger = logging.getLogger(__name__)
CHECKPOINT_EVERY = 1000
_CHECKPOINT = text("PRAGMA wal_checkpoint(PASSIVE)")


class Database:
    def __init__(self, engine: AsyncEngine, *, synchronous: str = "full") -> None:
        """``synchronous`` as the engine was made with (:data:`api.db.engine.SYNCHRONOUS`)."""
        self.engine = engine
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self.writer_lock = asyncio.Lock() if engine.dialect.name == "sqlite" else None
        self._loop = LoopSQLite.for_engine(engine)
        self.group_sync = GroupSync(self._loop.path) \
            if self._loop is not None and synchronous == "full" else None
        # One statement is one snapshot either way; on PostgreSQL without a transaction around
        # it, which would cost a BEGIN and a ROLLBACK, each a round trip, besides the statement.
        self._one_statement = engine.execution_options(**{ONE_STATEMENT: True}) \
            if engine.dialect.name == "sqlite" else \
            engine.execution_options(isolation_level="AUTOCOMMIT")
        self._writes = engine.execution_options(**{WRITE: True})
        # PostgreSQL's statements go straight to asyncpg (api.db.driver_postgres), compiled once,
        # on connections lent without a pool checkout.
        self._lender: Lender | None = None
        if engine.dialect.name == "postgresql":
            from api.db.driver_postgres import Lender

            self._lender = Lender(self._one_statement, CompiledStatements(engine.dialect))
        self._loop_commits = 0
        self._checkpoint: asyncio.Task[None] | None = None

    def queue_for_writing(self) -> AbstractAsyncContextManager[Any]:
        """Wait for this process's earlier writers (SQLite), or go at once (PostgreSQL)."""
        return self.writer_lock if self.writer_lock is not None else nullcontext()

    async def read_one(self, statement: Executable, params: Params) -> Row | None:
        """The statement's only row, or None: one statement, one consistent snapshot."""
        if self._loop is not None:
            try:
                return self._loop.read_one(statement, params)
            except sqlite3.OperationalError as error:
                if not is_busy(error):
                    raise
        if self._lender is not None:
            return await self._lender.one(statement, params)
        async with self._one_statement.connect() as connection:
            return await EngineStatements(connection).one(statement, params)

    @property
    def writes_one_statement(self) -> bool:
        """Whether :meth:`write_one` can be used: PostgreSQL, whose statements may change
        several tables at once (``WITH ... UPDATE ... INSERT``); SQLite's cannot."""
        return self._lender is not None

    async def write_one(self, statement: Executable, params: Params) -> Row | None:
        """Run one statement that writes, committed as it ends (durable as :meth:`write` is:
        the connection's ``synchronous_commit``); its first row, or None. PostgreSQL only."""
        assert self._lender is not None, "only PostgreSQL writes in one statement"
        return await self._lender.one(statement, params)

    @asynccontextmanager
    async def write(self, *, poll: float | None = None) -> AsyncIterator[Statements]:
        """One write transaction, committed (and durable, see above) at the end of the block.

        ``poll``: while another process holds SQLite's write lock, try again on the loop's
        connection every ``poll`` seconds instead of waiting on the engine's thread, whose busy
        handler sleeps up to 100 ms between tries and so loses the lock to a server recording
        rounds one after another (for the helper process's import, :mod:`api.server.offload`)."""
        async with self.queue_for_writing():
            statements = self._loop.begin_write() if self._loop is not None else None
            while statements is None and poll is not None and self._loop is not None:
                await asyncio.sleep(poll)
                statements = self._loop.begin_write()
            if statements is None and self._lender is not None:
                async with self._lender.transaction() as driver_statements:
                    yield driver_statements
                return
            if statements is None:
                async with self._writes.begin() as connection:
                    yield EngineStatements(connection)
                return
            assert self._loop is not None
            try:
                yield statements
                self._loop.commit()
            except BaseException:
                self._loop.rollback()
                raise
            self._after_loop_commit()
        # Outside the writers' queue: the next writer commits while this one waits for the disk,
        # and one sync makes both durable.
        if self.group_sync is not None:
            await self.group_sync.durable(self.group_sync.commit_made())

    def _after_loop_commit(self) -> None:
        self._loop_commits += 1
        if self._loop_commits >= CHECKPOINT_EVERY and self._checkpoint is None:
            self._loop_commits = 0
            self._checkpoint = asyncio.get_running_loop().create_task(self._run_checkpoint())

    async def _run_checkpoint(self) -> None:
        try:
            async with self._one_statement.connect() as connection:
                await connection.execute(_CHECKPOINT)
                async with self.queue_for_writing():
                    await connection.execute(_CHECKPOINT)
        except Exception:  # the next one may succeed; SQLite checkpoints on close as well
            logger.exception("A WAL checkpoint failed")
        finally:
            self._checkpoint = None

    @property
    def checkpointing(self) -> bool:
        """A checkpoint is running on a thread."""
        return self._checkpoint is not None

    async def close(self) -> None:
        if self._checkpoint is not None:
            await self._checkpoint
        if self._loop is not None:
            self._loop.close()
        if self._lender is not None:
            await self._lender.close()
        await self.engine.dispose()

