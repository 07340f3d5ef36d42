"""A tournament's full backup as JSON, and its import as a new tournament.

The backup holds the settings, the players (with their ids), and every round with its report and
tables: players in seat order, confirmation, the device that entered, and the table's match as
players, options and round entries. Audit rows and tokens are not part of it.

Decisions: an import creates a new tournament with new ids and new tokens (answered like a
creation); every match is folded again from its entries, so a backup that was edited by hand
cannot smuggle in results that do not follow from its entries; standings are therefore identical
to the original's. Everything is checked before anything is stored, with paths into the backup
(``rounds[1].tables[3].match.entries[2].penalty``), and nothing is stored on any error.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import msgspec
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from api import auth
from api.db.models import MatchRow, RoundRow
from api.i18n import _, _n
from api.matches.service import now
from api.problems import Fault, Unprocessable
from api.tournaments import schemas as s
from api.tournaments.access import require_organiser
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
    load_tournament,
    new_match,
    player_name,
    players_of,
    rounds_of,
    tables_of,
    tournament_view,
)
from scoring.errors import InvalidEntry, InvalidOptions, MatchFinished
from scoring.match import FoldedMatch


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
    )
    return s.Backup(
        format="tafelrunde-tournament", version=1, tournament=settings,
        players=[s.BackupPlayer(p.id, p.name, p.club, p.active) for p in players],
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


async def import_backup(session: AsyncSession, body: s.Backup) -> s.CreatedTournament:
    restored = await restore(session, body)
    await session.commit()
    return restored.created


@dataclass(frozen=True, slots=True)
class Restored:
    """A tournament rebuilt from a backup (not committed yet), and its tables' folds."""

    created: s.CreatedTournament
    folds: dict[tuple[int, int], tuple[TournamentTableRow, FoldedMatch]]
    """By (round, table)."""


async def restore(session: AsyncSession, body: s.Backup, prefix: str = "") -> Restored:
    """Rebuild the tournament of ``body`` in the session's transaction; 422 with paths under
    ``prefix`` (``tournaments[0].backup.``, for a club's backup) when it cannot be."""
    try:
        return await _restore(session, body)
    except Unprocessable as refused:
        if not prefix:
            raise
        raise Unprocessable(refused.text, errors=[
            Fault(f"{prefix}{fault.path}", fault.code, fault.text) for fault in refused.errors
        ]) from None


async def _restore(session: AsyncSession, body: s.Backup) -> Restored:
    settings = body.tournament
    game = check_settings(settings, "tournament.")
    problems = _check_shape(body)
    roster = _roster(body, problems)
    if problems:
        raise Unprocessable(_("The backup does not describe a tournament."), errors=problems)
    tokens = auth.new_tokens()
    at = now()
    tournament_id = secrets.token_urlsafe(TOURNAMENT_ID_BYTES)
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
    )
    session.add(row)
    await session.flush()
    players = [TournamentPlayerRow(tournament_id=tournament_id, id=p.id, name=name, club=club,
                                   active=p.active)
               for p, (name, club) in zip(body.players, roster, strict=True)]
    session.add_all(players)
    await session.flush()
    rounds: list[TournamentRoundRow] = []
    tables: list[TournamentTableRow] = []
    folds: dict[tuple[int, int], tuple[TournamentTableRow, FoldedMatch]] = {}
    for i, played in enumerate(body.rounds):
        rounds.append(TournamentRoundRow(tournament_id=tournament_id, number=played.number,
                                         report=msgspec.to_builtins(played.report), started_at=at))
        session.add(rounds[-1])
        await session.flush()
        for j, table in enumerate(played.tables):
            path = f"rounds[{i}].tables[{j}].match"
            try:
                match, folded = await new_match(
                    session, game, table.match.players, table.match.options, settings.private,
                    tokens.write, table.match.entries, at)
            except (InvalidEntry, InvalidOptions, MatchFinished) as error:
                problems += fold_problem(error, path)
                continue
            if table.confirmed and not folded.finished:
                problems.append(Fault(f"rounds[{i}].tables[{j}].confirmed", "not_finished",
                                      _("Only a finished match can be confirmed.")))
            places, shares = table_result(game, folded)
            tables.append(TournamentTableRow(
                tournament_id=tournament_id, round=played.number, table=table.table,
                match_id=match.id, players=list(table.players), rounds_played=len(folded.rounds),
                finished=folded.finished, places=places, shares=shares,
                confirmed=table.confirmed, confirmed_by=table.confirmed_by if table.confirmed
                else None, entered_by_device=table.entered_by_device,
            ))
            folds[(played.number, table.table)] = (tables[-1], folded)
    if problems:
        raise Unprocessable(_("Some matches of the backup cannot have been played like this."),
                            errors=problems)
    session.add_all(tables)
    await session.flush()
    view = tournament_view(row, players, rounds, tables)
    return Restored(s.CreatedTournament(**msgspec.structs.asdict(view), token=tokens.write,
                                        view_token=tokens.view), folds)
