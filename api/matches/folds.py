"""The last fold of recently written matches, kept so that recording a round folds one round.

A fold is a pure function of a match's game, players, options and entries. A kept fold is used
only when its game, players and options and the entries it folded are, byte for byte as JSON,
those of the fold asked for (its entries the first ones); carrying it on with the rest
(:func:`scoring.match.fold_more`) then gives exactly what folding every entry would, and its
set-up spares checking the options again. So keeping folds makes a write cheaper, never different:
the fold of a write that was rolled back, or of a match another process has changed since, does
not match the stored entries and the match is folded afresh.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from scoring.game import AnyGame
from scoring.match import FoldedMatch, fold_match, fold_more, set_up
from scoring.reading import JSON

KEPT_MATCHES = 512


@dataclass(frozen=True, slots=True)
class _Kept:
    match: bytes
    folded: FoldedMatch
    entries: bytes


class RecentFolds:
    """The folds of the ``size`` matches written most recently in this process."""

    def __init__(self, size: int = KEPT_MATCHES) -> None:
        self._size = size
        self._kept: OrderedDict[str, _Kept] = OrderedDict()

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
