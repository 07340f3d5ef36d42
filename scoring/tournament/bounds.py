"""Lower bounds on the repeated meetings of any seating plan, to set beside the plan found.

A *repeat* is a pair of players at one table who have met before (in the history or in an
earlier round of the plan); a plan's repeats are summed over its rounds. Two counting arguments
hold for every plan of ``rounds`` rounds at the table sizes ``split`` (the same each round),
and the bound is the larger:

- **Partners.** A player at a table of s meets s − 1 players; over the plan they meet D
  players counted with repetition, and at most one meeting with each *fresh* partner (one they
  have never met) is not a repeat, so at least D − fresh of their meetings are repeats, and
  every repeat involves two players. With mixed table sizes the seats at larger tables are
  handed to the players with fresh partners to spare first, each at most once a round, which
  can only undercount.
- **Pigeonhole.** A table of s players drawn from the g tables of the round before holds at
  least the pairs of s players spread as evenly as possible over g tables, and those pairs met
  in that round; the same holds the other way round, for the players of one earlier table
  spread over this round's tables. The first round of a plan is compared with the last round
  played, if any (players who did not play it count as tables of one).

History and late entries enter through the fresh partners and the last round's groups. Clubs
only forbid seatings, so a bound without them holds for every plan; for the plans that keep
every club apart, club-mates are no fresh partners either, which raises the bound (the report
uses that one when the plan found does keep every club apart, since clubs come first). The
bound is 0 wherever a zero-repeat schedule exists, and it is tested against exhaustive search on
small plans.
"""

from __future__ import annotations

from collections.abc import Sequence


def repeat_lower_bound(
    split: Sequence[int], rounds: int, fresh_partners: Sequence[int],
    last_round_groups: Sequence[int] | None = None,
) -> int:
    """The fewest repeats any plan can have.

    ``fresh_partners[i]``: how many of the other active players player i has never met;
    ``last_round_groups``: the sizes of the groups the active players fell into in the last
    round played (each table, and each player who did not play it alone), None without history.
    """
    if rounds <= 0 or not split:
        return 0
    return max(_partner_bound(split, rounds, fresh_partners),
               _pigeonhole_bound(split, rounds, last_round_groups))


def _partner_bound(split: Sequence[int], rounds: int, fresh: Sequence[int]) -> int:
    smallest, largest = min(split) - 1, max(split) - 1
    extra_per_round = sum(size - 1 - smallest for size in split for _ in range(size))
    deficit = sum(max(0, rounds * smallest - f) for f in fresh)
    spare = sum(min(rounds * (largest - smallest), max(0, f - rounds * smallest)) for f in fresh)
    deficit += max(0, rounds * extra_per_round - spare)
    return (deficit + 1) // 2


def _pigeonhole_bound(split: Sequence[int], rounds: int,
                      last_round_groups: Sequence[int] | None) -> int:
    later = _after(split, split) * (rounds - 1)
    return later if last_round_groups is None else later + _after(last_round_groups, split)


def _after(groups: Sequence[int], split: Sequence[int]) -> int:
    """Pairs that must meet again at tables ``split`` after sitting in ``groups``."""
    return max(sum(even_pairs(size, len(groups)) for size in split),
               sum(even_pairs(size, len(split)) for size in groups))


def even_pairs(players: int, groups: int) -> int:
    """Pairs from one group when ``players`` come from ``groups`` groups as evenly as possible."""
    each, bigger = divmod(players, groups)
    return bigger * (each + 1) * each // 2 + (groups - bigger) * each * (each - 1) // 2
