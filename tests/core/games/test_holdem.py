"""Hold'em / omaha: betting bookkeeping, side pots, showdown, odd chips (RULES B1, B3, B4, B5, B7)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer.core.cards import parse_cards
from dealer.core.errors import IllegalOperation
from dealer.core.games.base import Step
from dealer.core.games.holdem import (
    POT,
    Act,
    BoardCards,
    HoldemHand,
    HoleCards,
    NewHoldemHand,
    Showdown,
    Structure,
)
from dealer.core.games.holdem_pots import OddChip, award, side_pots, uncalled
from dealer.core.table_state import TableState, TransferChips


def table_with(stacks: dict[str, int]) -> TableState:
    table = TableState()
    for seat, chips in stacks.items():
        table.apply(TransferChips("cage", seat, chips, "buy-in"))
    return table


def hand_of(table: TableState) -> HoldemHand:
    hand = table.games["holdem"]
    assert isinstance(hand, HoldemHand)
    return hand


def play(table: TableState, *actions: tuple[str, str] | tuple[str, str, int]) -> None:
    for a in actions:
        table.apply(Act(*a))  # type: ignore[arg-type]


# --- side pots ------------------------------------------------------------------------------------------


@given(st.dictionaries(st.sampled_from("abcdef"), st.integers(0, 500), min_size=2, max_size=6),
       st.data())
def test_rules_b3_side_pots_conserve_chips(contributions: dict[str, int], data: st.DataObject) -> None:
    # RULES B3 (hypothesis): pots + uncalled chips == everything put in; awards give it all back out
    players = sorted(contributions)
    folded = set(data.draw(st.lists(st.sampled_from(players), max_size=len(players) - 1, unique=True)))
    pots = side_pots(contributions, folded)
    back = uncalled(contributions, pots)
    assert sum(p.amount for p in pots) + sum(back.values()) == sum(contributions.values())
    live = [p for p in players if p not in folded]
    values = {p: data.draw(st.integers(0, 3)) for p in live}
    rule = data.draw(st.sampled_from(list(OddChip)))
    result = award(pots, values, players, rule, lot=list(reversed(players)), contributions=contributions)
    assert sum(result.won.values()) + sum(result.returned.values()) + result.carried == \
        sum(contributions.values())
    for pot in pots:  # an all-in player is eligible only for pots he fully covered
        assert all(contributions[p] >= max(contributions[q] for q in pot.eligible) or p in pot.eligible
                   for p in pot.eligible)


def test_rules_b3_all_in_player_wins_only_the_pots_he_covered() -> None:
    # RULES B3: later bets form side pots the all-in player cannot win; different pots, different winners
    contributions = {"short": 20, "mid": 60, "big": 100}
    pots = side_pots(contributions)
    assert [(p.amount, p.eligible) for p in pots] == [(60, ("short", "mid", "big")), (80, ("mid", "big"))]
    assert uncalled(contributions, pots) == {"big": 40}
    result = award(pots, {"short": 9, "mid": 5, "big": 1}, ("short", "mid", "big"),
                   contributions=contributions)
    assert result.won == {"short": 60, "mid": 80} and result.returned == {"big": 40}


def test_rules_b3_folded_player_chips_stay_in_the_pot() -> None:
    # RULES B3: a folded player loses everything he has put in
    pots = side_pots({"a": 30, "b": 30, "c": 30}, folded={"c"})
    assert [(p.amount, p.eligible) for p in pots] == [(90, ("a", "b"))]


@pytest.mark.parametrize(("rule", "won", "carried"), [
    (OddChip.FIRST_LEFT_OF_BUTTON, {"b": 8, "c": 7}, 0),  # [STD] first winner left of the button
    (OddChip.BY_LOT, {"b": 7, "c": 8}, 0),  # RULES B1/B7 (S1): by lot
    (OddChip.CARRY, {"b": 7, "c": 7}, 1),  # RULES B1/B8 (S3): carried to the next deal
])
def test_rules_b1_split_pot_odd_chip(rule: OddChip, won: dict[str, int], carried: int) -> None:
    # RULES B1: hands identical apart from suits split the pot; the odd chip is a house setting
    pots = side_pots({"a": 5, "b": 5, "c": 5})
    result = award(pots, {"a": 1, "b": 7, "c": 7}, ("b", "c", "a"), rule, lot=("c", "b"))
    assert result.won == won and result.carried == carried


# --- betting -------------------------------------------------------------------------------------------


def test_rules_b4_blinds_and_under_the_gun() -> None:
    # RULES B3/B4: small blind left of the button, big blind next; action starts left of the big blind
    table = table_with({"a": 100, "b": 100, "c": 100, "d": 100})
    table.apply(NewHoldemHand(("a", "b", "c", "d"), button="a", small_blind=1, big_blind=2))
    hand = hand_of(table)
    assert hand.committed == {"a": 0, "b": 1, "c": 2, "d": 0} and hand.to_act == "d"


def test_rules_b4_heads_up_button_posts_small_blind_and_acts_first() -> None:
    # RULES B4 [STD]: heads-up, the button posts the small blind and acts first pre-flop
    table = table_with({"a": 100, "b": 100})
    table.apply(NewHoldemHand(("a", "b"), button="a", small_blind=1, big_blind=2))
    assert hand_of(table).committed == {"a": 1, "b": 2} and hand_of(table).to_act == "a"


def test_rules_b3_big_blind_is_live_and_check_needs_no_bet() -> None:
    # RULES B3/B4: nobody can check pre-flop except the big blind; unraised, the big blind may raise
    table = table_with({"a": 100, "b": 100, "c": 100})
    table.apply(NewHoldemHand(("a", "b", "c"), button="a", small_blind=1, big_blind=2))
    with pytest.raises(IllegalOperation, match="RULES B3: a check"):
        table.apply(Act("a", "check"))
    play(table, ("a", "call"), ("b", "call"))
    assert hand_of(table).to_act == "c" and hand_of(table).can_act("c", "raise", 4)
    play(table, ("c", "check"))
    assert hand_of(table).street == "flop"


def test_rules_b3_pot_limit_maximum_raise_s0_example() -> None:
    # RULES B3 (S0): pot 6, a bet of 4 makes 10; the next player calls 4 (pot 14) and may raise 14
    table = table_with({"a": 100, "b": 100, "c": 100})
    table.apply(NewHoldemHand(("a", "b", "c"), button="a", structure=Structure.POT_LIMIT))
    play(table, ("a", "call"), ("b", "call"), ("c", "check"))
    table.apply(BoardCards(parse_cards("2C 7D KH")))
    assert hand_of(table).pot == 6
    play(table, ("b", "bet", 4))
    hand = hand_of(table)
    assert hand.can_act("c", "raise", 4 + 14)
    with pytest.raises(IllegalOperation, match="pot limit: the most c may raise is 14"):
        table.apply(Act("c", "raise", 4 + 15))


def test_rules_b3_limit_second_raise_makes_nine_not_twelve() -> None:
    # RULES B3 / 0.1 item 9: $3/$6 limit, big blind 3, raise to 6, a further raise makes 9 (not 12)
    table = table_with({"a": 100, "b": 100, "c": 100, "d": 100})
    table.apply(NewHoldemHand(("a", "b", "c", "d"), button="a", small_blind=1, big_blind=3,
                              structure=Structure.LIMIT, small_bet=3))
    play(table, ("d", "raise", 6))
    assert not hand_of(table).can_act("a", "raise", 12)
    play(table, ("a", "raise", 9))
    assert hand_of(table).current_bet == 9


def test_rules_b3_limit_cap_of_three_raises() -> None:
    # RULES B3: a cap (three raises by default in limit) then allows only calls or folds
    table = table_with({"a": 100, "b": 100, "c": 100, "d": 100})
    table.apply(NewHoldemHand(("a", "b", "c", "d"), button="a", structure=Structure.LIMIT))
    play(table, ("d", "raise", 4), ("a", "raise", 6), ("b", "raise", 8))
    with pytest.raises(IllegalOperation, match="capped after 3 raises"):
        table.apply(Act("c", "raise", 10))
    play(table, ("c", "call"))


def test_rules_b3_no_limit_raise_at_least_the_previous_raise() -> None:
    # RULES B3 (S2): after a $50 raise you cannot raise $1
    table = table_with({"a": 500, "b": 500, "c": 500})
    table.apply(NewHoldemHand(("a", "b", "c"), button="a", small_blind=1, big_blind=2))
    play(table, ("a", "raise", 52))
    with pytest.raises(IllegalOperation, match="at least the previous raise"):
        table.apply(Act("b", "raise", 53))
    play(table, ("b", "raise", 102))


def test_rules_b3_table_stakes_and_short_all_in() -> None:
    # RULES B3: a player's limit is the chips in front of him; he may call all-in for less
    table = table_with({"a": 100, "b": 30, "c": 100})
    table.apply(NewHoldemHand(("a", "b", "c"), button="a"))
    with pytest.raises(IllegalOperation, match="table stakes"):
        table.apply(Act("a", "raise", 101))
    play(table, ("a", "raise", 60), ("b", "call"))
    assert "b" in hand_of(table).all_in and hand_of(table).committed["b"] == 30


def test_rules_b4_last_player_takes_pot_without_showing() -> None:
    # RULES B4: if only one player remains he takes the pot, and need not show
    table = table_with({"a": 100, "b": 100, "c": 100})
    table.apply(NewHoldemHand(("a", "b", "c"), button="a"))
    play(table, ("a", "raise", 10), ("b", "fold"), ("c", "fold"))
    assert table.ledger.balance("a") == 103 and table.ledger.balance(POT) == 0
    assert hand_of(table).result is not None and hand_of(table).holes == {}


def full_hand(table: TableState) -> None:
    table.apply(NewHoldemHand(("a", "b", "c"), button="a"))
    play(table, ("a", "raise", 20), ("b", "all-in"), ("c", "all-in"), ("a", "call"))
    for cards in ("2C 7D 8H", "9S", "3D"):
        table.apply(BoardCards(parse_cards(cards)))
    for seat, cards in (("a", "AS AD"), ("b", "KS KD"), ("c", "QS QC")):
        table.apply(HoleCards(seat, parse_cards(cards)))
    table.apply(Showdown())


def test_rules_b3_showdown_with_side_pots_pays_each_pot_to_its_best_hand() -> None:
    # RULES B3/B4: b (all-in 30) has kings, a aces, c queens; a covers everyone
    table = table_with({"a": 200, "b": 30, "c": 80})
    full_hand(table)
    result = hand_of(table).result
    assert result is not None
    assert result["won"] == {"a": 190}
    assert table.ledger.balance("a") == 310
    assert table.ledger.balance("b") == 0 and table.ledger.balance("c") == 0
    assert table.ledger.balance(POT) == 0


def test_rules_b3_all_in_short_stack_wins_main_pot_only() -> None:
    table = table_with({"a": 200, "b": 30, "c": 80})
    table.apply(NewHoldemHand(("a", "b", "c"), button="a"))
    play(table, ("a", "raise", 20), ("b", "all-in"), ("c", "all-in"), ("a", "call"))
    for cards in ("2C 7D 8H", "9S", "3D"):
        table.apply(BoardCards(parse_cards(cards)))
    for seat, cards in (("a", "QS QD"), ("b", "KS KD"), ("c", "JS JC")):
        table.apply(HoleCards(seat, parse_cards(cards)))
    table.apply(Showdown())
    assert hand_of(table).result["won"] == {"b": 90, "a": 100}  # type: ignore[index]
    assert table.ledger.balance("a") == 220 and table.ledger.balance("b") == 90


def test_rules_b5_omaha_showdown_uses_two_hole_cards() -> None:
    # RULES B5: exactly two hole cards and three board cards
    table = table_with({"a": 100, "b": 100})
    table.apply(NewHoldemHand(("a", "b"), button="a", variant="omaha", structure=Structure.POT_LIMIT))
    play(table, ("a", "call"), ("b", "check"))
    for cards in ("AH KH QH", "JH", "2C"):
        table.apply(BoardCards(parse_cards(cards)))
        while hand_of(table).prompt().step is Step.DECIDE:
            play(table, (hand_of(table).to_act or "", "check"))
    table.apply(HoleCards("a", parse_cards("10H 3C 4D 5S")))  # one heart: no royal flush in omaha
    table.apply(HoleCards("b", parse_cards("9C 9D 8S 8C")))
    table.apply(Showdown())
    # a's 10H with the board's A-K-Q-J of hearts would be a royal flush in hold'em; in omaha a holds
    # only ace high, and b's pair of nines wins
    assert hand_of(table).result["won"] == {"b": 4}  # type: ignore[index]
    with pytest.raises(IllegalOperation, match="4 hole cards"):
        HoldemHand(("a",), "a", variant="omaha").verify_hole("a", tuple(parse_cards("AS KS")))


def test_hand_replays_from_the_event_log(tmp_path: Path) -> None:
    store_mod = pytest.importorskip("dealer.store")
    ops = [TransferChips("cage", s, c, "buy-in") for s, c in (("a", 200), ("b", 30), ("c", 80))]
    ops += [NewHoldemHand(("a", "b", "c"), button="a"), Act("a", "raise", 20), Act("b", "all-in"),
            Act("c", "all-in"), Act("a", "call")]
    ops += [BoardCards(parse_cards(c)) for c in ("2C 7D 8H", "9S", "3D")]
    ops += [HoleCards(s, parse_cards(c)) for s, c in (("a", "AS AD"), ("b", "KS KD"), ("c", "QS QC"))]
    ops += [Showdown()]
    table = TableState()
    for op in ops:
        table.apply(op)
    with store_mod.EventStore.open(tmp_path / "holdem.db") as store:
        for op in ops:
            store.append(op)
        assert store_mod.rebuild_state(store).to_json() == table.to_json()
