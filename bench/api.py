"""How fast is the API next to the framework's own ceiling on this machine?

Starts ``tafelrunde serve`` (one process, SQLite in a temporary directory) and drives it from 32
concurrent keep-alive clients on loopback, for a fixed time per endpoint: a do-nothing endpoint
of the same app (``/api/v1/ping``, which touches no database: the ceiling), reading a match,
and recording a round of Tschau Sepp. Prints throughput, p50 and p99 latency, and throughput as
a ratio to the ceiling (targets: reading >= 0.5, recording >= 0.25).

Recording runs twice: with the default ``TAFELRUNDE_SYNCHRONOUS=full`` (every round answered is
on disk: a power cut loses none) and, on a second server, with ``normal`` (a commit is not
synced; a power cut may lose the last rounds answered). The last line is what ``full`` costs.

The load generator is a small raw-HTTP/1.1 client, so that the client's own cost (it shares the
machine's cores with the server) stays low and is the same for every endpoint. A table plays
at most 20 games before its clients move to a new one, so matches have realistic lengths.

    python bench/api.py [--seconds 10] [--clients 32] [--smoke]

``--smoke`` (half a second per endpoint, 4 clients) only checks that the bench still runs; CI
does that.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Run as a script, this file's folder comes first on sys.path, where this very file would shadow
# the api package; the project root must come first instead.
if not __package__:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from api.server.cli import RUNNING

GAMES_PER_TABLE = 20
PLAYERS = ["Ann", "Bea", "Cem", "Dev"]


class Connection:
    """One keep-alive HTTP/1.1 connection that sends a request and reads the whole answer."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> Connection:
        return cls(*await asyncio.open_connection("127.0.0.1", port))

    async def request(self, method: str, path: str, body: Any = None,
                      headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        payload = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1",
                 f"Content-Length: {len(payload)}"]
        if body is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        self.writer.close()


@dataclass
class Table:
    """A match the clients record rounds into, replaced once it has had its games."""

    id: str
    token: str
    rounds: int = 0


@dataclass
class Run:
    name: str
    seconds: float
    latencies: list[float] = field(default_factory=list)

    @property
    def throughput(self) -> float:
        return len(self.latencies) / self.seconds

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000


async def new_table(connection: Connection) -> Table:
    status, body = await connection.request("POST", "/api/v1/matches", {
        "game": "tschau-sepp", "players": PLAYERS, "options": {"games": GAMES_PER_TABLE}})
    assert status == 201, body
    created = json.loads(body)
    return Table(created["id"], created["token"])


Step = Callable[[Connection], Awaitable[None]]


async def drive(port: int, clients: int, seconds: float, name: str,
                make_step: Callable[[Connection], Awaitable[Step]]) -> Run:
    run = Run(name, seconds)
    deadline = time.perf_counter() + seconds

    async def client() -> None:
        connection = await Connection.open(port)
        step = await make_step(connection)
        try:
            while time.perf_counter() < deadline:
                started = time.perf_counter()
                await step(connection)
                run.latencies.append(time.perf_counter() - started)
        finally:
            connection.close()

    await asyncio.gather(*(client() for _ in range(clients)))
    return run


async def connect_when_up(port: int) -> Connection:
    for _ in range(200):
        try:
            return await Connection.open(port)
        except OSError:
            await asyncio.sleep(0.05)
    raise SystemExit("the server did not start")


async def benchmark(port: int, clients: int, seconds: float, *,
                    recording_only: bool = False) -> list[Run]:
    setup = await connect_when_up(port)

    async def ping_step(_connection: Connection) -> Step:
        async def step(connection: Connection) -> None:
            status, _ = await connection.request("GET", "/api/v1/ping")
            assert status == 200
        return step

    read_table = await new_table(setup)
    for _ in range(10):
        status, _ = await setup.request(
            "POST", f"/api/v1/matches/{read_table.id}/rounds", random_round(),
            {"Authorization": f"Bearer {read_table.token}"})
        assert status == 201

    async def read_step(_connection: Connection) -> Step:
        async def step(connection: Connection) -> None:
            status, _ = await connection.request("GET", f"/api/v1/matches/{read_table.id}")
            assert status == 200
        return step

    async def record_step(connection: Connection) -> Step:
        table = await new_table(connection)

        async def step(connection: Connection) -> None:
            nonlocal table
            if table.rounds == GAMES_PER_TABLE:
                table = await new_table(connection)
            status, body = await connection.request(
                "POST", f"/api/v1/matches/{table.id}/rounds", random_round(),
                {"Authorization": f"Bearer {table.token}"})
            assert status == 201, body
            table.rounds += 1
        return step

    await drive(port, clients, min(seconds, 2.0), "warm-up", ping_step)
    if recording_only:
        runs = [await drive(port, clients, seconds, "record (sync normal)", record_step)]
    else:
        runs = [
            await drive(port, clients, seconds, "do-nothing (ping)", ping_step),
            await drive(port, clients, seconds, "read a match", read_step),
            await drive(port, clients, seconds, "record a round", record_step),
        ]
    setup.close()
    return runs


def random_round() -> dict[str, Any]:
    winner = random.randrange(len(PLAYERS))
    return {"winner": winner, "penalty": [
        0 if seat == winner else random.randint(6, 40) for seat in range(len(PLAYERS))]}


def served(clients: int, seconds: float, synchronous: str) -> list[Run]:
    """The benchmark against a new server on a new SQLite file (only recording unless
    ``synchronous`` is the default)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAFELRUNDE_")}
    env["TAFELRUNDE_SYNCHRONOUS"] = synchronous
    with tempfile.TemporaryDirectory() as cwd:
        server = subprocess.Popen(
            [sys.executable, "-m", "api.server.cli", "serve", "--port", "0"],
            cwd=cwd, env=env, stdout=subprocess.PIPE, text=True,
        )
        try:
            assert server.stdout is not None
            line = server.stdout.readline().strip()
            running = RUNNING.fullmatch(line)
            if running is None:
                raise SystemExit(f"the server did not start: {line}")
            print(line, f"(synchronous={synchronous})")
            return asyncio.run(benchmark(int(running["port"]), clients, seconds,
                                         recording_only=synchronous != "full"))
        finally:
            server.terminate()
            server.wait(timeout=15)
            if server.stdout is not None:
                server.stdout.close()


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--seconds", type=float, default=10.0, help="per endpoint (10)")
    options.add_argument("--clients", type=int, default=32, help="concurrent clients (32)")
    options.add_argument("--smoke", action="store_true",
                         help="0.5 s per endpoint and 4 clients: does the bench still run?")
    args = options.parse_args()
    if args.smoke:
        args.seconds, args.clients = 0.5, 4
    runs = served(args.clients, args.seconds, "full")
    runs += served(args.clients, args.seconds, "normal")
    ceiling = runs[0].throughput
    print(f"{args.clients} clients, {args.seconds:g} s per endpoint, one server process, SQLite")
    print(f"{'endpoint':<22}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'ratio':>8}")
    for run in runs:
        print(f"{run.name:<22}{run.throughput:>9.0f}{run.percentile(0.5):>9.1f}"
              f"{run.percentile(0.99):>9.1f}{run.throughput / ceiling:>8.2f}")
    print(f"median latency overall: "
          f"{statistics.median(x for r in runs for x in r.latencies) * 1000:.1f} ms")
    full, normal = runs[2], runs[3]
    print(f"synchronous=full records {full.throughput / normal.throughput:.2f}x the rounds per "
          f"second of normal, p50 {full.percentile(0.5) - normal.percentile(0.5):+.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
