"""RFC 9457 problem details for every error the service answers with.

Every error body is ``application/problem+json`` with ``type``, ``title``, ``status``, ``detail``
and ``errors`` (one item per bad field: ``path`` relative to the request body, ``code``,
``message``, ``params``; empty when no field is to blame). Litestar's own errors (400, 404, 405,
413) get the same shape. Anything unexpected is logged and answered with a 500 problem that
reveals nothing.
"""

import logging
import re
from collections.abc import Iterable, Mapping
from http import HTTPStatus
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException
from litestar.openapi.datastructures import ResponseSpec

from scoring.errors import FieldError

PROBLEM_MEDIA_TYPE = "application/problem+json"
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


class Problem(HTTPException):
    """An error answer; subclasses fix the status. ``errors`` name the bad fields."""

    status_code = 500

    def __init__(
        self, detail: str, *, errors: Iterable[FieldProblem] = (),
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail=detail, headers=headers)
        self.errors = list(errors)


class BadRequest(Problem):
    status_code = 400


class Unauthorized(Problem):
    status_code = 401

    def __init__(self, detail: str) -> None:
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


def field_problems(errors: Iterable[FieldError], prefix: str = "") -> list[FieldProblem]:
    """The scoring package's field errors, their paths put under ``prefix`` when given."""
    return [
        FieldProblem(
            path=_join(prefix, error.path), code=error.code, message=error.message,
            params={k: list(v) if isinstance(v, tuple) else v for k, v in error.params.items()},
        )
        for error in errors
    ]


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


_MSGSPEC_PATH = re.compile(r" - at `\$(?P<path>[^`]*)`")


def _split(message: str) -> tuple[str, str]:
    """msgspec's "Expected `int`, got `str` - at `$.players[0]`" as (``players[0]``, the rest)."""
    if match := _MSGSPEC_PATH.search(message):
        return match["path"].lstrip("."), message[: match.start()]
    return "", message


def _litestar_errors(extra: Any) -> list[FieldProblem]:
    """Litestar's validation messages (``{"key", "message", "source"}``) as field problems."""
    if not isinstance(extra, list):
        return []
    found = []
    for item in extra:
        if not isinstance(item, Mapping):
            continue
        path, message = _split(str(item.get("message", "")))
        found.append(FieldProblem(path=path or str(item.get("key", "")), code="invalid",
                                  message=message,
                                  params={"source": str(item.get("source", "body"))}))
    return found


def invalid_body(error: msgspec.ValidationError) -> BadRequest:
    """msgspec's complaint about a request body as a 400 naming the field."""
    path, message = _split(str(error))
    return BadRequest("The request body does not have the expected shape.",
                      errors=[FieldProblem(path=path, code="invalid", message=message,
                                           params={"source": "body"})])


def problem_response(status: int, detail: str, errors: list[FieldProblem],
                     headers: Mapping[str, str] | None = None) -> Response[ProblemBody]:
    phrase = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "Error"
    return Response(
        ProblemBody(type="about:blank", title=phrase, status=status, detail=detail or phrase,
                    errors=errors),
        status_code=status, media_type=PROBLEM_MEDIA_TYPE, headers=dict(headers or {}),
    )


def http_exception_handler(_request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    errors = exc.errors if isinstance(exc, Problem) else _litestar_errors(exc.extra)
    if exc.status_code >= 500:
        log.error("server error %s: %s", exc.status_code, exc.detail)
    return problem_response(exc.status_code, exc.detail, errors, exc.headers)


def unexpected_exception_handler(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    # %r: a logged value never starts a line of its own.
    log.exception("unexpected error on %s %r", request.method, request.url.path, exc_info=exc)
    return problem_response(500, "The server could not answer this request.", [])


def too_deep_handler(_request: Request[Any, Any, Any], _exc: RecursionError) -> Response[Any]:
    """msgspec gives up on absurdly nested JSON with a RecursionError: the client's fault."""
    return problem_response(400, "The JSON body is nested too deeply.", [])
