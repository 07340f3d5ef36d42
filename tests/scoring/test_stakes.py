"""A match played for money: every side pays every better side the difference at the rate."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import Errors
from scoring.game import Standing, Verdict
from scoring.measures import Priced
from scoring.money import CHF, EUR, Currency
from scoring.reading import (
    JSON,
    MISSING,
    NOT_A_STRING,
    NOT_AN_OBJECT,
    TOO_SMALL,
    UNKNOWN_CHOICE,
    UNKNOWN_FIELD,
)
from scoring.stakes import Settlement, Stakes, read_stakes, settle, settle_verdict
from scoring.transfers import Transfer

PROPERTY = settings(deadline=None, max_examples=300)

FIVE_RAPPEN = Stakes(CHF, per_point=5)


def penalty(stakes: Stakes, totals: list[int], winners: set[int] | None = None) -> Settlement:
    """A match won by the fewest penalty points (by the first side unless ``winners`` say)."""
    return settle(stakes, totals, winners or {0}, lower_is_better=True)


def test_each_side_pays_every_better_side_the_difference_at_the_rate() -> None:
    """Ann 10, Bo 20, Cy 35 penalty points at 5 Rappen: Bo pays Ann 0.50, Cy pays Ann 1.25
    and Bo 0.75; netted, Cy pays Ann 1.75 and Bo 0.25."""
    settled = penalty(FIVE_RAPPEN, [10, 20, 35])
    assert settled.pays == (0, 50, 200)
    assert settled.receives == (175, 75, 0)
    assert settled.pot == 0
    assert settled.transfers == (Transfer(2, 0, 175), Transfer(2, 1, 25))


def test_with_most_points_best_the_side_with_fewer_points_pays() -> None:
    settled = settle(Stakes(EUR, per_point=10), [12, 7], {0}, lower_is_better=False)
    assert settled.pays == (0, 50)
    assert settled.receives == (50, 0)
    assert settled.transfers == (Transfer(1, 0, 50),)


def test_sides_with_equal_totals_pay_each_other_nothing() -> None:
    settled = penalty(FIVE_RAPPEN, [15, 15, 30], winners={0, 1})
    assert settled.pays == (0, 0, 150)
    assert settled.receives == (75, 75, 0)
    assert penalty(FIVE_RAPPEN, [15, 15]).pays == (0, 0)


def test_a_swiss_payment_is_rounded_half_up_to_five_rappen() -> None:
    """At 1 Rappen a point: 3 behind pays 0.05, 2 behind pays nothing, 7 behind 0.05, 8 behind
    0.10."""
    one_rappen = Stakes(CHF, per_point=1)
    assert penalty(one_rappen, [0, 3, 2, 7, 8]).pays == (0, 5, 0, 5 + 5 + 5, 10 + 5 + 5 + 0)


def test_each_payment_is_rounded_on_its_own_not_their_sum() -> None:
    """Two players 0.02 behind the winner each pay nothing, though the winner is 0.04 ahead."""
    settled = penalty(Stakes(CHF, per_point=2), [0, 1, 1])
    assert settled.pays == (0, 0, 0)
    assert settled.receives == (0, 0, 0)
    assert settled.transfers == ()


def test_euro_payments_are_exact_to_the_cent() -> None:
    assert penalty(Stakes(EUR, per_point=1), [0, 3, 2]).pays == (0, 3 + 1, 2)


def test_a_side_not_among_the_winners_pays_the_fee_for_a_lost_match_into_the_pot() -> None:
    settled = penalty(Stakes(CHF, per_point=5, per_match_lost=50), [10, 20, 35])
    assert settled.pays == (0, 50 + 50, 200 + 50)
    assert settled.to_pot == (0, 50, 50)
    assert settled.pot == 100
    assert settled.receives == (175, 75, 0)
    assert settled.transfers == (Transfer(2, 0, 175), Transfer(2, 1, 25))


def test_winners_who_share_the_win_pay_no_fee() -> None:
    settled = penalty(Stakes(CHF, per_point=0, per_match_lost=50), [10, 10, 12], {0, 1})
    assert settled.to_pot == (0, 0, 50)


def test_the_fee_for_a_lost_match_is_rounded_to_the_coin_too() -> None:
    assert penalty(Stakes(CHF, per_point=0, per_match_lost=52), [0, 1]).to_pot == (0, 50)


def test_played_to_the_pot_every_payment_goes_into_the_pot() -> None:
    settled = penalty(Stakes(CHF, per_point=5, to="pot", per_match_lost=50), [10, 20, 35])
    assert settled.pays == (0, 100, 250)
    assert settled.receives == (0, 0, 0)
    assert settled.pot == 350
    assert settled.transfers == ()


def test_a_settlement_is_written_as_the_contract_says() -> None:
    settled = penalty(Stakes(CHF, per_point=5, per_match_lost=50), [10, 20, 35])
    assert settled.as_json() == {
        "currency": "CHF",
        "pays": ["0.00", "1.00", "2.50"],
        "receives": ["1.75", "0.75", "0.00"],
        "pot": "1.00",
        "transfers": [
            {"from": 2, "to": 0, "amount": "1.75"},
            {"from": 2, "to": 1, "amount": "0.25"},
        ],
    }


@pytest.mark.parametrize("winners", [set(), {2}, {-1}])
def test_a_match_is_settled_only_with_winners_among_its_sides(winners: set[int]) -> None:
    with pytest.raises(ValueError, match="winners"):
        settle(FIVE_RAPPEN, [1, 2], winners, lower_is_better=True)


def test_a_match_without_sides_cannot_be_settled() -> None:
    with pytest.raises(ValueError, match="0 sides"):
        settle(FIVE_RAPPEN, [], {0}, lower_is_better=True)


@pytest.mark.parametrize(("per_point", "per_match_lost"), [(-5, 0), (0, -50)])
def test_stakes_are_never_negative(per_point: int, per_match_lost: int) -> None:
    with pytest.raises(ValueError, match="negative"):
        Stakes(CHF, per_point, per_match_lost=per_match_lost)


def test_stakes_are_read_as_the_contract_writes_them() -> None:
    errors = Errors()
    written: JSON = {"currency": "CHF", "per_point": "0.05", "to": "pot", "per_match_lost": "0.50"}
    stakes = read_stakes(written, "stakes", errors)
    assert stakes == Stakes(CHF, 5, "pot", 50)
    assert stakes.as_json() == written
    assert not errors


def test_stakes_go_to_the_players_and_cost_nothing_for_a_lost_match_unless_they_say() -> None:
    errors = Errors()
    assert read_stakes({"currency": "EUR", "per_point": "0.1"}, "stakes", errors) == Stakes(
        EUR, 10, "players", 0
    )
    assert not errors


@pytest.mark.parametrize(
    ("written", "problems"),
    [
        ("0.05", [("stakes", NOT_AN_OBJECT.code)]),
        ({}, [("stakes.currency", MISSING.code), ("stakes.per_point", MISSING.code)]),
        (
            {"currency": "USD", "per_point": 0.05, "to": "bank", "per_match_lost": "-1"},
            [
                ("stakes.currency", UNKNOWN_CHOICE.code),
                ("stakes.per_point", NOT_A_STRING.code),
                ("stakes.to", UNKNOWN_CHOICE.code),
                ("stakes.per_match_lost", TOO_SMALL.code),
            ],
        ),
        (
            {"currency": "CHF", "per_point": "0.05", "to": "pot", "tip": "1"},
            [("stakes.tip", UNKNOWN_FIELD.code)],
        ),
    ],
)
def test_every_problem_of_written_stakes_is_reported_at_its_field(
    written: JSON, problems: list[tuple[str, str]]
) -> None:
    errors = Errors()
    assert read_stakes(written, "stakes", errors) is None
    assert [(e.path, e.code) for e in errors] == problems


@st.composite
def matches(draw: st.DrawFn) -> tuple[Stakes, list[int], set[int], bool]:
    """Stakes, 1 to 8 sides' totals, the winners (the best total, or anyone) and the way."""
    currency: Currency = draw(st.sampled_from([CHF, EUR]))
    stakes = Stakes(
        currency,
        per_point=draw(st.integers(0, 200)),
        to=draw(st.sampled_from(["players", "pot"])),
        per_match_lost=draw(st.integers(0, 1000)),
    )
    totals = draw(st.lists(st.integers(-500, 500), min_size=1, max_size=8))
    lower_is_better = draw(st.booleans())
    best = min(totals) if lower_is_better else max(totals)
    winners = {side for side, total in enumerate(totals) if total == best}
    if draw(st.booleans()):
        winners = draw(st.sets(st.sampled_from(range(len(totals))), min_size=1))
    return stakes, totals, winners, lower_is_better


Match = tuple[Stakes, list[int], set[int], bool]


def settled(match: Match) -> Settlement:
    stakes, totals, winners, lower_is_better = match
    return settle(stakes, totals, winners, lower_is_better=lower_is_better)


@PROPERTY
@given(matches())
def test_money_is_conserved_what_all_pay_is_what_all_receive_and_the_pot(match: Match) -> None:
    money = settled(match)
    assert sum(money.pays) == sum(money.receives) + money.pot


@PROPERTY
@given(matches())
def test_the_transfers_settle_the_payments_between_sides_exactly(match: Match) -> None:
    money = settled(match)
    sides = range(len(money.pays))
    owed = [money.receives[s] - (money.pays[s] - money.to_pot[s]) for s in sides]
    for transfer in money.transfers:
        owed[transfer.payer] += transfer.amount
        owed[transfer.payee] -= transfer.amount
    assert owed == [0] * len(owed)
    assert len(money.transfers) <= len(owed) - 1


@PROPERTY
@given(matches())
def test_every_amount_is_a_multiple_of_the_coin(match: Match) -> None:
    money = settled(match)
    step = money.currency.step
    amounts = [*money.pays, *money.receives, *money.to_pot, *(t.amount for t in money.transfers)]
    assert all(amount >= 0 and amount % step == 0 for amount in amounts)


@PROPERTY
@given(matches())
def test_the_side_with_the_best_total_pays_nothing_but_the_fee(match: Match) -> None:
    stakes, totals, winners, lower_is_better = match
    money = settled(match)
    best = min(totals) if lower_is_better else max(totals)
    for side, total in enumerate(totals):
        fee = 0 if side in winners else stakes.currency.rounded(stakes.per_match_lost)
        if total == best:
            assert money.pays[side] == fee


@PROPERTY
@given(matches())
def test_playing_to_the_pot_moves_every_payment_between_sides_into_the_pot(match: Match) -> None:
    stakes, totals, winners, lower_is_better = match
    to_players = settle(
        Stakes(stakes.currency, stakes.per_point, "players", stakes.per_match_lost),
        totals,
        winners,
        lower_is_better=lower_is_better,
    )
    to_pot = settle(
        Stakes(stakes.currency, stakes.per_point, "pot", stakes.per_match_lost),
        totals,
        winners,
        lower_is_better=lower_is_better,
    )
    assert to_pot.pays == to_players.pays
    assert to_pot.pot == to_players.pot + sum(to_players.receives)
    assert to_pot.receives == (0,) * len(totals)


@PROPERTY
@given(matches())
def test_most_is_best_is_fewest_is_best_with_the_signs_turned(match: Match) -> None:
    stakes, totals, winners, lower_is_better = match
    turned = settle(
        stakes, [-total for total in totals], winners, lower_is_better=not lower_is_better
    )
    assert turned == settled(match)


def _verdict(finished: bool) -> Verdict:
    """Bo (side 1) won with 3 VP against Ann's 1; standings sorted by rank, not by side."""
    return Verdict((Standing(1, (1,), "Bo", 1, {"vp": 3}), Standing(0, (0,), "Ann", 2, {"vp": 1})),
                   finished, (1,) if finished else ())


def test_a_finished_verdict_is_settled_by_the_priced_total_of_each_side() -> None:
    settled = settle_verdict(Stakes(EUR, per_point=10), Priced("vp", lower_is_better=False),
                             _verdict(finished=True))
    assert settled is not None
    assert settled.pays == (20, 0)
    assert settled.transfers == (Transfer(0, 1, 20),)


def test_a_running_match_has_no_settlement_yet() -> None:
    assert settle_verdict(FIVE_RAPPEN, Priced("vp", lower_is_better=False),
                          _verdict(finished=False)) is None
