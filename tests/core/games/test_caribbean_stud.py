"""Caribbean stud: deal, fold/call, qualification, paytable, chips, replay (RULES A10, 0.1 item 7)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer.core.analysis.caribbean_analysis import _UpcardTables, call_counts, combinations_array
from dealer.core.analysis.caribbean_paytable import Paytable, dealer_qualifies
from dealer.core.cards import Card, parse_cards
from dealer.core.errors import IllegalOperation
from dealer.core.evaluation import evaluate
from dealer.core.games.base import Game, Step
from dealer.core.games.caribbean_stud import (
    STAKES,
    CaribbeanAnte,
    CaribbeanCall,
    CaribbeanCard,
    CaribbeanDeal,
    CaribbeanFold,
    CaribbeanReveal,
    CaribbeanSettle,
    CaribbeanStudGame,
    NewCaribbeanStudGame,
)
from dealer.core.operations import Operation
from dealer.core.shoe import ShoeMode
from dealer.core.table_state import ShuffleShoe, TableState, TransferChips


def live_table(antes: dict[int, int], chips: int = 1000, **rules: object) -> TableState:
    table = TableState()
    table.apply(NewCaribbeanStudGame(mode=ShoeMode.OBSERVED, **rules))  # type: ignore[arg-type]
    table.apply(ShuffleShoe())
    for seat in antes:
        table.apply(TransferChips("cage", f"seat-{seat}", chips, "buy-in"))
    for seat, amount in antes.items():
        table.apply(CaribbeanAnte(seat, amount))
    table.apply(CaribbeanDeal())
    return table


def deal(table: TableState, hands: dict[int, str], dealer: str) -> None:
    """Deal in the table's order: seats then the dealer, one card at a time, five rounds."""
    order = sorted(hands) + [0]
    cards = {s: hands[s].split() for s in hands} | {0: dealer.split()}
    for i in range(5):
        for s in order:
            table.apply(CaribbeanCard(Card.parse(cards[s][i])))


def game(table: TableState) -> CaribbeanStudGame:
    g = table.games["caribbean-stud"]
    assert isinstance(g, CaribbeanStudGame)
    return g


def one_hand(player: str, dealer: str, ante: int = 10, call: bool = True, **rules: object) -> TableState:
    table = live_table({1: ante}, **rules)
    deal(table, {1: player}, dealer)
    table.apply(CaribbeanCall(1) if call else CaribbeanFold(1))
    while game(table).prompt().step not in (Step.BET, Step.SHUFFLE):
        op = game(table).auto_operation()
        assert op is not None
        table.apply(op)
    return table


def test_rules_a10_dealer_last_card_face_up_and_deal_order() -> None:
    # RULES A10: five cards each, one at a time, to every player and the dealer; the dealer's last is up
    table = live_table({1: 5, 3: 5})
    g = game(table)
    assert g.prompt().who == "seat-1"
    deal(table, {1: "2C 3C 4C 5C 7D", 3: "2D 3D 4D 5D 7H"}, "KS QS JS 10S 9D")
    assert g.upcard == Card.parse("9D")
    assert [c.code for c in g.seats[3].cards] == ["2D", "3D", "4D", "5D", "7H"]
    assert g.to_json()["dealer"] == {"cards": 5, "upcard": "9D"}  # hole cards stay hidden


def test_rules_a10_dealer_up_card_must_be_read() -> None:
    # RULES A10: the dealer's last card is turned face up, so its face must be known
    table = live_table({1: 5})
    for code in ["BK", "BK", "BK", "BK", "BK", "BK", "BK", "BK", "BK"]:
        table.apply(CaribbeanCard(Card.parse(code)))
    with pytest.raises(IllegalOperation, match="face up"):
        table.apply(CaribbeanCard(Card.parse("BK")))


def test_rules_a10_fold_loses_the_ante() -> None:
    # RULES A10: a player who folds forfeits his ante
    table = one_hand("AS KD 9C 5H 2S", "QS QD 7C 4H 3D", call=False)
    assert table.ledger.balance("seat-1") == 990
    assert table.ledger.balance("house") == 10


def test_rules_a10_call_bet_is_twice_the_ante_by_default() -> None:
    # RULES A10 [STD] / 0.1 item 7: the call bet is 2x the ante
    table = live_table({1: 10})
    deal(table, {1: "AS AD 9C 5H 2S"}, "QS QD 7C 4H 3D")
    table.apply(CaribbeanCall(1))
    assert table.ledger.balance(STAKES) == 30


def test_rules_a10_seed_call_equal_to_the_ante_is_an_option() -> None:
    # RULES A10 note: the seed says the play bet *equals* the ante: call_multiple=1
    table = live_table({1: 10}, call_multiple=1)
    deal(table, {1: "AS AD 9C 5H 2S"}, "QS QD 7C 4H 3D")
    table.apply(CaribbeanCall(1))
    assert table.ledger.balance(STAKES) == 20


def test_rules_a10_ante_needs_chips_for_the_call() -> None:
    # RULES A10: a seat must be able to call after posting the ante
    table = TableState()
    table.apply(NewCaribbeanStudGame(mode=ShoeMode.OBSERVED))
    table.apply(ShuffleShoe())
    table.apply(TransferChips("cage", "seat-1", 25, "buy-in"))
    with pytest.raises(IllegalOperation, match="needs 30"):
        table.apply(CaribbeanAnte(1, 10))


@pytest.mark.parametrize(("dealer", "qualifies"), [("AS KD 7C 4H 2S", True), ("AS QD JC 9H 8S", False),
                                                   ("2S 2D 7C 4H 3S", True), ("KS QD JC 9H 8S", False)])
def test_rules_a10_dealer_qualifies_with_ace_king_or_better(dealer: str, qualifies: bool) -> None:
    # RULES A10: the dealer needs ace-king or better
    assert dealer_qualifies(evaluate(dealer)) is qualifies


def test_rules_a10_dealer_not_qualifying_pays_ante_and_returns_call() -> None:
    # RULES A10: dealer does not qualify -> ante paid 1:1, the call bet returned; hands not compared
    table = one_hand("3S 3D 9C 5H 2S", "AS QD JC 9H 8S")
    assert table.ledger.balance("seat-1") == 1010
    assert game(table).results[0]["outcome"] == "dealer-does-not-qualify"
    assert game(table).history[-1]["qualifies"] is False


LOW_QUALIFIER = "AC KC 4D 3S 2D"  # ace-king: the dealer qualifies with the weakest hand


@pytest.mark.parametrize(("player", "dealer", "ratio"), [
    ("AS KD 9C 5H 2S", LOW_QUALIFIER, 1),  # ace-king 1:1
    ("AS AD 9C 5H 2S", LOW_QUALIFIER, 1),  # pair 1:1
    ("AS AD 9C 9H 2S", LOW_QUALIFIER, 2),  # two pair 2:1
    ("AS AD AC 9H 2S", "AH KC 4D 3S 2D", 3),  # three of a kind 3:1
    ("9S 10D JC QH KS", LOW_QUALIFIER, 4),  # straight 4:1
    ("2H 5H 9H JH KH", LOW_QUALIFIER, 5),  # flush 5:1
    ("AS AD AC 9H 9S", "AH KC 4D 3S 2D", 7),  # full house 7:1
    ("AS AD AC AH 9S", "KC KD 4D 3S 2D", 20),  # four of a kind 20:1
    ("5H 6H 7H 8H 9H", LOW_QUALIFIER, 50),  # straight flush 50:1
    ("10H JH QH KH AH", LOW_QUALIFIER, 100),  # royal flush 100:1
])
def test_rules_a10_call_paytable(player: str, dealer: str, ratio: int) -> None:
    # RULES A10 [STD] chart: the call bet is paid by the player's hand; the ante 1:1
    table = one_hand(player, dealer)
    assert game(table).history[-1]["qualifies"] is True
    assert table.ledger.balance("seat-1") == 1000 + 10 + 20 * ratio


def test_rules_a10_paytable_is_configurable() -> None:
    # RULES A10: the chart is [STD] and configurable
    table = one_hand("10H JH QH KH AH", "AC KC 4D 3S 2D", paytable="royal-flush=250:1")
    assert table.ledger.balance("seat-1") == 1000 + 10 + 20 * 250
    with pytest.raises(IllegalOperation, match="bad paytable entry"):
        Paytable.parse("royal=250:1")


def test_rules_a10_worse_hand_loses_ante_and_call() -> None:
    # RULES A10: the dealer qualifies and the player's hand is worse: ante and call lost
    table = one_hand("AS KD 9C 5H 2S", "QS QD 7C 4H 3D")
    assert table.ledger.balance("seat-1") == 970
    assert table.ledger.balance("house") == 30


def test_rules_a10_tie_pushes_both() -> None:
    # RULES A10 [STD]: a tie pushes ante and call
    table = one_hand("AS KD 9C 5H 2S", "AD KS 9D 5C 2H")
    assert table.ledger.balance("seat-1") == 1000
    assert game(table).results[0]["outcome"] == "push"


def test_rules_a10_no_callers_no_reveal() -> None:
    # RULES A10: with every player folded there is nothing to compare: the antes are lost
    table = live_table({1: 5, 2: 5})
    deal(table, {1: "2C 3C 4C 5C 7D", 2: "2D 3D 4D 5D 7H"}, "KS QS JS 10S 9D")
    table.apply(CaribbeanFold(1))
    table.apply(CaribbeanFold(2))
    assert game(table).prompt().step is Step.SETTLE
    table.apply(CaribbeanSettle())
    assert table.ledger.balance("house") == 10


def test_rules_a10_live_hidden_cards_are_revealed() -> None:
    # RULES A10: players reveal in turn once the dealer qualifies; unseen cards are given at reveal
    table = live_table({1: 10})
    deal(table, {1: "BK BK BK BK BK"}, "BK BK BK BK 7C")
    g = game(table)
    assert g.auto_operation() is None  # the player decides in live mode
    table.apply(CaribbeanCall(1))
    with pytest.raises(IllegalOperation, match="nobody saw"):
        table.apply(CaribbeanReveal(0, ()))
    table.apply(CaribbeanReveal(0, parse_cards("KS KD 4H 2C")))
    with pytest.raises(IllegalOperation, match="already dealt"):
        table.apply(CaribbeanReveal(1, parse_cards("KS 8D 8C 3S 3D")))
    table.apply(CaribbeanReveal(1, parse_cards("AS 8D 8C 3S 3D")))
    table.apply(CaribbeanSettle())
    assert table.ledger.balance("seat-1") == 1000 + 10 + 40


def test_rules_a10_decisions_only_after_the_deal_and_once() -> None:
    # RULES A10: each player folds or plays after seeing his hand, once
    table = live_table({1: 10})
    with pytest.raises(IllegalOperation, match="after seeing five cards"):
        table.apply(CaribbeanCall(1))
    deal(table, {1: "AS AD 9C 5H 2S"}, "QS QD 7C 4H 3D")
    table.apply(CaribbeanFold(1))
    with pytest.raises(IllegalOperation):
        table.apply(CaribbeanCall(1))


def test_a_card_cannot_come_out_twice_in_a_round() -> None:
    table = live_table({1: 10})
    table.apply(CaribbeanCard(Card.parse("AS")))
    with pytest.raises(IllegalOperation, match="already dealt"):
        table.apply(CaribbeanCard(Card.parse("AS")))


def test_rules_a10_optimal_strategy_calls_pairs_and_folds_garbage() -> None:
    # RULES A10: simulated players fold or call by the exact expectation over every dealer hand
    assert call_counts("2S 2D 7C 4H 9S", "KH").should_call(2, Paytable())
    assert not call_counts("QS JD 7C 4H 2S", "KH").should_call(2, Paytable())


def test_inclusion_exclusion_counts_match_brute_force() -> None:
    # The exact analyzer's dealer counts equal a brute force over every hole-card set.
    from dealer.core.analysis.caribbean_analysis import _class_of, _classes
    from dealer.core.analysis.caribbean_paytable import QUALIFY
    from dealer.core.evaluation import Ranking, evaluate_batch
    tables = _UpcardTables(4 * 9 + 3, combinations_array(51, 4))  # up card JS
    qualify = np.int64(np.searchsorted(_classes(), QUALIFY))
    rng = np.random.default_rng(5)
    rows = np.sort(np.stack([rng.choice(51, 5, replace=False) for _ in range(5)]), axis=1).astype(np.uint8)
    rows[0] = np.searchsorted(tables.others, [48, 49, 50, 51, 37])  # four aces and JD
    rows.sort(axis=1)
    codes = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    for row in rows:
        ids = tables.others[row]
        brute = call_counts([codes[i // 4] + "CDHS"[i % 4] for i in ids], "JS")
        mine = _class_of(evaluate_batch(ids[None, :], Ranking.STANDARD))
        got = [int(x[0]) for x in tables.counts(row[None, :], mine, qualify)]
        assert got == [brute.no_qualify, brute.wins, brute.ties, brute.losses]


@pytest.mark.slow
def test_exact_house_edge_matches_the_published_figure() -> None:
    # RULES A10 [STD]: the standard game's house edge with optimal play is 5.224 % of the ante
    from dealer.core.analysis.caribbean_analysis import analyze
    result = analyze()
    assert result["house_edge"] == pytest.approx(0.05224, abs=0.00001)
    assert result["element_of_risk"] == pytest.approx(0.0256, abs=0.0001)


def simulated_table(seats: int, seed: int) -> TableState:
    table = TableState()
    table.apply(NewCaribbeanStudGame())
    for seat in range(1, seats + 1):
        table.apply(TransferChips("cage", f"seat-{seat}", 10_000, "buy-in"))
    table.apply(ShuffleShoe(seed=seed))
    return table


def drive(table: TableState, antes: list[int], log: list[Operation]) -> None:
    """A runtime's loop for one round: shuffle, bets, then prompt -> card or auto operation."""
    g = game(table)

    def do(op: Operation) -> None:
        log.append(op)
        table.apply(op)

    if g.prompt().step is Step.SHUFFLE:
        do(ShuffleShoe(seed=len(log)))
    for seat, amount in enumerate(antes, start=1):
        do(CaribbeanAnte(seat, amount))
    do(CaribbeanDeal())
    while g.prompt().step is not Step.BET and g.prompt().step is not Step.SHUFFLE:
        if g.prompt().step is Step.CARD:
            assert table.shoe is not None
            do(g.card_operation(table.shoe.next_card()))
        else:
            op = g.auto_operation()
            assert op is not None
            do(op)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), antes=st.lists(st.integers(1, 50), min_size=1, max_size=3))
def test_chips_are_conserved_in_simulated_play(seed: int, antes: list[int]) -> None:
    table = simulated_table(len(antes), seed)
    log: list[Operation] = []
    drive(table, antes, log)
    drive(table, antes, log)
    assert table.ledger.total() == 0
    assert table.ledger.balance(STAKES) == 0
    assert isinstance(game(table), Game)


def test_replay_from_the_sqlite_log_gives_the_same_state(tmp_path: Path) -> None:
    from dealer.store import EventStore, rebuild_state
    table = TableState()
    log: list[Operation] = [NewCaribbeanStudGame(), TransferChips("cage", "seat-1", 500, "buy-in"),
                            TransferChips("cage", "seat-2", 500, "buy-in"), ShuffleShoe(seed=11)]
    for op in log:
        table.apply(op)
    drive(table, [10, 20], log)
    drive(table, [10, 20], log)
    store = EventStore.open(tmp_path / "table.db")
    for op in log:
        store.append(op)
    assert rebuild_state(store).to_json() == table.to_json()
