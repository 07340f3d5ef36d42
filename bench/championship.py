"""Benchmark: a championship on one machine, every answer timed at the moment everybody posts.

A Tschau Sepp tournament of ``--players`` (600) at tables of ``--table-size`` (4), over
``--rounds`` (3), against ``tafelrunde serve`` on a new SQLite file or PostgreSQL database
(``--workers`` processes on PostgreSQL). Every table has two phones: one enters the match's
``--games`` (3) games, the other confirms the result (with its own ``X-Table-Phone`` key, as the
app does). Every player follows the tournament's event stream as the player view does (one
connection each, reading every event), and a projector reads the standings again after each
change it hears (one read at a time, as the app's ``oneAtATime``). The bench's clients run on
the same cores as the server.

Each round: the tables' games are entered at random moments spread over ``--spread`` seconds
(60). In round 1 each table also enters its last game and confirms at its own moment; in every
later round the last game of all tables is posted at once (the end of a round: a burst), and
then all confirmations at once. Printed:

- registration of all players and each round's start;
- POST of a round and confirmation, spread and in bursts: p50, p95, p99, max (a request's time
  includes its retries: a 503 is retried as a phone would, and counted);
- each burst's time from its release to its last answer;
- the event delay: for each tournament version written once every follower was listening, from
  the first follower that heard it (or a newer one) to the last (a version heard before is the
  one each stream opens with, and its spread is how long 600 streams take to open, not an
  event's delay); and after each round's last write, how many followers were behind
  the tournament's version 1 s later and at the end (a follower may skip versions, never end
  behind);
- CPU seconds of the server's processes, PostgreSQL's, and the bench's own; the server's peak
  RSS;
- what the database holds: every acknowledged round stored once and folding to what is stored
  (``bench.harness.audit_database``), every table confirmed, the tournament finished.

Clients connect from 32 loopback addresses (``bench.harness.source_address``): a real event's
phones come from many addresses, and a single one would meet the server's cap per address.

Targets (issue 29), for 600 players on SQLite and on PostgreSQL with 2 workers: POST and
confirm p99 <= 100 ms while entry is spread; a burst's p99 within 1 s; every follower at the
latest version within 1 s of every write; no 503.

    python bench/championship.py [--players 600] [--table-size 4] [--rounds 3] [--games 3]
        [--spread 60] [--database sqlite|postgresql|both] [--workers 2] [--json] [--smoke]

``--smoke`` (16 players, 2 rounds, 2 games, a 1 s spread, SQLite unless ``--database`` says
otherwise) only checks that the bench still runs; CI does that. Exits 1 if anything was lost,
doubled or inconsistent, or a follower ended behind.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

# Run as a script, this file's folder comes first on sys.path, where bench/scoring.py and
# bench/api.py would shadow the packages; the project root must come first instead.
if not __package__:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.harness import (
    DEFAULT_POSTGRES_URL,
    HEAD_END,
    Answer,
    Chaos,
    Phone,
    Server,
    Tally,
    audit_database,
    compare,
    cpu_seconds,
    database_backends,
    next_entry,
    open_from,
    peak_rss,
    scratch_database,
    source_address,
)

NO_CHAOS = Chaos(timeout_share=0.0, close_share=0.0)
VERSION = re.compile(rb'"version":(\d+)')
CATCH_UP_PATIENCE = 10.0
REGISTERING_PHONES = 8
ORGANISER_PATIENCE = 120.0


def quantiles(values: Sequence[float]) -> dict[str, float]:
    """p50, p95, p99 and max in milliseconds (seconds in), and how many."""
    if not values:
        return {"n": 0, "p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}
    ordered = sorted(values)
    cuts = statistics.quantiles(ordered, n=100, method="inclusive") if len(ordered) > 1 \
        else [ordered[0]] * 99
    return {"n": len(ordered), "p50": round(cuts[49] * 1000, 1),
            "p95": round(cuts[94] * 1000, 1), "p99": round(cuts[98] * 1000, 1),
            "max": round(ordered[-1] * 1000, 1)}


class Follower:
    """A player's phone on the tournament's event stream: every version it heard, and when."""

    def __init__(self, host: str, port: int, path: str, source: str, progress: asyncio.Event,
                 heard: asyncio.Event | None = None) -> None:
        self.host, self.port, self.path, self.source = host, port, path, source
        self.latest = 0
        self.timeline: list[tuple[float, int]] = []  # (when, version), versions rising
        self.opened = asyncio.Event()
        self.progress = progress  # set on every newer version of any follower
        self.heard = heard  # set on every newer version (the projector's cue)
        self.refused = 0  # answers other than 200 (a 503 at the cap)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._follow())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _follow(self) -> None:
        while True:
            with contextlib.suppress(OSError, EOFError, asyncio.IncompleteReadError):
                await self._stream()
            await asyncio.sleep(0.2)  # as the app's reconnect: soon, not at once

    async def _stream(self) -> None:
        reader, writer = await open_from(self.host, self.port, self.source)
        try:
            writer.write(f"GET {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                         "Accept: text/event-stream\r\n\r\n".encode())
            head = await reader.readuntil(HEAD_END)
            if not head.startswith(b"HTTP/1.1 200"):
                self.refused += 1
                return
            pending = b""
            while True:
                size = int((await reader.readuntil(b"\r\n")).strip(), 16)
                chunk = await reader.readexactly(size + 2)
                if size == 0:
                    return
                pending += chunk[:-2]
                *events, pending = pending.split(b"\r\n\r\n")
                for event in events:
                    found = VERSION.search(event)
                    if found is None:
                        continue
                    self.opened.set()
                    version = int(found[1])
                    if version > self.latest:
                        self.latest = version
                        self.timeline.append((time.perf_counter(), version))
                        self.progress.set()
                        if self.heard is not None:
                            self.heard.set()
        finally:
            writer.close()


@dataclass(slots=True)
class Timings:
    register: float = 0.0
    starts: list[float] = field(default_factory=list)
    phones: list[float] = field(default_factory=list)
    post_spread: list[float] = field(default_factory=list)
    confirm_spread: list[float] = field(default_factory=list)
    post_burst: list[float] = field(default_factory=list)
    confirm_burst: list[float] = field(default_factory=list)
    bursts: list[float] = field(default_factory=list)  # release to last answer, each burst
    standings: list[float] = field(default_factory=list)
    behind_after_1s: list[int] = field(default_factory=list)  # per round
    catch_up: list[float] = field(default_factory=list)  # last write to every follower there
    server_errors: int = 0
    problems: list[str] = field(default_factory=list)


class Table:
    """A table's two phones: the one that enters, the one that confirms."""

    def __init__(self, base: str, number: int, tally: Tally, seed: int) -> None:
        self.number = number
        rng = random.Random(seed * 7919 + number)
        self.enters = Phone(base, rng, tally, NO_CHAOS, number=2 * number,
                            source=source_address(2 * number))
        self.confirms = Phone(base, rng, tally, NO_CHAOS, number=2 * number + 1,
                              source=source_address(2 * number + 1))
        self.device = uuid.uuid4().hex
        self.rng = rng

    async def close(self) -> None:
        await self.enters.close()
        await self.confirms.close()


async def timed(into: list[float], phone: Phone, method: str, path: str, body: Any,
                headers: dict[str, str]) -> Answer:
    began = time.perf_counter()
    answer = await phone.send(method, path, body, headers)
    into.append(time.perf_counter() - began)
    return answer


class Championship:
    def __init__(self, server: Server, players: int, table_size: int, rounds: int,
                 games: int, spread: float, seed: int) -> None:
        self.server = server
        self.base = server.url
        self.players, self.table_size, self.rounds = players, table_size, rounds
        self.games, self.spread, self.seed = games, spread, seed
        self.tally = Tally()
        self.timings = Timings()
        self.tables: dict[int, Table] = {}
        self.followers: list[Follower] = []
        self.all_listening = float("inf")  # when the last follower's stream opened
        self.changed = asyncio.Event()
        self.progress = asyncio.Event()
        # Starting a round is not idempotent: its answer is waited for, however long it takes
        # (a phone's 10 s, then sent again, found the round started and was refused).
        self.organiser = Phone(self.base, random.Random(seed), self.tally, NO_CHAOS,
                               timeout=ORGANISER_PATIENCE, number=10**6,
                               source=source_address(0))
        # A phone is one connection, one request at a time: the projector has its own.
        self.projector = Phone(self.base, random.Random(seed), self.tally, NO_CHAOS,
                               number=10**6 + 1, source=source_address(1))
        self.tournament_id = ""
        self.token = ""
        self.last_write = 0.0

    def _expect(self, answer: Answer, status: int, what: str) -> Any:
        if answer.status != status:
            raise RuntimeError(f"{what}: {answer.status} {answer.text[:300]}")
        return answer.json()

    async def run(self) -> None:
        organiser = self.organiser
        created = self._expect(await organiser.send("POST", "/api/v1/tournaments", {
            "name": "Championship", "game": "tschau-sepp", "rounds": self.rounds,
            "table_size": self.table_size, "options": {"games": self.games},
            "seating": "random", "seed": self.seed}), 201, "create")
        self.tournament_id, self.token = created["id"], created["token"]
        await self._register()
        self.followers = [Follower(organiser.host, organiser.port,
                                   f"/api/v1/tournaments/{self.tournament_id}/events",
                                   source_address(n), self.progress,
                                   self.changed if n == 0 else None)
                          for n in range(self.players)]
        for follower in self.followers:
            follower.start()
        await asyncio.wait_for(asyncio.gather(*(f.opened.wait() for f in self.followers)),
                               120)
        self.all_listening = time.perf_counter()
        projector = asyncio.create_task(self._project())
        try:
            for number in range(1, self.rounds + 1):
                await self._round(number, burst=number > 1)
        finally:
            projector.cancel()
            await asyncio.gather(projector, return_exceptions=True)

    async def _register(self) -> None:
        began = time.perf_counter()
        phones = [Phone(self.base, random.Random(n), self.tally, NO_CHAOS, number=10**6 + 2 + n,
                        source=source_address(n)) for n in range(REGISTERING_PHONES)]

        async def register(phone: Phone, names: range) -> None:
            for n in names:
                self._expect(await phone.send(
                    "POST", f"/api/v1/tournaments/{self.tournament_id}/players",
                    {"name": f"Player {n + 1}"}, self._organiser_headers()), 201, "register")
            await phone.close()

        await asyncio.gather(*(register(phone, range(i, self.players, REGISTERING_PHONES))
                               for i, phone in enumerate(phones)))
        self.timings.register = time.perf_counter() - began

    def _organiser_headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    async def _project(self) -> None:
        """The projector: the standings read again after each change, one read at a time."""
        path = f"/api/v1/tournaments/{self.tournament_id}/standings"
        while True:
            await self.changed.wait()
            self.changed.clear()
            answer = await timed(self.timings.standings, self.projector, "GET", path, None, {})
            if answer.status != 200:
                self.timings.problems.append(f"standings: {answer.status}")

    async def _round(self, number: int, burst: bool) -> None:
        began = time.perf_counter()
        started = self._expect(await self.organiser.send(
            "POST", f"/api/v1/tournaments/{self.tournament_id}/rounds", {},
            self._organiser_headers()), 201, f"start round {number}")
        self.timings.starts.append(time.perf_counter() - began)
        seated = started["tables"]
        for seat in seated:
            if seat["table"] not in self.tables:
                self.tables[seat["table"]] = Table(self.base, seat["table"], self.tally,
                                                   self.seed)
        release = asyncio.Event()
        confirming = asyncio.Barrier(len(seated))  # every burst's last game answered
        ready: list[asyncio.Future[None]] = []
        loop = asyncio.get_running_loop()
        plays = []
        for seat in seated:
            done_spread = loop.create_future()
            ready.append(done_spread)
            plays.append(self._play_table(number, seat, burst, done_spread, release, confirming))
        playing = asyncio.gather(*plays)
        if burst:
            await asyncio.gather(*ready)
            await asyncio.sleep(0.5)  # the spread's last answers settle: a burst on its own
            released = time.perf_counter()
            release.set()
        await playing
        if burst:
            self.timings.bursts.append(time.perf_counter() - released)
        await self._followers_catch_up()

    async def _play_table(self, number: int, seat: dict[str, Any], burst: bool,
                          done_spread: asyncio.Future[None], release: asyncio.Event,
                          confirming: asyncio.Barrier) -> None:
        table = self.tables[seat["table"]]
        token = seat["table_token"]
        match_id = seat["match_id"]
        base = f"/api/v1/tournaments/{self.tournament_id}/rounds/{number}/tables/{table.number}"
        keys = []
        for phone in (table.enters, table.confirms):
            keys.append(self._expect(await timed(
                self.timings.phones, phone, "POST", f"{base}/phones", {},
                {"Authorization": f"Bearer {token}"}), 201, "open a table phone")["key"])
        acknowledged = self.tally.acknowledged.setdefault(match_id, [])
        self.tally.tokens[match_id] = token
        # The games' moments: spread over the window, in order.
        moments = sorted(table.rng.uniform(0, self.spread) for _ in range(self.games + 1))
        began = time.perf_counter()

        async def at(moment: float) -> None:
            await asyncio.sleep(max(0.0, began + moment - time.perf_counter()))

        async def post(into: list[float]) -> None:
            entry = next_entry("tschau-sepp", len(seat["players"]), table.rng)
            answer = await timed(into, table.enters, "POST", f"/api/v1/matches/{match_id}/rounds",
                                 entry, {"Authorization": f"Bearer {token}",
                                         "Idempotency-Key": uuid.uuid4().hex,
                                         "X-Device-Id": table.device, "X-Table-Phone": keys[0]})
            written = self._expect(answer, 201, f"round of {match_id}")
            if written["number"] != len(acknowledged) + 1:
                self.tally.out_of_order += 1
            acknowledged.append(entry)
            self.last_write = time.perf_counter()

        async def confirm(into: list[float]) -> None:
            answer = await timed(into, table.confirms, "POST", f"{base}/confirm", {},
                                 {"Authorization": f"Bearer {token}",
                                  "X-Device-Id": uuid.uuid4().hex, "X-Table-Phone": keys[1]})
            self._expect(answer, 200, f"confirm table {table.number}")
            self.last_write = time.perf_counter()

        try:
            for game in range(self.games - 1):
                await at(moments[game])
                await post(self.timings.post_spread)
        finally:
            if not done_spread.done():
                done_spread.set_result(None)
        if burst:
            await release.wait()
            await post(self.timings.post_burst)
            await confirming.wait()
            await confirm(self.timings.confirm_burst)
        else:
            await at(moments[-2])
            await post(self.timings.post_spread)
            await at(moments[-1])
            await confirm(self.timings.confirm_spread)

    async def tournament_version(self) -> int:
        answer = await self.organiser.send(
            "GET", f"/api/v1/tournaments/{self.tournament_id}", None, self._organiser_headers())
        version: int = self._expect(answer, 200, "read the tournament")["version"]
        return version

    async def _followers_catch_up(self) -> None:
        """After a round's last write: behind 1 s later, and how long until none is."""
        last = self.last_write
        await asyncio.sleep(max(0.0, last + 1.0 - time.perf_counter()))
        version = await self.tournament_version()
        self.timings.behind_after_1s.append(sum(f.latest < version for f in self.followers))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(CATCH_UP_PATIENCE):
                while any(f.latest < version for f in self.followers):
                    self.progress.clear()
                    await self.progress.wait()
        reached = [next(t for t, v in f.timeline if v >= version) for f in self.followers
                   if f.latest >= version]
        if len(reached) < len(self.followers):
            self.timings.problems.append(
                f"{len(self.followers) - len(reached)} followers still behind version "
                f"{version} {CATCH_UP_PATIENCE:.0f} s after the round's last write")
        self.timings.catch_up.append(max(0.0, max(reached, default=last) - last))

    def event_delays(self) -> tuple[list[float], int, int]:
        """For each version first heard once every follower listened: first follower to hear
        it (or newer) to the last; the versions no follower heard; the highest version heard."""
        highest = max((f.latest for f in self.followers), default=0)
        first: dict[int, float] = {}
        for follower in self.followers:
            for when, version in follower.timeline:
                if when < first.get(version, float("inf")):
                    first[version] = when
        delays = []
        for version, heard in first.items():
            if heard < self.all_listening:
                continue
            everyone = max(next(t for t, v in f.timeline if v >= version)
                           for f in self.followers if f.latest >= version)
            delays.append(everyone - heard)
        lowest = min(first, default=0)
        unheard = sum(1 for v in range(lowest, highest + 1) if v not in first)
        return delays, unheard, highest

    async def close(self) -> None:
        for follower in self.followers:
            await follower.stop()
        for table in self.tables.values():
            await table.close()
        await self.organiser.close()
        await self.projector.close()


@dataclass(frozen=True, slots=True)
class Figures:
    database: str
    workers: int
    players: int
    tables: int
    rounds: int
    seconds: float
    load_average: tuple[float, float, float]
    register_s: float
    start_ms: tuple[float, ...]
    open_phone: dict[str, float]
    post_spread: dict[str, float]
    confirm_spread: dict[str, float]
    post_burst: dict[str, float]
    confirm_burst: dict[str, float]
    bursts_s: tuple[float, ...]
    standings: dict[str, float]
    event_delay: dict[str, float]
    versions: int
    versions_unheard: int
    behind_after_1s: tuple[int, ...]
    catch_up_s: tuple[float, ...]
    refused_streams: int
    server_errors: int
    lost: int
    doubled: int
    problems: tuple[str, ...]
    server_cpu_s: float
    database_cpu_s: float
    client_cpu_s: float
    server_peak_rss_mb: float

    @property
    def clean(self) -> bool:
        return not (self.lost or self.doubled or self.problems)


async def run(database: str, players: int, table_size: int, rounds: int, games: int,
              spread: float, *, workers: int = 1, seed: int = 1,
              postgres_url: str = DEFAULT_POSTGRES_URL) -> Figures:
    with tempfile.TemporaryDirectory(prefix="tafelrunde-championship-") as workdir:
        async with scratch_database(database, Path(workdir), postgres_url) as url:
            server = Server(url, Path(workdir),
                            env={"TAFELRUNDE_WORKERS": str(workers)} if workers > 1 else None)
            await server.start()
            championship = Championship(server, players, table_size, rounds, games, spread,
                                        seed)
            load = os.getloadavg()
            try:
                before = await _cpu(server, url)
                began, client_began = time.perf_counter(), time.process_time()
                await championship.run()
                seconds = time.perf_counter() - began
                client_seconds = time.process_time() - client_began
                after = await _cpu(server, url)
                rss = sum(peak_rss(server.processes()).values())
                delays, unheard, highest = championship.event_delays()
                finished = await _finished(championship)
            finally:
                await championship.close()
                await server.stop()
            audit = await audit_database(url)
    lost, doubled = compare(championship.tally, audit)
    timings = championship.timings
    problems = [*timings.problems, *championship.tally.unexpected, *audit.problems, *finished]
    return Figures(
        database=database, workers=workers, players=players, tables=len(championship.tables),
        rounds=rounds, seconds=round(seconds, 1),
        load_average=(round(load[0], 2), round(load[1], 2), round(load[2], 2)),
        register_s=round(timings.register, 2),
        start_ms=tuple(round(s * 1000) for s in timings.starts),
        open_phone=quantiles(timings.phones),
        post_spread=quantiles(timings.post_spread),
        confirm_spread=quantiles(timings.confirm_spread),
        post_burst=quantiles(timings.post_burst), confirm_burst=quantiles(timings.confirm_burst),
        bursts_s=tuple(round(s, 2) for s in timings.bursts),
        standings=quantiles(timings.standings), event_delay=quantiles(delays),
        versions=highest, versions_unheard=unheard,
        behind_after_1s=tuple(timings.behind_after_1s),
        catch_up_s=tuple(round(s, 2) for s in timings.catch_up),
        refused_streams=sum(f.refused for f in championship.followers),
        server_errors=championship.tally.server_errors, lost=lost, doubled=doubled,
        problems=tuple(problems),
        server_cpu_s=_used(before[0], after[0]), database_cpu_s=_used(before[1], after[1]),
        client_cpu_s=round(client_seconds, 2), server_peak_rss_mb=round(rss / 2**20, 1),
    )


async def _finished(championship: Championship) -> list[str]:
    """Every table confirmed, the tournament finished: read as the organiser sees it."""
    answer = await championship.organiser.send(
        "GET", f"/api/v1/tournaments/{championship.tournament_id}", None,
        championship._organiser_headers())
    read = answer.json()
    return [] if read.get("status") == "finished" else [
        f"the tournament is {read.get('status')!r} after its last confirmation"]


async def _cpu(server: Server, url: str) -> tuple[dict[int, float], dict[int, float]]:
    backends = await database_backends(url) if url.startswith("postgresql") else set()
    return cpu_seconds(server.processes()), cpu_seconds(backends)


def _used(before: dict[int, float], after: dict[int, float]) -> float:
    return round(sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items()), 1)


def _row(name: str, figures: dict[str, float]) -> str:
    return (f"  {name:22} n={figures['n']:<5} p50 {figures['p50']:>7} ms  p95 {figures['p95']:>7}"
            f" ms  p99 {figures['p99']:>7} ms  max {figures['max']:>7} ms")


def report(f: Figures) -> str:
    processes = f"{f.workers} worker{'s' if f.workers > 1 else ''}"
    lines = [
        f"{f.database} ({processes}): {f.players} players at {f.tables} tables, {f.rounds} "
        f"rounds in {f.seconds} s (load average before: {f.load_average[0]}, "
        f"{f.load_average[1]}, {f.load_average[2]})",
        f"  register {f.players} players: {f.register_s} s; rounds started in "
        f"{', '.join(map(str, f.start_ms))} ms",
        _row("open a table phone", f.open_phone),
        _row("POST round (spread)", f.post_spread),
        _row("confirm (spread)", f.confirm_spread),
        _row("POST round (burst)", f.post_burst),
        _row("confirm (burst)", f.confirm_burst),
        f"  bursts, release to last answer: {', '.join(map(str, f.bursts_s)) or '-'} s",
        _row("projector standings", f.standings),
        _row("event to all followers", f.event_delay),
        f"  versions {f.versions}, heard by no follower {f.versions_unheard}; followers behind "
        f"1 s after a round's last write: {list(f.behind_after_1s)}; all at the latest after "
        f"{list(f.catch_up_s)} s; streams refused {f.refused_streams}",
        f"  5xx answers {f.server_errors}, lost {f.lost}, doubled {f.doubled}",
        f"  CPU: server {f.server_cpu_s} s, database {f.database_cpu_s} s, this bench "
        f"{f.client_cpu_s} s; server peak RSS {f.server_peak_rss_mb} MiB",
    ]
    lines += [f"  problem: {problem}" for problem in f.problems[:20]]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=3, help="games per match (at least 2)")
    parser.add_argument("--spread", type=float, default=60.0,
                        help="seconds over which a round's entries are spread")
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"])
    parser.add_argument("--workers", type=int, default=2, help="server processes on PostgreSQL")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres-url", default=os.environ.get(
        "TAFELRUNDE_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL))
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--smoke", action="store_true",
                        help="16 players, 2 rounds, SQLite: does the bench still run?")
    args = parser.parse_args()
    if args.smoke:
        args.players, args.rounds, args.games, args.spread = 16, 2, 2, 1.0
    if args.games < 2:
        parser.error("--games must be at least 2 (the spread games, then the burst)")
    args.database = args.database or ("sqlite" if args.smoke else "both")
    kinds = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    clean = True
    for kind in kinds:
        figures = asyncio.run(run(
            kind, args.players, args.table_size, args.rounds, args.games, args.spread,
            workers=1 if kind == "sqlite" else args.workers, seed=args.seed,
            postgres_url=args.postgres_url))
        clean = clean and figures.clean
        print(json.dumps(asdict(figures)) if args.json else report(figures), flush=True)
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
