"""Request bodies, read once and strictly at the boundary, the same way for every endpoint.

Litestar converts a body to the handler's type leniently (``"3"`` passes as ``3``, ``0`` as
``false``), and accepts JSON under any content type. Every handler's ``data`` is read here
instead (:class:`StrictRequest`, the app's request class):

- the body must be sent as JSON (``application/json`` or ``application/<anything>+json``), else
  415 with ``Accept: application/json``;
- a number with a zero fraction is the integer it equals, as JSON Schema (and so the OpenAPI
  document) says: ``3.0`` and ``-0.0`` are read, and stored, as ``3`` and ``0``; round entries
  included, so a seat is never stored as ``1.0``;
- everything else must have the type the handler declares, checked by msgspec in strict mode:
  a string for a number or ``0`` for a boolean is 400 naming the field (``path``);
- a number too large for a float (``1e999``) is 400 at its path, also inside a round entry whose
  fields only the game knows.

The games read entries just as strictly (:mod:`scoring.reading`: a whole number is an integer,
never ``true``).
"""

import math
from typing import Any

import msgspec
from litestar import Request
from litestar.types import Empty, EmptyType

from api.edge.problems import BODY_SHAPE, BadRequest, Fault, UnsupportedMediaType, invalid_body
from api.i18n import _
from scoring.errors import at

JSON_MEDIA_TYPE = "application/json"


def is_json(media_type: str) -> bool:
    kind = media_type.strip().lower()
    return kind == JSON_MEDIA_TYPE or (kind.startswith("application/") and kind.endswith("+json"))


TOO_LARGE = "the number is too large"


def _number(text: str) -> int | float:
    """A JSON number that is not written as an integer: the integer it equals, if it does."""
    number = float(text)
    if math.isinf(number):
        raise ValueError(TOO_LARGE)
    return int(number) if number.is_integer() else number


_JSON = msgspec.json.Decoder(float_hook=_number)


class _TooLarge:
    """Where a number too large for a float stood, found when locating it."""


def _mark_too_large(text: str) -> float | _TooLarge:
    number = float(text)
    return _TooLarge() if math.isinf(number) else number


def _path_of_too_large(value: Any, path: str = "") -> str | None:
    if isinstance(value, _TooLarge):
        return path
    items = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else ()
    for key, item in items:
        found = _path_of_too_large(item, at(path, key))
        if found is not None:
            return found
    return None


def _out_of_range(body: bytes) -> BadRequest:
    """A number too large for a float, named by its path (msgspec names none inside ``Any``)."""
    marked = msgspec.json.Decoder(float_hook=_mark_too_large).decode(body)
    path = _path_of_too_large(marked) or ""
    return BadRequest(BODY_SHAPE, errors=[Fault(path, "number_out_of_range", _(
        "This number is too large.", source="body"))])


def decode_body(body: bytes, body_type: Any) -> Any:
    """``body`` as ``body_type``, strictly, whole numbers as integers; 400 naming the field
    otherwise."""
    try:
        value = _JSON.decode(body)
    except msgspec.ValidationError as error:
        if str(error).startswith(TOO_LARGE):
            raise _out_of_range(body) from None
        raise invalid_body(error) from None
    except msgspec.DecodeError as error:
        raise BadRequest(_("The request body is not valid JSON."), errors=[Fault(
            "", "invalid_json", _("This is not valid JSON.", source="body",
                                  detail=str(error)))]) from None
    try:
        return msgspec.convert(value, body_type, strict=True)
    except msgspec.ValidationError as error:
        raise invalid_body(error) from None


class StrictRequest(Request[Any, Any, Any]):
    """A request whose JSON body is decoded as :func:`decode_body` says, into the type of the
    handler's ``data``."""

    __slots__ = ("_decoded",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._decoded: Any | EmptyType = Empty

    async def json(self) -> Any:
        data = self.route_handler.parsed_data_field
        if data is None:
            return await super().json()
        if self._decoded is Empty:
            self._decoded = decode_body(await json_body(self), data.annotation)
        return self._decoded


async def json_body(request: Request[Any, Any, Any]) -> bytes:
    """The body of a request that must send JSON, undecoded (415 for other media types)."""
    media_type, _parameters = request.content_type
    if not is_json(media_type):
        raise UnsupportedMediaType(
            _("Send the body as {expected}, not {media_type}.", expected=JSON_MEDIA_TYPE,
              media_type=media_type) if media_type else
            _("Send the body as {expected}; it came without a type.",
              expected=JSON_MEDIA_TYPE),
            errors=[Fault("", "unsupported_media_type", _(
                "The body must be {expected}.", expected=JSON_MEDIA_TYPE,
                source="header", media_type=media_type))],
            headers={"Accept": JSON_MEDIA_TYPE})
    return await request.body() or b"null"
