from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer.core.errors import MoneyError
from dealer.core.ledger import CAGE, Ledger
from dealer.core.money import (
    EIGHT_TO_ONE,
    NINETEEN_TO_TWENTY,
    SIX_TO_FIVE,
    THREE_TO_TWO,
    Ratio,
    Rounding,
    check_chips,
    commission,
    pay,
)


def test_blackjack_pays_three_to_two() -> None:
    # RULES A1: a natural pays 3:2
    assert pay(10, THREE_TO_TWO).amount == 15
    odd = pay(5, THREE_TO_TWO)
    assert (odd.amount, odd.remainder) == (7, Fraction(1, 2))  # house rounds down, remainder kept


def test_six_to_five_and_tie_eight_to_one() -> None:
    assert pay(10, SIX_TO_FIVE).amount == 12
    # RULES A3: tie pays 8:1 (a house rule in the baccarat module)
    assert pay(25, EIGHT_TO_ONE).amount == 200


def test_banker_commission_nineteen_to_twenty() -> None:
    # RULES A3: bank bets are paid 1:1 less 5 % commission
    assert pay(20, NINETEEN_TO_TWENTY).amount == 19
    assert pay(10, NINETEEN_TO_TWENTY).remainder == Fraction(1, 2)
    assert commission(25, Ratio(5, 100)).amount == 2  # 1.25 rounds up for the house by default


@pytest.mark.parametrize(("rounding", "expected"), [(Rounding.DOWN, 7), (Rounding.UP, 8),
                                                    (Rounding.HALF_UP, 8)])
def test_rounding_rules_are_explicit(rounding: Rounding, expected: int) -> None:
    assert pay(5, THREE_TO_TWO, rounding).amount == expected


def test_exact_rounding_refuses_fractions() -> None:
    with pytest.raises(MoneyError, match="exact"):
        pay(5, THREE_TO_TWO, Rounding.EXACT)
    assert pay(4, THREE_TO_TWO, Rounding.EXACT).amount == 6


@given(st.integers(0, 10**9), st.integers(0, 100), st.integers(1, 100), st.sampled_from(list(Rounding)[:3]))
def test_amount_plus_remainder_is_exact(stake: int, win: int, of: int, rounding: Rounding) -> None:
    result = pay(stake, Ratio(win, of), rounding)
    assert isinstance(result.amount, int)
    assert result.amount + result.remainder == Fraction(stake * win, of)
    assert abs(result.remainder) < 1


@pytest.mark.parametrize("text", ["3:2", "3 : 2", "3/2", "3 to 2"])
def test_ratio_parse(text: str) -> None:
    assert Ratio.parse(text) == THREE_TO_TWO


@pytest.mark.parametrize("bad", ["", "3:0", "x:2", "-1:2"])
def test_bad_ratio_names_the_input(bad: str) -> None:
    with pytest.raises(MoneyError):
        Ratio.parse(bad)


@pytest.mark.parametrize("bad", [1.5, -1, "5", True, None])
def test_chips_are_whole_non_negative_ints(bad: object) -> None:
    with pytest.raises(MoneyError):
        check_chips(bad)


def test_ledger_refuses_an_overdraft_and_changes_nothing() -> None:
    ledger = Ledger()
    ledger.transfer(CAGE, "seat-1", 50, "buy-in")
    assert not ledger.can_transfer("seat-1", "house", 51)
    with pytest.raises(MoneyError, match="seat-1 has 50"):
        ledger.transfer("seat-1", "house", 51, "bet")
    assert ledger.balance("seat-1") == 50 and len(ledger.transfers) == 1


@given(st.lists(st.tuples(st.sampled_from(["cage", "house", "seat-1", "seat-2", "seat-3"]),
                          st.sampled_from(["cage", "house", "seat-1", "seat-2", "seat-3"]),
                          st.integers(0, 500)), max_size=60))
def test_chips_are_conserved_by_any_sequence_of_transfers(moves: list[tuple[str, str, int]]) -> None:
    ledger = Ledger()
    for source, target, amount in moves:
        if ledger.can_transfer(source, target, amount):
            ledger.transfer(source, target, amount, "move")
        else:
            with pytest.raises(MoneyError):
                ledger.transfer(source, target, amount, "move")
        assert ledger.total() == 0
        assert all(v >= 0 for k, v in ledger.balances().items() if k.startswith("seat"))
