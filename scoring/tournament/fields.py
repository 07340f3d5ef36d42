"""Finite fields GF(p^e) for the seating designs, as addition and multiplication tables.

An element is an integer 0..q-1 read as the coefficients of a polynomial over GF(p), lowest
digit first in base p; multiplication is modulo the first monic polynomial of degree e (in
that reading) whose tables have no zero divisors, which is exactly an irreducible one. The
orders the seating needs are small (q ≤ 64), so whole tables are cheap and make every
operation a lookup.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True, slots=True)
class GaloisField:
    """GF(``order``): ``add[a][b]``, ``mul[a][b]`` and ``neg[a]`` for elements 0..order-1."""

    order: int
    add: tuple[tuple[int, ...], ...]
    mul: tuple[tuple[int, ...], ...]
    neg: tuple[int, ...]

    def sub(self, a: int, b: int) -> int:
        return self.add[a][self.neg[b]]


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, e)`` with ``q == p**e`` for a prime ``p``, or None."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    e = 0
    while q % p == 0:
        q //= p
        e += 1
    return (p, e) if q == 1 else None


@cache
def galois_field(q: int) -> GaloisField:
    """The field of order ``q``; raises ValueError when ``q`` is not a prime power."""
    factors = prime_power(q)
    if factors is None:
        raise ValueError(f"there is no field of order {q}")
    p, e = factors
    digits = [[(a // p**i) % p for i in range(e)] for a in range(q)]
    add = tuple(tuple(_number([(x + y) % p for x, y in zip(digits[a], digits[b], strict=True)], p)
                      for b in range(q)) for a in range(q))
    neg = tuple(_number([(-x) % p for x in digits[a]], p) for a in range(q))
    tables = (
        tuple(tuple(_number(_product(digits[a], digits[b], digits[low], p), p) for b in range(q))
              for a in range(q))
        for low in range(q)  # the low coefficients of a monic polynomial of degree e
    )
    mul = next(t for t in tables if all(t[a][b] for a in range(1, q) for b in range(1, q)))
    return GaloisField(q, add, mul, neg)


def _number(coefficients: list[int], p: int) -> int:
    return sum(c * p**i for i, c in enumerate(coefficients))


def _product(a: list[int], b: list[int], low: list[int], p: int) -> list[int]:
    """``a × b`` modulo ``x^e + low`` (coefficients lowest first)."""
    e = len(low)
    wide = [0] * (2 * e - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            wide[i + j] = (wide[i + j] + x * y) % p
    for power in range(2 * e - 2, e - 1, -1):  # x^power = -low · x^(power - e)
        top, wide[power] = wide[power], 0
        for i, c in enumerate(low):
            wide[power - e + i] = (wide[power - e + i] - top * c) % p
    return wide[:e]
