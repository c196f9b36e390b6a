"""Pusoy: deal, setting order, settlement, fouls, surrender, royalties, setting search (RULES A9)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer.core.cards import Card, parse_cards
from dealer.core.errors import IllegalOperation
from dealer.core.evaluation import Ranking, evaluate
from dealer.core.evaluation.pusoy_setting import PusoySetting, arrangements, best_setting, naive_setting
from dealer.core.games.base import Game, Step
from dealer.core.games.pusoy import (
    STAKES,
    NewPusoyGame,
    PusoyBet,
    PusoyCard,
    PusoyDeal,
    PusoyGame,
    PusoyRoyalty,
    PusoySet,
    PusoySettle,
    PusoySurrender,
    is_royalty,
    outcome_of,
)
from dealer.core.operations import Operation
from dealer.core.packs import standard_52
from dealer.core.shoe import ShoeMode
from dealer.core.table_state import ShuffleShoe, TableState, TransferChips

PLAYER = "AS AD KC KD QH QS 2C 3D 4H 5S 9C 9D 9H"
DEALER = "2D 3H 4S 6C 7D 8H 10C JD QC KH AC 5C 6D"


def home_table(hands: dict[int, str], bets: dict[int, int] | None = None, **rules: object) -> TableState:
    table = TableState()
    table.apply(NewPusoyGame(home_game=True, mode=ShoeMode.OBSERVED, **rules))  # type: ignore[arg-type]
    table.apply(ShuffleShoe())
    for seat in (s for s in hands if s):
        table.apply(TransferChips("cage", f"seat-{seat}", 1000, "buy-in"))
        table.apply(PusoyBet(seat, (bets or {}).get(seat, 10)))
    table.apply(PusoyDeal())
    order = sorted(s for s in hands if s) + [0]
    cards = {s: h.split() for s, h in hands.items()}
    for i in range(13):
        for s in order:
            table.apply(PusoyCard(Card.parse(cards[s][i])))
    return table


def game(table: TableState) -> PusoyGame:
    g = table.games["pusoy"]
    assert isinstance(g, PusoyGame)
    return g


def put(table: TableState, seat: int, back: str, middle: str, front: str) -> None:
    table.apply(PusoySet(seat, parse_cards(back), parse_cards(middle), parse_cards(front)))


def s(back: str, middle: str, front: str) -> PusoySetting:
    return PusoySetting.of(back, middle, front)


DEALER_SET = ("AC KH QC JD 10C", "2D 3H 4S 5C 6D", "8H 7D 6C")


def test_rules_a9_deal_thirteen_each_from_the_dealers_left() -> None:
    # RULES A9: the whole pack one at a time, clockwise from the dealer's left: thirteen each
    table = TableState()
    table.apply(NewPusoyGame(mode=ShoeMode.OBSERVED))
    table.apply(ShuffleShoe())
    for seat in (1, 2, 3):
        table.apply(TransferChips("cage", f"seat-{seat}", 100, "buy-in"))
        table.apply(PusoyBet(seat, 5))
    table.apply(PusoyDeal())
    g = game(table)
    who = []
    for _ in range(8):
        who.append(g.prompt().who)
        table.apply(PusoyCard(Card.parse("BK")))
    assert who == ["seat-1", "seat-2", "seat-3", "dealer"] * 2
    for _ in range(52 - 8):
        table.apply(PusoyCard(Card.parse("BK")))
    assert all(len(h.cards) == 13 for h in g.hands.values())
    assert g.phase.value == "setting"


def test_rules_a9_casino_needs_exactly_three_players() -> None:
    # RULES A9: exactly four in the casino (the dealer and three players); two or three at home
    table = TableState()
    table.apply(NewPusoyGame(mode=ShoeMode.OBSERVED))
    table.apply(ShuffleShoe())
    table.apply(TransferChips("cage", "seat-1", 100, "buy-in"))
    table.apply(PusoyBet(1, 5))
    with pytest.raises(IllegalOperation, match="exactly three players"):
        table.apply(PusoyDeal())


def test_rules_a9_back_must_outrank_middle_must_outrank_front() -> None:
    # RULES A9: back >= middle >= front, else the hands are fouled
    assert not s("9C 9D 9H 2C 3D", "AS AD KC KD 4H", "QH QS 5S").foul
    assert s("AS AD KC KD 4H", "9C 9D 9H 2C 3D", "QH QS 5S").foul
    assert s("AS AD 2C 3D 4H", "KC KD 9H 9C 9D", "QH QS 5S").foul  # middle above the back
    assert s("AS KD 8C 6D 4H", "AH QD 9C 7C 3D", "KH KS 5S").foul  # front pair above a no-pair middle


def test_rules_a9_wheel_is_the_lowest_straight_and_front_counts_no_straights() -> None:
    # RULES A9: A-2-3-4-5 is the lowest straight; in the front, straights and flushes do not count
    assert evaluate("AS 2D 3C 4H 5S", Ranking.PUSOY) < evaluate("2S 3D 4C 5H 6S", Ranking.PUSOY)
    assert evaluate("QH KH AH", Ranking.PUSOY) < evaluate("2S 2D 3C", Ranking.PUSOY)
    assert str(evaluate("AS AD AC", Ranking.PUSOY)) == "three aces"


@pytest.mark.parametrize(("player", "won", "outcome"), [
    (("AS AD AH 2C 3D", "KC KD QH QS 4H", "9C 9D 5S"), 2, "pusoy-win"),  # wins 3 of 3: double
    (("AS AD AH 2C 3D", "QH QS 9H 4C 3C", "9C 9D 5S"), 1, "win"),  # wins 2 of 3: single
    (("9C 9D 9H 2C 3D", "AS AD KC QD 4H", "QH QS 5S"), -1, "lose"),  # wins 1 of 3: loses single
    (("AS AD KC QD 4H", "9C 9D 7H 2C 3D", "QH JS 5S"), -2, "pusoy-lose"),  # wins 0 of 3: double
])
def test_rules_a9_settlement_table(player: tuple[str, str, str], won: int, outcome: str) -> None:
    # RULES A9: 3 of 3 +2, 2 of 3 +1, 1 of 3 -1, 0 of 3 -2 ("pusoy")
    dealer = s("10C 10D 10S 6C 7D", "2D 2H 8S 8H JD", "KH 6D 5C")
    assert outcome_of(s(*player), dealer) == (outcome, won)


def test_rules_a9_exact_tie_goes_to_the_dealer() -> None:
    # RULES A9: an exactly tied position goes to the dealer (A-A-10-9-6 against A-A-10-9-6)
    dealer = s("KC KD KS 2C 3C", "AS AD 10C 9H 6S", "QH QS 5S")
    player = s("8C 8D 8S 2D 3D", "AH AC 10D 9C 6D", "JH JS 5H")
    assert outcome_of(player, dealer) == ("pusoy-lose", -2)


def test_rules_a9_foul_costs_double_and_dealer_foul_pays_double() -> None:
    # RULES A9: a foul ("totyo") costs the offender double; dealer foul: pays double (standard reading)
    good = s("AS AD AH 2C 3D", "KC KD QH QS 4H", "9C 9D 5S")
    bad = s("KC KD QH QS 4H", "AS AD AH 2C 3D", "9C 9D 5S")
    assert outcome_of(bad, good) == ("player-foul", -2)
    assert outcome_of(good, bad) == ("dealer-foul", 2)
    assert outcome_of(bad, bad) == ("both-foul", 0)


def test_rules_a9_settled_through_the_ledger() -> None:
    # RULES A9 (standard reading): a fouled dealer pays each player double
    table = home_table({1: PLAYER, 0: DEALER})
    put(table, 1, "9C 9D 9H 2C 3D", "AS AD KC KD 4H", "QH QS 5S")
    put(table, 0, "2D 3H 4S 6C 7D", "AC KH QC JD 10C", "8H 5C 6D")  # middle above back: a foul
    table.apply(PusoySettle())
    assert game(table).results[0]["outcome"] == "dealer-foul"
    assert table.ledger.balance("seat-1") == 1020
    assert table.ledger.balance("house") == -20


def test_rules_a9_player_foul_pays_double() -> None:
    # RULES A9: a fouled player loses double the bet
    table = home_table({1: PLAYER, 0: DEALER})
    put(table, 1, "AS AD KC KD 4H", "9C 9D 9H 2C 3D", "QH QS 5S")
    put(table, 0, *DEALER_SET)
    table.apply(PusoySettle())
    assert table.ledger.balance("seat-1") == 980
    assert table.ledger.total() == 0 and table.ledger.balance(STAKES) == 0


def test_rules_a9_hands_cannot_be_touched_once_placed() -> None:
    # RULES A9: once placed, a player's hands may not be touched again
    table = home_table({1: PLAYER, 0: DEALER})
    put(table, 1, "9C 9D 9H 2C 3D", "AS AD KC KD 4H", "QH QS 5S")
    with pytest.raises(IllegalOperation, match="already placed"):
        put(table, 1, "AS AD KC KD 4H", "9C 9D 9H 2C 3D", "QH QS 5S")


def test_rules_a9_setting_must_use_the_dealt_cards() -> None:
    table = home_table({1: PLAYER, 0: DEALER})
    with pytest.raises(IllegalOperation):
        put(table, 1, "9C 9D 9H 2C 3D", "AS AD KC KD 4H", "QH QS 6S")


def test_rules_a9_surrender_pays_single_before_setting() -> None:
    # RULES A9 (surrender): a player concedes one bet before placing; too late once placed
    table = home_table({1: PLAYER, 0: DEALER}, surrender=True)
    table.apply(PusoySurrender(1))
    assert table.ledger.balance("seat-1") == 990
    assert game(table).phase.value == "settling"
    table.apply(PusoySettle())
    assert table.ledger.balance("house") == 10
    table2 = home_table({1: PLAYER, 0: DEALER}, surrender=True)
    put(table2, 1, "9C 9D 9H 2C 3D", "AS AD KC KD 4H", "QH QS 5S")
    with pytest.raises(IllegalOperation, match="too late"):
        table2.apply(PusoySurrender(1))


def test_rules_a9_dealer_surrenders_only_after_players_declare() -> None:
    # RULES A9 (surrender): the dealer gives no sign until every player has declared; he then pays
    # one bet to each player still in
    table = home_table({1: PLAYER, 0: DEALER}, surrender=True)
    with pytest.raises(IllegalOperation, match="every player"):
        table.apply(PusoySurrender(0))
    put(table, 1, "9C 9D 9H 2C 3D", "AS AD KC KD 4H", "QH QS 5S")
    table.apply(PusoySurrender(0))
    table.apply(PusoySettle())
    assert table.ledger.balance("seat-1") == 1010


def test_rules_a9_surrender_is_a_variant() -> None:
    table = home_table({1: PLAYER, 0: DEALER})
    with pytest.raises(IllegalOperation, match="variant"):
        table.apply(PusoySurrender(1))


@pytest.mark.parametrize(("cards", "kind"), [
    ("2C 3C 4C 5C 6C 9D 9H JS QS KD AH 7D 8S", "straight-flush"),
    ("AC 2C 3C 4C 5C 9D 9H JS QS KD AH 7D 8S", "straight-flush"),
    ("9C 9D 9H 9S 6C 2D 3H JS QS KD AH 7D 8S", "four-of-a-kind"),
    ("2C 2D 3H 3S 4C 4D 5H 5S 6C 6D 7H 7S AS", "six-pairs"),
    ("2C 3D 4H 5S 6C 9D 9H JS QS KD AH 7D 8S", None),
])
def test_rules_a9_royalty_hands(cards: str, kind: str | None) -> None:
    # RULES A9 (royalties): a straight flush, four of a kind or six pairs
    assert is_royalty(parse_cards(cards)) == kind


def test_rules_a9_royalties_paid_single_at_once() -> None:
    # RULES A9 (royalties): shown before settlement and paid one bet at once; the hand is out
    quads = "9C 9D 9H 9S 6C 2D 3H JS QS KD AH 7D 8S"
    rest = "2C 3C 4C 5C 7C 8C 10C JC QC KC AC 2H 3D"
    table = home_table({1: quads, 0: rest}, royalties=True)
    table.apply(PusoyRoyalty(1))
    assert table.ledger.balance("seat-1") == 1010
    table.apply(PusoySettle())
    assert table.ledger.balance("seat-1") == 1010 and table.ledger.total() == 0
    table2 = home_table({1: PLAYER, 0: DEALER}, royalties=True)
    with pytest.raises(IllegalOperation, match="royalties need"):
        table2.apply(PusoyRoyalty(1))


def test_rules_a9_player_banker_must_cover_double() -> None:
    # RULES A9 (home game): the dealer banks; a player-dealer must be able to pay every double
    table = TableState()
    table.apply(NewPusoyGame(home_game=True, banker="seat-3", mode=ShoeMode.OBSERVED))
    table.apply(ShuffleShoe())
    table.apply(TransferChips("cage", "seat-1", 100, "buy-in"))
    table.apply(TransferChips("cage", "seat-3", 15, "buy-in"))
    table.apply(PusoyBet(1, 10))
    with pytest.raises(IllegalOperation, match="cover double"):
        table.apply(PusoyDeal())


def test_setting_search_covers_every_arrangement_and_never_fouls() -> None:
    # RULES A9: 72,072 ways to split 13 cards; the search returns a legal one
    a = arrangements()
    assert len(a.back) == 72_072
    rng = np.random.default_rng(9)
    pack = [c.code for c in standard_52().cards]
    for _ in range(20):
        hand = list(rng.choice(pack, 13, replace=False))
        best = best_setting(hand)
        assert not best.setting.foul
        assert sorted(c.code for c in best.setting.cards) == sorted(hand)
        assert not naive_setting(hand).foul


def test_setting_search_beats_the_naive_setting_against_itself() -> None:
    # The optimised setting wins more than the naive one (best five back, best five middle).
    rng = np.random.default_rng(2)
    pack = [c.code for c in standard_52().cards]
    net = 0
    for _ in range(150):
        deck = list(rng.permutation(pack))
        player, dealer = deck[:13], deck[13:26]
        net += outcome_of(best_setting(player).setting, naive_setting(dealer))[1]
        net -= outcome_of(naive_setting(player), best_setting(dealer, as_dealer=True).setting)[1]
    assert net > 0


def drive(table: TableState, bets: list[int], log: list[Operation]) -> None:
    g = game(table)

    def do(op: Operation) -> None:
        log.append(op)
        table.apply(op)

    if g.prompt().step is Step.SHUFFLE:
        do(ShuffleShoe(seed=len(log)))
    for seat, amount in enumerate(bets, start=1):
        do(PusoyBet(seat, amount))
    do(PusoyDeal())
    while g.prompt().step not in (Step.BET, Step.SHUFFLE):
        if g.prompt().step is Step.CARD:
            assert table.shoe is not None
            do(g.card_operation(table.shoe.next_card()))
        else:
            op = g.auto_operation()
            assert op is not None
            do(op)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), bets=st.lists(st.integers(1, 30), min_size=3, max_size=3),
       surrender=st.booleans(), royalties=st.booleans())
def test_chips_are_conserved_in_simulated_play(seed: int, bets: list[int], surrender: bool,
                                               royalties: bool) -> None:
    table = TableState()
    table.apply(NewPusoyGame(surrender=surrender, royalties=royalties))
    for seat in (1, 2, 3):
        table.apply(TransferChips("cage", f"seat-{seat}", 1000, "buy-in"))
    table.apply(ShuffleShoe(seed=seed))
    log: list[Operation] = []
    drive(table, bets, log)
    assert table.ledger.total() == 0 and table.ledger.balance(STAKES) == 0
    assert isinstance(game(table), Game)


def test_replay_from_the_sqlite_log_gives_the_same_state(tmp_path: Path) -> None:
    from dealer.store import EventStore, rebuild_state
    table = TableState()
    log: list[Operation] = [NewPusoyGame(surrender=True)]
    log += [TransferChips("cage", f"seat-{n}", 300, "buy-in") for n in (1, 2, 3)]
    log.append(ShuffleShoe(seed=8))
    for op in log:
        table.apply(op)
    drive(table, [5, 10, 15], log)
    store = EventStore.open(tmp_path / "table.db")
    for op in log:
        store.append(op)
    assert rebuild_state(store).to_json() == table.to_json()
