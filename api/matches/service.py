"""Match storage around the scoring fold.

Every write locks the match row (PostgreSQL ``SELECT ... FOR UPDATE``; SQLite holds the database
write lock from ``BEGIN IMMEDIATE``), folds the complete new list of entries, stores the entries,
each round's result and totals and the match's verdict, appends an audit row and commits, all in
one transaction; only then is the change published to live subscribers. Each write also stores
the match's new snapshot (the ``GET`` answer), so reading a match is reading one row.

Decisions: a correction that leaves the corrected entry valid but makes a *later* stored round
invalid, or ends the match before later rounds, is 409 (the request conflicts with the rounds
after it; ``errors`` then name the later round's fields under ``rounds[k]``). Idempotency keys
store only successful responses: a failed request changed nothing and fails the same way again.
The version starts at 1 and grows by one with every write.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec
from sqlalchemy import Table, Text, bindparam, cast, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import defer
from sqlmodel import SQLModel, col

from api import auth
from api.db.models import AuditRow, IdempotencyRow, MatchRow, RoundRow
from api.db.point_reads import PointReader
from api.live import Broker, Change
from api.matches import schemas as s
from api.problems import (
    Conflict,
    FieldProblem,
    NotFound,
    PreconditionFailed,
    Unprocessable,
    field_problems,
)
from api.tournaments.access import MatchWriter, match_writer
from scoring import registry
from scoring.errors import InvalidEntry, InvalidOptions, MatchFinished
from scoring.game import AnyGame, Setup
from scoring.match import FoldedMatch, fold_match, set_up
from scoring.reading import JSON

MATCH_ID_BYTES = 9  # 12 url-safe characters
ROUNDS: Table = SQLModel.metadata.tables[RoundRow.__tablename__]
AUDIT: Table = SQLModel.metadata.tables[AuditRow.__tablename__]
MATCHES: Table = SQLModel.metadata.tables[MatchRow.__tablename__]

# Everything a read of a match needs, in one statement; the snapshot as the JSON text it was
# stored as (``CAST``: PostgreSQL's driver would otherwise decode it).
READ_SNAPSHOT = select(
    MATCHES.c.private, MATCHES.c.write_token_hash, MATCHES.c.view_token_hash, MATCHES.c.version,
    cast(MATCHES.c.snapshot, Text).label("snapshot"),
).where(MATCHES.c.id == bindparam("match_id"))


@dataclass(frozen=True, slots=True)
class Stored:
    """A match as stored: its row, its game, and (for folding) its round entries in order."""

    row: MatchRow
    game: AnyGame
    entries: tuple[JSON, ...] = ()

    def setup(self) -> Setup[Any]:
        return set_up(self.game, self.row.players, self.row.options)


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


def _check_version(row: MatchRow, if_match: str | None) -> None:
    """412 unless ``If-Match`` is absent, ``*``, or names the version (``"7"``, ``W/"7"``, ``7``).

    Anything else cannot name the current version, so it fails the precondition like a stale one.
    """
    if if_match is None or if_match.strip() == "*":
        return
    if if_match.strip().removeprefix("W/").strip('"') != str(row.version):
        raise PreconditionFailed(
            f"The match is at version {row.version}, not {if_match.strip()}: read it again first."
        )


def _game(game_id: str) -> AnyGame:
    game = registry.game_by_id(game_id)
    if game is None:
        raise NotFound(f"The game {game_id!r} of this match is not known to this server.")
    return game


async def load(session: AsyncSession, match_id: str, *, lock: bool = False,
               entries: bool = False) -> Stored:
    """The match (locked for the transaction with ``lock``), with its entries if asked."""
    query = select(MatchRow).where(col(MatchRow.id) == match_id)
    if entries:  # a fold makes a new snapshot; the old one is not needed
        query = query.options(defer(MatchRow.snapshot))
    if lock:
        query = query.with_for_update()
    row = (await session.execute(query)).scalar_one_or_none()
    if row is None:
        raise NotFound(f"There is no match {match_id!r}.")
    game = _game(row.game)
    if not entries:
        return Stored(row, game)
    stored_entries = (await session.execute(
        select(ROUNDS.c.entry).where(ROUNDS.c.match_id == match_id).order_by(ROUNDS.c.number)
    )).scalars().all()
    return Stored(row, game, tuple(stored_entries))


def _reason(raw: Any) -> s.Reason | None:
    return None if raw is None else msgspec.convert(raw, s.Reason)


def _snapshot(row: MatchRow, rounds: Sequence[dict[str, JSON]]) -> dict[str, Any]:
    match = s.Match(
        id=row.id, game=row.game,
        players=[s.Player(seat, name) for seat, name in enumerate(row.players)],
        options=row.options, private=row.private, status=row.status,  # type: ignore[arg-type]
        winners=row.winners, reason=_reason(row.reason), next_dealer=row.next_dealer,
        rounds=[msgspec.convert(r, s.Round) for r in rounds],
        standings=row.standings, version=row.version,
        created_at=utc(row.created_at), updated_at=utc(row.updated_at),
    )
    snapshot: dict[str, Any] = msgspec.to_builtins(match)
    return snapshot


def match_view(row: MatchRow) -> s.Match:
    return msgspec.convert(row.snapshot, s.Match)


def _round_written(row: MatchRow, played: dict[str, JSON]) -> s.RoundWritten:
    return s.RoundWritten(
        number=played["number"], entry=played["entry"],  # type: ignore[arg-type]
        result=played["result"], totals=played["totals"],  # type: ignore[arg-type]
        version=row.version, status=row.status,  # type: ignore[arg-type]
        winners=row.winners, reason=_reason(row.reason), next_dealer=row.next_dealer,
        standings=row.standings,
    )


def apply_fold(row: MatchRow, folded: FoldedMatch, at: datetime) -> list[dict[str, JSON]]:
    """Put the fold's verdict and a new snapshot into the row; returns every round's JSON.

    Set ``row.version`` first: the snapshot carries it. Every writer of a match row calls this.
    """
    verdict = folded.verdict
    rounds = [played.as_json() for played in folded.rounds]
    row.status = "finished" if verdict.finished else "in_progress"
    row.winners = list(verdict.winners)
    row.reason = verdict.reason.as_json() if verdict.reason else None
    row.standings = [standing.as_json() for standing in verdict.standings]
    row.next_dealer = folded.next_dealer
    row.updated_at = at
    row.snapshot = _snapshot(row, rounds)
    return rounds




async def create_match(session: AsyncSession, body: s.NewMatch) -> s.CreatedMatch:
    game = registry.game_by_id(body.game)
    if game is None:
        raise Unprocessable("There is no such game.", errors=[FieldProblem(
            "game", "unknown_game", f"unknown game {body.game!r}",
            {"known": list(registry.all_games())},
        )])
    try:
        setup = set_up(game, list(body.players), body.options)
    except InvalidOptions as invalid:
        raise Unprocessable("The players or options do not fit this game.",
                            errors=field_problems(invalid.errors)) from None
    folded = fold_match(game, setup, [])
    tokens = auth.new_tokens()
    at = now()
    row = MatchRow(
        id=secrets.token_urlsafe(MATCH_ID_BYTES), game=game.id, players=list(setup.players),
        options=game.options_json(setup.options), private=body.private,
        write_token_hash=auth.token_hash(tokens.write),
        view_token_hash=auth.token_hash(tokens.view),
        version=1, status="in_progress", winners=[], standings=[], next_dealer=0, snapshot={},
        created_at=at, updated_at=at,
    )
    apply_fold(row, folded, at)
    session.add(row)
    await session.flush()
    await _audit(session, row.id, at, "create", auth.MATCH_TOKEN)
    await session.commit()
    return s.CreatedMatch(**msgspec.structs.asdict(match_view(row)), token=tokens.write,
                          view_token=tokens.view)


async def _audit(session: AsyncSession, match_id: str, at: datetime, action: str,
                 token_kind: str, number: int | None = None, old_entry: JSON = None,
                 new_entry: JSON = None) -> None:
    await session.execute(insert(AUDIT).values(
        match_id=match_id, at=at, action=action, round=number, old_entry=old_entry,
        new_entry=new_entry, token_kind=token_kind,
    ))


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A match as ``GET /matches/{id}`` answers it: its version and the stored JSON."""

    version: int
    json: bytes


async def read_snapshot(reader: PointReader, match_id: str,
                        authorization: str | None) -> Snapshot:
    """The stored snapshot as it is, without decoding and encoding it again: it was encoded from
    :class:`s.Match` in the transaction that wrote it."""
    row = await reader.fetch_one(READ_SNAPSHOT, {"match_id": match_id})
    if row is None:
        raise NotFound(f"There is no match {match_id!r}.")
    private, write_hash, view_hash, version, snapshot = row
    auth.require_read(authorization, bool(private), write_hash, view_hash)
    return Snapshot(version, snapshot.encode())


async def read_match(session: AsyncSession, match_id: str, authorization: str | None) -> s.Match:
    stored = await load(session, match_id)
    _require_read(stored.row, authorization)
    return match_view(stored.row)


def _require_read(row: MatchRow, authorization: str | None) -> None:
    auth.require_read(authorization, row.private, row.write_token_hash, row.view_token_hash)


def _fold(stored: Stored, entries: Sequence[JSON], changed: int) -> FoldedMatch:
    """Fold ``entries``; problems with round ``changed`` are 422, with a later round 409."""
    try:
        return fold_match(stored.game, stored.setup(), entries)
    except InvalidEntry as invalid:
        number = invalid.round_number or changed
        if number == changed:
            raise Unprocessable(f"Round {changed} cannot have happened like this.",
                                errors=field_problems(invalid.errors)) from None
        raise Conflict(
            f"With this change, the stored round {number} would no longer be valid.",
            errors=field_problems(invalid.errors, prefix=f"rounds[{number}]"),
        ) from None
    except MatchFinished as finished:
        if changed == len(entries):  # a new round after the deciding one
            raise Conflict(f"The match was decided after round {finished.rounds_played}; "
                           "no further round can be recorded.") from None
        raise Conflict(
            f"With this change the match would end after round {finished.rounds_played}, "
            f"before the {len(entries) - finished.rounds_played} later round(s) already recorded; "
            "undo those first."
        ) from None


async def _store_rounds(session: AsyncSession, stored: Stored,
                        rounds: Sequence[dict[str, JSON]], first: int) -> None:
    """Write rounds ``first``.. of a fold: update those stored already, insert the new one."""
    def values(played: dict[str, JSON]) -> dict[str, JSON]:
        return {"entry": played["entry"], "result": played["result"],
                "totals": played["totals"]}

    changed = rounds[first - 1: len(stored.entries)]
    if changed:
        await session.execute(
            update(ROUNDS).where(ROUNDS.c.match_id == stored.row.id,
                                 ROUNDS.c.number == bindparam("round_number")),
            [{"round_number": played["number"], **values(played)} for played in changed],
        )
    added = rounds[len(stored.entries):]
    if added:
        await session.execute(insert(ROUNDS), [
            {"match_id": stored.row.id, "number": played["number"], **values(played)}
            for played in added
        ])


async def _write_round(
    session: AsyncSession, stored: Stored, writer: MatchWriter, entries: Sequence[JSON],
    number: int, action: str, device_id: str | None, old_entry: JSON = None,
    new_entry: JSON = None,
) -> s.RoundWritten:
    """Fold ``entries`` and stage everything a write of round ``number`` stores: the match row
    with its new version and snapshot, the rounds from ``number`` on, the tournament table's
    result and the audit record. The caller commits."""
    folded = _fold(stored, entries, number)
    at = now()
    row = stored.row
    row.version += 1
    rounds = apply_fold(row, folded, at)
    await _store_rounds(session, stored, rounds, number)
    writer.record(stored.game, folded, device_id, action, at)
    await _audit(session, row.id, at, action, writer.token_kind, number, old_entry, new_entry)
    return _round_written(row, rounds[number - 1])


@dataclass(frozen=True, slots=True)
class Replay:
    """A stored response to send again for a repeated ``Idempotency-Key``."""

    status: int
    body: Any


async def record_round(
    session: AsyncSession, broker: Broker, match_id: str, authorization: str | None,
    body: dict[str, Any], idempotency: tuple[str, str] | None, device_id: str | None = None,
) -> s.RoundWritten | Replay:
    """Append a round. ``idempotency`` is (key, request fingerprint) when the client sent a key."""
    stored = await load(session, match_id, lock=True, entries=True)
    writer = await match_writer(session, stored.row, authorization)
    if idempotency is not None:
        earlier = await _idempotent_response(session, match_id, *idempotency)
        if earlier is not None:
            return earlier
    entry = unwrap_entry(body)
    number = len(stored.entries) + 1
    written = await _write_round(session, stored, writer, [*stored.entries, entry], number,
                                 "round_added", device_id, new_entry=entry)
    row = stored.row
    if idempotency is not None:
        session.add(IdempotencyRow(
            match_id=match_id, key=idempotency[0], fingerprint=idempotency[1], status=201,
            body=msgspec.to_builtins(written),
        ))
    try:
        await session.commit()
    except IntegrityError:
        # Only reachable if the row lock was bypassed; the winner's answer is the answer.
        await session.rollback()
        if idempotency is not None:
            replay = await _idempotent_response(session, match_id, *idempotency)
            if replay is not None:
                return replay
        raise Conflict("Another round was recorded at the same moment; read the match.") from None
    await broker.publish(match_id, Change(row.version, "round_added", number))
    await writer.publish(broker)
    return written


async def _idempotent_response(session: AsyncSession, match_id: str, key: str,
                               print_: str) -> Replay | None:
    earlier = (await session.execute(select(IdempotencyRow).where(
        col(IdempotencyRow.match_id) == match_id, col(IdempotencyRow.key) == key,
    ))).scalar_one_or_none()
    if earlier is None:
        return None
    if not secrets.compare_digest(earlier.fingerprint, print_):
        raise Unprocessable(
            "This Idempotency-Key was already used with a different request.",
            errors=[FieldProblem("", "idempotency_key_reused",
                                 "the key was used for another body", {})],
        )
    return Replay(earlier.status, earlier.body)


def _existing(stored: Stored, number: int) -> JSON:
    """The stored entry of round ``number``; 404 if there is no such round."""
    if number > len(stored.entries):
        raise NotFound(f"This match has no round {number} (it has {len(stored.entries)}).")
    return stored.entries[number - 1]


async def correct_round(
    session: AsyncSession, broker: Broker, match_id: str, number: int,
    authorization: str | None, if_match: str | None, body: dict[str, Any],
    device_id: str | None = None,
) -> s.RoundWritten:
    stored = await load(session, match_id, lock=True, entries=True)
    writer = await match_writer(session, stored.row, authorization)
    old_entry = _existing(stored, number)
    _check_version(stored.row, if_match)
    entry = unwrap_entry(body)
    entries = list(stored.entries)
    entries[number - 1] = entry
    written = await _write_round(session, stored, writer, entries, number, "round_corrected",
                                 device_id, old_entry, entry)
    await session.commit()
    await broker.publish(match_id, Change(stored.row.version, "round_corrected", number))
    await writer.publish(broker)
    return written


async def undo_round(
    session: AsyncSession, broker: Broker, match_id: str, number: int,
    authorization: str | None, if_match: str | None, device_id: str | None = None,
) -> None:
    stored = await load(session, match_id, lock=True, entries=True)
    writer = await match_writer(session, stored.row, authorization)
    last = _existing(stored, number)
    if number != len(stored.entries):
        raise Conflict(f"Only the last round ({len(stored.entries)}) can be undone; "
                       f"correct round {number} instead.")
    _check_version(stored.row, if_match)
    folded = _fold(stored, stored.entries[:-1], number - 1)
    at = now()
    row = stored.row
    row.version += 1
    apply_fold(row, folded, at)
    await session.execute(delete(ROUNDS).where(ROUNDS.c.match_id == match_id,
                                               ROUNDS.c.number == number))
    writer.record(stored.game, folded, device_id, "round_undone", at)
    await _audit(session, match_id, at, "round_undone", writer.token_kind, number,
                 old_entry=last)
    await session.commit()
    await broker.publish(match_id, Change(row.version, "round_undone", number))
    await writer.publish(broker)


async def guide(
    session: AsyncSession, match_id: str, authorization: str | None, body: dict[str, Any],
    number: int | None,
) -> s.Guide:
    """The game's help for a partly entered round ``number`` (default: the next round)."""
    stored = await load(session, match_id, entries=True)
    _require_read(stored.row, authorization)
    number = len(stored.entries) + 1 if number is None else number
    if number > len(stored.entries) + 1:
        raise NotFound(f"Round {number} is neither recorded nor the next round of this match.")
    setup = stored.setup()
    earlier: list[Any] = []
    for raw in stored.entries[: number - 1]:
        earlier.append(stored.game.read_entry(raw, setup, earlier))
    return s.Guide(stored.game.guide(unwrap_entry(body), setup, earlier))


async def history(session: AsyncSession, match_id: str,
                  authorization: str | None) -> list[s.HistoryItem]:
    stored = await load(session, match_id)
    _require_read(stored.row, authorization)
    rows = (await session.execute(
        select(AuditRow).where(col(AuditRow.match_id) == match_id).order_by(col(AuditRow.id))
    )).scalars().all()
    return [
        s.HistoryItem(at=utc(r.at), action=r.action, round=r.round,  # type: ignore[arg-type]
                      old_entry=r.old_entry, new_entry=r.new_entry, token_kind=r.token_kind)
        for r in rows
    ]
