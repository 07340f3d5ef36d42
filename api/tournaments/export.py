"""Standings as CSV (like the match score sheet: RFC 4180, UTF-8 with BOM, ``sep=;``) and as a
printable A4 page.

The page has no scripts and no inline styles (the service's Content-Security-Policy allows only
the app's own stylesheets): it links :data:`PRINT_CSS`, served at ``PRINT_CSS_PATH``.
"""

from __future__ import annotations

import csv
import io
from html import escape

from api.matches.export import BOM
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


def _number(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def standings_rows(standings: s.Standings) -> list[list[str | int]]:
    criteria = list(standings.rows[0].tiebreaks) if standings.rows else []
    rows: list[list[str | int]] = [
        ["rank", "player", "name", "club", "points", "tables", *criteria]]
    for row in standings.rows:
        rows.append([row.rank, row.player, row.name, row.club or "", _number(row.points),
                     row.tables, *(_number(row.tiebreaks[c]) for c in criteria)])
    return rows


def standings_csv(standings: s.Standings, separator: str) -> bytes:
    out = io.StringIO()
    out.write(BOM)
    if separator == ";":
        out.write("sep=;\r\n")
    csv.writer(out, delimiter=separator, lineterminator="\r\n").writerows(
        standings_rows(standings))
    return out.getvalue().encode()


def standings_html(tournament: s.Tournament, standings: s.Standings) -> str:
    header, *rows = standings_rows(standings)
    numeric = {0, 1, 4, 5, *range(6, len(header))}

    def cells(values: list[str | int], tag: str) -> str:
        number = ' class="number"'
        return "".join(
            f"<{tag}{number if i in numeric else ''}>{escape(str(v))}</{tag}>"
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
