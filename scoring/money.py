"""Money as whole minor units: Rappen and cents, never a float.

Amounts cross the boundary as decimal strings (``"0.05"``, ``"-2.50"``) and are whole minor
units (``5``, ``-250``) inside. Both currencies have 100 minor units to the unit; they differ in
their smallest coin, the step every payment is rounded to.

Decisions:

- An amount is written ``[-]digits[.d[d]]`` in ASCII digits: at most two decimals, a point as
  the separator, no sign ``+``, no exponent, no spaces, no thousands separators; ``"1."`` and
  ``".5"`` are not amounts (a person writes ``"1"`` and ``"0.50"``). A JSON number is refused
  even when it looks exact (``0.5``): the contract says amounts are strings.
- At most :data:`LARGEST` (1 000 000.00) either way: no card evening comes near, and the
  products of a settlement stay far inside a database's 64-bit integers.
- A written amount need not be a multiple of the coin (CHF ``0.02`` a point is a fair stake, as
  is a payment of CHF ``3.12`` by bank); only what a settlement computes is rounded to the coin.
- Rounding is half up, and for a negative amount half away from zero, so that rounding commutes
  with the sign: ``round(-x) == -round(x)``. (A settlement's payments are never negative; the
  rule only makes the function whole.)
- Formatting always writes two decimals (``"1.00"``, ``"-0.50"``), for both currencies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from scoring.errors import Errors, InvalidInput
from scoring.messages import Message
from scoring.reading import JSON, TOO_LARGE, TOO_SMALL, read_choice, read_str

MINOR_PER_UNIT = 100
LARGEST = 1_000_000 * MINOR_PER_UNIT
"""The largest amount in minor units, either way (1 000 000.00)."""

_UNIT_DIGITS = len(str(LARGEST // MINOR_PER_UNIT))
# Leading zeros are dropped by the pattern, so a long run of them costs no big number.
_AMOUNT = re.compile(r"(-?)0*([0-9]+)(?:\.([0-9]{1,2}))?")

NOT_AN_AMOUNT = Message(
    "not_an_amount",
    '"{value}" is not an amount; write it with at most two decimals, such as "0.50".',
)


@dataclass(frozen=True, slots=True)
class Currency:
    """A currency by its ISO code and its smallest coin (``step``, in minor units)."""

    code: str
    step: int

    def rounded(self, amount: Fraction | int) -> int:
        """``amount`` (exact, in minor units) rounded half up to this currency's coin; a
        negative amount is rounded half away from zero."""
        coins = abs(Fraction(amount)) / self.step
        whole = int(coins + Fraction(1, 2))  # int() truncates: floor of a non-negative number
        return whole * self.step if amount >= 0 else -whole * self.step


CHF = Currency("CHF", 5)
EUR = Currency("EUR", 1)
CURRENCIES = {currency.code: currency for currency in (CHF, EUR)}


def format_amount(amount: int) -> str:
    """Minor units as a decimal string with two decimals: ``-50`` → ``"-0.50"``."""
    units, cents = divmod(abs(amount), MINOR_PER_UNIT)
    return f"{'-' if amount < 0 else ''}{units}.{cents:02d}"


def read_currency(value: JSON, path: str, errors: Errors) -> Currency | None:
    """A currency by its code (``"CHF"``, ``"EUR"``)."""
    code = read_choice(value, path, errors, CURRENCIES)
    return None if code is None else CURRENCIES[code]


def read_amount(value: JSON, path: str, errors: Errors, *, negative: bool = False) -> int | None:
    """A decimal string as whole minor units (``"0.05"`` → ``5``); ``negative`` allows amounts
    below zero (a payment out of the pot)."""
    text = read_str(value, path, errors)
    if text is None:
        return None
    written = _AMOUNT.fullmatch(text)
    if written is None:
        errors.add(path, NOT_AN_AMOUNT, value=text)
        return None
    sign, units, cents = written.groups("")
    if (
        len(units) > _UNIT_DIGITS
        or (size := int(units) * MINOR_PER_UNIT + int(cents.ljust(2, "0"))) > LARGEST
    ):
        errors.add(path, TOO_LARGE, maximum=format_amount(LARGEST))
        return None
    amount = -size if sign else size
    if amount < 0 and not negative:
        errors.add(path, TOO_SMALL, minimum=format_amount(0))
        return None
    return amount


def parse_amount(text: JSON, *, negative: bool = False) -> int:
    """:func:`read_amount` of a value on its own: raises ``InvalidInput`` (path ``""``) instead
    of recording the problem."""
    errors = Errors()
    amount = read_amount(text, "", errors, negative=negative)
    if amount is None:
        errors.raise_all(InvalidInput)
    return amount
