"""When and where a match was played: ``played_at`` and ``location`` of a new match.

Decisions where the contract is silent:
- ``played_at`` is an RFC 3339 date-time *with* an offset (``Z`` or ``+01:00``); one without is
  refused, since nobody could tell which evening it meant. It is stored and answered in UTC:
  the club's time zone, not the phone's, decides the evening.
- "Not in the future" allows :data:`CLOCK_SKEW` (5 minutes) ahead of the server's clock, for a
  phone whose clock runs a little fast; a sheet cannot be older than :data:`EARLIEST` (1900).
- Not given (or ``null``): when the match was created.
- ``location`` is a name like any other (no control characters, surrounding spaces dropped), at
  most 80 characters; left out, ``null`` or only spaces is none (``null`` in the answer).
"""

import re
from datetime import UTC, datetime, timedelta

from api.db.models import LOCATION_LENGTH
from api.edge.problems import Fault, Unprocessable, optional_name_field
from api.i18n import _

CLOCK_SKEW = timedelta(minutes=5)
EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
RFC_3339 = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})")
PLAYED_AT_LENGTH = 40


def _moment(value: str) -> datetime | None:
    """The moment an RFC 3339 date-time names (with an offset), in UTC; none otherwise."""
    if not RFC_3339.fullmatch(value):
        return None
    digits = re.sub(r"(\.\d{6})\d+", r"\1", value)  # Python keeps microseconds
    try:
        return datetime.fromisoformat(digits.upper().replace("Z", "+00:00")).astimezone(UTC)
    except (ValueError, OverflowError):
        return None


def played_at_of(value: str | None, created_at: datetime) -> datetime:
    """The moment a new match was played; 422 at ``played_at`` for one that is no RFC 3339
    date-time with an offset, in the future, or before 1900."""
    if value is None:
        return created_at
    moment = _moment(value)
    if moment is None:
        raise Unprocessable(_("The match cannot be played at that moment."), errors=[Fault(
            "played_at", "not_a_moment", _(
                'Give the moment as a date and time with its offset, e.g. '
                '"2026-12-04T20:30:00+01:00", not "{given}".', given=value))])
    if moment > created_at + CLOCK_SKEW:
        raise Unprocessable(_("The match cannot be played at that moment."), errors=[Fault(
            "played_at", "in_the_future", _(
                "A match cannot be played in the future: {given} is later than now.",
                given=value))])
    if moment < EARLIEST:
        raise Unprocessable(_("The match cannot be played at that moment."), errors=[Fault(
            "played_at", "too_early", _("A match cannot be played before 1900."))])
    return moment


def location_of(value: str | None) -> str | None:
    """Where a new match is played: a name, or none; 422 at ``location`` otherwise."""
    problems: list[Fault] = []
    location = optional_name_field(value, "location", problems, maximum=LOCATION_LENGTH)
    if problems:
        raise Unprocessable(_("This place cannot be used."), errors=problems)
    return location
