"""Let it ride: three bets, pulling bets 1 and 2, community cards, paytable, chips (RULES A11, 0.1 item 7)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer.core.analysis.let_it_ride_analysis import DEFAULT_PAYTABLE, Paytable, analyze, strategy
from dealer.core.cards import Card, parse_cards
from dealer.core.errors import IllegalOperation
from dealer.core.evaluation import evaluate
from dealer.core.games.base import Game, Step
from dealer.core.games.let_it_ride import (
    STAKES,
    LetItRideBet,
    LetItRideCard,
    LetItRideChoice,
    LetItRideDeal,
    LetItRideGame,
    LetItRideSettle,
    LetItRideShow,
    NewLetItRideGame,
    RevealCommunity,
)
from dealer.core.operations import Operation
from dealer.core.packs import standard_52
from dealer.core.shoe import ShoeMode
from dealer.core.table_state import ShuffleShoe, TableState, TransferChips


def live_table(units: dict[int, int], **rules: object) -> TableState:
    table = TableState()
    table.apply(NewLetItRideGame(mode=ShoeMode.OBSERVED, **rules))  # type: ignore[arg-type]
    table.apply(ShuffleShoe())
    for seat, unit in units.items():
        table.apply(TransferChips("cage", f"seat-{seat}", 1000, "buy-in"))
        table.apply(LetItRideBet(seat, unit))
    table.apply(LetItRideDeal())
    return table


def game(table: TableState) -> LetItRideGame:
    g = table.games["let-it-ride"]
    assert isinstance(g, LetItRideGame)
    return g


def deal(table: TableState, hands: dict[int, str], community: str) -> None:
    cards = {s: h.split() for s, h in hands.items()}
    for i in range(3):
        for s in sorted(cards):
            table.apply(LetItRideCard(Card.parse(cards[s][i])))
    for code in community.split():
        table.apply(LetItRideCard(Card.parse(code)))


def play(hand: str, community: str, ride1: bool = True, ride2: bool = True, unit: int = 10,
         **rules: object) -> TableState:
    table = live_table({1: unit}, **rules)
    deal(table, {1: hand}, community)
    table.apply(LetItRideChoice(1, 1, ride1))
    table.apply(RevealCommunity())
    table.apply(LetItRideChoice(1, 2, ride2))
    table.apply(RevealCommunity())
    table.apply(LetItRideShow(1))
    table.apply(LetItRideSettle())
    return table


def test_rules_a11_three_equal_bets() -> None:
    # RULES A11: each player places three equal bets
    table = live_table({1: 10})
    assert table.ledger.balance(STAKES) == 30
    t2 = TableState()
    t2.apply(NewLetItRideGame(mode=ShoeMode.OBSERVED))
    t2.apply(ShuffleShoe())
    t2.apply(TransferChips("cage", "seat-1", 20, "buy-in"))
    with pytest.raises(IllegalOperation, match="three equal bets"):
        t2.apply(LetItRideBet(1, 10))


def test_rules_a11_deal_three_each_then_two_community_cards() -> None:
    # RULES A11: three cards each, one at a time; two community cards face down before the dealer
    table = live_table({1: 5, 2: 5})
    deal(table, {1: "2C 3C 4C", 2: "2D 3D 4D"}, "KS QS")
    g = game(table)
    assert [c.code for c in g.seats[2].cards] == ["2D", "3D", "4D"]
    assert g.to_json()["community"] == ["BK", "BK"]  # not shown until turned
    assert g.prompt().step is Step.DECIDE


def test_rules_a11_take_back_bet_one_then_bet_two() -> None:
    # RULES A11: the player may take back bet 1 after his three cards, and bet 2 after the first turn
    table = play("9C 5D 2H", "KS 7S", ride1=False, ride2=False)
    assert table.ledger.balance("seat-1") == 990  # only bet 3 lost
    assert game(table).results[0]["riding"] == [False, False, True]


def test_rules_a11_pull_bet_two_after_riding_bet_one() -> None:
    # RULES A11 note [STD]: pulling bet 2 after riding bet 1 is allowed
    table = play("9C 5D 2H", "KS 7S", ride1=True, ride2=False)
    assert table.ledger.balance("seat-1") == 980


def test_rules_a11_third_bet_can_never_be_withdrawn() -> None:
    # RULES A11 [STD]: the third bet can never be taken back
    table = live_table({1: 10})
    deal(table, {1: "9C 5D 2H"}, "KS 7S")
    with pytest.raises(IllegalOperation, match="third bet"):
        table.apply(LetItRideChoice(1, 3, False))


def test_rules_a11_bets_are_decided_in_order() -> None:
    # RULES A11: bet 1 is decided on three cards, bet 2 once the first community card is turned
    table = live_table({1: 10})
    deal(table, {1: "9C 5D 2H"}, "KS 7S")
    with pytest.raises(IllegalOperation, match="bet 2"):
        table.apply(LetItRideChoice(1, 2, False))
    with pytest.raises(IllegalOperation, match="every player has decided"):
        table.apply(RevealCommunity())


@pytest.mark.parametrize(("hand", "community", "ratio"), [
    ("10S 10D 4C", "7H 2S", 1),  # pair of tens or better 1:1
    ("AS AD 4C", "4H 2S", 2),  # two pair 2:1
    ("7S 7D 7C", "4H 2S", 3),  # three of a kind 3:1
    ("5S 6D 7C", "8H 9S", 5),  # straight 5:1
    ("2H 5H 9H", "JH KH", 8),  # flush 8:1
    ("7S 7D 7C", "4H 4S", 11),  # full house 11:1
    ("7S 7D 7C", "7H 4S", 50),  # four of a kind 50:1
    ("5H 6H 7H", "8H 9H", 200),  # straight flush 200:1
    ("10H JH QH", "KH AH", 1000),  # royal flush 1,000:1
])
def test_rules_a11_paytable(hand: str, community: str, ratio: int) -> None:
    # RULES A11 [STD] chart: every bet still in action is paid at the same ratio
    table = play(hand, community)
    assert table.ledger.balance("seat-1") == 1000 + 30 * ratio


def test_rules_a11_below_a_pair_of_tens_loses_every_remaining_bet() -> None:
    # RULES A11 [STD]: a hand below a pair of tens loses every remaining bet
    table = play("9S 9D 4C", "7H 2S")
    assert table.ledger.balance("seat-1") == 970
    assert DEFAULT_PAYTABLE.line(evaluate("9S 9D 4C 7H 2S")) == "lose"


def test_rules_a11_paytable_is_configurable_and_pays_only_riding_bets() -> None:
    # RULES A11: the chart is [STD] (configurable); pulled bets are not paid
    table = play("7S 7D 7C", "4H 2S", ride1=False, paytable="three-of-a-kind=4:1")
    assert table.ledger.balance("seat-1") == 1000 + 20 * 4
    with pytest.raises(IllegalOperation):
        Paytable.parse("trips=4:1")


def test_rules_a11_live_unseen_cards() -> None:
    # RULES A11: community cards dealt face down are turned; the players' cards are shown at the end
    table = live_table({1: 10})
    deal(table, {1: "BK BK BK"}, "BK BK")
    g = game(table)
    assert g.auto_operation() is None
    table.apply(LetItRideChoice(1, 1, True))
    with pytest.raises(IllegalOperation, match="give its face"):
        table.apply(RevealCommunity())
    table.apply(RevealCommunity(Card.parse("QS")))
    table.apply(LetItRideChoice(1, 2, True))
    table.apply(RevealCommunity(Card.parse("QD")))
    table.apply(LetItRideShow(1, parse_cards("4C 7H 2S")))
    table.apply(LetItRideSettle())
    assert table.ledger.balance("seat-1") == 1030


def test_strategy_sums_match_a_direct_enumeration() -> None:
    # The bet-1 expectation for a 3-card hand equals a direct average over all 1,176 completions.
    s = strategy()
    hand = parse_cards("JS 10S 4D")
    rest = [c for c in standard_52().cards if c not in hand]
    total = Fraction(0)
    for extra in combinations(rest, 2):
        ratio = DEFAULT_PAYTABLE.ratio(evaluate(hand + extra))
        total += -1 if ratio is None else ratio.fraction
    assert s.first_ev(hand) == total / 1176


def test_exact_house_edge_matches_the_published_figure() -> None:
    # RULES A11 [STD]: the standard paytable with optimal play gives a 3.51 % edge per unit
    result = analyze()
    assert result["house_edge"] == pytest.approx(0.0351, abs=0.00005)
    assert result["element_of_risk"] == pytest.approx(0.0286, abs=0.0001)


def drive(table: TableState, units: list[int], log: list[Operation]) -> None:
    g = game(table)

    def do(op: Operation) -> None:
        log.append(op)
        table.apply(op)

    if g.prompt().step is Step.SHUFFLE:
        do(ShuffleShoe(seed=len(log)))
    for seat, unit in enumerate(units, start=1):
        do(LetItRideBet(seat, unit))
    do(LetItRideDeal())
    while g.prompt().step not in (Step.BET, Step.SHUFFLE):
        if g.prompt().step is Step.CARD:
            assert table.shoe is not None
            do(g.card_operation(table.shoe.next_card()))
        else:
            op = g.auto_operation()
            assert op is not None
            do(op)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), units=st.lists(st.integers(1, 20), min_size=1, max_size=7))
def test_chips_are_conserved_in_simulated_play(seed: int, units: list[int]) -> None:
    table = TableState()
    table.apply(NewLetItRideGame())
    for seat in range(1, len(units) + 1):
        table.apply(TransferChips("cage", f"seat-{seat}", 100_000, "buy-in"))
    table.apply(ShuffleShoe(seed=seed))
    log: list[Operation] = []
    drive(table, units, log)
    drive(table, units, log)
    assert table.ledger.total() == 0 and table.ledger.balance(STAKES) == 0
    assert isinstance(game(table), Game)


def test_replay_from_the_sqlite_log_gives_the_same_state(tmp_path: Path) -> None:
    from dealer.store import EventStore, rebuild_state
    table = TableState()
    log: list[Operation] = [NewLetItRideGame(), TransferChips("cage", "seat-1", 500, "buy-in"),
                            ShuffleShoe(seed=4)]
    for op in log:
        table.apply(op)
    drive(table, [5], log)
    drive(table, [5], log)
    store = EventStore.open(tmp_path / "table.db")
    for op in log:
        store.append(op)
    assert rebuild_state(store).to_json() == table.to_json()
