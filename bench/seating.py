"""Benchmark: ``mix`` seating of round 10 (after 9 played rounds) at tables of 4.

Prints the time for 200, 500, 1,000 and 2,000 players and how each grows against the previous
field (a ratio near the ratio of field sizes means close to linear). Target: 1,000 players in at
most 3 s on one core. The earlier rounds are seated at random (not timed), which leaves more
pairs to avoid than mix seating would.

Run: ``.venv/bin/python bench/seating.py``
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

# Run as a script, this folder comes first on the path, and bench/scoring.py would hide the
# scoring package: put the repository root there instead.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from scoring.tournament import Player, TableSizes, seat_mix, seat_random  # noqa: E402

FIELDS = (200, 500, 1000, 2000)
PLAYED_ROUNDS = 9


def time_round_ten(count: int) -> tuple[float, int]:
    players = [Player(i, club=f"club {i % (count // 8)}") for i in range(count)]
    sizes = TableSizes(4, 3, 5)
    history = [seat_random(players, sizes, seed=f"bench {r}").tables for r in range(PLAYED_ROUNDS)]
    start = time.perf_counter()
    plan = seat_mix(players, sizes, history, seed=10)
    return time.perf_counter() - start, plan.report.repeats


def main() -> None:
    previous: tuple[int, float] | None = None
    print(f"{'players':>8} {'seconds':>8} {'repeats':>8} {'growth':>14}")
    for count in FIELDS:
        seconds, repeats = time_round_ten(count)
        growth = ""
        if previous is not None:
            growth = f"x{seconds / previous[1]:.2f} (n x{count / previous[0]:.1f})"
        print(f"{count:>8} {seconds:>8.3f} {repeats:>8} {growth:>14}")
        previous = (count, seconds)


if __name__ == "__main__":
    main()
