"""A club's money over many matches: what each member pays and receives, and the Kasse.

:func:`club_settlement` adds up the settlements of a club's matches (an evening, a season) per
currency and member, and nets what members owe each other into the fewest transfers between
them; what goes into the pot is not part of those transfers, it is paid into the Kasse.
:func:`kasse` sets what every member owes the pot against what they have paid into it.

Decisions:

- A side's money is split evenly among its members in whole coins: each of ``pays`` (apart from
  the pot's part), the pot's part and ``receives`` separately, so every share is a multiple of
  the coin and the shares add up to the side's amount exactly. Coins that do not split evenly go
  one each to the side's first members, in the order the side lists them (CHF 0.15 between two:
  0.10 for the first, 0.05 for the second).
- Members are listed in the order they first appear: by match, then side, then place in the
  side; currencies by their code. A member who played for money but owes and is owed nothing is
  listed with zeros.
- A payment's amount is what went into the pot (negative: paid out of it, to that member). A
  member's ``paid`` is what they paid in minus what was paid out to them; ``due`` is ``owes``
  minus ``paid`` (negative: the Kasse owes them). The pot's ``balance`` is the money in it: all
  payments in, minus all payments out; what is still due is not in the pot yet.
- The Kasse lists the members who owe the pot anything or have a payment recorded; every
  currency a settlement or a payment is in has a Kasse (one played for only between players
  has none of its members in it, and a balance of 0).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Generic

from scoring.money import Currency, format_amount
from scoring.reading import JSON
from scoring.stakes import Settlement
from scoring.transfers import P, Transfer, settle_nets


@dataclass(frozen=True, slots=True)
class SettledMatch(Generic[P]):
    """A finished match's settlement and who played it: ``sides[i]`` are the member ids of
    side i (one for a player alone, two or more for a team).

    Raises ``ValueError`` when the sides do not match the settlement's, a side has no member,
    or an amount of the settlement is not a multiple of its coin (then it cannot be split in
    coins).
    """

    settlement: Settlement
    sides: tuple[tuple[P, ...], ...]

    def __post_init__(self) -> None:
        money = self.settlement
        if len(self.sides) != len(money.pays) or not all(self.sides):
            raise ValueError(f"{len(money.pays)} sides settled, members of {self.sides!r} given")
        if any(
            amount % money.currency.step for amount in (*money.pays, *money.receives, *money.to_pot)
        ):
            raise ValueError(f"amounts that are not whole coins cannot be split: {money!r}")


@dataclass(frozen=True, slots=True)
class MemberMoney(Generic[P]):
    """One member's money in one currency; ``to_pot`` is the part of ``pays`` that goes into
    the pot."""

    member: P
    pays: int
    receives: int
    to_pot: int

    @property
    def net(self) -> int:
        return self.receives - self.pays

    def as_json(self) -> dict[str, JSON]:
        return {
            "player": self.member,
            "pays": format_amount(self.pays),
            "receives": format_amount(self.receives),
            "net": format_amount(self.net),
        }


@dataclass(frozen=True, slots=True)
class ClubSettlement(Generic[P]):
    """A club's money in one currency: per member, the pot, and the transfers between members
    that settle what they owe each other."""

    currency: Currency
    members: tuple[MemberMoney[P], ...]
    transfers: tuple[Transfer[P], ...]

    @property
    def pot(self) -> int:
        return sum(member.to_pot for member in self.members)

    def as_json(self) -> dict[str, JSON]:
        return {
            "currency": self.currency.code,
            "members": [member.as_json() for member in self.members],
            "pot": format_amount(self.pot),
            "transfers": [transfer.as_json() for transfer in self.transfers],
        }


def shares(amount: int, members: int, step: int) -> list[int]:
    """``amount`` (whole coins of ``step``) split among ``members`` in whole coins, the coins
    left over one each to the first members."""
    each, left_over = divmod(amount // step, members)
    return [(each + (place < left_over)) * step for place in range(members)]


@dataclass(slots=True)
class _Sums(Generic[P]):
    """What adds up per member in one currency while the matches are read."""

    pays: dict[P, int] = field(default_factory=dict)
    receives: dict[P, int] = field(default_factory=dict)
    to_pot: dict[P, int] = field(default_factory=dict)

    def add(self, members: tuple[P, ...], pays: int, receives: int, to_pot: int, step: int) -> None:
        between = shares(pays - to_pot, len(members), step)
        received = shares(receives, len(members), step)
        pot = shares(to_pot, len(members), step)
        for member, paid, got, into_pot in zip(members, between, received, pot, strict=True):
            self.pays[member] = self.pays.get(member, 0) + paid + into_pot
            self.receives[member] = self.receives.get(member, 0) + got
            self.to_pot[member] = self.to_pot.get(member, 0) + into_pot


def club_settlement(matches: Iterable[SettledMatch[P]]) -> tuple[ClubSettlement[P], ...]:
    """The club's settlement of ``matches``, one per currency played for."""
    sums: dict[Currency, _Sums[P]] = {}
    for match in matches:
        money = match.settlement
        kept = sums.setdefault(money.currency, _Sums())
        for side, team in enumerate(match.sides):
            kept.add(
                team,
                money.pays[side],
                money.receives[side],
                money.to_pot[side],
                money.currency.step,
            )
    settled: list[ClubSettlement[P]] = []
    for currency, kept in sorted(sums.items(), key=lambda item: item[0].code):
        members = tuple(
            MemberMoney(member, paid, kept.receives[member], kept.to_pot[member])
            for member, paid in kept.pays.items()
        )
        nets = {m.member: m.receives - (m.pays - m.to_pot) for m in members}
        settled.append(ClubSettlement(currency, members, settle_nets(nets)))
    return tuple(settled)


@dataclass(frozen=True, slots=True)
class Payment(Generic[P]):
    """Money a member paid into the pot (``amount`` negative: paid out of it to them)."""

    member: P
    amount: int
    currency: Currency


@dataclass(frozen=True, slots=True)
class KasseLine(Generic[P]):
    """What a member owes the pot in all, has paid into it, and still owes."""

    member: P
    owes: int
    paid: int

    @property
    def due(self) -> int:
        return self.owes - self.paid

    def as_json(self) -> dict[str, JSON]:
        return {
            "player": self.member,
            "owes": format_amount(self.owes),
            "paid": format_amount(self.paid),
            "due": format_amount(self.due),
        }


@dataclass(frozen=True, slots=True)
class Kasse(Generic[P]):
    """The pot in one currency: each member's line, and the money in it."""

    currency: Currency
    members: tuple[KasseLine[P], ...]

    @property
    def balance(self) -> int:
        return sum(line.paid for line in self.members)

    def as_json(self) -> dict[str, JSON]:
        return {
            "currency": self.currency.code,
            "members": [line.as_json() for line in self.members],
            "balance": format_amount(self.balance),
        }


def kasse(
    settlements: Iterable[ClubSettlement[P]], payments: Iterable[Payment[P]]
) -> tuple[Kasse[P], ...]:
    """The Kasse per currency: what ``settlements`` (all of the club's, usually) say each member
    owes the pot, against the ``payments`` recorded."""
    owes: dict[Currency, dict[P, int]] = {}
    paid: dict[Currency, dict[P, int]] = {}
    for settled in settlements:
        owed = owes.setdefault(settled.currency, {})
        for member in settled.members:
            if member.to_pot:
                owed[member.member] = owed.get(member.member, 0) + member.to_pot
    for payment in payments:
        owes.setdefault(payment.currency, {})
        into = paid.setdefault(payment.currency, {})
        into[payment.member] = into.get(payment.member, 0) + payment.amount
    pots: list[Kasse[P]] = []
    for currency, owed in sorted(owes.items(), key=lambda item: item[0].code):
        into = paid.get(currency, {})
        members = dict.fromkeys([*owed, *into])
        lines = tuple(KasseLine(m, owed.get(m, 0), into.get(m, 0)) for m in members)
        pots.append(Kasse(currency, lines))
    return tuple(pots)
