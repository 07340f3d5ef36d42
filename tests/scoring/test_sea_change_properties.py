"""Properties of Sea Change over random valid deals, for every player count 1–8.

A deal is the whole deck in play shuffled and split into piles of whole tricks, with a random
final trump. A round is entered from a deal either card by card or as the points it scores.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import MatchFinished
from scoring.game import Setup
from scoring.games._sea_change_deck import DECK_RULES, EIGHTS, SUITS, ZERO_OF, deck_of
from scoring.games.sea_change import GAME, pile_points
from scoring.match import FoldedMatch, fold_match, fold_more, set_up
from tests.scoring.shapes import (
    assert_folded_match_fits_its_shapes,
    assert_guided_as_its_shapes_say,
    made_up_rounds,
    partly_entered,
    read_rounds,
)

NAMES = ("Ann", "Daniel", "Eric", "Warren", "Maya", "Lena", "Tom", "Ida")
SETTINGS = settings(deadline=None, max_examples=60)

Table = tuple[Setup[Any], tuple[str, ...]]


@st.composite
def tables(draw: st.DrawFn, *, teams: bool = True, solo: bool = True) -> Table:
    """A match set-up and the suits its deals use (given as an option or not)."""
    players = draw(st.integers(1 if solo else 2, 8))
    options: dict[str, Any] = {"target_vp": draw(st.integers(1, 4))}
    team_counts = [k for k in range(2, players // 2 + 1) if players % k == 0]
    if teams and team_counts and draw(st.booleans()):
        count = draw(st.sampled_from(team_counts))
        options["teams"] = [list(range(first, players, count)) for first in range(count)]
    suit_count = DECK_RULES[players].suit_count
    suits = tuple(draw(st.permutations(SUITS))[:suit_count])
    if suit_count < len(SUITS) and draw(st.booleans()):
        options["suits"] = list(suits)
    return set_up(GAME, list(NAMES[:players]), options), suits


@st.composite
def deals(draw: st.DrawFn, table: Table) -> dict[str, Any]:
    """The whole deck shuffled into piles of whole tricks, one per side, and a final trump."""
    setup, suits = table
    rule = setup.options.table.rule
    order = draw(st.permutations(deck_of(rule.players, suits).ids))
    cuts = sorted(draw(st.lists(st.integers(0, rule.tricks), min_size=setup.options.table.sides
                                - 1, max_size=setup.options.table.sides - 1)))
    piles, start = [], 0
    for begin, end in zip([0, *cuts], [*cuts, rule.tricks], strict=True):
        size = (end - begin) * rule.cards_per_trick
        piles.append(list(order[start:start + size]))
        start += size
    return {"final_trump": draw(st.sampled_from(suits)), "captured": piles}


def as_points(setup: Setup[Any], deal: dict[str, Any]) -> dict[str, Any]:
    """The same round entered as points, with the tricks each side took."""
    trump, piles = deal["final_trump"], deal["captured"]
    table = setup.options.table
    entry: dict[str, Any] = {
        "final_trump": trump,
        "scores": [pile_points(pile, trump) for pile in piles],
        "trump_zero": next(side for side, pile in enumerate(piles) if ZERO_OF[trump] in pile),
        "tricks": [len(pile) // table.rule.cards_per_trick for pile in piles],
    }
    if table.solo:
        entry["has_eight"] = not EIGHTS.isdisjoint(piles[0])
    return entry


@st.composite
def rounds(draw: st.DrawFn, table: Table) -> dict[str, Any]:
    deal = draw(deals(table))
    return as_points(table[0], deal) if draw(st.booleans()) else deal


@st.composite
def matches(draw: st.DrawFn, *, teams: bool = True, solo: bool = True
            ) -> tuple[Table, list[dict[str, Any]]]:
    """A set-up and its rounds up to the one that decides the match (or all, if none does)."""
    table = draw(tables(teams=teams, solo=solo))
    setup = table[0]
    entries: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(1, 12))):
        entries.append(draw(rounds(table)))
        if fold_match(GAME, setup, entries).finished:
            break
    return table, entries


def relabelled(raw: dict[str, Any], order: Sequence[int]) -> dict[str, Any]:
    """The round with side ``order[i]`` renamed to side ``i``."""
    moved = dict(raw)
    for key in ("captured", "scores", "tricks"):
        if key in raw:
            moved[key] = [raw[key][old] for old in order]
    if "trump_zero" in raw:
        moved["trump_zero"] = list(order).index(raw["trump_zero"])
    return moved


@SETTINGS
@given(st.data())
def test_every_valid_card_deal_adds_up_to_the_checksum(data: st.DataObject) -> None:
    table = data.draw(tables())
    setup = table[0]
    scored = fold_match(GAME, setup, [data.draw(deals(table))]).rounds[0].result
    assert sum(scored.scores) == setup.options.table.rule.checksum
    assert sum(scored.cards) == setup.options.table.rule.cards
    assert sum(scored.vp) >= 1


@SETTINGS
@given(st.data())
def test_a_round_scores_the_same_entered_card_by_card_or_as_points(data: st.DataObject) -> None:
    table = data.draw(tables())
    setup = table[0]
    deal = data.draw(deals(table))
    by_cards = fold_match(GAME, setup, [deal]).rounds[0].result
    by_points = fold_match(GAME, setup, [as_points(setup, deal)]).rounds[0].result
    assert by_cards == by_points


@SETTINGS
@given(st.data())
def test_card_order_in_a_pile_changes_nothing(data: st.DataObject) -> None:
    table = data.draw(tables())
    deal = data.draw(deals(table))
    shuffler = random.Random(data.draw(st.integers(0, 2**32)))
    shuffled = {**deal, "captured": [shuffler.sample(pile, len(pile)) for pile in deal["captured"]]}
    assert (fold_match(GAME, table[0], [deal]).rounds[0].result
            == fold_match(GAME, table[0], [shuffled]).rounds[0].result)


@SETTINGS
@given(st.data())
def test_relabelling_the_seats_permutes_the_results(data: st.DataObject) -> None:
    (setup, _), entries = data.draw(matches(teams=False, solo=False))
    players = len(setup.players)
    order = data.draw(st.permutations(range(players)))
    moved_setup = set_up(GAME, [setup.players[old] for old in order],
                         GAME.options_json(setup.options))
    folded = fold_match(GAME, setup, entries)
    moved = fold_match(GAME, moved_setup, [relabelled(raw, order) for raw in entries])
    for before, after in zip(folded.rounds, moved.rounds, strict=True):
        assert after.result.scores == tuple(before.result.scores[old] for old in order)
        assert after.result.vp == tuple(before.result.vp[old] for old in order)
        assert after.result.trump_zero == order.index(before.result.trump_zero)
        assert after.totals.vp == tuple(before.totals.vp[old] for old in order)
    assert moved.finished == folded.finished
    assert set(moved.verdict.winners) == {order.index(w) for w in folded.verdict.winners}
    assert ({s.name: s.rank for s in moved.verdict.standings}
            == {s.name: s.rank for s in folded.verdict.standings})


def fold_one_by_one(setup: Setup[Any], entries: Sequence[dict[str, Any]]) -> list[Any]:
    """The protocol driven round by round, as an API adding one round at a time would."""
    parsed: list[Any] = []
    totals = GAME.first_totals(setup)
    steps = []
    for raw in entries:
        entry = GAME.read_entry(raw, setup, parsed)
        result = GAME.score_round(entry, setup)
        totals = GAME.add_round(totals, result, setup)
        parsed.append(entry)
        steps.append((result, totals))
    return steps


@SETTINGS
@given(matches())
def test_folding_round_by_round_equals_folding_all_at_once(
    match: tuple[Table, list[dict[str, Any]]],
) -> None:
    (setup, _), entries = match
    folded = fold_match(GAME, setup, entries)
    assert fold_one_by_one(setup, entries) == [(r.result, r.totals) for r in folded.rounds]


def refold_from(
    setup: Setup[Any], stored: FoldedMatch, index: int, corrected: Sequence[dict[str, Any]]
) -> list[Any] | None:
    """Refold from round ``index`` on, reusing what was stored for the rounds before it;
    ``None`` when a round comes after the match was decided."""
    parsed: list[Any] = []
    for raw in corrected[:index]:
        parsed.append(GAME.read_entry(raw, setup, parsed))
    totals = stored.rounds[index - 1].totals if index else GAME.first_totals(setup)
    results = [played.result for played in stored.rounds[:index]]
    steps = []
    for raw in corrected[index:]:
        if results and GAME.is_over(totals, results, setup):
            return None
        entry = GAME.read_entry(raw, setup, parsed)
        result = GAME.score_round(entry, setup)
        totals = GAME.add_round(totals, result, setup)
        parsed.append(entry)
        results.append(result)
        steps.append((result, totals))
    return [*steps, GAME.judge(totals, results, setup)]


@SETTINGS
@given(st.data())
def test_replacing_a_round_then_refolding_equals_folding_the_corrected_list(
    data: st.DataObject,
) -> None:
    table, entries = data.draw(matches())
    setup = table[0]
    index = data.draw(st.integers(0, len(entries) - 1))
    corrected = [*entries[:index], data.draw(rounds(table)), *entries[index + 1:]]
    refolded = refold_from(setup, fold_match(GAME, setup, entries), index, corrected)
    try:
        scratch = fold_match(GAME, setup, corrected)
    except MatchFinished:
        assert refolded is None
    else:
        assert refolded == [*((r.result, r.totals) for r in scratch.rounds[index:]),
                            scratch.verdict]


@SETTINGS
@given(matches())
def test_a_finished_match_has_at_least_one_winner(
    match: tuple[Table, list[dict[str, Any]]],
) -> None:
    (setup, _), entries = match
    verdict = fold_match(GAME, setup, entries).verdict
    if verdict.finished:
        assert verdict.winners
        assert verdict.reason is not None
        assert all(s.rank == 1 for s in verdict.standings if s.side in verdict.winners)
    else:
        assert all(s.totals["vp"] < setup.options.target_vp for s in verdict.standings)


@SETTINGS
@given(matches(), st.data())
def test_carrying_a_fold_on_with_the_later_rounds_equals_folding_all_at_once(
        match: tuple[Table, list[dict[str, Any]]], data: st.DataObject) -> None:
    (setup, _), entries = match
    split = data.draw(st.integers(0, len(entries)))
    carried = fold_more(GAME, fold_match(GAME, setup, entries[:split]), entries[split:])
    assert carried == fold_match(GAME, setup, entries)


@SETTINGS
@given(matches())
def test_what_a_match_reads_and_writes_fits_the_games_shapes(
    match: tuple[Table, list[dict[str, Any]]],
) -> None:
    (setup, _), entries = match
    assert_folded_match_fits_its_shapes(GAME, fold_match(GAME, setup, entries))


@SETTINGS
@given(matches(), st.data())
def test_the_guide_answers_every_round_being_entered_as_its_shape_says(
    match: tuple[Table, list[dict[str, Any]]], data: st.DataObject,
) -> None:
    (setup, _), entries = match
    index = data.draw(st.integers(0, len(entries) - 1))
    typed = data.draw(partly_entered(entries[index]) | made_up_rounds(GAME))
    assert_guided_as_its_shapes_say(GAME, typed, setup, read_rounds(GAME, setup, entries[:index]))
