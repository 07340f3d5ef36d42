"""Bearer tokens for matches: random, 192 bits, only their SHA-256 stored.

A match has a write token (record, correct, undo) and a view token (read a private match). No or
a malformed ``Authorization`` header is 401; a well-formed token that is not this match's (or a
view token used to write) is 403. Public matches can be read without any header; a header sent
anyway is ignored there, so a stale token in an app never locks anyone out of a public match.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from api.edge.problems import Forbidden, Unauthorized
from api.i18n import _

CANNOT_CHANGE_MATCH = _("This key may not change this match.")

TOKEN_BYTES = 24
MAX_TOKEN_LENGTH = 200
MATCH_TOKEN = "match"  # noqa: S105  (the kind of token, not a secret)


@dataclass(frozen=True, slots=True)
class TokenPair:
    write: str
    view: str


def new_token() -> str:
    """A bearer token: only its hash is stored."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_tokens() -> TokenPair:
    return TokenPair(new_token(), new_token())


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def bearer_token(authorization: str | None) -> str:
    """The token of an ``Authorization: Bearer <token>`` header; 401 when missing or malformed."""
    if authorization is None:
        raise Unauthorized(_("This needs the key from the link you were given, sent as "
                             "Authorization: Bearer <key>."))
    scheme, _space, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN_LENGTH:
        raise Unauthorized(_("The key must be sent as Authorization: Bearer <key>."))
    return token


def _matches(token: str, stored_hash: str) -> bool:
    return hmac.compare_digest(token_hash(token), stored_hash)


def require_write(authorization: str | None, write_hash: str) -> str:
    """The kind of token that authorised a write; 401/403 otherwise."""
    if not _matches(bearer_token(authorization), write_hash):
        raise Forbidden(CANNOT_CHANGE_MATCH)
    return MATCH_TOKEN


def require_read(authorization: str | None, private: bool, write_hash: str, view_hash: str) -> None:
    if not private:
        return
    token = bearer_token(authorization)
    if not (_matches(token, write_hash) or _matches(token, view_hash)):
        raise Forbidden(_("This key may not see this match."))
