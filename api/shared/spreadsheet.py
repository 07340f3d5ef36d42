"""CSV that spreadsheet apps open right: the one writer behind the match and tournament exports.

- UTF-8 with a byte-order mark, CRLF line ends and quoting as needed (RFC 4180). The BOM is what
  makes Excel read umlauts as UTF-8 when a file is opened by double click.
- No ``sep=;`` first line, although it would make Excel split on semicolons whatever its locale:
  Excel is widely reported to ignore the BOM when that line is there (umlauts garbled), and
  LibreOffice shows it as an extra first row (tests/api/test_exports_libreoffice.py saw it). A
  spreadsheet splits a file opened by double click on its locale's list separator and reads
  numbers with its locale's decimal mark, so the caller names both (:class:`Layout`): ``,`` and
  ``.`` for English locales; ``;`` and ``,`` for German (Germany, Austria), French and Italian
  ones; ``;`` and ``.`` for Swiss ones. The app picks them from the device's locale.
- Absent values are empty cells, never ``null``; numbers stay numbers.
- No text becomes a formula (OWASP "CSV Injection"): a player or club named ``=HYPERLINK(...)``
  or ``=cmd|' /C calc'!A0`` would otherwise run in the organiser's spreadsheet. Text that starts
  with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading single quote, which
  the spreadsheet shows as part of the text. Numbers are never text here, so a negative score
  keeps its minus and stays a number.
- Every heading and every word a cell shows comes from :class:`SheetWords`: the request's
  language (headings, yes/no, the players a seat or side column names), numbers as numbers.
- The response says its charset once: Litestar appends ``charset=utf-8`` to every ``text/``
  media type itself.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Annotated, Any, Literal

from litestar import Response
from litestar.params import QueryParameter

from api.shared.requests import attachment
from scoring.messages import ENGLISH as ENGLISH_WORDING
from scoring.messages import NO_NAMES, SEAT, SIDE, YES_NO, Message, Names, Vocabulary, Wording

CSV_MEDIA_TYPE = "text/csv"
BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

Cell = str | int | float | None
MoneyCell = Cell | Decimal
"""A cell of a sheet with money: an amount is a ``Decimal`` (exact, never a float), written
with its own decimals."""

Separator = Annotated[Literal[",", ";"], QueryParameter(
    name="sep", description="CSV: the column separator of the spreadsheet that opens the file "
    "(`;` where its locale writes decimals with a comma, and in Switzerland)")]
DecimalMark = Annotated[Literal[".", ","], QueryParameter(
    name="decimal", description="CSV: the decimal mark of the spreadsheet that opens the file "
    "(`,` in Germany, Austria, France and Italy; `.` in Switzerland and English locales)")]


@dataclass(frozen=True, slots=True)
class Layout:
    """How the spreadsheet that opens the file splits columns and writes fractions."""

    separator: str = ","
    decimal: str = "."


HEADINGS = Vocabulary("a column heading of an export", {
    "round": "round", "match_winner": "match winner", "played_on": "played on",
    "location": "place"})
SIDE_ROUND = Message("", "{side}: {key}")
SIDE_TOTAL = Message("", "{side}: total {key}")


@dataclass(frozen=True, slots=True)
class SheetWords:
    """The words an export shows, said with ``wording`` (the request's :class:`api.i18n.Words`;
    English by default): headings from ``headings`` (the export's own and the game's columns),
    yes/no, and for the columns in ``seats`` or ``sides`` the name of that seat or side."""

    wording: Wording = ENGLISH_WORDING
    headings: tuple[Vocabulary, ...] = (HEADINGS,)
    names: Names = NO_NAMES
    seats: frozenset[str] = frozenset()
    sides: frozenset[str] = frozenset()
    values: Mapping[str, Vocabulary] = field(default_factory=dict)

    def with_columns(self, headings: Vocabulary, *, names: Names = NO_NAMES,
                     seats: frozenset[str] = frozenset(),
                     sides: frozenset[str] = frozenset(),
                     values: Mapping[str, Vocabulary] | None = None) -> SheetWords:
        return replace(self, headings=(*self.headings, headings), names=names, seats=seats,
                       sides=sides, values=values or {})

    def _term(self, key: str) -> str:
        for vocabulary in self.headings:
            if key in vocabulary.names:
                return self.wording.term(vocabulary, key, "")
        return key

    def heading(self, key: str) -> str:
        """A column named by a key of the export (``rank``) or of a game's result (``penalty``)."""
        term = self._term(key)
        return term[:1].upper() + term[1:]

    def side_heading(self, side: str, key: str, *, total: bool) -> str:
        """A column of one player or team: this round's ``key``, or its running total."""
        message = SIDE_TOTAL if total else SIDE_ROUND
        params = {"side": side, "key": self._term(key)}
        return self.wording.say(self.wording.template(message, params), params, {})

    def flag(self, value: bool) -> str:
        return self.wording.term(YES_NO, str(value), "")

    def value(self, key: str, value: Any) -> Any:
        """A seat or side of a column that names one, as its name; a term of a column that
        has a vocabulary (a suit) in the reader's language; any other value as it is."""
        if isinstance(value, str) and key in self.values:
            return self.wording.term(self.values[key], value, "")
        if isinstance(value, int) and not isinstance(value, bool):
            kind = SEAT if key in self.seats else SIDE if key in self.sides else None
            if kind is not None:
                return self.wording.say("{who}", {"who": value}, {"who": kind}, self.names)
        return value


ENGLISH = SheetWords()


def cell_text(value: MoneyCell, decimal: str = ".") -> str:
    """What a cell shows (the printable standings show the same): nothing for an absent value,
    integers exact, fractions to three places with the ``decimal`` mark."""
    if value is None:
        return ""
    if isinstance(value, str | int):
        return str(value)
    if isinstance(value, Decimal):
        return str(value).replace(".", decimal)
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text.replace(".", decimal)


def _csv_cell(value: MoneyCell, layout: Layout) -> str:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return f"'{value}"
    return cell_text(value, layout.decimal)


def csv_bytes(rows: Iterable[Sequence[MoneyCell]], layout: Layout) -> bytes:
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=layout.separator, lineterminator="\r\n")
    writer.writerows([_csv_cell(value, layout) for value in row] for row in rows)
    return out.getvalue().encode()


def csv_response(body: bytes, filename: str) -> Response[bytes]:
    return Response(body, media_type=CSV_MEDIA_TYPE, headers=attachment(filename))
