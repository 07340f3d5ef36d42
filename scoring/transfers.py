"""Who pays whom: netting what each participant is owed into a few transfers.

Used for the sides of one match and for the members of a club over an evening or a season.

Decisions:

- Greedy, as it is done on paper: the largest debtor pays the largest creditor as much as one of
  them still needs, until every net is settled. Each transfer settles at least one participant,
  so ``n`` participants with a non-zero net need at most ``n - 1`` transfers. (The very fewest
  is a hard problem in general; the greedy way is seldom more than one or two above it.)
- Ties (two debtors owing the same, two creditors owed the same) go to the one listed first in
  the nets, so the same nets in the same order always give the same transfers.
- Transfers are listed in the order they are made: the largest first.
- Every amount is a difference of nets, so it is a multiple of the coin when the nets are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from scoring.money import format_amount
from scoring.reading import JSON

P = TypeVar("P", bound="int | str")
"""Who pays and is paid: a side's number in a match, a member's id in a club."""


@dataclass(frozen=True, slots=True)
class Transfer(Generic[P]):
    """``payer`` pays ``payee`` ``amount`` minor units (always more than zero)."""

    payer: P
    payee: P
    amount: int

    def as_json(self) -> dict[str, JSON]:
        return {"from": self.payer, "to": self.payee, "amount": format_amount(self.amount)}


def settle_nets(nets: Mapping[P, int]) -> tuple[Transfer[P], ...]:
    """Transfers that settle ``nets`` (what each participant is owed, negative: owes) exactly.

    Raises ``ValueError`` when the nets do not add up to zero: then no transfers can settle them.
    """
    if sum(nets.values()) != 0:
        raise ValueError(f"the nets add up to {sum(nets.values())}, not 0: {dict(nets)!r}")
    left = dict(nets)
    order = {participant: position for position, participant in enumerate(nets)}
    transfers: list[Transfer[P]] = []
    while any(left.values()):
        payer = min(left, key=lambda p: (left[p], order[p]))
        payee = min(left, key=lambda p: (-left[p], order[p]))
        amount = min(-left[payer], left[payee])
        transfers.append(Transfer(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return tuple(transfers)
