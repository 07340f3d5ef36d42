"""Game descriptions straight from :mod:`scoring.registry`, so clients need no game knowledge;
their words (option labels and help, suit and rank names) in the request's language."""

from typing import Annotated, Any

from litestar import Controller, get
from litestar.params import PathParameter

from api.edge.problems import BadRequest, NotFound, documented
from api.games.schemas import GameDescription
from api.i18n import _
from api.i18n.http import RequestWords
from scoring import registry


class GameController(Controller):
    path = "/api/v1/games"
    tags = ("games",)

    @get("/", operation_id="listGames", raises=[BadRequest], responses=documented())
    async def list_games(self, words: RequestWords) -> list[GameDescription]:
        """Every game: id, name, player range, options with defaults, card and seal ids."""
        return [game.describe(words) for game in registry.all_games().values()]

    @get("/{game_id:str}", operation_id="getGame", raises=[BadRequest, NotFound],
         responses=documented(NotFound))
    async def get_game(
        self, words: RequestWords,
        game_id: Annotated[str, PathParameter(min_length=1, max_length=64,
                                              pattern=r"^[A-Za-z0-9_-]+$")],
    ) -> dict[str, Any]:  # documented as a GameDescription by api.openapi
        """One game's description."""
        game = registry.game_by_id(game_id)
        if game is None:
            raise NotFound(_('There is no game "{game}".', game=game_id))
        return game.describe(words)
