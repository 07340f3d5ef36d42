"""Who a match belongs to beyond its own tokens: a tournament's table, a club.

The areas stack (matches < tournaments < clubs): a match knows nothing of the areas above it.
What it needs from whoever owns it reaches it through the two interfaces defined here, which the
higher areas implement and the app registers when it is made (:func:`api.app.match_owners`,
``state.owners``):

- a :class:`MatchOwner` keeps matches (a tournament its tables', a club its members'): it may
  decide who writes them, let its own tokens read and write them, and change what it keeps when
  a round lands, is corrected or undone (a table's result, a club's statistics, ledger and
  ratings), all inside the match write's transaction, telling its own subscribers after the
  commit;
- a :class:`MatchHost` is what a new match can be started for (``"club"`` in
  ``POST /matches``): it checks its token, seats its members and adopts the match in the
  match's creation transaction.

The interfaces speak of matches, tokens and transactions only, so that a new owner (a league, a
season's evening) is one class registered in the app factory.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Protocol

from litestar.params import HeaderParameter
from sqlalchemy import ColumnElement, Executable

from api.db.statements import Params, Row, Statements
from api.edge import auth
from api.edge.problems import Forbidden
from api.shared.live import Broker
from scoring.game import AnyGame
from scoring.match import FoldedMatch
from scoring.reading import JSON

DEVICE_ID_LENGTH = 100
DEVICE_ID_PATTERN = r"^[!-~]+$"
"""A device id is printable ASCII without spaces (the app sends a UUID): it never carries a
control character into the database or a log line."""
PHONE_ID_LENGTH = 16
"""The public half of a table phone's key (see :mod:`api.tournaments.access`)."""

DeviceId = Annotated[str | None, HeaderParameter(
    name="X-Device-Id", min_length=1, max_length=DEVICE_ID_LENGTH, pattern=DEVICE_ID_PATTERN,
    description="A random id the app keeps per phone; a tournament table records which phone "
                "entered its result",
)]
TablePhone = Annotated[str | None, HeaderParameter(
    name="X-Table-Phone", min_length=3, max_length=100,
    pattern=rf"^[A-Za-z0-9_-]{{1,{PHONE_ID_LENGTH}}}\.[A-Za-z0-9_-]+$",
    description="The key this phone got when it opened the table's link (``openTablePhone``): "
                "a table's result is confirmed from another phone than the one that entered it",
)]


@dataclass(frozen=True, slots=True)
class Sender:
    """The phone a write came from, as it names itself: ``X-Device-Id`` and ``X-Table-Phone``."""

    device_id: str | None = None
    table_phone: str | None = None


NOBODY = Sender()
"""A write that names no phone (a client other than the app, a test)."""

Announcement = Callable[[Broker], Awaitable[None]]
"""What an owner tells its subscribers once the write is committed."""

ReadOne = Callable[[Executable, Params], Awaitable[Row | None]]
"""One row of a statement: a read outside a transaction, or a statement inside one."""


class MatchWriter(Protocol):
    """Who writes to a match, and what the write must change for the owner that admitted it."""

    @property
    def token_kind(self) -> str:
        """The kind of token that wrote, as the match's audit records it."""
        ...

    @property
    def remembered(self) -> bool:
        """Whether the match as written may be kept for its next round in one statement (a
        tournament's table may not: every write to it changes its tournament)."""
        ...

    async def record(self, statements: Statements, game: AnyGame, folded: FoldedMatch,
                     sender: Sender, action: str, at: datetime) -> None:
        """Store what the write changes beyond the match (same transaction)."""
        ...

    async def publish(self, broker: Broker, read_one: ReadOne) -> None:
        """After the commit: tell the owner's subscribers (``read_one``: a read of the
        committed state, such as a version others' writes move on too)."""
        ...


@dataclass(frozen=True, slots=True)
class TokenWriter:
    """A write that changes nothing but the match: with the match's own write token, or with
    an owner's token that may write its matches (a club's)."""

    token_kind: str = auth.MATCH_TOKEN
    remembered: bool = True

    async def record(self, statements: Statements, game: AnyGame, folded: FoldedMatch,
                     sender: Sender, action: str, at: datetime) -> None:
        return None

    async def publish(self, broker: Broker, read_one: ReadOne) -> None:
        return None


class MatchOwner(Protocol):
    """An area that keeps matches of its own: a tournament (its tables), a club (its members').

    Its methods are asked in the order the owners are registered, each only about a match it
    keeps; a match no owner keeps is written and read with its own tokens alone.
    """

    def keeps(self, match_id: ColumnElement[str]) -> ColumnElement[bool]:
        """SQL: this owner keeps the match ``match_id`` names (an ``EXISTS``)."""
        ...

    @property
    def locks_every_write(self) -> bool:
        """True: every write to a match it keeps is taken the locked way (a tournament's table
        moves its tournament on). False: only a write that finishes the match, since only a
        finished match changes what this owner keeps (a club's statistics)."""
        ...

    async def writer(self, statements: Statements, match_id: str, write_token_hash: str,
                     authorization: str | None) -> MatchWriter | None:
        """Who writes, when this owner alone decides it for the match (a tournament's table:
        its organiser's and its table's token; 403 for any other); None for a match it does
        not decide for. Asked before the match's own token."""
        ...

    async def other_writer(self, statements: Statements, match_id: str,
                           authorization: str | None) -> MatchWriter | None:
        """A writer for a token of this owner's that may write the match too (a club's token
        for its own match), asked only when the match's own token refused; None otherwise."""
        ...

    async def reads(self, read_one: ReadOne, match_id: str, authorization: str | None) -> bool:
        """Whether ``authorization`` is a token of this owner that may read the match, asked
        only when the match's own tokens refused a private match."""
        ...

    async def follow(self, statements: Statements, match_id: str, game: AnyGame,
                     folded: FoldedMatch, action: str, at: datetime) -> Announcement | None:
        """Bring what this owner keeps up to date with a write to the match (same transaction,
        whoever wrote); what to announce after the commit, if anything changed."""
        ...

    async def time_zone(self, read_one: ReadOne, match_id: str) -> str | None:
        """The IANA time zone the match's date is told in where this owner has one (a club's),
        None otherwise."""
        ...


class HostedMatch(Protocol):
    """A new match's place with its host, between checking the host and storing the match."""

    async def adopt(self, statements: Statements, match_id: str, game_id: str,
                    at: datetime, played_at: datetime) -> None:
        """Make the stored match the host's, its members at its seats (same transaction);
        ``played_at``: when it was played (its evening)."""
        ...

    def stakes_for(self, game_id: str) -> JSON:
        """The host's default stakes for a match of ``game_id`` as a match stores them
        (:func:`api.matches.stakes.stored`), or ``None``."""
        ...


class MatchHost(Protocol):
    """What a new match can be started for (``"club"`` in ``POST /matches``)."""

    async def open(self, statements: Statements, host_id: str, authorization: str | None,
                   players: Sequence[str], at: datetime) -> HostedMatch:
        """Lock the host after checking its token (401/403; 422 at ``club`` for an unknown
        one) and find the member of each player's name (made on first use)."""
        ...


@dataclass(frozen=True, slots=True)
class Owners:
    """The owners a match may have, in the order they are asked, and its host."""

    owners: tuple[MatchOwner, ...]
    host: MatchHost

    async def writer(self, statements: Statements, match_id: str, write_token_hash: str,
                     authorization: str | None) -> MatchWriter:
        """Who writes the match: the owner that decides for it, else its own token, else an
        owner's token that may write it too (401/403 for everything else)."""
        for owner in self.owners:
            decided = await owner.writer(statements, match_id, write_token_hash, authorization)
            if decided is not None:
                return decided
        try:
            return TokenWriter(auth.require_write(authorization, write_token_hash))
        except Forbidden:
            for owner in self.owners:
                other = await owner.other_writer(statements, match_id, authorization)
                if other is not None:
                    return other
            raise

    async def require_read(self, read_one: ReadOne, match_id: str, private: bool,
                           write_token_hash: str, view_token_hash: str,
                           authorization: str | None) -> None:
        """A private match is read with its own tokens, or with an owner's that may."""
        try:
            auth.require_read(authorization, private, write_token_hash, view_token_hash)
        except Forbidden:
            for owner in self.owners:
                if await owner.reads(read_one, match_id, authorization):
                    return
            raise

    async def time_zone(self, read_one: ReadOne, match_id: str) -> str | None:
        """The time zone of the first owner that has one for the match; None: UTC."""
        for owner in self.owners:
            zone = await owner.time_zone(read_one, match_id)
            if zone is not None:
                return zone
        return None

    async def follow(self, statements: Statements, match_id: str, game: AnyGame,
                     folded: FoldedMatch, action: str, at: datetime) -> tuple[Announcement, ...]:
        """Every owner brought up to date with the write; what they announce after it."""
        announcements = []
        for owner in self.owners:
            announcement = await owner.follow(statements, match_id, game, folded, action, at)
            if announcement is not None:
                announcements.append(announcement)
        return tuple(announcements)
