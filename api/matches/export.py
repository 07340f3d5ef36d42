"""The score sheet as CSV, derived from whatever the game's results and totals contain.

Columns: ``round``; then each key whose value is not per side (e.g. ``winner``); then, side by
side, every per-side key of the round's result followed by every per-side key of the running
totals (``Ann: penalty``, ``Ann: total penalty``). A list counts as per side when it has one item
per player, or one per team when the standings have teams. Nothing here knows any game.

RFC 4180: CRLF line ends, quoting as needed. UTF-8 with a byte-order mark so spreadsheet apps show
umlauts; with ``sep=;`` the file uses semicolons and starts with a ``sep=;`` line, which German
spreadsheet locales expect.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from typing import Any

from api.matches.schemas import Match

BOM = "\ufeff"


def _side_names(match: Match, count: int) -> list[str] | None:
    players = [p.name for p in match.players]
    if count == len(players):
        return players
    teams = sorted((line["team"], str(line["name"])) for line in match.standings if "team" in line)
    if teams and count == len(teams):
        return [name for _, name in teams]
    return None


def _keys(objects: Iterable[dict[str, Any]]) -> list[str]:
    seen: dict[str, None] = {}
    for obj in objects:
        seen.update(dict.fromkeys(obj))
    return list(seen)


def _cell(value: Any) -> str | int | float:
    if isinstance(value, bool) or value is None or isinstance(value, list | dict):
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


def score_sheet_rows(match: Match) -> list[list[str | int | float]]:
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

    header: list[str | int | float] = ["round", *scalar_keys]
    for side in range(sides):
        header += [
            f"{names[side]}: {'total ' if part == 'totals' else ''}{key}"
            for part, key, names in side_columns if side < len(names)
        ]
    rows = [header]
    for played in match.rounds:
        row: list[str | int | float] = [played.number]
        row += [_cell(played.result.get(k)) for k in scalar_keys]
        for side in range(sides):
            for part, key, names in side_columns:
                if side < len(names):
                    values: Sequence[Any] = getattr(played, part).get(key) or []
                    row.append(_cell(values[side]) if side < len(values) else "")
        rows.append(row)
    return rows


def score_sheet_csv(match: Match, separator: str) -> bytes:
    out = io.StringIO()
    out.write(BOM)
    if separator == ";":
        out.write("sep=;\r\n")
    writer = csv.writer(out, delimiter=separator, lineterminator="\r\n")
    writer.writerows(score_sheet_rows(match))
    return out.getvalue().encode()
