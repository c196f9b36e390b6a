"""Caribbean stud hand classes and the call-bet paytable (RULES A10, 0.1 item 7).

The seed lost its chart ("see chart"); the figures here are the standard casino table [STD], and
every one of them is a house rule.

>>> from dealer.core.evaluation import evaluate
>>> hand_class(evaluate("AS KD 7C 4H 2S")), hand_class(evaluate("AS QD 7C 4H 2S"))
('ace-king', 'no-qualify')
>>> str(DEFAULT_PAYTABLE.ratio("full-house"))
'7:1'
>>> dealer_qualifies(evaluate("AS KD 7C 4H 2S")), dealer_qualifies(evaluate("AS QD JC 10H 8S"))
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from dealer.core.errors import IllegalOperation
from dealer.core.evaluation.values import Category, HandValue
from dealer.core.money import Ratio

__all__ = ["CLASSES", "DEFAULT_PAYTABLE", "QUALIFY", "Paytable", "dealer_qualifies", "hand_class"]

# Best first. "ace-king" is a high-card hand with an ace and a king (the lowest that qualifies).
CLASSES = ("royal-flush", "straight-flush", "four-of-a-kind", "full-house", "flush", "straight",
           "three-of-a-kind", "two-pair", "pair", "ace-king")

_BY_CATEGORY = {Category.STRAIGHT_FLUSH: "straight-flush", Category.FOUR_OF_A_KIND: "four-of-a-kind",
                Category.FULL_HOUSE: "full-house", Category.FLUSH: "flush", Category.STRAIGHT: "straight",
                Category.THREE_OF_A_KIND: "three-of-a-kind", Category.TWO_PAIR: "two-pair",
                Category.PAIR: "pair"}

#: The lowest hand that qualifies the dealer: ace-king high (A-K-4-3-2), RULES A10.
QUALIFY = HandValue.make(Category.HIGH_CARD, 14, 13, 4, 3, 2)


def dealer_qualifies(value: int) -> bool:
    """RULES A10: the dealer needs ace-king or better."""
    return value >= QUALIFY


def hand_class(value: int) -> str:
    """The paytable line of a five-card hand value (``no-qualify`` below ace-king)."""
    hv = HandValue(value)
    if hv.is_royal:
        return "royal-flush"
    if hv.category in _BY_CATEGORY:
        return _BY_CATEGORY[hv.category]
    return "ace-king" if value >= QUALIFY else "no-qualify"


_STANDARD = {"royal-flush": Ratio(100, 1), "straight-flush": Ratio(50, 1), "four-of-a-kind": Ratio(20, 1),
             "full-house": Ratio(7, 1), "flush": Ratio(5, 1), "straight": Ratio(4, 1),
             "three-of-a-kind": Ratio(3, 1), "two-pair": Ratio(2, 1), "pair": Ratio(1, 1),
             "ace-king": Ratio(1, 1)}


@dataclass(frozen=True)
class Paytable:
    """What a winning call bet pays, by the player's hand class ([STD] defaults, configurable)."""

    ratios: Mapping[str, Ratio] = field(default_factory=lambda: MappingProxyType(dict(_STANDARD)))

    def __post_init__(self) -> None:
        missing = [c for c in CLASSES if c not in self.ratios]
        unknown = [c for c in self.ratios if c not in CLASSES]
        if missing or unknown:
            raise IllegalOperation(f"a caribbean stud paytable names every class {list(CLASSES)}; "
                                   f"missing {missing}, unknown {unknown}")

    @classmethod
    def parse(cls, text: str) -> Paytable:
        """``"royal-flush=100:1,straight-flush=50:1"`` — lines not named keep the [STD] value."""
        ratios = dict(_STANDARD)
        for part in filter(None, (p.strip() for p in text.split(","))):
            name, sep, ratio = part.partition("=")
            if not sep or name.strip() not in CLASSES:
                raise IllegalOperation(f"bad paytable entry {part!r}: expected CLASS=WIN:STAKE with CLASS "
                                       f"one of {', '.join(CLASSES)}")
            ratios[name.strip()] = Ratio.parse(ratio)
        return cls(MappingProxyType(ratios))

    def __hash__(self) -> int:
        return hash(tuple(sorted((name, str(r)) for name, r in self.ratios.items())))

    def __deepcopy__(self, memo: dict[int, object]) -> Paytable:
        return self  # immutable (a read-only mapping of frozen ratios): copies of a table share it

    def ratio(self, name: str) -> Ratio:
        return self.ratios[name]

    def to_json(self) -> dict[str, str]:
        return {c: str(self.ratios[c]) for c in CLASSES}


DEFAULT_PAYTABLE = Paytable()
