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
- Every heading and every word a cell shows comes from :class:`SheetWords`, so the exports can
  speak the request's language once the API has catalogues.
- The response says its charset once: Litestar appends ``charset=utf-8`` to every ``text/``
  media type itself.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated, Literal

from litestar import Response
from litestar.params import QueryParameter

from api.requests import attachment

CSV_MEDIA_TYPE = "text/csv"
BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

Cell = str | int | float | None

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


def _untranslated(text: str) -> str:
    return text


@dataclass(frozen=True, slots=True)
class SheetWords:
    """The words an export shows: column headings and yes/no.

    ``translate`` is a gettext-style function from an English message to the request's language;
    the default writes English.
    """

    translate: Callable[[str], str] = _untranslated

    def heading(self, key: str) -> str:
        """A column named by a key of the export (``rank``) or of a game's result (``penalty``)."""
        return self.translate(key)

    def side_heading(self, side: str, key: str, *, total: bool) -> str:
        """A column of one player or team: this round's ``key``, or its running total."""
        message = "{side}: total {key}" if total else "{side}: {key}"
        return self.translate(message).format(side=side, key=self.heading(key))

    def flag(self, value: bool) -> str:
        return self.translate("yes" if value else "no")


ENGLISH = SheetWords()


def cell_text(value: Cell, decimal: str = ".") -> str:
    """What a cell shows (the printable standings show the same): nothing for an absent value,
    integers exact, fractions to three places with the ``decimal`` mark."""
    if value is None:
        return ""
    if isinstance(value, str | int):
        return str(value)
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text.replace(".", decimal)


def _csv_cell(value: Cell, layout: Layout) -> str:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return f"'{value}"
    return cell_text(value, layout.decimal)


def csv_bytes(rows: Iterable[Sequence[Cell]], layout: Layout) -> bytes:
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=layout.separator, lineterminator="\r\n")
    writer.writerows([_csv_cell(value, layout) for value in row] for row in rows)
    return out.getvalue().encode()


def csv_response(body: bytes, filename: str) -> Response[bytes]:
    return Response(body, media_type=CSV_MEDIA_TYPE, headers=attachment(filename))
