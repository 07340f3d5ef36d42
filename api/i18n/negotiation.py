"""Which language an answer speaks: ``?lang=`` if it names one we have, else ``Accept-Language``.

``Accept-Language`` is read as RFC 9110 §12.5.4 says: language ranges with optional q-values,
the highest q first (in the order given among equal ones), ``q=0`` meaning "not this one"; a
request with several ``Accept-Language`` lines means them as one list. A range matches one of
our languages by its primary subtag (``de-CH`` → ``de``; Swiss German, ``gsw``, reads German, as
in the app); ``*`` stands for every language the header does not name otherwise (English first).
Nothing acceptable, a malformed header or no header: English.

The region a client asks for is kept for numbers only: ``de-CH`` reads German with Swiss
numbers (``0.33``, ``10'000``), ``de`` and ``de-DE`` German ones (``0,33``, ``10.000``);
``gsw`` without a region is Swiss.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from babel import Locale, UnknownLocaleError

LANGUAGES = ("de", "en", "fr", "it")
DEFAULT_LANGUAGE = "en"
ALIASES = {"gsw": ("de", "CH")}
"""Languages read as one of ours, with the region their numbers follow unless the tag names one."""
MAX_HEADER_LENGTH = 1000
_RANGE = re.compile(r"^(?:\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)$")
_QVALUE = re.compile(r"^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$")


@dataclass(frozen=True, slots=True)
class Choice:
    """The answer's language, and the locale its numbers are written in."""

    language: str
    locale: str


DEFAULT = Choice(DEFAULT_LANGUAGE, DEFAULT_LANGUAGE)


def _ranges(header: str) -> list[tuple[str, float]]:
    """The header's language ranges with their q-values, best first; malformed ones dropped."""
    found: list[tuple[str, float]] = []
    for item in header.split(","):
        tag, *parameters = (part.strip() for part in item.split(";"))
        if not _RANGE.match(tag):
            continue
        quality = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                value = value.strip()
                quality = float(value) if _QVALUE.match(value) else -1.0
        if quality >= 0:
            found.append((tag.lower(), quality))
    found.sort(key=lambda ranged: -ranged[1])  # stable: equal q keep the client's order
    return found


def _language(tag: str) -> str:
    """The primary subtag of a range, read as our language where it is an alias of one."""
    primary = tag.split("-")[0]
    return ALIASES[primary][0] if primary in ALIASES else primary


def _choice(tag: str) -> Choice | None:
    """Our language for one language tag, with the tag's region for numbers if Babel has it."""
    given, *subtags = tag.split("-")
    primary = _language(given)
    if primary not in LANGUAGES:
        return None
    region = next((s.upper() for s in subtags if len(s) == 2 and s.isalpha()),
                  ALIASES[given][1] if given in ALIASES else None)
    if region is not None:
        try:
            Locale.parse(f"{primary}_{region}")
        except (UnknownLocaleError, ValueError):
            region = None
    return Choice(primary, primary if region is None else f"{primary}_{region}")


@lru_cache(maxsize=512)
def from_header(header: str | None) -> Choice:
    """The language an ``Accept-Language`` header asks for (English when it asks for none)."""
    if not header or len(header) > MAX_HEADER_LENGTH:
        return DEFAULT
    ranges = _ranges(header)
    refused = {tag for tag, quality in ranges if quality == 0 and "-" not in tag}
    named = {_language(tag) for tag, _quality in ranges}
    for tag, quality in ranges:
        if quality == 0:
            continue
        if tag == "*":  # the languages no other range names, at this range's q
            others = (lang for lang in (DEFAULT_LANGUAGE, *LANGUAGES) if lang not in named)
            if (other := next(others, None)) is not None:
                return Choice(other, other)
            continue
        choice = _choice(tag)
        if choice is not None and choice.language not in refused:
            return choice
    return DEFAULT


def negotiate(accept_language: str | None, override: str | None = None) -> Choice:
    """``override`` (a link's ``?lang=``) when it names one of our languages, else the header."""
    if override and len(override) <= 35 and _RANGE.match(override) and override != "*":
        choice = _choice(override.lower())
        if choice is not None:
            return choice
    return from_header(accept_language)
