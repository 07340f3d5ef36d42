"""Keeping the catalogues in step with the code: ``python -m api.i18n update`` and ``check``.

``update`` extracts every message with Babel (``babel.cfg``), writes the template
``locale/messages.pot``, and merges it into each language's ``.po``: new messages appear
untranslated, changed ones keep their old translation marked fuzzy (to be checked), removed ones
go; English is filled in from the message ids. ``check`` lists what a release cannot have: a
message missing, untranslated or fuzzy in a catalogue, one a catalogue has that the code no
longer says, or a translation whose placeholders are not the English ones.
"""

from __future__ import annotations

import copy
import io
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from api.i18n.catalogues import LOCALE_DIR
from api.i18n.compiling import DOMAIN
from api.i18n.extract import KEYWORDS, ROOT
from api.i18n.negotiation import DEFAULT_LANGUAGE, LANGUAGES
from scoring.messages import placeholders

MAPPING = Path(__file__).resolve().parent / "babel.cfg"
HEADER: dict[str, Any] = {
    "version": "1", "copyright_holder": "the Tafelrunde authors",
    "msgid_bugs_address": "the Tafelrunde authors", "last_translator": "the Tafelrunde authors",
    "language_team": "the Tafelrunde authors",
    "creation_date": datetime(2026, 1, 1, tzinfo=UTC),
    "revision_date": datetime(2026, 1, 1, tzinfo=UTC),
    "header_comment": "# The words Tafelrunde's API says. Made by python -m api.i18n update;\n"
                      "# translate the msgstr lines (see api/i18n/__init__.py).",
}
"""Fixed header values, so that an update changes a catalogue only where a message changed."""
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
_PREVIOUS = re.compile(r"^\| msg(?:ctxt|id|id_plural) ")
WIDTH = 100


def po_path(language: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def extracted() -> Catalog:
    """Every message of the code, as a template catalogue."""
    with MAPPING.open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config, str(MAPPING))  # type: ignore[no-untyped-call]
    template = Catalog(project="Tafelrunde", fuzzy=False, **HEADER)
    found = extract_from_dir(str(ROOT), method_map, options_map, keywords=KEYWORDS,
                             directory_filter=lambda path: ".venv" not in Path(path).parts)
    for filename, line, message, comments, context in found:
        template.add(message, None, [(filename, line)], auto_comments=comments, context=context)
    return template


def _english(catalog: Catalog) -> None:
    """English says what the code says: each message is its own translation."""
    for message in catalog:
        if message.id:
            message.string = message.id
            message.flags.discard("fuzzy")
            message.previous_id = []


def _read(path: Path, language: str) -> Catalog:
    """A catalogue as written, without the echoes of earlier updates' previous ids.

    ``write_po`` marks a fuzzy message with the id it was matched from (``#| msgid "old"``),
    but ``read_po`` reads that line back as a translator's comment (``# | msgid "old"``), which
    every later update would keep, long after the translation was checked: such comments are
    dropped, and the next merge marks the previous id again where it still matters.
    """
    with path.open("rb") as source:
        catalog = read_po(source, locale=language)
    for message in catalog:
        message.user_comments = [comment for comment in message.user_comments
                                 if not _PREVIOUS.match(comment)]
    return catalog


def _write(path: Path, catalog: Catalog) -> None:
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, ignore_obsolete=True, include_previous=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(out.getvalue())


def update() -> None:
    template = extracted()
    _write(TEMPLATE, template)
    for language in LANGUAGES:
        path = po_path(language)
        if path.is_file():
            catalog = _read(path, language)
        else:
            catalog = Catalog(locale=language, project="Tafelrunde", fuzzy=False, **HEADER)
        catalog.update(copy.deepcopy(template), update_creation_date=False)
        if language == DEFAULT_LANGUAGE:
            _english(catalog)
        _write(path, catalog)


def _key(message: object) -> tuple[object, object]:
    return getattr(message, "id", None), getattr(message, "context", None)


def _forms(message_id: object) -> tuple[str, ...]:
    return tuple(message_id) if isinstance(message_id, tuple | list) else (str(message_id),)


def problems(locale_dir: Path = LOCALE_DIR, template: Catalog | None = None) -> Iterator[str]:
    """Everything that keeps the catalogues from speaking every message in every language."""
    template = template or extracted()
    wanted = {_key(message) for message in template if message.id}
    for language in LANGUAGES:
        path = po_path(language, locale_dir)
        if not path.is_file():
            yield f"{language}: no catalogue at {path}"
            continue
        with path.open("rb") as source:
            catalog = read_po(source, locale=language)
        have = {_key(message): message for message in catalog if message.id}
        for key in sorted(wanted - have.keys(), key=str):
            yield f"{language}: missing {key[1] or ''} {key[0]!r}; run python -m api.i18n update"
        for key in sorted(have.keys() - wanted, key=str):
            yield f"{language}: {key[0]!r} is no longer in the code; run python -m api.i18n update"
        for key, message in have.items():
            english = _forms(message.id)
            said = _forms(message.string) if message.string else ()
            where = f"{language}: {f'{key[1]} ' if key[1] else ''}{english[0]!r}"
            if message.fuzzy:
                yield f"{where} is fuzzy: check the translation and remove the flag"
            if not all(said) or len(said) < (catalog.num_plurals if len(english) > 1 else 1):
                yield f"{where} is not translated (in every plural form)"
                continue
            names = frozenset().union(*(placeholders(form) for form in english))
            used = [placeholders(form) for form in said]
            everywhere = frozenset().union(*used)
            if everywhere != names or (len(english) == 1 and used[0] != names):
                yield f"{where} has placeholders {sorted(everywhere)}, not {sorted(names)}"


def check() -> list[str]:
    return list(problems())
