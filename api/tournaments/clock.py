"""The round clock: started, paused, resumed and extended by the organiser, for every table or one.

Stored on the tournament row (``tournament.clock``, JSON), so a restarted server or any worker
process answers the same clock: ``{"state", "ends_at" (ISO 8601, UTC, while running),
"remaining_ms" (while paused), "extra_s": {"<table>": seconds}}``. A table's extension is kept
as seconds beyond the clock of every table, so pausing and resuming carry it along.

``remaining_s`` is worked out from the server's time when the clock is answered (whole seconds,
rounded up: a clock showing 0 has run out), never stored. A client corrects its own clock with it:
the server's time when the answer was made is ``ends_at - remaining_s`` (see
``pwa/js/tournaments/clock.js``).

Decisions where the contract is silent:

- ``start`` may be sent in any state: it starts the clock again at ``minutes`` for every table and
  drops the tables' extensions.
- Extending a clock that has run out gives ``minutes`` from now, not from the moment it ran out
  (the organiser means "five more minutes"); for one table likewise from that table's end.
- Starting a round stops the clock: the last round's "time" is not the new round's.
- The round never ends by itself when the clock runs out; the organiser decides.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from api.edge.problems import Conflict, Fault, Unprocessable
from api.i18n import _
from api.matches.service import utc
from api.tournaments import schemas as s

STOPPED: Final = "stopped"
RUNNING: Final = "running"
PAUSED: Final = "paused"


@dataclass(frozen=True, slots=True)
class ClockState:
    state: str
    ends_at: datetime | None
    remaining_ms: int
    extra_s: dict[int, int]


def stored(raw: Any) -> ClockState:
    if not raw:
        return ClockState(STOPPED, None, 0, {})
    ends_at = raw.get("ends_at")
    return ClockState(raw["state"],
                      None if ends_at is None else utc(datetime.fromisoformat(ends_at)),
                      int(raw.get("remaining_ms", 0)),
                      {int(k): int(v) for k, v in raw.get("extra_s", {}).items()})


def storable(clock: ClockState) -> dict[str, Any]:
    return {"state": clock.state,
            "ends_at": None if clock.ends_at is None else clock.ends_at.isoformat(),
            "remaining_ms": clock.remaining_ms,
            "extra_s": {str(k): v for k, v in sorted(clock.extra_s.items())}}


def _seconds(delta: timedelta) -> int:
    return max(0, math.ceil(delta.total_seconds()))


def view(raw: Any, at: datetime) -> s.Clock:
    """The clock as answered at the server's time ``at``."""
    clock = stored(raw)
    if clock.state == RUNNING and clock.ends_at is not None:
        tables = {str(k): s.TableClock(clock.ends_at + timedelta(seconds=v),
                                       _seconds(clock.ends_at + timedelta(seconds=v) - at))
                  for k, v in sorted(clock.extra_s.items())}
        return s.Clock(RUNNING, clock.ends_at, _seconds(clock.ends_at - at), tables)
    if clock.state == PAUSED:
        base = clock.remaining_ms / 1000
        return s.Clock(PAUSED, None, math.ceil(base), {
            str(k): s.TableClock(None, math.ceil(base + v))
            for k, v in sorted(clock.extra_s.items())})
    return s.Clock(STOPPED, None, 0, {})


def _minutes(minutes: int | None) -> int:
    if minutes is None:
        raise Unprocessable(_("Say how many minutes."), errors=[Fault(
            "minutes", "missing", _("How many minutes (1 to {maximum})?", maximum=MAX_MINUTES))])
    if not 0 < minutes <= MAX_MINUTES:
        raise Unprocessable(_("A clock runs from 1 to {maximum} minutes.", maximum=MAX_MINUTES),
                            errors=[Fault("minutes", "out_of_range", _(
                                "From 1 to {maximum} minutes.", maximum=MAX_MINUTES))])
    return minutes


MAX_MINUTES = 600


def act(raw: Any, body: s.ClockAction, tables: set[int], at: datetime) -> dict[str, Any]:
    """The clock after ``body`` (``tables``: the current round's table numbers); 409 for an
    action the clock's state does not allow, 422 for minutes out of range or an unknown table."""
    clock = stored(raw)
    if body.action == "start":
        if body.table is not None:
            raise Unprocessable(_("A clock starts for every table."), errors=[Fault(
                "table", "not_allowed", _("Only an extension names a table."))])
        minutes = _minutes(body.minutes)
        return storable(ClockState(RUNNING, at + timedelta(minutes=minutes), 0, {}))
    if body.action == "pause":
        if clock.state != RUNNING or clock.ends_at is None:
            raise Conflict(_("The clock is not running."))
        remaining = max(0, math.ceil((clock.ends_at - at).total_seconds() * 1000))
        return storable(ClockState(PAUSED, None, remaining, clock.extra_s))
    if body.action == "resume":
        if clock.state != PAUSED:
            raise Conflict(_("The clock is not paused."))
        return storable(ClockState(RUNNING, at + timedelta(milliseconds=clock.remaining_ms), 0,
                                   clock.extra_s))
    minutes = _minutes(body.minutes)
    if body.table is not None and body.table not in tables:
        raise Unprocessable(_("There is no table {table} in this round.", table=body.table),
                            errors=[Fault("table", "unknown_table", _(
                                "This round has no table {table}.", table=body.table))])
    if clock.state == STOPPED:
        raise Conflict(_("The clock has not been started."))
    return storable(_extended(clock, minutes * 60, body.table, at))


def _extended(clock: ClockState, seconds: int, table: int | None, at: datetime) -> ClockState:
    extra = dict(clock.extra_s)
    if clock.state == PAUSED:
        if table is None:
            return ClockState(PAUSED, None, clock.remaining_ms + seconds * 1000, extra)
        extra[table] = extra.get(table, 0) + seconds
        return ClockState(PAUSED, None, clock.remaining_ms, extra)
    assert clock.ends_at is not None  # a running clock has an end
    ends = {number: clock.ends_at + timedelta(seconds=beyond) for number, beyond in extra.items()}
    if table is not None:
        own = ends.get(table, clock.ends_at)
        extra[table] = round((max(own, at) + timedelta(seconds=seconds)
                              - clock.ends_at).total_seconds())
        return ClockState(RUNNING, clock.ends_at, 0, extra)
    new_end = max(clock.ends_at, at) + timedelta(seconds=seconds)
    # Every table keeps at least as much time beyond the others as it had: an extension given
    # to one table is not swallowed by one given to all.
    extra = {number: round((max(end, at) + timedelta(seconds=seconds) - new_end).total_seconds())
             for number, end in ends.items()}
    return ClockState(RUNNING, new_end, 0, {k: v for k, v in extra.items() if v > 0})
