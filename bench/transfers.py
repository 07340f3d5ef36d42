"""How long the fewest transfers take: ``scoring.transfers.settle_nets`` for 8 to 17 members
with a non-zero net, and how many transfers the exact search saves against the greedy way.

The exact search looks at every subset of the members with a net, whatever the amounts, so its
time depends on their number only; ``scoring.transfers.EXACT_UP_TO`` (15) is chosen to keep it
well under 100 ms. Above it ``settle_nets`` is the greedy way; the row for 16 and 17 times the
exact search itself, to show why the limit is where it is. Each figure is the fastest of
``--repeat`` runs (the machine's other work only ever adds to a time).

    .venv/bin/python bench/transfers.py [--repeat N] [--seed S] [--smoke]

``--smoke`` (up to 10 members, one run) only checks that the bench still runs; CI does that.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path; the project root must come first.
sys.path[0] = str(Path(__file__).resolve().parents[1])

from scoring import transfers  # noqa: E402

TARGET_MS = 100


def random_nets(rng: random.Random, members: int) -> dict[int, int]:
    """``members`` nets of up to CHF 20 in Rappen coins, adding up to zero, none of them zero."""
    while True:
        owed = [5 * rng.randint(-400, 400) for _ in range(members - 1)]
        nets = [*owed, -sum(owed)]
        if all(nets):
            return dict(enumerate(nets, start=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--smoke", action="store_true")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    largest, repeat = (10, 1) if options.smoke else (transfers.EXACT_UP_TO + 2, options.repeat)
    print(f"exact up to {transfers.EXACT_UP_TO} members with a net; target {TARGET_MS} ms")
    print("members  fastest ms  transfers  greedy")
    for members in range(8, largest + 1):
        nets = random_nets(rng, members)
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            groups = transfers.zero_sum_groups(list(nets.values()))
            times.append((time.perf_counter() - started) * 1000)
        fewest = members - len(groups)
        greedy = len(transfers.settle_greedily(nets))
        print(f"{members:7}  {min(times):10.1f}  {fewest:9}  {greedy:6}")


if __name__ == "__main__":
    main()
