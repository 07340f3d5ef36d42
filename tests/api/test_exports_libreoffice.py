"""Both CSV exports opened by LibreOffice headless, on SQLite and PostgreSQL, in an English, a
German and a Swiss locale: every cell LibreOffice reads is the cell the export meant (numbers as
numbers with the locale's decimal mark, umlauts intact, absent values empty, no extra row) and no
player or club name becomes a formula.

LibreOffice (Debian ``libreoffice-calc-nogui``) is missing locally: skipped with the reason; in CI
(env ``CI`` set) that fails the test instead. Each run gets a private LibreOffice profile, so
parallel runs never share one, and one LibreOffice start per locale converts both files."""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.shared.spreadsheet import Layout
from tests.api.test_exports import sea_change_match
from tests.api.test_tournaments import BASE, new_tournament, play_round, register

pytestmark = pytest.mark.slow

Client = AsyncTestClient[Litestar]
Value = str | float | None

# A locale's layout and the LibreOffice language id that reads numbers as that locale does.
LOCALES = {
    "en-US": (Layout(",", "."), 1033),
    "de-DE": (Layout(";", ","), 1031),
    "de-CH": (Layout(";", "."), 2055),
}
ODF_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
ODF_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
ODF_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
HYPERLINK = '=HYPERLINK("https://ex.org","Zoë")'
COMMAND = "=cmd|' /C calc'!A0"
CLUB = "@SUM(A1:A9)"


@pytest.fixture
def soffice() -> str:
    executable = shutil.which("soffice") or shutil.which("libreoffice")
    if executable is None:
        reason = "LibreOffice is not installed (Debian package `libreoffice-calc-nogui`)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}, but CI needs the spreadsheet tests to run")
        pytest.skip(reason)
    return executable


def csv_filter(layout: Layout, language: int) -> str:
    """LibreOffice's CSV import options: the separator, '"' quotes, UTF-8, from line 1, standard
    columns, the locale, quoted numbers as numbers, dates and other special numbers detected (as
    Excel does on a double click), and formulas evaluated (the default before LibreOffice 7.6)."""
    return (f"CSV:{ord(layout.separator)},34,76,1,,{language},"
            "false,true,false,false,false,-1,true")


def convert(soffice: str, work: Path, files: dict[str, list[Path]]) -> None:
    """Convert every file to flat ODF next to it: one LibreOffice per locale, one after the
    other (started side by side, LibreOffices with new profiles were seen to abort at start)."""
    for locale, paths in files.items():
        layout, language = LOCALES[locale]
        done = subprocess.run(
            [soffice, f"-env:UserInstallation={(work / f'profile-{locale}').as_uri()}",
             "--headless", "--norestore", f"--infilter={csv_filter(layout, language)}",
             "--convert-to", "fods", "--outdir", str(paths[0].parent), *map(str, paths)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=180, check=False)
        assert done.returncode == 0, done.stdout.decode(errors="replace")


def _cell_text(paragraph: ET.Element) -> str:
    """A paragraph's text with ODF's spaces and tabs written out."""
    parts = [paragraph.text or ""]
    for child in paragraph:
        if child.tag == f"{{{ODF_TEXT}}}s":
            parts.append(" " * int(child.get(f"{{{ODF_TEXT}}}c", "1")))
        elif child.tag == f"{{{ODF_TEXT}}}tab":
            parts.append("\t")
        else:
            parts.append(_cell_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def read_sheet(path: Path) -> list[list[Value]]:
    """The first sheet's cells: a float for a number, the text of a text cell, None when empty.
    A formula is kept as ``formula: ...`` so that no comparison with an export's cell can pass."""
    sheet = next(ET.parse(path).getroot().iter(f"{{{ODF_TABLE}}}table"))
    rows: list[list[Value]] = []
    for row in sheet.iter(f"{{{ODF_TABLE}}}table-row"):
        cells: list[Value] = []
        for cell in row.iter(f"{{{ODF_TABLE}}}table-cell"):
            value: Value = None
            if formula := cell.get(f"{{{ODF_TABLE}}}formula"):
                value = f"formula: {formula}"
            elif cell.get(f"{{{ODF_OFFICE}}}value-type") == "float":
                value = float(cell.get(f"{{{ODF_OFFICE}}}value", "nan"))
            elif cell.get(f"{{{ODF_OFFICE}}}value-type") == "date":
                # A date the spreadsheet took as one (when a match was played), read back as the
                # export writes it: 2026-11-05T20:00:00 is "2026-11-05 20:00".
                moment = cell.get(f"{{{ODF_OFFICE}}}date-value", "")
                value = moment[:16].replace("T", " ")
            elif cell.get(f"{{{ODF_OFFICE}}}value-type") is not None:
                value = "\n".join(_cell_text(p) for p in cell.iter(f"{{{ODF_TEXT}}}p"))
            cells += [value] * int(cell.get(f"{{{ODF_TABLE}}}number-columns-repeated", "1"))
        while cells and cells[-1] is None:
            cells.pop()
        rows.append(cells)
    while rows and not rows[-1]:
        rows.pop()
    return rows


def meant(body: bytes, layout: Layout) -> list[list[Value]]:
    """The cells an export means, read by Python's csv module: a cell that is a plain decimal
    number in the layout is that number, an empty cell is None, anything else is text."""
    text = body.decode("utf-8").removeprefix("\ufeff")
    number = re.compile(rf"-?\d+(?:{re.escape(layout.decimal)}\d+)?")
    return [[None if cell == "" else
             float(cell.replace(layout.decimal, ".")) if number.fullmatch(cell) else cell
             for cell in row]
            for row in csv.reader(io.StringIO(text), delimiter=layout.separator)]


async def test_libreoffice_reads_both_exports_cell_for_cell_in_three_locales(
    client: Client, soffice: str, tmp_path: Path,
) -> None:
    match = await sea_change_match(client, ["Jörg", HYPERLINK, "Ümit", "-Dan"])
    tournament = await new_tournament(client, name="Zürich Open")
    await register(client, tournament, ["Jürg", COMMAND, "Bea", "Cem"],
                   ["Bärn", CLUB, None, None])
    await play_round(client, tournament)
    exports = {"match": f"{match}/export", "standings": f"{BASE}/{tournament['id']}/export"}

    files: dict[str, list[Path]] = {}
    bodies: dict[Path, tuple[bytes, Layout]] = {}
    for locale, (layout, _) in LOCALES.items():
        (tmp_path / locale).mkdir()
        for name, url in exports.items():
            response = await client.get(url, params={"sep": layout.separator,
                                                     "decimal": layout.decimal})
            assert response.status_code == 200, response.text
            path = tmp_path / locale / f"{name}.csv"
            path.write_bytes(response.content)
            files.setdefault(locale, []).append(path)
            bodies[path] = (response.content, layout)
    convert(soffice, tmp_path, files)

    standings = (await client.get(f"{BASE}/{tournament['id']}/standings")).json()
    for path, (body, layout) in bodies.items():
        sheet = read_sheet(path.with_suffix(".fods"))
        assert sheet == meant(body, layout), path
        if path.stem == "match":
            heading, played = sheet
            assert played[heading.index("Cards collected")] is None
            assert played[heading.index("Ümit: points")] == -1.0
            assert f"'{HYPERLINK}: points" in heading
        else:
            heading, *rows = sheet
            assert heading[:6] == ["Rank", "No.", "Name", "Club", "Points", "Tables"]
            shown = {COMMAND: f"'{COMMAND}", CLUB: f"'{CLUB}"}
            assert [row[:5] for row in rows] == [
                [line["rank"], line["player"], shown.get(line["name"], line["name"]),
                 shown.get(line["club"], line["club"]), round(line["points"], 3)]
                for line in standings["rows"]], path
            assert {row[4] for row in rows} >= {0.667, 0.333}
