"""Every game Tafelrunde knows: each module in :mod:`scoring.games` that defines ``GAME``."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from functools import cache

from scoring import games
from scoring.game import VARIANT_SEPARATOR, AnyGame, GameVariant, Variants


@cache
def all_games() -> Mapping[str, AnyGame]:
    """The games by id, in the order of their module names."""
    found: dict[str, AnyGame] = {}
    for module_info in sorted(pkgutil.iter_modules(games.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{games.__name__}.{module_info.name}")
        game: AnyGame | None = getattr(module, "GAME", None)
        if game is not None:
            found[game.id] = game
    return found


def game_by_id(game_id: str) -> AnyGame | None:
    return all_games().get(game_id)


def game_by_key(key: str) -> AnyGame | None:
    """The game of a club's game key (:func:`scoring.game.counted_as`): ``sea-change``, or
    ``score-pad:Jass`` as a :class:`~scoring.game.GameVariant`; ``None`` for an unknown game,
    or a variant key of a game without variants, or a game's own id where it has them."""
    game_id, separator, variant = key.partition(VARIANT_SEPARATOR)
    game = game_by_id(game_id)
    if game is None or bool(separator) != isinstance(game, Variants) or (separator and not variant):
        return None
    return GameVariant(game, variant) if separator else game
