"""Loading a language's compiled catalogue, and never an old one.

Each language has ``locale/<lang>/LC_MESSAGES/messages.po`` (the source, in git) and its
compiled ``messages.mo`` (made by the build step, :mod:`api.i18n.build`). The ``.mo`` is used
only when it was compiled from exactly the ``.po`` beside it (its recorded digest matches);
otherwise — missing, stale after a ``git pull``, unreadable — the ``.po`` is compiled now, in
memory, and the result written back for the next start where the folder is writable (an editable
checkout). An installed package without its ``.po`` files uses the ``.mo`` as built.
"""

from __future__ import annotations

import contextlib
import io
import logging
from functools import cache
from pathlib import Path

from babel.support import Translations

from api.i18n.compiling import (
    DIGEST_CONTEXT,
    DIGEST_ID,
    DOMAIN,
    compile_po,
    digest,
    write_atomically,
)

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
log = logging.getLogger("tafelrunde.i18n")


def source_digest(translations: Translations) -> str | None:
    found = translations.pgettext(DIGEST_CONTEXT, DIGEST_ID)
    return None if found == DIGEST_ID else str(found)


def _read_mo(path: Path) -> Translations | None:
    try:
        return Translations(io.BytesIO(path.read_bytes()), domain=DOMAIN)
    except (OSError, ValueError, UnicodeDecodeError) as error:
        if path.exists():
            log.warning("ignoring the unreadable compiled catalogue %s: %s", path, error)
        return None


def load(language: str, locale_dir: Path = LOCALE_DIR) -> Translations:
    """The translations of ``language``, compiled from its current ``.po`` if need be."""
    po_path = locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    mo_path = po_path.with_suffix(".mo")
    source = po_path.read_bytes() if po_path.is_file() else None
    compiled = _read_mo(mo_path)
    if compiled is not None and (source is None or source_digest(compiled) == digest(source)):
        return compiled
    if source is None:
        raise FileNotFoundError(f"no catalogue for {language!r} in {locale_dir}")
    fresh = compile_po(source)
    # An installed, read-only package cannot keep it: compiling at each start is correct, just
    # slower.
    with contextlib.suppress(OSError):
        write_atomically(mo_path, fresh)
    return Translations(io.BytesIO(fresh), domain=DOMAIN)


@cache
def catalogue(language: str) -> Translations:
    """The catalogue of one of our languages, loaded once per process."""
    return load(language)
