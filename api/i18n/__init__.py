"""Every word the API says, in German, French, Italian or English.

What is negotiated
    The answer's language comes from ``?lang=`` (for links that must carry it) or else the
    request's ``Accept-Language`` (RFC 9110 q-values; ``de-CH`` reads German with Swiss
    numbers); anything else is English. Every ``/api/`` answer names it in ``Content-Language``
    and says ``Vary: Accept-Language`` (:mod:`api.i18n.negotiation`, :mod:`api.i18n.http`).

Where the words live
    One gettext catalogue per language, ``api/i18n/locale/<lang>/LC_MESSAGES/messages.po``,
    made and kept up to date with Babel: the English texts are the message ids, the engine's
    codes (and what a term is) their contexts. The build step compiles them (``.mo``) when the
    package is built or installed, and a catalogue whose ``.mo`` is missing or older than its
    ``.po`` is compiled when first used (:mod:`api.i18n.catalogues`), so nobody runs a compile
    step and no old text is ever served.

Adding a message the API says
    1. Write it in English as a whole sentence in the players' words, with ``{name}``
       placeholders: ``raise Conflict(_("Round {number} is not complete.", number=n))``, or
       ``_n("1 round", "{count} rounds", count=n)`` where a number decides the form. For a bad
       field, ``Fault(path, code, _("..."))``: ``code`` and the parameters are the contract,
       the words are not. An engine message is a :class:`scoring.messages.Message` declared
       next to the rule that uses it.
    2. ``python -m api.i18n update`` adds it to every catalogue (English is filled in).
    3. Translate it in ``de``, ``fr`` and ``it`` (``msgstr``; every plural form), as a native
       speaker would say it at the table, with the same placeholders; terms may ask for a
       grammatical form (``{colour:plural}``, see the vocabulary's note).
    4. ``python -m api.i18n check`` (also a test) fails while anything is missing, fuzzy or
       has other placeholders than the English; a translation that is the English word itself
       (Banner, club) must be listed in ``tests/api/test_languages.py`` (``SAME_AS_ENGLISH``).

Adding a language
    Add it to :data:`api.i18n.negotiation.LANGUAGES`, run ``python -m api.i18n update`` (it
    creates the catalogue with the language's plural rule), translate every entry and add the
    language to the PWA's ``pwa/i18n``.
"""

from api.i18n.negotiation import DEFAULT_LANGUAGE, LANGUAGES, Choice, negotiate
from api.i18n.words import Phrase, Words, _, _n, words_for

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "Choice", "Phrase", "Words", "_", "_n", "negotiate",
           "words_for"]
