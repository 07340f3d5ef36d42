"""Durable commits on the event loop's SQLite connection, one ``fsync`` for many of them.

With ``synchronous=FULL`` SQLite syncs the WAL inside every ``COMMIT``: on the loop's own
connection that would stop the event loop for each sync (a few milliseconds on an SSD, tens on
an SD card) and allow no more commits per second than syncs. So the loop's connection commits
with ``synchronous=NORMAL`` (the frames are written to the WAL, not yet synced), and a write
waits, before it is answered, for :meth:`GroupSync.durable`: one ``fsync`` of the WAL file on a
thread makes every commit written before it durable, however many there were. A commit is
acknowledged only once a sync that began after it has finished, so every acknowledged round
survives a power cut, as with ``synchronous=FULL``.

Why syncing the file from outside SQLite is enough: in WAL mode a commit is its frames in the
WAL file (checksummed, so a torn tail is recognised and dropped at recovery); ``fsync`` on any
descriptor of the file flushes every byte written to it. Checkpoints sync the WAL before they
copy it and the database before the WAL is started afresh (SQLite does that itself). The WAL
file's directory entry is synced too, once per WAL file, so a new WAL cannot vanish. SQLite
never takes a POSIX lock on the WAL file (it locks the database and its ``-shm`` file), so
opening and closing a descriptor of it here cannot release a lock of SQLite's.

Other readers may see a commit a few milliseconds before it is durable; what is promised is
that nothing answered as stored is lost.
"""

from __future__ import annotations

import asyncio
import os


class GroupSync:
    """Counts the loop's commits and syncs the WAL for all that wait, one sync at a time."""

    def __init__(self, database_path: str) -> None:
        path = os.path.abspath(database_path)
        self.wal_path = f"{path}-wal"
        self.directory = os.path.dirname(path)
        self.committed = 0  # commits made on the loop so far
        self.synced = 0  # of those, how many are known to be on disk
        self._syncing: asyncio.Task[None] | None = None
        self._synced_wal: int | None = None  # inode of the WAL whose directory entry is synced

    def commit_made(self) -> int:
        """Count a commit just made; its number, for :meth:`durable`."""
        self.committed += 1
        return self.committed

    async def durable(self, commit: int) -> None:
        """Return once commit number ``commit`` is on disk."""
        while self.synced < commit:
            if self._syncing is None:
                self._syncing = asyncio.get_running_loop().create_task(self._sync())
            # Shielded: a request that goes away must not cancel the others' sync.
            await asyncio.shield(self._syncing)

    async def _sync(self) -> None:
        covered = self.committed  # every commit made so far is in the file the sync flushes
        try:
            await asyncio.to_thread(self.sync_files)
            self.synced = max(self.synced, covered)
        finally:
            self._syncing = None

    def sync_files(self) -> None:
        """On a thread: the WAL's bytes, and its directory entry if this WAL is new."""
        wal = os.open(self.wal_path, os.O_RDONLY)
        try:
            os.fsync(wal)
            inode = os.fstat(wal).st_ino
        finally:
            os.close(wal)
        if inode != self._synced_wal:
            directory = os.open(self.directory, os.O_RDONLY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)
            self._synced_wal = inode
