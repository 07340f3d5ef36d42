"""A match's stakes as a body gives them, as stored, and its settlement in the answer.

Decisions:

- Stored in the match row's JSON column ``stakes`` in whole minor units (``{"currency": "CHF",
  "per_point": 5, "to": "players", "per_match_lost": 50}``), null for a match not played for
  money: the stakes are read and written only as a whole, one nullable column keeps every
  match stored before as it was, and a club keeps its defaults per game in the same form.
- The settlement is computed by :func:`scoring.stakes.settle_verdict` whenever the match row is
  written (:func:`api.matches.service.match_columns`), from the final standings: a correction
  or an undo changes it with the standings, and a running match has none (``null``).
- Which total costs money is the game's to say (``Game.priced``); stakes for a setup the game
  prices nothing by (solo Sea Change, played against the computer) are refused (422 at
  ``stakes``).
"""

from __future__ import annotations

from typing import Any

import msgspec

from api.edge.problems import Fault, Unprocessable, field_problems
from api.i18n import _
from api.matches import schemas as s
from scoring.errors import Errors
from scoring.game import AnyGame
from scoring.match import FoldedMatch
from scoring.money import CHF, EUR
from scoring.reading import JSON
from scoring.stakes import Recipient, Stakes, read_stakes, settle_verdict

CURRENCIES = {currency.code: currency for currency in (CHF, EUR)}
BAD_STAKES = _("The stakes are not right.")


def stored(stakes: Stakes) -> dict[str, JSON]:
    """The stakes as a match or club stores them: amounts in minor units."""
    return {"currency": stakes.currency.code, "per_point": stakes.per_point, "to": stakes.to,
            "per_match_lost": stakes.per_match_lost}


def from_stored(raw: Any) -> Stakes:
    """Stakes stored by :func:`stored`."""
    to: Recipient = raw["to"]
    return Stakes(CURRENCIES[raw["currency"]], int(raw["per_point"]), to,
                  int(raw["per_match_lost"]))


def read_body(raw: JSON, path: str) -> dict[str, JSON]:
    """Stakes as a body writes them, stored (:func:`stored`); 422 naming every bad field."""
    errors = Errors()
    stakes = read_stakes(raw, path, errors)
    if stakes is None:
        raise Unprocessable(BAD_STAKES, errors=field_problems(errors))
    return stored(stakes)


def refuse_unpriced(game: AnyGame, path: str) -> Unprocessable:
    """Stakes for a setup the game prices nothing by (solo Sea Change)."""
    return Unprocessable(BAD_STAKES, errors=[Fault(path, "not_for_money", _(
        "{game} is not played for money with these players: no total costs anything.",
        game=game.name))])


def answer(raw: Any) -> s.MatchStakes | None:
    """The stakes as the match answer shows them (decimal strings)."""
    return None if raw is None else msgspec.convert(from_stored(raw).as_json(), s.MatchStakes)


def settlement(game: AnyGame, folded: FoldedMatch, raw: Any) -> s.Settlement | None:
    """A finished match's settlement by its stored stakes; ``None`` while it runs or without
    stakes (or for a setup priced by nothing, which creation refuses)."""
    priced = game.priced(folded.setup)
    if raw is None or priced is None:
        return None
    settled = settle_verdict(from_stored(raw), priced, folded.verdict)
    return None if settled is None else msgspec.convert(settled.as_json(), s.Settlement)
