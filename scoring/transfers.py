"""Who pays whom: netting what each participant is owed into the fewest transfers.

Used for the sides of one match and for the members of a club over an evening or a season.

The fewest transfers: participants whose nets add up to zero can settle among themselves, and a
group of ``k`` such participants settles in ``k - 1`` transfers (each one settles at least one
of them, the last one two); a group with no smaller group inside it cannot do with fewer. So
``n`` participants with a non-zero net need ``n - g`` transfers, where ``g`` is the largest
number of disjoint groups, each adding up to zero, that they can be split into.

Decisions:

- Up to :data:`EXACT_UP_TO` (15) participants with a non-zero net, ``g`` is found exactly by a
  search over every subset of them (``2 ** n`` subsets, each looked at with its ``n``
  neighbours): in pure Python about 20 ms for 15 on one core of the development machine,
  whatever the amounts, doubling with each further participant (40 ms for 16, 90 ms for 17;
  ``bench/transfers.py`` measures it). Above that the participants are settled greedily, as one
  group: still at most ``n - 1`` transfers, seldom more than one or two above the fewest. The
  card games seat at most eight sides, so only a score pad of 16 to 20 sides or a club period
  with more than 15 members owing or owed anything is settled greedily.
- Within a group, greedily, as it is done on paper: the one who owes most pays the one owed most
  as much as one of them still needs, until the group is settled.
- The answer depends on the nets only, not on the order they are given in: participants are
  taken in the order of their ids (side numbers, member ids). Where several splits into groups
  are equally good, the split is found by taking participants out of the whole one at a time,
  always the one with the smallest id that keeps the split best; ties in the greedy (two owing
  the same) go to the smaller id. Transfers are listed by payer, then payee, by id.
- Every amount is a difference of nets, so it is a whole number of minor units and a multiple
  of the coin when the nets are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from scoring.money import format_amount
from scoring.reading import JSON

P = TypeVar("P", bound="int | str")
"""Who pays and is paid: a side's number in a match, a member's id in a club."""

EXACT_UP_TO = 15
"""Participants with a non-zero net up to which the fewest transfers are found exactly."""


@dataclass(frozen=True, slots=True)
class Transfer(Generic[P]):
    """``payer`` pays ``payee`` ``amount`` minor units (always more than zero)."""

    payer: P
    payee: P
    amount: int

    def as_json(self) -> dict[str, JSON]:
        return {"from": self.payer, "to": self.payee, "amount": format_amount(self.amount)}


def settle_nets(nets: Mapping[P, int]) -> tuple[Transfer[P], ...]:
    """The fewest transfers that settle ``nets`` (what each participant is owed, negative:
    owes) exactly (greedily above :data:`EXACT_UP_TO` participants with a non-zero net).

    Raises ``ValueError`` when the nets do not add up to zero: then no transfers can settle them.
    """
    involved = _involved(nets)
    if len(involved) > EXACT_UP_TO:
        return settle_greedily(nets)
    transfers: list[Transfer[P]] = []
    for group in zero_sum_groups([nets[p] for p in involved]):
        transfers += _greedy([(involved[i], nets[involved[i]]) for i in group])
    return _by_id(transfers, involved)


def settle_greedily(nets: Mapping[P, int]) -> tuple[Transfer[P], ...]:
    """Transfers that settle ``nets`` exactly, all participants as one group, greedily: at most
    one fewer than the participants with a non-zero net, not always the fewest.

    Raises ``ValueError`` when the nets do not add up to zero.
    """
    involved = _involved(nets)
    return _by_id(_greedy([(p, nets[p]) for p in involved]), involved)


def _involved(nets: Mapping[P, int]) -> list[P]:
    """The participants with a non-zero net, by id; checks that the nets add up to zero."""
    if sum(nets.values()) != 0:
        raise ValueError(f"the nets add up to {sum(nets.values())}, not 0: {dict(nets)!r}")
    return sorted((p for p, net in nets.items() if net), key=_id)


def _id(participant: int | str) -> tuple[int, str]:
    """Orders side numbers and member ids (all of one kind in one settlement)."""
    return (participant, "") if isinstance(participant, int) else (0, participant)


def _by_id(transfers: list[Transfer[P]], involved: list[P]) -> tuple[Transfer[P], ...]:
    order = {participant: position for position, participant in enumerate(involved)}
    return tuple(sorted(transfers, key=lambda t: (order[t.payer], order[t.payee])))


def _greedy(group: Sequence[tuple[P, int]]) -> list[Transfer[P]]:
    """Settles ``group`` (participants in id order with nets adding up to zero): the one who
    owes most pays the one owed most, until every net is settled."""
    left = dict(group)
    order = {participant: position for position, (participant, _) in enumerate(group)}
    transfers: list[Transfer[P]] = []
    while any(left.values()):
        payer = min(left, key=lambda p: (left[p], order[p]))
        payee = min(left, key=lambda p: (-left[p], order[p]))
        amount = min(-left[payer], left[payee])
        transfers.append(Transfer(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return transfers


def zero_sum_groups(values: Sequence[int]) -> list[list[int]]:
    """The most disjoint groups (positions in ``values``) that each add up to zero and together
    take every position; ``values`` add up to zero, none is zero.

    ``most[mask]`` is the most groups the subset ``mask`` holds in a chain of subsets that each
    add up to zero, taking out one position at a time: the best of the subsets one smaller, one
    more when ``mask`` itself adds up to zero. The groups are the differences between the
    subsets adding up to zero along the best chain down from all positions.
    """
    count = len(values)
    everyone = (1 << count) - 1
    sums = [0] * (everyone + 1)
    most = [0] * (everyone + 1)
    for mask in range(1, everyone + 1):
        lowest = mask & -mask
        rest = mask ^ lowest
        sums[mask] = total = sums[rest] + values[lowest.bit_length() - 1]
        best = most[rest]
        others = rest
        while others:
            bit = others & -others
            others ^= bit
            if most[mask ^ bit] > best:
                best = most[mask ^ bit]
        most[mask] = best + (total == 0)
    groups: list[list[int]] = []
    group: list[int] = []
    mask = everyone
    while mask:
        closes = sums[mask] == 0
        position = next(
            i for i in range(count)
            if mask >> i & 1 and most[mask ^ 1 << i] + closes == most[mask]
        )
        if closes and group:
            groups.append(group)
            group = []
        group.append(position)
        mask ^= 1 << position
    if group:
        groups.append(group)
    return groups
