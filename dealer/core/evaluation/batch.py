"""Batch evaluation on numpy arrays of card ids, for analysis and simulation.

Card ids are ``4 * rank_index + suit`` (rank_index 0..12 = 2..A, suits C D H S = 0..3) and 52 for
the joker, which plays as the bug (RULES B1, A8). Each row is one hand of 2 to 7 cards from a single
pack; the result holds one packed :class:`~dealer.core.evaluation.values.HandValue` per row.

>>> import numpy as np
>>> hands = encode_hands([["AS", "KS", "QS", "JS", "10S"], ["2C", "2D", "9H", "9S", "KD"]])
>>> values = evaluate_batch(hands)
>>> [str(HandValue(v)) for v in values]
['royal flush', 'two pair, nines and twos']
>>> str(HandValue(evaluate_batch(encode_hands([["JK", "6H"]]), Ranking.PAI_GOW)[0]))
'ace high'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from dealer.core.cards import Card, parse_card
from dealer.core.errors import CardCodeError
from dealer.core.evaluation.ranking import Ranking
from dealer.core.evaluation.tables import HIGH_SHIFT, JOKER_HIGH, SUIT_SHIFT, Tables
from dealer.core.evaluation.values import HandValue

__all__ = ["card_id", "categories", "encode_hands", "evaluate_batch", "HandValue"]

CHUNK = 1 << 15  # rows per pass: keeps every temporary array in cache
_SUIT_INDEX = {"C": 0, "D": 1, "H": 2, "S": 3}


def card_id(card: Card | str) -> int:
    """The batch id of one card (52 for a joker)."""
    card = parse_card(card) if isinstance(card, str) else card
    if card.is_joker:
        return 52
    if card.rank is None or card.suit is None:
        raise CardCodeError(f"{card.code} has no face: the evaluator needs face-up cards or a joker")
    return 4 * (card.rank.high - 2) + _SUIT_INDEX[card.suit.value]


def encode_hands(hands: Iterable[Sequence[Card | str]]) -> npt.NDArray[np.uint8]:
    """Rows of cards (or codes) as a 2-D ``uint8`` id array; every row must have the same length."""
    rows = [[card_id(c) for c in hand] for hand in hands]
    if len({len(r) for r in rows}) > 1:
        raise ValueError("every hand in a batch must have the same number of cards")
    return np.array(rows, dtype=np.uint8).reshape(len(rows), -1)


def _check(ids: npt.NDArray[np.integer]) -> None:
    if ids.ndim != 2 or not 1 <= ids.shape[1] <= 7:
        raise ValueError(f"expected an (N, k) array of card ids with 1 <= k <= 7, got shape {ids.shape}")
    if ids.size and (int(ids.min()) < 0 or int(ids.max()) > 52):
        raise ValueError("card ids run from 0 to 51, and 52 for the joker")


def _evaluate_chunk(ids: npt.NDArray[np.integer], t: Tables, out: npt.NDArray[np.int32]) -> None:
    key = t.card_key[ids[:, 0]]
    for column in range(1, ids.shape[1]):
        key += t.card_key[ids[:, column]]
    low = (key & 0x1FFFF).astype(np.intp)
    high = ((key >> HIGH_SHIFT) & 0x7FFF).astype(np.intp)
    out[:] = t.ranks[t.low[low] + t.high[high]]
    if ids.shape[1] < 5:
        return
    suit_field = (key >> SUIT_SHIFT) | ((high >= JOKER_HIGH).astype(np.int64) << 12)
    suits = t.flush_suit[suit_field]
    rows = np.flatnonzero(suits >= 0)
    if rows.size == 0:
        return
    sub = ids[rows]
    in_suit = t.card_suit[sub] == suits[rows, None]
    mask = np.where(in_suit | (sub == 52), t.card_bit[sub], 0).sum(axis=1)
    out[rows] = np.maximum(out[rows], t.flush[mask])


def evaluate_batch(ids: npt.NDArray[np.integer], ranking: Ranking = Ranking.STANDARD,
                   *, check: bool = True) -> npt.NDArray[np.int32]:
    """Values of an ``(N, k)`` array of card ids (k = 1..7); five or more cards use the best five.

    Hands of fewer than five cards are front hands: pairs and trips count, straights and flushes do
    not (RULES A8, A9). Pass ``check=False`` to skip the range check on trusted input.
    """
    ids = np.asarray(ids)
    if check:
        _check(ids)
    t = ranking.tables()
    out = np.empty(ids.shape[0], dtype=np.int32)
    for start in range(0, ids.shape[0], CHUNK):
        _evaluate_chunk(ids[start:start + CHUNK], t, out[start:start + CHUNK])
    return out


def categories(values: npt.NDArray[np.integer]) -> npt.NDArray[np.int32]:
    """The :class:`~dealer.core.evaluation.values.Category` number of each value."""
    return (np.asarray(values) >> 20).astype(np.int32)
