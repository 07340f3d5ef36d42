"""English wording shared by the games' reasons (the app translates by code and parameters)."""

from __future__ import annotations

from collections.abc import Sequence


def listed(names: Sequence[str]) -> str:
    """``Ann``; ``Ann and Ben``; ``Ann, Ben and Cleo``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
