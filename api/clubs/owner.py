"""A club as what its matches and tournaments belong to: the club's side of the interfaces the
lower areas define (:mod:`api.matches.owners`, :mod:`api.tournaments.hosts`), registered by the
app factory.

Its matches may be written and read with the club token too (read with its view token), and a
write that finishes a club's match, or changes one already finished, changes the club's
statistics, ledger and ratings in the same transaction (:func:`api.clubs.ledger.
after_match_write`); its subscribers hear of it after the commit. A write to a running match
changes nothing of the club's, so it may still take the one-statement way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, exists

from api.clubs import ledger, links
from api.clubs.access import CLUB
from api.clubs.members import members_for
from api.db.statements import Statements
from api.edge.problems import Fault, Unprocessable
from api.i18n import _
from api.matches.owners import Announcement, ReadOne, TokenWriter
from api.shared.live import Broker, Change
from scoring.game import AnyGame
from scoring.match import FoldedMatch
from scoring.reading import JSON


@dataclass(frozen=True, slots=True)
class ClubMatch:
    """A new match's club, locked, and the members at its seats (:class:`api.matches.owners.
    HostedMatch`)."""

    club_id: str
    version: int
    members: Sequence[int]
    stakes: Mapping[str, JSON]
    """The club's default stakes per game, stored."""

    def stakes_for(self, game_id: str) -> JSON:
        return self.stakes.get(game_id)

    async def adopt(self, statements: Statements, match_id: str, game_id: str,
                    at: datetime, played_at: datetime) -> None:
        await links.link_match(statements, self.club_id, match_id, game_id, self.members, at,
                               played_at=played_at)
        await ledger.touch_club(statements, self.club_id, self.version, at)


@dataclass(frozen=True, slots=True)
class ClubAnnouncement:
    """A club whose statistics a write to one of its matches changed."""

    change: ledger.ClubChange
    action: str

    async def __call__(self, broker: Broker) -> None:
        await broker.publish(ledger.events_channel(self.change.club_id),
                             Change(self.change.version, f"match_{self.action}", None))


@dataclass(frozen=True, slots=True)
class ClubTournament:
    """A tournament's club, locked (:class:`api.tournaments.hosts.HostedTournament`)."""

    club_id: str
    version: int

    async def adopt(self, statements: Statements, tournament_id: str, at: datetime) -> None:
        await links.link_tournament(statements, self.club_id, tournament_id, at)
        await ledger.touch_club(statements, self.club_id, self.version, at)

    async def seat(self, statements: Statements, tournament_id: str, player_id: int, name: str,
                   at: datetime) -> None:
        (member,) = (await members_for(statements, self.club_id, [name], at, "name")).members
        if member in (await links.members_of_players(statements, tournament_id)).values():
            raise Unprocessable(_("A club member cannot play twice in one tournament."), errors=[
                Fault("name", "same_member_twice", _(
                    '"{name}" is a club member who plays in this tournament already.',
                    name=name, member=member))])
        await links.link_player(statements, self.club_id, tournament_id, player_id, member)
        await ledger.touch_club(statements, self.club_id, self.version, at)

    async def adopt_tables(self, statements: Statements, tournament_id: str, game_id: str,
                           tables: Sequence[tuple[str, Sequence[int]]], at: datetime) -> None:
        members = await links.members_of_players(statements, tournament_id)
        for match_id, players in tables:
            await links.link_match(statements, self.club_id, match_id, game_id,
                                   [members[player] for player in players], at, tournament_id)
        await ledger.touch_club(statements, self.club_id, self.version, at)

    async def finished(self, statements: Statements, tournament_id: str, at: datetime) -> None:
        # Its points count in the club's seasons now: a new club version (the seasons'
        # standings are kept per version).
        await ledger.touch_club(statements, self.club_id, self.version, at)


class ClubMatches:
    """Clubs as a match's owner and host (:class:`api.matches.owners.MatchOwner`,
    :class:`~api.matches.owners.MatchHost`). It holds nothing: every club's state is in the
    database."""

    locks_every_write = False

    def keeps(self, match_id: ColumnElement[str]) -> ColumnElement[bool]:
        return exists().where(ledger.CLUB_MATCHES.c.match_id == match_id)

    async def writer(self, statements: Statements, match_id: str, write_token_hash: str,
                     authorization: str | None) -> None:
        return None  # a club's match takes its own token as well as the club's

    async def other_writer(self, statements: Statements, match_id: str,
                           authorization: str | None) -> TokenWriter | None:
        tokens = await statements.one(links.CLUB_TOKENS_OF_MATCH, {"match_key": match_id})
        return TokenWriter(CLUB) if links.club_token_kind(tokens, authorization) == CLUB else None

    async def reads(self, read_one: ReadOne, match_id: str, authorization: str | None) -> bool:
        tokens = await read_one(links.CLUB_TOKENS_OF_MATCH, {"match_key": match_id})
        return links.club_token_kind(tokens, authorization) is not None

    async def follow(self, statements: Statements, match_id: str, game: AnyGame,
                     folded: FoldedMatch, action: str, at: datetime) -> Announcement | None:
        change = await ledger.after_match_write(statements, match_id, game, folded, action, at)
        return None if change is None else ClubAnnouncement(change, action)

    async def time_zone(self, read_one: ReadOne, match_id: str) -> str | None:
        row = await read_one(links.TIME_ZONE_OF_MATCH, {"match_key": match_id})
        return None if row is None else str(row[0])

    async def open(self, statements: Statements, host_id: str, authorization: str | None,
                   players: Sequence[str], at: datetime) -> ClubMatch:
        version = await links.open_club(statements, host_id, authorization)
        seated = await members_for(statements, host_id, players, at)
        default = await statements.one(links.CLUB_STAKES, {"club_key": host_id})
        return ClubMatch(host_id, version, seated.members, (default and default[0]) or {})



class ClubTournaments:
    """Clubs as a tournament's host (:class:`api.tournaments.hosts.TournamentHost`). It holds
    nothing, so it pickles for the helper process that seats a big tournament's round."""

    async def open(self, statements: Statements, host_id: str,
                   authorization: str | None) -> ClubTournament:
        return ClubTournament(host_id, await links.open_club(statements, host_id, authorization))

    async def of(self, statements: Statements, tournament_id: str) -> ClubTournament | None:
        club_id = await links.club_of_tournament(statements, tournament_id)
        if club_id is None:
            return None
        _finished, version = await ledger.lock_club(statements, club_id)
        return ClubTournament(club_id, version)
