"""The Babel extraction method for Tafelrunde's sources (configured in ``babel.cfg``).

For every ``api/`` and ``scoring/`` file it yields what Babel's own Python extractor finds
(``_("...")``, ``_n("...", "...", count=n)``) and, from the imported module, every
:class:`~scoring.messages.Message` (context: its code) and every
:class:`~scoring.messages.Vocabulary` word in each of its forms (context: what the words are).
So the engine's words reach the catalogues from the engine itself, with a note for the
translator on what each placeholder stands for.
"""

from __future__ import annotations

import importlib
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from babel.messages.extract import extract_python

from api.i18n.words import term_context
from scoring.messages import (
    ByOption,
    Kind,
    Listed,
    Message,
    Named,
    Person,
    Vocabulary,
    declared_in,
    placeholders,
)

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS: dict[str, Any] = {
    "_": None, "_n": (1, 2), "pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3)}
"""What ``api.i18n``'s markers look like to Babel (``_(text)``, ``_n(singular, plural)``), and
how the declared messages are handed over (with their context)."""

Extracted = tuple[int, str, "str | tuple[str, ...]", list[str]]


def module_name(path: Path) -> str:
    parts = path.resolve().relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _kind_note(kind: Kind | None) -> str:
    if isinstance(kind, ByOption):
        return _kind_note(kind.kinds[kind.default])
    if isinstance(kind, Listed):
        joined = "and" if kind.joiner == "and" else "or"
        return f"a list ({joined}) of {_kind_note(kind.item) if kind.item else 'names'}"
    if isinstance(kind, Vocabulary):
        forms = f"; forms: {', '.join(kind.forms)}" if kind.forms else ""
        return f"{kind.context}{forms}"
    if isinstance(kind, Person):
        return "a player's name (or a side's)"
    if isinstance(kind, Named):
        return "a card's name"
    return "a number or a text"


def notes(message: Message) -> list[str]:
    """For the translator: what each placeholder of ``message`` stands for."""
    names = placeholders(message.text) | placeholders(message.plural or "")
    return [f"{{{name}}}: {_kind_note(message.kinds.get(name))}" for name in sorted(names)]


def _line(source: list[str], needle: str) -> int:
    return next((number for number, line in enumerate(source, start=1) if needle in line), 1)


def declared_entries(path: Path) -> Iterator[Extracted]:
    """The messages and vocabularies the module at ``path`` declares, as Babel entries."""
    module = importlib.import_module(module_name(path))
    source = path.read_text(encoding="utf-8").splitlines()
    for item in declared_in(module):
        if isinstance(item, Message):
            line = _line(source, item.text[:30])
            if not item.code:  # said without a context, like _()
                yield (line, "_n", (item.text, item.plural), notes(item)) if item.plural \
                    else (line, "_", item.text, notes(item))
            elif item.plural is None:
                yield line, "pgettext", (item.code, item.text), notes(item)
            else:
                yield line, "npgettext", (item.code, item.text, item.plural), notes(item)
        else:
            for value, english in item.names.items():
                line = _line(source, f'"{value}"')
                for form in ("", *item.forms):
                    yield line, "pgettext", (term_context(item, form), english), []


def extract(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
            options: Any) -> Iterator[Any]:
    """Babel's extraction method: ``_()`` calls, then the module's declared words (both as
    ``(line, function, messages, comments)``, whatever Babel's annotations say)."""
    yield from extract_python(fileobj, keywords, comment_tags, options)
    name = getattr(fileobj, "name", None)
    if isinstance(name, str):
        yield from declared_entries(Path(name))
