"""Matches and tournaments played for a club: starting them with the club token, seating its
members, and the club's tokens on its own matches.

Used by the match and tournament write paths (inside their transactions, through
:class:`api.db.statements.Statements`); nothing here imports those areas.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Table, bindparam, func, insert, select
from sqlmodel import SQLModel

from api.clubs import access, ledger
from api.clubs.models import ClubTournamentPlayerRow, ClubTournamentRow
from api.db.statements import Row, Statements
from api.edge import auth
from api.edge.problems import Fault, Unauthorized, Unprocessable
from api.i18n import _
from api.shared.imports import HIDDEN

TOURNAMENTS: Table = SQLModel.metadata.tables[ClubTournamentRow.__tablename__]
TOURNAMENT_PLAYERS: Table = SQLModel.metadata.tables[ClubTournamentPlayerRow.__tablename__]
TOURNAMENT_PLAYED = func.coalesce(
    select(func.max(ledger.CLUB_MATCHES.c.finished_at)).where(
        ledger.CLUB_MATCHES.c.tournament_id == TOURNAMENTS.c.tournament_id).scalar_subquery(),
    TOURNAMENTS.c.created_at)
"""When a club tournament was played, as its evening counts it: when its last table finished
(a later correction keeps that), the moment it was created while none has. A finished
tournament is on the evening it finished, however long before midnight it began."""
CLUB_TOKENS_FOR_WRITE = select(
    ledger.CLUBS.c.token_hash, ledger.CLUBS.c.view_token_hash, ledger.CLUBS.c.version,
).where(ledger.CLUBS.c.id == bindparam("club_key"),
        ledger.CLUBS.c.token_hash != HIDDEN).with_for_update()  # not while it is imported
CLUB_STAKES = select(ledger.CLUBS.c.stakes).where(ledger.CLUBS.c.id == bindparam("club_key"))
"""The club's default stakes per game (read after :func:`open_club` locked it)."""
CLUB_TOKENS_OF_MATCH = select(ledger.CLUBS.c.token_hash, ledger.CLUBS.c.view_token_hash).join(
    ledger.CLUB_MATCHES, ledger.CLUB_MATCHES.c.club_id == ledger.CLUBS.c.id).where(
    ledger.CLUB_MATCHES.c.match_id == bindparam("match_key"),
    ledger.CLUB_MATCHES.c.tournament_id.is_(None))
TIME_ZONE_OF_MATCH = select(ledger.CLUBS.c.time_zone).join(
    ledger.CLUB_MATCHES, ledger.CLUB_MATCHES.c.club_id == ledger.CLUBS.c.id).where(
    ledger.CLUB_MATCHES.c.match_id == bindparam("match_key"))
"""A club match's club's time zone (a club tournament's tables too)."""
INSERT_CLUB_MATCH = insert(ledger.CLUB_MATCHES)
INSERT_SEAT = insert(ledger.SEATS)
INSERT_CLUB_TOURNAMENT = insert(TOURNAMENTS)
INSERT_TOURNAMENT_PLAYER = insert(TOURNAMENT_PLAYERS)
CLUB_OF_TOURNAMENT = select(TOURNAMENTS.c.club_id).where(
    TOURNAMENTS.c.tournament_id == bindparam("tournament_key"))
MEMBER_OF_PLAYER = select(TOURNAMENT_PLAYERS.c.player_id, TOURNAMENT_PLAYERS.c.member_id).where(
    TOURNAMENT_PLAYERS.c.tournament_id == bindparam("tournament_key"))


async def open_club(statements: Statements, club_id: str, authorization: str | None,
                    path: str = "club") -> int:
    """Lock the club a match or tournament is started for, after checking the club token;
    answer its version. An unknown club is 422 at ``path``."""
    row = await statements.one(CLUB_TOKENS_FOR_WRITE, {"club_key": club_id})
    if row is None:
        raise Unprocessable(_("There is no such club."), errors=[Fault(
            path, "unknown_club", ledger.NO_SUCH_CLUB.with_params(club=club_id))])
    token_hash, view_token_hash, version = row
    access.require_club_token(authorization, token_hash, view_token_hash)
    return int(version)


async def link_match(statements: Statements, club_id: str, match_id: str, game_id: str,
                     members: Sequence[int], at: datetime,
                     tournament_id: str | None = None, played_at: datetime | None = None) -> None:
    """Make a new match (already stored) the club's, with ``members`` at its seats;
    ``played_at`` defaults to ``at``."""
    await statements.run(INSERT_CLUB_MATCH, {
        "match_id": match_id, "club_id": club_id, "tournament_id": tournament_id,
        "game": game_id, "finish": None, "finished_at": None, "created_at": at,
        "played_at": at if played_at is None else played_at})
    await statements.run(INSERT_SEAT, [
        {"match_id": match_id, "seat": seat, "club_id": club_id, "member_id": member,
         "game": game_id, "finish": None, "side": None, "rank": None, "won": None,
         "rounds": None, "measures": None} for seat, member in enumerate(members)])


async def link_tournament(statements: Statements, club_id: str, tournament_id: str,
                          at: datetime) -> None:
    await statements.run(INSERT_CLUB_TOURNAMENT, {"tournament_id": tournament_id,
                                                  "club_id": club_id, "created_at": at})


async def club_of_tournament(statements: Statements, tournament_id: str) -> str | None:
    row = await statements.one(CLUB_OF_TOURNAMENT, {"tournament_key": tournament_id})
    return None if row is None else str(row[0])


async def link_player(statements: Statements, club_id: str, tournament_id: str, player_id: int,
                      member: int) -> None:
    await statements.run(INSERT_TOURNAMENT_PLAYER, {
        "tournament_id": tournament_id, "player_id": player_id, "club_id": club_id,
        "member_id": member})


async def members_of_players(statements: Statements, tournament_id: str) -> dict[int, int]:
    """Each player of a club tournament and the member they are."""
    rows = await statements.all(MEMBER_OF_PLAYER, {"tournament_key": tournament_id})
    return {int(player): int(member) for player, member in rows}


def club_token_kind(tokens: Row | None, authorization: str | None) -> str | None:
    """Which of its club's tokens a request to a club's own match holds (:data:`CLUB_TOKENS_OF_
    MATCH` gives ``tokens``), if any."""
    if tokens is None or authorization is None:
        return None
    try:
        token = auth.bearer_token(authorization)
    except Unauthorized:
        return None
    token_hash, view_token_hash = tokens
    if access.holds(token, token_hash):
        return access.CLUB
    if access.holds(token, view_token_hash):
        return access.VIEW
    return None
