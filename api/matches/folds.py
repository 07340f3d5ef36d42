"""The last fold of recently written matches, kept so that recording a round folds one round.

A fold is a pure function of a match's setup and entries. A kept fold is used only when the
entries it folded are, byte for byte as JSON, the first entries of the fold asked for, and its
setup is the same; carrying it on with the rest (:func:`scoring.match.fold_more`) then gives
exactly what folding every entry would. So keeping folds makes a write cheaper, never different:
the fold of a write that was rolled back, or of a match another process has changed since, does
not match the stored entries and the match is folded afresh.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from scoring.game import AnyGame, Setup
from scoring.match import FoldedMatch, fold_match, fold_more
from scoring.reading import JSON

KEPT_MATCHES = 512


@dataclass(frozen=True, slots=True)
class _Kept:
    game: AnyGame
    folded: FoldedMatch
    entries: bytes


class RecentFolds:
    """The folds of the ``size`` matches written most recently in this process."""

    def __init__(self, size: int = KEPT_MATCHES) -> None:
        self._size = size
        self._kept: OrderedDict[str, _Kept] = OrderedDict()

    def fold(self, match_id: str, game: AnyGame, setup: Setup[Any],
             entries: Sequence[JSON]) -> FoldedMatch:
        """``fold_match(game, setup, entries)``, raising the same way."""
        kept = self._kept.pop(match_id, None)
        if kept is not None and kept.game is game and kept.folded.setup == setup and \
                len(kept.folded.rounds) <= len(entries) and \
                msgspec.json.encode(entries[:len(kept.folded.rounds)]) == kept.entries:
            folded = fold_more(game, kept.folded, entries[len(kept.folded.rounds):])
        else:
            folded = fold_match(game, setup, entries)
        self._kept[match_id] = _Kept(game, folded, msgspec.json.encode(entries))
        if len(self._kept) > self._size:
            self._kept.popitem(last=False)
        return folded
