"""Tschau Sepp properties over random matches dealt from a real shuffled deck."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import InvalidEntry
from scoring.game import Setup
from scoring.games._tschau_sepp_cards import hand_totals
from scoring.games.tschau_sepp import GAME
from scoring.match import FoldedMatch, fold_match, fold_more, set_up
from scoring.reading import JSON
from tests.scoring.shapes import (
    assert_folded_match_fits_its_shapes,
    assert_guided_as_its_shapes_say,
    made_up_rounds,
    partly_entered,
    read_rounds,
)

DESCRIPTION: Any = GAME.describe()
CARDS: list[str] = DESCRIPTION["cards"]
RANKS: list[str] = [rank["id"] for rank in DESCRIPTION["ranks"]]
TABLES: dict[str, dict[str, int]] = DESCRIPTION["tables"]
MAX_GAMES = 6

PROPERTY = settings(deadline=None, max_examples=60)


@st.composite
def setups(draw: st.DrawFn) -> Setup[Any]:
    players = draw(st.integers(2, 8))
    scoring = draw(st.sampled_from(["penalty", "wins"]))
    table = draw(st.sampled_from(["face", "jass", "count", "custom"]))
    options: dict[str, JSON] = {
        "scoring": scoring, "table": table, "games": draw(st.integers(1, MAX_GAMES)),
        "decks": draw(st.sampled_from([1, 2])) if players <= 5 else 2,
    }
    if table == "custom":
        card_values: dict[str, JSON] = {}
        card_values.update(draw(st.fixed_dictionaries(
            {rank: st.integers(0, 100) for rank in RANKS})))
        options["card_values"] = card_values
    if scoring == "penalty" and draw(st.booleans()):
        options["limit"] = draw(st.integers(1, 300))
    if scoring == "wins" and draw(st.booleans()):
        options["wins_needed"] = draw(st.integers(1, 3))
    return set_up(GAME, [f"P{seat}" for seat in range(players)], options)


def card_value(setup: Setup[Any], card: str) -> int:
    """The table's value of a card, looked up from what the game describes and the options."""
    rank = card.split("-", 1)[1]
    table = setup.options.table
    values: Any = (GAME.options_json(setup.options)["card_values"] if table == "custom"
                   else TABLES[table])
    return int(values[rank])


@st.composite
def games(draw: st.DrawFn, setup: Setup[Any]) -> dict[str, JSON]:
    """One game as a real table could end it, entered in one of the forms the options allow."""
    players = len(setup.players)
    decks = GAME.options_json(setup.options)["decks"]
    assert isinstance(decks, int)
    shuffled = draw(st.permutations(CARDS * decks))
    winner = draw(st.integers(0, players - 1))
    hands: list[list[str]] = []
    dealt = 0
    for seat in range(players):
        held = 0 if seat == winner else draw(st.integers(1, 8))
        hands.append(shuffled[dealt:dealt + held])
        dealt += held
    forms = ["hands", "penalty"]
    if setup.options.table == "count" or setup.options.scoring == "wins":
        forms.append("cards_left")
    if setup.options.scoring == "wins":
        forms.append("winner only")
    form = draw(st.sampled_from(forms))
    if form == "hands":
        return {"winner": winner, "hands": [list(hand) for hand in hands]}
    if form == "penalty":
        return {"winner": winner,
                "penalty": [sum(card_value(setup, card) for card in hand) for hand in hands]}
    if form == "cards_left":
        return {"winner": winner, "cards_left": [len(hand) for hand in hands]}
    return {"winner": winner}


@st.composite
def matches(draw: st.DrawFn) -> tuple[Setup[Any], list[JSON]]:
    """A set-up match and its games up to the one that decides it (or the last one drawn)."""
    setup = draw(setups())
    entries: list[JSON] = []
    while len(entries) < MAX_GAMES and not fold_match(GAME, setup, entries).finished:
        entries.append(draw(games(setup)))
    return setup, entries


def relabelled(setup: Setup[Any], entries: Sequence[JSON], order: Sequence[int]
               ) -> tuple[Setup[Any], list[JSON]]:
    """The same match with seat ``i`` taken by the player who sat at ``order[i]``."""
    moved = set_up(GAME, [setup.players[seat] for seat in order],
                   GAME.options_json(setup.options))
    new_seat = {old: new for new, old in enumerate(order)}
    relabelled_entries: list[JSON] = []
    for entry in entries:
        assert isinstance(entry, dict)
        winner = entry["winner"]
        assert isinstance(winner, int)
        copy: dict[str, JSON] = {"winner": new_seat[winner]}
        for form in ("hands", "penalty", "cards_left"):
            if form in entry:
                per_seat = entry[form]
                assert isinstance(per_seat, list)
                copy[form] = [per_seat[seat] for seat in order]
        relabelled_entries.append(copy)
    return moved, relabelled_entries


@PROPERTY
@given(matches())
def test_penalties_are_never_negative(match: tuple[Setup[Any], list[JSON]]) -> None:
    setup, entries = match
    folded = fold_match(GAME, setup, entries)
    for played in folded.rounds:
        assert min(played.result.penalty) >= 0
        assert min(played.totals.penalty) >= 0


@PROPERTY
@given(matches(), st.data())
def test_relabelling_seats_permutes_the_results(
        match: tuple[Setup[Any], list[JSON]], data: st.DataObject) -> None:
    setup, entries = match
    order = data.draw(st.permutations(range(len(setup.players))))
    moved, moved_entries = relabelled(setup, entries, order)
    before, after = fold_match(GAME, setup, entries), fold_match(GAME, moved, moved_entries)
    for old, new in zip(before.rounds, after.rounds, strict=True):
        assert new.result.penalty == tuple(old.result.penalty[seat] for seat in order)
        assert order[new.result.winner] == old.result.winner
    ranks = {line.name: line.rank for line in before.verdict.standings}
    assert {line.name: line.rank for line in after.verdict.standings} == ranks
    assert {order[seat] for seat in after.verdict.winners} == set(before.verdict.winners)
    share_before = GAME.score_share(before.rounds[-1].totals, setup)
    share_after = GAME.score_share(after.rounds[-1].totals, moved)
    assert share_after == tuple(share_before[seat] for seat in order)


@PROPERTY
@given(matches(), st.randoms(use_true_random=False))
def test_the_order_of_cards_in_a_hand_changes_nothing(
        match: tuple[Setup[Any], list[JSON]], random: Any) -> None:
    setup, entries = match
    shuffled: list[JSON] = []
    for entry in entries:
        assert isinstance(entry, dict)
        hands = entry.get("hands")
        if isinstance(hands, list):
            hands = [random.sample(hand, len(hand)) for hand in hands if isinstance(hand, list)]
            entry = {**entry, "hands": hands}
        shuffled.append(entry)
    assert results(fold_match(GAME, setup, shuffled)) == results(fold_match(GAME, setup, entries))


def results(folded: FoldedMatch) -> list[tuple[Any, Any]]:
    return [(played.result, played.totals) for played in folded.rounds]


@PROPERTY
@given(matches())
def test_folding_one_round_at_a_time_equals_folding_all_at_once(
        match: tuple[Setup[Any], list[JSON]]) -> None:
    setup, entries = match
    whole = fold_match(GAME, setup, entries)
    totals = GAME.first_totals(setup)
    parsed: list[Any] = []
    for number, raw in enumerate(entries, start=1):
        entry = GAME.read_entry(raw, setup, parsed)
        totals = GAME.add_round(totals, GAME.score_round(entry, setup), setup)
        parsed.append(entry)
        assert totals == whole.rounds[number - 1].totals
        assert fold_match(GAME, setup, entries[:number]).rounds == whole.rounds[:number]
    assert GAME.judge(totals, [played.result for played in whole.rounds], setup) == whole.verdict


@PROPERTY
@given(matches(), st.data())
def test_replacing_a_round_and_refolding_from_there_equals_folding_from_scratch(
        match: tuple[Setup[Any], list[JSON]], data: st.DataObject) -> None:
    setup, entries = match
    number = data.draw(st.integers(1, len(entries)))
    replaced = [*entries[:number - 1], data.draw(games(setup)), *entries[number:]]
    earlier = fold_match(GAME, setup, entries[:number - 1])
    totals = earlier.rounds[-1].totals if earlier.rounds else GAME.first_totals(setup)
    parsed = [GAME.read_entry(raw, setup, []) for raw in entries[:number - 1]]
    results_so_far = [played.result for played in earlier.rounds]
    for raw in replaced[number - 1:]:
        if results_so_far and GAME.is_over(totals, results_so_far, setup):
            break
        entry = GAME.read_entry(raw, setup, parsed)
        result = GAME.score_round(entry, setup)
        totals = GAME.add_round(totals, result, setup)
        parsed.append(entry)
        results_so_far.append(result)
    scratch = fold_match(GAME, setup, replaced[:len(results_so_far)])
    assert scratch.rounds[-1].totals == totals
    assert scratch.verdict == GAME.judge(totals, results_so_far, setup)


@PROPERTY
@given(matches())
def test_a_finished_match_has_at_least_one_winner_and_every_winner_ranks_first(
        match: tuple[Setup[Any], list[JSON]]) -> None:
    setup, entries = match
    verdict = fold_match(GAME, setup, entries).verdict
    assert verdict.finished
    assert verdict.winners
    assert verdict.reason is not None
    assert all(setup.players[seat] in verdict.reason.message for seat in verdict.winners)
    first = {line.side for line in verdict.standings if line.rank == 1}
    assert set(verdict.winners) == first


@PROPERTY
@given(matches())
def test_the_guide_of_an_entered_game_matches_its_result(
        match: tuple[Setup[Any], list[JSON]]) -> None:
    setup, entries = match
    folded = fold_match(GAME, setup, entries)
    parsed = [GAME.read_entry(raw, setup, []) for raw in entries]
    shown: Any = GAME.guide(entries[-1], setup, parsed[:-1])
    assert shown["complete"] is True
    assert shown["errors"] == shown["missing"] == []
    assert shown["totals"] == folded.rounds[-1].totals.as_json()
    assert shown["would_finish"] is folded.finished


@PROPERTY
@given(matches(), st.data())
def test_carrying_a_fold_on_with_the_later_rounds_equals_folding_all_at_once(
        match: tuple[Setup[Any], list[JSON]], data: st.DataObject) -> None:
    setup, entries = match
    split = data.draw(st.integers(0, len(entries)))
    carried = fold_more(GAME, fold_match(GAME, setup, entries[:split]), entries[split:])
    assert carried == fold_match(GAME, setup, entries)


@PROPERTY
@given(matches())
def test_what_a_match_reads_and_writes_fits_the_games_shapes(
    match: tuple[Setup[Any], list[JSON]],
) -> None:
    setup, entries = match
    assert_folded_match_fits_its_shapes(GAME, fold_match(GAME, setup, entries))


@PROPERTY
@given(matches(), st.data())
def test_the_guide_answers_every_game_being_entered_as_its_shape_says(
    match: tuple[Setup[Any], list[JSON]], data: st.DataObject,
) -> None:
    setup, entries = match
    index = data.draw(st.integers(0, len(entries) - 1))
    typed = data.draw(partly_entered(entries[index]) | made_up_rounds(GAME))
    assert_guided_as_its_shapes_say(GAME, typed, setup, read_rounds(GAME, setup, entries[:index]))


def hands_worth(values: Sequence[int], copies: int, most_cards: int) -> set[int]:
    """What 1 to ``most_cards`` cards can be worth, rank by rank: how many of each rank's
    ``copies`` are in the hand (an oracle written apart from the engine's bit sets).

    A worth counts when its smallest hand fits in ``most_cards``, so each worth keeps only the
    fewest cards it takes: every (cards, worth) pair of two decks was tens of millions of steps,
    seconds per example. Worth 0 needs a card worth 0 (the empty hand is no hand)."""
    fewest = {0: 0}  # worth: the fewest cards that make it
    for value in values:
        more: dict[int, int] = {}
        for points, cards in fewest.items():
            for taken in range(copies + 1):
                worth = points + taken * value
                more[worth] = min(more.get(worth, cards + taken), cards + taken)
        fewest = more
    return {points for points, cards in fewest.items() if cards <= most_cards and points > 0} | (
        {0} if 0 in values else set())


@PROPERTY
@given(st.lists(st.integers(0, 100), min_size=9, max_size=9), st.sampled_from([1, 2]),
       st.integers(1, 7))
def test_the_totals_a_hand_can_be_worth_are_the_sums_of_its_possible_cards(
        values: list[int], decks: int, losers: int) -> None:
    most_cards = 36 * decks - losers
    assert hand_totals(tuple(values), decks, losers) == hands_worth(values, 4 * decks,
                                                                    most_cards)


@PROPERTY
@given(setups(), st.data())
def test_a_total_is_accepted_exactly_when_the_guide_says_a_hand_is_worth_it(
        setup: Setup[Any], data: st.DataObject) -> None:
    players = len(setup.players)
    shown: Any = GAME.guide({}, setup, [])
    possible = {total for first, last in shown["hand_points"]["possible"]
                for total in range(first, last + 1)}
    points = data.draw(st.integers(0, max(possible) + 2))
    penalty: list[JSON] = [0, points] + [min(possible)] * (players - 2)
    try:
        GAME.read_entry({"winner": 0, "penalty": penalty}, setup, [])
    except InvalidEntry as refused:
        at_seat = [error.code for error in refused.errors if error.path == "penalty[1]"]
        assert (points in possible) is not bool(at_seat)
    else:
        assert points in possible
