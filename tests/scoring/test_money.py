"""Money: decimal strings at the boundary, whole Rappen and cents inside, rounded to the coin."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import Errors, InvalidInput
from scoring.money import (
    CHF,
    EUR,
    LARGEST,
    NOT_AN_AMOUNT,
    Currency,
    format_amount,
    parse_amount,
    read_amount,
    read_currency,
)
from scoring.reading import JSON, NOT_A_STRING, TOO_LARGE, TOO_SMALL, UNKNOWN_CHOICE

PROPERTY = settings(deadline=None, max_examples=300)
amounts = st.integers(-LARGEST, LARGEST)


def problem(value: JSON, *, negative: bool = False) -> str:
    """The code of the one problem reading ``value`` as an amount finds."""
    with pytest.raises(InvalidInput) as raised:
        parse_amount(value, negative=negative)
    (error,) = raised.value.errors
    return error.code


@pytest.mark.parametrize(
    ("written", "minor"),
    [
        ("0.05", 5),
        ("1", 100),
        ("1.5", 150),
        ("1.50", 150),
        ("0", 0),
        ("12.34", 1234),
        ("007.10", 710),
        ("1000000.00", LARGEST),
    ],
)
def test_an_amount_is_read_as_whole_minor_units(written: str, minor: int) -> None:
    assert parse_amount(written) == minor


def test_a_negative_amount_is_read_only_where_one_is_allowed() -> None:
    assert parse_amount("-0.50", negative=True) == -50
    assert problem("-0.50") == TOO_SMALL.code


@pytest.mark.parametrize(
    "written",
    [
        "1.234",
        "0.001",
        "1e3",
        "1E-2",
        "+1",
        "1.",
        ".5",
        " 1",
        "1 ",
        "0.5\n",
        "1,50",
        "1'000",
        "1_000",
        "",
        "-",
        "abc",
        "NaN",
        "Infinity",
        "0x10",
        "١٢",
        "1.-5",
    ],
)
def test_anything_but_digits_with_at_most_two_decimals_is_not_an_amount(written: str) -> None:
    assert problem(written, negative=True) == NOT_AN_AMOUNT.code


@pytest.mark.parametrize("value", [0.05, 1, 1.0, True, None, ["1.00"]])
def test_an_amount_written_as_a_json_number_or_anything_but_text_is_refused(
    value: JSON,
) -> None:
    assert problem(value) == NOT_A_STRING.code


@pytest.mark.parametrize("written", ["1000000.01", "-1000000.01", "99999999", "1" * 5000])
def test_an_amount_beyond_a_million_is_too_large(written: str) -> None:
    assert problem(written, negative=True) == TOO_LARGE.code


def test_leading_zeros_cost_nothing_however_many() -> None:
    assert parse_amount("0" * 100_000 + "1.25") == 125


def test_a_problem_is_recorded_at_the_amounts_path() -> None:
    errors = Errors()
    assert read_amount("0.005", "stakes.per_point", errors) is None
    assert [(e.path, e.code, e.params) for e in errors] == [
        ("stakes.per_point", NOT_AN_AMOUNT.code, {"value": "0.005"})
    ]


@pytest.mark.parametrize(
    ("minor", "written"),
    [(100, "1.00"), (-50, "-0.50"), (5, "0.05"), (0, "0.00"), (123456, "1234.56"), (-1, "-0.01")],
)
def test_an_amount_is_written_with_two_decimals(minor: int, written: str) -> None:
    assert format_amount(minor) == written


@PROPERTY
@given(amounts)
def test_writing_an_amount_and_reading_it_back_gives_the_same_amount(minor: int) -> None:
    assert parse_amount(format_amount(minor), negative=True) == minor


@pytest.mark.parametrize(
    ("exact", "coins"),
    [
        (Fraction(5, 2), 5),
        (3, 5),
        (2, 0),
        (7, 5),
        (8, 10),
        (Fraction(25, 2), 15),
        (0, 0),
        (Fraction(-5, 2), -5),
        (-3, -5),
        (-2, 0),
    ],
)
def test_swiss_amounts_round_half_up_to_five_rappen_and_away_from_zero_below_it(
    exact: Fraction | int, coins: int
) -> None:
    """0.025 → 0.05, 0.03 → 0.05, 0.02 → 0.00, 0.125 → 0.15; -0.025 → -0.05."""
    assert CHF.rounded(exact) == coins


@pytest.mark.parametrize(
    ("exact", "cents"),
    [(Fraction(1, 2), 1), (Fraction(49, 100), 0), (7, 7), (Fraction(-1, 2), -1)],
)
def test_euro_amounts_round_half_up_to_the_cent(exact: Fraction, cents: int) -> None:
    assert EUR.rounded(exact) == cents


@PROPERTY
@given(st.fractions(min_value=-LARGEST, max_value=LARGEST), st.sampled_from([CHF, EUR]))
def test_a_rounded_amount_is_the_nearest_coin_and_halves_go_away_from_zero(
    exact: Fraction, currency: Currency
) -> None:
    rounded = currency.rounded(exact)
    assert rounded % currency.step == 0
    assert abs(rounded - exact) <= Fraction(currency.step, 2)
    if abs(rounded - exact) == Fraction(currency.step, 2):
        assert abs(rounded) > abs(exact)
    assert currency.rounded(-exact) == -rounded


def test_a_currency_is_read_by_its_code() -> None:
    errors = Errors()
    assert read_currency("CHF", "currency", errors) is CHF
    assert read_currency("EUR", "currency", errors) is EUR
    assert read_currency("USD", "currency", errors) is None
    assert [(e.path, e.code) for e in errors] == [("currency", UNKNOWN_CHOICE.code)]
