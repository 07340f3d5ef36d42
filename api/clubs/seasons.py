"""A club's seasons: stored as a name, a period, a game or all, and a best N; their standings
counted from the club's finished matches and tournaments whenever they are read, by
:func:`scoring.seasons.season_standings`.

- A finished club match (not a tournament's table) belongs to the evening of its
  ``played_at`` in the club's time zone (:func:`api.clubs.evenings.evening`): a sheet typed in
  later with an earlier ``played_at`` lands on its evening, and a correction counts as soon as
  it is stored. Sides and ranks are the ones stored at its seats (``club_seat``).
- A finished club tournament gives each member who played a table their tournament points
  (every table counted); its tables' matches count through it only. Its evening is when its
  last table's match finished (``club_match.finished_at``: a correction later keeps it;
  :data:`api.clubs.links.TOURNAMENT_PLAYED`, as in the club's history), when it was created
  when it has no finished table.
- ``from`` and ``to`` are evenings, both counted; ``game`` keeps the matches and tournaments of
  that game only.

Decisions where the contract is silent: ``name`` 1 to 80 characters, checked as every name;
``from`` after ``to`` is 422 at ``to``; ``best`` 1 to 1000; an unknown game 422 at ``game``.
Seasons are numbered 1, 2, 3 ... per club and listed in that order; creating one is a change
of the club (its version, its events). The list of seasons and their standings are kept per
club version (:mod:`api.clubs.reads`): every write they count makes a new version (a club
match finished, corrected or undone, a late sheet, a member renamed, merged or forgotten, the
time zone, and a club tournament's last confirmation, which finishes it:
:meth:`api.clubs.owner.ClubTournament.finished`), so they follow every write at once. A
member merged into another counts as that member; a removed member stays in the table under
the neutral label. A match whose seats hold a single side (nobody to beat) gives no points and
no evening.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import Table, func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import SQLModel

from api.clubs import ledger
from api.clubs import schemas as s
from api.clubs.evenings import evening
from api.clubs.links import TOURNAMENT_PLAYED, TOURNAMENT_PLAYERS, TOURNAMENTS
from api.clubs.models import SEASON_NAME_LENGTH, ClubSeasonRow
from api.clubs.service import (
    ClubRecord,
    members_of,
    publish,
    readable,
    writable,
)
from api.db.statements import EngineStatements
from api.edge.problems import Fault, NotFound, Unprocessable, name_field, unknown_game
from api.i18n import Words, _
from api.matches.service import now, utc
from api.shared.live import Broker
from api.tournaments.models import TournamentRow
from api.tournaments.results import scoring_of, standings
from api.tournaments.service import stored_tables
from scoring import registry
from scoring.messages import Message
from scoring.seasons import MatchResult, Result, Side, TournamentResult, season_standings, shown

SEASONS: Table = SQLModel.metadata.tables[ClubSeasonRow.__tablename__]
TOURNAMENT_ROWS: Table = SQLModel.metadata.tables[TournamentRow.__tablename__]
SEASON_NAME_NEEDED = Message("blank_name", "A season needs a name.")
NO_SUCH_SEASON = _("This club has no season {season}.")


def season_view(row: Any) -> s.Season:
    return s.Season(id=int(row.id), name=row.name, from_=row.from_date, to=row.to_date,
                    game=row.game, best=row.best)


def season_fields(body: s.NewSeason, path: str, problems: list[Fault]) -> str | None:
    """The season's name, once checked; what cannot be used is added to ``problems`` under
    ``path`` (``""`` for a request's own body, ``seasons[2].`` in a backup)."""
    name = name_field(body.name, f"{path}name", problems, maximum=SEASON_NAME_LENGTH,
                      blank=SEASON_NAME_NEEDED)
    if body.game is not None and registry.game_by_key(body.game) is None:
        problems.append(unknown_game(f"{path}game", body.game))
    if body.from_ > body.to:
        problems.append(Fault(f"{path}to", "before_from", _(
            "The last evening ({to}) is before the first ({first}).",
            to=body.to.isoformat(), first=body.from_.isoformat())))
    return name


def season_row(club_id: str, season_id: int, name: str, body: s.NewSeason,
               at: datetime) -> dict[str, Any]:
    return {"club_id": club_id, "id": season_id, "name": name, "from_date": body.from_,
            "to_date": body.to, "game": body.game, "best": body.best, "created_at": at}


async def create_season(session: AsyncSession, broker: Broker, club_id: str,
                        authorization: str | None, body: s.NewSeason) -> s.Season:
    """A new season, numbered after the club's last (422 at the fields that cannot be used)."""
    problems: list[Fault] = []
    name = season_fields(body, "", problems)
    if problems:
        raise Unprocessable(_("This season cannot be made."), errors=problems)
    assert name is not None  # a name that cannot be used is a problem
    club, version = await writable(session, club_id, authorization)
    last = (await session.execute(select(func.max(SEASONS.c.id)).where(
        SEASONS.c.club_id == club.id))).scalar_one()
    season_id = int(last or 0) + 1
    at = now()
    await session.execute(insert(SEASONS), season_row(club.id, season_id, name, body, at))
    change = await ledger.touch_club(EngineStatements(session), club.id, version, at)
    await session.commit()
    await publish(broker, change, "season_created")
    return s.Season(id=season_id, name=name, from_=body.from_, to=body.to, game=body.game,
                    best=body.best)


async def read_seasons(session: AsyncSession, club_id: str,
                       authorization: str | None) -> list[s.Season]:
    club = await readable(session, club_id, authorization)
    rows = await session.execute(select(SEASONS).where(SEASONS.c.club_id == club.id)
                                 .order_by(SEASONS.c.id))
    return [season_view(row) for row in rows]


async def read_standings(session: AsyncSession, club_id: str, season_id: int,
                         authorization: str | None, words: Words) -> list[s.SeasonStanding]:
    """The season's table, counted now from the club's finished matches and tournaments."""
    club = await readable(session, club_id, authorization)
    season = (await session.execute(select(SEASONS).where(
        SEASONS.c.club_id == club.id, SEASONS.c.id == season_id))).one_or_none()
    if season is None:
        raise NotFound(NO_SUCH_SEASON.with_params(season=season_id))
    results: list[Result] = [*await _match_results(session, club, season),
                             *await _tournament_results(session, club, season)]
    members = await members_of(session, club.id)

    def named(member: int) -> str:
        return members[member].named(words)

    return [s.SeasonStanding(
        player=row.player, name=named(row.player), rank=row.rank, points=shown(row.points),
        evenings=row.evenings, counted=list(row.counted), best_evening=shown(row.best_evening),
        line=[s.SeasonEvening(date=night.date, points=shown(night.points), counted=night.counted)
              for night in row.line])
        for row in season_standings(_as_members(results, members), season.best)]


def _as_members(results: list[Result], members: dict[int, Any]) -> list[Result]:
    """The results with every merged member's id replaced by the member they became."""

    def person(member: int) -> int:
        merged = members[member].merged_into
        return member if merged is None else int(merged)

    return [MatchResult(r.evening, tuple(Side(side.rank, tuple(person(m) for m in side.members))
                                         for side in r.sides))
            if isinstance(r, MatchResult) else
            TournamentResult(r.evening, {person(m): points for m, points in r.points.items()})
            for r in results]


def _moments(season: Any) -> tuple[datetime, datetime]:
    """A day more on each side of the season's evenings in UTC (no zone is a day away from
    UTC), within the dates there are: the evenings themselves are picked by :func:`_within`."""
    first = max(season.from_date, date.min + timedelta(days=1)) - timedelta(days=1)
    last = min(season.to_date, date.max - timedelta(days=2)) + timedelta(days=2)
    return datetime.combine(first, time(), UTC), datetime.combine(last, time(), UTC)


def _within(day: date, season: Any) -> bool:
    return bool(season.from_date <= day <= season.to_date)


async def _match_results(session: AsyncSession, club: ClubRecord,
                         season: Any) -> list[MatchResult]:
    matches, seats = ledger.CLUB_MATCHES, ledger.SEATS
    start, end = _moments(season)
    query = select(matches.c.match_id, matches.c.played_at, seats.c.member_id, seats.c.side,
                   seats.c.rank).join(seats, seats.c.match_id == matches.c.match_id).where(
        matches.c.club_id == club.id, matches.c.tournament_id.is_(None),
        matches.c.finish.is_not(None), matches.c.played_at >= start,
        matches.c.played_at < end)
    if season.game is not None:
        query = query.where(matches.c.game == season.game)
    found: dict[str, tuple[date, dict[int, tuple[int, list[int]]]]] = {}
    for match_id, played_at, member, side, rank in await session.execute(
            query.order_by(matches.c.match_id, seats.c.seat)):
        day = evening(utc(played_at), club.time_zone)
        _day, sides = found.setdefault(match_id, (day, {}))
        sides.setdefault(int(side), (int(rank), []))[1].append(int(member))
    return [MatchResult(day, tuple(Side(rank, tuple(members))
                                   for _side, (rank, members) in sorted(sides.items())))
            for day, sides in found.values() if _within(day, season) and len(sides) > 1]


async def _tournament_results(session: AsyncSession, club: ClubRecord,
                              season: Any) -> list[TournamentResult]:
    t = TOURNAMENT_ROWS
    query = select(t.c.id, t.c.points, t.c.tiebreaks, TOURNAMENT_PLAYED).join(
        TOURNAMENTS, TOURNAMENTS.c.tournament_id == t.c.id).where(
        TOURNAMENTS.c.club_id == club.id, t.c.status == "finished")
    if season.game is not None:
        query = query.where(t.c.game == season.game)
    results = []
    for tournament_id, points, tiebreaks, played_at in await session.execute(
            query.order_by(t.c.id)):
        day = evening(utc(played_at), club.time_zone)
        if not _within(day, season):
            continue
        players = {int(player): int(member) for player, member in await session.execute(
            select(TOURNAMENT_PLAYERS.c.player_id, TOURNAMENT_PLAYERS.c.member_id).where(
                TOURNAMENT_PLAYERS.c.tournament_id == tournament_id))}
        _through, rows = standings(await stored_tables(session, tournament_id), sorted(players),
                                   scoring_of(points, tiebreaks), None)
        results.append(TournamentResult.from_floats(
            day, {players[int(row.player)]: row.points for row in rows if row.tables_played}))
    return results
