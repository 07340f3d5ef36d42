"""Compiling a ``.po`` catalogue into a ``.mo`` file that remembers which ``.po`` it came from.

The compiled file carries the SHA-256 of its source as one extra entry, so a reader can tell a
compiled catalogue that matches its ``.po`` from a stale one without trusting file times (a
checkout, a copy or an unpacked wheel sets those to anything). Standard library and Babel only:
:mod:`api.i18n.build` loads this file by its path while a wheel is built, before anything of
Tafelrunde can be imported.
"""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DIGEST_CONTEXT = "tafelrunde"
DIGEST_ID = "source-digest"
DOMAIN = "messages"


def digest(source: bytes) -> str:
    return hashlib.sha256(source).hexdigest()


def compile_po(source: bytes) -> bytes:
    """The ``.mo`` bytes of a ``.po`` file's bytes, marked with the source's digest."""
    catalog = read_po(io.BytesIO(source), charset="utf-8")
    catalog.add(DIGEST_ID, digest(source), context=DIGEST_CONTEXT)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    return compiled.getvalue()


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` in one step: a reader sees the old file or the new one."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def compile_tree(locale_dir: Path, target_dir: Path) -> list[Path]:
    """Compile every ``<lang>/LC_MESSAGES/messages.po`` under ``locale_dir`` into the same place
    under ``target_dir``; the ``.mo`` files written."""
    written = []
    for po in sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo = target_dir / po.relative_to(locale_dir).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(mo, compile_po(po.read_bytes()))
        written.append(mo)
    return written
