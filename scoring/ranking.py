"""Shared ranks: sides that are equal on every criterion share a rank (1, 1, 3, ...)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar


class _Comparable(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


K = TypeVar("K", bound=_Comparable)


def shared_ranks(keys: Sequence[K]) -> tuple[int, ...]:
    """Competition ranks for ``keys`` where a smaller key is better.

    ``keys[i]`` is side i's sort key (build it so that "better" sorts first, e.g. ``(-vp,)`` or
    ``(penalty, -wins)``). Equal keys share the best rank of their group; the next distinct key
    ranks after all of them, as on a sports table.
    """
    order = sorted(range(len(keys)), key=lambda i: keys[i])
    ranks = [0] * len(keys)
    for position, side in enumerate(order):
        if position and not (keys[order[position - 1]] < keys[side]):
            ranks[side] = ranks[order[position - 1]]
        else:
            ranks[side] = position + 1
    return tuple(ranks)


def best(keys: Sequence[K]) -> tuple[int, ...]:
    """The sides whose key is the best (smallest) one, in side order."""
    top = min(keys)
    return tuple(i for i, key in enumerate(keys) if not (top < key))
