"""Standings as CSV (written by :mod:`api.spreadsheet`, like the match score sheet) and as a
printable A4 page, both from :func:`standings_rows`.

The page has no scripts and no inline styles (the service's Content-Security-Policy allows only
the app's own stylesheets): it links :data:`PRINT_CSS`, served at ``PRINT_CSS_PATH``.
"""

from __future__ import annotations

from html import escape

from api.spreadsheet import ENGLISH, Cell, Layout, SheetWords, cell_text, csv_bytes
from api.tournaments import schemas as s

PRINT_CSS_PATH = "/api/v1/tournaments/print.css"
PRINT_CSS = """@page { size: A4; margin: 15mm 12mm; }
body { font: 11pt/1.35 system-ui, sans-serif; color: #111; margin: 0 auto; max-width: 190mm; }
h1 { font-size: 18pt; margin: 0 0 2mm; }
p.meta { margin: 0 0 5mm; color: #444; }
table { width: 100%; border-collapse: collapse; }
th, td { padding: 1.5mm 2mm; border-bottom: 0.3mm solid #bbb; text-align: left; }
th { border-bottom: 0.6mm solid #111; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
tr { break-inside: avoid; }
thead { display: table-header-group; }
"""


COLUMNS = ("rank", "player", "name", "club", "points", "tables")


def standings_rows(standings: s.Standings, words: SheetWords = ENGLISH) -> list[list[Cell]]:
    """A heading row, then one row per player: numbers as numbers, no club as an empty cell."""
    criteria = list(standings.rows[0].tiebreaks) if standings.rows else []
    rows: list[list[Cell]] = [[words.heading(key) for key in (*COLUMNS, *criteria)]]
    for row in standings.rows:
        rows.append([row.rank, row.player, row.name, row.club, row.points, row.tables,
                     *(row.tiebreaks[c] for c in criteria)])
    return rows


def standings_csv(standings: s.Standings, layout: Layout, words: SheetWords = ENGLISH) -> bytes:
    return csv_bytes(standings_rows(standings, words), layout)


def standings_html(tournament: s.Tournament, standings: s.Standings) -> str:
    header, *rows = standings_rows(standings)
    numeric = {0, 1, 4, 5, *range(6, len(header))}

    def cells(values: list[Cell], tag: str) -> str:
        number = ' class="number"'
        return "".join(
            f"<{tag}{number if i in numeric else ''}>{escape(cell_text(v))}</{tag}>"
            for i, v in enumerate(values))

    body = "\n".join(f"<tr>{cells(r, 'td')}</tr>" for r in rows)
    through = (f"after round {standings.through_round} of {tournament.rounds}"
               if standings.through_round else "before the first result")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{escape(tournament.name)}: standings</title>
<link rel="stylesheet" href="{PRINT_CSS_PATH}">
</head>
<body>
<h1>{escape(tournament.name)}</h1>
<p class="meta">{escape(tournament.game)} · standings {through}</p>
<table>
<thead><tr>{cells(header, 'th')}</tr></thead>
<tbody>
{body}
</tbody>
</table>
</body>
</html>
"""
