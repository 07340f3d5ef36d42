"""Crashes: SIGKILL the server at random moments under a write load; nothing acknowledged is lost.

Starts ``tafelrunde serve`` on an empty SQLite file or PostgreSQL database, lets a few phones
record rounds continuously (retrying every request with the same ``Idempotency-Key`` while the
server is down), and kills the server with SIGKILL at random moments, starting it again each
time. A kill comes only once every phone has had an answer from the restarted server: each kill
lands under the write load, and no request of a phone waits through two restarts (on a loaded
machine a phone could miss a short time up between two kills and give up). On SQLite,
``PRAGMA integrity_check`` runs after every kill, before the restart. At the end: every round
whose 201 a phone received is stored, as sent, exactly once; every match's stored rounds fold
cleanly and agree with its stored standings, snapshot and version (nothing half-written);
SQLite's integrity check is ``ok``.

    python bench/crash.py [--kills 50] [--clients 6] [--database sqlite|postgresql|both] [--smoke]

``--smoke`` (2 kills, 2 clients, SQLite unless ``--database`` says otherwise) only checks that
the bench still runs; CI does that.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
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
    Tally,
    audit_database,
    compare,
    play,
    scratch_database,
    sqlite_integrity,
)

# Phones play on until stopped; the round count only bounds a phone that is never stopped.
ENDLESS = 1_000_000


@dataclass(frozen=True, slots=True)
class Outcome:
    database: str
    kills: int
    seconds: float
    rounds: int
    resent: int
    lost: int
    doubled: int
    server_errors: int
    integrity: tuple[str, ...]
    problems: tuple[str, ...]

    @property
    def clean(self) -> bool:
        return not (self.lost or self.doubled or self.server_errors or self.problems
                    or any(answer != "ok" for answer in self.integrity))


async def run(database: str, kills: int, clients: int = 6, *, seed: int = 1,
              min_gap: float = 0.1, max_gap: float = 0.8,
              postgres_url: str = DEFAULT_POSTGRES_URL) -> Outcome:
    """Kill a loaded server ``kills`` times, ``min_gap``..``max_gap`` s after every phone has
    been answered again."""
    rng = random.Random(seed)
    integrity: list[str] = []
    with tempfile.TemporaryDirectory(prefix="tafelrunde-crash-") as workdir:
        async with scratch_database(database, Path(workdir), postgres_url) as url:
            server = Server(url, Path(workdir))
            await server.start()
            began = time.perf_counter()
            stop = asyncio.Event()
            watched = Tally()
            # No dropped connections on purpose: the kills drop plenty.
            load = asyncio.create_task(play(server.url, clients, ENDLESS, seed=seed,
                                            chaos=Chaos(0.0, 0.0), stop=stop, tally=watched))
            try:
                for _ in range(kills):
                    started = watched.answers.copy()
                    # Polled: the phones only count their answers, and they may all have failed.
                    while not (watched.answered_since(started, clients) or load.done()):  # noqa: ASYNC110
                        await asyncio.sleep(0.01)
                    await asyncio.sleep(rng.uniform(min_gap, max_gap))
                    await server.kill()
                    if database == "sqlite":
                        integrity.append(sqlite_integrity(url))
                    await server.start()
                stop.set()
                tally = await load
            finally:
                stop.set()
                await server.stop()
            seconds = time.perf_counter() - began
            audit = await audit_database(url)
            if database == "sqlite":
                integrity.append(sqlite_integrity(url))
    lost, doubled = compare(tally, audit)
    return Outcome(database=database, kills=kills, seconds=round(seconds, 1),
                   rounds=tally.rounds, resent=tally.retries, lost=lost, doubled=doubled,
                   server_errors=tally.server_errors, integrity=tuple(sorted(set(integrity))),
                   problems=tuple(tally.unexpected + audit.problems))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres-url", default=os.environ.get(
        "TAFELRUNDE_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL))
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON")
    parser.add_argument("--smoke", action="store_true",
                        help="2 kills, 2 clients, SQLite: does the bench still run?")
    args = parser.parse_args()
    if args.smoke:
        args.kills, args.clients = 2, 2
    args.database = args.database or ("sqlite" if args.smoke else "both")
    kinds = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    clean = True
    for kind in kinds:
        outcome = asyncio.run(run(kind, args.kills, args.clients, seed=args.seed,
                                  postgres_url=args.postgres_url))
        clean = clean and outcome.clean
        if args.json:
            print(json.dumps(asdict(outcome)))
            continue
        print(f"{kind:10} {outcome.kills} SIGKILLs in {outcome.seconds} s, {outcome.rounds} "
              f"rounds acknowledged, {outcome.resent} requests sent again: "
              f"lost {outcome.lost}, doubled {outcome.doubled}, "
              f"server errors {outcome.server_errors}, "
              f"integrity {', '.join(outcome.integrity) or 'not applicable'}")
        for problem in outcome.problems[:20]:
            print(f"  problem: {problem}")
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
