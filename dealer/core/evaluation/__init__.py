"""Poker hand evaluation: exact values for 1 to 7 cards, scalar for the rules, batch for analysis.

Scalar (rules, showdowns): :func:`evaluate`, :func:`best_hand`, :func:`omaha_best` take cards or
codes and return a :class:`HandValue` (an ``int``: bigger is better). Batch (analysis): encode hands
as card ids (:func:`encode_hands`, :func:`card_id`) and call :func:`evaluate_batch` on an ``(N, k)``
array. :class:`Ranking` picks the straight order (standard/pusoy: A-2-3-4-5 lowest; pai gow: second
highest); a joker is the bug unless :class:`Wild` makes it fully wild.

>>> from dealer.core.evaluation import evaluate, Ranking
>>> str(evaluate("JK 6H", Ranking.PAI_GOW))
'ace high'
"""

from dealer.core.evaluation.batch import card_id, categories, encode_hands, evaluate_batch
from dealer.core.evaluation.ranking import Ranking
from dealer.core.evaluation.scalar import (
    DEUCES_WILD,
    JOKER_WILD,
    NO_WILD,
    ONE_EYED_JACKS_WILD,
    BestHand,
    Wild,
    best_hand,
    evaluate,
    omaha_best,
    to_cards,
)
from dealer.core.evaluation.values import Category, HandValue, category_of

__all__ = [
    "DEUCES_WILD", "JOKER_WILD", "NO_WILD", "ONE_EYED_JACKS_WILD", "BestHand", "Category", "HandValue",
    "Ranking", "Wild", "best_hand", "card_id", "categories", "category_of", "encode_hands", "evaluate",
    "evaluate_batch", "omaha_best", "to_cards",
]
