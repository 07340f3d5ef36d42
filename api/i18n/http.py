"""The language of one HTTP exchange: negotiated once per request, named in every API answer.

Every answer under ``/api/``, and every problem answer wherever it comes from (a 404 for a file
of the app, the OpenAPI viewers' 404), carries ``Content-Language`` (the language its words are
in) and ``Vary: Accept-Language`` (a cache must not hand a German answer to a French phone).
Controllers that say something take ``words: RequestWords`` (the app provides it, see
:data:`WORDS_DEPENDENCY`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from litestar import Request
from litestar.datastructures import MutableScopeHeaders
from litestar.di import NamedDependency, Provide
from litestar.types import Message, Scope

from api.i18n.negotiation import Choice, negotiate
from api.i18n.words import Words, words_for

API_PREFIX = "/api/"
PROBLEM_MEDIA_TYPE = "application/problem+json"
"""RFC 9457's media type: a problem says its words in the request's language wherever it is."""


def choice_of(scope: Scope) -> Choice:
    """The language the request negotiates: ``?lang=``, then ``Accept-Language``.

    Not kept in the scope's ``state``: ASGI servers may share that dict between requests.
    Negotiating again is cheap (the header's reading is cached).
    """
    # Several Accept-Language lines are one list (RFC 9110 §5.3).
    lines = [value.decode("latin-1") for name, value in scope.get("headers", ())
             if name.lower() == b"accept-language"]
    header = ", ".join(lines) if lines else None
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return negotiate(header, query.get("lang", [None])[-1])


def words_of(request: Request[Any, Any, Any]) -> Words:
    """The words of the request's language."""
    return words_for(choice_of(request.scope))


async def _provide_words(request: Request[Any, Any, Any]) -> Words:
    return words_of(request)


WORDS_DEPENDENCY = Provide(_provide_words)
RequestWords = NamedDependency[Words]
"""A handler's ``words`` parameter: the words of the request's language."""


async def name_the_language(message: Message, scope: Scope) -> None:
    """``Content-Language`` and ``Vary: Accept-Language`` on every API answer and every
    problem."""
    if message["type"] != "http.response.start":
        return
    headers = MutableScopeHeaders.from_message(message)
    if not (scope.get("path", "").startswith(API_PREFIX)
            or headers.get("content-type", "").startswith(PROBLEM_MEDIA_TYPE)):
        return
    headers["content-language"] = choice_of(scope).language
    vary = headers.get("vary")
    if vary is None:
        headers["vary"] = "Accept-Language"
    elif "accept-language" not in vary.lower():
        headers["vary"] = f"{vary}, Accept-Language"
