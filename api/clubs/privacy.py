"""A member's own data (GDPR articles 15 and 17): everything the club holds about one member,
exported as JSON, and a member forgotten.

**Export** (``GET /clubs/{id}/players/{member}/data``, the club token only: it is about one
person, not for every reader of the club): the member (name, aliases, when added and removed),
statistics and rating per game, the rating after each rated match, every club match they sat
at (when, where, their seats, their rank and line of the standings, each round's values of
their own seat or team), the club tournaments they played (the name registered there), each
season's line, and the club's audit records about them. Other people are not named in it:
their seats are numbers, the standings line is the member's own without its name (art. 15(4):
a copy must not take away the rights of others). The parts are made by the functions in
:data:`PARTS`, one per kind of thing the club keeps, the Kasse's payments among them (without
who recorded each); a new kind is a field of :class:`api.clubs.schemas.MemberData` and a part
here.

**Forgetting** (``POST .../forget``, club token): the member is removed as
:func:`api.clubs.service.remove_member` removes one (their name and aliases replaced in the
member rows, every match they sat at, every club tournament they played, with new versions so
no kept answer holds the old name), and beyond that:

- the stored answers of round writes to their matches (the ``Idempotency-Key`` replays) are
  rewritten: standings names as the renamed match has them, the old spellings replaced by the
  mark wherever else they appear, so a replay answers no old name;
- the Kasse's payments keep free text (``recorded_by``, ``note``) that may name the member:
  every whole-word occurrence of their name or an alias there (case ignored) is replaced by the
  mark, in every payment of the club (cut to the field's length should a short name's mark be
  longer). A mention by a nickname or a misspelling cannot be found, and stays;
- a member removed before may be forgotten too: their traces beyond the member row (the replays
  above) are rewritten although their old name is no longer known (so their payments' free
  text keeps it);
- the club's audit records it (``member_forgotten``, the member's id, the kind of token, when):
  never the old name. ``GET /clubs/{id}/audit`` lists the club's audit (club token).

The neutral name is stored once, as the removed member's mark ``#<number>`` in matches and
tournaments (a code and the member's number, the same in every language), and said in the
reader's language wherever the club names its members ("Ehemaliges Mitglied 12", "Former
member 12"): one stored string, every language read. Results, statistics, ratings and seasons
of everybody else stay exactly as they were: nothing but names is written. What the database
engine keeps of old pages is the engine's (a PostgreSQL vacuum, SQLite's free pages; see the
README); every answer, export and backup is made from the rows, which no longer hold the name.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec
from sqlalchemy import Table, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import SQLModel

from api.clubs import access, kasse, ledger, seasons
from api.clubs import schemas as s
from api.clubs.evenings import evening
from api.clubs.links import TOURNAMENT_PLAYED, TOURNAMENT_PLAYERS, TOURNAMENTS
from api.clubs.members import MEMBERS
from api.clubs.models import PAYMENT_NOTE_LENGTH, RECORDER_LENGTH, ClubAuditRow
from api.clubs.service import (
    MATCHES,
    PAYMENTS,
    TOURNAMENT_PLAYER_ROWS,
    TOURNAMENT_ROWS,
    ClubRecord,
    Member,
    announce_unnamed,
    game_statistics,
    load_club,
    member_in,
    members_of,
    rating_of,
    removed_mark,
    stored_games,
    unname,
)
from api.db.statements import EngineStatements
from api.i18n import Words
from api.matches.folds import RecentFolds
from api.matches.service import IDEMPOTENCY, now, utc
from api.shared.live import Broker
from scoring import registry

AUDIT: Table = SQLModel.metadata.tables[ClubAuditRow.__tablename__]
FORGOTTEN = "member_forgotten"


# --- the export -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Asked:
    """What every part of the export is made from."""

    session: AsyncSession
    club: ClubRecord
    member: Member
    authorization: str | None
    words: Words


def _own(value: Any, seats: list[int], teams: list[int], players: int, sides: int) -> Any:
    """The member's own value of a per-seat or per-team list (one item per player, or per team
    when the match has teams); None for anything else (a value of the whole round)."""
    if isinstance(value, list):
        if len(value) == players:
            own = [value[seat] for seat in seats]
            return own[0] if len(own) == 1 else own
        if teams and len(value) == sides:
            return value[teams[0]]
    return None


def _own_values(part: Any, seats: list[int], teams: list[int], players: int,
                sides: int) -> dict[str, Any]:
    if not isinstance(part, dict):
        return {}
    found = {key: _own(value, seats, teams, players, sides) for key, value in part.items()}
    return {key: value for key, value in found.items() if value is not None}


def _standing(snapshot: dict[str, Any], seats: list[int]) -> tuple[dict[str, Any] | None,
                                                                   list[int]]:
    """The member's line of the standings without its name, and their team (if any)."""
    for line in snapshot.get("standings") or []:
        line_seats = line.get("seats", [line.get("seat")])
        if any(seat in line_seats for seat in seats):
            teams = [line["team"]] if "team" in line else []
            return {k: v for k, v in line.items() if k != "name"}, teams
    return None, []


async def _matches(asked: Asked) -> dict[str, Any]:
    seats, club_matches = ledger.SEATS, ledger.CLUB_MATCHES
    mine: dict[str, tuple[list[int], Any, Any]] = {}
    for match_id, seat, rank, won in await asked.session.execute(
            select(seats.c.match_id, seats.c.seat, seats.c.rank, seats.c.won).where(
                seats.c.club_id == asked.club.id, seats.c.member_id == asked.member.id)
            .order_by(seats.c.match_id, seats.c.seat)):
        found = mine.setdefault(match_id, ([], rank, won))
        found[0].append(int(seat))
    matches = []
    for match_id, game, status, played_at, location, tournament, snapshot in \
            await asked.session.execute(
                select(club_matches.c.match_id, club_matches.c.game, MATCHES.c.status,
                       MATCHES.c.played_at, MATCHES.c.location, club_matches.c.tournament_id,
                       MATCHES.c.snapshot)
                .join(MATCHES, MATCHES.c.id == club_matches.c.match_id)
                .where(club_matches.c.match_id.in_(list(mine)))
                .order_by(MATCHES.c.played_at, club_matches.c.match_id)):
        own_seats, rank, won = mine[match_id]
        players = len(snapshot.get("players") or [])
        standing, teams = _standing(snapshot, own_seats)
        sides = len(snapshot.get("standings") or [])
        rounds = [s.MemberDataRound(
            number=int(played["number"]),
            entry=_own_values(played.get("entry"), own_seats, teams, players, sides),
            result=_own_values(played.get("result"), own_seats, teams, players, sides),
            totals=_own_values(played.get("totals"), own_seats, teams, players, sides))
            for played in snapshot.get("rounds") or []]
        matches.append(s.MemberDataMatch(
            id=match_id, game=game, status=status, played_at=utc(played_at),
            evening=evening(utc(played_at), asked.club.time_zone), location=location,
            tournament=tournament, seats=own_seats, players=players,
            rank=None if rank is None else int(rank), won=None if won is None else bool(won),
            standing=standing, rounds=rounds))
    return {"matches": matches}


async def _statistics(asked: Asked) -> dict[str, Any]:
    games = {}
    for stored in await stored_games(asked.session, asked.club.id):
        game = registry.game_by_id(stored.game)
        if stored.member == asked.member.id and game is not None:
            games[stored.game] = game_statistics(game, stored.statistics, stored.rating,
                                                 stored.rated)
    return {"statistics": games}


async def _ratings(asked: Asked) -> dict[str, Any]:
    ratings, matches = ledger.RATINGS, ledger.CLUB_MATCHES
    games: dict[str, list[s.RatingPoint]] = {}
    for game, finish, match_id, at, played_at, mu, sigma in await asked.session.execute(
            select(ratings.c.game, ratings.c.finish, ratings.c.match_id, matches.c.finished_at,
                   matches.c.played_at, ratings.c.mu, ratings.c.sigma)
            .join(matches, matches.c.match_id == ratings.c.match_id)
            .where(ratings.c.club_id == asked.club.id,
                   ratings.c.member_id == asked.member.id)
            .order_by(ratings.c.game, *ledger.ORDER, ratings.c.finish)):
        rating = rating_of(mu, sigma)
        games.setdefault(game, []).append(s.RatingPoint(
            finish=int(finish), match=match_id, finished_at=utc(at), played_at=utc(played_at),
            mu=rating.mu, sigma=rating.sigma, ordinal=rating.ordinal))
    return {"ratings": [s.MemberDataRating(game, points) for game, points in games.items()]}


async def _tournaments(asked: Asked) -> dict[str, Any]:
    t, players = TOURNAMENT_ROWS, TOURNAMENT_PLAYER_ROWS
    query = select(t.c.id, t.c.name, t.c.game, t.c.status, players.c.id, players.c.name).join(
        TOURNAMENT_PLAYERS, TOURNAMENT_PLAYERS.c.tournament_id == t.c.id).join(
        players, (players.c.tournament_id == t.c.id)
        & (players.c.id == TOURNAMENT_PLAYERS.c.player_id)).join(
        TOURNAMENTS, TOURNAMENTS.c.tournament_id == t.c.id).where(
        TOURNAMENT_PLAYERS.c.club_id == asked.club.id,
        TOURNAMENT_PLAYERS.c.member_id == asked.member.id).order_by(TOURNAMENT_PLAYED, t.c.id)
    return {"tournaments": [
        s.MemberDataTournament(id=i, name=name, game=game, status=status, player=int(player),
                               registered_as=registered)
        for i, name, game, status, player, registered in await asked.session.execute(query)]}


async def _seasons(asked: Asked) -> dict[str, Any]:
    lines = []
    for season in await seasons.read_seasons(asked.session, asked.club.id, asked.authorization):
        table = await seasons.read_standings(asked.session, asked.club.id, season.id,
                                             asked.authorization, asked.words)
        lines.append(s.MemberDataSeason(season, next(
            (row for row in table if row.player == asked.member.id), None)))
    return {"seasons": lines}


async def _audit(asked: Asked) -> dict[str, Any]:
    return {"audit": await audit_records(asked.session, asked.club.id, asked.member.id)}


async def _payments(asked: Asked) -> dict[str, Any]:
    """The member's payments into and out of the Kasse, oldest first. Who recorded each is the
    treasurer's name, another person's data (art. 15(4)): left out."""
    members = {asked.member.id: asked.member}
    return {"payments": [
        msgspec.structs.replace(kasse.payment_view(row, members, asked.words), recorded_by=None)
        for row in await kasse.stored_payments(asked.session, asked.club.id)
        if int(row.member_id) == asked.member.id]}


Part = Callable[[Asked], Awaitable[dict[str, Any]]]
PARTS: tuple[Part, ...] = (_statistics, _ratings, _matches, _tournaments, _seasons, _audit,
                           _payments)
"""Each kind of thing the club keeps about a member: one function answering its fields of
:class:`api.clubs.schemas.MemberData`. A new kind is a field there and a part here."""


async def member_data(session: AsyncSession, club_id: str, member_id: int,
                      authorization: str | None, words: Words) -> s.MemberData:
    """Everything the club holds about the member (club token; a removed member too)."""
    club = await load_club(session, club_id)
    access.require_club_token(authorization, club.token_hash, club.view_token_hash)
    members = await members_of(session, club.id)
    member = member_in(members, member_id, listed=False)
    added, removed = (await session.execute(
        select(MEMBERS.c.created_at, MEMBERS.c.removed_at).where(
            MEMBERS.c.club_id == club.id, MEMBERS.c.id == member.id))).one()
    asked = Asked(session, club, member, authorization, words)
    parts: dict[str, Any] = {}
    for part in PARTS:
        parts.update(await part(asked))
    return s.MemberData(
        format="tafelrunde-member-data", club=s.ClubRef(id=club.id, name=club.name),
        member=s.MemberRecord(id=member.id, name=member.named(words), aliases=member.aliases,
                              created_at=utc(added),
                              removed_at=None if removed is None else utc(removed)),
        exported_at=now(), **parts)


# --- the audit ------------------------------------------------------------------------------


async def audit_records(session: AsyncSession, club_id: str,
                        member_id: int | None = None) -> list[s.ClubAuditRecord]:
    query = select(AUDIT.c.at, AUDIT.c.action, AUDIT.c.member_id, AUDIT.c.token_kind).where(
        AUDIT.c.club_id == club_id)
    if member_id is not None:
        query = query.where(AUDIT.c.member_id == member_id)
    return [s.ClubAuditRecord(at=utc(at), action=action, member=member, token_kind=kind)
            for at, action, member, kind in await session.execute(query.order_by(AUDIT.c.id))]


async def read_audit(session: AsyncSession, club_id: str,
                     authorization: str | None) -> list[s.ClubAuditRecord]:
    """The club's own audit, oldest first (club token)."""
    club = await load_club(session, club_id)
    access.require_club_token(authorization, club.token_hash, club.view_token_hash)
    return await audit_records(session, club.id)


async def _record(session: AsyncSession, club_id: str, at: datetime, action: str,
                  member: int | None, token_kind: str) -> None:
    last = (await session.execute(select(func.max(AUDIT.c.id)).where(
        AUDIT.c.club_id == club_id))).scalar_one()
    await session.execute(insert(AUDIT), {"club_id": club_id, "id": int(last or 0) + 1,
                                          "at": at, "action": action, "member_id": member,
                                          "token_kind": token_kind})


# --- forgetting -----------------------------------------------------------------------------


def _replaced(value: Any, old: list[str], mark: str) -> Any:
    """``value`` with every old spelling (longest first) replaced by ``mark`` in its texts."""
    if isinstance(value, str):
        for name in old:
            value = value.replace(name, mark)
        return value
    if isinstance(value, list):
        return [_replaced(item, old, mark) for item in value]
    if isinstance(value, dict):
        return {key: _replaced(item, old, mark) for key, item in value.items()}
    return value


def _renamed_answer(body: Any, snapshot: dict[str, Any], old: list[str], mark: str) -> Any:
    """A stored round answer with the standings' names as the renamed match has them, and the
    old spellings replaced everywhere else."""
    if isinstance(body, dict) and isinstance(body.get("standings"), list):
        names = {(line.get("team"), line.get("seat")): line.get("name")
                 for line in snapshot.get("standings") or []}
        body = {**body, "standings": [
            {**line, "name": names.get((line.get("team"), line.get("seat")), line.get("name"))}
            if isinstance(line, dict) else line for line in body["standings"]]}
    return _replaced(body, old, mark)


async def _rewrite_replays(session: AsyncSession, club_id: str, member: int, old: list[str],
                           mark: str) -> None:
    """The stored round answers of the member's matches without their name. Where it is no
    longer known (a member removed before), it is read from the answer's own standings line
    of the member's seat."""
    seats: dict[str, set[int]] = {}
    for match_id, seat in await session.execute(
            select(ledger.SEATS.c.match_id, ledger.SEATS.c.seat).where(
                ledger.SEATS.c.club_id == club_id, ledger.SEATS.c.member_id == member)):
        seats.setdefault(match_id, set()).add(int(seat))
    if not seats:
        return
    snapshots = dict((await session.execute(select(MATCHES.c.id, MATCHES.c.snapshot).where(
        MATCHES.c.id.in_(list(seats))))).all())
    for row_id, match_id, body in (await session.execute(
            select(IDEMPOTENCY.c.id, IDEMPOTENCY.c.match_id, IDEMPOTENCY.c.body).where(
                IDEMPOTENCY.c.match_id.in_(list(seats))))).all():
        said = {line["name"] for line in (body or {}).get("standings") or []
                if isinstance(line, dict) and line.get("seat") in seats[match_id]
                and "team" not in line and isinstance(line.get("name"), str)} - {mark}
        spellings = sorted({*old, *said}, key=len, reverse=True)
        renamed = _renamed_answer(body, snapshots[match_id], spellings, mark)
        if renamed != body:
            await session.execute(update(IDEMPOTENCY).where(IDEMPOTENCY.c.id == row_id)
                                  .values(body=renamed))


async def _unname_payments(session: AsyncSession, club_id: str, old: list[str],
                           mark: str) -> None:
    """The club's payments without the old spellings as whole words in their free text."""
    if not old:
        return
    spelt = re.compile("|".join(rf"(?<!\w){re.escape(name)}(?!\w)" for name in old),
                       re.IGNORECASE)
    payments = PAYMENTS.c
    for payment_id, recorded_by, note in (await session.execute(
            select(payments.id, payments.recorded_by, payments.note).where(
                payments.club_id == club_id))).all():
        by = None if recorded_by is None else spelt.sub(mark, recorded_by)[:RECORDER_LENGTH]
        said = spelt.sub(mark, note)[:PAYMENT_NOTE_LENGTH]
        if (by, said) != (recorded_by, note):
            await session.execute(update(PAYMENTS).where(
                payments.club_id == club_id, payments.id == payment_id).values(
                recorded_by=by, note=said))


async def forget_member(session: AsyncSession, broker: Broker, folds: RecentFolds,
                        club_id: str, member_id: int, authorization: str | None,
                        words: Words) -> s.ForgottenMember:
    """Forget a member (club token): see the module's docstring."""
    club = await load_club(session, club_id)
    access.require_club_token(authorization, club.token_hash, club.view_token_hash)
    member = member_in(await members_of(session, club.id), member_id, listed=False)
    old = sorted({name for name in (member.name, *member.aliases) if name}, key=len,
                 reverse=True)
    unnamed = await unname(session, folds, club, member)
    await _rewrite_replays(session, club.id, member.id, old, removed_mark(member.id))
    await _unname_payments(session, club.id, old, removed_mark(member.id))
    await _record(session, club.id, unnamed.at, FORGOTTEN, member.id, access.CLUB)
    change = await ledger.touch_club(EngineStatements(session), club.id, unnamed.version,
                                     unnamed.at)
    await session.commit()
    await announce_unnamed(broker, unnamed, change, FORGOTTEN)
    return s.ForgottenMember(member=member.id, name=Member(member.id, None, None, []).named(
        words), forgotten_at=unnamed.at)
