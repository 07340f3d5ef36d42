"""The last fold of recently written matches, kept so that recording a round folds one round.

A fold is a pure function of a match's game, players, options and entries. A kept fold is used
only when its game, players and options and the entries it folded are, byte for byte as JSON,
those of the fold asked for (its entries the first ones); carrying it on with the rest
(:func:`scoring.match.fold_more`) then gives exactly what folding every entry would, and its
set-up spares checking the options again. So keeping folds makes a write cheaper, never different:
the fold of a write that was rolled back, or of a match another process has changed since, does
not match the stored entries and the match is folded afresh.

It also keeps each match as this process's last committed write of it left it
(:meth:`RecentFolds.remember`), so that on PostgreSQL the next round can be written in one
statement without reading the match first: that statement stores the round only if the match is
still at the version kept (:func:`api.matches.service.record_round`). A match another process
has written since is therefore never written from a stale state; it is read and locked instead.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec

from scoring.game import AnyGame, Setup
from scoring.match import FoldedMatch, fold_match, fold_more, set_up
from scoring.reading import JSON

KEPT_MATCHES = 512


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match's own columns: what a fold does not decide."""

    id: str
    game: str
    players: list[JSON]
    options: JSON
    private: bool
    write_token_hash: str
    view_token_hash: str
    version: int
    created_at: datetime
    played_at: datetime
    location: str | None
    stakes: JSON = None
    """What it is played for, stored (:func:`api.matches.stakes.stored`), or ``None``."""


@dataclass(frozen=True, slots=True)
class Stored:
    """A match as stored: its record, its game, and (for folding) its round entries in order;
    kept after a write with an ``Idempotency-Key``, that key's stored answer as ``(key,
    fingerprint, body)`` too."""

    record: MatchRecord
    game: AnyGame
    entries: tuple[JSON, ...] = ()
    answer: tuple[str, str, JSON] | None = None

    def setup(self) -> Setup[Any]:
        return set_up(self.game, self.record.players, self.record.options)


@dataclass(frozen=True, slots=True)
class _Kept:
    match: bytes
    folded: FoldedMatch
    entries: bytes


class RecentFolds:
    """The folds of the ``size`` matches written most recently in this process, and the state
    this process's last committed write left each in."""

    def __init__(self, size: int = KEPT_MATCHES) -> None:
        self._size = size
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._written: OrderedDict[str, Stored] = OrderedDict()

    def remember(self, stored: Stored) -> None:
        """The match as a write of this process has just committed it. Writes of one match may
        finish in another order than they committed in: an older state never replaces a newer."""
        match_id = stored.record.id
        known = self._written.pop(match_id, None)
        self._written[match_id] = stored if known is None or \
            known.record.version < stored.record.version else known
        if len(self._written) > self._size:
            self._written.popitem(last=False)

    def last_written(self, match_id: str) -> Stored | None:
        """The match as this process last committed it, if it is among those kept; another
        process may have written it since."""
        return self._written.get(match_id)

    def fold(self, match_id: str, game: AnyGame, players: JSON, options: JSON,
             entries: Sequence[JSON]) -> FoldedMatch:
        """``fold_match(game, set_up(game, players, options), entries)``, raising the same way."""
        match = msgspec.json.encode((game.id, players, options))
        kept = self._kept.pop(match_id, None)
        if kept is None or kept.match != match:
            folded = fold_match(game, set_up(game, players, options), entries)
        elif len(kept.folded.rounds) <= len(entries) and \
                msgspec.json.encode(entries[:len(kept.folded.rounds)]) == kept.entries:
            folded = fold_more(game, kept.folded, entries[len(kept.folded.rounds):])
        else:
            folded = fold_match(game, kept.folded.setup, entries)
        self._kept[match_id] = _Kept(match, folded, msgspec.json.encode(entries))
        if len(self._kept) > self._size:
            self._kept.popitem(last=False)
        return folded
