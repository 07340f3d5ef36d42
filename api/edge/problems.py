"""RFC 9457 problem details for every error the service answers with, in the request's language.

Every error body is ``application/problem+json`` with ``type``, ``title``, ``status``, ``detail``
and ``errors`` (one item per bad field: ``path`` relative to the request body, ``code``,
``message``, ``params``; empty when no field is to blame). Litestar's own errors (400, 404, 405,
413) get the same shape. Anything unexpected is logged and answered with a 500 problem that
reveals nothing.

``title``, ``detail`` and each ``message`` are said in the language the request negotiates
(:mod:`api.i18n`); ``code``, ``path`` and ``params`` are the same in every language. So a problem
is raised with a :class:`~api.i18n.Phrase` (``raise Conflict(_("..."))``) and each bad field as a
:class:`Fault`; the handler says them when the answer is written.
"""

import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from http import HTTPStatus
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException
from litestar.openapi.datastructures import ResponseSpec
from litestar.types import Scope

from api.i18n import Phrase, Words, _, words_for
from api.i18n.http import PROBLEM_MEDIA_TYPE as PROBLEM_MEDIA_TYPE
from api.i18n.http import choice_of, words_of
from scoring import registry
from scoring.errors import Errors, FieldError
from scoring.messages import NO_NAMES, Listed, Message, Names, Vocabulary
from scoring.reading import BLANK_NAME, NOT_IN_NAMES, read_name

log = logging.getLogger("tafelrunde.api")


class FieldProblem(msgspec.Struct):
    path: str
    code: str
    message: str
    params: dict[str, Any] = {}


class ProblemBody(msgspec.Struct):
    type: str
    title: str
    status: int
    detail: str
    errors: list[FieldProblem] = []


@dataclass(frozen=True, slots=True)
class Fault:
    """One bad field of a request, to be said in the reader's language: where (``path``), which
    rule (``code``) and what to say (``text``, whose parameters are the problem's ``params``)."""

    path: str
    code: str
    text: Phrase

    def said(self, words: Words) -> FieldProblem:
        params = {key: list(value) if isinstance(value, tuple) else value
                  for key, value in self.text.params.items()}
        return FieldProblem(self.path, self.code, words(self.text), params)


class Problem(HTTPException):
    """An error answer; subclasses fix the status. ``errors`` name the bad fields."""

    status_code = 500

    def __init__(
        self, detail: Phrase, *, errors: Iterable[Fault] = (),
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail=detail.english, headers=headers)
        self.text = detail
        self.errors = list(errors)


class BadRequest(Problem):
    status_code = 400


class Unauthorized(Problem):
    status_code = 401

    def __init__(self, detail: Phrase) -> None:
        super().__init__(detail, headers={"WWW-Authenticate": "Bearer"})


class Forbidden(Problem):
    status_code = 403


class NotFound(Problem):
    status_code = 404


class Conflict(Problem):
    status_code = 409


class PreconditionFailed(Problem):
    status_code = 412


class ContentTooLarge(Problem):
    status_code = 413


class UnsupportedMediaType(Problem):
    status_code = 415


class Unprocessable(Problem):
    status_code = 422


class Unavailable(Problem):
    status_code = 503


NO_SUCH_GAME = _("There is no such game.")


def unknown_game(path: str, game_id: str) -> Fault:
    """The fault of a game id that names none of the registry's games."""
    return Fault(path, "unknown_game", _('There is no game "{game}"; the games are {known}.',
                                         game=game_id, known=list(registry.all_games())))


def field_problems(errors: Iterable[FieldError], prefix: str = "",
                   names: Names = NO_NAMES) -> list[Fault]:
    """The scoring package's field errors, their paths put under ``prefix`` when given;
    ``names`` says who the seats and sides the messages speak of are."""
    return [Fault(_join(prefix, error.path), error.code,
                  Phrase(error.template, error.params, names)) for error in errors]


def name_field(value: str, path: str, problems: list[Fault], *, maximum: int,
               blank: Message = BLANK_NAME) -> str | None:
    """A name a person reads, checked as every name is (:func:`scoring.reading.read_name`);
    what is wrong with it is added to ``problems``."""
    errors = Errors()
    name = read_name(value, path, errors, maximum=maximum, blank=blank)
    problems += field_problems(errors)
    return name


def optional_name_field(value: str | None, path: str, problems: list[Fault], *,
                        maximum: int) -> str | None:
    """A name that may be left out: ``None``, or only spaces, is none."""
    if value is None or (not value.strip() and NOT_IN_NAMES.isdisjoint(value)):
        return None
    return name_field(value, path, problems, maximum=maximum)


def _join(prefix: str, path: str) -> str:
    if not prefix:
        return path
    if not path:
        return prefix
    return f"{prefix}{path}" if path.startswith("[") else f"{prefix}.{path}"


def documented(*problems: type[Problem]) -> dict[int, ResponseSpec]:
    """OpenAPI responses for the given problems plus 400, which every handler can answer."""
    statuses = sorted({400, *(p.status_code for p in problems)})
    return {
        status: ResponseSpec(
            data_container=ProblemBody, media_type=PROBLEM_MEDIA_TYPE,
            description=HTTPStatus(status).phrase, generate_examples=False,
        )
        for status in statuses
    }


TITLES = {
    400: _("Bad Request"), 401: _("Unauthorized"), 403: _("Forbidden"), 404: _("Not Found"),
    405: _("Method Not Allowed"), 409: _("Conflict"), 412: _("Precondition Failed"),
    413: _("Content Too Large"), 415: _("Unsupported Media Type"),
    422: _("Unprocessable Content"), 429: _("Too Many Requests"),
    500: _("Internal Server Error"), 503: _("Service Unavailable"),
}
"""Each status's title: the HTTP reason phrase (RFC 9110's wording), said in the language."""
OTHER_TITLE = _("Error")
DETAILS = {
    400: _("The request cannot be read as it was sent."),
    404: _("There is nothing at this address."),
    405: _("This address does not take this kind of request."),
    413: _("The request is too large."),
    415: _("The request is not in a format this address takes."),
    500: _("The server could not answer this request."),
}
"""What Litestar's own errors say, where it gives no field to blame."""
BODY_SHAPE = _("The request body does not have the expected shape.")
TOO_DEEP = _("The JSON body is nested too deeply.")

JSON_TYPES = Vocabulary("a kind of JSON value, with its article", {
    "int": "a whole number", "float": "a number", "str": "a text", "bool": "true or false",
    "array": "a list", "object": "an object", "null": "an empty value", "bytes": "a text",
    "datetime": "a date",
})
_JSON_TYPE_NAMES = Listed(JSON_TYPES, "or")
WRONG_TYPE = Message("invalid", "Expected {expected} here, not {got}.",
                     kinds={"expected": _JSON_TYPE_NAMES, "got": JSON_TYPES})
MISSING_FIELD = Message("invalid", "The field {field} is missing.")
UNKNOWN_FIELD = Message("invalid", "There is no field {field} here.")
MISSING_PARAMETER = Message("missing", "The {source} parameter {field} is missing.",
                            kinds={"source": Vocabulary("where a request carries a parameter", {
                                "query": "query", "header": "header", "path": "path",
                                "cookie": "cookie"})})
TOO_LONG_TEXT = Message("invalid", "At most 1 character is allowed here.",
                        plural="At most {maximum} characters are allowed here.", count="maximum")
TOO_SHORT_TEXT = Message("invalid", "At least 1 character is needed here.",
                         plural="At least {minimum} characters are needed here.", count="minimum")
TOO_MANY_ITEMS = Message("invalid", "At most 1 item is allowed here.",
                         plural="At most {maximum} items are allowed here.", count="maximum")
TOO_FEW_ITEMS = Message("invalid", "At least 1 item is needed here.",
                        plural="At least {minimum} items are needed here.", count="minimum")
AT_LEAST = Message("invalid", "The smallest value allowed here is {minimum}.")
AT_MOST = Message("invalid", "The largest value allowed here is {maximum}.")
ABOVE = Message("invalid", "The value must be more than {minimum}.")
BELOW = Message("invalid", "The value must be less than {maximum}.")
NOT_A_CHOICE = Message("invalid", '"{value}" is not one of the values allowed here.')
BAD_FORMAT = Message("invalid", "This value is not in the format expected here.")
NOT_VALID = Message("invalid", "This value is not valid here.")

_TYPES = r"`(?P<{}>[^`]+)`"
_MSGSPEC: list[tuple[re.Pattern[str], Message]] = [
    (re.compile(r"^Expected " + _TYPES.format("expected") + r", got "
                + _TYPES.format("got") + "$"), WRONG_TYPE),
    (re.compile(r"^Object missing required field `(?P<field>[^`]*)`$"), MISSING_FIELD),
    (re.compile(r"^Object contains unknown field `(?P<field>[^`]*)`$"), UNKNOWN_FIELD),
    (re.compile(r"^Expected `str` of length <= (?P<maximum>\d+)$"), TOO_LONG_TEXT),
    (re.compile(r"^Expected `str` of length >= (?P<minimum>\d+)$"), TOO_SHORT_TEXT),
    (re.compile(r"^Expected `(?:array|object|bytes)` of length <= (?P<maximum>\d+)$"),
     TOO_MANY_ITEMS),
    (re.compile(r"^Expected `(?:array|object|bytes)` of length >= (?P<minimum>\d+)$"),
     TOO_FEW_ITEMS),
    (re.compile(r"^Expected `(?:int|float|number)` >= (?P<minimum>-?[\d.]+)$"), AT_LEAST),
    (re.compile(r"^Expected `(?:int|float|number)` <= (?P<maximum>-?[\d.]+)$"), AT_MOST),
    (re.compile(r"^Expected `(?:int|float|number)` > (?P<minimum>-?[\d.]+)$"), ABOVE),
    (re.compile(r"^Expected `(?:int|float|number)` < (?P<maximum>-?[\d.]+)$"), BELOW),
    # msgspec quotes a text as Python would ('xml'); the language quotes it its own way.
    (re.compile(r"^Invalid enum value (?:'(?P<text>.*)'|(?P<value>.*))$"), NOT_A_CHOICE),
    (re.compile(r"^(?:Expected `str` matching regex|Invalid ).*$"), BAD_FORMAT),
]
_MISSING_PARAMETER = re.compile(
    r"^Missing required (?P<source>\w+) parameter '(?P<field>[^']*)'")


def _number(text: str) -> int | float:
    return float(text) if "." in text else int(text)


def validation_text(message: str) -> Phrase:
    """msgspec's English complaint about one value, as a message said in any language; what
    msgspec said stays in ``params.detail`` for the developers of other clients."""
    for pattern, said in _MSGSPEC:
        if found := pattern.match(message):
            params: dict[str, Any] = {
                "value" if key == "text" else key:
                    _number(value) if key in {"minimum", "maximum"} else value
                for key, value in found.groupdict().items() if value is not None
            }
            if said is WRONG_TYPE:
                # "a number or an empty value" would tell a person nothing more than "a number".
                params["expected"] = ([kind for kind in params["expected"].split(" | ")
                                       if kind != "null"] or ["null"])
            return Phrase(said, {**params, "detail": message})
    return Phrase(NOT_VALID, {"detail": message})


_MSGSPEC_PATH = re.compile(r" - at `\$(?P<path>[^`]*)`")


def _split(message: str) -> tuple[str, str]:
    """msgspec's "Expected `int`, got `str` - at `$.players[0]`" as (``players[0]``, the rest)."""
    if match := _MSGSPEC_PATH.search(message):
        return match["path"].lstrip("."), message[: match.start()]
    return "", message


NO_BODY = _("This request needs a body.")


def _sent_name(request: Request[Any, Any, Any], key: str, source: str) -> str:
    """A parameter as the client names it (``format``, ``Idempotency-Key``), not as the handler's
    argument (``format_``, ``idempotency_key``)."""
    field = request.route_handler.parsed_fn_signature.parameters.get(key)
    declared = getattr(field, "kwarg_definition", None)
    for name in (getattr(declared, source, None), getattr(declared, "name", None)):
        if isinstance(name, str) and name:
            return name
    if source == "header":
        return "-".join(part.capitalize() for part in key.split("_"))
    return key


def _litestar_errors(request: Request[Any, Any, Any], extra: Any) -> list[Fault]:
    """Litestar's validation messages (``{"key", "message", "source"}``) as faults."""
    if not isinstance(extra, list):
        return []
    found = []
    for item in extra:
        if not isinstance(item, Mapping):
            continue
        path, message = _split(str(item.get("message", "")))
        given = item.get("source", "body")  # Litestar's ParamType for parameters
        source = str(given.value if isinstance(given, Enum) else given)
        key = str(item.get("key", ""))
        if source == "body" and key == "data" and message == "'data'":  # no body was sent
            found.append(Fault("", "invalid", NO_BODY.with_params(source=source)))
            continue
        text = validation_text(message)
        if source != "body":
            key = _sent_name(request, key, source)
        found.append(Fault(path or key, "invalid", Phrase(text.message,
                                                          {**text.params, "source": source})))
    return found


def _missing_parameter(detail: str) -> list[Fault]:
    """Litestar's "Missing required header parameter 'X-Device-Id' for path ..." as a fault."""
    if found := _MISSING_PARAMETER.match(detail):
        return [Fault(found["field"], "missing", Phrase(MISSING_PARAMETER, found.groupdict()))]
    return []


def invalid_body(error: msgspec.ValidationError) -> BadRequest:
    """msgspec's complaint about a request body as a 400 naming the field."""
    path, message = _split(str(error))
    text = validation_text(message)
    return BadRequest(BODY_SHAPE, errors=[
        Fault(path, "invalid", Phrase(text.message, {**text.params, "source": "body"}))])


def problem_response(words: Words, status: int, detail: Phrase | None, errors: Iterable[Fault],
                     headers: Mapping[str, str] | None = None) -> Response[ProblemBody]:
    """The problem answer, said with ``words``; ``detail`` defaults to the status's own."""
    title = words(TITLES.get(status, OTHER_TITLE))
    said = title if detail is None else words(detail)
    return Response(
        ProblemBody(type="about:blank", title=title, status=status, detail=said,
                    errors=[fault.said(words) for fault in errors]),
        status_code=status, media_type=PROBLEM_MEDIA_TYPE, headers=dict(headers or {}),
    )


async def send_problem(scope: Scope, send: Callable[[Any], Awaitable[None]], status: int,
                       detail: Phrase | None, errors: Iterable[Fault] = (),
                       headers: Mapping[str, str] | None = None) -> None:
    """The problem answer sent straight through ASGI, for answers given before Litestar sees
    the request (a path it must not route, a connection over the server's limit)."""
    head, body = problem_answer(scope, status, detail, errors, headers)
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def problem_answer(scope: Scope, status: int, detail: Phrase | None,
                   errors: Iterable[Fault] = (), headers: Mapping[str, str] | None = None,
                   ) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of a problem answer, in the language ``scope`` negotiates; also for
    the server's protocol, which answers a request it refuses to read without ASGI."""
    choice = choice_of(scope)
    words = words_for(choice)
    title = words(TITLES.get(status, OTHER_TITLE))
    body = msgspec.json.encode(ProblemBody(
        type="about:blank", title=title, status=status,
        detail=title if detail is None else words(detail),
        errors=[fault.said(words) for fault in errors]))
    return [
        (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
        (b"content-length", str(len(body)).encode()),
        (b"content-language", choice.language.encode()), (b"vary", b"Accept-Language"),
        *((name.lower().encode("latin-1"), value.encode("latin-1"))
          for name, value in (headers or {}).items())], body


CLIENT_LEFT = "client disconnected prematurely"
"""What Litestar's 500 says when the client went before its request's body was complete: the
body timeout closed the connection (:mod:`api.edge.connections`), or the client gave up. Nobody is
left to answer and nothing went wrong here, so it is not logged as a server error."""


def http_exception_handler(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    if exc.status_code >= 500 and exc.detail != CLIENT_LEFT:
        log.error("server error %s: %s", exc.status_code, exc.detail)
    words = words_of(request)
    if isinstance(exc, Problem):
        return problem_response(words, exc.status_code, exc.text, exc.errors, exc.headers)
    errors = _litestar_errors(request, exc.extra) or _missing_parameter(str(exc.detail))
    detail = DETAILS.get(exc.status_code, DETAILS[500] if exc.status_code >= 500 else None)
    return problem_response(words, exc.status_code, detail, errors, exc.headers)


def unexpected_exception_handler(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    # %r: a logged value never starts a line of its own.
    log.exception("unexpected error on %s %r", request.method, request.url.path, exc_info=exc)
    return problem_response(words_of(request), 500, DETAILS[500], [])


def too_deep_handler(request: Request[Any, Any, Any], _exc: RecursionError) -> Response[Any]:
    """msgspec gives up on absurdly nested JSON with a RecursionError: the client's fault."""
    return problem_response(words_of(request), 400, TOO_DEEP, [])
