"""Properties of Die sieben Siegel over random valid rounds.

The rounds are made the way a table makes them: bids in playing order against the supply (taking
a colour from an earlier bidder, for a white seal, only once the middle is out of it), then 15
tricks, each won by someone who gives back a seal that fits or takes a black one.
"""

from __future__ import annotations

import contextlib
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import InvalidEntry
from scoring.game import Setup
from scoring.games.seven_seals import GAME, SealsOptions
from scoring.match import fold_match, fold_more
from tests.scoring.shapes import (
    assert_folded_match_fits_its_shapes,
    assert_guided_as_its_shapes_say,
    made_up_rounds,
    partly_entered,
    read_rounds,
)

COLOURS = ("red", "yellow", "green", "blue", "violet")
SUPPLY = {"red": 5, "yellow": 3, "green": 3, "blue": 3, "violet": 3, "white": 4}
SETTINGS = settings(deadline=None, max_examples=60)


@st.composite
def valid_rounds(draw: st.DrawFn, seats: int, round_index: int,
                 first_bidder: int | None = None) -> dict[str, Any]:
    """A round a real table could have played, bid by bid and trick by trick."""
    first = round_index % seats if first_bidder is None else first_bidder
    middle = dict(SUPPLY)
    holdings: list[dict[str, int]] = [dict.fromkeys(SUPPLY, 0) for _ in range(seats)]
    bids: list[dict[str, Any]] = [{} for _ in range(seats)]
    saboteur: int | None = None
    seated: list[int] = []
    for seat in ((first + step) % seats for step in range(seats)):
        if saboteur is None and draw(st.integers(0, 3)) == 0:
            saboteur = seat
            bids[seat] = {"saboteur": True}
            seated.append(seat)
            continue
        seals: list[str] = []
        taken_from: dict[str, list[int]] = {}
        for colour in draw(st.lists(st.sampled_from(COLOURS), max_size=5)):
            if middle[colour]:
                middle[colour] -= 1
            else:
                givers = [other for other in seated if holdings[other][colour]]
                if not givers or not middle["white"]:
                    continue
                giver = draw(st.sampled_from(givers))
                holdings[giver][colour] -= 1
                holdings[giver]["white"] += 1
                middle["white"] -= 1
                taken_from.setdefault(colour, []).append(giver)
            holdings[seat][colour] += 1
            seals.append(colour)
        bid: dict[str, Any] = {"seals": seals}
        if taken_from:
            bid["taken_from"] = {colour: seats_[0] if len(seats_) == 1 and draw(st.booleans())
                                 else seats_ for colour, seats_ in taken_from.items()}
        bids[seat] = bid
        seated.append(seat)
    left = [dict(held) for held in holdings]
    black = [0] * seats
    tricks = [0] * seats
    for _ in range(15):
        winner = draw(st.integers(0, seats - 1))
        tricks[winner] += 1
        if winner == saboteur:
            continue
        kinds = [kind for kind, count in left[winner].items() if count]
        if kinds and (left[winner]["white"] or draw(st.integers(0, 3))):
            left[winner][draw(st.sampled_from(kinds))] -= 1
        elif sum(black) < 6:
            black[winner] += 1
    remaining: list[list[str] | None] = [
        None if seat == saboteur else draw(st.permutations(
            [kind for kind, count in left[seat].items() for _ in range(count)]))
        for seat in range(seats)
    ]
    entry: dict[str, Any] = {"bids": bids, "remaining": remaining, "black": black}
    if draw(st.booleans()):
        entry["tricks"] = tricks
    if first_bidder is not None:
        entry["first_bidder"] = first_bidder
    return entry


@st.composite
def matches(draw: st.DrawFn) -> tuple[Setup[SealsOptions], list[dict[str, Any]]]:
    seats = draw(st.integers(3, 5))
    players = tuple(f"P{seat}" for seat in range(seats))
    setup = Setup(players, GAME.read_options({"rounds": draw(st.integers(1, 6))}, seats))
    count = draw(st.integers(1, setup.options.rounds))
    return setup, [draw(valid_rounds(seats, index)) for index in range(count)]


def rotated(entry: dict[str, Any], shift: int, seats: int, round_index: int) -> dict[str, Any]:
    """The same round with every seat moved ``shift`` places to the left."""
    def seat(old: int) -> int:
        return (old + shift) % seats

    def per_seat(values: list[Any]) -> list[Any]:
        moved = [None] * seats
        for old, value in enumerate(values):
            moved[seat(old)] = value
        return moved

    def moved_bid(bid: dict[str, Any]) -> dict[str, Any]:
        if "taken_from" not in bid:
            return bid
        givers = {colour: seat(value) if isinstance(value, int) else [seat(v) for v in value]
                  for colour, value in bid["taken_from"].items()}
        return {**bid, "taken_from": givers}

    moved: dict[str, Any] = {key: per_seat(entry[key])
                             for key in ("remaining", "black", "tricks") if key in entry}
    moved["bids"] = per_seat([moved_bid(bid) for bid in entry["bids"]])
    moved["first_bidder"] = seat(entry.get("first_bidder", round_index % seats))
    return moved


@SETTINGS
@given(matches())
def test_every_simulated_round_is_accepted_and_no_penalty_is_negative(
    match: tuple[Setup[SealsOptions], list[dict[str, Any]]],
) -> None:
    setup, entries = match
    folded = fold_match(GAME, setup, entries)
    for played in folded.rounds:
        assert all(points >= 0 for points in played.result.penalty)


@SETTINGS
@given(st.data())
def test_a_predicting_players_penalty_is_2_per_coloured_4_per_white_and_3_per_black_seal(
    data: st.DataObject,
) -> None:
    seats = data.draw(st.integers(3, 5))
    entry = data.draw(valid_rounds(seats, 0))
    setup = Setup(tuple("ABCDE"[:seats]), GAME.read_options({}, seats))
    result = GAME.score_round(GAME.read_entry(entry, setup, []), setup)
    for seat, left in enumerate(entry["remaining"]):
        if left is not None:
            coloured = sum(kind != "white" for kind in left)
            expected = 2 * coloured + 4 * left.count("white") + 3 * entry["black"][seat]
            assert result.penalty[seat] == expected


@SETTINGS
@given(st.data())
def test_rotating_the_seats_rotates_the_results(data: st.DataObject) -> None:
    seats = data.draw(st.integers(3, 5))
    shift = data.draw(st.integers(1, seats - 1))
    rounds = data.draw(st.integers(1, seats))
    entries = [data.draw(valid_rounds(seats, index)) for index in range(rounds)]
    names = tuple(f"P{seat}" for seat in range(seats))
    setup = Setup(names, GAME.read_options({}, seats))
    moved_names = tuple(names[(seat - shift) % seats] for seat in range(seats))
    moved_setup = Setup(moved_names, setup.options)
    folded = fold_match(GAME, setup, entries)
    moved = fold_match(GAME, moved_setup, [rotated(entry, shift, seats, index)
                                           for index, entry in enumerate(entries)])
    for original, relabelled in zip(folded.rounds, moved.rounds, strict=True):
        for seat in range(seats):
            new = (seat + shift) % seats
            assert relabelled.result.penalty[new] == original.result.penalty[seat]
            assert relabelled.result.exact[new] == original.result.exact[seat]
    assert {setup.players[w] for w in folded.verdict.winners} == {
        moved_setup.players[w] for w in moved.verdict.winners}


@SETTINGS
@given(matches())
def test_folding_round_by_round_equals_folding_all_at_once(
    match: tuple[Setup[SealsOptions], list[dict[str, Any]]],
) -> None:
    setup, entries = match
    whole = fold_match(GAME, setup, entries)
    totals = GAME.first_totals(setup)
    parsed: list[Any] = []
    for index, entry in enumerate(entries):
        sealed = GAME.read_entry(entry, setup, parsed)
        totals = GAME.add_round(totals, GAME.score_round(sealed, setup), setup)
        parsed.append(sealed)
        assert fold_match(GAME, setup, entries[:index + 1]).rounds[-1].totals == totals
    assert whole.rounds[-1].totals == totals


@SETTINGS
@given(matches(), st.data())
def test_replacing_a_round_then_refolding_equals_folding_the_corrected_list(
    match: tuple[Setup[SealsOptions], list[dict[str, Any]]], data: st.DataObject,
) -> None:
    setup, entries = match
    seats = len(setup.players)
    index = data.draw(st.integers(0, len(entries) - 1))
    before = fold_match(GAME, setup, entries)
    corrected = list(entries)
    corrected[index] = data.draw(valid_rounds(seats, index))
    after = fold_match(GAME, setup, corrected)
    new_result = after.rounds[index].result
    for number, (old, new) in enumerate(zip(before.rounds, after.rounds, strict=True)):
        if number != index:
            assert new.result == old.result
    old_result = before.rounds[index].result
    expected = tuple(total - old + new for total, old, new in zip(
        before.rounds[-1].totals.penalty, old_result.penalty, new_result.penalty, strict=True))
    assert after.rounds[-1].totals.penalty == expected
    assert after.verdict == fold_match(GAME, setup, corrected).verdict


@SETTINGS
@given(st.data())
def test_a_finished_match_has_at_least_one_winner_with_the_fewest_penalty_points(
    data: st.DataObject,
) -> None:
    seats = data.draw(st.integers(3, 5))
    setup = Setup(tuple(f"P{seat}" for seat in range(seats)),
                  GAME.read_options({"rounds": data.draw(st.integers(1, 4))}, seats))
    entries = [data.draw(valid_rounds(seats, index)) for index in range(setup.options.rounds)]
    folded = fold_match(GAME, setup, entries)
    penalty = folded.rounds[-1].totals.penalty
    assert folded.finished
    assert folded.verdict.winners
    assert all(penalty[winner] == min(penalty) for winner in folded.verdict.winners)
    assert all(line.rank == 1 for line in folded.verdict.standings
               if line.side in folded.verdict.winners)


@SETTINGS
@given(st.data())
def test_the_guide_keeps_every_seal_either_in_the_middle_or_with_a_player(
    data: st.DataObject,
) -> None:
    seats = data.draw(st.integers(3, 5))
    first = data.draw(st.integers(0, seats - 1))
    entry = data.draw(valid_rounds(seats, 0, first_bidder=first))
    setup = Setup(tuple(f"P{seat}" for seat in range(seats)), GAME.read_options({}, seats))
    placed = data.draw(st.integers(0, seats))
    order = [(first + step) % seats for step in range(seats)]
    bids: list[Any] = [None] * seats
    for seat in order[:placed]:
        bids[seat] = entry["bids"][seat]
    board: Any = GAME.guide({"bids": bids, "first_bidder": first}, setup, [])
    assert board["errors"] == []
    assert board["next_bidder"] == (order[placed] if placed < seats else None)
    for kind, supply in SUPPLY.items():
        held = sum(holding[kind] for holding in board["holdings"])
        assert board["middle"][kind] + held == supply


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 20) | st.sampled_from([*COLOURS, "white", "x"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["bids", "remaining", "black", "tricks", "first_bidder", "seals",
                         "taken_from", "saboteur", *COLOURS]), inner, max_size=5),
    max_leaves=25,
)


@SETTINGS
@given(json_values, st.integers(3, 5))
def test_anything_sent_is_either_a_valid_round_or_refused_with_named_fields_never_a_crash(
    raw: Any, seats: int,
) -> None:
    setup = Setup(tuple(f"P{seat}" for seat in range(seats)), GAME.read_options({}, seats))
    board: Any = GAME.guide(raw, setup, [])
    assert all(isinstance(problem["path"], str) for problem in board["errors"])
    with contextlib.suppress(InvalidEntry):
        GAME.read_entry(raw, setup, [])


@SETTINGS
@given(matches(), st.data())
def test_carrying_a_fold_on_with_the_later_rounds_equals_folding_all_at_once(
        match: tuple[Setup[SealsOptions], list[dict[str, Any]]], data: st.DataObject) -> None:
    setup, entries = match
    split = data.draw(st.integers(0, len(entries)))
    carried = fold_more(GAME, fold_match(GAME, setup, entries[:split]), entries[split:])
    assert carried == fold_match(GAME, setup, entries)


@SETTINGS
@given(matches())
def test_what_a_match_reads_and_writes_fits_the_games_shapes(
    match: tuple[Setup[SealsOptions], list[dict[str, Any]]],
) -> None:
    setup, entries = match
    assert_folded_match_fits_its_shapes(GAME, fold_match(GAME, setup, entries))


@SETTINGS
@given(matches(), st.data())
def test_the_guide_answers_every_round_being_entered_as_its_shape_says(
    match: tuple[Setup[SealsOptions], list[dict[str, Any]]], data: st.DataObject,
) -> None:
    setup, entries = match
    index = data.draw(st.integers(0, len(entries) - 1))
    typed = data.draw(partly_entered(entries[index]) | made_up_rounds(GAME))
    assert_guided_as_its_shapes_say(GAME, typed, setup, read_rounds(GAME, setup, entries[:index]))
