"""Faro and stuss: stacked-deck rule tests (RULES A5, A6, H6), casekeeper properties, replay."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.core.cards import Card, Rank, parse_cards
from dealer.core.errors import IllegalOperation, MoneyError
from dealer.core.games.base import Game, Step
from dealer.core.games.faro import (
    LAYOUT,
    CallTheTurn,
    FaroCard,
    FaroGame,
    MoveBet,
    NewFaroDeal,
    NewFaroGame,
    PlaceBet,
    SettleTurn,
    UndoCard,
    WithdrawBet,
)
from dealer.core.operations import Operation, operation_from_payload
from dealer.core.packs import standard_52
from dealer.core.rng import Rng
from dealer.core.shoe import ShoeMode
from dealer.core.table_state import DealCard, LoadShoe, ShuffleShoe, TableState, TransferChips

SEATS = ("seat-1", "seat-2")


class Recorder:
    """A table plus the log of every operation applied to it (for replay tests)."""

    def __init__(self, variant: str = "faro", chips: int = 100, **rules: object) -> None:
        self.table = TableState()
        self.log: list[Operation] = []
        self.do(NewFaroGame(variant=variant, **rules))  # type: ignore[arg-type]
        for seat in SEATS:
            self.do(TransferChips("cage", seat, chips, "buy-in"))

    @property
    def game(self) -> FaroGame:
        game = self.table.games["faro"]
        assert isinstance(game, FaroGame)
        return game

    def do(self, op: Operation) -> None:
        self.table.apply(op)
        self.log.append(op)

    def cards(self, codes: str, *, settle: bool = True) -> None:
        for card in parse_cards(codes):
            self.do(self.game.card_operation(card))
            if settle and self.game.prompt().step is Step.SETTLE:
                auto = self.game.auto_operation()
                assert auto is not None
                self.do(auto)

    def balance(self, account: str) -> int:
        return self.table.ledger.balance(account)


def rest_of_deck(used: str) -> str:
    """The other cards of a 52-card deck, in a fixed order, as codes."""
    seen = Counter(parse_cards(used))
    out = []
    for card in standard_52():
        if seen[card]:
            seen[card] -= 1
        else:
            out.append(card.code)
    return " ".join(out)


# ---- RULES A5: soda, losing and winning cards ----------------------------------------------------

def test_soda_settles_nothing() -> None:
    # RULES A5: soda has no effect on bets
    t = Recorder()
    t.do(PlaceBet("seat-1", "K", 10))
    t.cards("KS 3H 4C")  # soda K, loser 3, winner 4
    assert t.balance("seat-1") == 90 and t.game.bets == {("seat-1", Rank.KING, False): 10}
    assert t.game.to_json()["soda"] == "KS"


def test_first_card_of_a_turn_loses_and_the_second_wins() -> None:
    # RULES A5: in every turn after the soda the first card loses and the second wins (even money [STD])
    t = Recorder()
    t.do(PlaceBet("seat-1", "3", 10))
    t.do(PlaceBet("seat-2", "4", 10))
    t.cards("KS 3H 4C")
    assert t.balance("seat-1") == 90 and t.balance("seat-2") == 110
    assert t.balance("house") == 0 and t.balance(LAYOUT) == 0
    assert t.game.to_json()["losers"] == ["3H"] and t.game.to_json()["winners"] == ["4C"]


def test_a_copper_reverses_the_bet() -> None:
    # RULES A5: a coppered bet wins when its rank loses and loses when it wins
    t = Recorder()
    t.do(PlaceBet("seat-1", "3", 10, coppered=True))
    t.do(PlaceBet("seat-2", "4", 10, coppered=True))
    t.cards("KS 3H 4C")
    assert t.balance("seat-1") == 110 and t.balance("seat-2") == 90


def test_seed_example_a_bet_stays_until_its_rank_shows() -> None:
    # RULES A5: chips on the 6, no 6 in the next turn, the bet stays; then a 6 as first card loses
    t = Recorder()
    t.do(PlaceBet("seat-1", "6", 5))
    t.do(PlaceBet("seat-2", "6", 5, coppered=True))
    t.cards("2S 3H 4C")
    assert t.game.bets == {("seat-1", Rank.SIX, False): 5, ("seat-2", Rank.SIX, True): 5}
    t.cards("6D 9C")
    assert t.balance("seat-1") == 95 and t.balance("seat-2") == 105 and not t.game.bets


def test_split_takes_half_of_every_bet_on_the_rank() -> None:
    # RULES A5: split - the dealer takes half of the bets on the rank, plain or coppered
    t = Recorder()
    t.do(PlaceBet("seat-1", "9", 10))
    t.do(PlaceBet("seat-2", "9", 7, coppered=True))
    t.cards("2S 9H 9C")
    assert t.balance("seat-1") == 95  # lost 5 of 10
    assert t.balance("seat-2") == 97  # lost 3 of 7: the odd chip stays with the player (house rule)
    assert t.balance("house") == 8
    assert t.game.history[-1]["split"] is True
    assert t.game.to_json()["rounding_to_house"] == "-1/2"  # half a chip went to the player


def test_split_rounding_is_a_house_option() -> None:
    # RULES A5: split - half of an odd bet; the house may take the odd chip instead
    t = Recorder(split_rounding="up")
    t.do(PlaceBet("seat-2", "9", 7))
    t.cards("2S 9H 9C")
    assert t.balance("seat-2") == 96 and t.balance("house") == 4


# ---- RULES A6: stuss -----------------------------------------------------------------------------

def test_stuss_has_no_soda() -> None:
    # RULES A6: no soda; two cards turned every turn from the start
    t = Recorder("stuss")
    t.do(PlaceBet("seat-1", "K", 10))
    t.cards("KS 3H")
    assert t.balance("seat-1") == 90
    assert t.game.to_json()["soda"] is None and t.game.to_json()["losers"] == ["KS"]


def test_stuss_split_takes_the_whole_bet() -> None:
    # RULES A6: on a split the dealer takes the whole bet
    t = Recorder("stuss")
    t.do(PlaceBet("seat-1", "9", 10))
    t.do(PlaceBet("seat-2", "9", 10, coppered=True))
    t.cards("9H 9C")
    assert t.balance("seat-1") == 90 and t.balance("seat-2") == 90 and t.balance("house") == 20


def test_stuss_offers_no_calling_the_turn() -> None:
    # RULES A6: no elaborate side bets; with no soda, three cards are never left between turns
    with pytest.raises(IllegalOperation, match="RULES A6"):
        Recorder("stuss", calling_the_turn=True)
    t = Recorder("stuss")
    t.cards(" ".join(c.code for c in list(standard_52())[:-4]))  # all but the last 4 cards
    assert t.game.box_left == 4 and not t.game.call_offered()


def test_stuss_deal_is_26_two_card_turns() -> None:
    # RULES A6: two cards every turn, no soda, so 52 cards make 26 turns and no hock
    t = Recorder("stuss")
    t.cards(" ".join(c.code for c in standard_52()))
    assert t.game.turns_settled == 26 and t.game.to_json()["hock"] is None
    assert t.game.prompt().step is Step.SHUFFLE


# ---- RULES A5: betting between turns ------------------------------------------------------------

def test_bets_can_be_moved_coppered_and_withdrawn_between_turns() -> None:
    # RULES A5: unsettled bets may stay, be withdrawn, or be joined by new bets after each turn
    t = Recorder()
    t.do(PlaceBet("seat-1", "5", 10))
    t.do(MoveBet("seat-1", "5", "8", amount=4))
    t.do(MoveBet("seat-1", "8", "8", to_coppered=True))
    t.do(WithdrawBet("seat-1", "5", amount=2))
    assert t.game.bets == {("seat-1", Rank.FIVE, False): 4, ("seat-1", Rank.EIGHT, True): 4}
    assert t.balance("seat-1") == 92 and t.balance(LAYOUT) == 8
    t.cards("2S 8H 3C")  # 8 loses: the coppered 8 wins
    assert t.balance("seat-1") == 100 and t.balance(LAYOUT) == 4


def test_no_betting_once_a_turn_has_started() -> None:
    # RULES A5: bets are placed before each turn
    t = Recorder()
    t.do(PlaceBet("seat-1", "5", 10))
    t.cards("2S 3H", settle=False)
    for op in (PlaceBet("seat-2", "7", 1), MoveBet("seat-1", "5", "6"), WithdrawBet("seat-1", "5")):
        with pytest.raises(IllegalOperation, match="between turns"):
            t.do(op)
    assert t.balance("seat-1") == 90


def test_a_bet_on_a_dead_rank_is_refused() -> None:
    # RULES A5/H6: the casekeeper shows all four out, so the bet could never be settled
    t = Recorder()
    t.cards("2S 7H 7C 7D 7S")
    with pytest.raises(IllegalOperation, match="dead card"):
        t.do(PlaceBet("seat-1", "7", 1))
    with pytest.raises(IllegalOperation, match="bad rank 'Z'"):
        t.do(PlaceBet("seat-1", "Z", 1))


def test_bad_bets_lose_nothing() -> None:
    t = Recorder(min_bet=2, max_bet=20)
    before = t.table.to_json()
    for op, match in ((PlaceBet("seat-1", "5", 1), "minimum is 2"),
                      (PlaceBet("seat-1", "5", 21), "maximum is 20"),
                      (WithdrawBet("seat-1", "5"), "no bet on 5")):
        with pytest.raises(IllegalOperation, match=match):
            t.table.apply(op)
    with pytest.raises(MoneyError, match="cannot pay"):
        Recorder(chips=3).table.apply(PlaceBet("seat-1", "5", 4))
    assert t.table.to_json()["balances"] == before["balances"] and not t.game.bets


# ---- RULES A5: the hock and calling the turn ----------------------------------------------------

LAST_THREE = "7H QC 3D"


def to_three_left(t: Recorder, last: str = LAST_THREE) -> None:
    t.cards(rest_of_deck(last))
    assert t.game.box_left == 3 and t.game.prompt().step is Step.CARD


def test_the_hock_settles_nothing() -> None:
    # RULES A5 [STD]: the last card (hock) settles nothing; a bet on its rank is returned
    t = Recorder()
    to_three_left(t)
    t.do(PlaceBet("seat-1", "3", 10))
    t.cards(LAST_THREE)
    assert t.game.to_json()["hock"] == "3D"
    assert t.balance("seat-1") == 100 and t.game.history[-1]["results"][-1]["result"] == "returned"
    assert t.game.prompt().step is Step.SHUFFLE


def test_a_faro_deal_is_soda_25_turns_and_the_hock() -> None:
    # RULES A5 [STD]: after soda and 24 two-card turns three cards are left: last turn and the hock
    t = Recorder()
    t.cards(rest_of_deck(LAST_THREE))
    assert t.game.turns_settled == 24
    assert [r.value for r in t.game.turn_roles()] == ["loser", "winner", "hock"]
    t.cards(LAST_THREE)
    assert t.game.turns_settled == 25


def test_calling_the_turn_pays_four_to_one() -> None:
    # RULES A5: calling the turn with three cards left pays 4:1
    t = Recorder()
    to_three_left(t)
    assert t.game.call_offered() and "call" in t.game.prompt().options
    t.do(CallTheTurn("seat-1", ("7", "Q", "3"), 10))
    t.do(CallTheTurn("seat-2", ("Q", "7", "3"), 10))
    t.cards(LAST_THREE)
    assert t.balance("seat-1") == 140 and t.balance("seat-2") == 90


def test_a_cat_hop_pays_two_to_one() -> None:
    # RULES A5: if two of the last three cards are a pair (cat-hop) a correct call pays 2:1
    last = "7H 3C 7D"
    t = Recorder()
    to_three_left(t, last)
    t.do(CallTheTurn("seat-1", ("7", "3", "7"), 10))
    t.cards(last)
    assert t.balance("seat-1") == 120


def test_call_payouts_are_configurable() -> None:
    # RULES A5: all payouts configurable
    t = Recorder(call_payout="5:1", flat_payout="1:1")
    to_three_left(t)
    t.do(CallTheTurn("seat-1", ("7", "Q", "3"), 10))
    t.cards(LAST_THREE)
    assert t.balance("seat-1") == 150


def test_no_call_on_three_of_a_kind_or_before_three_cards_are_left() -> None:
    # RULES A5 [STD]: no call when all three remaining cards share a rank; only with three left
    t = Recorder()
    with pytest.raises(IllegalOperation, match="three cards remain"):
        t.do(CallTheTurn("seat-1", ("7", "Q", "3"), 10))
    to_three_left(t, "7H 7C 7D")
    assert not t.game.call_offered()
    with pytest.raises(IllegalOperation, match="one rank"):
        t.do(CallTheTurn("seat-1", ("7", "7", "7"), 10))
    t2 = Recorder()
    to_three_left(t2)
    with pytest.raises(IllegalOperation, match=r"order of the three cards left \(3-7-Q\)"):
        t2.do(CallTheTurn("seat-1", ("7", "Q", "K"), 10))


# ---- RULES A5 / H6: the casekeeper --------------------------------------------------------------

def test_casekeeper_counts_every_card_and_is_display_data() -> None:
    # RULES H6: one spindle per rank, four counters each, moved for every card dealt
    t = Recorder()
    t.cards("2S 9H 9C")
    keeper = t.game.to_json()["casekeeper"]
    assert [s["rank"] for s in keeper["spindles"]] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                                                       "J", "Q", "K"]
    nine = keeper["spindles"][8]
    assert nine == {"rank": "9", "out": 2, "left": 2, "excess": 0, "beads": [True, True, False, False]}
    assert keeper["cards_left"] == 49 and keeper["cards_out"] == 3


def test_undo_takes_back_a_mis_entered_card() -> None:
    # RULES A5: casekeeper updated on every card, with undo for a mis-entered card
    t = Recorder()
    t.do(PlaceBet("seat-1", "5", 10))
    t.cards("2S 5H", settle=False)
    t.do(UndoCard())
    t.cards("6H 8C")
    assert t.balance("seat-1") == 90 + 0 and t.game.bets == {("seat-1", Rank.FIVE, False): 10}
    assert t.game.casekeeper.left(Rank.FIVE) == 4 and t.game.casekeeper.left(Rank.SIX) == 3
    with pytest.raises(IllegalOperation, match="already settled"):
        t.do(UndoCard())


def test_undo_also_takes_the_card_back_from_the_box() -> None:
    # RULES A5/H6: a mis-entered card is unseen again, in the casekeeper and in the dealing box
    t = Recorder()
    t.do(LoadShoe(decks=1, mode=ShoeMode.OBSERVED))
    t.do(ShuffleShoe())
    for code in ("2S", "5H"):  # as the table runtime logs them: out of the box, then to the game
        t.do(DealCard(Card.parse(code)))
        t.do(t.game.card_operation(Card.parse(code)))
    shoe = t.table.require_shoe()
    t.do(UndoCard())
    assert shoe.cards_out == 1 and shoe.remaining_composition()[Card.parse("5H")] == 1
    assert t.game.casekeeper.left(Rank.FIVE) == 4


def test_a_fifth_card_of_a_rank_is_an_integrity_event_not_a_crash() -> None:
    # RULES A5/H6: four counters per spindle; a fifth card means a foul deck
    t = Recorder()
    t.cards("2S 5H 5C 5D 5S")
    t.cards("5H", settle=False)
    events = t.game.to_json()["integrity"]
    assert [e["kind"] for e in events] == ["fifth-card"] and events[0]["card"] == "5H"
    assert t.game.to_json()["casekeeper"]["spindles"][4]["excess"] == 1
    t.do(UndoCard())
    assert t.game.integrity[0]["undone"] is True and t.game.casekeeper.excess(Rank.FIVE) == 0


def test_a_card_after_the_box_is_empty_is_recorded_as_an_event() -> None:
    t = Recorder()
    t.cards(" ".join(c.code for c in standard_52()))
    t.cards("AS")
    assert t.game.integrity[-1]["kind"] == "after-last-card" and t.game.prompt().step is Step.SHUFFLE
    with pytest.raises(IllegalOperation, match="face of every card"):
        t.do(FaroCard(Card.parse("BK")))


def test_a_new_deal_clears_the_casekeeper_only_when_the_deal_is_over() -> None:
    t = Recorder()
    t.cards("2S 3H 4C")
    with pytest.raises(IllegalOperation, match="not over"):
        t.do(NewFaroDeal())
    t.cards(rest_of_deck("2S 3H 4C"))
    t.do(NewFaroDeal())
    assert t.game.deal == 2 and t.game.casekeeper.cards_left == 52 and t.game.prompt().step is Step.CARD


# ---- Game protocol: live and simulated -----------------------------------------------------------

def test_faro_is_a_game_the_runtime_can_drive() -> None:
    game = Recorder().game
    assert isinstance(game, Game)
    assert game.prompt().step is Step.CARD and game.prompt().text.startswith("bets open")
    assert game.auto_operation() is None


def run_simulated(seed: int, variant: str = "faro") -> Recorder:
    """The runtime loop in simulated mode: the engine deals from a known-order one-deck shoe."""
    t = Recorder(variant)
    t.do(LoadShoe(decks=1))
    t.do(ShuffleShoe(seed=seed, cut_behind=0))
    rng = Rng.from_seed(seed)
    while True:
        prompt = t.game.prompt()
        if prompt.step is Step.SHUFFLE:
            return t
        if prompt.step is Step.SETTLE:
            auto = t.game.auto_operation()
            assert auto is not None
            t.do(auto)
            continue
        if t.game.betting_open:  # players bet at random between turns
            rank = rng.choice([r for r in Rank if t.game.casekeeper.left(r)])
            if t.game.can_bet("seat-1", rank, 1):
                t.do(PlaceBet("seat-1", rank.code, 1, coppered=rng.randbelow(2) == 1))
        deal = t.table.next_deal()
        t.do(deal)
        t.do(t.game.card_operation(deal.card))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), variant=st.sampled_from(["faro", "stuss"]))
def test_simulated_deal_uses_the_whole_deck_and_conserves_chips(seed: int, variant: str) -> None:
    t = run_simulated(seed, variant)
    assert Counter(t.table.require_shoe().dealt) == standard_52().counts()
    assert t.game.casekeeper.cards_left == 0 and not t.game.bets
    assert t.table.ledger.total() == 0 and t.balance(LAYOUT) == 0
    assert t.balance("seat-1") + t.balance("seat-2") + t.balance("house") == 200


# ---- properties ---------------------------------------------------------------------------------

actions = st.lists(st.one_of(st.sampled_from(list(standard_52())), st.just("undo")), max_size=70)


@settings(max_examples=60, deadline=None)
@given(actions=actions, variant=st.sampled_from(["faro", "stuss"]))
def test_casekeeper_matches_the_cards_seen_after_any_entries_and_undos(actions: list[object],
                                                                      variant: str) -> None:
    t = Recorder(variant)
    seen: list[Card] = []
    for action in actions:
        if action == "undo":
            if t.game.can_undo():
                t.do(UndoCard())
                seen.pop()
            continue
        assert isinstance(action, Card)
        if t.game.prompt().step is Step.SETTLE:
            t.do(SettleTurn())
        if t.game.prompt().step is Step.SHUFFLE:
            continue
        t.do(FaroCard(action))
        seen.append(action)
    counts = Counter(c.rank for c in seen)
    for rank in Rank:
        assert t.game.casekeeper.out[rank] == counts[rank]
        assert t.game.casekeeper.left(rank) == max(4 - counts[rank], 0)
    fifths = sum(max(n - 4, 0) for n in counts.values())
    live = [e for e in t.game.integrity if not e["undone"] and e["kind"] == "fifth-card"]
    assert len(live) == fifths


bet_actions = st.lists(st.tuples(st.sampled_from(["bet", "copper", "move", "withdraw", "card", "card",
                                                  "card", "call"]),
                                 st.sampled_from(SEATS), st.sampled_from(list(Rank)),
                                 st.integers(1, 30)), max_size=120)


def drive(t: Recorder, plan: list[tuple[str, str, Rank, int]], deck: list[Card]) -> None:
    """Apply the plan; illegal actions are refused without changing anything."""
    for verb, seat, rank, amount in plan:
        if t.game.prompt().step is Step.SETTLE:
            t.do(SettleTurn())
        ops: dict[str, Operation] = {
            "bet": PlaceBet(seat, rank.code, amount),
            "copper": PlaceBet(seat, rank.code, amount, coppered=True),
            "move": MoveBet(seat, rank.code, Rank((rank % 13) + 1).code, to_coppered=amount % 2 == 0),
            "withdraw": WithdrawBet(seat, rank.code, amount=amount),
            "call": CallTheTurn(seat, tuple(r.code for r in sorted(
                [r for r, k in t.game.casekeeper.remaining().items() for _ in range(k)],
                key=lambda r: (amount + int(r)) % 5)), amount),
        }
        if verb == "card":
            if not deck or t.game.prompt().step is not Step.CARD:
                continue
            op: Operation = FaroCard(deck.pop())
        else:
            op = ops[verb]
        before = t.table.to_json()
        try:
            t.do(op)
        except (IllegalOperation, MoneyError):
            assert t.table.to_json() == before
    while deck and t.game.prompt().step in (Step.CARD, Step.SETTLE):
        if t.game.prompt().step is Step.SETTLE:
            t.do(SettleTurn())
        else:
            t.do(FaroCard(deck.pop()))
    if t.game.prompt().step is Step.SETTLE:
        t.do(SettleTurn())


@settings(max_examples=40, deadline=None)
@given(plan=bet_actions, seed=st.integers(0, 2**31), variant=st.sampled_from(["faro", "stuss"]))
def test_chips_are_conserved_and_replay_gives_the_same_state(plan: list[tuple[str, str, Rank, int]],
                                                              seed: int, variant: str) -> None:
    t = Recorder(variant)
    deck = Rng.from_seed(seed).shuffled(standard_52())
    drive(t, plan, deck)
    assert t.table.ledger.total() == 0
    assert t.balance(LAYOUT) == sum(t.game.bets.values()) + sum(t.game.calls.values())
    assert sum(t.balance(s) for s in SEATS) + t.balance("house") + t.balance(LAYOUT) == 200
    if t.game.prompt().step is Step.SHUFFLE:
        assert t.balance(LAYOUT) == 0
    replayed = TableState()
    for op in t.log:
        replayed.apply(operation_from_payload(op.kind, op.to_payload()))
    assert replayed.to_json() == t.table.to_json()


def test_replay_through_the_sqlite_event_log(tmp_path: Path) -> None:
    store_mod = pytest.importorskip("dealer.store")
    t = Recorder()
    deck = Rng.from_seed(5).shuffled(standard_52())
    drive(t, [("bet", "seat-1", Rank.FIVE, 5), ("copper", "seat-2", Rank.KING, 3), ("card", "", Rank.ACE, 1)]
          * 10, deck)
    with store_mod.EventStore.open(tmp_path / "faro.db") as store:
        for op in t.log:
            store.append(op)
        rebuilt = store_mod.rebuild_state(store)
    assert rebuilt.to_json() == t.table.to_json()


def test_an_auctioned_bank_pays_from_its_stake_and_cannot_go_below_zero() -> None:
    # RULES A5: the bank is usually auctioned: a player's stake is the bank
    t = Recorder(bank="banker")
    t.do(TransferChips("cage", "banker", 10, "bank stake"))
    t.do(PlaceBet("seat-1", "4", 20))
    t.do(PlaceBet("seat-2", "3", 15))
    t.cards("KS 3H 4C")  # collects 15 from seat-2 first, then pays 20 to seat-1
    assert t.balance("banker") == 5 and t.balance("seat-1") == 120
    t.do(PlaceBet("seat-1", "6", 20))
    t.cards("2C 6H", settle=False)
    before = t.table.to_json()
    with pytest.raises(MoneyError, match="banker has 5 chips and cannot cover 20"):
        t.table.apply(SettleTurn())
    assert t.table.to_json() == before


def test_layout_shows_the_edge_of_each_live_rank_for_the_display() -> None:
    # RULES A5: the dealer's only advantage is the split; fewer cards of a rank left, fewer splits
    t = Recorder()
    t.cards("KS 3H 4C")
    edges = t.game.to_json()["layout_edges"]
    assert edges["3"] < edges["A"] and edges["3"] == edges["K"] and len(edges) == 13
    t.cards("7S", settle=False)
    assert t.game.to_json()["layout_edges"] == {}
    stuss = Recorder("stuss")
    assert stuss.game.to_json()["layout_edges"]["A"] == pytest.approx(2 * Recorder().game.layout_edges()["A"])
