"""Who may do what in a tournament, and what a write to one of its matches changes.

Tokens: the organiser token writes everything in the tournament, including every table's match;
the view token reads a private tournament. A table's token is the write token of its match. It
is derived from the organiser token (HMAC-SHA256 over the match id), so the server stores only
hashes and can still hand the organiser the table tokens again for printing table cards: only
someone holding the organiser token can derive them.

Table phones: everyone at a table holds the same table token, so the token cannot tell the phone
that entered a result from the one that confirms it, and an ``X-Device-Id`` is whatever the
client says. A phone that opens a table's link therefore asks the server for a key of its own
(``X-Table-Phone``): ``<id>.<mac>``, a random public id and an HMAC of the table's match and that
id keyed with the organiser token's hash. Only the server (and the organiser) can make one, the
server keeps nothing per phone, and any number of phones may open a table.

Decisions: a table token can no longer change its match once the table is confirmed (403,
"confirmed: ask the organiser"); the organiser can, and the table stays confirmed. Every write to
a table's match stores the fold's places and score shares on the table row, records the
``X-Device-Id`` and the table phone's id (a table token's write with a valid ``X-Table-Phone``;
none for the organiser's) that wrote it as the phone that entered the result and counts up the
table's writes, all in the match write's transaction, and after the commit publishes a
tournament change.
A table phone's key that is not this table's is refused (403), not dropped: the phone is told to
open the table's link again. The header is ignored on matches that are no tournament table and
on the organiser's writes. Locks are taken in one order everywhere (match row, then tournament
row, then table rows), so concurrent writes at several tables and the organiser's actions never
deadlock.

The tournament's version (:func:`tournament_version`) is its row's ``version``, which the
organiser's changes move on, plus the writes counted at all its tables. A table's write locks
only its own table row and takes the tournament's row in ``KEY SHARE`` mode (PostgreSQL), which
other tables' writes share and the organiser's ``FOR UPDATE`` waits for: the writes of 150
tables at the end of a round no longer queue one after another on the tournament's row, and an
organiser's change still never runs beside one. The version only grows, by at least one with
every committed write, so two different states never share a version and an answer kept by
version (:mod:`api.tournaments.reads`) is never stale. A table's writer does not know which
version its own commit made (others commit beside it): it reads the version after its commit
and publishes that, so the last write of a burst to commit tells every follower the latest
version, and none is left behind (a follower may skip versions).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, Table, bindparam, exists, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import SQLModel, col

from api.db.statements import Statements
from api.edge import auth
from api.edge.problems import Forbidden, NotFound, Unauthorized
from api.i18n import Phrase, _
from api.matches.owners import PHONE_ID_LENGTH, ReadOne, Sender
from api.shared.live import Broker, Change
from api.tournaments.models import TournamentRow, TournamentTableRow
from api.tournaments.results import table_result
from scoring.game import AnyGame
from scoring.match import FoldedMatch

# Kinds of token, as the audit log and the reads name them.
ORGANISER = "organiser"
TABLE = "table"
VIEW = "view"
PLAYER = "player"
"""A player's own token (check-in): reads that player's view and the events, writes nothing."""


def holds(token: str, stored_hash: str) -> bool:
    return hmac.compare_digest(auth.token_hash(token), stored_hash)


def table_token(organiser_token: str, match_id: str) -> str:
    digest = hmac.new(organiser_token.encode(), f"table:{match_id}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[: auth.TOKEN_BYTES]).decode()


PHONE_MAC_BYTES = 16
WRONG_PHONE = _("This phone's key (X-Table-Phone) was not given for this table: open the "
                "table's link again.")


def _phone_mac(organiser_token_hash: str, match_id: str, phone_id: str) -> str:
    # Keyed with the organiser token's hash: a secret of the server's (and the organiser's)
    # that no phone at the table can compute from the table token it holds.
    digest = hmac.new(organiser_token_hash.encode(), f"phone:{match_id}:{phone_id}".encode(),
                      hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[:PHONE_MAC_BYTES]).decode().rstrip("=")


def new_table_phone(organiser_token_hash: str, match_id: str) -> tuple[str, str]:
    """A new phone at a table: ``(its id, its key)``."""
    phone_id = secrets.token_urlsafe(PHONE_ID_LENGTH * 3 // 4)
    return phone_id, f"{phone_id}.{_phone_mac(organiser_token_hash, match_id, phone_id)}"


def table_phone_id(key: str | None, organiser_token_hash: str, match_id: str) -> str | None:
    """The id of the phone holding ``key`` (None without one); 403 for a key of another table."""
    if key is None:
        return None
    phone_id, _dot, mac = key.partition(".")
    if not hmac.compare_digest(mac, _phone_mac(organiser_token_hash, match_id, phone_id)):
        raise Forbidden(WRONG_PHONE)
    return phone_id


def match_view_token(organiser_token: str, match_id: str) -> str:
    """Never handed out: a table match is read with its table token or publicly."""
    digest = hmac.new(organiser_token.encode(), f"view:{match_id}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[: auth.TOKEN_BYTES]).decode()


def table_tokens(organiser_token: str, match_id: str) -> auth.TokenPair:
    """A table match's tokens, derived from the organiser's: no table token is stored."""
    return auth.TokenPair(table_token(organiser_token, match_id),
                          match_view_token(organiser_token, match_id))


def events_channel(tournament_id: str) -> str:
    """The broker channel of a tournament; match ids never contain a colon."""
    return f"tournament:{tournament_id}"


def no_tournament(tournament_id: str) -> Phrase:
    return _('There is no tournament "{id}".', id=tournament_id)


def require_organiser(authorization: str | None, tournament: TournamentRow) -> str:
    """The organiser token itself (table tokens are derived from it); 401/403 otherwise."""
    return organiser_key(authorization, tournament.organiser_token_hash)


def organiser_key(authorization: str | None, organiser_token_hash: str) -> str:
    """:func:`require_organiser` for a tournament read as a Core row."""
    token = auth.bearer_token(authorization)
    if not holds(token, organiser_token_hash):
        raise Forbidden(_("Only the organiser's key may do this."))
    return token


def read_kind(authorization: str | None, tournament: TournamentRow) -> str | None:
    """Which token a reader holds: ``organiser``, ``view`` or none (public tournaments only).

    A private tournament needs the organiser or view token (401 without, 403 with another).
    """
    if authorization is None and not tournament.private:
        return None
    try:
        token = auth.bearer_token(authorization)
    except Unauthorized:
        if tournament.private:
            raise
        return None
    if holds(token, tournament.organiser_token_hash):
        return ORGANISER
    if holds(token, tournament.view_token_hash):
        return VIEW
    if tournament.private:
        raise Forbidden(_("This key may not see this tournament."))
    return None


async def lock_tournament(session: AsyncSession, tournament_id: str) -> TournamentRow:
    """The tournament row, locked for the rest of the transaction (PostgreSQL)."""
    row = (await session.execute(
        select(TournamentRow).where(col(TournamentRow.id) == tournament_id).with_for_update()
    )).scalar_one_or_none()
    if row is None:
        raise NotFound(no_tournament(tournament_id))
    return row


TABLES: Table = SQLModel.metadata.tables[TournamentTableRow.__tablename__]
TOURNAMENTS: Table = SQLModel.metadata.tables[TournamentRow.__tablename__]
TABLE_OF_MATCH = select(TABLES.c.tournament_id, TABLES.c.round, TABLES.c.table,
                        TABLES.c.confirmed).where(TABLES.c.match_id == bindparam("match_id"))
TABLE_OF_MATCH_FOR_WRITE = TABLE_OF_MATCH.with_for_update()
TOURNAMENT_FOR_TABLE = select(TOURNAMENTS.c.organiser_token_hash).where(
    TOURNAMENTS.c.id == bindparam("tournament_key")).with_for_update(read=True, key_share=True)
"""A table's write: the tournament's row shared with other tables' writes (``FOR KEY SHARE``),
not with the organiser's changes (``FOR UPDATE``)."""
TOURNAMENT_FOR_WRITE = select(TOURNAMENTS.c.organiser_token_hash, TOURNAMENTS.c.version).where(
    TOURNAMENTS.c.id == bindparam("tournament_key")).with_for_update()
"""The organiser's change: the tournament's row alone (its own ``version``)."""
TABLE_WRITES = select(func.coalesce(func.sum(TABLES.c.writes), 0)).where(
    TABLES.c.tournament_id == TOURNAMENTS.c.id).scalar_subquery()
TOURNAMENT_VERSION = select(TOURNAMENTS.c.version + TABLE_WRITES).where(
    TOURNAMENTS.c.id == bindparam("tournament_key"))
CONFIRMED_WRITES = select(func.coalesce(func.sum(TABLES.c.writes), 0)).where(
    TABLES.c.tournament_id == TOURNAMENTS.c.id, TABLES.c.confirmed).scalar_subquery()
STANDINGS_VERSION = select(TOURNAMENTS.c.version + CONFIRMED_WRITES).where(
    TOURNAMENTS.c.id == bindparam("tournament_key"))
"""What the standings depend on: the organiser's changes and the writes at confirmed tables
(a confirmation adds its table's writes, and a table is never unconfirmed), so a result entered
at a table not yet confirmed, which the standings do not count, keeps their kept answer."""
UPDATE_TABLE = update(TABLES).where(
    TABLES.c.tournament_id == bindparam("table_tournament"),
    TABLES.c.round == bindparam("table_round"), TABLES.c.table == bindparam("table_number"),
).values(writes=TABLES.c.writes + 1)
UPDATE_TOURNAMENT = update(TOURNAMENTS).where(TOURNAMENTS.c.id == bindparam("tournament_key"))


async def tournament_version(read_one: ReadOne, tournament_id: str) -> int:
    """The tournament's version: its own (the organiser's changes) and its tables' writes; 0
    for no such tournament. One statement, so one snapshot of both."""
    found = await read_one(TOURNAMENT_VERSION, {"tournament_key": tournament_id})
    return 0 if found is None else int(found[0])


@dataclass(frozen=True, slots=True)
class TableOfMatch:
    """The tournament table a match is played at, and the key its phones' keys are made with."""

    tournament_id: str
    round: int
    table: int
    match_id: str
    organiser_token_hash: str


@dataclass(slots=True)
class TableWriter:
    """A write to a tournament table's match (organiser's or table's token): what it must
    update (:class:`api.matches.owners.MatchWriter`)."""

    token_kind: str
    table: TableOfMatch
    action: str = ""
    remembered: bool = False  # every write moves the tournament on: never in one statement

    async def record(self, statements: Statements, game: AnyGame, folded: FoldedMatch,
                     sender: Sender, action: str, at: datetime) -> None:
        """Store the table's new result and count the write (same transaction)."""
        phone_id = None if self.token_kind != TABLE else table_phone_id(
            sender.table_phone, self.table.organiser_token_hash, self.table.match_id)
        places, shares = table_result(game, folded)
        await statements.run(UPDATE_TABLE, {
            "table_tournament": self.table.tournament_id, "table_round": self.table.round,
            "table_number": self.table.table, "rounds_played": len(folded.rounds),
            "finished": folded.finished, "places": places, "shares": shares,
            "entered_by_device": sender.device_id, "entered_by_phone": phone_id,
            "written_at": at})
        self.action = action

    async def publish(self, broker: Broker, read_one: ReadOne) -> None:
        """After the commit: tell the tournament's subscribers about the change, with the
        version read now (this write's, or a later one's)."""
        version = await tournament_version(read_one, self.table.tournament_id)
        await broker.publish(events_channel(self.table.tournament_id), Change(
            version, f"table_{self.action}", self.table.round))


class TableOwner:
    """A tournament as the owner of its tables' matches (:class:`api.matches.owners.
    MatchOwner`): it alone decides who writes them, and every write moves it on."""

    locks_every_write = True

    def keeps(self, match_id: ColumnElement[str]) -> ColumnElement[bool]:
        return exists().where(TABLES.c.match_id == match_id)

    async def writer(self, statements: Statements, match_id: str, write_token_hash: str,
                     authorization: str | None) -> TableWriter | None:
        return await table_writer(statements, match_id, write_token_hash, authorization)

    async def other_writer(self, statements: Statements, match_id: str,
                           authorization: str | None) -> None:
        return None  # a table's match is written by the tournament's tokens only

    async def reads(self, read_one: ReadOne, match_id: str, authorization: str | None) -> bool:
        return False  # a table's match is read with its table token or publicly

    async def follow(self, statements: Statements, match_id: str, game: AnyGame,
                     folded: FoldedMatch, action: str, at: datetime) -> None:
        return None  # the table's writer stored its result: it knows which phone entered it

    async def time_zone(self, read_one: ReadOne, match_id: str) -> None:
        return None  # a tournament has no zone; a club's tournament's tables are its club's


async def table_writer(statements: Statements, match_id: str, write_token_hash: str,
                       authorization: str | None) -> TableWriter | None:
    """Check a write to a tournament table's match, sharing the tournament's lock with other
    tables' writes and locking its table; None for a match at no table.

    A table's match takes the organiser token and its table token (its own write token), the
    table token refused once the table is confirmed.
    """
    at_table = {"match_id": match_id}
    found = await statements.one(TABLE_OF_MATCH, at_table)
    if found is None:
        return None
    token = auth.bearer_token(authorization)
    tournament_id, number, table_number, _confirmed = found
    tournament = await statements.one(TOURNAMENT_FOR_TABLE, {"tournament_key": tournament_id})
    assert tournament is not None  # a table's tournament is a foreign key
    organiser_hash, = tournament
    # Tables are locked after their tournament (the order every writer keeps); only now is
    # whether the table is confirmed certain.
    locked = await statements.one(TABLE_OF_MATCH_FOR_WRITE, at_table)
    assert locked is not None  # tables are never deleted
    table = TableOfMatch(tournament_id, number, table_number, match_id, organiser_hash)
    if holds(token, organiser_hash):
        return TableWriter(ORGANISER, table)
    if not holds(token, write_token_hash):
        raise Forbidden(auth.CANNOT_CHANGE_MATCH)
    if locked[-1]:
        raise Forbidden(_("This table's result is confirmed: ask the organiser to correct it."))
    return TableWriter(TABLE, table)
