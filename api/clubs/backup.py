"""A club's full backup as JSON, and its import as a new club with identical statistics and
ratings.

The backup holds the club's name, every member (with merged spellings and removed members, who
have no name), every club match (names as typed, the member at each seat, options, entries,
when it started, and when it finished with its place in the club's order of finished matches)
and every club tournament (its own backup, the member of each player, and when each table's
match was played and finished: a tournament's own backup keeps no such date, and the club
counts its matches by when they were played; an older backup without ``played_at`` there
imports a table as played when it finished), its seasons (numbered 1, 2, 3 ... again in their
order; a backup without ``seasons`` has none) and the payments of its Kasse (oldest first,
numbered again in that order, each checked as a new one; the phone that recorded one is not
kept, its ``recorded_by`` is). Tokens, audit rows and statistics are not part of it:
statistics and ratings are what the matches give.

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

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec
from sqlalchemy import ColumnElement, Table, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import SQLModel

from api.clubs import access, kasse, ledger, links, seasons
from api.clubs import schemas as s
from api.clubs.evenings import time_zone_of
from api.clubs.members import MEMBERS, name_key
from api.clubs.models import CLUB_NAME_LENGTH, MEMBER_NAME_LENGTH
from api.clubs.service import (
    CLUB_ID_BYTES,
    CLUB_NAME_NEEDED,
    MATCHES,
    MEMBER_NAME_NEEDED,
    PAYMENTS,
    club_view,
    load_club,
)
from api.db.database import Database
from api.db.models import RoundRow
from api.db.statements import EngineStatements, Statements
from api.edge import auth
from api.edge.bodies import decode_body
from api.edge.problems import Fault, Unprocessable, name_field
from api.i18n import _
from api.matches import stakes as match_stakes
from api.matches.played import location_of
from api.matches.service import AUDIT, MATCH_ID_BYTES, made_match, now, utc
from api.matches.service import ROUNDS as MATCH_ROUNDS
from api.shared import imports
from api.shared.ids import new_id
from api.shared.imports import HIDDEN, Lease, Turns
from api.tournaments.backup import PLAYERS, ROUNDS, TOURNAMENTS, rebuild, tournament_backup
from api.tournaments.models import TournamentTableRow
from api.tournaments.service import fold_problem, load_tournament
from scoring import registry
from scoring.errors import InvalidEntry, InvalidOptions, MatchFinished
from scoring.game import AnyGame, counted_as
from scoring.match import FoldedMatch, fold_match, set_up
from scoring.money import format_amount
from scoring.reading import JSON


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
    finishes: dict[str, tuple[s.BackupFinish, datetime] | None] = {}
    for match_id, game, players, options, private, created_at, finish, finished_at, tournament, \
            played_at, location, stakes in await session.execute(
                select(club_matches.c.match_id, MATCHES.c.game, MATCHES.c.players,
                       MATCHES.c.options, MATCHES.c.private, club_matches.c.created_at,
                       club_matches.c.finish, club_matches.c.finished_at,
                       club_matches.c.tournament_id, MATCHES.c.played_at, MATCHES.c.location,
                       MATCHES.c.stakes)
                .join(MATCHES, MATCHES.c.id == club_matches.c.match_id)
                .where(club_matches.c.club_id == club.id)
                .order_by(club_matches.c.created_at, club_matches.c.match_id)):
        finished = None if finish is None else s.BackupFinish(finish, utc(finished_at))
        finishes[match_id] = None if finished is None else (finished, utc(played_at))
        if tournament is None:
            matches.append(s.BackupClubMatch(
                game=game, players=list(players), members=seated[match_id], options=options,
                entries=entries[match_id], created_at=utc(created_at), finished=finished,
                private=private, played_at=utc(played_at), location=location,
                stakes=match_stakes.written(stakes)))
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
                    finish=found[0].finish, finished_at=found[0].finished_at, round=number,
                    table=table, played_at=found[1]))
        tournaments.append(s.BackupClubTournament(
            backup=await tournament_backup(session, row),
            players=[s.BackupTablePlayer(p, m) for p, m in sorted(players.items())],
            finished=sorted(table_finishes, key=lambda f: f.finish),
            created_at=utc(created_at)))
    held = [s.NewSeason(name=row.name, from_=row.from_date, to=row.to_date, game=row.game,
                        best=row.best) for row in await session.execute(
        select(seasons.SEASONS).where(seasons.SEASONS.c.club_id == club.id)
        .order_by(seasons.SEASONS.c.id))]
    payments = [s.BackupPayment(
        player=int(row.member_id), amount=format_amount(int(row.amount)), currency=row.currency,
        recorded_at=utc(row.recorded_at), note=row.note, recorded_by=row.recorded_by)
        for row in await kasse.stored_payments(session, club.id)]
    return s.ClubBackup(format="tafelrunde-club", version=1, name=club.name, members=members,
                        matches=matches, tournaments=tournaments, exported_at=now(),
                        time_zone=club.time_zone, seasons=held,
                        stakes=match_stakes.written_per_game(club.stakes), payments=payments)


TABLES: Table = SQLModel.metadata.tables[TournamentTableRow.__tablename__]


# --- importing ----------------------------------------------------------------------------------

MAX_BACKUP_BYTES = 16 * 1024 * 1024
"""The largest club backup an import takes (some 40,000 one-round matches; checking and storing
5,000 takes a small machine about a minute)."""
BIG_BACKUP_BYTES = 16 * 1024
"""A club backup larger than this is imported in the helper process (:mod:`api.server.offload`):
checking, folding and rating 16 KiB (some 50 matches) is about 25 ms of a small machine's
time, 64 KiB (the tournaments' limit) four times that, a tournament's table being cheaper than
a club match."""
ROWS_PER_WRITE = 2_000
"""Rows stored per write transaction of an import: a few tens of milliseconds of SQLite's
write lock on a small machine."""
TOO_LARGE = _("A club's backup may be at most {limit} MiB.")
INSERTS = {table: table.insert() for table in SQLModel.metadata.sorted_tables
           if table is not imports.LEASES}
"""Every table's insert, in the order tables refer to each other (but the imports' leases,
which belong to no club)."""
OWNERS: dict[Table, ColumnElement[Any]] = {
    table: table.c.club_id if "club_id" in table.c else
    table.c.match_id if "match_id" in table.c and table is not MATCHES else
    table.c.tournament_id if "tournament_id" in table.c else table.c.id
    for table in INSERTS
}
"""The column by which a row belongs to an imported club: its club's id, its match's (the
match's rounds and audit), its tournament's (the tournament's players, rounds and tables)."""
FORGET = {table: table.delete().where(column == bindparam("owner_key"))
          for table, column in OWNERS.items()}
REVEAL = ledger.UPDATE_CLUB.where(ledger.CLUBS.c.token_hash == HIDDEN)
IMPORT = "club"
"""The kind of a club import's lease (:class:`api.shared.imports.Lease`), whose key is the
club's id."""
_HIDDEN_CLUBS = select(ledger.CLUBS.c.id).where(ledger.CLUBS.c.token_hash == HIDDEN)
_STILL_HIDDEN = _HIDDEN_CLUBS.where(ledger.CLUBS.c.id.in_(bindparam("clubs", expanding=True)))
_THEIR_MATCHES = select(ledger.CLUB_MATCHES.c.match_id).where(
    ledger.CLUB_MATCHES.c.club_id.in_(bindparam("clubs", expanding=True)))
_THEIR_TOURNAMENTS = select(links.TOURNAMENTS.c.tournament_id).where(
    links.TOURNAMENTS.c.club_id.in_(bindparam("clubs", expanding=True)))

Rows = list[tuple[Table, dict[str, Any]]]
"""Rows to store, each after the rows it refers to."""


@dataclass(frozen=True, slots=True)
class _Planned:
    """A club rebuilt from its backup in memory: every row to store (the club's token hashes
    :data:`api.shared.imports.HIDDEN` until the last write reveals them), nothing stored yet."""

    club_id: str
    tokens: auth.TokenPair
    rows: Rows


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


def _club_match(club_id: str, match_id: str, game: AnyGame, folded: FoldedMatch,
                members: list[int], at: datetime, finished: s.BackupFinish | None,
                tournament_id: str | None, rows: Rows,
                counted: list[ledger.Finished], played_at: datetime | None = None) -> None:
    """The rows that make a match (stored before) the club's, with its result when it finished;
    a finished one also goes to ``counted``. ``played_at`` defaults to ``at``."""
    game = counted_as(game, game.options_json(folded.setup.options))
    results = ledger.seat_results(game, folded) if finished is not None else {}
    played_at = at if played_at is None else played_at
    rows.append((ledger.CLUB_MATCHES, {
        "match_id": match_id, "club_id": club_id, "tournament_id": tournament_id,
        "game": game.id, "finish": None if finished is None else finished.finish,
        "finished_at": None if finished is None else utc(finished.finished_at),
        "created_at": at, "played_at": played_at}))
    rows += [(ledger.SEATS, {
        "match_id": match_id, "seat": seat, "club_id": club_id, "member_id": member,
        "game": game.id, "finish": None if finished is None else finished.finish,
        **(dict.fromkeys(ledger.RESULT_KEYS) if finished is None else results[seat])})
        for seat, member in enumerate(members)]
    if finished is not None:
        counted.append(ledger.Finished(finished.finish, match_id, game, played_at, members,
                                       results))


def _match_rows(made: tuple[dict[str, Any], list[dict[str, Any]]], rows: Rows) -> None:
    """A match's rows (:func:`api.matches.service.made_match`): its own, its rounds', its
    audit's."""
    match, others = made
    rows.append((MATCHES, match))
    rows += [(MATCH_ROUNDS if "number" in row else AUDIT, row) for row in others]


def _plan(body: s.ClubBackup) -> _Planned:
    """Everything checked, folded, counted and rated; 422 with paths into the backup when it
    cannot be."""
    problems: list[Fault] = []
    name = name_field(body.name, "name", problems, maximum=CLUB_NAME_LENGTH,
                      blank=CLUB_NAME_NEEDED)
    members = _check_members(body, problems)
    if problems:
        raise Unprocessable(_("The backup does not describe a club."), errors=problems)
    assert name is not None
    time_zone = time_zone_of(body.time_zone)
    stakes = match_stakes.read_per_game(body.stakes, "stakes")
    tokens = auth.new_tokens()
    at = now()
    club_id = new_id(CLUB_ID_BYTES)
    club: dict[str, Any] = {"id": club_id, "name": name, "token_hash": HIDDEN,
                            "view_token_hash": HIDDEN, "finished": 0, "version": 1,
                            "created_at": at, "updated_at": at, "time_zone": time_zone,
                            "stakes": stakes or None}
    rows: Rows = [(ledger.CLUBS, club)]
    rows += [(MEMBERS, {
        "club_id": club_id, "id": m.id, "name": None if m.name is None else m.name.strip(),
        "key": None if m.name is None else name_key(m.name), "merged_into": m.merged_into,
        "removed_at": at if m.name is None else None, "created_at": at})
        for m in body.members]
    counted: list[ledger.Finished] = []
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
        try:
            folded = fold_match(game, set_up(game, list[JSON](played.players), played.options),
                                played.entries)
        except (InvalidEntry, InvalidOptions, MatchFinished) as error:
            problems += fold_problem(error, path)
            continue
        _check_finished(played.finished, folded, f"{path}.finished", seen, problems)
        match_id = new_id(MATCH_ID_BYTES)
        created_at = utc(played.created_at)
        played_at = created_at if played.played_at is None else utc(played.played_at)
        try:
            location = location_of(played.location)
            played_for = match_stakes.read_for(game, folded.setup, played.stakes, "stakes")
        except Unprocessable as refused:
            problems += [Fault(f"{path}.{fault.path}", fault.code, fault.text)
                         for fault in refused.errors]
            continue
        _match_rows(made_match(match_id, game, folded, played.private, auth.new_tokens(),
                               created_at, access.CLUB, played_at, location, played_for), rows)
        _club_match(club_id, match_id, game, folded, played.members, created_at,
                    played.finished if folded.finished else None, None, rows, counted,
                    played_at)
    for i, tournament in enumerate(body.tournaments):
        path = f"tournaments[{i}]"
        if problems:
            break
        try:
            rebuilt = rebuild(tournament.backup)
        except Unprocessable as refused:
            raise Unprocessable(refused.text, errors=[
                Fault(f"{path}.backup.{fault.path}", fault.code, fault.text)
                for fault in refused.errors]) from None
        tournament_id = rebuilt.row.id
        players = {p.player: p.member for p in tournament.players}
        _check_seats(members, [p.member for p in tournament.players], f"{path}.players",
                     problems)
        registered = {p.id for p in tournament.backup.players}
        if set(players) != registered:
            problems.append(Fault(f"{path}.players", "players_and_members", _(
                "Name the member of every player of the tournament, and only theirs.")))
            continue
        rows.append((TOURNAMENTS, rebuilt.row.model_dump()))
        rows += [(PLAYERS, p.model_dump()) for p in rebuilt.players]
        rows += [(ROUNDS, r.model_dump()) for r in rebuilt.rounds]
        finishes = {(f.round, f.table): f for f in tournament.finished}
        table_played: dict[str, datetime] = {}
        for table, made in zip(rebuilt.tables, rebuilt.matches, strict=True):
            found = finishes.get((table.round, table.table))
            if found is not None:  # played as the club counted it; no date is kept otherwise
                table_played[table.match_id] = utc(found.played_at or found.finished_at)
                made[0]["played_at"] = table_played[table.match_id]
            _match_rows(made, rows)
            rows.append((TABLES, table.model_dump()))
        rows.append((links.TOURNAMENTS, {"tournament_id": tournament_id, "club_id": club_id,
                                         "created_at": utc(tournament.created_at)}))
        rows += [(links.TOURNAMENT_PLAYERS, {"tournament_id": tournament_id, "player_id": player,
                                             "club_id": club_id, "member_id": member})
                 for player, member in sorted(players.items())]
        game = registry.game_by_id(tournament.backup.tournament.game)
        assert game is not None  # the rebuild checked it
        for (number, table_number), (row, folded) in rebuilt.restored.folds.items():
            finished = finishes.pop((number, table_number), None)
            _check_finished(finished, folded, f"{path}.finished[{number}/{table_number}]",
                            seen, problems)
            _club_match(club_id, row.match_id, game, folded, [players[p] for p in row.players],
                        at, finished if folded.finished else None, tournament_id, rows,
                        counted, table_played.get(row.match_id))
        if finishes:
            problems.append(Fault(f"{path}.finished", "unknown_table", _(
                "A finish names a table the tournament does not have.")))
    for i, season in enumerate(body.seasons, start=1):
        season_name = seasons.season_fields(season, f"seasons[{i - 1}].", problems)
        if season_name is not None:
            rows.append((seasons.SEASONS, seasons.season_row(club_id, i, season_name, season, at)))
    for i, payment in enumerate(body.payments):
        columns = kasse.payment_fields(payment, members, f"payments[{i}].", problems)
        if columns is not None:
            rows.append((PAYMENTS, {"club_id": club_id, "id": i + 1, **columns,
                                    "recorded_at": utc(payment.recorded_at), "device": None}))
    if problems:
        raise Unprocessable(_("The backup does not describe a club."), errors=problems)
    member_games, ratings = ledger.counted(club_id, counted)
    rows += [(ledger.MEMBER_GAMES, row) for row in member_games]
    rows += [(ledger.RATINGS, row) for row in ratings]
    club["finished"] = max((match.finish for match in counted), default=0)
    return _Planned(club_id, tokens, rows)


async def import_club(database: Database, body: bytes,
                      lease_seconds: float = imports.LEASE_SECONDS) -> tuple[str, bytes]:
    """``POST /clubs/import``: the backup in ``body`` stored as a new club; its id and the
    answer (a :class:`api.clubs.schemas.CreatedClub`) as JSON.

    Checked, folded, counted and rated in memory first (:func:`_plan`); then stored in short
    write transactions of :data:`ROWS_PER_WRITE` rows (:class:`api.shared.imports.Turns`), so that
    rounds of other tables are recorded in between. Until the last one gives the club its token
    hashes, the club answers nobody (404, as if it did not exist:
    :func:`api.clubs.service.load_club`), and nobody holds a token of its matches or
    tournaments. When a write fails, what was written is removed again. The caller runs this in
    the helper process for a big body (:mod:`api.server.offload`): decoding, checking and rating it
    are seconds of work. Its lease (:class:`api.shared.imports.Lease`, renewed every
    ``lease_seconds`` / 6) tells every server process on the database that it is alive, until
    the last write gives it back.
    """
    planned = _plan(decode_body(body, s.ClubBackup))
    turns = Turns(database, Lease(database, IMPORT, planned.club_id, lease_seconds))
    written: Rows = []
    try:
        for start in range(0, len(planned.rows), ROWS_PER_WRITE):
            part = planned.rows[start:start + ROWS_PER_WRITE]
            async with turns.write() as statements:
                await _store(statements, part)
            written += part
        async with turns.last() as statements:
            await _reveal(statements, planned)
    except BaseException:
        turns.undoing()
        await forget(turns, owners(written))
        await turns.undone()
        raise
    finally:
        await turns.stop()
    async with database.sessions() as session:
        view = await club_view(session, await load_club(session, planned.club_id))
    return planned.club_id, msgspec.json.encode(s.CreatedClub(
        **msgspec.structs.asdict(view), token=planned.tokens.write,
        view_token=planned.tokens.view))


async def sweep_unfinished(database: Database, lease_seconds: float = imports.LEASE_SECONDS,
                           *, everything: bool = True) -> int:
    """Remove every club an import left hidden (the server or its helper process killed
    mid-import) that nobody holds: no lease, or one without a heartbeat for ``lease_seconds``
    (:func:`api.shared.imports.sweep`); how many there were. ``everything`` as
    :func:`api.tournaments.backup.sweep_unfinished` has it: ``tafelrunde serve`` looks at every
    hidden club before it serves, a serving process every little while at stale leases."""
    if everything:
        hidden = _HIDDEN_CLUBS.subquery()
        found = await imports.candidates(
            database, imports.with_leases(IMPORT, hidden, hidden.c.id), lease_seconds)
    else:
        found = await imports.stale_leases(database, IMPORT, lease_seconds)

    async def remove(club_id: str) -> None:
        await forget(Turns(database), await _left_behind(database, [club_id]))

    return await imports.sweep(database, IMPORT, found, lease_seconds, remove)


async def _left_behind(database: Database, club_ids: list[str]) -> dict[Table, set[Any]]:
    """What imports left of the clubs ``club_ids`` that are still hidden, as :func:`owners`
    says it (a club revealed meanwhile is not touched)."""
    async with database.sessions() as session:
        clubs = set((await session.execute(_STILL_HIDDEN, {"clubs": club_ids})).scalars())
        if not clubs:
            return {}
        their = {"clubs": sorted(clubs)}
        matches = set((await session.execute(_THEIR_MATCHES, their)).scalars())
        tournaments = set((await session.execute(_THEIR_TOURNAMENTS, their)).scalars())
    return {table: clubs if table is ledger.CLUBS or column.name == "club_id" else
            matches if table is MATCHES or column.name == "match_id" else tournaments
            for table, column in OWNERS.items()}


async def _reveal(statements: Statements, planned: _Planned) -> None:
    """Give the club its token hashes: from now on it is there."""
    await statements.run(REVEAL, {"club_key": planned.club_id,
                                  "token_hash": auth.token_hash(planned.tokens.write),
                                  "view_token_hash": auth.token_hash(planned.tokens.view)})


def _by_table(rows: Rows) -> list[tuple[Table, list[dict[str, Any]]]]:
    """Rows grouped by table, in the order tables refer to each other."""
    grouped: dict[Table, list[dict[str, Any]]] = {table: [] for table in INSERTS}
    for table, row in rows:
        grouped[table].append(row)
    return [(table, found) for table, found in grouped.items() if found]


async def _store(statements: Statements, rows: Rows) -> None:
    for table, found in _by_table(rows):
        await statements.run(INSERTS[table], found)


def owners(rows: Rows) -> dict[Table, set[Any]]:
    """Per table, whom its rows of ``rows`` belong to (:data:`OWNERS`)."""
    found: dict[Table, set[Any]] = defaultdict(set)
    for table, row in rows:
        found[table].add(row[OWNERS[table].name])
    return found


async def forget(turns: Turns, owned: dict[Table, set[Any]]) -> None:
    """Remove every row of each table of ``owned`` that belongs to one of its owners there,
    the rows that refer to others first, in short writes."""
    for table in reversed(INSERTS):
        keys = sorted(owned.get(table, ()))
        for start in range(0, len(keys), ROWS_PER_WRITE):
            async with turns.write() as statements:
                await statements.run(FORGET[table], [{"owner_key": key} for key in
                                                     keys[start:start + ROWS_PER_WRITE]])
