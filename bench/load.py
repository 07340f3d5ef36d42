"""Load with retries: no acknowledged round is lost or stored twice.

Starts ``tafelrunde serve`` on an empty SQLite file or PostgreSQL database, lets N phones play
whole matches of all three games at once over HTTP (each phone its own connections), with some
requests lost on purpose (a client-side timeout shorter than the request, or a connection closed
right after sending) and every request retried with the same ``Idempotency-Key`` until it is
answered. Afterwards the database is read directly: every acknowledged round must be stored
exactly once, and every match's rounds, results, standings, snapshot and version must equal a
fresh fold of its stored entries (``scoring.match.fold_match``).

Prints rounds/s, p99 latency of a round (first try to 201, retries included), lost and doubled
rounds, and the CPU time one round cost the server's processes and PostgreSQL's (read from
/proc) and this bench's own phones: on a machine shared with other work the rate says how much
CPU the run got, the CPU per round what the code needs, and the phones' share tells whether the
bench itself was what ran out of CPU. Exits 1 if anything was lost, doubled or inconsistent.

The phones are hand-made (``bench.harness.Phone``: just enough HTTP/1.1 for the API's JSON,
over one kept-alive asyncio connection each), because the bench measures the server, not a
client library. Real phones are devices of their own; these share the server's cores, and with
httpx they cost 1.3 ms of CPU per round, more than the server itself, which took the second
core from a 2-worker server and showed up as the server's slowness.

    python bench/load.py [--clients 100] [--rounds 50] [--database sqlite|postgresql|both]
                         [--workers 1 2 4] [--smoke]

``--workers`` runs PostgreSQL once per number of server processes given (``serve --workers N``);
SQLite always runs one process.

``--smoke`` (3 clients, 4 rounds each, SQLite unless ``--database`` says otherwise) only checks
that the bench still runs; CI does that.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path, where bench/scoring.py and
# bench/api.py would shadow the packages; the project root must come first instead. (Imported
# as ``bench.<name>`` by the tests, the path is theirs to keep.)
if not __package__:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.harness import (
    DEFAULT_POSTGRES_URL,
    Chaos,
    Server,
    audit_database,
    compare,
    cpu_seconds,
    database_backends,
    p99,
    play,
    scratch_database,
)


@dataclass(frozen=True, slots=True)
class Figures:
    database: str
    workers: int
    clients: int
    rounds: int
    seconds: float
    rounds_per_second: float
    p99_ms: float
    lost: int
    doubled: int
    retries: int
    dropped_on_purpose: int
    server_errors: int
    problems: tuple[str, ...]
    server_cpu_ms: float
    database_cpu_ms: float
    client_cpu_ms: float

    @property
    def clean(self) -> bool:
        return not (self.lost or self.doubled or self.server_errors or self.problems)


async def run(database: str, clients: int, rounds: int, *, seed: int = 1,
              postgres_url: str = DEFAULT_POSTGRES_URL, chaos: Chaos | None = None,
              workers: int = 1) -> Figures:
    """One load run against a new server (``workers`` processes) on a new database of the
    given kind."""
    with tempfile.TemporaryDirectory(prefix="tafelrunde-load-") as workdir:
        async with scratch_database(database, Path(workdir), postgres_url) as url:
            # One worker is serve's default: left unset, the bench also runs an older server.
            server = Server(url, Path(workdir),
                            env={"TAFELRUNDE_WORKERS": str(workers)} if workers > 1 else None)
            await server.start()
            try:
                before = await _cpu(server, url)
                began, client_began = time.perf_counter(), time.process_time()
                tally = await play(server.url, clients, rounds, seed=seed, chaos=chaos)
                seconds = time.perf_counter() - began
                client_seconds = time.process_time() - client_began
                after = await _cpu(server, url)
            finally:
                await server.stop()
            audit = await audit_database(url)
    lost, doubled = compare(tally, audit)
    return Figures(
        database=database, workers=workers, clients=clients, rounds=tally.rounds,
        seconds=round(seconds, 2),
        rounds_per_second=round(tally.rounds / seconds, 1), p99_ms=round(p99(tally.latencies)
                                                                          * 1000, 1),
        lost=lost, doubled=doubled, retries=tally.retries,
        dropped_on_purpose=tally.dropped_on_purpose, server_errors=tally.server_errors,
        problems=tuple(tally.unexpected + audit.problems),
        server_cpu_ms=_per_round(before[0], after[0], tally.rounds),
        database_cpu_ms=_per_round(before[1], after[1], tally.rounds),
        client_cpu_ms=round(client_seconds * 1000 / max(tally.rounds, 1), 2),
    )


async def _cpu(server: Server, url: str) -> tuple[dict[int, float], dict[int, float]]:
    """CPU used so far by the server's processes, and by PostgreSQL's for its database (SQLite's
    work is the server's own)."""
    backends = await database_backends(url) if url.startswith("postgresql") else set()
    return cpu_seconds(server.processes()), cpu_seconds(backends)


def _per_round(before: dict[int, float], after: dict[int, float], rounds: int) -> float:
    """Milliseconds of CPU per round between two readings (a process started meanwhile counts
    from its start; one that ended meanwhile is missing, so this is a lower bound)."""
    used = sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())
    return round(used * 1000 / max(rounds, 1), 2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=50, help="rounds per client (at least)")
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, nargs="+", default=[1],
                        help="server processes on PostgreSQL, one run each (1)")
    parser.add_argument("--postgres-url", default=os.environ.get(
        "TAFELRUNDE_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL))
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--smoke", action="store_true",
                        help="3 clients, 4 rounds, SQLite: does the bench still run?")
    args = parser.parse_args()
    if args.smoke:
        args.clients, args.rounds = 3, 4
    args.database = args.database or ("sqlite" if args.smoke else "both")
    kinds = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    runs = [(kind, workers) for kind in kinds
            for workers in ([1] if kind == "sqlite" else args.workers)]
    clean = True
    for kind, workers in runs:
        figures = asyncio.run(run(kind, args.clients, args.rounds, seed=args.seed,
                                  postgres_url=args.postgres_url, workers=workers))
        clean = clean and figures.clean
        if args.json:
            print(json.dumps(asdict(figures)))
            continue
        processes = f"{workers} worker{'s' if workers > 1 else ''}"
        print(f"{kind:10} {processes:9} {figures.clients} clients, {figures.rounds} rounds in "
              f"{figures.seconds} s: {figures.rounds_per_second} rounds/s, "
              f"p99 {figures.p99_ms} ms, lost {figures.lost}, doubled {figures.doubled} "
              f"({figures.dropped_on_purpose} requests dropped on purpose, "
              f"{figures.retries} retries, {figures.server_errors} server errors); CPU per "
              f"round: server {figures.server_cpu_ms} ms, database {figures.database_cpu_ms} ms, "
              f"this bench's phones {figures.client_cpu_ms} ms")
        for problem in figures.problems[:20]:
            print(f"  problem: {problem}")
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
