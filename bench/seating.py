"""Benchmark: how close ``mix`` seating comes to the optimum, and how fast it is.

Part 1 plans whole tournaments and prints, per instance, the players, the preferred table size,
the rounds, the table sizes, the repeated meetings ``mix`` found, the lower bound on repeats
(:mod:`scoring.tournament.bounds`; 0 wherever a zero-repeat schedule exists), and the CPU
seconds it took (``time.process_time``: the machine may be shared, one core's work is what we
promise: at most 2 s for up to 40 players). Next to it, in the same run, a plain tabu search of
our own as the baseline: a random start and the same tabu search with the same effort, without
the designs, the greedy start or the lower bound's early stop (``--smoke`` gives it a tenth).
Besides fresh tournaments there are rows with clubs, a re-plan after a drop-out and a late
entry, and the issue's moonshots (40 players at tables of 4 for 13 rounds; 32 at 4 for 10,
Aguado's schedule, which the GF(2)^3 translation search finds in about 1.5 s).

Part 2 times ``mix`` seating of round 10 (after 9 rounds seated at random, clubs of eight) for
200 to 2,000 players, with the growth against the previous field (near the ratio of field sizes
means close to linear). Target: 1,000 players in at most 1 s.

Every figure is reproducible: plans depend on the seed only, and the search's effort is counted
in moves, not seconds.

Run: ``.venv/bin/python bench/seating.py`` (about a minute) or ``--smoke`` (a few seconds).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

# Run as a script, this folder comes first on the path, and bench/scoring.py would hide the
# scoring package: put the repository root there instead.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from scoring.tournament import (  # noqa: E402
    Meetings,
    Player,
    RoundPlan,
    TableSizes,
    plan_mix,
    seat_mix,
    seat_random,
)
from scoring.tournament.mix import PLAN_EFFORT, MixWeights  # noqa: E402
from scoring.tournament.report import lower_bound  # noqa: E402
from scoring.tournament.tabu import Costs, Effort, random_plan, tabu_search  # noqa: E402

SEED = 1


@dataclass(frozen=True)
class Instance:
    players: int
    size: int
    rounds: int
    note: str = ""
    clubs: int = 0  # clubs of three among the first players
    replan_after: int = 0  # rounds played before a drop-out and a late entry

    def roster(self) -> list[Player]:
        return [Player(i, f"club {i // 3}" if i < 3 * self.clubs else None)
                for i in range(self.players)]

    @property
    def sizes(self) -> TableSizes:
        return TableSizes(self.size, 2, self.size + 1)  # as ``tafelrunde seating`` does


FULL = [
    Instance(24, 4, 6, "issue"), Instance(24, 4, 7, "issue"), Instance(32, 4, 8, "issue"),
    Instance(21, 3, 10, "issue"), Instance(36, 4, 9, "issue"),
    Instance(9, 3, 4), Instance(15, 3, 7), Instance(16, 4, 5), Instance(20, 4, 5),
    Instance(25, 5, 6), Instance(18, 3, 8), Instance(27, 3, 13), Instance(28, 4, 9),
    Instance(39, 3, 19), Instance(40, 4, 13, "moonshot"), Instance(36, 4, 11), Instance(30, 5, 6),
    Instance(35, 5, 7), Instance(40, 5, 8), Instance(36, 6, 3),
    Instance(22, 4, 7, "mixed"), Instance(21, 4, 5, "mixed"), Instance(13, 4, 4, "mixed"),
    Instance(12, 4, 3, "forced"), Instance(20, 4, 6, "beyond"), Instance(16, 4, 6, "beyond"),
    Instance(24, 4, 6, "clubs", clubs=4), Instance(28, 4, 9, "clubs", clubs=6),
    Instance(21, 3, 10, "re-plan", replan_after=3), Instance(40, 4, 13, "re-plan", replan_after=4),
    Instance(32, 4, 10, "moonshot"),
]
SMOKE = [Instance(24, 4, 7, "issue"), Instance(21, 3, 10, "issue"), Instance(22, 4, 7, "mixed"),
         Instance(12, 4, 3, "forced"), Instance(21, 3, 10, "re-plan", replan_after=3)]
FIELDS = (200, 500, 1000, 2000)
SMOKE_FIELDS = (200,)
PLAYED_ROUNDS = 9


def cpu_seconds(work: Callable[[], object]) -> tuple[float, object]:
    start = time.process_time()
    done = work()
    return time.process_time() - start, done


def repeats_of(plans: Sequence[RoundPlan]) -> int:
    return sum(plan.report.repeats for plan in plans)


def with_mix(instance: Instance) -> tuple[int, int, str, float]:
    """Repeats found, lower bound, table sizes and CPU seconds of ``plan_mix``."""
    roster = instance.roster()
    sizes = instance.sizes
    history: list[tuple[tuple[int | str, ...], ...]] = []
    planned: list[tuple[tuple[int | str, ...], ...]] = []
    rounds = instance.rounds
    if instance.replan_after:
        first = plan_mix(roster, sizes, rounds, seed=SEED)
        history = [p.tables for p in first[:instance.replan_after]]
        planned = [p.tables for p in first[instance.replan_after:]]
        roster = [p for p in roster if p.id != 5] + [Player("late")]
        rounds -= instance.replan_after
    seconds, plans = cpu_seconds(
        lambda: plan_mix(roster, sizes, rounds, history, seed=SEED, planned=planned))
    assert isinstance(plans, tuple)
    quality = plans[0].report.plan
    assert quality is not None
    split = "".join(str(s) for s in sizes.split(len(roster)))
    return quality.repeats, quality.lower_bound, split, seconds


def with_plain_tabu(instance: Instance, effort: Effort) -> tuple[int, float] | None:
    """Repeats and CPU seconds of the baseline, for fresh tournaments without clubs."""
    if instance.clubs or instance.replan_after:
        return None
    count = instance.players
    split = instance.sizes.split(count)
    weights = MixWeights()
    zero = [[0] * count for _ in range(count)]
    costs = Costs(zero, zero, zero, weights.repeat, weights.spread)
    rng = random.Random(SEED)
    seconds, found = cpu_seconds(lambda: tabu_search(
        costs, random_plan(count, split, instance.rounds, rng), rng, effort))
    assert isinstance(found, tuple)
    plan, _ = found
    meetings = Meetings()
    repeats = 0
    for part in plan:
        repeats += sum(meetings.times_met(p, q) > 0
                       for table in part for i, p in enumerate(table) for q in table[i + 1:])
        meetings.add(part)
    return repeats, seconds


def plans_table(instances: Sequence[Instance], effort: Effort) -> None:
    print(f"{'players':>7} {'size':>4} {'rounds':>6} {'tables':>11} {'repeats':>7} "
          f"{'bound':>5} {'seconds':>7}   {'plain tabu':>10} {'seconds':>7}  note")
    totals = [0, 0, 0]
    for instance in instances:
        repeats, bound, split, seconds = with_mix(instance)
        baseline = with_plain_tabu(instance, effort)
        plain = ("-", "-") if baseline is None else (str(baseline[0]), f"{baseline[1]:.2f}")
        print(f"{instance.players:>7} {instance.size:>4} {instance.rounds:>6} {split:>11} "
              f"{repeats:>7} {bound:>5} {seconds:>7.2f}   {plain[0]:>10} {plain[1]:>7}  "
              f"{instance.note}")
        totals[0] += repeats == bound
        totals[1] += baseline is not None and baseline[0] == bound
        totals[2] += baseline is not None
    print(f"mix reached the lower bound on {totals[0]} of {len(instances)} instances; the plain "
          f"tabu search on {totals[1]} of the {totals[2]} it ran")


def time_round_ten(count: int) -> tuple[float, int, int]:
    players = [Player(i, club=f"club {i % (count // 8)}") for i in range(count)]
    sizes = TableSizes(4, 3, 5)
    history = [seat_random(players, sizes, seed=f"bench {r}").tables for r in range(PLAYED_ROUNDS)]
    seconds, plan = cpu_seconds(lambda: seat_mix(players, sizes, history, seed=10))
    assert isinstance(plan, RoundPlan)
    bound = lower_bound(players, sizes.split(count), 1, Meetings(history))
    return seconds, plan.report.repeats, bound


def fields_table(fields: Sequence[int]) -> None:
    previous: tuple[int, float] | None = None
    print(f"{'players':>8} {'seconds':>8} {'repeats':>8} {'bound':>6} {'growth':>14}")
    for count in fields:
        seconds, repeats, bound = time_round_ten(count)
        growth = ""
        if previous is not None:
            growth = f"x{seconds / previous[1]:.2f} (n x{count / previous[0]:.1f})"
        print(f"{count:>8} {seconds:>8.3f} {repeats:>8} {bound:>6} {growth:>14}")
        previous = (count, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a few small instances only")
    smoke = parser.parse_args().smoke
    # The smoke run gives the baseline a tenth of the effort: it only shows that it runs.
    plans_table(SMOKE if smoke else FULL,
                replace(PLAN_EFFORT, moves=PLAN_EFFORT.moves // 10) if smoke else PLAN_EFFORT)
    print()
    fields_table(SMOKE_FIELDS if smoke else FIELDS)


if __name__ == "__main__":
    main()
