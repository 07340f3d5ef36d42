"""Paper for when the phones fail: printable A4 pages of a round, in the reader's language.

- **Score sheets** (``sheet=scores``): one page per table of the round, with the tournament, the
  round, the table, the date and the game; a column group per side (the names in seat order;
  a Sea Change team is one side) with the columns the game writes each round or game
  (:meth:`scoring.game.Game.paper`: Die sieben Siegel seals taken, seals left, black seals and
  penalty; Sea Change points and VP; Tschau Sepp penalty points, or who went out when played for
  wins), a row per round or game of the longest match the options allow, empty, and a totals row.
- **Who sits where** (``sheet=seats``): every player of the round alphabetically (as the
  reader's language sorts), with table and seat, for the wall.

The standings page is the HTML export (:mod:`api.tournaments.export`), which says the round and
the date too.

Decisions: the pages are made by the API, not drawn by the app, so a page prints the same from
any browser (``@page { size: A4 }``, a table per page by ``break-after: page``) and a laptop
without the app prints it from a link; like the export they carry no script and no inline style
(the Content-Security-Policy), the stylesheet is :data:`api.tournaments.export.PRINT_CSS`. The
date printed is the day the round started (UTC), so a page printed again later is the same page
and the answer can be kept per tournament version like every other read. Names are sorted with
the locale's collation key where Python has one, else case-insensitively, which puts "Élodie"
among the E's in every language.
"""

from __future__ import annotations

import unicodedata
from datetime import date
from html import escape

from api.i18n import Words, _
from api.tournaments import schemas as s
from api.tournaments.export import PRINT_CSS_PATH, said_date, said_game
from scoring import registry
from scoring.game import PaperSheet
from scoring.messages import Vocabulary

SHEETS_TITLE = _("{tournament}: score sheets of round {round}")
SEATS_TITLE = _("{tournament}: who sits where in round {round}")
SHEET_HEADING = _("Round {round} · table {table}")
SEATS_HEADING = _("Who sits where · round {round}")
SHEET_META = _("{game} · {date}")
TOTAL = _("Total")
MORE_ROWS = _("If the match goes on, go on on a second sheet.")
SEAT_COLUMNS = Vocabulary("a column heading of the who-sits-where list", {
    "name": "name", "table": "table", "seat": "seat",
})


def _page(title: str, body: str, words: Words) -> str:
    return f"""<!DOCTYPE html>
<html lang="{words.language}">
<head>
<meta charset="utf-8">
<title>{escape(title)}</title>
<link rel="stylesheet" href="{PRINT_CSS_PATH}">
</head>
<body class="paper">
{body}
</body>
</html>
"""


def _names(tournament: s.Tournament) -> dict[int, str]:
    return {p.id: p.name for p in tournament.players}


def score_sheets_html(tournament: s.Tournament, played: s.TournamentRound, started: date,
                      words: Words) -> str:
    """One page per table of the round: the game's blank score sheet."""
    game = registry.game_by_id(tournament.game)
    names = _names(tournament)
    meta = escape(words(SHEET_META.with_params(game=said_game(tournament, words),
                                               date=said_date(started, words))))
    pages = []
    for table in played.tables:
        heading = escape(words(SHEET_HEADING.with_params(round=played.number, table=table.table)))
        seated = [names.get(p, f"#{p}") for p in table.players]
        grid = "" if game is None else _grid(
            game.paper(game.read_options(tournament.options, len(seated)), len(seated)),
            game.sheet.headings, seated, words)
        pages.append(f"""<section class="sheet" data-table="{table.table}">
<h1>{escape(tournament.name)}</h1>
<p class="meta"><strong>{heading}</strong> · {meta}</p>
{grid}
</section>""")
    title = words(SHEETS_TITLE.with_params(tournament=tournament.name, round=played.number))
    return _page(title, "\n".join(pages), words)


def _grid(sheet: PaperSheet, headings: Vocabulary, seated: list[str], words: Words) -> str:
    columns = len(sheet.columns)
    sides = "".join(
        f'<th colspan="{columns}" class="side">{escape(" & ".join(seated[i] for i in side))}</th>'
        for side in sheet.sides)
    keys = "".join(f'<th class="key">{escape(words.term(headings, key, ""))}</th>'
                   for _side in sheet.sides for key in sheet.columns)
    empty = "".join('<td class="cell"></td>' for _side in sheet.sides for _key in sheet.columns)
    rows = "\n".join(f'<tr><th class="number">{words.number(n)}</th>{empty}</tr>'
                     for n in range(1, sheet.rows + 1))
    totals = "".join(
        '<td class="cell total"></td>' if key in sheet.totalled else '<td class="cell void"></td>'
        for _side in sheet.sides for key in sheet.columns)
    more = f'\n<p class="meta">{escape(words(MORE_ROWS))}</p>' if sheet.more else ""
    row_heading = escape(words.term(headings, sheet.row, ""))
    return f"""<table class="grid">
<colgroup><col class="label"><col span="{len(sheet.sides) * columns}"></colgroup>
<thead>
<tr><th rowspan="2" class="number">{row_heading}</th>{sides}</tr>
<tr>{keys}</tr>
</thead>
<tbody>
{rows}
</tbody>
<tfoot><tr><th>{escape(words(TOTAL))}</th>{totals}</tr></tfoot>
</table>{more}"""


def sort_key(name: str) -> tuple[str, str]:
    """Letters without their accents first, case-insensitively; the name itself breaks ties."""
    folded = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in folded if not unicodedata.combining(c)), name


def seats_html(tournament: s.Tournament, played: s.TournamentRound, started: date,
               words: Words) -> str:
    """Every player of the round alphabetically, with table and seat (1 is the lead)."""
    names = _names(tournament)
    seated = sorted(((names.get(p, f"#{p}"), table.table, seat)
                     for table in played.tables for seat, p in enumerate(table.players, 1)),
                    key=lambda row: (sort_key(row[0]), row[1], row[2]))
    number = ' class="number"'
    head = "".join(f'<th{"" if key == "name" else number}>'
                   f'{escape(words.term(SEAT_COLUMNS, key, ""))}</th>'
                   for key in SEAT_COLUMNS.names)
    body = "\n".join(
        f'<tr><td>{escape(name)}</td><td class="number">{words.number(table)}</td>'
        f'<td class="number">{words.number(seat)}</td></tr>' for name, table, seat in seated)
    meta = words(SHEET_META.with_params(game=said_game(tournament, words),
                                        date=said_date(started, words)))
    heading = words(SEATS_HEADING.with_params(round=played.number))
    page = f"""<h1>{escape(tournament.name)}</h1>
<p class="meta"><strong>{escape(heading)}</strong> · {escape(meta)}</p>
<table class="seats">
<thead><tr>{head}</tr></thead>
<tbody>
{body}
</tbody>
</table>"""
    title = words(SEATS_TITLE.with_params(tournament=tournament.name, round=played.number))
    return _page(title, page, words)
