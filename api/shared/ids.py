"""Ids of what people share as links and export: url-safe random characters, never a leading
``-``.

A spreadsheet takes a cell that starts with ``-`` for a formula, so the exports' guard
(:data:`api.shared.spreadsheet.FORMULA_STARTS`) had to put a ``'`` before such an id, and a
command line takes it for an option. One id in 64 would start so; it is drawn again instead.
Ids made before this rule keep their leading ``-`` (and the guard's quote in a CSV).
"""

from __future__ import annotations

import secrets


def new_id(random_bytes: int) -> str:
    """``random_bytes`` of randomness in url-safe characters, the first one not ``-``."""
    while True:
        made = secrets.token_urlsafe(random_bytes)
        if not made.startswith("-"):
            return made
