"""Standings as CSV (written by :mod:`api.shared.spreadsheet`, like the match score sheet) and as a
printable A4 page, both from :func:`standings_rows`.

Both name the tournament's game as :func:`said_game` says it: a score pad's title (Jass), as a
club names a pad's matches. The page says it in its heading line; the CSV, which has no line for
it above its heading row (a spreadsheet or program reads the first row as the columns), has a
last column ``Game`` with it in every row: added after ``Dropped out``, so every column a
spreadsheet already reads by position stays where it was.

The page has no scripts and no inline styles (the service's Content-Security-Policy allows only
the app's own stylesheets): it links :data:`PRINT_CSS`, served at ``PRINT_CSS_PATH``.
"""

from __future__ import annotations

from datetime import date
from html import escape
from zoneinfo import ZoneInfo

from babel.dates import format_date

from api.i18n import Phrase, Words, _
from api.shared.spreadsheet import ENGLISH, Cell, Layout, SheetWords, csv_bytes
from api.tournaments import schemas as s
from scoring import registry
from scoring.game import game_key
from scoring.messages import Vocabulary

PRINT_CSS_PATH = "/api/v1/tournaments/print.css"
PRINT_CSS = """@page { size: A4; margin: 15mm 12mm; }
body { font: 11pt/1.35 system-ui, sans-serif; color: #111; margin: 0 auto; max-width: 190mm; }
h1 { font-size: 18pt; margin: 0 0 2mm; }
p.meta { margin: 0 0 5mm; color: #444; }
table { width: 100%; border-collapse: collapse; }
th, td { padding: 1.5mm 2mm; border-bottom: 0.3mm solid #bbb; text-align: left; }
th { border-bottom: 0.6mm solid #111; font-size: 9pt; vertical-align: bottom; }
td { white-space: nowrap; }
td.name { white-space: normal; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
tr { break-inside: avoid; }
thead { display: table-header-group; }
section.sheet { break-after: page; }
section.sheet:last-child { break-after: auto; }
body.paper { max-width: none; }
table.grid { table-layout: fixed; }
table.grid col.label { width: 17mm; }
table.grid th, table.grid td { border: 0.3mm solid #777; padding: 1mm; text-align: center; }
table.grid th.key { font-size: 8pt; font-weight: normal; hyphens: auto; }
table.grid td.cell { height: 10mm; }
table.grid td.void { background: #e8e8e8; }
table.grid tfoot th, table.grid tfoot td { border-top: 0.8mm solid #111; height: 10mm; }
"""


ZONE = ZoneInfo("Europe/Zurich")
COLUMNS = ("rank", "player", "name", "club", "points", "tables")
HEADINGS = Vocabulary("a column heading of the tournament standings", {
    "rank": "rank", "player": "no.", "name": "name", "club": "club", "points": "points",
    "tables": "tables", "average_points": "average points per table",
    "score_share": "score share", "opponents": "opponents' strength", "table_wins": "table wins",
    "dropped": "dropped out", "game": "game",
})
TITLE = _("{tournament}: standings")
AFTER_ROUND = _("{game} · standings after round {round} of {rounds}")
DURING_ROUND = _("{game} · standings during round {round} of {rounds}: {confirmed} of {tables} "
                 "tables confirmed")
BEFORE_FIRST = _("{game} · standings before the first result")


def said_date(day: date, words: Words) -> str:
    """A date as the reader's language writes it in full (5. Dezember 2026, 5 December 2026)."""
    return str(format_date(day, format="long", locale=words.locale))


def game_key_of(tournament: s.Tournament) -> str:
    """The key of the game the tournament is played in, as a club counts its matches:
    ``score-pad:Jass`` for a pad, else the game's id (the JSON export's ``game_key``)."""
    game = registry.game_by_id(tournament.game)
    return tournament.game if game is None else game_key(game, tournament.options)


def said_game(tournament: s.Tournament, words: Words) -> str:
    """The tournament's game by its name in the reader's language (a score pad's title, as the
    organiser typed it)."""
    return words.term(registry.GAMES, game_key_of(tournament), "")


def standings_line(tournament: s.Tournament, standings: s.Standings, game: str) -> Phrase:
    """What the standings count: "after round N" only once every table of round N is
    confirmed; while some are open, how many count so far."""
    number = standings.through_round
    if not number:
        return BEFORE_FIRST.with_params(game=game)
    played = next(r for r in tournament.round_list if r.number == number)
    if played.status == "complete":
        return AFTER_ROUND.with_params(game=game, round=number, rounds=tournament.rounds)
    return DURING_ROUND.with_params(
        game=game, round=number, rounds=tournament.rounds, tables=len(played.tables),
        confirmed=sum(t.state == "confirmed" for t in played.tables))


def standings_words(words: Words) -> SheetWords:
    return SheetWords(words).with_columns(HEADINGS)


def standings_rows(standings: s.Standings, words: SheetWords = ENGLISH) -> list[list[Cell]]:
    """A heading row, then one row per player: numbers as numbers, no club as an empty cell;
    the last column says yes for a player who dropped out (added last, so the columns a
    spreadsheet already reads by position stay where they were)."""
    criteria = list(standings.rows[0].tiebreaks) if standings.rows else []
    rows: list[list[Cell]] = [[words.heading(key) for key in (*COLUMNS, *criteria, "dropped")]]
    for row in standings.rows:
        rows.append([row.rank, row.player, row.name, row.club, row.points, row.tables,
                     *(row.tiebreaks[c] for c in criteria), words.flag(row.dropped)])
    return rows


def standings_csv(tournament: s.Tournament, standings: s.Standings, layout: Layout,
                  words: Words) -> bytes:
    """The rows of :func:`standings_rows` and, last, the game in every row (see the module)."""
    sheet_words = standings_words(words)
    game = said_game(tournament, words)
    header, *rows = standings_rows(standings, sheet_words)
    return csv_bytes([[*header, sheet_words.heading("game")], *([*row, game] for row in rows)],
                     layout)


def standings_html(tournament: s.Tournament, standings: s.Standings, words: Words) -> str:
    """The printable page in the reader's language, numbers in the reader's locale; the date is
    the day of the last change the standings count (UTC), so a page printed again is the same."""
    header, *rows = standings_rows(standings, standings_words(words))
    numeric = {0, 1, 4, 5, *range(6, len(header) - 1)}
    no = standings_words(words).flag(False)
    # On paper only the players who dropped out are marked: a column of "no" reads as noise.
    rows = [[*row[:-1], "" if row[-1] == no else row[-1]] for row in rows]

    def shown(value: Cell) -> str:
        if value is None:
            return ""
        return words.number(value) if isinstance(value, int | float) else value

    def cells(values: list[Cell], tag: str) -> str:
        def kind(i: int) -> str:
            return ' class="number"' if i in numeric else ' class="name"' if i == 2 else ""
        return "".join(f"<{tag}{kind(i)}>{escape(shown(v))}</{tag}>" for i, v in enumerate(values))

    body = "\n".join(f"<tr>{cells(r, 'td')}</tr>" for r in rows)
    through = standings_line(tournament, standings, said_game(tournament, words))
    # The day of the last change the standings count, as the day reads in Switzerland (where
    # the app is used; a tournament keeps no time zone of its own): a page printed again is
    # the same page.
    day = said_date(tournament.updated_at.astimezone(ZONE).date(), words)
    return f"""<!DOCTYPE html>
<html lang="{words.language}">
<head>
<meta charset="utf-8">
<title>{escape(words(TITLE.with_params(tournament=tournament.name)))}</title>
<link rel="stylesheet" href="{PRINT_CSS_PATH}">
</head>
<body>
<h1>{escape(tournament.name)}</h1>
<p class="meta">{escape(day)} · {escape(words(through))}</p>
<table>
<thead><tr>{cells(header, 'th')}</tr></thead>
<tbody>
{body}
</tbody>
</table>
</body>
</html>
"""
