from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dealer.core.cards import BACK, JOKER, Card
from dealer.core.errors import IllegalOperation, ShoeEmpty, ShoeStateError
from dealer.core.packs import shoe_pack
from dealer.core.rng import Rng
from dealer.core.shoe import (
    BACCARAT_CUT,
    BLACKJACK_CUT,
    BurnRule,
    CutRule,
    FaultKind,
    Shoe,
    ShoeMode,
    ShoeRules,
    baccarat_burn_count,
)

seeds = st.integers(0, 2**32)


@settings(max_examples=30, deadline=None)
@given(decks=st.integers(1, 8), seed=seeds)
def test_a_shoe_deals_each_card_exactly_as_often_as_its_packs_hold_it(decks: int, seed: int) -> None:
    shoe = Shoe(ShoeRules(decks=decks))
    shoe.shuffle(Rng.from_seed(seed))
    dealt = [shoe.draw() for _ in range(shoe.total)]
    assert Counter(dealt) == shoe_pack(decks).counts()
    assert shoe.cards_left == 0 and shoe.penetration == 1.0
    with pytest.raises(ShoeEmpty):
        shoe.draw()


@settings(max_examples=50, deadline=None)
@given(decks=st.integers(1, 8), seed=seeds, low=st.integers(0, 40), extra=st.integers(0, 30))
def test_cut_card_is_placed_by_the_house_rule(decks: int, seed: int, low: int, extra: int) -> None:
    # RULES H2: the cut card leaves between min and max cards undealt
    assume(low + extra < 52 * decks)
    rule = CutRule(low, low + extra)
    shoe = Shoe(ShoeRules(decks=decks, cut=rule))
    shoe.shuffle(Rng.from_seed(seed))
    behind = shoe.total - shoe.cut_index if shoe.cut_index is not None else 0
    assert rule.min_behind <= behind <= rule.max_behind
    reached_at = None
    while shoe.can_draw():
        before = shoe.cut_card_reached
        shoe.draw()
        if shoe.cut_card_reached and not before:
            reached_at = shoe.cards_out
    if behind:
        assert reached_at == shoe.total - behind  # exactly when the cut card comes out


def test_blackjack_cut_leaves_60_to_75_cards_and_the_round_finishes_first() -> None:
    # RULES A1: the insert card leaves roughly the last 60-75 cards; the round in progress finishes
    shoe = Shoe(ShoeRules(decks=6, cut=BLACKJACK_CUT))
    shoe.shuffle(Rng.from_seed(11))
    assert 312 - 75 <= (shoe.cut_index or 0) <= 312 - 60
    rounds = 0
    while not shoe.round_finished():
        for _ in range(13):  # one round's worth of cards; the cut card may appear mid-round
            shoe.draw()
        rounds += 1
    assert shoe.cut_card_reached and shoe.cards_out >= (shoe.cut_index or 0)
    assert shoe.cards_left >= 60 - 13  # the round in progress was completed, then shuffle is due


def test_no_cut_card_deals_to_the_end() -> None:
    shoe = Shoe(ShoeRules(decks=1))
    shoe.shuffle(Rng.from_seed(2))
    for _ in range(52):
        assert not shoe.round_finished()
        shoe.draw()
    assert shoe.cut_index is None


def test_penetration_counts_burned_and_dealt() -> None:
    shoe = Shoe(ShoeRules(decks=2, burn=BurnRule.ONE))
    shoe.shuffle(Rng.from_seed(3))
    assert shoe.burns_due == 1
    shoe.draw(burn=True)
    assert shoe.burns_due == 0
    for _ in range(25):
        shoe.draw()
    assert shoe.cards_out == 26 and shoe.penetration == pytest.approx(0.25)


@pytest.mark.parametrize(("code", "burn"), [("AS", 1), ("7D", 7), ("9C", 9), ("10H", 10), ("KS", 10)])
def test_baccarat_burn_by_the_first_cards_value(code: str, burn: int) -> None:
    # RULES A3 [STD]: the first card is shown and as many cards as its value are burned
    assert baccarat_burn_count(Card.parse(code)) == burn


@settings(max_examples=25, deadline=None)
@given(seed=seeds)
def test_baccarat_shoe_burns_then_deals(seed: int) -> None:
    shoe = Shoe(ShoeRules(decks=8, cut=BACCARAT_CUT, burn=BurnRule.FIRST_CARD_VALUE))
    shoe.shuffle(Rng.from_seed(seed))
    first = shoe.draw(burn=True)
    while shoe.burns_due:
        shoe.draw(burn=True)
    assert len(shoe.burned) == 1 + baccarat_burn_count(first)
    assert 14 <= shoe.total - (shoe.cut_index or 0) <= 16


def test_known_shoe_must_be_shuffled_and_observed_shoe_cannot_draw() -> None:
    with pytest.raises(ShoeStateError, match="not been shuffled"):
        Shoe(ShoeRules(decks=1)).draw()
    observed = Shoe(ShoeRules(decks=1), mode=ShoeMode.OBSERVED)
    observed.shuffle()
    with pytest.raises(ShoeStateError, match="observed"):
        observed.draw()


def test_public_state_never_shows_the_undealt_order() -> None:
    shoe = Shoe(ShoeRules(decks=1))
    shoe.shuffle(Rng.from_seed(4))
    shoe.draw()
    full, public = shoe.to_json(), shoe.to_json(public=True)
    assert full["dealt"] == [c.code for c in shoe.dealt] and len(shoe.dealt) == 1
    assert "dealt" not in public  # a viewer never learns a face-down card from the shoe
    text = repr(full) + repr(shoe)
    undealt = [c.code for c in shoe.remaining_composition().elements()]
    assert len(undealt) == 51
    # the repr and the JSON carry counts, never the sequence of undealt cards
    assert not any(f"'{code}'" in text for code in undealt)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, data=st.data())
def test_observed_mode_flags_every_injected_duplicate_and_missing_card(
    seed: int, data: st.DataObject
) -> None:
    rng = Rng.from_seed(seed)
    pack = shoe_pack(2)
    order = rng.shuffled(pack.cards)
    n_dup = data.draw(st.integers(0, 5), label="duplicates")
    n_miss = data.draw(st.integers(0, 5), label="missing")
    missing_positions = set(data.draw(st.lists(st.integers(0, len(order) - 1), min_size=n_miss,
                                               max_size=n_miss, unique=True), label="missing at"))
    stream = [c for i, c in enumerate(order) if i not in missing_positions]
    dup_positions = data.draw(st.lists(st.integers(1, len(stream) - 1), min_size=n_dup, max_size=n_dup),
                              label="duplicate at")
    injected: Counter[Card] = Counter()
    for position in sorted(dup_positions, reverse=True):
        injected[stream[position - 1]] += 1
        stream.insert(position, stream[position - 1])  # a card read twice
    shoe = Shoe(ShoeRules(decks=2), mode=ShoeMode.OBSERVED)
    shoe.shuffle()
    for card in stream:
        shoe.record(card)
    shoe.close(emptied=True)
    kinds = Counter(f.kind for f in shoe.faults)
    seen, held = Counter(stream), pack.counts()
    assert kinds[FaultKind.DUPLICATE] == sum((seen - held).values())
    assert kinds[FaultKind.MISSING] == sum((held - seen).values())
    missing_cards = Counter(order[i] for i in missing_positions)
    if not set(injected) & set(missing_cards):  # nothing cancels out: every injection is flagged
        assert kinds[FaultKind.DUPLICATE] == n_dup and kinds[FaultKind.MISSING] == n_miss
        assert Counter(f.card for f in shoe.faults if f.kind is FaultKind.DUPLICATE) == injected
    assert Counter(f.card for f in shoe.faults if f.kind is FaultKind.MISSING) == held - seen


def test_foreign_card_and_counter_mismatch_are_faults_not_crashes() -> None:
    shoe = Shoe(ShoeRules(decks=1), mode=ShoeMode.OBSERVED)
    shoe.shuffle()
    faults = shoe.record(JOKER)
    assert [f.kind for f in faults] == [FaultKind.FOREIGN]
    shoe.record(Card.parse("AS"))
    assert shoe.reconcile(2) == ()
    (fault,) = shoe.reconcile(3)
    assert fault.kind is FaultKind.MISSED_READ and "3" in fault.detail


def test_face_down_cards_count_but_keep_the_composition() -> None:
    shoe = Shoe(ShoeRules(decks=1), mode=ShoeMode.OBSERVED)
    shoe.shuffle()
    shoe.record(BACK)
    assert shoe.cards_out == 1 and shoe.unidentified == 1
    assert sum(shoe.remaining_composition().values()) == 52


def test_card_after_the_last_is_a_duplicate_fault() -> None:
    shoe = Shoe(ShoeRules(decks=1), mode=ShoeMode.OBSERVED)
    shoe.shuffle()
    shoe.record(BACK)  # a card that left unread
    cards = list(shoe_pack(1))
    for card in cards[:-1]:
        shoe.record(card)
    (fault,) = shoe.record(cards[-1])
    assert fault.kind is FaultKind.DUPLICATE and "after all 52" in fault.detail
    (again,) = shoe.record(cards[0])
    assert "seen 2 times; the shoe holds 1" in again.detail


@settings(max_examples=30, deadline=None)
@given(seed=seeds, n=st.integers(0, 52))
def test_replaying_a_known_shoe_from_its_deals_gives_the_same_state(seed: int, n: int) -> None:
    original = Shoe(ShoeRules(decks=1))
    original.shuffle(Rng.from_seed(seed), cut_behind=10)
    dealt = [original.draw() for _ in range(n)]
    replayed = Shoe(ShoeRules(decks=1))
    replayed.shuffle(Rng.system(), cut_behind=10)  # a different secret order
    for card in dealt:
        assert replayed.record(card) == ()
    assert replayed.to_json() == original.to_json()
    assert replayed.remaining_composition() == original.remaining_composition()
    rest = [replayed.draw() for _ in range(52 - n)]
    assert Counter(dealt + rest) == shoe_pack(1).counts()  # still no card dealt twice


def test_bad_cut_placement_is_refused() -> None:
    shoe = Shoe(ShoeRules(decks=1))
    with pytest.raises(IllegalOperation, match="cut card"):
        shoe.shuffle(Rng.from_seed(1), cut_behind=52)


def test_a_face_down_card_is_identified_in_place() -> None:
    shoe = Shoe(ShoeRules(decks=1), mode=ShoeMode.OBSERVED)
    shoe.shuffle()
    shoe.record(Card.parse("2C"))
    shoe.record(BACK)  # the hole card, face down
    shoe.record(Card.parse("3C"))
    assert shoe.identify(Card.parse("KH")) == ()
    assert [c.code for c in shoe.dealt] == ["2C", "KH", "3C"] and shoe.unidentified == 0
    assert shoe.remaining_composition()[Card.parse("KH")] == 0
    with pytest.raises(IllegalOperation, match="no face-down card"):
        shoe.identify(Card.parse("QH"))
    shoe.record(BACK)
    (fault,) = shoe.identify(Card.parse("2C"))  # named as a card already seen: a duplicate
    assert fault.kind is FaultKind.DUPLICATE
    shoe.record(BACK)
    shoe.record(BACK)
    shoe.identify(Card.parse("9D"), index=len(shoe.dealt) - 1)  # the later of two face-down cards
    assert [c.code for c in shoe.dealt[-2:]] == ["BK", "9D"]
    with pytest.raises(IllegalOperation, match="not a face-down card"):
        shoe.identify(Card.parse("9H"), index=0)


@settings(max_examples=30, deadline=None)
@given(seed=seeds, data=st.data())
def test_undo_puts_the_composition_back(seed: int, data: st.DataObject) -> None:
    for mode in ShoeMode:
        shoe = Shoe(ShoeRules(decks=2), mode=mode)
        shoe.shuffle(Rng.from_seed(seed))
        cards = Rng.from_seed(seed).shuffled(shoe.pack.cards)[:10]
        for card in cards:
            shoe.draw() if mode is ShoeMode.KNOWN else shoe.record(card)
        before = shoe.remaining_composition()
        wrong = data.draw(st.sampled_from(list(shoe.pack.cards)))
        (shoe.record(wrong))
        shoe.undo(wrong)
        assert shoe.remaining_composition() == before and shoe.cards_out == 10
    with pytest.raises(IllegalOperation, match="only the last card"):
        shoe.undo(Card.parse("JK"))
