"""A club's evening of matches for money: who pays whom, and what the Kasse is still owed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.club_settlement import (
    ClubSettlement,
    Kasse,
    KasseLine,
    MemberMoney,
    Payment,
    SettledMatch,
    club_settlement,
    kasse,
    shares,
)
from scoring.money import CHF, EUR, Currency
from scoring.stakes import Settlement, Stakes, settle
from scoring.transfers import Transfer

PROPERTY = settings(deadline=None, max_examples=200)

ANN, BO, CY, DAN = 1, 2, 3, 4
FIVE_RAPPEN = Stakes(CHF, per_point=5)


def penalty_match(
    stakes: Stakes, sides: list[tuple[int, ...]], totals: list[int]
) -> SettledMatch[int]:
    """A match won by the fewest penalty points, by the side with the fewest."""
    winners = {side for side, total in enumerate(totals) if total == min(totals)}
    return SettledMatch(settle(stakes, totals, winners, lower_is_better=True), tuple(sides))


def the_evening(per_match_lost: int = 0) -> list[SettledMatch[int]]:
    """Ann 10, Bo 20, Cy 35; then Bo 5, Cy 15, Dan 15; at 5 Rappen a point."""
    stakes = Stakes(CHF, per_point=5, per_match_lost=per_match_lost)
    return [
        penalty_match(stakes, [(ANN,), (BO,), (CY,)], [10, 20, 35]),
        penalty_match(stakes, [(BO,), (CY,), (DAN,)], [5, 15, 15]),
    ]


def test_an_evenings_payments_add_up_per_member_and_net_into_the_fewest_transfers() -> None:
    (chf,) = club_settlement(the_evening())
    assert chf.members == (
        MemberMoney(ANN, pays=0, receives=175, to_pot=0),
        MemberMoney(BO, pays=50, receives=75 + 100, to_pot=0),
        MemberMoney(CY, pays=200 + 50, receives=0, to_pot=0),
        MemberMoney(DAN, pays=50, receives=0, to_pot=0),
    )
    assert [member.net for member in chf.members] == [175, 125, -250, -50]
    assert chf.pot == 0
    assert chf.transfers == (Transfer(CY, ANN, 175), Transfer(CY, BO, 75), Transfer(DAN, BO, 50))


def test_what_goes_into_the_pot_is_paid_into_the_kasse_not_between_members() -> None:
    (chf,) = club_settlement(the_evening(per_match_lost=50))
    assert [m.to_pot for m in chf.members] == [0, 50, 100, 50]
    assert [m.net for m in chf.members] == [175, 125 - 50, -250 - 100, -50 - 50]
    assert chf.pot == 200
    assert chf.transfers == (Transfer(CY, ANN, 175), Transfer(CY, BO, 75), Transfer(DAN, BO, 50))


def test_a_teams_money_is_split_in_whole_coins_the_odd_coin_to_its_first_member() -> None:
    """Ann and Bo 10 VP, Cy and Dan 7 VP, at 5 Rappen a VP: Cy and Dan pay 0.15 together."""
    match = SettledMatch(
        settle(FIVE_RAPPEN, [10, 7], {0}, lower_is_better=False), ((ANN, BO), (CY, DAN))
    )
    (chf,) = club_settlement([match])
    assert [(m.member, m.pays, m.receives) for m in chf.members] == [
        (ANN, 0, 10),
        (BO, 0, 5),
        (CY, 10, 0),
        (DAN, 5, 0),
    ]
    assert chf.transfers == (Transfer(CY, ANN, 10), Transfer(DAN, BO, 5))


@pytest.mark.parametrize(
    ("amount", "members", "step", "split"),
    [
        (15, 2, 5, [10, 5]),
        (0, 3, 5, [0, 0, 0]),
        (7, 3, 1, [3, 2, 2]),
        (20, 2, 5, [10, 10]),
        (5, 3, 5, [5, 0, 0]),
    ],
)
def test_an_amount_is_shared_in_whole_coins(
    amount: int, members: int, step: int, split: list[int]
) -> None:
    assert shares(amount, members, step) == split


def test_each_currency_is_settled_on_its_own() -> None:
    euro = penalty_match(Stakes(EUR, per_point=1), [(ANN,), (DAN,)], [0, 3])
    chf, eur = club_settlement([euro, *the_evening()])
    assert (chf.currency, eur.currency) == (CHF, EUR)
    assert eur.members == (MemberMoney(ANN, 0, 3, 0), MemberMoney(DAN, 3, 0, 0))
    assert eur.transfers == (Transfer(DAN, ANN, 3),)
    assert chf.transfers == club_settlement(the_evening())[0].transfers


def test_no_match_for_money_settles_nothing() -> None:
    assert club_settlement([]) == ()


def test_a_club_settlement_is_written_as_the_contract_says() -> None:
    (chf,) = club_settlement(the_evening(per_match_lost=50))
    assert chf.as_json() == {
        "currency": "CHF",
        "members": [
            {"player": ANN, "pays": "0.00", "receives": "1.75", "net": "1.75"},
            {"player": BO, "pays": "1.00", "receives": "1.75", "net": "0.75"},
            {"player": CY, "pays": "3.50", "receives": "0.00", "net": "-3.50"},
            {"player": DAN, "pays": "1.00", "receives": "0.00", "net": "-1.00"},
        ],
        "pot": "2.00",
        "transfers": [
            {"from": CY, "to": ANN, "amount": "1.75"},
            {"from": CY, "to": BO, "amount": "0.75"},
            {"from": DAN, "to": BO, "amount": "0.50"},
        ],
    }


def test_the_members_of_a_match_must_fill_its_sides() -> None:
    money = settle(FIVE_RAPPEN, [1, 2], {0}, lower_is_better=True)
    with pytest.raises(ValueError, match="2 sides settled"):
        SettledMatch(money, ((ANN,),))
    with pytest.raises(ValueError, match="2 sides settled"):
        SettledMatch(money, ((ANN,), ()))


def test_amounts_that_are_not_whole_coins_cannot_be_split() -> None:
    money = Settlement(CHF, pays=(0, 3), receives=(3, 0), to_pot=(0, 0), transfers=())
    with pytest.raises(ValueError, match="whole coins"):
        SettledMatch(money, ((ANN,), (BO,)))


def test_the_kasse_sets_what_each_member_owes_the_pot_against_what_they_paid() -> None:
    settled = club_settlement(the_evening(per_match_lost=50))
    payments = [
        Payment(CY, 500, CHF),
        Payment(BO, 50, CHF),
        Payment(CY, -300, CHF),  # Cy paid 5.00 for 1.00 due: 3.00 back, 1.00 left to his credit
    ]
    (chf,) = kasse(settled, payments)
    assert chf.members == (
        KasseLine(BO, owes=50, paid=50),
        KasseLine(CY, owes=100, paid=200),
        KasseLine(DAN, owes=50, paid=0),
    )
    assert [line.due for line in chf.members] == [0, -100, 50]
    assert chf.balance == 250
    assert chf.as_json() == {
        "currency": "CHF",
        "members": [
            {"player": BO, "owes": "0.50", "paid": "0.50", "due": "0.00"},
            {"player": CY, "owes": "1.00", "paid": "2.00", "due": "-1.00"},
            {"player": DAN, "owes": "0.50", "paid": "0.00", "due": "0.50"},
        ],
        "balance": "2.50",
    }


def test_what_several_settlements_say_a_member_owes_adds_up() -> None:
    first, second = the_evening(per_match_lost=50)
    (chf,) = kasse([*club_settlement([first]), *club_settlement([second])], [])
    assert chf.members == (KasseLine(BO, 50, 0), KasseLine(CY, 100, 0), KasseLine(DAN, 50, 0))


def test_a_payment_in_a_currency_nobody_played_for_has_a_kasse_of_its_own() -> None:
    assert kasse(club_settlement(the_evening()), [Payment(ANN, 1000, EUR)]) == (
        Kasse(CHF, ()),
        Kasse(EUR, (KasseLine(ANN, 0, 1000),)),
    )


MEMBERS = list(range(1, 9))


@st.composite
def club_matches(draw: st.DrawFn) -> SettledMatch[int]:
    """A match of 1 to 4 sides of 1 to 2 distinct members each, with random stakes and totals."""
    currency: Currency = draw(st.sampled_from([CHF, EUR]))
    stakes = Stakes(
        currency,
        per_point=draw(st.integers(0, 100)),
        to=draw(st.sampled_from(["players", "pot"])),
        per_match_lost=draw(st.integers(0, 500)),
    )
    sizes = draw(st.lists(st.integers(1, 2), min_size=1, max_size=4))
    players = draw(st.permutations(MEMBERS))
    sides, seat = [], 0
    for size in sizes:
        sides.append(tuple(players[seat : seat + size]))
        seat += size
    totals = draw(st.lists(st.integers(0, 300), min_size=len(sides), max_size=len(sides)))
    winners = draw(st.sets(st.sampled_from(range(len(sides))), min_size=1))
    lower = draw(st.booleans())
    return SettledMatch(settle(stakes, totals, winners, lower_is_better=lower), tuple(sides))


evenings = st.lists(club_matches(), max_size=8)


def between_members(settled: ClubSettlement[int]) -> dict[int, int]:
    """What each member is owed by the others (the pot's part left out)."""
    return {m.member: m.receives - (m.pays - m.to_pot) for m in settled.members}


@PROPERTY
@given(evenings)
def test_money_is_conserved_per_currency(matches: list[SettledMatch[int]]) -> None:
    for settled in club_settlement(matches):
        played = [m.settlement for m in matches if m.settlement.currency == settled.currency]
        assert sum(m.pays for m in settled.members) == sum(sum(s.pays) for s in played)
        assert sum(m.receives for m in settled.members) == sum(sum(s.receives) for s in played)
        assert settled.pot == sum(s.pot for s in played)
        assert (
            sum(m.pays for m in settled.members)
            == sum(m.receives for m in settled.members) + settled.pot
        )


@PROPERTY
@given(evenings)
def test_what_members_owe_each_other_sums_to_zero_and_the_transfers_settle_it(
    matches: list[SettledMatch[int]],
) -> None:
    for settled in club_settlement(matches):
        owed = between_members(settled)
        assert sum(owed.values()) == 0
        for transfer in settled.transfers:
            owed[transfer.payer] += transfer.amount
            owed[transfer.payee] -= transfer.amount
        assert set(owed.values()) <= {0}
        assert len(settled.transfers) <= max(len(settled.members) - 1, 0)


@PROPERTY
@given(evenings)
def test_every_members_amount_and_every_transfer_is_a_multiple_of_the_coin(
    matches: list[SettledMatch[int]],
) -> None:
    for settled in club_settlement(matches):
        step = settled.currency.step
        amounts = [a for m in settled.members for a in (m.pays, m.receives, m.to_pot)]
        amounts += [transfer.amount for transfer in settled.transfers]
        assert all(amount >= 0 and amount % step == 0 for amount in amounts)


@PROPERTY
@given(evenings)
def test_a_player_alone_on_a_side_pays_and_receives_exactly_the_sides_amounts(
    matches: list[SettledMatch[int]],
) -> None:
    alone = [m for m in matches if all(len(side) == 1 for side in m.sides)]
    for settled in club_settlement(alone):
        for member in settled.members:
            pays = receives = 0
            for match in alone:
                money = match.settlement
                for side, (player,) in enumerate(match.sides):
                    if player == member.member and money.currency == settled.currency:
                        pays += money.pays[side]
                        receives += money.receives[side]
            assert (member.pays, member.receives) == (pays, receives)


@PROPERTY
@given(
    st.integers(0, 100_000),
    st.integers(1, 6),
    st.sampled_from([CHF, EUR]),
)
def test_shares_add_up_to_the_amount_and_differ_by_at_most_one_coin(
    coins: int, members: int, currency: Currency
) -> None:
    split = shares(coins * currency.step, members, currency.step)
    assert sum(split) == coins * currency.step
    assert max(split) - min(split) <= currency.step
    assert split == sorted(split, reverse=True)


@PROPERTY
@given(
    evenings,
    st.lists(
        st.builds(
            Payment,
            st.sampled_from(MEMBERS),
            st.integers(-10_000, 10_000),
            st.sampled_from([CHF, EUR]),
        ),
        max_size=10,
    ),
)
def test_the_kasse_holds_what_was_paid_and_is_owed_what_the_matches_put_in_the_pot(
    matches: list[SettledMatch[int]], payments: list[Payment[int]]
) -> None:
    settled = club_settlement(matches)
    for pot in kasse(settled, payments):
        paid = [p.amount for p in payments if p.currency == pot.currency]
        owed = sum(s.pot for s in settled if s.currency == pot.currency)
        assert pot.balance == sum(paid)
        assert sum(line.owes for line in pot.members) == owed
        assert sum(line.due for line in pot.members) == owed - sum(paid)
