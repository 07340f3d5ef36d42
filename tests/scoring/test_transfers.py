"""Netting: what everyone is owed, settled by at most n − 1 transfers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.transfers import Transfer, settle_nets

PROPERTY = settings(deadline=None, max_examples=300)


@st.composite
def nets(draw: st.DrawFn, coin: int = 1) -> dict[int, int]:
    """Nets of up to 12 members that add up to zero, every one a multiple of ``coin``."""
    owed = draw(st.lists(st.integers(-2000, 2000), min_size=1, max_size=11))
    amounts = [coin * amount for amount in [*owed, -sum(owed)]]
    members = draw(
        st.lists(st.integers(1, 10_000), min_size=len(amounts), max_size=len(amounts), unique=True)
    )
    return dict(zip(members, amounts, strict=True))


def balances(transfers: tuple[Transfer[int], ...], members: list[int]) -> dict[int, int]:
    """What the transfers give each member: received minus paid."""
    moved = dict.fromkeys(members, 0)
    for transfer in transfers:
        moved[transfer.payer] -= transfer.amount
        moved[transfer.payee] += transfer.amount
    return moved


def test_the_one_who_owes_most_pays_the_one_owed_most_first() -> None:
    assert settle_nets({"Ann": 175, "Bo": 25, "Cy": -200}) == (
        Transfer("Cy", "Ann", 175),
        Transfer("Cy", "Bo", 25),
    )


def test_two_debtors_and_two_creditors_need_three_transfers_at_most() -> None:
    transfers = settle_nets({1: 300, 2: -200, 3: 100, 4: -200})
    assert transfers == (Transfer(2, 1, 200), Transfer(4, 1, 100), Transfer(4, 3, 100))


def test_equal_debts_go_to_the_one_listed_first() -> None:
    assert settle_nets({1: -50, 2: -50, 3: 50, 4: 50}) == (
        Transfer(1, 3, 50),
        Transfer(2, 4, 50),
    )


def test_nobody_owing_anything_needs_no_transfer() -> None:
    assert settle_nets({1: 0, 2: 0}) == ()
    assert settle_nets({}) == ()


def test_nets_that_do_not_add_up_to_zero_cannot_be_settled() -> None:
    with pytest.raises(ValueError, match="add up to 5"):
        settle_nets({1: 10, 2: -5})


def test_a_transfer_is_written_as_the_contract_says() -> None:
    assert Transfer(3, 1, 175).as_json() == {"from": 3, "to": 1, "amount": "1.75"}


@PROPERTY
@given(nets())
def test_the_transfers_settle_every_net_exactly(owed: dict[int, int]) -> None:
    assert balances(settle_nets(owed), list(owed)) == owed


@PROPERTY
@given(nets())
def test_never_more_than_one_transfer_fewer_than_members_with_a_net(owed: dict[int, int]) -> None:
    involved = sum(1 for amount in owed.values() if amount)
    assert len(settle_nets(owed)) <= max(involved - 1, 0)


@PROPERTY
@given(nets())
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
@given(nets(), st.data())
def test_who_pays_whom_depends_on_the_nets_and_their_order_not_on_the_ids(
    owed: dict[int, int], data: st.DataObject
) -> None:
    ids = data.draw(
        st.lists(st.integers(1, 10_000), min_size=len(owed), max_size=len(owed), unique=True)
    )
    renamed = dict(zip(owed, ids, strict=True))
    assert settle_nets({renamed[m]: amount for m, amount in owed.items()}) == tuple(
        Transfer(renamed[t.payer], renamed[t.payee], t.amount) for t in settle_nets(owed)
    )
