"""A club's full backup as JSON, and its import as a new club with identical statistics and
ratings.

The backup holds the club's name, every member (with merged spellings and removed members, who
have no name), every club match (names as typed, the member at each seat, options, entries,
when it started, and when it finished with its place in the club's order of finished matches)
and every club tournament (its own backup, the member of each player, and when each table's
match finished). Tokens, audit rows and statistics are not part of it: statistics and ratings
are what the matches give.

Decisions: an import makes a new club with new ids and tokens (answered like a creation); the
club's matches and tournaments get new ids too, and their own write tokens are not handed out
(the club token writes the club's matches; a tournament's organiser token comes with nothing,
as its matches are the club's). Every match is folded again from its entries, then counted in
the order the backup says the matches finished, with their finish numbers and times, through
the same path as a match finishing at the table: statistics, ratings, rating history and
statistics over a date range come out as they were. Everything is checked before anything is
stored, with paths into the backup (``matches[3].entries[1].penalty``); nothing is stored on
any error.
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec
from sqlalchemy import Table, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import SQLModel

from api import auth
from api.clubs import access, ledger, links
from api.clubs import schemas as s
from api.clubs.members import INSERT_MEMBER, MEMBERS, name_key
from api.clubs.models import CLUB_NAME_LENGTH, MEMBER_NAME_LENGTH
from api.clubs.service import (
    CLUB_NAME_NEEDED,
    MATCHES,
    MEMBER_NAME_NEEDED,
    add_club,
    club_view,
    load_club,
)
from api.db.models import RoundRow
from api.db.statements import EngineStatements
from api.i18n import _
from api.matches.service import MATCH_ID_BYTES, add_match, now, utc
from api.problems import Fault, Unprocessable, name_field
from api.tournaments.backup import restore, tournament_backup
from api.tournaments.models import TournamentTableRow
from api.tournaments.service import fold_problem, load_tournament
from scoring import registry
from scoring.errors import InvalidEntry, InvalidOptions, MatchFinished
from scoring.game import AnyGame
from scoring.match import FoldedMatch


async def backup(session: AsyncSession, club_id: str, authorization: str | None) -> s.ClubBackup:
    club = await load_club(session, club_id)
    access.require_club_token(authorization, club.token_hash, club.view_token_hash)
    members = [s.BackupMember(int(i), name, merged) for i, name, merged in await session.execute(
        select(MEMBERS.c.id, MEMBERS.c.name, MEMBERS.c.merged_into)
        .where(MEMBERS.c.club_id == club.id).order_by(MEMBERS.c.id))]
    seats, club_matches = ledger.SEATS, ledger.CLUB_MATCHES
    seated: dict[str, list[int]] = defaultdict(list)
    for match_id, member in await session.execute(
            select(seats.c.match_id, seats.c.member_id).where(seats.c.club_id == club.id)
            .order_by(seats.c.match_id, seats.c.seat)):
        seated[match_id].append(int(member))
    entries: dict[str, list[Any]] = defaultdict(list)
    for match_id, entry in await session.execute(
            select(RoundRow.match_id, RoundRow.entry).join(  # type: ignore[call-overload]
                club_matches, club_matches.c.match_id == RoundRow.match_id)
            .where(club_matches.c.club_id == club.id)
            .order_by(RoundRow.match_id, RoundRow.number)):
        entries[match_id].append(entry)
    matches: list[s.BackupClubMatch] = []
    finishes: dict[str, s.BackupFinish | None] = {}
    for match_id, game, players, options, private, created_at, finish, finished_at, tournament \
            in await session.execute(
                select(club_matches.c.match_id, club_matches.c.game, MATCHES.c.players,
                       MATCHES.c.options, MATCHES.c.private, club_matches.c.created_at,
                       club_matches.c.finish, club_matches.c.finished_at,
                       club_matches.c.tournament_id)
                .join(MATCHES, MATCHES.c.id == club_matches.c.match_id)
                .where(club_matches.c.club_id == club.id)
                .order_by(club_matches.c.created_at, club_matches.c.match_id)):
        finished = None if finish is None else s.BackupFinish(finish, utc(finished_at))
        finishes[match_id] = finished
        if tournament is None:
            matches.append(s.BackupClubMatch(
                game=game, players=list(players), members=seated[match_id], options=options,
                entries=entries[match_id], created_at=utc(created_at), finished=finished,
                private=private))
    tournaments = []
    for tournament_id, created_at in await session.execute(
            select(links.TOURNAMENTS.c.tournament_id, links.TOURNAMENTS.c.created_at)
            .where(links.TOURNAMENTS.c.club_id == club.id)
            .order_by(links.TOURNAMENTS.c.created_at)):
        row = await load_tournament(session, tournament_id)
        statements = EngineStatements(session)
        players = await links.members_of_players(statements, tournament_id)
        table_finishes = []
        for number, table, match_id in await session.execute(
                select(TABLES.c.round, TABLES.c.table, TABLES.c.match_id)
                .where(TABLES.c.tournament_id == tournament_id)):
            found = finishes.get(match_id)
            if found is not None:
                table_finishes.append(s.BackupTableFinish(
                    finish=found.finish, finished_at=found.finished_at, round=number,
                    table=table))
        tournaments.append(s.BackupClubTournament(
            backup=await tournament_backup(session, row),
            players=[s.BackupTablePlayer(p, m) for p, m in sorted(players.items())],
            finished=sorted(table_finishes, key=lambda f: f.finish),
            created_at=utc(created_at)))
    return s.ClubBackup(format="tafelrunde-club", version=1, name=club.name, members=members,
                        matches=matches, tournaments=tournaments, exported_at=now())


TABLES: Table = SQLModel.metadata.tables[TournamentTableRow.__tablename__]


@dataclass(frozen=True, slots=True)
class _Counted:
    """A finished club match of the import, to be counted in the club's order."""

    finish: int
    finished_at: datetime
    match_id: str
    game: AnyGame
    folded: FoldedMatch


def _check_members(body: s.ClubBackup, problems: list[Fault]) -> dict[int, s.BackupMember]:
    members: dict[int, s.BackupMember] = {}
    keys: dict[str, int] = {}
    for i, member in enumerate(body.members):
        path = f"members[{i}]"
        if member.id in members:
            problems.append(Fault(f"{path}.id", "duplicate_member", _(
                "Member {member} is in the backup twice.", member=member.id)))
        members[member.id] = member
        if member.name is not None:
            name = name_field(member.name, f"{path}.name", problems,
                              maximum=MEMBER_NAME_LENGTH, blank=MEMBER_NAME_NEEDED)
            if name is not None and name_key(name) in keys:
                problems.append(Fault(f"{path}.name", "duplicate_name", _(
                    '"{name}" is member {member} already.', name=name,
                    member=keys[name_key(name)])))
            elif name is not None:
                keys[name_key(name)] = member.id
    for i, member in enumerate(body.members):
        into = members.get(member.merged_into) if member.merged_into is not None else None
        if member.merged_into is not None and (into is None or into.merged_into is not None):
            problems.append(Fault(f"members[{i}].merged_into", "unknown_member", _(
                "There is no member {member} to merge into.", member=member.merged_into)))
    return members


def _check_seats(members: dict[int, s.BackupMember], seated: list[int], path: str,
                 problems: list[Fault]) -> None:
    for seat, member in enumerate(seated):
        known = members.get(member)
        if known is None or known.merged_into is not None:
            problems.append(Fault(f"{path}[{seat}]", "unknown_member", _(
                "There is no member {member} to seat here.", member=member)))
        elif member in seated[:seat]:
            problems.append(Fault(f"{path}[{seat}]", "same_member_twice", _(
                "Member {member} sits at this table already.", member=member)))


def _check_finished(finished: s.BackupFinish | None, folded: FoldedMatch, path: str,
                    seen: set[int], problems: list[Fault]) -> None:
    if (finished is not None) != folded.finished:
        problems.append(Fault(path, "finished_mismatch", _(
            "Say when a match finished exactly when its entries finish it.")))
    if finished is not None:
        if finished.finish in seen:
            problems.append(Fault(f"{path}.finish", "duplicate_finish", _(
                "Another match finished as number {finish} already.", finish=finished.finish)))
        seen.add(finished.finish)


async def import_backup(session: AsyncSession, body: s.ClubBackup) -> s.CreatedClub:
    problems: list[Fault] = []
    name = name_field(body.name, "name", problems, maximum=CLUB_NAME_LENGTH,
                      blank=CLUB_NAME_NEEDED)
    members = _check_members(body, problems)
    if problems:
        raise Unprocessable(_("The backup does not describe a club."), errors=problems)
    assert name is not None
    club, tokens = await add_club(session, name)
    at = club.created_at
    statements = EngineStatements(session)
    if body.members:
        await statements.run(INSERT_MEMBER, [{
            "club_id": club.id, "id": m.id, "name": None if m.name is None else m.name.strip(),
            "key": None if m.name is None else name_key(m.name), "merged_into": m.merged_into,
            "removed_at": at if m.name is None else None, "created_at": at}
            for m in body.members])
    counted: list[_Counted] = []
    seen: set[int] = set()
    for i, played in enumerate(body.matches):
        path = f"matches[{i}]"
        game = registry.game_by_id(played.game)
        _check_seats(members, played.members, f"{path}.members", problems)
        if len(played.members) != len(played.players):
            problems.append(Fault(f"{path}.members", "wrong_length", _(
                "Name the member of each of the {players} seats.",
                players=len(played.players))))
        if game is None:
            problems.append(Fault(f"{path}.game", "unknown_game", _(
                'There is no game "{game}".', game=played.game)))
        if problems:
            continue
        assert game is not None
        match_id = secrets.token_urlsafe(MATCH_ID_BYTES)
        try:
            _match, folded = await add_match(session, match_id, game, played.players,
                                        played.options, played.private, auth.new_tokens(),
                                        played.entries, utc(played.created_at), access.CLUB)
        except (InvalidEntry, InvalidOptions, MatchFinished) as error:
            problems += fold_problem(error, path)
            continue
        _check_finished(played.finished, folded, f"{path}.finished", seen, problems)
        await links.link_match(statements, club.id, match_id, game.id, played.members,
                               utc(played.created_at))
        if played.finished is not None:
            counted.append(_Counted(played.finished.finish, played.finished.finished_at,
                                    match_id, game, folded))
    for i, tournament in enumerate(body.tournaments):
        path = f"tournaments[{i}]"
        if problems:
            break
        restored = await restore(session, tournament.backup, f"{path}.backup.")
        tournament_id = restored.created.id
        await links.link_tournament(statements, club.id, tournament_id,
                                    utc(tournament.created_at))
        players = {p.player: p.member for p in tournament.players}
        _check_seats(members, [p.member for p in tournament.players], f"{path}.players",
                     problems)
        registered = {p.id for p in tournament.backup.players}
        if set(players) != registered:
            problems.append(Fault(f"{path}.players", "players_and_members", _(
                "Name the member of every player of the tournament, and only theirs.")))
            continue
        for player, member in sorted(players.items()):
            await links.link_player(statements, club.id, tournament_id, player, member)
        finishes = {(f.round, f.table): f for f in tournament.finished}
        game = registry.game_by_id(tournament.backup.tournament.game)
        assert game is not None  # the restore checked it
        for (number, table), (row, folded) in restored.folds.items():
            await links.link_match(statements, club.id, row.match_id, game.id,
                                   [players[p] for p in row.players], at, tournament_id)
            finished = finishes.pop((number, table), None)
            _check_finished(finished, folded, f"{path}.finished[{number}/{table}]", seen,
                            problems)
            if finished is not None:
                counted.append(_Counted(finished.finish, finished.finished_at, row.match_id,
                                        game, folded))
        if finishes:
            problems.append(Fault(f"{path}.finished", "unknown_table", _(
                "A finish names a table the tournament does not have.")))
    if problems:
        raise Unprocessable(_("The backup does not describe a club."), errors=problems)
    for match in sorted(counted, key=lambda c: c.finish):
        await ledger.count_as_finished(statements, club.id, match.finish, match.match_id,
                                       match.game, match.folded, utc(match.finished_at))
    await session.commit()
    view = await club_view(session, await load_club(session, club.id))
    return s.CreatedClub(**msgspec.structs.asdict(view), token=tokens.write,
                         view_token=tokens.view)
