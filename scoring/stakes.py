"""Playing for money: who pays what after a finished match.

Each side pays every side ranked better than it ``per_point`` × the difference of their totals,
each payment rounded half up to the currency's coin; a side not among the winners also pays
``per_match_lost`` into the pot. With ``to="pot"`` every payment goes into the pot. The payments
between sides are netted to the fewest transfers, at most (sides − 1) (:mod:`scoring.transfers`).

Decisions:

- :func:`settle` takes the totals that cost money and which way is better; which total that
  is (Sea Change ``vp``, Die sieben Siegel ``penalty``, ...) is the API's to choose. "Ranked
  better" is read from those totals: every game ranks by its main total first, and sides whose
  totals are equal pay each other nothing however a tiebreak ranks them.
- The fee for a lost match is a payment too, so it is rounded to the coin like the others
  (CHF ``0.52`` a lost match is paid as ``0.50``); a side that pays nothing pays nothing.
- ``to`` may be left out when reading stakes: the payments then go to the players.
- Each game says which total of its standings line costs money and which way is better
  (:class:`scoring.measures.Priced`, from ``Game.priced(setup)``), or ``None`` where stakes
  make no sense (Sea Change solo: the other side is the computer); :func:`settle_verdict`
  settles a finished match's verdict with it, so the API knows no game.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal, cast, get_args

from scoring.errors import Errors, at
from scoring.game import Verdict
from scoring.measures import Priced
from scoring.money import Currency, format_amount, read_amount, read_currency
from scoring.reading import JSON, read_choice, read_object, require
from scoring.transfers import Transfer, settle_nets

Recipient = Literal["players", "pot"]
RECIPIENTS: tuple[Recipient, ...] = get_args(Recipient)
STAKES_FIELDS = ("currency", "per_point", "to", "per_match_lost")


@dataclass(frozen=True, slots=True)
class Stakes:
    """What a match is played for; amounts in minor units (Rappen, cents)."""

    currency: Currency
    per_point: int
    to: Recipient = "players"
    per_match_lost: int = 0

    def __post_init__(self) -> None:
        if self.per_point < 0 or self.per_match_lost < 0:
            raise ValueError(f"stakes cannot be negative: {self!r}")

    def as_json(self) -> dict[str, JSON]:
        return {
            "currency": self.currency.code,
            "per_point": format_amount(self.per_point),
            "to": self.to,
            "per_match_lost": format_amount(self.per_match_lost),
        }


def read_stakes(value: JSON, path: str, errors: Errors) -> Stakes | None:
    """``{"currency", "per_point", "to", "per_match_lost"}`` as the contract writes them;
    ``to`` defaults to ``"players"`` and ``per_match_lost`` to ``"0"``. ``None`` when anything
    in them is wrong (each problem recorded at its field, an unknown field too)."""
    found = len(errors)
    raw = read_object(value, path, errors, allowed=STAKES_FIELDS)
    if raw is None:
        return None
    currency_raw = require(raw, "currency", path, errors)
    per_point_raw = require(raw, "per_point", path, errors)
    currency = (
        None if currency_raw is None else read_currency(currency_raw, at(path, "currency"), errors)
    )
    per_point = (
        None if per_point_raw is None else read_amount(per_point_raw, at(path, "per_point"), errors)
    )
    to = read_choice(raw.get("to", "players"), at(path, "to"), errors, RECIPIENTS)
    per_match_lost = read_amount(raw.get("per_match_lost", "0"), at(path, "per_match_lost"), errors)
    if len(errors) > found or currency is None or per_point is None or per_match_lost is None:
        return None
    return Stakes(currency, per_point, cast(Recipient, to), per_match_lost)


@dataclass(frozen=True, slots=True)
class Settlement:
    """A finished match's money, per side in side order; amounts in minor units.

    ``pays`` is everything a side pays, ``to_pot`` the part of it that goes into the pot,
    ``receives`` what it gets from the other sides; ``transfers`` (between side numbers)
    settle the payments between sides.
    """

    currency: Currency
    pays: tuple[int, ...]
    receives: tuple[int, ...]
    to_pot: tuple[int, ...]
    transfers: tuple[Transfer[int], ...]

    @property
    def pot(self) -> int:
        return sum(self.to_pot)

    def as_json(self) -> dict[str, JSON]:
        """The contract's ``settlement``: amounts as decimal strings."""
        return {
            "currency": self.currency.code,
            "pays": [format_amount(amount) for amount in self.pays],
            "receives": [format_amount(amount) for amount in self.receives],
            "pot": format_amount(self.pot),
            "transfers": [transfer.as_json() for transfer in self.transfers],
        }


def settle(
    stakes: Stakes, totals: Sequence[int], winners: Collection[int], *, lower_is_better: bool
) -> Settlement:
    """The settlement of a finished match: ``totals[i]`` is side i's total that costs money
    (``lower_is_better`` for penalty points), ``winners`` the sides that won it.

    Raises ``ValueError`` for a match without sides, without winners or with a winner that is
    not one of its sides.
    """
    sides = range(len(totals))
    if not totals or not winners or not set(winners) <= set(sides):
        raise ValueError(f"winners {sorted(winners)!r} of {len(totals)} sides")
    coin = stakes.currency.rounded
    worse = list(totals) if lower_is_better else [-total for total in totals]
    between, receives, to_pot = [0] * len(totals), [0] * len(totals), [0] * len(totals)
    for payer in sides:
        for payee in sides:
            behind = worse[payer] - worse[payee]
            if behind <= 0:
                continue
            amount = coin(stakes.per_point * behind)
            if stakes.to == "pot":
                to_pot[payer] += amount
            else:
                between[payer] += amount
                receives[payee] += amount
        if payer not in winners:
            to_pot[payer] += coin(stakes.per_match_lost)
    nets = {side: receives[side] - between[side] for side in sides}
    return Settlement(
        stakes.currency,
        pays=tuple(b + p for b, p in zip(between, to_pot, strict=True)),
        receives=tuple(receives),
        to_pot=tuple(to_pot),
        transfers=settle_nets(nets),
    )


def settle_verdict(stakes: Stakes, priced: Priced, verdict: Verdict) -> Settlement | None:
    """The settlement of a match by its verdict (``None`` while it is running): each side's
    ``priced`` total read from its standings line."""
    if not verdict.finished:
        return None
    by_side = sorted(verdict.standings, key=lambda standing: standing.side)
    totals = [cast(int, standing.totals[priced.total]) for standing in by_side]
    return settle(stakes, totals, verdict.winners, lower_is_better=priced.lower_is_better)
