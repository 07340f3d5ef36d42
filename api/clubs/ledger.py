"""What a write to a club match changes in its club's statistics and ratings, in the write's own
transaction, and the replay that keeps them equal to the club's history.

Statistics and ratings are stored (``club_member_game``) and changed only here, when a match's
result changes; reading them never replays anything.

- **The club's order**: a club's finished matches are counted by evening, in the order they
  were played (``played_at``), those played at the same moment in the order they finished
  (their finish number): :data:`ORDER`. A paper sheet typed in a day later counts where it was
  played, before the matches played after it.
- A club match that **finishes** takes the club's next finish number. Its seats get their
  results; when no finished match of the game was played after it (the usual case), each
  member's statistics in the game take one more result
  (:meth:`api.clubs.statistics.Statistics.add`) and the match is rated: the ratings its
  members had, through openskill, to the ratings they have now, each change kept as a
  ``club_rating`` row with the rating before and after. A match played before finished ones
  (a late sheet) is counted as a correction is: from its place in the order on.
- A **correction** of a finished match that leaves it finished keeps its finish number (it
  finished then); an **undo** that makes it unfinished takes it out of the statistics and the
  ratings. Either way the statistics of its members are rebuilt from their results, and the
  game's ratings are replayed from that match on: every rating before it stays, every rating
  from it on is what rating the club's finished matches in the club's order give.
- Only the finishing round of a match does any of this; a round that leaves a match
  unfinished costs nothing here (not even a statement).

The club row is locked after the match (and a tournament table's rows): the order every
writer keeps, so writers never deadlock. Everything is a Core statement run through
:class:`api.db.statements.Statements`, on the event loop's SQLite connection or the engine's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    DateTime,
    Table,
    and_,
    bindparam,
    delete,
    exists,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import SQLModel

from api.clubs.models import (
    ClubMatchRow,
    ClubMemberGameRow,
    ClubRatingRow,
    ClubRow,
    ClubSeatRow,
)
from api.clubs.ratings import DEFAULT, Rating, rate
from api.clubs.statistics import SeatResult, Statistics, replayed
from api.db.statements import Statements
from api.edge.problems import NotFound
from api.i18n import _
from scoring import registry
from scoring.game import AnyGame, counted_as
from scoring.match import FoldedMatch

NO_SUCH_CLUB = _('There is no club "{club}".')
CLUBS: Table = SQLModel.metadata.tables[ClubRow.__tablename__]
CLUB_MATCHES: Table = SQLModel.metadata.tables[ClubMatchRow.__tablename__]
SEATS: Table = SQLModel.metadata.tables[ClubSeatRow.__tablename__]
MEMBER_GAMES: Table = SQLModel.metadata.tables[ClubMemberGameRow.__tablename__]
RATINGS: Table = SQLModel.metadata.tables[ClubRatingRow.__tablename__]

ORDER = (CLUB_MATCHES.c.played_at,)
"""The club's order of finished matches, before their finish number: by when they were
played. Every read and count that goes by the club's order sorts by ``(*ORDER, finish)``."""
FROM_PLAYED = bindparam("from_played", type_=DateTime(timezone=True))


def from_place(finish: ColumnElement[Any]) -> ColumnElement[bool]:
    """At or after the place ``(from_played, from_finish)`` in the club's order, for a row
    joined to its ``club_match`` whose finish number is ``finish``."""
    played = CLUB_MATCHES.c.played_at
    return or_(played > FROM_PLAYED,
               and_(played == FROM_PLAYED, finish >= bindparam("from_finish")))


CLUB_OF_MATCH = select(CLUB_MATCHES.c.club_id, CLUB_MATCHES.c.finish,
                       CLUB_MATCHES.c.played_at).where(
    CLUB_MATCHES.c.match_id == bindparam("match_key"))
PLAYED_LATER = select(CLUB_MATCHES.c.match_id).where(
    CLUB_MATCHES.c.club_id == bindparam("club_key"), CLUB_MATCHES.c.game == bindparam("game_key"),
    CLUB_MATCHES.c.finish.is_not(None), CLUB_MATCHES.c.played_at > FROM_PLAYED).limit(1)
LOCK_CLUB = select(CLUBS.c.finished, CLUBS.c.version).where(
    CLUBS.c.id == bindparam("club_key")).with_for_update()
UPDATE_CLUB = update(CLUBS).where(CLUBS.c.id == bindparam("club_key"))
UPDATE_CLUB_MATCH = update(CLUB_MATCHES).where(CLUB_MATCHES.c.match_id == bindparam("match_key"))
SEATS_OF_MATCH = select(SEATS.c.seat, SEATS.c.member_id, SEATS.c.side, SEATS.c.rank,
                        SEATS.c.won, SEATS.c.rounds, SEATS.c.measures).where(
    SEATS.c.match_id == bindparam("match_key")).order_by(SEATS.c.seat)
UPDATE_SEAT = update(SEATS).where(SEATS.c.match_id == bindparam("match_key"),
                                  SEATS.c.seat == bindparam("seat_number"))
_SEAT_MATCH = SEATS.join(CLUB_MATCHES, CLUB_MATCHES.c.match_id == SEATS.c.match_id)
RESULTS_OF_MEMBER = select(
    SEATS.c.match_id, SEATS.c.finish, SEATS.c.side, SEATS.c.rank, SEATS.c.won, SEATS.c.rounds,
    SEATS.c.measures,
).select_from(_SEAT_MATCH).where(
    SEATS.c.club_id == bindparam("club_key"), SEATS.c.member_id == bindparam("member_key"),
    SEATS.c.game == bindparam("game_key"), SEATS.c.finish.is_not(None)).order_by(
    *ORDER, SEATS.c.finish)
RESULTS_FROM = select(SEATS.c.finish, SEATS.c.match_id, SEATS.c.member_id, SEATS.c.side,
                      SEATS.c.rank).select_from(_SEAT_MATCH).where(
    SEATS.c.club_id == bindparam("club_key"), SEATS.c.game == bindparam("game_key"),
    SEATS.c.finish.is_not(None), from_place(SEATS.c.finish)).order_by(
    *ORDER, SEATS.c.finish, SEATS.c.seat)
_MEMBER_GAME = (MEMBER_GAMES.c.club_id == bindparam("club_key"),
                MEMBER_GAMES.c.member_id == bindparam("member_key"),
                MEMBER_GAMES.c.game == bindparam("game_key"))
MEMBER_GAME = select(MEMBER_GAMES.c.statistics, MEMBER_GAMES.c.mu, MEMBER_GAMES.c.sigma,
                     MEMBER_GAMES.c.rated).where(*_MEMBER_GAME)
RATINGS_OF_GAME = select(MEMBER_GAMES.c.member_id, MEMBER_GAMES.c.mu, MEMBER_GAMES.c.sigma,
                         MEMBER_GAMES.c.rated).where(
    MEMBER_GAMES.c.club_id == bindparam("club_key"), MEMBER_GAMES.c.game == bindparam("game_key"))
INSERT_MEMBER_GAME = insert(MEMBER_GAMES)
UPDATE_MEMBER_GAME = update(MEMBER_GAMES).where(*_MEMBER_GAME)
DELETE_MEMBER_GAME = delete(MEMBER_GAMES).where(*_MEMBER_GAME)
# A rating change keeps its match's finish number after an undo took it from the match.
_RATINGS_OF = (RATINGS.c.club_id == bindparam("club_key"),
               RATINGS.c.game == bindparam("game_key"))
RATING_CHANGES_FROM = select(RATINGS.c.member_id, RATINGS.c.mu_before,
                             RATINGS.c.sigma_before).join(
    CLUB_MATCHES, CLUB_MATCHES.c.match_id == RATINGS.c.match_id).where(
    *_RATINGS_OF, from_place(RATINGS.c.finish)).order_by(*ORDER, RATINGS.c.finish)
DELETE_RATING_CHANGES_FROM = delete(RATINGS).where(*_RATINGS_OF, exists().where(
    CLUB_MATCHES.c.match_id == RATINGS.c.match_id, from_place(RATINGS.c.finish)))
INSERT_RATING_CHANGE = insert(RATINGS)


def game_of(game_id: str) -> AnyGame:
    game = registry.game_by_key(game_id)
    if game is None:
        raise NotFound(_('The game "{game}" is not known to this server.', game=game_id))
    return game


def events_channel(club_id: str) -> str:
    """The broker channel of a club; match ids never contain a colon."""
    return f"club:{club_id}"


@dataclass(frozen=True, slots=True)
class ClubChange:
    """A club whose statistics a write changed, to tell its subscribers after the commit."""

    club_id: str
    version: int


async def lock_club(statements: Statements, club_id: str) -> tuple[int, int]:
    """The club's finish counter and version, its row locked for the transaction."""
    row = await statements.one(LOCK_CLUB, {"club_key": club_id})
    if row is None:
        raise NotFound(NO_SUCH_CLUB.with_params(club=club_id))
    return int(row[0]), int(row[1])


async def touch_club(statements: Statements, club_id: str, version: int, at: datetime,
                     **columns: Any) -> ClubChange:
    await statements.run(UPDATE_CLUB, {"club_key": club_id, "version": version + 1,
                                       "updated_at": at, **columns})
    return ClubChange(club_id, version + 1)


def seat_results(game: AnyGame, folded: FoldedMatch) -> dict[int, dict[str, Any]]:
    """Per seat of a finished match: its side, final rank, whether it won, the rounds played
    and the standings totals the game's measures are made of."""
    verdict = folded.verdict
    results: dict[int, dict[str, Any]] = {}
    for standing in verdict.standings:
        measures = {measure.total: standing.totals[measure.total] for measure in game.measures}
        for seat in standing.seats:
            results[seat] = {"side": standing.side, "rank": standing.rank,
                             "won": standing.side in verdict.winners,
                             "rounds": len(folded.rounds), "measures": measures}
    return results


def stored_result(match_id: str, finish: int, stored: Sequence[Any]) -> SeatResult:
    """A seat's result as stored: ``(side, rank, won, rounds, measures)``."""
    side, rank, won, rounds, measures = stored
    return SeatResult(match_id, finish, int(side), int(rank), bool(won), int(rounds),
                      dict(measures))


async def after_match_write(statements: Statements, match_id: str, game: AnyGame,
                            folded: FoldedMatch, action: str, at: datetime) -> ClubChange | None:
    """Bring the club's statistics and ratings up to date with a write to one of its matches
    (nothing for a match of no club). Runs inside the match write's transaction. A game with
    variants counts each as a game of its own (:func:`scoring.game.counted_as`)."""
    if action == "round_added" and not folded.finished:
        return None  # a round recorded to a running match: it was not finished before either
    game = counted_as(game, game.options_json(folded.setup.options))
    found = await statements.one(CLUB_OF_MATCH, {"match_key": match_id})
    if found is None:
        return None
    club_id, finish, played_at = found
    if finish is None and not folded.finished:
        return None
    counter, version = await lock_club(statements, club_id)
    if finish is None:
        await _finish(statements, club_id, (played_at, counter + 1), match_id, game, folded, at)
        return await touch_club(statements, club_id, version, at, finished=counter + 1)
    if folded.finished:
        changed = await _correct(statements, club_id, (played_at, finish), match_id, game,
                                 folded)
        if not changed:
            return None
    else:
        await _unfinish(statements, club_id, (played_at, finish), match_id, game)
    return await touch_club(statements, club_id, version, at)


Place = tuple[datetime, int]
"""A finished match's place in the club's order: when it was played, its finish number."""


def _from(club_id: str, game_id: str, place: Place) -> dict[str, Any]:
    return {"club_key": club_id, "game_key": game_id, "from_played": place[0],
            "from_finish": place[1]}


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished match of a club's history (an imported backup's), to count in its order."""

    finish: int
    match_id: str
    game: AnyGame
    played_at: datetime
    members: list[int]
    """The member at each seat."""
    results: dict[int, dict[str, Any]]
    """Per seat, as :func:`seat_results` gives them."""


def counted(club_id: str, finished: Iterable[Finished]) -> tuple[list[dict[str, Any]],
                                                                  list[dict[str, Any]]]:
    """The statistics and ratings rows (``club_member_game``, ``club_rating``) of a club whose
    finished matches are ``finished``: each counted in the order of its finish number as
    :func:`_finish` counts a match finishing now, in the club's order (by ``played_at``,
    then finish number), in memory, so that a history of thousands of
    matches is worked out without a statement and stored in a few."""
    statistics: dict[tuple[int, str], Statistics] = {}
    ratings: dict[str, dict[int, tuple[Rating, int]]] = defaultdict(dict)
    changes: list[dict[str, Any]] = []
    for match in sorted(finished, key=lambda m: (m.played_at, m.finish)):
        game_ratings = ratings[match.game.id]
        sides: dict[int, list[int]] = defaultdict(list)
        for seat, member in enumerate(match.members):
            sides[match.results[seat]["side"]].append(member)
            game_ratings.setdefault(member, (DEFAULT, 0))
        changes += _rate(match.finish, match.match_id, match.game.id, sides,
                         _side_ranks(match.results), game_ratings)
        for seat, member in enumerate(match.members):
            statistics.setdefault((member, match.game.id), Statistics()).add(
                stored_result(match.match_id, match.finish,
                              [match.results[seat][k] for k in RESULT_KEYS]),
                match.game.measures)
    member_games = []
    for (member, game_id), kept in statistics.items():
        rating, rated = ratings[game_id][member]
        member_games.append({"club_id": club_id, "member_id": member, "game": game_id,
                             "statistics": kept.as_json(), "mu": rating.mu,
                             "sigma": rating.sigma, "rated": rated})
    return member_games, [{**change, "club_id": club_id} for change in changes]


async def _seats(statements: Statements, match_id: str) -> list[Sequence[Any]]:
    return list(await statements.all(SEATS_OF_MATCH, {"match_key": match_id}))


async def _finish(statements: Statements, club_id: str, place: Place, match_id: str,
                  game: AnyGame, folded: FoldedMatch, at: datetime) -> None:
    """Count a match that has just finished: the incremental path when it is the last in the
    club's order, a rebuild from its place when finished matches were played after it."""
    finish = place[1]
    results = seat_results(game, folded)
    seats = await _seats(statements, match_id)
    await statements.run(UPDATE_CLUB_MATCH, {"match_key": match_id, "finish": finish,
                                             "finished_at": at})
    await statements.run(UPDATE_SEAT, [
        {"match_key": match_id, "seat_number": seat, "finish": finish, **results[seat]}
        for seat, *_ in seats])
    if await statements.one(PLAYED_LATER, _from(club_id, game.id, place)) is not None:
        await rebuild(statements, club_id, game, {member for _, member, *_ in seats}, place)
        return
    stored: dict[int, tuple[Statistics, Rating, int] | None] = {}
    sides: dict[int, list[int]] = defaultdict(list)
    for seat, member, *_rest in seats:
        row = await statements.one(MEMBER_GAME, _member_game(club_id, member, game.id))
        stored[member] = None if row is None else (
            Statistics.from_json(row[0]), Rating(row[1], row[2]), int(row[3]))
        sides[results[seat]["side"]].append(member)
    ratings = {member: (kept[1], kept[2]) if kept else (DEFAULT, 0)
               for member, kept in stored.items()}
    changes = _rate(finish, match_id, game.id, sides, _side_ranks(results), ratings)
    for seat, member, *_rest in seats:
        kept = stored[member]
        statistics = kept[0] if kept else Statistics()
        statistics.add(stored_result(match_id, finish, [results[seat][k] for k in RESULT_KEYS]),
                       game.measures)
        rating, rated = ratings[member]
        await _store_member_game(statements, club_id, member, game.id, statistics, rating, rated,
                                 exists=kept is not None)
    await _insert_changes(statements, club_id, changes)


RESULT_KEYS = ("side", "rank", "won", "rounds", "measures")


def _side_ranks(results: dict[int, dict[str, Any]]) -> dict[int, int]:
    return {result["side"]: result["rank"] for result in results.values()}


def _rate(finish: int, match_id: str, game_id: str, sides: dict[int, list[int]],
          ranks: dict[int, int], ratings: dict[int, tuple[Rating, int]]) -> list[dict[str, Any]]:
    """Rate one match: update ``ratings`` (member → rating, matches rated) in place and return
    the rating changes to store. A match with fewer than two sides rates nobody."""
    if len(sides) < 2:
        return []
    order = sorted(sides)
    before = [[ratings.get(member, (DEFAULT, 0))[0] for member in sides[side]] for side in order]
    after = rate(before, [ranks[side] for side in order])
    changes = []
    for side, old_side, new_side in zip(order, before, after, strict=True):
        for member, old, new in zip(sides[side], old_side, new_side, strict=True):
            ratings[member] = (new, ratings.get(member, (DEFAULT, 0))[1] + 1)
            changes.append({"club_id": "", "finish": finish, "member_id": member,
                            "game": game_id, "match_id": match_id, "mu_before": old.mu,
                            "sigma_before": old.sigma, "mu": new.mu, "sigma": new.sigma})
    return changes


async def _insert_changes(statements: Statements, club_id: str,
                          changes: list[dict[str, Any]]) -> None:
    if changes:
        await statements.run(INSERT_RATING_CHANGE,
                             [{**change, "club_id": club_id} for change in changes])


def _member_game(club_id: str, member: int, game_id: str) -> dict[str, Any]:
    return {"club_key": club_id, "member_key": member, "game_key": game_id}


async def _store_member_game(statements: Statements, club_id: str, member: int, game_id: str,
                             statistics: Statistics, rating: Rating, rated: int, *,
                             exists: bool) -> None:
    columns = {"statistics": statistics.as_json(), "mu": rating.mu, "sigma": rating.sigma,
               "rated": rated}
    if exists:
        await statements.run(UPDATE_MEMBER_GAME, {**_member_game(club_id, member, game_id),
                                                  **columns})
    else:
        await statements.run(INSERT_MEMBER_GAME, {"club_id": club_id, "member_id": member,
                                                  "game": game_id, **columns})


async def _correct(statements: Statements, club_id: str, place: Place, match_id: str,
                   game: AnyGame, folded: FoldedMatch) -> bool:
    """A finished match corrected and still finished; False when its results did not change."""
    results = seat_results(game, folded)
    seats = await _seats(statements, match_id)
    if all([results[seat][k] for k in RESULT_KEYS] == list(stored) for seat, _, *stored in seats):
        return False
    ranks_changed = any([results[seat]["side"], results[seat]["rank"]] != [side, rank]
                        for seat, _, side, rank, *_ in seats)
    await statements.run(UPDATE_SEAT, [
        {"match_key": match_id, "seat_number": seat, **results[seat]} for seat, *_ in seats])
    await rebuild(statements, club_id, game, {member for _, member, *_ in seats},
                  place if ranks_changed else None)
    return True


async def _unfinish(statements: Statements, club_id: str, place: Place, match_id: str,
                    game: AnyGame) -> None:
    """A finished match no longer finished (its last round undone or corrected away)."""
    seats = await _seats(statements, match_id)
    await statements.run(UPDATE_CLUB_MATCH, {"match_key": match_id, "finish": None,
                                             "finished_at": None})
    await statements.run(UPDATE_SEAT, [
        {"match_key": match_id, "seat_number": seat, "finish": None,
         **dict.fromkeys(RESULT_KEYS)} for seat, *_ in seats])
    await rebuild(statements, club_id, game, {member for _, member, *_ in seats}, place)


async def rebuild(statements: Statements, club_id: str, game: AnyGame, members: Iterable[int],
                  ratings_from: Place | None) -> None:
    """Rebuild the statistics of ``members`` in ``game`` from their results and, unless
    ``ratings_from`` is None, replay the game's ratings from that place in the club's order
    on."""
    statistics: dict[int, Statistics] = {}
    for member in members:
        rows = await statements.all(RESULTS_OF_MEMBER, _member_game(club_id, member, game.id))
        statistics[member] = replayed(
            [stored_result(match_id, finish, stored) for match_id, finish, *stored in rows], game)
    ratings = {} if ratings_from is None else await replay_ratings(
        statements, club_id, game.id, ratings_from)
    for member in statistics.keys() | ratings.keys():
        row = await statements.one(MEMBER_GAME, _member_game(club_id, member, game.id))
        kept = statistics.get(member) or (Statistics.from_json(row[0]) if row else None)
        rating, rated = ratings.get(member) or ((Rating(row[1], row[2]), int(row[3]))
                                                if row else (DEFAULT, 0))
        if kept is None or kept.played == 0:
            if row is not None:
                await statements.run(DELETE_MEMBER_GAME, _member_game(club_id, member, game.id))
            continue
        await _store_member_game(statements, club_id, member, game.id, kept, rating, rated,
                                 exists=row is not None)


async def replay_ratings(statements: Statements, club_id: str, game_id: str,
                         place: Place) -> dict[int, tuple[Rating, int]]:
    """Rate the game's finished matches again from ``place`` in the club's order on, starting
    from the ratings everyone had before it; store the new rating changes in place of the old
    ones and answer the rating and rated-match count of every member whose rating that
    touched."""
    where = _from(club_id, game_id, place)
    current = {member: (Rating(mu, sigma), int(rated)) for member, mu, sigma, rated
               in await statements.all(RATINGS_OF_GAME, where)}
    ratings: dict[int, tuple[Rating, int]] = {}
    undone: dict[int, int] = defaultdict(int)
    firsts: dict[int, Rating] = {}
    for member, mu_before, sigma_before in await statements.all(RATING_CHANGES_FROM, where):
        firsts.setdefault(member, Rating(mu_before, sigma_before))
        undone[member] += 1
    for member, first in firsts.items():
        ratings[member] = (first, current.get(member, (DEFAULT, undone[member]))[1]
                           - undone[member])
    for member, kept in current.items():
        ratings.setdefault(member, kept)
    touched = set(firsts)
    matches: dict[int, tuple[str, dict[int, list[int]], dict[int, int]]] = {}
    for finish, match_id, member, side, rank in await statements.all(RESULTS_FROM, where):
        _, sides, ranks = matches.setdefault(finish, (match_id, defaultdict(list), {}))
        sides[side].append(member)
        ranks[side] = rank
    await statements.run(DELETE_RATING_CHANGES_FROM, where)
    changes: list[dict[str, Any]] = []
    for finish, (match_id, sides, ranks) in matches.items():  # in the club's order
        rated = _rate(finish, match_id, game_id, sides, ranks, ratings)
        touched |= {change["member_id"] for change in rated}
        changes += rated
    await _insert_changes(statements, club_id, changes)
    return {member: ratings.get(member, (DEFAULT, 0)) for member in touched}
