"""The games' own JSON in the OpenAPI document, from the shapes each game describes.

Every game module describes its round entry, round result, totals and standings line, the partly
entered round its guide reads and the guide's answer as plain JSON Schema data
(:class:`scoring.shapes.GameShapes`); here they become OpenAPI components, each named by its
``title``, and the unions the match endpoints take and answer with: ``RoundEntry`` (any game's
entry), ``RoundBody`` (an entry, or ``{"entry": ...}``), ``RoundResult``, ``RoundTotals``,
``MatchStanding``, and for the guide ``GuideBody`` (a partly entered round, or it under
``entry``) and ``RoundGuide``. The answers do not carry the game (the match does), so they are
unions rather than discriminated: each game's shapes differ in their required fields. A Struct
field or body annotated with a :class:`GamePart` is documented as that union, so adding a game
changes nothing here.
"""

from enum import Enum
from typing import Annotated, Any, cast

from litestar.openapi.spec import OpenAPIType, Reference, Schema
from litestar.plugins import OpenAPISchemaPlugin
from litestar.typing import FieldDefinition

from scoring import registry
from scoring.game import DESCRIPTION_SHAPE
from scoring.reading import JSON
from scoring.shapes import GameShapes, Shape


class GamePart(Enum):
    """Which union of the games' shapes a value is; the value is the component's name."""

    ENTRY = "RoundEntry"
    BODY = "RoundBody"
    RESULT = "RoundResult"
    TOTALS = "RoundTotals"
    STANDING = "MatchStanding"
    DESCRIPTION = "GameDescription"
    PARTIAL_ENTRY = "PartialRoundEntry"
    GUIDE_BODY = "GuideBody"
    GUIDE = "RoundGuide"


RoundEntry = Annotated[Any, GamePart.ENTRY]
RoundBody = Annotated[dict[str, Any], GamePart.BODY]
RoundResult = Annotated[dict[str, Any], GamePart.RESULT]
RoundTotals = Annotated[dict[str, Any], GamePart.TOTALS]
MatchStanding = Annotated[dict[str, Any], GamePart.STANDING]
GameDescription = Annotated[dict[str, Any], GamePart.DESCRIPTION]
GuideBody = Annotated[dict[str, Any], GamePart.GUIDE_BODY]
RoundGuide = Annotated[dict[str, Any], GamePart.GUIDE]

WRAPPED = {GamePart.BODY: "WrappedRoundEntry", GamePart.GUIDE_BODY: "WrappedPartialRoundEntry"}
"""The component of a body that holds its entry under ``entry``."""
_KEYWORDS = {
    "type": "type", "title": "title", "description": "description", "enum": "enum",
    "const": "const", "minimum": "minimum", "maximum": "maximum", "minItems": "min_items",
    "maxItems": "max_items", "required": "required", "items": "items",
    "properties": "properties", "additionalProperties": "additional_properties",
    "oneOf": "one_of", "anyOf": "any_of",
}
"""The JSON Schema keywords a game's shape may use, and the field of Litestar's ``Schema``."""
_SUBSCHEMAS = {"items", "additionalProperties"}
_SUBSCHEMA_LISTS = {"oneOf", "anyOf"}


def ref(name: str) -> Reference:
    return Reference(ref=f"#/components/schemas/{name}")


class Components:
    """OpenAPI components made from shapes: every titled shape becomes one, referenced where
    it is used."""

    def __init__(self) -> None:
        self.schemas: dict[str, Schema] = {}
        self._shapes: dict[str, Shape] = {}

    def add(self, shape: Shape) -> Schema | Reference:
        """The schema of ``shape``; a reference to its component if it has a title."""
        title = shape.get("title")
        if not isinstance(title, str):
            return self._schema(shape)
        if title in self._shapes:
            if self._shapes[title] != shape:
                raise ValueError(f"two different shapes are called {title!r}")
        else:
            self._shapes[title] = shape
            self.schemas[title] = self._schema(shape)
        return ref(title)

    def _schema(self, shape: Shape) -> Schema:
        fields: dict[str, Any] = {}
        for keyword, value in shape.items():
            if keyword not in _KEYWORDS:
                raise ValueError(f"a game's shape uses {keyword!r}, unknown to the API")
            fields[_KEYWORDS[keyword]] = self._value(keyword, value)
        return Schema(**fields)

    def _value(self, keyword: str, value: JSON) -> Any:
        if keyword == "type" and isinstance(value, str):
            return OpenAPIType(value)
        if keyword in _SUBSCHEMAS and isinstance(value, dict):
            return self.add(value)
        if keyword in _SUBSCHEMA_LISTS and isinstance(value, list):
            return [self.add(item) for item in value if isinstance(item, dict)]
        if keyword == "properties" and isinstance(value, dict):
            return {name: self.add(item) for name, item in value.items()
                    if isinstance(item, dict)}
        return value


def _union(components: Components, name: GamePart, description: str,
           members: list[Shape]) -> None:
    components.schemas[name.value] = Schema(
        title=name.value, description=description,
        any_of=[components.add(member) for member in members])


def _body(components: Components, body: GamePart, entry: GamePart, description: str) -> None:
    """A body that is ``entry``, or ``{"entry": entry}``."""
    wrapped = WRAPPED[body]
    components.schemas[body.value] = Schema(
        title=body.value, description=description, any_of=[ref(entry.value), ref(wrapped)])
    components.schemas[wrapped] = Schema(
        title=wrapped, type=OpenAPIType.OBJECT, properties={"entry": ref(entry.value)},
        required=["entry"], additional_properties=False)


def game_components() -> dict[str, Schema]:
    """Every game's shapes as components, the unions over all games, and what describes a
    game."""
    components = Components()
    components.add(DESCRIPTION_SHAPE)
    shapes: list[GameShapes] = [game.shapes for game in registry.all_games().values()]
    _union(components, GamePart.ENTRY, "A round entry of the match's game",
           [game.entry for game in shapes])
    _body(components, GamePart.BODY, GamePart.ENTRY, "A round entry, or the entry under 'entry'")
    _union(components, GamePart.RESULT, "A round's result in the match's game",
           [game.result for game in shapes])
    _union(components, GamePart.TOTALS, "The running totals after a round",
           [game.totals for game in shapes])
    _union(components, GamePart.STANDING, "One side's line in a match's standings",
           [game.standing for game in shapes])
    _union(components, GamePart.PARTIAL_ENTRY, "A round of the match's game as far as it is "
           "entered", [game.partial_entry for game in shapes])
    _body(components, GamePart.GUIDE_BODY, GamePart.PARTIAL_ENTRY,
          "A partly entered round, or it under 'entry'")
    _union(components, GamePart.GUIDE, "The match's game's help for a round being entered",
           [game.guide for game in shapes])
    return components.schemas


class GamePartSchemas(OpenAPISchemaPlugin):
    """Documents a value annotated with a :class:`GamePart` as that union's component."""

    def is_plugin_supported_field(self, field_definition: FieldDefinition) -> bool:
        return any(isinstance(item, GamePart) for item in field_definition.metadata)

    def to_openapi_schema(self, field_definition: FieldDefinition,
                          schema_creator: Any) -> Schema:
        part = next(item for item in field_definition.metadata if isinstance(item, GamePart))
        # Litestar places the Reference as it would a Schema.
        return cast("Schema", ref(part.value))
