"""What a tournament can be played for: a club (``"club"`` in ``POST /tournaments``).

The areas stack (matches < tournaments < clubs): a tournament knows nothing of clubs. A club's
tournament is opened, its players made members and its tables' matches made the club's through
:class:`TournamentHost`, which :mod:`api.clubs` implements and the app registers when it is made
(:func:`api.app.tournament_host`, ``state.tournament_host``). It is a plain object that pickles:
a big tournament's round is seated in the helper process (:mod:`api.server.offload`), which is
handed the host with the job.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from api.db.statements import Statements


class HostedTournament(Protocol):
    """A tournament's host, locked for the transaction that changes what it keeps."""

    async def adopt(self, statements: Statements, tournament_id: str, at: datetime) -> None:
        """Make the new tournament (already stored) the host's."""
        ...

    async def seat(self, statements: Statements, tournament_id: str, player_id: int, name: str,
                   at: datetime) -> None:
        """The new player (already stored) is the host's member of that name, made on first
        use; one member cannot play twice (422 at ``name``)."""
        ...

    async def adopt_tables(self, statements: Statements, tournament_id: str, game_id: str,
                           tables: Sequence[tuple[str, Sequence[int]]], at: datetime) -> None:
        """Make a new round's tables' matches (already stored: each match id with the players
        at its seats) the host's, its members at their seats."""
        ...

    async def finished(self, statements: Statements, tournament_id: str, at: datetime) -> None:
        """The tournament has just finished (in this transaction): its result counts for the
        host from now on."""
        ...


class TournamentHost(Protocol):
    """What a tournament can be played for."""

    async def open(self, statements: Statements, host_id: str,
                   authorization: str | None) -> HostedTournament:
        """Lock the host a new tournament is started for, after checking its token (401/403;
        422 at ``club`` for an unknown one)."""
        ...

    async def of(self, statements: Statements, tournament_id: str) -> HostedTournament | None:
        """Lock the host of a stored tournament; None for a tournament of no host."""
        ...
