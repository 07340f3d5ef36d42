"""Settings from ``TAFELRUNDE_*`` environment variables (and ``serve``'s options), checked at start.

Every setting is one field of :class:`Settings` declared with :func:`setting`: its default, the
parser that turns the variable's text into the value, a help line, and optionally the option of
``tafelrunde serve`` that overrides it. The variable's name is ``TAFELRUNDE_`` and the field's
name in capitals. :meth:`Settings.from_env` reads them all and raises :class:`SettingsError`
with one line per bad variable, so the command names everything wrong at once, before anything
touches the database.

Decisions:

* The lines are English. An operator reads them, like the rest of the command's output and the
  server's log; what players read is translated.
* An empty variable means its default (``Environment=TAFELRUNDE_PORT=`` in a unit file unsets it).
* An unknown ``TAFELRUNDE_*`` variable is refused, with the nearest known name: a typo would
  otherwise quietly leave the default in force (``TAFELRUNDE_DATABASE_ULR``: a new SQLite file).
  ``TAFELRUNDE_TEST_*`` belongs to the test suite and is left alone.
* Sizes are whole numbers of bytes (``1MB`` is refused rather than guessed: 10^6 or 2^20?).
* The database defaults to ``tafelrunde.db`` in the working directory; CORS is closed unless
  ``TAFELRUNDE_CORS_ORIGINS`` names origins; request bodies are capped at 256 KiB, far more
  than any round entry needs; 20 refused tokens per minute from one client address, then 429
  (``api.edge.ratelimit``; 0 switches it off).
* Connections (``api.edge.connections``): 10 s for a request's head, 60 s for its body (a 16 MiB
  import at 2.5 Mbit/s; a round's body is a few hundred bytes), 15 s idle between requests
  (a reverse proxy keeps its own idle connections to us for less, see the README), 30 s for a
  client that takes no bytes of an answer, 1,000 open connections per process: a phone with an
  event stream open for each of 250 tables of four; beyond it a phone is told 503 and tries
  again, rather than the server running out of file handles. 256 of them per client address:
  the server normally sees a hall's phones by their LAN addresses, but a club whose phones
  come through one router's public address (NAT) still fits, about 60 phones each with its
  event stream and a browser's few request connections; one address cannot take them all.
  Trusted proxies are not capped per address.
* An import under way renews its lease every 5 s; 30 s without a heartbeat and any server
  process on the database sweeps it (``api.shared.imports``): far above a heartbeat delayed by
  a busy machine or database, short enough that a crashed host's half-import is gone soon.
* A quiet event stream gets a comment every 15 s (``TAFELRUNDE_EVENT_PING``): under the read
  timeout of every common reverse proxy, and a test can make it short.
* One worker process by default; ``--workers N`` needs PostgreSQL (refused on SQLite, exit
  status 2, before the database is touched).
"""

from __future__ import annotations

import difflib
import importlib.util
import ipaddress
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from api.db.engine import SYNCHRONOUS

PREFIX = "TAFELRUNDE_"
TEST_PREFIX = "TAFELRUNDE_TEST_"
API_DIR = Path(__file__).resolve().parents[1]  # api/, this file being api/server/settings.py
REPO_ROOT = API_DIR.parent
DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg"}
LIVE_BACKENDS = ("auto", "memory", "postgres")

T = TypeVar("T")


def shipped(folder: str) -> Path:
    """``pwa`` or ``migrations``: the wheel carries them inside the ``api`` package; a checkout
    (and an editable install) has them at the repository's top level."""
    inside = API_DIR / folder
    return inside if inside.is_dir() else REPO_ROOT / folder


APP = shipped("pwa")


class SettingsError(ValueError):
    """Bad settings; ``lines`` says what is wrong with each, one line per variable."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = tuple(lines)


def setting(default: T, parse: Callable[[str], T], meaning: str, *,
            option: str | None = None) -> T:
    """A field of :class:`Settings`: its default, how its text is read, what it means, and the
    ``tafelrunde serve`` option that overrides it."""
    return field(default=default, metadata={"parse": parse, "meaning": meaning, "option": option})


# How a variable's text becomes a value: a ValueError's message says what was expected. -------


def text(value: str) -> str:
    return value


def whole(what: str, minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """``what`` names the number as the message should, e.g. "a whole number of bytes"."""
    bounds = f"from {minimum} to {maximum}" if maximum is not None else f"at least {minimum}"
    expected = f"expected {what}, {bounds}"

    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            raise ValueError(expected) from None
        if number < minimum or (maximum is not None and number > maximum):
            raise ValueError(expected)
        return number

    return parse


def one_of(*choices: str) -> Callable[[str], str]:
    def parse(value: str) -> str:
        if value not in choices:
            raise ValueError(f"expected one of {', '.join(choices)}")
        return value

    return parse


def database_url(value: str) -> str:
    expected = "expected sqlite+aiosqlite:///FILE or postgresql+asyncpg://USER@HOST/DATABASE"
    try:
        url = make_url(value)
    except ArgumentError:
        raise ValueError(f"not a database URL; {expected}") from None
    if url.drivername not in DRIVERS.values():
        raise ValueError(f"the driver {url.drivername!r} is not supported; {expected}")
    if url.get_backend_name() == "sqlite" and url.database in (None, ""):
        raise ValueError(f"no file named; {expected}")
    if url.get_backend_name() == "postgresql" and importlib.util.find_spec("asyncpg") is None:
        raise ValueError("PostgreSQL needs the postgres extra: pip install 'tafelrunde[postgres]'")
    return value


def origins(value: str) -> tuple[str, ...]:
    """Comma-separated origins, each exactly as a browser sends it in ``Origin``."""
    named = tuple(part.strip() for part in value.split(",") if part.strip())
    for origin in named:
        parts = urlsplit(origin)
        if origin != "*" and (parts.scheme not in ("http", "https") or not parts.netloc
                              or origin != f"{parts.scheme}://{parts.netloc}"):
            raise ValueError(f"{origin!r} is not an origin such as https://club.example "
                             "(scheme and host, no path or trailing slash) or *")
    return named


def networks(value: str) -> tuple[str, ...]:
    """Comma-separated IP addresses or networks (``10.0.0.0/8``), each checked."""
    named = tuple(part.strip() for part in value.split(",") if part.strip())
    for network in named:
        try:
            ipaddress.ip_network(network, strict=False)
        except ValueError:
            raise ValueError(f"{network!r} is not an IP address or network such as 127.0.0.1 "
                             "or 10.0.0.0/8") from None
    return named


def app_folder(value: str) -> Path:
    folder = Path(value)
    if not (folder / "index.html").is_file():
        raise ValueError(f"{folder} is not a folder with the app's index.html")
    return folder


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str = setting(
        "sqlite+aiosqlite:///tafelrunde.db", database_url,
        "SQLAlchemy URL; postgresql+asyncpg://user@host/db for PostgreSQL")
    host: str = setting("127.0.0.1", text, "address serve listens on", option="--host")
    port: int = setting(8000, whole("a port number", 0, 65535),
                        "port serve listens on; 0 picks a free one", option="--port")
    live_backend: str = setting(
        "auto", one_of(*LIVE_BACKENDS),
        "live updates: memory (one process) or postgres (LISTEN/NOTIFY); auto picks by database")
    cors_origins: tuple[str, ...] = setting(
        (), origins, "comma-separated origins allowed to call the API from elsewhere")
    max_body_bytes: int = setting(256 * 1024, whole("a whole number of bytes", 1),
                                  "request body limit in bytes (413 above it)")
    auth_failures_per_minute: int = setting(
        20, whole("a whole number", 0),
        "refused tokens per address, match or tournament and minute before 429 (0: off)")
    trusted_proxies: tuple[str, ...] = setting(
        (), networks, "comma-separated addresses or networks of reverse proxies whose "
        "X-Forwarded-For names the client; empty: the connection's address is the client")
    pwa_dir: Path = setting(APP, app_folder, "where the app's files are served from")
    synchronous: str = setting(
        "full", one_of(*SYNCHRONOUS),
        "full: every write answered as stored survives a power cut; normal: faster, a power cut "
        "may lose the last writes answered")
    workers: int = setting(1, whole("a whole number of processes", 1, 64),
                           "server processes sharing the port; more than 1 needs PostgreSQL",
                           option="--workers")
    header_timeout: int = setting(
        10, whole("a whole number of seconds", 1, 3600),
        "seconds a connection has to send a request's head; then it is closed",
        option="--header-timeout")
    body_timeout: int = setting(
        60, whole("a whole number of seconds", 1, 3600),
        "seconds a request has to send its body once its head is complete; then the "
        "connection is closed", option="--body-timeout")
    idle_timeout: int = setting(
        15, whole("a whole number of seconds", 1, 3600),
        "seconds a connection may wait between an answer and its next request",
        option="--idle-timeout")
    send_timeout: int = setting(
        30, whole("a whole number of seconds", 1, 3600),
        "seconds a client may take no bytes of an answer (or acknowledge none) before it is "
        "dropped", option="--send-timeout")
    max_connections: int = setting(
        4000, whole("a whole number of connections", 1),
        "open connections per server process (event streams included); beyond it 503",
        option="--max-connections")
    max_connections_per_address: int = setting(
        256, whole("a whole number of connections", 1),
        "open connections per client address and server process; a further one is closed at "
        "once (trusted proxies are not capped)", option="--max-connections-per-address")
    import_lease: int = setting(
        30, whole("a whole number of seconds", 1, 3600),
        "seconds without a heartbeat after which an import under way counts as abandoned and "
        "is swept (the same on every server process of a database)")
    event_ping: int = setting(
        15, whole("a whole number of seconds", 1, 3600),
        "seconds between the comments that keep a quiet event stream open through a proxy "
        "(one that closes a stream quiet for longer than its read timeout)")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None,
                 options: Mapping[str, str | None] | None = None) -> Settings:
        """Settings read from ``env`` (default: the process environment), overridden by
        ``serve``'s ``options`` (field name to the option's text, None when not given).

        Raises :class:`SettingsError` naming every bad variable or option.
        """
        source = os.environ if env is None else env
        options = options or {}
        values: dict[str, Any] = {}
        problems = _unknown_variables(source)
        for item in fields(cls):
            variable = PREFIX + item.name.upper()
            given, named = options.get(item.name), item.metadata["option"]
            if given is None:
                given, named = source.get(variable, "").strip(), variable
            if not given:
                continue
            try:
                values[item.name] = item.metadata["parse"](given)
            except ValueError as error:
                problems.append(f"{named}={given!r}: {error}")
        if not problems:
            settings = cls(**values)
            problems = settings._disagreements()
            if not problems:
                return settings
        raise SettingsError(problems)

    def _disagreements(self) -> list[str]:
        """Settings that are each fine but do not go together."""
        if self.live_backend == "postgres" and self.is_sqlite:
            return [f"{PREFIX}LIVE_BACKEND='postgres': needs a PostgreSQL database, but "
                    f"{PREFIX}DATABASE_URL is SQLite"]
        if self.workers > 1 and self.is_sqlite:
            return [f"{self.workers} workers: several server processes need a PostgreSQL "
                    f"database, but {PREFIX}DATABASE_URL is SQLite (one process serves a "
                    "SQLite file; leave out --workers)"]
        if self.workers > 1 and self.live_backend == "memory":
            return [f"{self.workers} workers: {PREFIX}LIVE_BACKEND='memory' reaches the phones "
                    "of one process only; use postgres or auto"]
        return []

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


def variables() -> dict[str, str]:
    """Every variable's name and what it means."""
    return {PREFIX + item.name.upper(): item.metadata["meaning"] for item in fields(Settings)}


def _unknown_variables(source: Mapping[str, str]) -> list[str]:
    known = variables()
    problems = []
    for name in sorted(source):
        if name.startswith(PREFIX) and not name.startswith(TEST_PREFIX) and name not in known:
            nearest = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {nearest[0]}?" if nearest else ""
            problems.append(f"{name}: not a Tafelrunde setting{hint}")
    return problems
