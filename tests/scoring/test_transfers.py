"""Netting: what everyone is owed, settled by the fewest transfers."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.transfers import EXACT_UP_TO, Transfer, settle_greedily, settle_nets, zero_sum_groups

PROPERTY = settings(deadline=None, max_examples=300)


@st.composite
def nets(
    draw: st.DrawFn, coin: int = 1, most: int = 12, largest: int = 2000, fewest: int = 1
) -> dict[int, int]:
    """Nets of ``fewest`` to ``most`` members that add up to zero, every one a multiple of
    ``coin`` and at most ``largest`` coins either way (the last one: what the others leave)."""
    owed = draw(st.lists(st.integers(-largest, largest), min_size=fewest - 1, max_size=most - 1))
    amounts = [coin * amount for amount in [*owed, -sum(owed)]]
    members = draw(
        st.lists(st.integers(1, 10_000), min_size=len(amounts), max_size=len(amounts), unique=True)
    )
    return dict(zip(members, amounts, strict=True))


def few_small_nets() -> st.SearchStrategy[dict[int, int]]:
    """Up to 7 members owing or owed a few coins each: small amounts make many groups that add
    up to zero, where the fewest transfers and the greedy way part."""
    return nets(most=7, largest=6)


def fewest_by_trying_every_way(owed: dict[int, int]) -> int:
    """The fewest transfers, by trying them all: the first member with a net hands it on whole
    to each member with a net of the other sign in turn (one transfer), and so on until every
    net is settled (any settlement can be rewritten into one made that way, no longer)."""
    left = [amount for amount in owed.values() if amount]

    def fewest(start: int) -> int:
        while start < len(left) and left[start] == 0:
            start += 1
        if start == len(left):
            return 0
        best = len(left)
        for other in range(start + 1, len(left)):
            if left[other] * left[start] < 0:
                left[other] += left[start]
                best = min(best, 1 + fewest(start + 1))
                left[other] -= left[start]
        return best

    return fewest(0)


def balances(transfers: tuple[Transfer[int], ...], members: list[int]) -> dict[int, int]:
    """What the transfers give each member: received minus paid."""
    moved = dict.fromkeys(members, 0)
    for transfer in transfers:
        moved[transfer.payer] -= transfer.amount
        moved[transfer.payee] += transfer.amount
    return moved


def test_members_whose_nets_add_up_to_zero_settle_among_themselves() -> None:
    owed = {1: 400, 2: 300, 3: 300, 4: -600, 5: -400}
    assert settle_nets(owed) == (
        Transfer(4, 2, 300),
        Transfer(4, 3, 300),
        Transfer(5, 1, 400),
    )
    assert len(settle_greedily(owed)) == 4


def test_a_group_of_k_settles_in_k_minus_one_the_one_owing_most_paying_the_one_owed_most() -> None:
    assert settle_nets({"Ann": 175, "Bo": 25, "Cy": -200}) == (
        Transfer("Cy", "Ann", 175),
        Transfer("Cy", "Bo", 25),
    )


def test_two_debtors_and_two_creditors_with_no_pair_even_need_three_transfers() -> None:
    transfers = settle_nets({1: 300, 2: -200, 3: 100, 4: -200})
    assert transfers == (Transfer(2, 1, 200), Transfer(4, 1, 100), Transfer(4, 3, 100))


def test_transfers_are_listed_by_payer_then_payee_whatever_order_the_nets_come_in() -> None:
    assert settle_nets({4: 50, 3: 50, 2: -50, 1: -50}) == (
        Transfer(1, 3, 50),
        Transfer(2, 4, 50),
    )


def test_above_the_exact_limit_the_members_are_settled_greedily() -> None:
    values = [400, 300, 300, -600, -400] * 3 + [100, -100]
    assert len(values) > EXACT_UP_TO
    owed = dict(enumerate(values, start=1))
    assert len(values) - len(zero_sum_groups(values)) == 10
    assert settle_nets(owed) == settle_greedily(owed)
    assert len(settle_nets(owed)) == 13


def test_the_groups_take_every_member_once_and_each_adds_up_to_zero() -> None:
    values = [4, 3, 3, -6, -4]
    groups = zero_sum_groups(values)
    assert sorted(position for group in groups for position in group) == [0, 1, 2, 3, 4]
    assert all(sum(values[position] for position in group) == 0 for group in groups)
    assert len(groups) == 2


def test_nobody_owing_anything_needs_no_transfer() -> None:
    assert settle_nets({1: 0, 2: 0}) == ()
    assert settle_nets({}) == ()


def test_nets_that_do_not_add_up_to_zero_cannot_be_settled() -> None:
    with pytest.raises(ValueError, match="add up to 5"):
        settle_nets({1: 10, 2: -5})


def test_a_transfer_is_written_as_the_contract_says() -> None:
    assert Transfer(3, 1, 175).as_json() == {"from": 3, "to": 1, "amount": "1.75"}


@PROPERTY
@given(st.one_of(nets(), few_small_nets(), nets(fewest=EXACT_UP_TO + 1, most=EXACT_UP_TO + 4)))
def test_the_transfers_settle_every_net_exactly(owed: dict[int, int]) -> None:
    assert balances(settle_nets(owed), list(owed)) == owed
    assert balances(settle_greedily(owed), list(owed)) == owed


@PROPERTY
@given(st.one_of(nets(), few_small_nets()))
def test_never_more_transfers_than_the_greedy_way(owed: dict[int, int]) -> None:
    involved = sum(1 for amount in owed.values() if amount)
    assert len(settle_nets(owed)) <= len(settle_greedily(owed)) <= max(involved - 1, 0)


@PROPERTY
@given(few_small_nets())
def test_as_few_transfers_as_trying_every_way_finds(owed: dict[int, int]) -> None:
    assert len(settle_nets(owed)) == fewest_by_trying_every_way(owed)


@PROPERTY
@given(st.one_of(nets(), few_small_nets()))
def test_only_those_who_owe_pay_and_only_those_owed_are_paid(owed: dict[int, int]) -> None:
    for transfer in settle_nets(owed):
        assert transfer.amount > 0
        assert owed[transfer.payer] < 0 < owed[transfer.payee]


@PROPERTY
@given(st.sampled_from([5, 1]).flatmap(lambda coin: st.tuples(st.just(coin), nets(coin))))
def test_every_amount_is_a_multiple_of_the_coin_when_the_nets_are(
    coin_and_nets: tuple[int, dict[int, int]],
) -> None:
    coin, owed = coin_and_nets
    assert all(transfer.amount % coin == 0 for transfer in settle_nets(owed))


@PROPERTY
@given(st.one_of(nets(), few_small_nets()), st.randoms(use_true_random=False))
def test_the_order_the_nets_come_in_changes_nothing(
    owed: dict[int, int], random: Random
) -> None:
    shuffled = list(owed.items())
    random.shuffle(shuffled)
    assert settle_nets(dict(shuffled)) == settle_nets(owed)


@PROPERTY
@given(st.one_of(nets(), few_small_nets()), st.data())
def test_renaming_members_in_the_same_order_renames_the_transfers(
    owed: dict[int, int], data: st.DataObject
) -> None:
    ids = sorted(data.draw(
        st.lists(st.integers(1, 10_000), min_size=len(owed), max_size=len(owed), unique=True)
    ))
    renamed = dict(zip(sorted(owed), ids, strict=True))
    assert settle_nets({renamed[m]: amount for m, amount in owed.items()}) == tuple(
        Transfer(renamed[t.payer], renamed[t.payee], t.amount) for t in settle_nets(owed)
    )
