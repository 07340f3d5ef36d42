"""``tafelrunde backup FILE`` and ``tafelrunde restore FILE`` for the SQLite database.

Backup uses SQLite's online backup API, so it is safe while the server runs and writes: the copy
is the database as of one moment. It is written next to FILE, checked with ``PRAGMA
integrity_check``, switched to a self-contained rollback journal (no ``-wal`` file belongs to
it) and only then renamed onto FILE, so FILE is never half a backup (an older FILE is replaced).

Restore refuses a FILE that is not a Tafelrunde database: not SQLite, failing its integrity
check, or without an ``alembic_version`` naming a revision this version of Tafelrunde knows.
It first saves the current database next to itself (``<name>.before-restore-<UTC time>``),
then copies FILE into the live database with the same backup API, under SQLite's write lock, so
a running server never reads half a restore and sees the restored data from its next request;
finally it migrates the schema to this version's head (a backup from an older version is
upgraded).

PostgreSQL is backed up with its own tools (``pg_dump -Fc`` / ``pg_restore``): both commands say
so and exit 2 there.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url

from api.server import schema

NOT_SQLITE = 2
REQUIRED_TABLES = frozenset({"alembic_version", "match", "round", "audit", "idempotency"})
BUSY_TIMEOUT_SECONDS = 30.0


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why, ``exit_code`` how bad."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def sqlite_path(database_url: str) -> Path:
    url = make_url(database_url)
    if not url.drivername.startswith("sqlite"):
        raise BackupError(
            f"The database is {url.get_backend_name()}, not SQLite. Back it up with PostgreSQL's "
            "own tools: pg_dump -Fc -f tafelrunde.dump <database>, and restore with "
            "pg_restore --clean -d <database> tafelrunde.dump (see the README's Operations).",
            NOT_SQLITE)
    if not url.database or url.database == ":memory:":
        raise BackupError("An in-memory database cannot be backed up or restored.")
    return Path(url.database)


def _copy(source: sqlite3.Connection, target: sqlite3.Connection) -> None:
    with target:
        source.backup(target)


def backup(database_url: str, file: Path) -> None:
    """Copy the live database to ``file`` (replaced only once the copy is complete and sound)."""
    live = sqlite_path(database_url)
    if not live.is_file():
        raise BackupError(f"There is no database at {live}.")
    if file.is_dir() or not file.name:
        raise BackupError(f"{file} is a folder: name the file to write the backup to.")
    partial = file.with_name(f".{file.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        source = sqlite3.connect(f"file:{live}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_SECONDS)
        try:
            target = sqlite3.connect(partial)
            try:
                _copy(source, target)
                target.execute("PRAGMA journal_mode=DELETE")
                problem = _integrity_problem(target)
            finally:
                target.close()
        finally:
            source.close()
    except sqlite3.DatabaseError as error:  # not a database, a folder missing, still locked
        partial.unlink(missing_ok=True)
        raise BackupError(f"Cannot copy {live} to {file}: {error}.") from None
    if problem:
        partial.unlink(missing_ok=True)
        raise BackupError(f"The copy failed its integrity check: {problem}")
    partial.replace(file)


def _integrity_problem(connection: sqlite3.Connection) -> str | None:
    answer = connection.execute("PRAGMA integrity_check").fetchone()[0]
    return None if answer == "ok" else str(answer)


def check_backup(file: Path, database_url: str) -> str:
    """The schema revision of a Tafelrunde backup; ``BackupError`` for anything else."""
    if not file.is_file():
        raise BackupError(f"There is no file {file}.")
    try:
        connection = sqlite3.connect(f"file:{file}?mode=ro", uri=True)
        try:
            problem = _integrity_problem(connection)
            tables = {name for (name,) in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            revisions = ([row[0] for row in connection.execute(
                "SELECT version_num FROM alembic_version")]
                if "alembic_version" in tables else [])
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{file} is not an SQLite database: {error}") from None
    if problem:
        raise BackupError(f"{file} fails SQLite's integrity check: {problem}")
    missing = REQUIRED_TABLES - tables
    if missing:
        raise BackupError(f"{file} is not a Tafelrunde database: it lacks the tables "
                          f"{', '.join(sorted(missing))}.")
    scripts = ScriptDirectory.from_config(schema.alembic_config(database_url))
    known = {script.revision for script in scripts.walk_revisions()}
    if len(revisions) != 1 or revisions[0] not in known:
        raise BackupError(f"{file} has the schema revision {revisions}, which this version of "
                          "Tafelrunde does not know (a backup from a newer version?).")
    return str(revisions[0])


def restore(database_url: str, file: Path) -> Path | None:
    """Replace the live database's content with ``file``; returns where the old one was saved."""
    live = sqlite_path(database_url)
    check_backup(file, database_url)
    saved = None
    if live.is_file():
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        saved = live.with_name(f"{live.name}.before-restore-{stamp}")
        backup(database_url, saved)
    source = sqlite3.connect(f"file:{file}?mode=ro", uri=True)
    try:
        target = sqlite3.connect(live, timeout=BUSY_TIMEOUT_SECONDS)
        try:
            _copy(source, target)
            target.execute("PRAGMA journal_mode=WAL")
        finally:
            target.close()
    finally:
        source.close()
    schema.upgrade(database_url)
    return saved
