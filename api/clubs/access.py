"""Who may do what with a club.

A club has two tokens, stored as SHA-256 hashes like every token: the club token (phones of
members: start matches and tournaments for the club, rename, merge and remove members, back
the club up) and the view token (reads everything, writes nothing). Every read of a club needs
one of them: a club's members and results are not public. No or a malformed ``Authorization``
header is 401; a token that is not the club's, or the view token used to write, is 403.

The club token also writes the club's own matches (a round entered, corrected or undone from
another member's phone) and both tokens read them when they are private; a tournament table's
match keeps its tournament's rules.
"""

from __future__ import annotations

from api.edge import auth
from api.edge.problems import Forbidden
from api.i18n import _
from api.tournaments.access import holds as holds

CLUB = "club"
VIEW = "view"


def reader(authorization: str | None, token_hash: str, view_token_hash: str) -> str:
    """The kind of token a reader of the club holds; 401/403 without one of its tokens."""
    token = auth.bearer_token(authorization)
    if holds(token, token_hash):
        return CLUB
    if holds(token, view_token_hash):
        return VIEW
    raise Forbidden(_("This key may not read this club."))


def require_club_token(authorization: str | None, token_hash: str, view_token_hash: str) -> None:
    """Only the club token writes; the view token is refused with a reason (403)."""
    if reader(authorization, token_hash, view_token_hash) != CLUB:
        raise Forbidden(_("The club's view key only reads; this needs the club's key."))
