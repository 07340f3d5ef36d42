"""The pads a club keeps: the score-pad games it has played, offered first in "new match".

Derived from the club's matches, never stored apart: every game with variants
(:class:`scoring.game.Variants`, the score pad's ``title``) played in the club is one pad, with
the options of its most recently played match (a finish by hand left out: a new match starts
open), how many matches of it the club has, and when the last was played. Most recent first,
so the club's usual evening is the first offer.

Each pad also says who sat where at its last match (``last_players``, in seat order), so that
"new match" seats them again with the same tap: each seat's member by the name they have now
(a spelling merged into another member since: that member; members who sat together are
never merged). A seat whose member has since been removed or forgotten is ``null``, left empty
for the table to fill: the seat is not given to anyone else, nor are the others moved up, so
every other member keeps their seat (and team).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import SQLModel

from api.clubs import ledger
from api.clubs import schemas as s
from api.clubs.service import Member, member_in, members_of, readable
from api.db.models import MatchRow
from api.matches.service import utc
from scoring import registry
from scoring.errors import InvalidOptions
from scoring.game import FinishedByHand, Variants, counted_as
from scoring.reading import JSON

MATCHES: Table = SQLModel.metadata.tables[MatchRow.__tablename__]
MAX_PADS = 50


def _kept_options(game_id: str, options: JSON, players: int) -> dict[str, JSON] | None:
    """The options a new match of the pad starts with: as played, open again."""
    game = registry.game_by_id(game_id)
    if game is None or not isinstance(options, dict):
        return None
    try:
        read = game.read_options(options, players)
    except InvalidOptions:
        return None
    if isinstance(game, FinishedByHand):
        read = game.reopened(read)
    return game.options_json(read)


def _seated(members: dict[int, Member], seats: list[int | None]) -> list[s.ClubPadPlayer | None]:
    """The members at ``seats`` (member ids in seat order) as they are listed now (see the
    module)."""
    seated: list[s.ClubPadPlayer | None] = []
    for member_id in seats:
        member = None if member_id is None else member_in(members, member_id, listed=False)
        seated.append(None if member is None or member.name is None
                      else s.ClubPadPlayer(member.id, member.name))
    return seated


async def read_pads(session: AsyncSession, club_id: str,
                    authorization: str | None) -> list[s.ClubPad]:
    club = await readable(session, club_id, authorization)
    variants = [game_id for game_id, game in registry.all_games().items()
                if isinstance(game, Variants)]
    club_matches = ledger.CLUB_MATCHES
    rows = await session.execute(
        select(MATCHES.c.id, MATCHES.c.game, MATCHES.c.options, MATCHES.c.players,
               MATCHES.c.played_at)
        .join(club_matches, club_matches.c.match_id == MATCHES.c.id)
        .where(club_matches.c.club_id == club.id, MATCHES.c.game.in_(variants))
        .order_by(MATCHES.c.played_at.desc(), MATCHES.c.id))
    found: dict[str, dict[str, Any]] = {}
    for match_id, game_id, options, players, played_at in rows:
        game = registry.game_by_id(game_id)
        if game is None:
            continue
        key = counted_as(game, options).id
        if key in found:
            found[key]["matches"] += 1
            continue
        kept = _kept_options(game_id, options, len(players))
        if kept is None or len(found) >= MAX_PADS:
            continue
        found[key] = {"key": key, "game": game_id, "title": counted_as(game, options).name,
                      "options": kept, "players": len(players), "matches": 1,
                      "last_played_at": utc(played_at), "last_match": match_id}
    seats: dict[str, list[int | None]] = {
        pad["last_match"]: [None] * pad["players"] for pad in found.values()}
    for match_id, seat, member_id in await session.execute(
            select(ledger.SEATS.c.match_id, ledger.SEATS.c.seat, ledger.SEATS.c.member_id)
            .where(ledger.SEATS.c.match_id.in_(list(seats)))):
        if seat < len(seats[match_id]):
            seats[match_id][seat] = member_id
    members = await members_of(session, club.id) if seats else {}
    return [s.ClubPad(**{key: value for key, value in pad.items() if key != "last_match"},
                      last_players=_seated(members, seats[pad["last_match"]]))
            for pad in found.values()]
