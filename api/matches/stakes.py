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

from collections.abc import Collection, Mapping, Sequence
from typing import Any

import msgspec

from api.edge.problems import NO_SUCH_GAME, Fault, Unprocessable, field_problems, unknown_game
from api.i18n import _
from api.matches import schemas as s
from scoring import registry
from scoring.errors import Errors, at
from scoring.game import AnyGame, Setup
from scoring.match import FoldedMatch, set_up
from scoring.money import CHF, EUR
from scoring.reading import JSON
from scoring.stakes import Recipient, Settlement, Stakes, read_stakes, settle, settle_verdict

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


def read_per_game(raw: Mapping[str, JSON], path: str) -> dict[str, JSON]:
    """Default stakes per game key (a club's), each stored (:func:`stored`); ``None`` for a
    game takes its default away. 422 at ``<path>.<game>`` for a game there is none of, or
    naming every bad field of the first game whose stakes are wrong. A key is a game's id (for
    a score pad: every pad) or a club's key of one variant (``score-pad:Jass``)."""
    unknown = [unknown_game(at(path, key), key) for key in raw
               if registry.game_by_id(key) is None and registry.game_by_key(key) is None]
    if unknown:
        raise Unprocessable(NO_SUCH_GAME, errors=unknown)
    return {key: None if value is None else read_body(value, at(path, key))
            for key, value in raw.items()}


def refuse_unpriced(game: AnyGame, path: str) -> Unprocessable:
    """Stakes for a setup the game prices nothing by (solo Sea Change)."""
    return Unprocessable(BAD_STAKES, errors=[Fault(path, "not_for_money", _(
        "{game} is not played for money with these players: no total costs anything.",
        kinds={"game": registry.GAMES}, game=game.id))])


def answer(raw: Any) -> s.MatchStakes | None:
    """The stakes as the match answer shows them (decimal strings)."""
    shown = written(raw)
    return None if shown is None else msgspec.convert(shown, s.MatchStakes)


def written(raw: Any) -> dict[str, JSON] | None:
    """Stored stakes as a body writes them (a club's backup), ``None`` for none."""
    return None if raw is None else from_stored(raw).as_json()


def written_per_game(raw: Any) -> dict[str, dict[str, JSON]]:
    """Stored default stakes per game as a body writes them (a club's backup)."""
    return {key: from_stored(value).as_json() for key, value in sorted((raw or {}).items())}


def read_for(game: AnyGame, setup: Setup[Any], raw: JSON, path: str) -> dict[str, JSON] | None:
    """Stakes a body gives a match of ``setup`` (``None``: none), stored; 422 at their fields,
    or at ``path`` for a setup the game prices nothing by."""
    if raw is None:
        return None
    given = read_body(raw, path)
    if game.priced(setup) is None:
        raise refuse_unpriced(game, path)
    return given


def answer_per_game(raw: Any) -> dict[str, s.MatchStakes]:
    """Stored default stakes per game as an answer shows them."""
    return {key: msgspec.convert(value, s.MatchStakes)
            for key, value in written_per_game(raw).items()}


def settlement(game: AnyGame, folded: FoldedMatch, raw: Any) -> s.Settlement | None:
    """A finished match's settlement by its stored stakes; ``None`` while it runs or without
    stakes (or for a setup priced by nothing, which creation refuses)."""
    priced = game.priced(folded.setup)
    if raw is None or priced is None:
        return None
    settled = settle_verdict(from_stored(raw), priced, folded.verdict)
    return None if settled is None else msgspec.convert(settled.as_json(), s.Settlement)


def settled(game: AnyGame, players: Sequence[JSON], options: JSON, standings: Sequence[Any],
            winners: Collection[int], raw: Any) -> Settlement | None:
    """The settlement of a finished match as stored (its players, options, standings lines and
    winners, and its stored stakes), for sums over many matches (a club's evening): ``None``
    without stakes or for a setup priced by nothing. The match is not folded again: the
    priced total is read from each side's standings line."""
    if raw is None:
        return None
    priced = game.priced(set_up(game, list(players), options))
    if priced is None:
        return None
    by_side = sorted(standings, key=_side_of)
    return settle(from_stored(raw), [int(line[priced.total]) for line in by_side], winners,
                  lower_is_better=priced.lower_is_better)


def _side_of(line: Any) -> int:
    """A standings line's side: its team, or its seat (:meth:`scoring.game.Standing.as_json`)."""
    return int(line["team"] if "team" in line else line["seat"])
