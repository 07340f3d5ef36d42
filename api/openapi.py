"""The OpenAPI document as a contract: what the service enforces beyond what Litestar reads from
the handlers' signatures, written into the document when it is first read (:class:`DocumentedApp`).

- Each game's round entry, result, totals and standings line are components of their own
  (:mod:`api.games.schemas`).
- Request bodies take no unknown fields (``additionalProperties: false``) and ``game`` is one of
  the registry's ids.
- Every operation that takes a body may answer 415 (:mod:`api.edge.bodies`).
- Every error answer is documented as problem details (:mod:`api.edge.problems`), whoever declared
  it: a handler's ``responses`` or Litestar from its ``raises``.
- Every response header has a schema (a string), and so has every optional request header: a
  header is sent or left out, never ``null`` (the word ``null`` sent as ``X-Table-Phone`` is no
  key, and its pattern refuses it).
- Answers that are not JSON say so: the CSV and HTML exports next to their JSON form, and the
  event streams as ``text/event-stream``.
- Every operation that takes a token may answer 429 (:mod:`api.edge.ratelimit`); every other one
  says it needs none (``security: []``), which generators and linters read as public rather
  than forgotten.
- A field that may be left out but is never ``null`` (a msgspec ``UNSET`` default) is its one
  kind, not a ``oneOf`` of that one kind.
"""

from typing import Any

from litestar import Litestar, Request
from litestar.enums import ParamType
from litestar.openapi.plugins import JsonRenderPlugin, OpenAPIRenderPlugin
from litestar.openapi.spec import (
    OpenAPI,
    OpenAPIHeader,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Parameter,
    Reference,
    RequestBody,
    Schema,
)

from api.clubs import schemas as club_schemas
from api.edge.problems import PROBLEM_MEDIA_TYPE, Fault, NotFound, ProblemBody
from api.games.schemas import GamePart, game_components
from api.i18n import _
from api.matches import schemas as match_schemas
from api.tournaments import schemas as tournament_schemas
from scoring import registry

CLOSED_REQUEST_BODIES = (match_schemas.NewMatch, *tournament_schemas.CLOSED_REQUEST_BODIES,
                         *club_schemas.CLOSED_REQUEST_BODIES)
GAME_FIELDS = ((match_schemas.NewMatch, "game"), (tournament_schemas.NewTournament, "game"),
               (tournament_schemas.BackupSettings, "game"))


DOCUMENT_PATH = "/openapi.json"
DOCUMENT = "/schema/openapi.json"
VIEWER_PATHS = ("/swagger", "/redoc", "/elements", "/rapidoc", "/scalar", "/openapi.yaml",
                "/openapi.yml", "/oauth2-redirect.html")


class ViewersNotServed(OpenAPIRenderPlugin):
    """The HTML viewers Litestar can serve, answered with a 404 problem that points to the
    document instead: each viewer loads its scripts from a CDN, which the content security
    policy forbids and a tournament room without internet cannot reach, so they showed a blank
    page. Any OpenAPI viewer or client generator reads ``/schema/openapi.json``."""

    def __init__(self) -> None:
        super().__init__(path=VIEWER_PATHS)

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        raise NotFound(
            _("This server serves its API reference as the OpenAPI document only: {document}.",
              document=DOCUMENT),
            errors=[Fault("", "reference_page_not_served", _(
                "Open {document} with any OpenAPI viewer.", document=DOCUMENT))])


class DocumentedApp(Litestar):
    """The app whose OpenAPI document is completed (:func:`complete`) when first read, not when
    the app is built: only ``/schema`` and the tests read it, and building it was 60 % of
    building an app (0.2 s), which every API test and every server process paid."""

    __slots__ = ("_document_completed",)

    def __init__(self, **config: Any) -> None:
        self._document_completed = False
        super().__init__(**config)

    @property
    def openapi_schema(self) -> OpenAPI:
        document = super().openapi_schema
        if not self._document_completed:
            self._document_completed = True  # first: complete() reads the document through here
            complete(self)
        return document


class CompletedDocument(JsonRenderPlugin):
    """``/schema/openapi.json``: the document as :class:`DocumentedApp` completes it. Litestar
    hands a render plugin the document as its own plugin built it, which nobody completed."""

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        return self.render_json(request, request.app.openapi_schema.to_schema())


RENDER_PLUGINS = (CompletedDocument(path=[DOCUMENT_PATH]), ViewersNotServed())
"""``/schema`` and ``/schema/openapi.json`` answer the document; see :class:`ViewersNotServed`."""


def component_ref(name: str) -> Reference:
    return Reference(ref=f"#/components/schemas/{name}")


def operations(app: Litestar) -> list[Operation]:
    """Every operation of the document."""
    found = []
    for item in (app.openapi_schema.paths or {}).values():
        for operation in (item.get, item.put, item.post, item.delete, item.options, item.head,
                          item.patch, item.trace):
            if operation is not None:
                found.append(operation)
    return found


def _close_request_bodies(app: Litestar) -> None:
    components = app.openapi_schema.components.schemas or {}
    for struct in CLOSED_REQUEST_BODIES:
        component = components.get(struct.__name__)
        if isinstance(component, Schema):
            component.additional_properties = False
    for struct, field in GAME_FIELDS:
        component = components.get(struct.__name__)
        game = component.properties.get(field) if isinstance(component, Schema) and \
            component.properties else None
        if isinstance(game, Schema):
            game.enum = list(registry.all_games())


UNDECODED_BODIES = {"importTournament": tournament_schemas.Backup,
                    "importClub": club_schemas.ClubBackup}
"""Operations that read their body themselves, elsewhere than on the event loop
(:mod:`api.server.offload`): their signature names no body, the document does."""


def _document_undecoded_bodies(app: Litestar) -> None:
    for operation in operations(app):
        struct = UNDECODED_BODIES.get(operation.operation_id or "")
        if struct is not None:
            operation.request_body = RequestBody(required=True, content={
                "application/json": OpenAPIMediaType(schema=component_ref(struct.__name__))})


TEXT = Schema(type=OpenAPIType.STRING)
OTHER_MEDIA_TYPES = {
    "exportMatch": ({"text/csv": TEXT}, False),
    "exportTournament": ({"text/csv": TEXT, "text/html": TEXT}, False),
    "matchEvents": ({"text/event-stream": TEXT}, True),
    "tournamentEvents": ({"text/event-stream": TEXT}, True),
    "clubEvents": ({"text/event-stream": TEXT}, True),
    "exportClub": ({"text/csv": TEXT}, False),
    "clubSettlement": ({"text/csv": TEXT}, False),
    "clubKasse": ({"text/csv": TEXT}, False),
    "clubSeasonStandings": ({"text/csv": TEXT}, False),
}
"""Per operation, the media types of its 200 answer beyond JSON (and whether they replace it)."""


WHOLE_ANSWERS = {"getGame": GamePart.DESCRIPTION}
"""Operations whose whole 200 answer is one of the games' components: Litestar places a
plugin's reference inside an answer (a list, a field), not as the answer itself."""


def _document_whole_answers(app: Litestar) -> None:
    for operation in operations(app):
        part = WHOLE_ANSWERS.get(operation.operation_id or "")
        ok = (operation.responses or {}).get("200")
        if part is not None and isinstance(ok, OpenAPIResponse) and ok.content:
            for media_type in ok.content.values():
                media_type.schema = component_ref(part.value)


def _document_media_types(app: Litestar) -> None:
    for operation in operations(app):
        media_types, replace = OTHER_MEDIA_TYPES.get(operation.operation_id or "", ({}, False))
        ok = (operation.responses or {}).get("200")
        if not media_types or not isinstance(ok, OpenAPIResponse):
            continue
        content = {} if replace or ok.content is None else ok.content
        content.update({name: OpenAPIMediaType(schema=schema)
                        for name, schema in media_types.items()})
        ok.content = content


def _document_unsupported_media_types(app: Litestar) -> None:
    for operation in operations(app):
        if operation.request_body is not None:
            responses = operation.responses if operation.responses is not None else {}
            responses["415"] = OpenAPIResponse(
                description="The body was not sent as application/json")
            operation.responses = responses


def _errors_as_problems(app: Litestar) -> None:
    problem = {PROBLEM_MEDIA_TYPE: OpenAPIMediaType(schema=component_ref(ProblemBody.__name__))}
    for operation in operations(app):
        for status, response in (operation.responses or {}).items():
            if int(status) >= 400 and isinstance(response, OpenAPIResponse):
                response.content = dict(problem)


def _type_headers(app: Litestar) -> None:
    for operation in operations(app):
        for response in (operation.responses or {}).values():
            if not isinstance(response, OpenAPIResponse):
                continue
            for header in (response.headers or {}).values():
                if isinstance(header, OpenAPIHeader) and header.schema is None \
                        and header.content is None:
                    header.schema = Schema(type=OpenAPIType.STRING)


def _optional_headers_as_strings(app: Litestar) -> None:
    for operation in operations(app):
        for parameter in operation.parameters or ():
            schema = parameter.schema if isinstance(parameter, Parameter) else None
            if not isinstance(parameter, Parameter) or parameter.param_in != ParamType.HEADER \
                    or not isinstance(schema, Schema) or not schema.one_of:
                continue
            kinds = [kind for kind in schema.one_of
                     if not (isinstance(kind, Schema) and kind.type == OpenAPIType.NULL)]
            if len(kinds) == 1 and isinstance(kinds[0], Schema):
                schema.one_of = None
                schema.type = kinds[0].type


def _document_token_limit(app: Litestar) -> None:
    for operation in operations(app):
        if not any("bearer" in s for s in operation.security or ()):
            continue
        responses = operation.responses if operation.responses is not None else {}
        responses["429"] = OpenAPIResponse(
            description="Too many refused tokens from this address: wait Retry-After s",
            content={PROBLEM_MEDIA_TYPE: OpenAPIMediaType(
                schema=component_ref(ProblemBody.__name__))})
        operation.responses = responses


def _declare_public_operations(app: Litestar) -> None:
    for operation in operations(app):
        if operation.security is None:
            operation.security = []


def _single_kinds_unwrapped(app: Litestar) -> None:
    for component in (app.openapi_schema.components.schemas or {}).values():
        properties = component.properties if isinstance(component, Schema) else None
        for name, field in (properties or {}).items():
            if isinstance(field, Schema) and field.one_of is not None \
                    and len(field.one_of) == 1 and isinstance(field.one_of[0], Schema) \
                    and field.one_of[0].type is not None:
                field.type = field.one_of[0].type
                field.one_of = None
            elif isinstance(field, Schema) and field.one_of is not None \
                    and len(field.one_of) == 1 and isinstance(field.one_of[0], Reference) \
                    and properties is not None:
                # A struct left out until answered (a tournament's clock): its component.
                properties[name] = field.one_of[0]


def complete(app: Litestar) -> None:
    """Write into the app's document what the handlers' signatures cannot say."""
    components = app.openapi_schema.components
    components.schemas = {**(components.schemas or {}), **game_components()}
    _close_request_bodies(app)
    _document_undecoded_bodies(app)
    _document_unsupported_media_types(app)
    _errors_as_problems(app)
    _type_headers(app)
    _optional_headers_as_strings(app)
    _document_media_types(app)
    _document_whole_answers(app)
    _document_token_limit(app)
    _declare_public_operations(app)
    _single_kinds_unwrapped(app)
