"""A club's results and statistics as CSV (the one writer, :mod:`api.shared.spreadsheet`) and JSON.

- **Results**: one row per member and finished club match (tournament tables included), in the
  club's order (by when the match was played, then the order the matches finished: the order
  their ratings were reckoned in): its finish number, when it finished, when
  it was played, its evening (the local date in the club's time zone) and place, which match and
  game, the member, their rank, whether they
  won, the rounds played, the standings totals the game's measures are made of (a column per
  total of every game, empty for another game's), and the rating after the match (empty where
  the match rated nobody, Sea Change solo).
- **Statistics**: one row per listed member and game, as ``GET .../statistics`` answers them:
  the counts, the streaks, each measure's average and best (columns for every game's measures),
  and the rating.

Headings are words in the reader's language (:class:`api.shared.spreadsheet.SheetWords`); games by
their name; yes/no as words. A removed member is the neutral label. The JSON form is for programs:
stable keys, numbers unrounded, ``null`` where a value is absent.
"""

from __future__ import annotations

from datetime import date, datetime

import msgspec

from api.clubs import schemas as s
from api.i18n import Words
from api.shared.spreadsheet import Cell, Layout, SheetWords, csv_bytes
from scoring import registry
from scoring.messages import Vocabulary

RESULT_COLUMNS = ("finish", "finished_at", "played_at", "evening", "location", "match", "game",
                  "player", "name", "rank", "won", "rounds")
RATING_COLUMNS = ("mu", "sigma", "ordinal")
STATISTICS_COLUMNS = ("player", "name", "game", "played", "won", "win_rate", "rounds", "streak",
                      "longest_streak")
HEADINGS = Vocabulary("a column heading of a club's export", {
    "finish": "no.", "finished_at": "finished", "played_at": "played on", "evening": "evening",
    "location": "place", "match": "match", "game": "game",
    "player": "member no.", "name": "name", "rank": "rank", "won": "won", "rounds": "rounds",
    "mu": "mu", "sigma": "sigma", "ordinal": "rating (mu − 3 sigma)", "played": "played",
    "win_rate": "win rate", "streak": "streak", "longest_streak": "longest winning streak",
    "rated": "rated matches",
    "vp": "VP", "points": "card points", "penalty": "penalty points", "exact": "exact predictions",
    "wins": "games won",
    "vp_per_round": "VP per round", "best_vp_per_round": "best VP per round",
    "points_per_round": "card points per round",
    "best_points_per_round": "best card points per round",
    "penalty_per_round": "penalty per round", "best_penalty_per_round": "best penalty per round",
    "exact_per_match": "exact predictions per match",
    "best_exact_per_match": "most exact predictions in a match",
    "penalty_per_game": "penalty per game", "best_penalty_per_game": "best penalty per game",
    "games_won_per_match": "games won per match",
    "best_games_won_per_match": "most games won in a match",
})
SEASON_HEADINGS = Vocabulary("a column heading of a season's table", {
    "rank": "rank", "player": "member no.", "name": "name", "points": "points",
    "evenings": "evenings", "best_evening": "best evening", "counted": "evenings counted",
    "dropped": "evenings dropped",
})
SEASON_COLUMNS = ("rank", "player", "name", "points", "evenings", "best_evening", "counted",
                  "dropped")


class ClubResult(msgspec.Struct):
    """One member's result in one finished match, and their rating after it."""

    finish: int
    finished_at: datetime
    played_at: datetime
    evening: date
    """The date of ``played_at`` in the club's time zone."""
    location: str | None
    match: str
    game: str
    player: int
    name: str
    rank: int
    won: bool
    rounds: int
    totals: dict[str, float]
    rating: s.ClubRating | None


class ClubExport(msgspec.Struct):
    """The JSON export: the club, every result, the statistics and the seasons (their
    standings are read on their own: they are counted when read), the Kasse as it stands and
    every payment into it, newest first (a period's settlement is read on its own)."""

    club: s.Club
    results: list[ClubResult]
    statistics: list[s.StatisticsRow]
    exported_at: datetime
    seasons: list[s.Season] = []
    kasse: s.ClubKasse | None = None
    payments: list[s.ClubPayment] = []


def club_words(words: Words) -> SheetWords:
    return SheetWords(words).with_columns(HEADINGS)


def _game_name(game_key: str, words: SheetWords) -> str:
    """A game (a pad's ``score-pad:Jass``: its title) by its name in the export's language."""
    return words.wording.term(registry.GAMES, game_key, "")


def _totals() -> list[str]:
    """Every standings total some game's measures use, in the registry's order."""
    found: list[str] = []
    for game in registry.all_games().values():
        found += [m.total for m in game.measures if m.total not in found]
    return found


def _measures() -> list[str]:
    found: list[str] = []
    for game in registry.all_games().values():
        found += [m.id for m in game.measures if m.id not in found]
    return found


def results_rows(results: list[ClubResult], words: SheetWords) -> list[list[Cell]]:
    totals = _totals()
    rows: list[list[Cell]] = [[words.heading(key)
                               for key in (*RESULT_COLUMNS, *totals, *RATING_COLUMNS)]]
    for result in results:
        rating = result.rating
        rows.append([
            result.finish, result.finished_at.isoformat(), result.played_at.isoformat(),
            result.evening.isoformat(), result.location, result.match,
            _game_name(result.game, words), result.player, result.name, result.rank,
            words.flag(result.won), result.rounds, *(result.totals.get(t) for t in totals),
            *((rating.mu, rating.sigma, rating.ordinal) if rating else (None, None, None))])
    return rows


def statistics_rows(statistics: list[s.StatisticsRow], words: SheetWords) -> list[list[Cell]]:
    measures = _measures()
    keys = [key for measure in measures for key in (measure, f"best_{measure}")]
    rows: list[list[Cell]] = [[words.heading(key) for key in (
        *STATISTICS_COLUMNS, *keys, *RATING_COLUMNS, "rated")]]
    for row in statistics:
        by_id = {m.id: m for m in row.measures}
        values: list[Cell] = []
        for measure in measures:
            found = by_id.get(measure)
            values += [found.average, found.best] if found else [None, None]
        rating = row.rating
        rows.append([
            row.player, row.name, _game_name(row.game, words), row.played, row.won, row.win_rate,
            row.rounds, row.streak, row.longest_streak, *values,
            *((rating.mu, rating.sigma, rating.ordinal) if rating else (None, None, None)),
            row.rated])
    return rows


def results_csv(results: list[ClubResult], layout: Layout, words: SheetWords) -> bytes:
    return csv_bytes(results_rows(results, words), layout)


def statistics_csv(statistics: list[s.StatisticsRow], layout: Layout,
                   words: SheetWords) -> bytes:
    return csv_bytes(statistics_rows(statistics, words), layout)


def season_rows(table: list[s.SeasonStanding], words: Words) -> list[list[Cell]]:
    """The season's table: a row per member in rank order; points as the API gives them (two
    decimals, numbers in the spreadsheet), the evenings counted and dropped as dates."""
    sheet = SheetWords(words).with_columns(SEASON_HEADINGS)
    rows: list[list[Cell]] = [[sheet.heading(column) for column in SEASON_COLUMNS]]
    for row in table:
        rows.append([row.rank, row.player, row.name, float(row.points), row.evenings,
                     float(row.best_evening),
                     " ".join(night.date.isoformat() for night in row.line if night.counted),
                     " ".join(night.date.isoformat() for night in row.line if not night.counted)])
    return rows


def season_csv(table: list[s.SeasonStanding], layout: Layout, words: Words) -> bytes:
    return csv_bytes(season_rows(table, words), layout)
