"""Words to say later, in the reader's language: :class:`Phrase`, ``_()`` and ``_n()``, and
:class:`Words`, one language's way of saying them.

An error is raised deep in a service, long before anyone knows who will read it; so it carries a
:class:`Phrase` (a message with its parameters, and the table whose seats it may name), and the
answer says it with the :class:`Words` of the request (:mod:`api.i18n.http`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.numbers import get_decimal_symbol, get_group_symbol, get_minus_sign_symbol
from babel.support import Translations

from api.i18n.catalogues import catalogue
from api.i18n.negotiation import DEFAULT, Choice
from scoring.messages import ENGLISH, NO_NAMES, Kind, Message, Names, Vocabulary, Wording

LARGEST_FORMATTED = 10**15


@dataclass(frozen=True, slots=True)
class Phrase:
    """A message and its parameters, said when the reader's language is known."""

    message: Message
    params: Mapping[str, Any] = field(default_factory=dict)
    names: Names = NO_NAMES

    def with_params(self, **params: Any) -> Phrase:
        """The same message with these parameters (a phrase declared once, said many times)."""
        return Phrase(self.message, {**self.params, **params}, self.names)

    @property
    def english(self) -> str:
        """The text in English, for logs and exception messages."""
        return ENGLISH.say(self.message.template(self.params), self.params, self.message.kinds,
                           self.names)


def _(text: str, /, kinds: Mapping[str, Kind] | None = None, **params: Any) -> Phrase:
    """Mark ``text`` (English, with ``{name}`` placeholders) for the catalogues, to be said in
    the reader's language with ``params``; ``kinds`` says what a parameter that is more than a
    number or a text stands for (``{"game": GAMES}``: a game's key, said as its name)."""
    return Phrase(Message("", text, kinds=kinds or {}), params)


def _n(singular: str, plural: str, /, count: int, **params: Any) -> Phrase:
    """Like :func:`_`, with a plural: ``_n("1 round", "{count} rounds", count=n)``."""
    return Phrase(Message("", singular, plural=plural, count="count"), {"count": count, **params})


def term_context(vocabulary: Vocabulary, form: str = "") -> str:
    """The catalogue context of a vocabulary's words in one of its forms."""
    note = vocabulary.forms.get(form)
    return vocabulary.context if note is None else f"{vocabulary.context} ({note})"


class Words(Wording):
    """One language: its catalogue for the templates and terms, its locale for numbers and
    lists."""

    def __init__(self, choice: Choice) -> None:
        self.language = choice.language
        self.locale = Locale.parse(choice.locale)
        self.catalogue: Translations = catalogue(choice.language)
        # Babel's format_decimal takes a millisecond under load, and a finished match's reason
        # has a few numbers on every read: the locale's symbols are looked up once instead.
        self._symbols = str.maketrans({",": get_group_symbol(self.locale),
                                       ".": get_decimal_symbol(self.locale),
                                       "-": get_minus_sign_symbol(self.locale)})

    def __call__(self, text: Phrase) -> str:
        message = text.message
        return self.say(self.template(message, text.params), text.params, message.kinds,
                        text.names)

    def template(self, message: Message, params: Mapping[str, object]) -> str:
        context = message.code or None
        if message.plural is None:
            if context is None:
                return str(self.catalogue.gettext(message.text))
            return str(self.catalogue.pgettext(context, message.text))
        count = params.get(message.count or "")
        number = count if isinstance(count, int) and not isinstance(count, bool) else 2
        if context is None:
            return str(self.catalogue.ngettext(message.text, message.plural, number))
        return str(self.catalogue.npgettext(context, message.text, message.plural, number))

    def term(self, vocabulary: Vocabulary, value: object, form: str) -> str:
        key = str(value)
        if key not in vocabulary.names:
            return key
        return str(self.catalogue.pgettext(term_context(vocabulary, form), vocabulary.names[key]))

    def number(self, value: int | float) -> str:
        """Grouped thousands and at most three decimals, with the locale's symbols (the same as
        Babel's ``#,##0.###`` for our languages, checked by a test)."""
        # Numbers a client typed can be absurd (10**400, inf): those are written as they came.
        if not abs(value) < LARGEST_FORMATTED:  # also NaN
            return str(value)
        rounded = round(value, 3)
        whole = rounded == int(rounded)
        text = f"{int(rounded):,}" if whole else f"{rounded:,.3f}".rstrip("0")
        return text.translate(self._symbols)

    def joined(self, items: Sequence[str], joiner: str) -> str:
        if joiner == "or":
            return str(format_list(list(items), style="or", locale=self.locale))
        return str(format_list(list(items), locale=self.locale))


@cache
def words_for(choice: Choice = DEFAULT) -> Words:
    """The words of one negotiated choice, made once per process."""
    return Words(choice)
