"""Game descriptions straight from :mod:`scoring.registry`, so clients need no game knowledge."""

from typing import Annotated, Any

from litestar import Controller, get
from litestar.params import PathParameter

from api.problems import BadRequest, NotFound, documented
from scoring import registry


class GameController(Controller):
    path = "/api/v1/games"
    tags = ("games",)

    @get("/", operation_id="listGames", raises=[BadRequest], responses=documented())
    async def list_games(self) -> list[dict[str, Any]]:
        """Every game: id, name, player range, options with defaults, card and seal ids."""
        return [game.describe() for game in registry.all_games().values()]

    @get("/{game_id:str}", operation_id="getGame", raises=[BadRequest, NotFound],
         responses=documented(NotFound))
    async def get_game(
        self, game_id: Annotated[str, PathParameter(min_length=1, max_length=64,
                                                    pattern=r"^[A-Za-z0-9_-]+$")],
    ) -> dict[str, Any]:
        """One game's description."""
        game = registry.game_by_id(game_id)
        if game is None:
            raise NotFound(f"There is no game {game_id!r}.")
        return game.describe()
