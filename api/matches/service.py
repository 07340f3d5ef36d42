"""Match storage around the scoring fold.

Every write locks the match row (PostgreSQL ``SELECT ... FOR UPDATE``; SQLite holds the database
write lock from ``BEGIN IMMEDIATE``), folds the complete new list of entries, stores the entries,
each round's result and totals and the match's verdict, appends an audit row and commits, all in
one transaction (:meth:`api.db.database.Database.write`); only then is the change published to
live subscribers. One exception, on PostgreSQL: a new round is folded onto the rounds of the
match as this process wrote it last (or, when it keeps no such write or another process wrote
the match since, as one unlocked statement reads it stored, :func:`match_as_stored`) and stored
in one statement that writes only if the match is still at that version
(:func:`round_in_one_statement`): a dozen round trips to the database become one or two;
whenever it writes nothing, the locked way runs. Each write also stores the match's
new snapshot (the ``GET`` answer), so reading a match is reading one row.

The statements are Core statements defined once below, with every value a named parameter, so
that each is compiled once and runs the same way on the event loop's SQLite connection and
through the engine (:mod:`api.db.statements`).

Decisions: a correction that leaves the corrected entry valid but makes a *later* stored round
invalid, or ends the match before later rounds, is 409 (the request conflicts with the rounds
after it; ``errors`` then name the later round's fields under ``rounds[k]``). Idempotency keys
store only successful responses: a failed request changed nothing and fails the same way again.
The version starts at 1 and grows by one with every write.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from datetime import UTC, datetime
from enum import Enum, auto
from functools import cache
from typing import Any

import msgspec
from sqlalchemy import (
    Boolean,
    Integer,
    Select,
    Table,
    Text,
    bindparam,
    cast,
    delete,
    exists,
    func,
    insert,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.dml import Insert
from sqlalchemy.sql.selectable import CTE
from sqlalchemy.types import JSON as JSONColumn
from sqlmodel import SQLModel, col

from api.db.database import Database
from api.db.models import AuditRow, IdempotencyRow, MatchRow, RoundRow
from api.db.statements import EngineStatements, Row, Statements
from api.edge import auth
from api.edge.problems import (
    NO_SUCH_GAME,
    Conflict,
    Fault,
    Forbidden,
    NotFound,
    PreconditionFailed,
    Unauthorized,
    Unprocessable,
    field_problems,
    unknown_game,
)
from api.i18n import Phrase, _, _n
from api.matches import schemas as s
from api.matches import stakes
from api.matches.folds import MatchRecord, RecentFolds, Stored
from api.matches.owners import NOBODY, Announcement, MatchWriter, Owners, Sender, TokenWriter
from api.matches.played import location_of, played_at_of
from api.shared.ids import new_id
from api.shared.live import Broker, Change
from scoring import registry
from scoring.errors import InvalidEntry, InvalidOptions, MatchFinished
from scoring.game import AnyGame, FinishedByHand, game_key
from scoring.match import FoldedMatch, fold_match, names_of, set_up
from scoring.messages import Names, Wording
from scoring.reading import JSON

MATCH_ID_BYTES = 9  # 12 url-safe characters
MATCHES: Table = SQLModel.metadata.tables[MatchRow.__tablename__]
ROUNDS: Table = SQLModel.metadata.tables[RoundRow.__tablename__]
AUDIT: Table = SQLModel.metadata.tables[AuditRow.__tablename__]
IDEMPOTENCY: Table = SQLModel.metadata.tables[IdempotencyRow.__tablename__]

MATCH_RECORD = select(*(MATCHES.c[field.name] for field in fields(MatchRecord))).where(
    MATCHES.c.id == bindparam("match_id"))
MATCH_RECORD_FOR_WRITE = MATCH_RECORD.with_for_update()
ENTRIES = select(ROUNDS.c.entry).where(
    ROUNDS.c.match_id == bindparam("match_id")).order_by(ROUNDS.c.number)
INSERT_MATCH = insert(MATCHES)
UPDATE_MATCH = update(MATCHES).where(MATCHES.c.id == bindparam("match_id"))
INSERT_ROUND = insert(ROUNDS)
_THIS_ROUND = (ROUNDS.c.match_id == bindparam("round_match"),
               ROUNDS.c.number == bindparam("round_number"))
UPDATE_ROUND = update(ROUNDS).where(*_THIS_ROUND)
DELETE_ROUND = delete(ROUNDS).where(*_THIS_ROUND)
INSERT_AUDIT = insert(AUDIT)
IDEMPOTENT_ANSWER = select(IDEMPOTENCY.c.fingerprint, IDEMPOTENCY.c.status, IDEMPOTENCY.c.body) \
    .where(IDEMPOTENCY.c.match_id == bindparam("match_id"),
           IDEMPOTENCY.c.key == bindparam("key"))
INSERT_IDEMPOTENT_ANSWER = insert(IDEMPOTENCY)


@cache
def round_in_one_statement(owners: Owners, idempotent: bool) -> Select[int]:
    """Record a round in one statement, for a match whose state this process knows
    (:meth:`RecentFolds.last_written`; PostgreSQL, :meth:`Database.write_one`): the match row
    gets its new version and snapshot only if it is still at the version known, and the round,
    the audit record and the idempotency record are inserted only if it did. Its one row counts
    the match rows written: 0 when the locked way must be taken instead, because another write
    came first, this ``Idempotency-Key`` was used already, the match is a tournament's table
    (its writes lock the tournament), or the round finishes a club's match (the club's
    statistics change with it): whatever its ``owners`` lock (:attr:`api.matches.owners.
    MatchOwner.locks_every_write`). Parameters: the match's new columns as ``set_<column>``
    (:data:`MATCH_WRITTEN`), ``known_version``, ``finishes``, the new round's ``round_*``, the
    audit's ``at``, ``token_kind`` and ``no_entry`` (None), and with ``idempotent`` the
    idempotency record's ``key``, ``fingerprint`` and ``answer``."""
    match_id = bindparam("match_id", type_=MATCHES.c.id.type)
    conditions = [
        MATCHES.c.id == match_id, MATCHES.c.version == bindparam("known_version"),
        *(~owner.keeps(match_id) if owner.locks_every_write
          else or_(~bindparam("finishes", type_=Boolean), ~owner.keeps(match_id))
          for owner in owners.owners),
    ]
    if idempotent:
        conditions.append(~exists().where(IDEMPOTENCY.c.match_id == match_id,
                                          IDEMPOTENCY.c.key == bindparam("key")))
    written = update(MATCHES).where(*conditions).values({
        name: bindparam(f"set_{name}", type_=MATCHES.c[name].type) for name in MATCH_WRITTEN
    }).returning(MATCHES.c.id).cte("written")
    ctes = [
        _for_the_match(written, ROUNDS, {"number": "round_number", "entry": "round_entry",
                                         "result": "round_result", "totals": "round_totals"}),
        _for_the_match(written, AUDIT, {
            "at": "at", "action": literal("round_added"), "round": "round_number",
            "old_entry": "no_entry", "new_entry": "round_entry", "token_kind": "token_kind"}),
    ]
    if idempotent:
        ctes.append(_for_the_match(written, IDEMPOTENCY, {
            "key": "key", "fingerprint": "fingerprint", "status": literal(201, Integer),
            "body": "answer"}))
    return select(func.count()).select_from(written).add_cte(
        *(insert.cte(f"inserted_{insert.table.name}") for insert in ctes))


def _for_the_match(match: CTE, table: Table, values: dict[str, Any]) -> Insert:
    """``INSERT INTO table (match_id, ...) SELECT id, ... FROM match``: a row only if the match
    row was written. ``values``: each column's parameter name, or an expression."""
    return insert(table).from_select(["match_id", *values], select(match.c.id, *(
        bindparam(name, type_=table.c[column].type) if isinstance(name, str) else name
        for column, name in values.items())))


def _match_made_in_one_statement() -> Insert:
    """Make a match (PostgreSQL, :meth:`Database.write_one`): its row and its creation's audit
    record in one statement. Parameters: every column as ``set_<column>``, the audit's ``at``
    and ``no_entry`` (None)."""
    made = insert(MATCHES).values({
        column.name: bindparam(f"set_{column.name}", type_=column.type) for column in MATCHES.c
    }).returning(MATCHES.c.id).cte("made")
    return _for_the_match(made, AUDIT, {
        "at": "at", "action": literal("create"), "round": literal(None, Integer),
        "old_entry": "no_entry", "new_entry": "no_entry",
        "token_kind": literal(auth.MATCH_TOKEN)}).add_cte(made)


MATCH_WRITTEN = ("version", "status", "winners", "reason", "standings", "next_dealer",
                 "updated_at", "snapshot")
"""The columns of a match row a write changes (:func:`match_columns`)."""
MATCH_MADE_IN_ONE_STATEMENT = _match_made_in_one_statement()


@cache
def match_as_stored(owners: Owners) -> Select[Any]:
    """A match's record and its entries in order, in one statement without a lock (PostgreSQL:
    a round of a match this process does not keep, written in one statement from what this
    reads); no row for a match an owner locks every write of (a tournament's table), whose
    rounds are never written that way."""
    return select(
        *MATCH_RECORD.selected_columns,
        select(func.coalesce(func.json_agg(aggregate_order_by(ROUNDS.c.entry, ROUNDS.c.number)),
                             cast(literal("[]"), JSONColumn)))
        .where(ROUNDS.c.match_id == MATCHES.c.id).scalar_subquery().label("entries"),
    ).where(MATCHES.c.id == bindparam("match_id"), *(
        ~owner.keeps(MATCHES.c.id) for owner in owners.owners if owner.locks_every_write))


# Everything a read of a match needs, in one statement; the snapshot as the JSON text it was
# stored as (``CAST``: PostgreSQL's driver would otherwise decode it).
READ_SNAPSHOT = select(
    MATCHES.c.private, MATCHES.c.write_token_hash, MATCHES.c.view_token_hash, MATCHES.c.version,
    cast(MATCHES.c.snapshot, Text).label("snapshot"),
).where(MATCHES.c.id == bindparam("match_id"))


def no_match(match_id: str) -> Phrase:
    return _('There is no match "{id}".', id=match_id)


def _names_given(players: Sequence[str], options: Any) -> Names:
    """The seats of a match not yet created, for its option errors (``teams``)."""
    return Names([name.strip() for name in players], options=options
                 if isinstance(options, dict) else {})


def now() -> datetime:
    return datetime.now(UTC)


def utc(moment: datetime) -> datetime:
    """SQLite hands timestamps back without their zone; they were stored in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def unwrap_entry(body: dict[str, Any]) -> JSON:
    """The round entry of a body: the body itself, or ``body["entry"]`` if that is its only key."""
    if set(body) == {"entry"} and isinstance(body["entry"], dict):
        entry: JSON = body["entry"]
        return entry
    return body


def fingerprint(method: str, path: str, body: Any) -> str:
    canonical = msgspec.json.encode(body, order="sorted")
    return hashlib.sha256(f"{method} {path}\n".encode() + canonical).hexdigest()


def _names_version(record: MatchRecord, if_match: str | None) -> bool:
    """``If-Match`` is absent, ``*``, or names the version (``"7"``, ``W/"7"``, ``7``)."""
    if if_match is None or if_match.strip() == "*":
        return True
    return if_match.strip().removeprefix("W/").strip('"') == str(record.version)


def _check_version(record: MatchRecord, if_match: str | None) -> None:
    """412 unless ``If-Match`` names the version (:func:`_names_version`).

    Anything else cannot name the current version, so it fails the precondition like a stale one.
    """
    if not _names_version(record, if_match):
        assert if_match is not None
        raise PreconditionFailed(_(
            "The match has changed in the meantime (it is at version {version}, not {given}): "
            "load it again first.", version=record.version, given=if_match.strip()))


def _game(game_id: str) -> AnyGame:
    game = registry.game_by_id(game_id)
    if game is None:
        raise NotFound(_('The game "{game}" of this match is not known to this server.',
                         game=game_id))
    return game


async def load(statements: Statements, match_id: str, *, for_write: bool = False,
               entries: bool = False) -> Stored:
    """The match (locked for the transaction ``for_write``), with its entries if asked."""
    row = await statements.one(MATCH_RECORD_FOR_WRITE if for_write else MATCH_RECORD,
                               {"match_id": match_id})
    if row is None:
        raise NotFound(no_match(match_id))
    record = MatchRecord(*row)
    game = _game(record.game)
    if not entries:
        return Stored(record, game)
    stored_entries = await statements.all(ENTRIES, {"match_id": match_id})
    return Stored(record, game, tuple(entry for (entry,) in stored_entries))


async def _load_for_writing(statements: Statements, owners: Owners, match_id: str,
                            authorization: str | None) -> tuple[Stored, MatchWriter]:
    """The match with its entries, locked, and who may write it (401/403 otherwise): its own
    token, or its owners' (:meth:`Owners.writer`)."""
    stored = await load(statements, match_id, for_write=True, entries=True)
    writer = await owners.writer(statements, match_id, stored.record.write_token_hash,
                                 authorization)
    return stored, writer


def _reason(raw: Any) -> s.Reason | None:
    return None if raw is None else msgspec.convert(raw, s.Reason)


def match_columns(record: MatchRecord, version: int, folded: FoldedMatch,
                  at: datetime) -> tuple[dict[str, Any], list[dict[str, JSON]]]:
    """What a write at ``version`` stores in the match row (the version, the fold's verdict and
    the new snapshot), and every round's JSON. Every writer of a match row stores these."""
    verdict = folded.verdict
    rounds = [played.as_json() for played in folded.rounds]
    status = "finished" if verdict.finished else "in_progress"
    reason = verdict.reason.as_json() if verdict.reason else None
    standings = [standing.as_json() for standing in verdict.standings]
    snapshot = s.Match(
        id=record.id, game=record.game,
        players=[s.MatchPlayer(seat, name) for seat, name in enumerate(record.players)],  # type: ignore[arg-type]
        options=record.options, private=record.private, status=status,  # type: ignore[arg-type]
        winners=list(verdict.winners), reason=_reason(reason), next_dealer=folded.next_dealer,
        rounds=[s.MatchRound(**played) for played in rounds],  # type: ignore[arg-type]
        standings=standings, version=version,
        created_at=utc(record.created_at), updated_at=at, played_at=utc(record.played_at),
        location=record.location, stakes=stakes.answer(record.stakes),
        settlement=stakes.settlement(_game(record.game), folded, record.stakes),
    )
    columns = {"version": version, "status": status, "winners": snapshot.winners,
               "reason": reason, "standings": standings, "next_dealer": folded.next_dealer,
               "updated_at": at, "snapshot": snapshot}
    return columns, rounds


def new_match_row(record: MatchRecord, folded: FoldedMatch,
                  at: datetime) -> tuple[dict[str, Any], list[dict[str, JSON]]]:
    """Every column of a new match's row, and every round's JSON."""
    columns, rounds = match_columns(record, record.version, folded, at)
    return {**asdict(record), **columns}, rounds


def _round_written(columns: dict[str, Any], played: dict[str, JSON]) -> s.RoundWritten:
    match: s.Match = columns["snapshot"]
    return s.RoundWritten(
        number=played["number"], entry=played["entry"],  # type: ignore[arg-type]
        result=played["result"], totals=played["totals"],  # type: ignore[arg-type]
        version=match.version, status=match.status, winners=match.winners, reason=match.reason,
        next_dealer=match.next_dealer, standings=match.standings, settlement=match.settlement,
    )


def made_match(match_id: str, game: AnyGame, folded: FoldedMatch, private: bool,
               tokens: auth.TokenPair, at: datetime, token_kind: str,
               played_at: datetime | None = None, location: str | None = None,
               stakes: JSON = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The rows of a match made whole at once (a tournament's table, an imported backup's
    match): its own, then its rounds' and its creation's audit (to insert in this order).
    ``played_at`` defaults to ``at``; ``stakes`` stored (:func:`api.matches.stakes.stored`)."""
    record = MatchRecord(
        id=match_id, game=game.id, players=list(folded.setup.players),
        options=game.options_json(folded.setup.options), private=private,
        write_token_hash=auth.token_hash(tokens.write),
        view_token_hash=auth.token_hash(tokens.view), version=1 + len(folded.rounds),
        created_at=at, played_at=at if played_at is None else played_at, location=location,
        stakes=stakes,
    )
    columns, rounds = new_match_row(record, folded, at)
    return columns, [
        *({"match_id": match_id, "number": number, "entry": played["entry"],
           "result": played["result"], "totals": played["totals"]}
          for number, played in enumerate(rounds, start=1)),
        {"match_id": match_id, "at": at, "action": "create", "token_kind": token_kind},
    ]


async def add_match(session: AsyncSession, match_id: str, game: AnyGame, names: Sequence[str],
                    options: Any, private: bool, tokens: auth.TokenPair,
                    entries: Sequence[Any], at: datetime,
                    token_kind: str) -> tuple[MatchRow, FoldedMatch]:
    """A match made whole at once (:func:`made_match`) in the session's transaction.

    Raises the scoring package's ``InvalidOptions``, ``InvalidEntry`` or ``MatchFinished``.
    """
    folded = fold_match(game, set_up(game, list[JSON](names), options), entries)
    columns, rows = made_match(match_id, game, folded, private, tokens, at, token_kind)
    match = MatchRow(**columns)
    session.add(match)
    await session.flush()  # the unit of work does not order rows of unrelated models
    *rounds, audit = rows
    session.add(AuditRow(**audit))
    session.add_all(RoundRow(**played) for played in rounds)
    return match, folded


async def create_match(database: Database, folds: RecentFolds, owners: Owners,
                       body: s.NewMatch, authorization: str | None = None) -> s.CreatedMatch:
    """A new match; with ``club`` its host's (:class:`api.matches.owners.MatchHost`: the
    club's, its players the club's members, club token). Without ``stakes`` it takes its host's
    default stakes for the game, if any and if the setup is priced by anything."""
    game = registry.game_by_id(body.game)
    if game is None:
        raise Unprocessable(NO_SUCH_GAME, errors=[unknown_game("game", body.game)])
    try:
        setup = set_up(game, list(body.players), body.options)
    except InvalidOptions as invalid:
        raise Unprocessable(_("The players or options do not fit this game."),
                            errors=field_problems(invalid.errors, names=_names_given(
                                body.players, body.options))) from None
    at = now()
    played_at = played_at_of(body.played_at, at)
    location = location_of(body.location)
    stakes_given = stakes.read_for(game, setup, body.stakes, "stakes")
    tokens = auth.new_tokens()
    record = MatchRecord(
        id=new_id(MATCH_ID_BYTES), game=game.id, players=list(setup.players),
        options=game.options_json(setup.options), private=body.private,
        write_token_hash=auth.token_hash(tokens.write),
        view_token_hash=auth.token_hash(tokens.view), version=1, created_at=at,
        played_at=played_at, location=location, stakes=stakes_given,
    )
    folded = fold_match(game, setup, [])
    if body.club is None and database.writes_one_statement:
        row, _rounds = new_match_row(record, folded, at)
        await database.write_one(MATCH_MADE_IN_ONE_STATEMENT, {
            **{f"set_{name}": value for name, value in row.items()}, "at": at,
            "no_entry": None})
    else:
        async with database.write() as statements:
            hosted = None if body.club is None else await owners.host.open(
                statements, body.club, authorization, setup.players, at)
            key = game_key(game, record.options)
            if hosted is not None and stakes_given is None and game.priced(setup) is not None:
                record = replace(record, stakes=hosted.stakes_for(key) or hosted.stakes_for(
                    game.id))
            row, _rounds = new_match_row(record, folded, at)
            await statements.run(INSERT_MATCH, row)
            if hosted is not None:
                await hosted.adopt(statements, record.id, key, at, played_at)
            await _audit(statements, record.id, at, "create", auth.MATCH_TOKEN)
    folds.remember(Stored(record, game))
    return s.CreatedMatch(**msgspec.structs.asdict(row["snapshot"]), token=tokens.write,
                          view_token=tokens.view)


async def _audit(statements: Statements, match_id: str, at: datetime, action: str,
                 token_kind: str, number: int | None = None, old_entry: JSON = None,
                 new_entry: JSON = None) -> None:
    await statements.run(INSERT_AUDIT, {
        "match_id": match_id, "at": at, "action": action, "round": number,
        "old_entry": old_entry, "new_entry": new_entry, "token_kind": token_kind,
    })


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A match as ``GET /matches/{id}`` answers it: its version and the stored JSON."""

    version: int
    json: bytes


async def read_snapshot(database: Database, owners: Owners, match_id: str,
                        authorization: str | None) -> Snapshot:
    """The stored snapshot as it is, without decoding and encoding it again: it was encoded from
    :class:`s.Match` in the transaction that wrote it."""
    row = await database.read_one(READ_SNAPSHOT, {"match_id": match_id})
    if row is None:
        raise NotFound(no_match(match_id))
    private, write_hash, view_hash, version, snapshot = row
    await owners.require_read(database.read_one, match_id, bool(private), write_hash,
                              view_hash, authorization)
    return Snapshot(version, snapshot.encode())


async def read_match(database: Database, owners: Owners, match_id: str,
                     authorization: str | None) -> s.Match:
    snapshot = await read_snapshot(database, owners, match_id, authorization)
    return msgspec.json.decode(snapshot.json, type=s.Match)


async def _require_read(statements: Statements, owners: Owners, record: MatchRecord,
                        authorization: str | None) -> None:
    await owners.require_read(statements.one, record.id, record.private,
                              record.write_token_hash, record.view_token_hash, authorization)


def _fold(folds: RecentFolds, stored: Stored, entries: Sequence[JSON],
          changed: int) -> FoldedMatch:
    """Fold ``entries``; problems with round ``changed`` are 422, with a later round 409."""
    try:
        record = stored.record
        return folds.fold(record.id, stored.game, record.players, record.options, entries)
    except InvalidEntry as invalid:
        number = invalid.round_number or changed
        names = names_of(stored.game, stored.setup())
        if number == changed:
            raise Unprocessable(_("Round {number} cannot have happened like this.",
                                  number=changed),
                                errors=field_problems(invalid.errors, names=names)) from None
        raise Conflict(
            _("With this change, round {number} as recorded would no longer be valid.",
              number=number),
            errors=field_problems(invalid.errors, prefix=f"rounds[{number}]", names=names),
        ) from None
    except MatchFinished as finished:
        if changed == len(entries):  # a new round after the deciding one
            raise Conflict(_("The match was decided after round {number}; no further round can "
                             "be recorded.", number=finished.rounds_played)) from None
        raise Conflict(_n(
            "With this change the match would end after round {round}, before the 1 later round "
            "already recorded; undo it first.",
            "With this change the match would end after round {round}, before the {count} later "
            "rounds already recorded; undo them first.",
            count=len(entries) - finished.rounds_played, round=finished.rounds_played)) from None


@dataclass(frozen=True, slots=True)
class Written:
    """What a write stored: the match's new version, and the answer to a round's write."""

    version: int
    answer: s.RoundWritten | None
    announcements: tuple[Announcement, ...] = ()
    """What the match's owners tell their subscribers after the commit."""


async def _store_fold(
    statements: Statements, folds: RecentFolds, owners: Owners, stored: Stored,
    writer: MatchWriter,
    entries: Sequence[JSON], number: int, action: str, sender: Sender,
    old_entry: JSON = None, new_entry: JSON = None, options_changed: bool = False,
) -> Written:
    """Fold ``entries`` (the match's new rounds, where round ``number`` changed) and store what
    the write changes: the match row with its new version and snapshot (and, when
    ``options_changed``, the options of ``stored``'s record: a match finished by hand or opened
    again), the rounds from
    ``number`` on (updated, inserted, or the last one deleted), what the writer and the match's
    owners keep of it (a tournament table's result, a club's statistics) and the audit record.
    The caller commits."""
    folded = _fold(folds, stored, entries, number)
    at = now()
    record = stored.record
    version = record.version + 1
    columns, rounds = match_columns(record, version, folded, at)
    if options_changed:
        columns["options"] = record.options
    await statements.run(UPDATE_MATCH, {"match_id": record.id, **columns})
    stored_count = len(stored.entries)
    if len(rounds) < stored_count:
        await statements.run(DELETE_ROUND, {"round_match": record.id, "round_number": number})
    changed = rounds[number - 1: stored_count]
    if changed:
        await statements.run(UPDATE_ROUND, [
            {"round_match": record.id, "round_number": played["number"], "entry": played["entry"],
             "result": played["result"], "totals": played["totals"]} for played in changed])
    added = rounds[stored_count:]
    if added:
        await statements.run(INSERT_ROUND, [{"match_id": record.id, **played} for played in added])
    await writer.record(statements, stored.game, folded, sender, action, at)
    announcements = await owners.follow(statements, record.id, stored.game, folded, action, at)
    await _audit(statements, record.id, at, action, writer.token_kind, number, old_entry,
                 new_entry)
    answer = _round_written(columns, rounds[number - 1]) if number <= len(rounds) else None
    return Written(version, answer, announcements)


async def _publish(database: Database, broker: Broker, writer: MatchWriter, match_id: str,
                   written: Written, action: str, number: int) -> None:
    """After the commit: tell the match's subscribers and its writer's side by side (through
    PostgreSQL a tournament table's write reads the tournament's version while the match's
    notice goes out, and the two notices leave together: a round's answer waits one round
    trip less), then its owners'."""
    await asyncio.gather(broker.publish(match_id, Change(written.version, action, number)),
                         writer.publish(broker, database.read_one))
    for announce in written.announcements:
        await announce(broker)


@dataclass(frozen=True, slots=True)
class Replay:
    """A stored response to send again for a repeated ``Idempotency-Key``."""

    status: int
    body: Any


@dataclass(frozen=True, slots=True)
class Idempotency:
    """A client's ``Idempotency-Key`` and the fingerprint of the request it came with."""

    key: str
    fingerprint: str

    def stored_as(self, match_id: str) -> dict[str, str]:
        return {"match_id": match_id, "key": self.key}


def _replay(earlier: Row | None, idempotency: Idempotency) -> Replay | None:
    """The stored answer for a repeated key; 422 if the key came with another request."""
    if earlier is None:
        return None
    stored_print, status, body = earlier
    if not secrets.compare_digest(stored_print, idempotency.fingerprint):
        raise Unprocessable(
            _("This Idempotency-Key was already used with a different request."),
            errors=[Fault("", "idempotency_key_reused",
                          _("The key was used for another request."))],
        )
    return Replay(status, body)


async def record_round(
    database: Database, folds: RecentFolds, owners: Owners, broker: Broker, match_id: str,
    authorization: str | None, body: dict[str, Any], idempotency: Idempotency | None,
    sender: Sender = NOBODY, if_match: str | None = None,
) -> s.RoundWritten | Replay:
    """Append a round; with ``idempotency`` when the client sent a key. The one way in for a
    new round: which of the two paths stores it is decided here and nowhere else.

    With ``if_match`` (the match version the phone saw, as ``PUT`` takes it) a stale version is
    412 and stores nothing; without it the round is appended to whatever is stored. A key
    already stored answers its first response before the version is looked at, on both paths:
    a phone whose answer was lost resends with the version it saw before its own round, and
    must get that round's answer, not a question.

    - **One statement** (:func:`_record_known_round`), tried first, on PostgreSQL only: the
      round is folded onto the match as this process last wrote it (else as one unlocked read
      finds it stored) and written by a statement that writes only if the match is still at
      that version, the key is new, and no owner locks the write (:func:`round_in_one_statement`:
      a tournament's table always; a club's match when the round finishes it). It is taken for
      a request with the match's own write token whose round folds.
    - **The locked way** (:func:`_record_locked_round`) in every other case, and whenever the
      statement wrote nothing: SQLite, a table's or an owner's token, a round that finishes a
      club's match, a replayed key, a round the fold refuses (its 4xx is answered from the
      rounds stored now), a race lost to another writer. The match row is locked and read, the
      writer and owners decide and record (:class:`api.matches.owners.Owners`), all in one
      transaction.

    Both store the same rows (``tests/api/test_one_statement_rounds.py`` compares them) and
    publish the same change after the commit. They stay two paths: the locked way needs the
    row lock to let owners change their own rows in the transaction, which the one statement
    cannot do, and folding it into the statement's shape would cost the dozen round trips the
    statement saves (``bench/load.py`` on PostgreSQL)."""
    entry = unwrap_entry(body)
    found = await _record_known_round(database, folds, owners, match_id, authorization, entry,
                                      idempotency, if_match)
    if found is None:
        found = await _record_locked_round(database, folds, owners, match_id, authorization,
                                           entry, idempotency, sender, if_match)
    if isinstance(found, Replay):
        return found
    written, writer, number = found
    await _publish(database, broker, writer, match_id, written, "round_added", number)
    assert written.answer is not None
    return written.answer


async def _record_known_round(
    database: Database, folds: RecentFolds, owners: Owners, match_id: str,
    authorization: str | None,
    entry: JSON, idempotency: Idempotency | None, if_match: str | None,
) -> tuple[Written, MatchWriter, int] | Replay | None:
    """Record the round in one statement (:func:`round_in_one_statement`), PostgreSQL only: from
    the match as this process last wrote it, else (not kept here, or written by another process
    since, as when a phone's new connection reaches another worker) from the match as stored
    now, read without a lock in one statement (:func:`match_as_stored`). None when the locked
    way must be taken: SQLite, no such match or one an owner locks every write of (a
    tournament's table), a token that is not the match's own (the locked way tells why, or
    takes an owner's), a round that does not fold onto
    the stored rounds (the locked way answers against the rounds stored now), an ``If-Match``
    that does not name the version folded onto (the locked way tells whether it is stale), or
    a statement that wrote nothing again."""
    if not database.writes_one_statement:
        return None
    kept = folds.last_written(match_id)
    if kept is not None:
        found = await _record_onto(database, folds, owners, kept, authorization, entry,
                                   idempotency, if_match)
        if found is not WROTE_NOTHING:
            return found
    row = await database.read_one(match_as_stored(owners), {"match_id": match_id})
    if row is None:
        return None
    record = MatchRecord(*row[:-1])
    found = await _record_onto(database, folds, owners,
                               Stored(record, _game(record.game), tuple(row[-1])),
                               authorization, entry, idempotency, if_match)
    return None if found is WROTE_NOTHING else found


class _Unwritten(Enum):
    WROTE_NOTHING = auto()
    """What :func:`_record_onto` answers when its statement wrote nothing: the match is not at
    the version it started from (or the key was used, or an owner locks the write)."""


WROTE_NOTHING = _Unwritten.WROTE_NOTHING


async def _record_onto(
    database: Database, folds: RecentFolds, owners: Owners, stored: Stored,
    authorization: str | None,
    entry: JSON, idempotency: Idempotency | None, if_match: str | None,
) -> tuple[Written, MatchWriter, int] | Replay | _Unwritten | None:
    """The round folded onto ``stored`` and written in one statement if the match is still at
    its version; None when it cannot be (see :func:`_record_known_round`), or
    :data:`WROTE_NOTHING`, also for an ``If-Match`` naming another version than ``stored``'s:
    the statement writes only at ``stored``'s version, so a stale one is never written here;
    the match as stored may be at the phone's version, and if it is not, the locked way says
    412 from the row it locks."""
    record = stored.record
    try:
        token_kind = auth.require_write(authorization, record.write_token_hash)
        if idempotency is not None and stored.answer is not None and \
                stored.answer[0] == idempotency.key:
            # The answer was lost on its way (the phone sends it again): this process stored it,
            # and it is read as stored now (a forgotten club member's name is gone from it).
            return _replay(await database.read_one(
                IDEMPOTENT_ANSWER, idempotency.stored_as(record.id)), idempotency)
        if not _names_version(record, if_match):
            return WROTE_NOTHING  # as if the statement from this version had run
        folded = folds.fold(record.id, stored.game, record.players, record.options,
                            [*stored.entries, entry])
    except (Unauthorized, Forbidden, InvalidEntry, MatchFinished):
        return None
    at = now()
    version = record.version + 1
    columns, rounds = match_columns(record, version, folded, at)
    played = rounds[-1]
    answer = _round_written(columns, played)
    params: dict[str, Any] = {
        "match_id": record.id, "known_version": record.version, "finishes": folded.finished,
        **{f"set_{name}": columns[name] for name in MATCH_WRITTEN},
        "round_number": played["number"], "round_entry": played["entry"],
        "round_result": played["result"], "round_totals": played["totals"],
        "at": at, "token_kind": token_kind, "no_entry": None,  # JSON null, as _audit stores
    }
    if idempotency is not None:
        params |= {"key": idempotency.key, "fingerprint": idempotency.fingerprint,
                   "answer": answer}
    try:
        row = await database.write_one(round_in_one_statement(owners, idempotency is not None),
                                       params)
    except IntegrityError:  # a write that raced past the conditions: the locked way decides
        return None
    if row is None or row[0] == 0:
        return WROTE_NOTHING
    folds.remember(Stored(replace(record, version=version), stored.game,
                          (*stored.entries, entry), _kept_answer(idempotency, answer)))
    return Written(version, answer), TokenWriter(token_kind), len(rounds)


async def _record_locked_round(
    database: Database, folds: RecentFolds, owners: Owners, match_id: str,
    authorization: str | None,
    entry: JSON, idempotency: Idempotency | None, sender: Sender, if_match: str | None,
) -> tuple[Written, MatchWriter, int] | Replay:
    """Record the round with the match row locked and read: every case, in one transaction. A
    stored key answers first, then a stale ``If-Match`` is 412."""
    try:
        async with database.write() as statements:
            stored, writer = await _load_for_writing(statements, owners, match_id,
                                                     authorization)
            if idempotency is not None:
                earlier = _replay(await statements.one(
                    IDEMPOTENT_ANSWER, idempotency.stored_as(match_id)), idempotency)
                if earlier is not None:
                    return earlier
            _check_version(stored.record, if_match)
            number = len(stored.entries) + 1
            entries = (*stored.entries, entry)
            written = await _store_fold(statements, folds, owners, stored, writer, entries,
                                        number, "round_added", sender, new_entry=entry)
            if idempotency is not None:
                await statements.run(INSERT_IDEMPOTENT_ANSWER, {
                    **idempotency.stored_as(match_id), "fingerprint": idempotency.fingerprint,
                    "status": 201, "body": written.answer})
    except IntegrityError:
        # Only reachable if the row lock was bypassed; the winner's answer is the answer.
        if idempotency is not None:
            replay = _replay(await database.read_one(
                IDEMPOTENT_ANSWER, idempotency.stored_as(match_id)), idempotency)
            if replay is not None:
                return replay
        raise Conflict(_("Another round was recorded at the same moment; load the match "
                         "again.")) from None
    _remember(folds, stored, writer, written, entries, idempotency)
    return written, writer, number


def _remember(folds: RecentFolds, stored: Stored, writer: MatchWriter, written: Written,
              entries: Sequence[JSON], idempotency: Idempotency | None = None) -> None:
    """Keep the match as a committed write left it, for its next round in one statement; not
    when its writer says it can never be written that way (a tournament's table)."""
    if writer.remembered:
        folds.remember(Stored(replace(stored.record, version=written.version), stored.game,
                              tuple(entries), _kept_answer(idempotency, written.answer)))


def _kept_answer(idempotency: Idempotency | None,
                 answer: s.RoundWritten | None) -> tuple[str, str, JSON] | None:
    """A stored answer as kept with the match: as a replay from the database would give it."""
    if idempotency is None or answer is None:
        return None
    return idempotency.key, idempotency.fingerprint, msgspec.to_builtins(answer)


def _existing(stored: Stored, number: int) -> JSON:
    """The stored entry of round ``number``; 404 if there is no such round."""
    if number > len(stored.entries):
        raise NotFound(_("This match has no round {number} (it has {rounds}).", number=number,
                         rounds=len(stored.entries)))
    return stored.entries[number - 1]


async def correct_round(
    database: Database, folds: RecentFolds, owners: Owners, broker: Broker, match_id: str,
    number: int,
    authorization: str | None, if_match: str | None, body: dict[str, Any],
    sender: Sender = NOBODY,
) -> s.RoundWritten:
    entry = unwrap_entry(body)
    async with database.write() as statements:
        stored, writer = await _load_for_writing(statements, owners, match_id, authorization)
        old_entry = _existing(stored, number)
        _check_version(stored.record, if_match)
        entries = list(stored.entries)
        entries[number - 1] = entry
        written = await _store_fold(statements, folds, owners, stored, writer, entries, number,
                                    "round_corrected", sender, old_entry, entry)
    _remember(folds, stored, writer, written, entries)
    await _publish(database, broker, writer, match_id, written, "round_corrected", number)
    assert written.answer is not None
    return written.answer


async def undo_round(
    database: Database, folds: RecentFolds, owners: Owners, broker: Broker, match_id: str,
    number: int,
    authorization: str | None, if_match: str | None, sender: Sender = NOBODY,
) -> None:
    async with database.write() as statements:
        stored, writer = await _load_for_writing(statements, owners, match_id, authorization)
        last = _existing(stored, number)
        if number != len(stored.entries):
            raise Conflict(_("Only the last round ({last}) can be undone; correct round {number} "
                             "instead.", last=len(stored.entries), number=number))
        _check_version(stored.record, if_match)
        opened = _opened(stored)
        written = await _store_fold(statements, folds, owners, opened, writer,
                                    stored.entries[:-1], number, "round_undone", sender,
                                    old_entry=last, options_changed=opened is not stored)
    _remember(folds, opened, writer, written, stored.entries[:-1])
    await _publish(database, broker, writer, match_id, written, "round_undone", number)


def _opened(stored: Stored) -> Stored:
    """The match as its last round's undo leaves it: open again if it was finished by hand
    (:class:`scoring.game.FinishedByHand`), else as it is."""
    game = stored.game
    if not isinstance(game, FinishedByHand):
        return stored
    options = game.options_json(game.reopened(stored.setup().options))
    if options == stored.record.options:
        return stored
    return replace(stored, record=replace(stored.record, options=options))


async def finish_match(
    database: Database, folds: RecentFolds, owners: Owners, broker: Broker, match_id: str,
    authorization: str | None, if_match: str | None, sender: Sender = NOBODY,
) -> s.Match:
    """Finish a match of a game without an end of its own (the score pad) after the rounds
    recorded: its options say so from now on (:meth:`scoring.game.FinishedByHand.
    finished_by_hand`), so corrections keep it finished and undoing its last round opens it
    again. 409 for a game with an end of its own, a match without a round, or one decided
    already. Its owners count it as any match that finishes (a club's statistics, a
    tournament's table)."""
    async with database.write() as statements:
        stored, writer = await _load_for_writing(statements, owners, match_id, authorization)
        _check_version(stored.record, if_match)
        game = stored.game
        setup = stored.setup()
        played = len(stored.entries)
        if not isinstance(game, FinishedByHand):
            raise Conflict(_("{game} ends by its own rules; a match of it cannot be finished "
                             "by hand.", kinds={"game": registry.GAMES}, game=game.id))
        if not game.can_finish(setup, played):
            raise Conflict(_("Record a round before finishing the match."))
        record = stored.record
        if folds.fold(record.id, game, record.players, record.options,
                      stored.entries).finished:
            raise Conflict(_("The match is finished already."))
        options = game.options_json(game.finished_by_hand(setup.options, played))
        closed = replace(stored, record=replace(record, options=options))
        # Round ``played`` as "changed": the audit names the round the match was finished after.
        written = await _store_fold(statements, folds, owners, closed, writer, stored.entries,
                                    played, "finished", sender, options_changed=True)
    _remember(folds, closed, writer, written, stored.entries)
    await _publish(database, broker, writer, match_id, written, "finished", played)
    return await read_match(database, owners, match_id, authorization)


async def rename_seats(statements: Statements, folds: RecentFolds, match_id: str,
                       names: dict[int, str], token_kind: str) -> int:
    """Give seats new names (a removed club member's name replaced) and fold the match again,
    so that its standings and reason name them so too; answer the match's new version."""
    stored = await load(statements, match_id, for_write=True, entries=True)
    players = [names.get(seat, name) for seat, name in enumerate(stored.record.players)]
    record = replace(stored.record, players=players)
    at = now()
    folded = folds.fold(record.id, stored.game, players, record.options, stored.entries)
    columns, _ = match_columns(record, record.version + 1, folded, at)
    await statements.run(UPDATE_MATCH, {"match_id": record.id, "players": players, **columns})
    await _audit(statements, record.id, at, "players_renamed", token_kind)
    return record.version + 1


async def guide(
    session: AsyncSession, owners: Owners, match_id: str, authorization: str | None,
    body: dict[str, Any],
    number: int | None, wording: Wording,
) -> s.Guide:
    """The game's help for a partly entered round ``number`` (default: the next round)."""
    statements = EngineStatements(session)
    stored = await load(statements, match_id, entries=True)
    await _require_read(statements, owners, stored.record, authorization)
    number = len(stored.entries) + 1 if number is None else number
    if number > len(stored.entries) + 1:
        raise NotFound(_("Round {number} is neither recorded nor the next round of this match.",
                         number=number))
    setup = stored.setup()
    earlier: list[Any] = []
    for recorded, raw in enumerate(stored.entries[: number - 1], start=1):
        try:
            earlier.append(stored.game.read_entry(raw, setup, earlier))
        except InvalidEntry as invalid:
            # Stored before the game read it as strictly (a non-whole number for a seat).
            raise Conflict(
                _("Round {number} as recorded is not valid; correct it first.",
                  number=recorded),
                errors=field_problems(invalid.errors, prefix=f"rounds[{recorded}]",
                                      names=names_of(stored.game, setup)),
            ) from None
    return s.Guide(stored.game.guide(unwrap_entry(body), setup, earlier, wording))


async def history(session: AsyncSession, owners: Owners, match_id: str,
                  authorization: str | None) -> list[s.HistoryItem]:
    statements = EngineStatements(session)
    stored = await load(statements, match_id)
    await _require_read(statements, owners, stored.record, authorization)
    rows = (await session.execute(
        select(AuditRow).where(col(AuditRow.match_id) == match_id).order_by(col(AuditRow.id))
    )).scalars().all()
    return [
        s.HistoryItem(at=utc(r.at), action=r.action, round=r.round,  # type: ignore[arg-type]
                      old_entry=r.old_entry, new_entry=r.new_entry, token_kind=r.token_kind)
        for r in rows
    ]
