"""Stalls: what a big tournament's import, reads and round starts cost everybody else.

Starts ``tafelrunde serve`` on an empty SQLite file (and PostgreSQL when
``TAFELRUNDE_TEST_POSTGRES_URL`` is set) and, while each operation below runs, keeps two
bystanders busy:

- a table elsewhere records Tschau Sepp rounds one after the other (a plain match, as a table
  of another tournament would): the worst time from sending a round to its 201 is the *round*
  figure;
- a pinger, in a process of its own, asks ``GET /api/v1/ping`` every few milliseconds: the
  worst answer time is the *stall* figure (the event loop answers a ping in well under a
  millisecond when free).

The operations, for tournaments of 5,000 and 10,000 players (Tschau Sepp, tables of 4, six
rounds played and confirmed, seven in all, ``mix`` seating): the import of its backup; reading
it, its standings (anonymous), its CSV, JSON and printable exports; its backup; starting round
7; and starting the first ``mix`` round of 33 and of 40 players (planned ahead for nine rounds:
33 players have no schedule without repeats, and the search for the best takes seconds).
Targets: round at another table at most 1 s, loop stall at most 50 ms.

Run: ``.venv/bin/python bench/stall.py [--smoke] [--players 5000 10000]``
(``--smoke``: 200 players and the 40-player mix, to see that the bench still runs; CI does
that).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import socket
import sys
import tempfile
import time
import urllib.parse
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any

if not __package__:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import httpx
import msgspec

from bench.harness import Server, scratch_database

FIELDS = (5_000, 10_000)
SMOKE_FIELDS = (200,)
PLAYED_ROUNDS = 6
MIX_FIELDS = (33, 40)
SMOKE_MIX_FIELDS = (40,)
PING_EVERY = 0.005
PINGS_PER_MESSAGE = 10
ROUND_TARGET = 1.0
STALL_TARGET = 0.050
EMPTY_REPORT = {"repeats": [], "kept_apart": [], "club_mates_together": [],
                "table_revisits": []}


def backup_body(players: int, seed: int = 1) -> bytes:
    """A tournament backup of ``players`` at tables of 4 (Tschau Sepp, one game a match), six
    rounds played and confirmed of seven, as ``GET /tournaments/{id}/backup`` writes one."""
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    rounds = []
    for number in range(1, PLAYED_ROUNDS + 1):
        rng.shuffle(ids)
        tables = []
        for index, start in enumerate(range(0, players, 4), start=1):
            seats = ids[start:start + 4]
            winner = rng.randrange(len(seats))
            tables.append({
                "table": index, "players": seats, "confirmed": True, "confirmed_by": "organiser",
                "entered_by_device": None,
                "match": {"players": [f"Player {p}" for p in seats], "options": {"games": 1},
                          "entries": [{"winner": winner, "penalty": [
                              0 if seat == winner else rng.randrange(6, 40)
                              for seat in range(len(seats))]}]},
            })
        rounds.append({"number": number, "report": EMPTY_REPORT, "tables": tables})
    return msgspec.json.encode({
        "format": "tafelrunde-tournament", "version": 1,
        "tournament": {"name": f"Open {players}", "game": "tschau-sepp",
                       "options": {"games": 1}, "rounds": PLAYED_ROUNDS + 1, "table_size": 4,
                       "seating": "mix", "seed": seed, "points": "share",
                       "tiebreaks": ["points", "score_share", "opponents", "table_wins"],
                       "hide_standings": False, "private": False},
        "players": [{"id": p, "name": f"Player {p}", "club": None, "active": True}
                    for p in range(1, players + 1)],
        "rounds": rounds,
    })


@dataclass(frozen=True, slots=True)
class Worst:
    round: float
    stall: float
    rounds: int


def ping_until(host: str, port: int, pings: Connection, stop: EventType) -> None:
    """The pinger, in a process of its own: ``GET /api/v1/ping`` on one kept-alive connection
    every ``PING_EVERY`` seconds until ``stop``, each ping's start and end (``perf_counter``,
    one clock for all processes) sent to the bench. In the bench's own process it would measure
    the bench as well: its event loop decodes megabytes of the operations' answers, and a ping
    answered meanwhile waits there, not at the server."""
    request = f"GET /api/v1/ping HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()
    with socket.create_connection((host, port)) as connection:
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        answer = connection.makefile("rb")
        batch: list[tuple[float, float]] = []
        while not stop.is_set():
            began = time.perf_counter()
            connection.sendall(request)
            length = 0
            while (line := answer.readline()) not in (b"\r\n", b""):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            answer.read(length)
            batch.append((began, time.perf_counter()))
            if len(batch) >= PINGS_PER_MESSAGE or stop.is_set():
                pings.send(batch)
                batch = []
            time.sleep(PING_EVERY)
        pings.send(batch)


class Bystanders:
    """A table recording rounds and a pinger, each request's start and end noted."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.rounds: list[tuple[float, float]] = []
        self.pings: list[tuple[float, float]] = []
        self._stop = asyncio.Event()
        self._answered = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self.problems: list[str] = []

    async def __aenter__(self) -> Bystanders:
        address = urllib.parse.urlsplit(self.base_url)
        spawn = multiprocessing.get_context("spawn")
        self._pinger_pipe, pings = spawn.Pipe(duplex=False)
        self._pinger_stop = spawn.Event()
        self._pinger = spawn.Process(target=ping_until, daemon=True, args=(
            address.hostname, address.port, pings, self._pinger_stop))
        self._pinger.start()
        pings.close()  # the pinger's end: once the pinger stops, the bench reads the end
        asyncio.get_running_loop().add_reader(self._pinger_pipe.fileno(), self._take_pings)
        self._tasks = [asyncio.create_task(self._table())]
        return self

    async def __aexit__(self, *_exc: object) -> None:
        self._stop.set()
        self._pinger_stop.set()
        await asyncio.gather(*self._tasks)
        await asyncio.to_thread(self._pinger.join)
        asyncio.get_running_loop().remove_reader(self._pinger_pipe.fileno())
        self._pinger_pipe.close()

    async def worst_during(self, began: float, ended: float) -> Worst:
        """The worst of the requests that overlapped ``began`` to ``ended``, once every request
        under way at ``ended`` has been answered."""
        while not (self._answered_after(self.rounds, ended) and
                   self._answered_after(self.pings, ended)) and not self.problems:
            self._answered.clear()
            await self._answered.wait()
        rounds = [b - a for a, b in self.rounds if b >= began and a <= ended]
        pings = [b - a for a, b in self.pings if b >= began and a <= ended]
        return Worst(max(rounds, default=0.0), max(pings, default=0.0), len(rounds))

    @staticmethod
    def _answered_after(requests: list[tuple[float, float]], moment: float) -> bool:
        return bool(requests) and requests[-1][0] > moment

    def _take_pings(self) -> None:
        try:
            while self._pinger_pipe.poll():
                self.pings.extend(self._pinger_pipe.recv())
        except EOFError:  # the pinger has stopped
            asyncio.get_running_loop().remove_reader(self._pinger_pipe.fileno())
        self._answered.set()

    async def _table(self) -> None:
        rng = random.Random(7)
        async with httpx.AsyncClient(base_url=self.base_url, timeout=600) as http:
            while not self._stop.is_set():
                created = await http.post("/api/v1/matches", json={
                    "game": "tschau-sepp", "players": ["Ann", "Bea", "Cem", "Dev"],
                    "options": {"games": 100}})
                match = created.json()
                headers = {"Authorization": f"Bearer {match['token']}"}
                for _ in range(100):
                    if self._stop.is_set():
                        return
                    winner = rng.randrange(4)
                    began = time.perf_counter()
                    answer = await http.post(
                        f"/api/v1/matches/{match['id']}/rounds",
                        headers={**headers, "Idempotency-Key": uuid.uuid4().hex},
                        json={"winner": winner, "penalty": [
                            0 if seat == winner else rng.randrange(6, 40) for seat in range(4)]})
                    if answer.status_code != 201:
                        self.problems.append(f"round: {answer.status_code} {answer.text[:200]}")
                        self._answered.set()
                        return
                    self.rounds.append((began, time.perf_counter()))
                    self._answered.set()


@dataclass(frozen=True, slots=True)
class Figure:
    operation: str
    seconds: float
    worst: Worst

    @property
    def over(self) -> bool:
        return self.worst.round > ROUND_TARGET or self.worst.stall > STALL_TARGET

    def line(self) -> str:
        return (f"{self.operation:<38} {self.seconds:>8.2f} {self.worst.round * 1000:>10.0f} "
                f"{self.worst.stall * 1000:>9.0f} {self.worst.rounds:>7} "
                f"{'OVER' if self.over else 'ok':>5}")


async def measured(bystanders: Bystanders, operation: str,
                   action: Callable[[], Awaitable[Any]]) -> tuple[Figure, Any]:
    await asyncio.sleep(0.2)  # both bystanders at their pace before it starts
    began = time.perf_counter()
    result = await action()
    ended = time.perf_counter()
    figure = Figure(operation, ended - began, await bystanders.worst_during(began, ended))
    print(figure.line(), flush=True)
    return figure, result


def expect(response: httpx.Response, status: int = 200) -> httpx.Response:
    if response.status_code != status:
        raise SystemExit(f"{response.request.method} {response.request.url}: "
                         f"{response.status_code} {response.text[:500]}")
    return response


async def one_field(http: httpx.AsyncClient, bystanders: Bystanders,
                    players: int) -> list[Figure]:
    body = backup_body(players)
    figures = []
    figure, created = await measured(bystanders, f"import {players} ({len(body) >> 20} MiB)",
                                     lambda: http.post("/api/v1/tournaments/import", content=body,
                                                       headers={"Content-Type":
                                                                "application/json"}))
    figures.append(figure)
    tournament = expect(created, 201).json()
    url = f"/api/v1/tournaments/{tournament['id']}"
    organiser = {"Authorization": f"Bearer {tournament['token']}"}
    reads: list[tuple[str, str, dict[str, str]]] = [
        ("read", url, {}), ("standings", f"{url}/standings", {}),
        ("standings again", f"{url}/standings", {}),
        ("export csv", f"{url}/export?format=csv", {}),
        ("export json", f"{url}/export?format=json", {}),
        ("export html", f"{url}/export?format=html", {}),
        ("backup", f"{url}/backup", organiser),
    ]
    for name, path, headers in reads:
        figure, answer = await measured(bystanders, f"{name} {players}",
                                        lambda p=path, h=headers: http.get(p, headers=h))
        expect(answer)
        figures.append(figure)
    figure, started = await measured(
        bystanders, f"start round 7 of {players} (mix)",
        lambda: http.post(f"{url}/rounds", headers=organiser))
    expect(started, 201)
    figures.append(figure)
    return figures


async def mix_field(http: httpx.AsyncClient, bystanders: Bystanders, players: int) -> Figure:
    created = expect(await http.post("/api/v1/tournaments", json={
        "name": "Mix", "game": "tschau-sepp", "rounds": 9, "table_size": 4, "seating": "mix",
        "options": {"games": 1}, "seed": 3}), 201).json()
    organiser = {"Authorization": f"Bearer {created['token']}"}
    url = f"/api/v1/tournaments/{created['id']}"
    for p in range(players):
        expect(await http.post(f"{url}/players", json={"name": f"Player {p}"},
                               headers=organiser), 201)
    figure, started = await measured(bystanders, f"start round 1 of {players} (mix, 9 rounds)",
                                     lambda: http.post(f"{url}/rounds", headers=organiser))
    expect(started, 201)
    return figure


async def run(kind: str, fields: tuple[int, ...], mix_fields: tuple[int, ...],
              postgres_url: str) -> list[Figure]:
    figures = []
    with tempfile.TemporaryDirectory() as folder:
        async with scratch_database(kind, Path(folder), postgres_url) as url:
            server = Server(url, Path(folder))
            await server.start()
            try:
                async with httpx.AsyncClient(base_url=server.url, timeout=600) as http, \
                        Bystanders(server.url) as bystanders:
                    print(f"\n{kind}: {'operation':<26} {'took s':>8} {'round ms':>10} "
                          f"{'stall ms':>9} {'rounds':>7}", flush=True)
                    figures.append((await measured(bystanders, "nothing (1 s)",
                                                   lambda: asyncio.sleep(1)))[0])
                    for players in mix_fields:
                        figures.append(await mix_field(http, bystanders, players))
                    for players in fields:
                        figures += await one_field(http, bystanders, players)
                if bystanders.problems:
                    raise SystemExit("\n".join(bystanders.problems))
            finally:
                await server.stop()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true",
                        help="a small field, to check that the bench still runs")
    parser.add_argument("--players", type=int, nargs="+", help="field sizes (default 5000 10000)")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), nargs="+",
                        help="default: SQLite, and PostgreSQL when TAFELRUNDE_TEST_POSTGRES_URL "
                             "is set")
    arguments = parser.parse_args()
    fields = tuple(arguments.players or (SMOKE_FIELDS if arguments.smoke else FIELDS))
    postgres_url = os.environ.get("TAFELRUNDE_TEST_POSTGRES_URL", "")
    kinds = arguments.database or (["sqlite", "postgresql"] if postgres_url else ["sqlite"])
    print(f"Targets: a round at another table within {ROUND_TARGET * 1000:.0f} ms, "
          f"the loop answering a ping within {STALL_TARGET * 1000:.0f} ms.")
    over = 0
    for kind in kinds:
        figures = asyncio.run(run(kind, fields, SMOKE_MIX_FIELDS if arguments.smoke
                                  else MIX_FIELDS, postgres_url or
                                  "postgresql+asyncpg://postgres@127.0.0.1:5432/test"))
        over += sum(f.over for f in figures)
    print(f"\n{over} operation(s) over a target.")


if __name__ == "__main__":
    main()
