"""The one result type of recognition: a validated, frozen :class:`Sighting`.

Vision knows nothing of the rules core; it reports plain card codes (``AS``, ``10H``, ``JK`` for a
joker, ``BK`` for a face-down card) with the evidence behind them.

>>> s = Sighting("10H", 0.97, ((0, 0), (63, 0), (63, 88), (0, 88)))
>>> s.rank, s.suit, s.to_json()["card"]
('10', 'H', '10H')
>>> Sighting("1H", 0.5, ((0, 0), (1, 0), (1, 1)))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
vision.errors.SightingError: card code '1H' is not valid: ...
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from vision.errors import SightingError

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
RED_SUITS = frozenset({"H", "D"})
JOKER = "JK"
BACK = "BK"
FACES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)  # the 52, suit by suit
CODES: tuple[str, ...] = FACES + (JOKER, BACK)
_CODE = re.compile(r"^(?:(A|[2-9]|10|J|Q|K)([SHDC])|JK|BK)$")

Point = tuple[float, float]


def is_card_code(code: str) -> bool:
    """Whether ``code`` is a code vision can report."""
    return bool(_CODE.match(code))


def _points(name: str, value: Any, minimum: int) -> tuple[Point, ...]:
    try:
        pts = tuple((float(p[0]), float(p[1])) for p in value)
    except (TypeError, ValueError, IndexError) as exc:
        raise SightingError(f"{name} must be a sequence of (x, y) points, got {value!r}") from exc
    if len(pts) < minimum:
        raise SightingError(f"{name} needs at least {minimum} points, got {len(pts)}")
    if not all(math.isfinite(c) for p in pts for c in p):
        raise SightingError(f"{name} has a non-finite coordinate: {pts!r}")
    return pts


@dataclass(frozen=True, slots=True)
class Sighting:
    """One card seen in one frame.

    ``outline`` is the visible card outline in image pixels (four corners for a whole card, the
    visible part for an overlapped one). ``index_corner`` is the quadrilateral of the index (rank over
    suit) that was read, or ``None`` for backs. ``confidence`` is in [0, 1].
    """

    card: str
    confidence: float
    outline: tuple[Point, ...]
    index_corner: tuple[Point, ...] | None = None
    evidence: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.card, str) or not _CODE.match(self.card):
            raise SightingError(
                f"card code {self.card!r} is not valid: expected rank A 2-10 J Q K + suit S H D C, or JK / BK"
            )
        conf = float(self.confidence)
        if not (0.0 <= conf <= 1.0):
            raise SightingError(f"confidence must be within [0, 1], got {self.confidence!r}")
        object.__setattr__(self, "confidence", conf)
        object.__setattr__(self, "outline", _points("outline", self.outline, 3))
        if self.index_corner is not None:
            object.__setattr__(self, "index_corner", _points("index_corner", self.index_corner, 4))
        object.__setattr__(self, "evidence", tuple(str(e) for e in self.evidence))

    def shifted(self, dx: float, dy: float) -> Sighting:
        """The same sighting with its points moved by (dx, dy): seen in a crop, placed in the frame."""
        index = None if self.index_corner is None else tuple((x + dx, y + dy) for x, y in self.index_corner)
        outline = tuple((x + dx, y + dy) for x, y in self.outline)
        return Sighting(self.card, self.confidence, outline, index, self.evidence)

    @property
    def rank(self) -> str | None:
        return None if self.card in (JOKER, BACK) else self.card[:-1]

    @property
    def suit(self) -> str | None:
        return None if self.card in (JOKER, BACK) else self.card[-1]

    @property
    def centre(self) -> Point:
        xs = [p[0] for p in self.outline]
        ys = [p[1] for p in self.outline]
        return (sum(xs) / len(xs), sum(ys) / len(ys))

    def to_json(self) -> dict[str, Any]:
        """The CLI/API form: ``{"card", "confidence", "outline", "index_corner"}``."""
        out: dict[str, Any] = {
            "card": self.card,
            "confidence": round(self.confidence, 4),
            "outline": [[round(x, 1), round(y, 1)] for x, y in self.outline],
        }
        if self.index_corner is not None:
            out["index_corner"] = [[round(x, 1), round(y, 1)] for x, y in self.index_corner]
        return out
