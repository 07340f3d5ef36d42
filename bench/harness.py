"""What the reliability benches and tests share: a real ``tafelrunde serve`` process, phones that
play whole matches over HTTP and retry every request with the same ``Idempotency-Key``, and an
audit of the database against fresh folds of its rounds.

It talks to the server over HTTP and to the database with plain SQL, so it checks what is
really stored, not what the service believes.

Decisions: a phone drops connections on purpose (``Chaos``): some requests get a client-side
timeout far shorter than the request takes, some are written to a fresh socket that is closed
right after sending, so the server may or may not store them. Either way the phone sends the
same request again, with the same key, until an answer arrives. A 5xx answer is counted and
retried too, as a phone would. Creating a match takes no key: a lost answer leaves an empty
match behind, which loses and doubles nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

try:
    import asyncpg
    import httpx
    import msgspec
except ImportError as missing:  # the benches run in the project's test environment
    raise SystemExit(f"the benches need the test extras ({missing.name} is missing): "
                     ".venv/bin/pip install -e '.[test]'") from None
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from api.db.engine import asyncpg_dsn
from api.server.cli import RUNNING
from scoring import registry
from scoring.errors import InvalidEntry, InvalidOptions, MatchFinished
from scoring.match import fold_match, set_up

REPO_ROOT = Path(__file__).resolve().parent.parent
GAMES = ("tschau-sepp", "sea-change", "seven-seals")
NAMES = ("Ann", "Bea", "Cem", "Dev")
# Short matches, so that every phone plays whole matches of all three games.
OPTIONS: dict[str, dict[str, Any]] = {
    "tschau-sepp": {"games": 2}, "sea-change": {"target_vp": 2}, "seven-seals": {"rounds": 2},
}
DEFAULT_POSTGRES_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
RETRY_PAUSE = 0.05
# A start (imports, migrations) was seen to take more than 30 s on a loaded shared machine, and a
# crash run's restart more than 60 s with both crash runs side by side: a phone keeps sending
# for as long as a start may take and a minute more, so only a server that never comes back
# makes it give up (it gave up after 60 s while a slow restart was still allowed 180).
START_PATIENCE = 180.0
GIVE_UP_AFTER = START_PATIENCE + 60.0


# The rounds a table plays ------------------------------------------------------------------


def new_match(game: str, rng: random.Random) -> dict[str, Any]:
    players = list(NAMES[: rng.choice((3, 4))])
    return {"game": game, "players": players, "options": OPTIONS[game],
            "private": rng.random() < 0.3}


def next_entry(game: str, players: int, rng: random.Random) -> dict[str, Any]:
    """A valid round of ``game`` at a table of ``players``, different from round to round."""
    if game == "tschau-sepp":
        winner = rng.randrange(players)
        # From 6 up every number of points is a hand's worth under the face table.
        return {"winner": winner,
                "penalty": [0 if seat == winner else rng.randint(6, 60) for seat in range(players)]}
    if game == "sea-change":
        deck = described(game)["decks"][str(players)]
        others = [rng.randint(0, 2) for _ in range(players - 1)]
        best = rng.randrange(players)  # one clear best score: no tie to break with tricks
        scores = [*others[:best], deck["checksum"] - sum(others), *others[best:]]
        return {"final_trump": rng.choice(deck_suits(game)), "scores": scores,
                "trump_zero": rng.randrange(players)}
    colours = described(game)["colours"]
    return {"bids": [{"seals": [colours[seat]]} for seat in range(players)],
            "remaining": [rng.choice(([], [colours[seat]])) for seat in range(players)],
            "black": [rng.randint(0, 1) for _ in range(players)]}


def deck_suits(game: str) -> list[str]:
    suits: list[str] = described(game)["suits"]
    return suits


@functools.cache
def described(game: str) -> dict[str, Any]:
    """The game's description as the API lists it (``GET /api/v1/games/{id}``). Made once per
    game: it never changes, and made afresh for every round it was a fifth of the phones' CPU
    (sea change describes its whole deck). Read only."""
    return cast(dict[str, Any], registry.all_games()[game].describe())


# A server process --------------------------------------------------------------------------


class Server:
    """``tafelrunde serve`` on a port of its own; started, SIGKILLed and started again."""

    def __init__(self, database_url: str, workdir: Path, env: dict[str, str] | None = None) -> None:
        self.database_url = database_url
        self.workdir = workdir
        self.port = 0  # the first start takes a free one; restarts keep it
        self.env = env or {}
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self, patience: float = START_PATIENCE) -> None:
        """Start the server and wait until ``/api/v1/health`` answers. The patience only bounds
        a server that never comes up (see ``START_PATIENCE``)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("TAFELRUNDE_")}
        env.update({"TAFELRUNDE_DATABASE_URL": self.database_url, **self.env})
        self.starts += 1
        log_path = self.workdir / "server.log"
        with log_path.open("ab") as log:
            written = log.tell()
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "api.server.cli", "serve", "--port", str(self.port),
                cwd=self.workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + patience
        async with httpx.AsyncClient(timeout=1) as http:
            while time.monotonic() < deadline:
                if self.process.returncode is not None:
                    raise RuntimeError(f"the server exited: {self.log_tail()}")
                if not self.port:
                    with log_path.open("rb") as log:
                        log.seek(written)
                        running = RUNNING.search(log.read().decode(errors="replace"))
                    if running is None:
                        await asyncio.sleep(0.02)
                        continue
                    self.port = int(running["port"])
                try:
                    if (await http.get(f"{self.url}/api/v1/health")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.02)
        raise RuntimeError(f"the server did not answer within {patience} s: {self.log_tail()}")

    async def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as when the machine loses power to the process."""
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
            await self.process.wait()

    async def stop(self) -> None:
        if self.process is None or self.process.returncode is not None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(self.process.wait(), 10)
        except TimeoutError:
            await self.kill()

    def processes(self) -> set[int]:
        """The server's process and its workers (Linux: read from /proc)."""
        if self.process is None or self.process.returncode is not None:
            return set()
        return _descendants(self.process.pid) | {self.process.pid}

    def log_tail(self) -> str:
        log = self.workdir / "server.log"
        return log.read_text(errors="replace")[-2000:] if log.exists() else ""


def _descendants(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            for child in map(int, (task / "children").read_text().split()):
                found |= {child} | _descendants(child)
    return found


def cpu_seconds(pids: Sequence[int] | set[int]) -> dict[int, float]:
    """CPU time (user and system) each process has used so far; processes gone are left out."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            # The fields after the command's name, which is in parentheses and may hold spaces.
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            used[pid] = (int(fields[11]) + int(fields[12])) / tick
    return used


async def database_backends(database_url: str) -> set[int]:
    """The PostgreSQL server processes serving connections to this database."""
    connection = await asyncpg.connect(asyncpg_dsn(database_url), timeout=5)
    try:
        rows = await connection.fetch(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()")
    finally:
        await connection.close()
    return {row["pid"] for row in rows}


# Phones that retry -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Chaos:
    """How often a phone loses a request on purpose (a share of all requests each)."""

    timeout_share: float = 0.05
    close_share: float = 0.05
    short_timeout: float = 0.003


@dataclass(slots=True)
class Tally:
    """What the phones saw: acknowledged rounds per match, latencies and trouble."""

    acknowledged: dict[str, list[Any]] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    retries: int = 0
    dropped_on_purpose: int = 0
    server_errors: int = 0
    out_of_order: int = 0
    unexpected: list[str] = field(default_factory=list)
    tokens: dict[str, str] = field(default_factory=dict)
    answers: Counter[int] = field(default_factory=Counter)  # answers received, by phone

    def answered_since(self, before: Counter[int], phones: int) -> bool:
        """Whether each of the ``phones`` has received an answer since ``before`` (a copy of
        ``answers``)."""
        return all(self.answers[phone] > before[phone] for phone in range(phones))

    @property
    def rounds(self) -> int:
        return sum(len(entries) for entries in self.acknowledged.values())


@dataclass(frozen=True, slots=True)
class Answer:
    """An answer as a phone reads it: the status and the body's bytes."""

    status: int
    body: bytes

    def json(self) -> Any:
        return msgspec.json.decode(self.body)

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")


class UnreadableAnswer(Exception):
    """An answer the phones do not read: chunked, without a Content-Length, not HTTP/1.1. The
    server sends a Content-Length with every JSON answer, so this is a fault to see at once, not
    a lost connection to send again over."""


# What a lost connection raises: refused or reset (OSError), a timeout (TimeoutError is an
# OSError), an answer cut short by the server's end (asyncio.IncompleteReadError, an EOFError).
LOST_CONNECTION = (OSError, EOFError)
HEAD_END = b"\r\n\r\n"


async def read_answer(reader: asyncio.StreamReader) -> tuple[Answer, bool]:
    """The next answer on a connection, and whether the server said it closes the connection."""
    try:
        head = await reader.readuntil(HEAD_END)
    except asyncio.LimitOverrunError as error:
        raise UnreadableAnswer(f"an answer's head is longer than {error.consumed} bytes") from None
    status_line, *lines = head[: -len(HEAD_END)].split(b"\r\n")
    version, _, rest = status_line.partition(b" ")
    status = rest[:3]
    if version != b"HTTP/1.1" or not status.isdigit():
        raise UnreadableAnswer(f"not an HTTP/1.1 status line: {status_line!r}")
    fields: dict[bytes, bytes] = {}
    for line in lines:
        name, colon, value = line.partition(b":")
        if not colon:
            raise UnreadableAnswer(f"a header line without a colon: {line!r}")
        fields[name.strip().lower()] = value.strip()
    if b"transfer-encoding" in fields:
        raise UnreadableAnswer(f"Transfer-Encoding: {fields[b'transfer-encoding'].decode()} "
                               "(the phones read only answers with a Content-Length)")
    length = fields.get(b"content-length")
    if length is None or not length.isdigit():
        raise UnreadableAnswer(f"a {status.decode()} answer without a Content-Length")
    body = await reader.readexactly(int(length))
    return Answer(int(status), body), fields.get(b"connection", b"").lower() == b"close"


class Phone:
    """One client: its own connection, its own random choices, every request retried.

    It speaks just enough HTTP/1.1 for the JSON the API answers, over one kept-alive connection
    of its own (asyncio streams): the benches measure the server, and a general client library
    (httpx) cost the phones more CPU per round than the server itself, on the same cores."""

    def __init__(self, base_url: str, rng: random.Random, tally: Tally, chaos: Chaos,
                 timeout: float = 10.0, number: int = 0, source: str | None = None) -> None:
        address = urlsplit(base_url)
        if address.scheme != "http" or address.hostname is None or address.port is None:
            raise ValueError(f"a phone talks to http://host:port, not {base_url!r}")
        self.host, self.port = address.hostname, address.port
        self.number = number
        self.rng = rng
        self.tally = tally
        self.chaos = chaos
        self.timeout = timeout
        self.source = source  # the local address it connects from (None: the system's choice)
        self.connections = 0  # opened so far, the ones hung up on purpose included
        self._connection: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def close(self) -> None:
        if self._connection is not None:
            writer = self._connection[1]
            self._connection = None
            writer.close()
            with contextlib.suppress(*LOST_CONNECTION):
                await writer.wait_closed()

    async def send(self, method: str, path: str, body: Any,
                   headers: dict[str, str] | None = None) -> Answer:
        """The answer to a request sent as often as needed; 5xx and lost answers are retried."""
        headers = headers or {}
        deadline = time.monotonic() + GIVE_UP_AFTER
        first = True
        while True:
            if not first:
                self.tally.retries += 1
            first = False
            try:
                answer = await self._attempt(method, path, body, headers)
            except LOST_CONNECTION:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(RETRY_PAUSE)
                continue
            self.tally.answers[self.number] += 1
            if answer.status >= 500:
                self.tally.server_errors += 1
                self.tally.unexpected.append(f"{method} {path}: {answer.status} "
                                             f"{answer.text[:200]}")
                await asyncio.sleep(RETRY_PAUSE)
                continue
            return answer

    async def _attempt(self, method: str, path: str, body: Any,
                       headers: dict[str, str]) -> Answer:
        luck = self.rng.random()
        if luck < self.chaos.close_share:
            self.tally.dropped_on_purpose += 1
            await self._send_and_hang_up(method, path, body, headers)
            raise ConnectionAbortedError("hung up on purpose")
        if luck < self.chaos.close_share + self.chaos.timeout_share:
            try:
                async with asyncio.timeout(self.chaos.short_timeout):
                    return await self.request(method, path, body, headers)
            except TimeoutError:
                # Counted only when the answer really was given up on: a fast one still counts.
                self.tally.dropped_on_purpose += 1
                raise
        return await self.request(method, path, body, headers)

    async def request(self, method: str, path: str, body: Any,
                      headers: dict[str, str] | None = None) -> Answer:
        """One request on the phone's connection (a new one if it has none): its answer within
        the phone's timeout, or the error that ended it (a caller's shorter timeout included)."""
        try:
            async with asyncio.timeout(self.timeout):
                reader, writer = await self._connected()
                writer.write(self._request_bytes(method, path, body, headers or {}))
                await writer.drain()
                answer, closing = await read_answer(reader)
        except BaseException:
            # Whatever cut the request short, a timeout above all, its answer may still arrive
            # on this connection and would be read as the next request's: the connection goes.
            self._drop()
            raise
        if closing:
            self._drop()
        return answer

    async def _connected(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self._connection is not None:
            reader, writer = self._connection
            # One the server closed while it was idle (its idle timeout, a restart) is known to
            # be closed by now: a request sent into it would only be lost.
            if not (reader.at_eof() or writer.is_closing()):
                return self._connection
            self._drop()
        self._connection = await self._open()
        return self._connection

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        self.connections += 1
        return await open_from(self.host, self.port, self.source)

    def _drop(self) -> None:
        if self._connection is not None:
            self._connection[1].close()
            self._connection = None

    def _request_bytes(self, method: str, path: str, body: Any,
                       headers: dict[str, str]) -> bytes:
        payload = msgspec.json.encode(body)
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}",
                 "Content-Type: application/json", f"Content-Length: {len(payload)}",
                 *(f"{name}: {value}" for name, value in headers.items())]
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + payload

    async def _send_and_hang_up(self, method: str, path: str, body: Any,
                                headers: dict[str, str]) -> None:
        """Write the whole request to a new connection and close it before any answer."""
        _reader, writer = await self._open()
        try:
            writer.write(self._request_bytes(method, path, body, headers))
            await writer.drain()
        finally:
            writer.close()
            await writer.wait_closed()

    async def play_match(self, game: str, stop: asyncio.Event | None = None) -> int:
        """Create a match of ``game`` and record rounds until it is decided (or ``stop``);
        returns the number of rounds acknowledged."""
        created = await self.send("POST", "/api/v1/matches", new_match(game, self.rng))
        if created.status != 201:
            self.tally.unexpected.append(f"create: {created.status} {created.text[:200]}")
            return 0
        match = created.json()
        acknowledged = self.tally.acknowledged.setdefault(match["id"], [])
        self.tally.tokens[match["id"]] = match["token"]
        players = len(match["players"])
        status = match["status"]
        while status != "finished" and not (stop is not None and stop.is_set()):
            entry = next_entry(game, players, self.rng)
            headers = {"Authorization": f"Bearer {match['token']}",
                       "Idempotency-Key": uuid.uuid4().hex}
            began = time.perf_counter()
            answer = await self.send("POST", f"/api/v1/matches/{match['id']}/rounds", entry,
                                     headers)
            if answer.status != 201:
                self.tally.unexpected.append(
                    f"round {len(acknowledged) + 1} of {match['id']}: "
                    f"{answer.status} {answer.text[:200]}")
                break
            self.tally.latencies.append(time.perf_counter() - began)
            written = answer.json()
            if written["number"] != len(acknowledged) + 1:
                self.tally.out_of_order += 1
            acknowledged.append(entry)
            status = written["status"]
        return len(acknowledged)


async def play(base_url: str, clients: int, rounds: int, *, seed: int = 1,
               chaos: Chaos | None = None, stop: asyncio.Event | None = None,
               tally: Tally | None = None) -> Tally:
    """``clients`` phones at once (numbered from 0), each playing whole matches of the three
    games in turn until it has recorded ``rounds`` rounds (or ``stop`` is set). A ``tally``
    given is filled as they go, for the caller to watch."""
    tally = Tally() if tally is None else tally

    async def phone(number: int) -> None:
        rng = random.Random(seed * 100_003 + number)
        client = Phone(base_url, rng, tally, chaos or Chaos(), number=number)
        played = 0
        try:
            turn = number
            while played < rounds and not (stop is not None and stop.is_set()):
                played += await client.play_match(GAMES[turn % len(GAMES)], stop)
                turn += 1
        finally:
            await client.close()

    await asyncio.gather(*(phone(n) for n in range(clients)))
    return tally


SOURCE_ADDRESSES = 32


def source_address(number: int) -> str:
    """A loopback address of its own for client ``number``, of :data:`SOURCE_ADDRESSES`: a
    real event's phones come from many addresses, and the server caps connections per address
    (``TAFELRUNDE_MAX_CONNECTIONS_PER_ADDRESS``), which one bench process on 127.0.0.1 with a
    thousand connections would hit. Linux answers on all of 127.0.0.0/8."""
    return f"127.0.0.{2 + number % SOURCE_ADDRESSES}"


async def open_from(host: str, port: int, source: str | None
                    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection to ``host:port`` from the local address ``source`` (any port)."""
    return await asyncio.open_connection(
        host, port, local_addr=None if source is None else (source, 0))


def peak_rss(pids: Sequence[int] | set[int]) -> dict[int, int]:
    """The most memory (resident, bytes) each process has held so far (Linux ``VmHWM``)."""
    peaks = {}
    for pid in pids:
        with contextlib.suppress(OSError, StopIteration):
            line = next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                        if line.startswith("VmHWM:"))
            peaks[pid] = int(line.split()[1]) * 1024
    return peaks


def p99(latencies: Sequence[float]) -> float:
    if len(latencies) < 2:
        return latencies[0] if latencies else 0.0
    return statistics.quantiles(latencies, n=100)[98]


# What the database holds -------------------------------------------------------------------


@dataclass(slots=True)
class Audit:
    """Every match as stored, and every way in which the store disagrees with a fresh fold."""

    entries: dict[str, list[Any]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


PLAIN_COLUMNS = frozenset({"status", "next_dealer"})


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


async def audit_database(database_url: str) -> Audit:
    """Fold every stored match again and compare rounds, verdict, snapshot, version, history."""
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as connection:
            matches = (await connection.execute(text(
                "SELECT id, game, players, options, version, status, winners, reason, "
                "standings, next_dealer, snapshot FROM match"))).mappings().all()
            rounds = (await connection.execute(text(
                "SELECT match_id, number, entry, result, totals FROM round "
                "ORDER BY match_id, number"))).mappings().all()
            writes = dict((await connection.execute(text(
                "SELECT match_id, count(*) FROM audit GROUP BY match_id"))).all())
    finally:
        await engine.dispose()
    stored: dict[str, list[dict[str, Any]]] = {}
    for row in rounds:
        stored.setdefault(row["match_id"], []).append(
            {"number": row["number"], "entry": _json(row["entry"]),
             "result": _json(row["result"]), "totals": _json(row["totals"])})
    audit = Audit()
    for match in matches:
        played = stored.get(match["id"], [])
        audit.entries[match["id"]] = [r["entry"] for r in played]
        audit.problems += _match_problems(match, played, writes.get(match["id"], 0))
    return audit


def _match_problems(match: Any, played: list[dict[str, Any]], writes: int) -> list[str]:
    name = f"match {match['id']}"
    game = registry.game_by_id(match["game"])
    if game is None:
        return [f"{name}: unknown game {match['game']!r}"]
    numbers = [r["number"] for r in played]
    if numbers != list(range(1, len(played) + 1)):
        return [f"{name}: round numbers {numbers} are not 1..{len(played)}"]
    try:
        folded = fold_match(game, set_up(game, _json(match["players"]), _json(match["options"])),
                            [r["entry"] for r in played])
    except (InvalidEntry, InvalidOptions, MatchFinished) as error:
        return [f"{name}: the stored rounds do not fold: {error!r}"]
    problems = []
    if [r.as_json() for r in folded.rounds] != played:
        problems.append(f"{name}: stored results or totals differ from a fresh fold")
    verdict = folded.verdict
    expected = {
        "status": "finished" if verdict.finished else "in_progress",
        "winners": list(verdict.winners),
        "reason": verdict.reason.as_json() if verdict.reason else None,
        "standings": [standing.as_json() for standing in verdict.standings],
        "next_dealer": folded.next_dealer,
    }
    for key, value in expected.items():
        found = match[key] if key in PLAIN_COLUMNS else _json(match[key])
        if found != value:
            problems.append(f"{name}: stored {key} {found!r} is not {value!r}")
    snapshot = _json(match["snapshot"])
    if snapshot.get("version") != match["version"] or snapshot.get("rounds") != played or any(
            snapshot.get(key) != value for key, value in expected.items()):
        problems.append(f"{name}: the stored snapshot disagrees with the rows")
    if writes != match["version"]:
        problems.append(f"{name}: version {match['version']} after {writes} audited writes")
    return problems


def compare(tally: Tally, audit: Audit) -> tuple[int, int]:
    """(lost, doubled): acknowledged rounds not stored as sent; rounds stored beyond them."""
    lost = doubled = 0
    for match_id, sent in tally.acknowledged.items():
        stored = audit.entries.get(match_id, [])
        lost += sum(1 for i, entry in enumerate(sent) if i >= len(stored) or stored[i] != entry)
        doubled += max(0, len(stored) - len(sent))
    return lost, doubled + tally.out_of_order


def sqlite_integrity(database_url: str) -> str:
    import sqlite3

    path = make_url(database_url).database
    connection = sqlite3.connect(f"file:{path}?mode=rw", uri=True)
    try:
        answer: str = connection.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        connection.close()
    return answer


# Databases of their own --------------------------------------------------------------------


async def run_statement(url: str, statement: str) -> None:
    """One statement on its own connection (creating and dropping databases)."""
    connection = await asyncpg.connect(asyncpg_dsn(url), timeout=5)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@asynccontextmanager
async def scratch_database(kind: str, workdir: Path,
                           postgres_url: str = DEFAULT_POSTGRES_URL) -> AsyncIterator[str]:
    """An empty database (the server migrates it): a new SQLite file or PostgreSQL database."""
    if kind == "sqlite":
        yield f"sqlite+aiosqlite:///{workdir / 'tafelrunde.db'}"
        return
    name = f"tafelrunde_reliability_{secrets.token_hex(4)}"
    await run_statement(postgres_url, f'CREATE DATABASE "{name}"')
    try:
        yield make_url(postgres_url).set(database=name).render_as_string(hide_password=False)
    finally:
        await run_statement(postgres_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
