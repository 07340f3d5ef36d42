"""A tournament's full backup as JSON, and its import as a new tournament.

The backup holds the settings, the players (with their ids), and every round with its report and
tables: players in seat order, confirmation, the device that entered, and the table's match as
players, options and round entries; the check-in settings and who has paid. Audit rows,
tokens (players' too), the check-in code and the clock are not part of it: an import gets a new
code and a stopped clock.

Decisions: an import creates a new tournament with new ids and new tokens (answered like a
creation); every match is folded again from its entries, so a backup that was edited by hand
cannot smuggle in results that do not follow from its entries; standings are therefore identical
to the original's. Everything is checked before anything is stored, with paths into the backup
(``rounds[1].tables[3].match.entries[2].penalty``), and nothing is stored on any error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from sqlalchemy import BindParameter, Table, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import SQLModel, col

from api.db.database import Database
from api.db.models import MatchRow, RoundRow
from api.db.statements import Statements
from api.edge import auth
from api.edge.bodies import decode_body
from api.edge.problems import Fault, Unprocessable
from api.i18n import _, _n
from api.matches.service import (
    AUDIT,
    MATCH_ID_BYTES,
    MATCHES,
    made_match,
    now,
)
from api.matches.service import ROUNDS as MATCH_ROUNDS
from api.shared import imports
from api.shared.ids import new_id
from api.shared.imports import HIDDEN, Lease, Turns
from api.tournaments import clock
from api.tournaments import schemas as s
from api.tournaments.access import ORGANISER, require_organiser, table_tokens
from api.tournaments.models import (
    TournamentPlayerRow,
    TournamentRoundRow,
    TournamentRow,
    TournamentTableRow,
)
from api.tournaments.results import table_result
from api.tournaments.service import (
    TOURNAMENT_ID_BYTES,
    check_settings,
    club_name,
    fold_problem,
    insert_tables,
    load_tournament,
    new_check_in_code,
    player_name,
    players_of,
    rounds_of,
    tables_of,
    tournament_view,
)
from scoring.errors import InvalidEntry, InvalidOptions, MatchFinished
from scoring.match import FoldedMatch, fold_match, set_up
from scoring.reading import JSON


async def backup(session: AsyncSession, tournament_id: str,
                 authorization: str | None) -> s.Backup:
    row = await load_tournament(session, tournament_id)
    require_organiser(authorization, row)
    return await tournament_backup(session, row)


async def tournament_backup(session: AsyncSession, row: TournamentRow) -> s.Backup:
    """The backup of a tournament whose reader may have it (the organiser, or its club)."""
    tournament_id = row.id
    players = await players_of(session, tournament_id)
    tables = await tables_of(session, tournament_id)
    match_ids = [t.match_id for t in tables]
    matches = {m.id: m for m in (await session.execute(
        select(MatchRow).where(col(MatchRow.id).in_(match_ids)))).scalars()}
    entries: dict[str, list[object]] = {match_id: [] for match_id in match_ids}
    for match_id, entry in await session.execute(
        select(col(RoundRow.match_id), col(RoundRow.entry))
        .where(col(RoundRow.match_id).in_(match_ids))
        .order_by(col(RoundRow.match_id), col(RoundRow.number))
    ):
        entries[match_id].append(entry)
    by_round: dict[int, list[s.BackupTable]] = {}
    for table in tables:
        match = matches[table.match_id]
        by_round.setdefault(table.round, []).append(s.BackupTable(
            table=table.table, players=list(table.players), confirmed=table.confirmed,
            confirmed_by=table.confirmed_by,  # type: ignore[arg-type]
            entered_by_device=table.entered_by_device,
            match=s.BackupMatch(players=list(match.players), options=match.options,
                                entries=entries[table.match_id]),
        ))
    settings = s.BackupSettings(
        name=row.name, game=row.game, options=row.options, rounds=row.rounds,
        table_size=row.table_size, seating=row.seating,  # type: ignore[arg-type]
        seed=row.seed, points=msgspec.convert(row.points, s.Points),
        tiebreaks=row.tiebreaks, hide_standings=row.hide_standings, private=row.private,
        check_in=row.check_in, late_check_in=row.late_check_in, warn_minutes=row.warn_minutes,
    )
    return s.Backup(
        format="tafelrunde-tournament", version=1, tournament=settings,
        players=[s.BackupPlayer(p.id, p.name, p.club, p.active, p.paid) for p in players],
        rounds=[s.BackupRound(r.number, msgspec.convert(r.report, s.Report),
                              by_round.get(r.number, []))
                for r in await rounds_of(session, tournament_id)],
        exported_at=now(),
    )


def _roster(body: s.Backup, problems: list[Fault]) -> list[tuple[str, str | None]]:
    """Each player's name and club as they are stored; what is wrong goes to ``problems``."""
    roster = [(player_name(p.name, f"players[{i}].name", problems) or "",
               club_name(p.club, f"players[{i}].club", problems))
              for i, p in enumerate(body.players)]
    names = [name.casefold() for name, _club in roster if name]
    if len(set(names)) != len(names):
        problems.append(Fault("players", "duplicate_name",
                              _("Every player needs a name, and no two the same.")))
    return roster


def _check_shape(body: s.Backup) -> list[Fault]:
    """Ids, numbering and seats that must agree before any match is folded."""
    problems: list[Fault] = []
    ids = [p.id for p in body.players]
    if len(set(ids)) != len(ids):
        problems.append(Fault("players", "duplicate_player",
                              _("Every player needs an id of their own.")))
    if len(body.rounds) > body.tournament.rounds:
        problems.append(Fault("rounds", "too_many_rounds", _n(
            "The tournament has only 1 round.", "The tournament has only {count} rounds.",
            count=body.tournament.rounds, maximum=body.tournament.rounds)))
    known = set(ids)
    for i, played in enumerate(body.rounds):
        path = f"rounds[{i}]"
        if played.number != i + 1:
            problems.append(Fault(f"{path}.number", "round_number", _(
                "This is round {expected}.", expected=i + 1)))
        if not played.tables:
            problems.append(Fault(f"{path}.tables", "too_short", _("A round needs tables.")))
        if i + 1 < len(body.rounds) and not all(t.confirmed for t in played.tables):
            problems.append(Fault(f"{path}.tables", "round_incomplete",
                                  _("Every table of a round before the last must be confirmed.")))
        seated: set[int] = set()
        for j, table in enumerate(played.tables):
            where = f"{path}.tables[{j}]"
            if table.table != j + 1:
                problems.append(Fault(f"{where}.table", "table_number", _(
                    "This is table {expected}.", expected=j + 1)))
            if not set(table.players) <= known or seated & set(table.players) or \
                    len(set(table.players)) != len(table.players):
                problems.append(Fault(f"{where}.players", "unknown_or_repeated_player",
                                      _("Each registered player sits at one table per round.")))
            seated |= set(table.players)
            if len(table.match.players) != len(table.players):
                problems.append(Fault(f"{where}.match.players", "wrong_length", _n(
                    "The match at this table needs 1 name.",
                    "The match at this table needs {count} names, one per player.",
                    count=len(table.players), expected=len(table.players))))
    return problems


@dataclass(frozen=True, slots=True)
class Restored:
    """A tournament rebuilt from a backup (not committed yet), and its tables' folds."""

    created: s.CreatedTournament
    folds: dict[tuple[int, int], tuple[TournamentTableRow, FoldedMatch]]
    """By (round, table)."""


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """A tournament rebuilt from a backup in memory: every row to store, nothing stored yet."""

    restored: Restored
    row: TournamentRow
    players: list[TournamentPlayerRow]
    rounds: list[TournamentRoundRow]
    tables: list[TournamentTableRow]
    matches: list[tuple[dict[str, Any], list[dict[str, Any]]]]
    """Per table, in the order of ``tables``: the match's row, then its rounds and audit."""


def rebuild(body: s.Backup) -> Rebuilt:
    """Everything checked and folded; 422 with paths into the backup when it cannot be."""
    settings = body.tournament
    game = check_settings(settings, "tournament.")
    problems = _check_shape(body)
    roster = _roster(body, problems)
    if problems:
        raise Unprocessable(_("The backup does not describe a tournament."), errors=problems)
    tokens = auth.new_tokens()
    at = now()
    tournament_id = new_id(TOURNAMENT_ID_BYTES)
    finished = len(body.rounds) == settings.rounds and all(
        t.confirmed for t in body.rounds[-1].tables)
    row = TournamentRow(
        id=tournament_id, name=settings.name.strip(), game=game.id, options=settings.options,
        rounds=settings.rounds, table_size=settings.table_size, seating=settings.seating,
        seed=settings.seed, points=msgspec.to_builtins(settings.points),
        tiebreaks=list(settings.tiebreaks), hide_standings=settings.hide_standings,
        private=settings.private, organiser_token_hash=auth.token_hash(tokens.write),
        view_token_hash=auth.token_hash(tokens.view),
        status="finished" if finished else "running" if body.rounds else "registering",
        current_round=len(body.rounds), version=1, created_at=at, updated_at=at,
        check_in=settings.check_in, late_check_in=settings.late_check_in,
        check_in_code=new_check_in_code() if settings.check_in else None,
        warn_minutes=settings.warn_minutes,
    )
    players = [TournamentPlayerRow(tournament_id=tournament_id, id=p.id, name=name, club=club,
                                   active=p.active, paid=p.paid)
               for p, (name, club) in zip(body.players, roster, strict=True)]
    rounds = [TournamentRoundRow(tournament_id=tournament_id, number=played.number,
                                 report=msgspec.to_builtins(played.report), started_at=at)
              for played in body.rounds]
    tables: list[TournamentTableRow] = []
    matches: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    folds: dict[tuple[int, int], tuple[TournamentTableRow, FoldedMatch]] = {}
    for i, played in enumerate(body.rounds):
        for j, table in enumerate(played.tables):
            path = f"rounds[{i}].tables[{j}].match"
            try:
                folded = fold_match(game, set_up(game, list[JSON](table.match.players),
                                                 table.match.options), table.match.entries)
            except (InvalidEntry, InvalidOptions, MatchFinished) as error:
                problems += fold_problem(error, path)
                continue
            if table.confirmed and not folded.finished:
                problems.append(Fault(f"rounds[{i}].tables[{j}].confirmed", "not_finished",
                                      _("Only a finished match can be confirmed.")))
            match_id = new_id(MATCH_ID_BYTES)
            matches.append(made_match(match_id, game, folded, settings.private,
                                      table_tokens(tokens.write, match_id), at, ORGANISER))
            places, shares = table_result(game, folded)
            tables.append(TournamentTableRow(
                tournament_id=tournament_id, round=played.number, table=table.table,
                match_id=match_id, players=list(table.players), rounds_played=len(folded.rounds),
                finished=folded.finished, places=places, shares=shares,
                confirmed=table.confirmed, confirmed_by=table.confirmed_by if table.confirmed
                else None, entered_by_device=table.entered_by_device,
            ))
            folds[(played.number, table.table)] = (tables[-1], folded)
    if problems:
        raise Unprocessable(_("Some matches of the backup cannot have been played like this."),
                            errors=problems)
    view = tournament_view(row, players, rounds, tables, ORGANISER)
    created = s.CreatedTournament(**{**msgspec.structs.asdict(view),
                                     "clock": clock.view(None, at)}, token=tokens.write,
                                  view_token=tokens.view)
    return Rebuilt(Restored(created, folds), row, players, rounds, tables, matches)


# --- importing in short writes ------------------------------------------------------------------

BIG_BACKUP_BYTES = 64 * 1024
"""A backup larger than this is imported in the helper process (:mod:`api.server.offload`): decoding
and checking 64 KiB is about 20 ms of work on a small machine, a 16 MiB one several seconds."""
TABLES_PER_WRITE = 250
"""Tables (each with its match, rounds and audit row) stored per write transaction: a few tens
of milliseconds of SQLite's write lock on a small machine."""
PLAYERS_PER_WRITE = 2_000

TOURNAMENTS: Table = SQLModel.metadata.tables[TournamentRow.__tablename__]
PLAYERS: Table = SQLModel.metadata.tables[TournamentPlayerRow.__tablename__]
ROUNDS: Table = SQLModel.metadata.tables[TournamentRoundRow.__tablename__]
TABLES: Table = SQLModel.metadata.tables[TournamentTableRow.__tablename__]
INSERT_TOURNAMENT, INSERT_PLAYERS, INSERT_ROUNDS = (
    TOURNAMENTS.insert(), PLAYERS.insert(), ROUNDS.insert())
# Parameter names no column has: an UPDATE would set a column its parameter names.
_HIDDEN: BindParameter[str] = bindparam("hidden_id")
_ID: BindParameter[str] = bindparam("revealed_id")
_REVEAL = (
    TOURNAMENTS.insert().from_select(
        [c.name for c in TOURNAMENTS.c],
        select(*(_ID.label("id") if c.name == "id" else c for c in TOURNAMENTS.c))
        .where(TOURNAMENTS.c.id == _HIDDEN)),
    ROUNDS.insert().from_select(
        [c.name for c in ROUNDS.c],
        select(*(_ID.label("tournament_id") if c.name == "tournament_id" else c
                 for c in ROUNDS.c)).where(ROUNDS.c.tournament_id == _HIDDEN)),
    TABLES.update().where(TABLES.c.tournament_id == _HIDDEN).values(tournament_id=_ID),
    PLAYERS.update().where(PLAYERS.c.tournament_id == _HIDDEN).values(tournament_id=_ID),
    ROUNDS.delete().where(ROUNDS.c.tournament_id == _HIDDEN),
    TOURNAMENTS.delete().where(TOURNAMENTS.c.id == _HIDDEN),
)
_FORGOTTEN: BindParameter[str] = bindparam("forgotten_id")
_FORGET_MATCHES = (AUDIT.delete().where(AUDIT.c.match_id == _FORGOTTEN),
                   MATCH_ROUNDS.delete().where(MATCH_ROUNDS.c.match_id == _FORGOTTEN),
                   MATCHES.delete().where(MATCHES.c.id == _FORGOTTEN))
_SWEEP_TABLES = (TABLES.delete().where(TABLES.c.match_id == _FORGOTTEN), *_FORGET_MATCHES)
_HIDDEN_TOURNAMENTS = select(TOURNAMENTS.c.id).where(TOURNAMENTS.c.id.startswith(HIDDEN)).union(
    select(TABLES.c.tournament_id).where(TABLES.c.tournament_id.startswith(HIDDEN)))
_HIDDEN_TABLES = select(TABLES.c.match_id).where(TABLES.c.tournament_id == _HIDDEN).limit(
    TABLES_PER_WRITE)
_FORGET = (
    TABLES.delete().where(TABLES.c.tournament_id == _HIDDEN),
    PLAYERS.delete().where(PLAYERS.c.tournament_id == _HIDDEN),
    ROUNDS.delete().where(ROUNDS.c.tournament_id == _HIDDEN),
    TOURNAMENTS.delete().where(TOURNAMENTS.c.id == _HIDDEN),
)


def _columns(row: SQLModel) -> dict[str, Any]:
    return row.model_dump()


IMPORT = "tournament"
"""The kind of a tournament import's lease (:class:`api.shared.imports.Lease`), whose key is
the hidden id."""


async def import_tournament(database: Database, body: bytes,
                            lease_seconds: float = imports.LEASE_SECONDS) -> tuple[str, bytes]:
    """``POST /tournaments/import``: the backup in ``body`` stored as a new tournament; its id
    and the answer (a :class:`api.tournaments.schemas.CreatedTournament`) as JSON.

    A big backup is stored in short write transactions (:data:`TABLES_PER_WRITE`), so that
    rounds of other tables are recorded in between, under a hidden id (:data:`HIDDEN`) until the
    last one, which gives the tournament its id: nobody sees it half imported. When a write
    fails, what was written is removed again. The caller runs this in the helper process for a
    big body (:mod:`api.server.offload`): decoding, checking and folding it are seconds of work.
    Its lease (:class:`api.shared.imports.Lease`, renewed every ``lease_seconds`` / 6) tells
    every server process on the database that it is alive, until the last write gives it
    back.
    """
    rebuilt = rebuild(decode_body(body, s.Backup))
    tournament_id = rebuilt.row.id
    hidden = HIDDEN + tournament_id
    turns = Turns(database, Lease(database, IMPORT, hidden, lease_seconds))
    written: list[str] = []
    try:
        first = {**_columns(rebuilt.row), "id": hidden}
        players = [{**_columns(p), "tournament_id": hidden} for p in rebuilt.players]
        async with turns.write() as statements:
            await statements.run(INSERT_TOURNAMENT, first)
            await statements.run(INSERT_ROUNDS, [{**_columns(r), "tournament_id": hidden}
                                                   for r in rebuilt.rounds])
        for start in range(0, len(players), PLAYERS_PER_WRITE):
            async with turns.write() as statements:
                await statements.run(INSERT_PLAYERS, players[start:start + PLAYERS_PER_WRITE])
        for start in range(0, len(rebuilt.tables), TABLES_PER_WRITE):
            part = slice(start, start + TABLES_PER_WRITE)
            async with turns.write() as statements:
                await insert_tables(statements, [_columns(t) for t in rebuilt.tables[part]],
                                    rebuilt.matches[part], hidden)
            written += [t.match_id for t in rebuilt.tables[part]]
        async with turns.last() as statements:
            await _reveal(statements, hidden, tournament_id)
    except BaseException:
        turns.undoing()
        await _forget(turns, hidden, written)
        await turns.undone()
        raise
    finally:
        await turns.stop()
    return tournament_id, msgspec.json.encode(rebuilt.restored.created)


async def _reveal(statements: Statements, hidden: str, tournament_id: str) -> None:
    """Give the hidden tournament its id: one transaction, statements the database runs."""
    named = {"hidden_id": hidden, "revealed_id": tournament_id}
    for statement in _REVEAL:
        await statements.run(statement, named)


async def _forget(turns: Turns, hidden: str, match_ids: list[str]) -> None:
    """Remove what an import that failed had written: its tournament rows, then its matches."""
    async with turns.write() as statements:
        for statement in _FORGET:
            await statements.run(statement, {"hidden_id": hidden})
    for start in range(0, len(match_ids), TABLES_PER_WRITE):
        ids = [{"forgotten_id": i} for i in match_ids[start:start + TABLES_PER_WRITE]]
        async with turns.write() as statements:
            for statement in _FORGET_MATCHES:
                await statements.run(statement, ids)


async def sweep_unfinished(database: Database, lease_seconds: float = imports.LEASE_SECONDS,
                           *, everything: bool = True) -> int:
    """Remove what imports left that never finished (the server or its helper process killed
    mid-import: :func:`_forget` never ran) and nobody holds: no lease, or one without a
    heartbeat for ``lease_seconds`` (:func:`api.shared.imports.sweep`); how many tournaments
    there were.

    ``everything``: every hidden tournament (``tafelrunde serve`` before it serves: imports
    from before leases too); else only those with a stale lease (a server's sweep while it
    serves, which reads the small lease table only). An import of another server on the
    same database, alive, is left alone. A part of the tables at a time, each with its
    matches, so that a sweep stopped in turn leaves nothing the next one cannot find."""
    if everything:
        hidden = _HIDDEN_TOURNAMENTS.subquery()
        found = await imports.candidates(
            database, imports.with_leases(IMPORT, hidden, hidden.c.id), lease_seconds)
    else:
        found = await imports.stale_leases(database, IMPORT, lease_seconds)
    return await imports.sweep(database, IMPORT, found, lease_seconds,
                               lambda tournament: _sweep_one(database, tournament))


async def _sweep_one(database: Database, tournament: str) -> None:
    ids: list[dict[str, Any]] = [{}]
    while ids:
        async with database.write() as statements:
            ids = [{"forgotten_id": row[0]} for row in await statements.all(
                _HIDDEN_TABLES, {"hidden_id": tournament})]
            if ids:
                for statement in _SWEEP_TABLES:
                    await statements.run(statement, ids)
    async with database.write() as statements:
        for statement in _FORGET:
            await statements.run(statement, {"hidden_id": tournament})
