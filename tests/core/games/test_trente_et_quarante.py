"""Trente et quarante: stacked-shoe rule tests (RULES A7), conservation and replay."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.core.cards import Card, parse_cards
from dealer.core.errors import IllegalOperation
from dealer.core.games.base import Game, Step
from dealer.core.games.trente_et_quarante import (
    LAYOUT,
    NewTrenteEtQuarante,
    PlaceTqBet,
    SettleCoup,
    TqCard,
    TrenteEtQuarante,
    UndoTqCard,
    VoidCoup,
    WithdrawTqBet,
)
from dealer.core.operations import Operation, operation_from_payload
from dealer.core.packs import shoe_pack
from dealer.core.rng import Rng
from dealer.core.table_state import LoadShoe, ShuffleShoe, TableState, TransferChips

BETS = ("rouge", "noir", "couleur", "inverse")


class Table:
    def __init__(self, **rules: object) -> None:
        self.state = TableState()
        self.log: list[Operation] = []
        self.do(NewTrenteEtQuarante(**rules))  # type: ignore[arg-type]
        self.do(TransferChips("cage", "seat-1", 1000, "buy-in"))

    @property
    def game(self) -> TrenteEtQuarante:
        game = self.state.games["trente-et-quarante"]
        assert isinstance(game, TrenteEtQuarante)
        return game

    def do(self, op: Operation) -> None:
        self.state.apply(op)
        self.log.append(op)

    def bet_all(self, amount: int = 10, insured: bool = False) -> None:
        for bet in BETS:
            self.do(PlaceTqBet("seat-1", bet, amount, insured))

    def coup(self, codes: str) -> dict[str, object]:
        for card in parse_cards(codes):
            self.do(self.game.card_operation(card))
        assert self.game.prompt().step is Step.SETTLE
        self.do(SettleCoup())
        return self.game.history[-1]

    def nets(self) -> dict[str, int]:
        results = self.game.history[-1]["results"]
        return {r["bet"]: r["net"] for r in results}


def test_noir_row_first_then_rouge_each_to_31_or_more() -> None:
    # RULES A7: the first row (noir) is dealt until it reaches 31 or more, then the rouge row
    t = Table()
    t.bet_all()
    for card in parse_cards("KS QC 5H"):
        t.do(TqCard(card))
    assert t.game.row_to_deal() == "noir" and t.game.noir_total == 25
    t.do(TqCard(Card.parse("AD")))  # 26: still noir
    t.do(TqCard(Card.parse("9D")))  # 35: noir done
    assert t.game.noir_total == 35 and t.game.row_to_deal() == "rouge"


def test_card_values_ace_one_faces_ten() -> None:
    # RULES A7: ace 1, face cards 10, others by pip
    t = Table()
    t.bet_all()
    for card in parse_cards("AS JD QH KC"):
        t.do(TqCard(card))
    assert t.game.noir_total == 31


def test_lower_row_wins_and_standard_couleur_rule() -> None:
    # RULES A7: the row nearer 31 wins; [STD] couleur wins when the first noir card's colour is the winner's
    t = Table()
    t.bet_all()
    t.coup("KS QC 5H 9D  10H 10D 2C 9S")  # noir 34 (first card black), rouge 31 wins
    assert t.nets() == {"rouge": 10, "noir": -10, "couleur": -10, "inverse": 10}
    t.bet_all()
    t.coup("KH QC 5H 9D  10H 10D 2C 9S")  # first card red, rouge wins: couleur
    assert t.nets() == {"rouge": 10, "noir": -10, "couleur": 10, "inverse": -10}


def test_noir_wins_with_black_first_card_is_couleur() -> None:
    # RULES A7 [STD]: first card black, noir wins → couleur
    t = Table()
    t.bet_all()
    t.coup("KS QC 2H 2D 7S  10H 10D 2C 5S 9H")
    assert t.game.history[-1]["noir"] == 31 and t.game.history[-1]["rouge"] == 36
    assert t.nets() == {"rouge": -10, "noir": 10, "couleur": 10, "inverse": -10}


def test_refait_is_a_stand_off() -> None:
    # RULES A7: equal totals (not 31) are a refait: all bets called off
    t = Table()
    t.bet_all()
    t.coup("KS QC 5H 9D  10H 10D 5C 9S")  # 34 - 34
    assert set(t.nets().values()) == {0} and t.state.ledger.balance("seat-1") == 1000


def test_refait_of_31_takes_half_of_every_bet() -> None:
    # RULES A7: equal totals of 31: the house takes half of all bets (odd chip: house option, default down)
    t = Table()
    t.bet_all(11)
    t.coup("KS QC AH JD  10H 10D AC QS")
    assert t.nets() == {b: -5 for b in BETS}
    assert t.state.ledger.balance("house") == 20 and t.state.ledger.balance(LAYOUT) == 0


def test_insurance_protects_against_the_31_refait() -> None:
    # RULES A7: the insurance option if the house enables it ([STD] premium 1 %, rounded up)
    with pytest.raises(IllegalOperation, match="does not offer insurance"):
        Table().do(PlaceTqBet("seat-1", "rouge", 10, insured=True))
    t = Table(insurance=True)
    t.do(PlaceTqBet("seat-1", "rouge", 100, insured=True))
    t.do(PlaceTqBet("seat-1", "noir", 100))
    assert t.state.ledger.balance("seat-1") == 799
    t.coup("KS QC AH JD  10H 10D AC QS")
    assert t.nets() == {"rouge": -1, "noir": -50}


def test_bets_only_before_the_deal_and_withdrawals() -> None:
    # RULES A7: bets are placed before the deal
    t = Table()
    t.do(PlaceTqBet("seat-1", "rouge", 10))
    t.do(WithdrawTqBet("seat-1", "rouge"))
    t.do(PlaceTqBet("seat-1", "noir", 10))
    t.do(TqCard(Card.parse("KS")))
    with pytest.raises(IllegalOperation, match="before the deal"):
        t.do(PlaceTqBet("seat-1", "rouge", 10))
    with pytest.raises(IllegalOperation, match="unknown bet 'red'"):
        Table().do(PlaceTqBet("seat-1", "red", 10))


def test_undo_and_void_return_everything() -> None:
    t = Table()
    t.bet_all()
    t.do(TqCard(Card.parse("KS")))
    t.do(UndoTqCard())
    assert t.game.noir == [] and t.game.shoe_cards_left == 312
    t.do(TqCard(Card.parse("KS")))
    t.do(VoidCoup("misdeal"))
    assert t.state.ledger.balance("seat-1") == 1000 and t.game.history[-1]["void"] == "misdeal"


def test_trente_et_quarante_is_a_game_and_shuffles_near_the_end() -> None:
    # RULES A7: six packs in a shoe
    t = Table(reshuffle_below=320)
    assert isinstance(t.game, Game)
    assert t.game.rules.decks == 6 and t.game.prompt().step is Step.SHUFFLE
    auto = t.game.auto_operation()
    assert auto is not None and auto.kind == "tq.new-shoe"


def simulate(seed: int, coups: int) -> Table:
    """Simulated mode: the engine deals from a known-order six-deck shoe."""
    t = Table()
    t.do(LoadShoe(decks=6))
    t.do(ShuffleShoe(seed=seed, cut_behind=0))
    rng = Rng.from_seed(seed)
    played = 0
    while played < coups:
        step = t.game.prompt().step
        if step in (Step.SETTLE, Step.SHUFFLE, Step.DECIDE):
            auto = t.game.auto_operation()
            assert auto is not None
            t.do(auto)
            played += step is Step.SETTLE
            continue
        if t.game.betting_open:
            t.do(PlaceTqBet("seat-1", rng.choice(BETS), 1 + rng.randbelow(20)))
        deal = t.state.next_deal()
        t.do(deal)
        t.do(t.game.card_operation(deal.card))
    return t


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_simulated_coups_conserve_chips_and_replay(seed: int) -> None:
    t = simulate(seed, 12)
    assert t.state.ledger.total() == 0
    assert t.state.ledger.balance("seat-1") + t.state.ledger.balance("house") == 1000
    dealt = t.state.require_shoe().dealt
    assert len(dealt) == 312 - t.game.shoe_cards_left
    assert all(shoe_pack(6).count(c) >= dealt.count(c) for c in set(dealt))
    replayed = TableState()
    for op in t.log:
        replayed.apply(operation_from_payload(op.kind, op.to_payload()))
    assert replayed.to_json() == t.state.to_json()
