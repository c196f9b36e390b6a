"""Setting a pai gow hand: seven cards into a five-card back and a two-card front (RULES A8).

The **house way** is a fixed procedure for the banker's hand. The seed gives only its outline (split
two pairs per the house way, three pairs put the highest pair in front, trips + pair put the pair
in front); :class:`HouseWay` holds the configurable details, with common casino choices as defaults:

* no pair: the highest card in back, the next two in front;
* one pair: the pair in back, the two highest singles in front;
* two pair: split (lower pair in front) unless the higher pair is at most ``keep_two_pair_with_ace``
  and an ace single can go in front (or at most ``keep_two_pair_with_king`` with a king single);
  aces are always split;
* three pair: the highest pair in front (RULES A8);
* trips: kept in back, except three aces (pair of aces back, ace and the next card in front);
  two sets of trips: the higher trips are split, pair in front;
* full house: trips in back, the (highest) pair in front (RULES A8);
* four of a kind: with a pair, the pair in front; alone, kept together up to ``quads_together_at_most``,
  then kept only with an ace single for the front, and aces split;
* five aces: a pair of kings in front if there is one, else a pair of aces in front;
* a straight, flush or straight flush is played in back, with the best front it allows, by a hand
  with no pair or one pair, and by trips when the front then holds a pair.

The joker is the bug: for pairing it is an ace (RULES A8).

>>> s = house_way("JK 4S 5D 5C 6H 7S 7D")
>>> s.codes()
{'back': ['4S', '5D', '5C', '7S', '7D'], 'front': ['JK', '6H']}
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from dealer.core.cards import Card
from dealer.core.errors import IllegalOperation
from dealer.core.evaluation.batch import card_id, evaluate_batch
from dealer.core.evaluation.ranking import Ranking
from dealer.core.evaluation.scalar import evaluate, to_cards
from dealer.core.evaluation.tables import HIGH_RANKS, HIGH_SHIFT, JOKER_HIGH, LOW_RANKS
from dealer.core.evaluation.values import Category, HandValue

__all__ = ["HouseWay", "Setting", "DEFAULT_HOUSE_WAY", "SIMPLE_HOUSE_WAY", "house_way",
           "house_way_batch", "setting_values", "FRONT_PAIRS"]

PG = Ranking.PAI_GOW
# Straight policy classes of a rank pattern.
PLAY_STRAIGHT = 0  # no pair / one pair: a straight or flush goes in back when there is one
PLAY_STRAIGHT_IF_PAIR_FRONT = 1  # trips: only when the front then holds a pair
IGNORE_STRAIGHT = 2

# The 21 ways to choose the two front cards of seven (positions), and the five back positions.
FRONT_PAIRS: tuple[tuple[int, int], ...] = tuple(itertools.combinations(range(7), 2))
BACK_FIVES: tuple[tuple[int, ...], ...] = tuple(tuple(i for i in range(7) if i not in f) for f in FRONT_PAIRS)


@dataclass(frozen=True)
class HouseWay:
    """The configurable points of a house way (see the module docs); defaults are a common casino way."""

    name: str = "casino"
    keep_two_pair_with_ace: int = 10  # keep two pair together with an ace single if high pair <= this
    keep_two_pair_with_king: int = 6  # ... or with a king single if high pair <= this
    split_three_aces: bool = True
    quads_together_at_most: int = 6
    quads_keep_with_ace_at_most: int = 13
    play_straights: bool = True


DEFAULT_HOUSE_WAY = HouseWay()
# A plain way: always split two pair, never keep quads together, straights/flushes still played.
SIMPLE_HOUSE_WAY = HouseWay("simple", keep_two_pair_with_ace=0, keep_two_pair_with_king=0,
                            quads_together_at_most=0, quads_keep_with_ace_at_most=0)
HOUSE_WAYS = {w.name: w for w in (DEFAULT_HOUSE_WAY, SIMPLE_HOUSE_WAY)}


@dataclass(frozen=True)
class Setting:
    """A set hand: five cards in back, two in front; ``foul`` when the back does not outrank the front."""

    back: tuple[Card, ...]
    front: tuple[Card, ...]

    def __post_init__(self) -> None:
        if len(self.back) != 5 or len(self.front) != 2:
            raise IllegalOperation(
                f"RULES A8: a pai gow hand is set as five cards in back and two in front, got "
                f"{len(self.back)} and {len(self.front)}")

    @property
    def back_value(self) -> HandValue:
        return evaluate(self.back, PG)

    @property
    def front_value(self) -> HandValue:
        return evaluate(self.front, PG)

    @property
    def foul(self) -> bool:
        """RULES A8: the back hand must outrank the front hand."""
        return not self.back_value > self.front_value

    def codes(self) -> dict[str, list[str]]:
        return {"back": [c.code for c in self.back], "front": [c.code for c in self.front]}

    def to_json(self) -> dict[str, object]:
        return self.codes() | {"back_hand": str(self.back_value), "front_hand": str(self.front_value),
                               "foul": self.foul}

    @classmethod
    def from_front(cls, cards: Iterable[Card | str] | str, front: Iterable[Card | str] | str) -> Setting:
        hand, front_cards = list(to_cards(cards)), to_cards(front)
        for card in front_cards:
            if card not in hand:
                raise IllegalOperation(f"{card.code} is not in the hand {' '.join(c.code for c in hand)}")
            hand.remove(card)
        return cls(tuple(hand), front_cards)


def _effective_rank(card: Card) -> int:
    if card.is_joker:
        return 14
    assert card.rank is not None
    return card.rank.high


def rank_way(counts: dict[int, int], way: HouseWay) -> tuple[tuple[int, int], int]:
    """The front's two ranks by the house way for seven cards given as {rank: count}, and the hand's
    straight policy class. Ranks are 2..14 with the bug counted as an ace."""
    groups: dict[int, list[int]] = {1: [], 2: [], 3: [], 4: [], 5: []}
    for rank in sorted(counts, reverse=True):
        groups[counts[rank]].append(rank)
    singles, pairs, trips, quads = groups[1], groups[2], groups[3], groups[4]
    if groups[5]:  # five aces
        return ((13, 13) if 13 in pairs else (14, 14)), IGNORE_STRAIGHT
    if quads:
        q = quads[0]
        if pairs or trips:
            best_pair = max(pairs + trips)
            return (best_pair, best_pair), IGNORE_STRAIGHT
        if q <= way.quads_together_at_most:
            return (singles[0], singles[1]), IGNORE_STRAIGHT
        if q < 14 and q <= way.quads_keep_with_ace_at_most and singles[0] == 14:
            return (singles[0], singles[1]), IGNORE_STRAIGHT
        return (q, q), IGNORE_STRAIGHT
    if len(trips) == 2:
        return (trips[0], trips[0]), IGNORE_STRAIGHT
    if trips and pairs:
        return (pairs[0], pairs[0]), IGNORE_STRAIGHT
    if trips:
        if trips[0] == 14 and way.split_three_aces:
            return (14, singles[0]), PLAY_STRAIGHT_IF_PAIR_FRONT
        return (singles[0], singles[1]), PLAY_STRAIGHT_IF_PAIR_FRONT
    if len(pairs) == 3:
        return (pairs[0], pairs[0]), IGNORE_STRAIGHT
    if len(pairs) == 2:
        high, low = pairs
        keep = high < 14 and (
            (singles[0] == 14 and high <= way.keep_two_pair_with_ace)
            or (singles[0] == 13 and high <= way.keep_two_pair_with_king))
        if keep:
            return (singles[0], singles[1]), IGNORE_STRAIGHT
        return (low, low), IGNORE_STRAIGHT
    if pairs:
        return (singles[0], singles[1]), PLAY_STRAIGHT
    return (singles[1], singles[2]), PLAY_STRAIGHT


def _front_by_ranks(hand: tuple[Card, ...], ranks: tuple[int, int]) -> tuple[int, int]:
    """Positions of the first cards with the two front ranks (the bug counts as an ace)."""
    first = next(i for i, c in enumerate(hand) if _effective_rank(c) == ranks[0])
    second = next(i for i, c in enumerate(hand) if i != first and _effective_rank(c) == ranks[1])
    return first, second


def _setting(hand: tuple[Card, ...], front: tuple[int, int]) -> Setting:
    return Setting(tuple(c for i, c in enumerate(hand) if i not in front), (hand[front[0]], hand[front[1]]))


def _straight_choice(values: list[tuple[int, int]], policy: int) -> int | None:
    """Index of the straight-or-better setting the policy plays, from (back, front) values, or None."""
    best: tuple[int, int] | None = None
    index = None
    for i, (back, front) in enumerate(values):
        if back >> 20 in (Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH) and back > front and (
                best is None or (front, back) > best):
            best, index = (front, back), i
    if best is None:
        return None
    if policy == PLAY_STRAIGHT_IF_PAIR_FRONT and best[0] >> 20 != Category.PAIR:
        return None
    return index


def house_way(cards: Iterable[Card | str] | str, way: HouseWay = DEFAULT_HOUSE_WAY) -> Setting:
    """The banker's setting of seven cards by the house way (RULES A8)."""
    hand = to_cards(cards)
    if len(hand) != 7:
        raise IllegalOperation(f"RULES A8: a pai gow hand has seven cards, got {len(hand)}")
    evaluate(hand, PG)  # validates the cards
    counts: dict[int, int] = {}
    for card in hand:
        counts[_effective_rank(card)] = counts.get(_effective_rank(card), 0) + 1
    ranks, policy = rank_way(counts, way)
    if way.play_straights and policy != IGNORE_STRAIGHT and evaluate(hand, PG).category in (
            Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH):
        values = [(int(evaluate([hand[i] for i in b], PG)), int(evaluate([hand[i] for i in f], PG)))
                  for f, b in zip(FRONT_PAIRS, BACK_FIVES, strict=True)]
        choice = _straight_choice(values, policy)
        if choice is not None:
            return _setting(hand, FRONT_PAIRS[choice])
    return _setting(hand, _front_by_ranks(hand, ranks))


# --- batch ------------------------------------------------------------------------------------------


@cache
def _rank_way_table(way: HouseWay) -> npt.NDArray[np.int32]:
    """``rank_way`` for every seven-card rank multiset, by the evaluator's multiset index:
    first rank | second rank << 4 | policy << 8."""
    t = PG.tables()
    table = np.zeros(t.ranks.shape[0], dtype=np.int32)
    for jokers in (0, 1):
        for combo in itertools.combinations_with_replacement(range(13), 7 - jokers):
            counts: dict[int, int] = {}
            for r in combo:
                counts[r + 2] = counts.get(r + 2, 0) + 1
            if max(counts.values()) > 4:
                continue
            low = sum(c * 5 ** (r - 2) for r, c in counts.items() if r - 2 < LOW_RANKS)
            high = sum(c * 5 ** (r - 2 - LOW_RANKS) for r, c in counts.items() if r - 2 >= LOW_RANKS)
            index = t.low[low] + t.high[high + jokers * JOKER_HIGH]
            if jokers:
                counts[14] = counts.get(14, 0) + 1
            (a, b), policy = rank_way(counts, way)
            table[index] = a | b << 4 | policy << 8
    assert HIGH_RANKS == 6
    return table


def setting_values(hands: npt.NDArray[np.integer],
                   fronts: npt.NDArray[np.integer]) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Back and front values of settings given as (N, 7) ids and (N, 2) front positions."""
    rows = np.arange(hands.shape[0])[:, None]
    keep = np.ones(hands.shape, dtype=bool)
    keep[rows, fronts] = False
    backs = hands[keep].reshape(-1, 5)
    front_ids = np.take_along_axis(hands, fronts, axis=1)
    return evaluate_batch(backs, PG, check=False), evaluate_batch(front_ids, PG, check=False)


def house_way_batch(hands: npt.NDArray[np.integer],
                    way: HouseWay = DEFAULT_HOUSE_WAY) -> npt.NDArray[np.int8]:
    """Front positions (N, 2) of the house-way setting of each (N, 7) row of card ids (53-card pack)."""
    hands = np.asarray(hands)
    if hands.ndim != 2 or hands.shape[1] != 7:
        raise ValueError(f"expected an (N, 7) array of card ids, got shape {hands.shape}")
    t = PG.tables()
    key = t.card_key[hands].sum(axis=1)
    index = t.low[key & 0x1FFFF] + t.high[(key >> HIGH_SHIFT) & 0x7FFF]
    code = _rank_way_table(way)[index]
    eff = np.where(hands == 52, 14, hands // 4 + 2).astype(np.int32)
    first_rank, second_rank, policy = code & 15, (code >> 4) & 15, code >> 8
    first = np.argmax(eff == first_rank[:, None], axis=1)
    columns = np.arange(7)[None, :]
    second = np.argmax((eff == second_rank[:, None]) & (columns != first[:, None]), axis=1)
    fronts = np.stack([first, second], axis=1).astype(np.int8)
    if not way.play_straights:
        return fronts
    whole = evaluate_batch(hands, PG, check=False) >> 20
    rows = np.flatnonzero((policy != IGNORE_STRAIGHT) & _straight_or_flush(whole))
    if rows.size == 0:
        return fronts
    sub = hands[rows]
    backs = sub[:, np.array(BACK_FIVES)].reshape(-1, 5)
    front_ids = sub[:, np.array(FRONT_PAIRS)].reshape(-1, 2)
    back_v = evaluate_batch(backs, PG, check=False).reshape(-1, 21).astype(np.int64)
    front_v = evaluate_batch(front_ids, PG, check=False).reshape(-1, 21).astype(np.int64)
    cat = back_v >> 20
    ok = _straight_or_flush(cat) & (back_v > front_v)
    score = np.where(ok, front_v << 25 | back_v, -1)
    best = np.argmax(score, axis=1)
    best_front = front_v[np.arange(rows.size), best]
    play = ok.any(axis=1) & ((policy[rows] == PLAY_STRAIGHT) | ((best_front >> 20) == Category.PAIR))
    chosen = np.array(FRONT_PAIRS, dtype=np.int8)[best]
    fronts[rows[play]] = chosen[play]
    return fronts


def _straight_or_flush(category: npt.NDArray[np.integer]) -> npt.NDArray[np.bool_]:
    wanted = np.array([Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH])
    return np.isin(category, wanted)


def ids_of(cards: Iterable[Card]) -> list[int]:
    return [card_id(c) for c in cards]
