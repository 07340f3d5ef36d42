"""The score sheet as CSV, derived from whatever the game's results and totals contain.

Columns: ``round``; then each key whose value is not per side (e.g. ``winner``); then, side by
side, every per-side key of the round's result followed by every per-side key of the running
totals (``Ann: penalty``, ``Ann: total penalty``). A list counts as per side when it has one item
per player, one per team when the standings have teams, or one per side of the standings (you
and the AI in a solo match). Nothing here knows any game.

After ``round``, the keys of the round's entry that the game shows on its sheet
(``SheetColumns.entry``: Sea Change's trump at round end, as the suit's name); after the
other columns that are not per side, the match's winner (its side names) on the round that
decided it (issue 23, item 14).

The last two columns, on every row so that a row filtered or copied alone still says it, are
where the match was played (``location``, empty if not said) and when (``played_at`` as local
date and time, ``2026-11-05 20:00``, in the time zone of its club when it is a club's match or
a club tournament's table, in UTC otherwise: the JSON sheet carries the exact moment). The
date comes last because it is never empty: LibreOffice drops a last column empty in every row.

Cells: numbers stay numbers, an absent value (``None``, or a per-side list missing in a round) is
an empty cell, ``True``/``False`` are words, anything else structured is its JSON text. The file
itself is written by :mod:`api.shared.spreadsheet`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import UTC
from typing import Any
from zoneinfo import ZoneInfo

from api.matches.schemas import Match
from api.shared.spreadsheet import ENGLISH, Cell, Layout, SheetWords, csv_bytes
from scoring import registry


def _side_names(match: Match, count: int) -> list[str] | None:
    players = [p.name for p in match.players]
    if count == len(players):
        return players
    teams = sorted((line["team"], str(line["name"])) for line in match.standings if "team" in line)
    if teams and count == len(teams):
        return [name for _, name in teams]
    sides = sorted((line["seat"], str(line["name"])) for line in match.standings
                   if "seat" in line and "team" not in line)
    if [seat for seat, _ in sides] == list(range(count)):
        return [name for _, name in sides]
    return None


def _keys(objects: Iterable[dict[str, Any]]) -> list[str]:
    seen: dict[str, None] = {}
    for obj in objects:
        seen.update(dict.fromkeys(obj))
    return list(seen)


def _cell(key: str, value: Any, words: SheetWords) -> Cell:
    value = words.value(key, value)
    if isinstance(value, bool):
        return words.flag(value)
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    return value  # type: ignore[no-any-return]


def _per_side_length(match: Match, part: str, key: str) -> int | None:
    """The list length of ``key`` in ``part`` when it is the same list length in every round."""
    lengths = {
        len(value) for r in match.rounds
        if isinstance(value := getattr(r, part).get(key), list)
    }
    if len(lengths) != 1:
        return None
    (length,) = lengths
    return length


def played_on(match: Match, time_zone: str | None) -> str:
    """When the match was played, as its club's local date and time (UTC without a club)."""
    moment = match.played_at.astimezone(UTC if time_zone is None else ZoneInfo(time_zone))
    return moment.strftime("%Y-%m-%d %H:%M")


def score_sheet_rows(match: Match, words: SheetWords = ENGLISH,
                     time_zone: str | None = None) -> list[list[Cell]]:
    results = [r.result for r in match.rounds]
    totals = [r.totals for r in match.rounds]
    scalar_keys: list[str] = []
    side_columns: list[tuple[str, str, list[str]]] = []  # (part, key, side names)
    for part, keys in (("result", _keys(results)), ("totals", _keys(totals))):
        for key in keys:
            length = _per_side_length(match, part, key)
            names = None if length is None else _side_names(match, length)
            if names is not None:
                side_columns.append((part, key, names))
            elif part == "result":
                scalar_keys.append(key)
    sides = max((len(names) for _, _, names in side_columns), default=0)

    game = registry.game_by_id(match.game)
    entry_keys = [k for k in (game.sheet.entry if game else ()) if k not in scalar_keys]
    header: list[Cell] = [words.heading(key)
                          for key in (game.sheet.round if game else "round", *entry_keys,
                                      *scalar_keys, "match_winner")]
    for side in range(sides):
        header += [
            words.side_heading(names[side], key, total=part == "totals")
            for part, key, names in side_columns if side < len(names)
        ]
    header += [words.heading("location"), words.heading("played_on")]
    when = played_on(match, time_zone)
    rows = [header]
    for played in match.rounds:
        row: list[Cell] = [played.number]
        row += [_cell(k, played.entry.get(k), words) for k in entry_keys]
        row += [_cell(k, played.result.get(k), words) for k in scalar_keys]
        decided = match.status == "finished" and played is match.rounds[-1]
        row.append(_winners(match) if decided else None)
        for side in range(sides):
            for part, key, names in side_columns:
                if side < len(names):
                    values: Sequence[Any] = getattr(played, part).get(key) or []
                    row.append(_cell(key, values[side], words) if side < len(values) else None)
        rows.append([*row, match.location, when])
    return rows


def _winners(match: Match) -> str:
    """The sides that won, by name as the standings name them (a player, a team, the AI)."""
    return ", ".join(str(line["name"]) for line in match.standings
                     if line.get("team", line.get("seat")) in match.winners)


def score_sheet_csv(match: Match, layout: Layout, words: SheetWords = ENGLISH,
                    time_zone: str | None = None) -> bytes:
    return csv_bytes(score_sheet_rows(match, words, time_zone), layout)
