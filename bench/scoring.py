"""How fast the scoring package folds matches: rounds per second on one core.

Folds 10,000 random valid 8-player Sea Change rounds entered card by card and 10,000 random valid
5-player Die sieben Siegel rounds, split into whole matches, each match folded from scratch as the
API does after every write. Target: at least 20,000 rounds/s for each.

    .venv/bin/python bench/scoring.py [--rounds N] [--seed S] [--smoke]

``--smoke`` (200 rounds) only checks that the bench still runs; CI does that.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

# Run as a script, this file's folder comes first on sys.path, and this file (bench/scoring.py)
# would shadow the scoring package; the project root must come first instead.
sys.path[0] = str(Path(__file__).resolve().parents[1])

from scoring.game import AnyGame, Setup  # noqa: E402
from scoring.match import fold_match, set_up  # noqa: E402
from scoring.reading import JSON  # noqa: E402
from scoring.registry import game_by_id  # noqa: E402

TARGET_ROUNDS_PER_SECOND = 20_000
SEA_CHANGE_SUITS = ("blue", "green", "red", "purple", "yellow")
SEAL_COLOURS = ("red", "yellow", "green", "blue", "violet")
SEAL_SUPPLY = {"red": 5, "yellow": 3, "green": 3, "blue": 3, "violet": 3}
TRICKS_PER_ROUND = 15
BLACK_SEALS = 6


def sea_change_round(rng: random.Random) -> JSON:
    """Eight players, the whole 80-card deck dealt into ten tricks of eight, each won by someone."""
    deck = [f"{suit}-{value}" for suit in SEA_CHANGE_SUITS for value in range(16)]
    rng.shuffle(deck)
    piles: list[list[JSON]] = [[] for _ in range(8)]
    for trick in range(10):
        piles[rng.randrange(8)].extend(deck[trick * 8:(trick + 1) * 8])
    return {"final_trump": rng.choice(SEA_CHANGE_SUITS), "captured": list(piles)}


def seven_seals_round(rng: random.Random, round_number: int, players: int = 5) -> JSON:
    """A round as a table could play it: bids in playing order against the supply, then tricks."""
    first = (round_number - 1) % players
    middle = dict(SEAL_SUPPLY)
    held: list[list[str]] = [[] for _ in range(players)]
    bids: list[JSON] = [None] * players
    whites = 4
    saboteur: int | None = None
    for offset in range(players):
        seat = (first + offset) % players
        if saboteur is None and rng.random() < 0.15:
            saboteur = seat
            bids[seat] = {"saboteur": True}
            continue
        seals: list[JSON] = []
        taken_from: dict[str, JSON] = {}
        for _ in range(rng.randint(0, 4)):
            colour = rng.choice(SEAL_COLOURS)
            if middle[colour]:
                middle[colour] -= 1
            else:
                holders = [other for other in range(players)
                           if other != seat and colour in held[other] and colour not in taken_from]
                if not holders or not whites:
                    continue
                victim = rng.choice(holders)
                held[victim].remove(colour)
                held[victim].append("white")
                whites -= 1
                taken_from[colour] = victim
            seals.append(colour)
            held[seat].append(colour)
        bids[seat] = {"seals": seals, "taken_from": taken_from} if taken_from else {"seals": seals}
    tricks_left = TRICKS_PER_ROUND
    blacks_left = BLACK_SEALS
    remaining: list[JSON] = []
    black: list[JSON] = []
    for seat in range(players):
        if seat == saboteur:
            remaining.append(None)
            black.append(0)
            continue
        seals_left = list(held[seat])
        rng.shuffle(seals_left)
        given_back = rng.randint(0, min(len(seals_left), tricks_left))
        tricks_left -= given_back
        kept = seals_left[given_back:]
        # A white seal fits every trick, so whoever still holds one never had to take a black.
        taken_black = 0 if "white" in kept else rng.randint(0, min(1, blacks_left, tricks_left))
        tricks_left -= taken_black
        blacks_left -= taken_black
        remaining.append(list(kept))
        black.append(taken_black)
    return {"bids": bids, "remaining": remaining, "black": black}


def whole_matches(game: AnyGame, setup: Setup[Any], make_round: Callable[[int], JSON],
                  rounds: int) -> Iterator[list[JSON]]:
    """Cut a stream of random rounds into matches that each end where the game says it ends."""
    entries: list[JSON] = []
    made = 0
    while made < rounds:
        entries.append(make_round(len(entries) + 1))
        made += 1
        if fold_match(game, setup, entries).finished:
            yield entries
            entries = []
    if entries:
        yield entries


def measure(name: str, game_id: str, players: list[str], options: JSON,
            make_round: Callable[[int], JSON], rounds: int) -> float:
    game = game_by_id(game_id)
    assert game is not None, game_id
    setup = set_up(game, players, options)
    matches = list(whole_matches(game, setup, make_round, rounds))
    started = time.perf_counter()
    for entries in matches:
        fold_match(game, setup, entries)
    elapsed = time.perf_counter() - started
    rate = rounds / elapsed
    verdict = "meets" if rate >= TARGET_ROUNDS_PER_SECOND else "MISSES"
    print(f"{name}: {rounds} rounds in {len(matches)} matches folded in {elapsed:.3f} s = "
          f"{rate:,.0f} rounds/s ({rate / TARGET_ROUNDS_PER_SECOND:.2f} × the target of "
          f"{TARGET_ROUNDS_PER_SECOND:,}: {verdict} it)")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--smoke", action="store_true", help="200 rounds: does it still run?")
    arguments = parser.parse_args()
    if arguments.smoke:
        arguments.rounds = 200
    rng = random.Random(arguments.seed)
    measure("Sea Change, 8 players, card mode", "sea-change",
            ["Ann", "Ben", "Cleo", "Daniel", "Eric", "Fay", "Gus", "Hanna"], {"target_vp": 10},
            lambda _number: sea_change_round(rng), arguments.rounds)
    measure("Die sieben Siegel, 5 players", "seven-seals",
            ["Ann", "Ben", "Cleo", "Daniel", "Eric"], {"rounds": 20},
            lambda number: seven_seals_round(rng, (number - 1) % 20 + 1), arguments.rounds)


if __name__ == "__main__":
    main()
