"""A club's time zone and the evening a match belongs to.

A club has a ``time_zone``, an IANA name (``Europe/Zurich`` unless it says otherwise); an
evening is the date in that zone of a match's ``played_at`` (a tournament's: when it finished,
its last table's ``finished_at``, :data:`api.clubs.links.TOURNAMENT_PLAYED`). Decisions where
the contract is silent: the evening is the plain local date (a match played at half past
midnight belongs to the new date, as the contract's seasons count it); a name is accepted when
:mod:`zoneinfo` knows it as given (``Europe/Zurich``, ``UTC``), not ``europe/zurich`` or a file
path.
"""

from datetime import date, datetime
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from api.clubs.models import TIME_ZONE_LENGTH
from api.edge.problems import Fault, Unprocessable
from api.i18n import _

DEFAULT_TIME_ZONE = "Europe/Zurich"


@cache
def _known() -> frozenset[str]:
    return frozenset(available_timezones())


def time_zone_of(value: str, path: str = "time_zone") -> str:
    """``value`` if it is an IANA time zone's name; 422 at ``path`` otherwise."""
    if len(value) > TIME_ZONE_LENGTH or value not in _known():
        raise Unprocessable(_("This time zone is not known."), errors=[Fault(
            path, "unknown_time_zone", _(
                'There is no time zone "{zone}": give its IANA name, e.g. "Europe/Zurich".',
                zone=value))])
    return value


@cache
def zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def evening(moment: datetime, time_zone: str) -> date:
    """The evening (local date in the club's time zone) of a moment given with its zone."""
    return moment.astimezone(zone(time_zone)).date()
