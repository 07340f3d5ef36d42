"""Every game Tafelrunde knows: each module in :mod:`scoring.games` that defines ``GAME``."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from functools import cache

from scoring import games
from scoring.game import VARIANT_SEPARATOR, AnyGame, GameVariant, Variants
from scoring.messages import ENGLISH, Vocabulary, Wording


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


GAME_NAME = ("the name of a game: the title of its published edition in this language if there "
             "is one, else the title translated; a proper name (Sea Change, Tschau Sepp) is kept")
"""The catalogue context of the games' names."""


class _GameNames(Mapping[str, str]):
    """Every game's English name (``Game.name``) by its id, from the registry when first read;
    a variant's key (``score-pad:Jass``) gives its title, as the table typed it."""

    def __getitem__(self, key: str) -> str:
        game = all_games().get(key) or game_by_key(key)
        if game is None:
            raise KeyError(key)
        return game.name

    def __iter__(self) -> Iterator[str]:
        return iter(all_games())

    def __len__(self) -> int:
        return len(all_games())


GAMES = Vocabulary(GAME_NAME, _GameNames())
"""The games' names by game key, said in the reader's language (a message's ``{game}``)."""


def game_name(game: AnyGame, wording: Wording = ENGLISH) -> str:
    """The game's name said with ``wording`` (:data:`GAMES`): a variant's is its title."""
    return wording.term(GAMES, game.id, "")
