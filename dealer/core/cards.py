"""Cards and card codes.

A card code is rank + suit: ``AS``, ``10H``, ``QD``; ``JK`` (or ``JK1``/``JK2``) is a joker and
``BK`` a face-down card whose face is unknown. Parsing also accepts ``T`` for ten, suit symbols
(``A♠``, ``T♥``) and lower case; formatting always gives the canonical form.

>>> Card.parse("th")
Card.parse('10H')
>>> str(Card.parse("A♠")), Card.parse("jk2").code
('AS', 'JK2')
>>> parse_cards("AS 10h qd")
(Card.parse('AS'), Card.parse('10H'), Card.parse('QD'))
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass

from dealer.core.errors import CardCodeError


class Suit(enum.Enum):
    """The four French suits, in bridge order (clubs lowest)."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class Rank(enum.IntEnum):
    """Ranks by their face number (ace = 1, king = 13). Games define their own order."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def code(self) -> str:
        return _RANK_CODES[self]

    @property
    def high(self) -> int:
        """Poker-style value with the ace high: 2..14."""
        return 14 if self is Rank.ACE else int(self)

    @property
    def is_face(self) -> bool:
        return self >= Rank.JACK


_RANK_CODES = {r: ("A" if r == 1 else "J" if r == 11 else "Q" if r == 12 else "K" if r == 13
                   else str(int(r))) for r in Rank}
_RANK_BY_CODE = {code: rank for rank, code in _RANK_CODES.items()} | {"T": Rank.TEN, "1": Rank.ACE}


class CardKind(enum.Enum):
    FACE = "face"  # an ordinary rank-and-suit card
    JOKER = "joker"
    BACK = "back"  # face down: present, but its face is not known


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Immutable and hashable; construct with :meth:`parse` or :meth:`of`."""

    kind: CardKind
    rank: Rank | None = None
    suit: Suit | None = None
    joker: int = 0  # 0 = an unnumbered joker, 1 or 2 to tell a pack's two jokers apart

    def __post_init__(self) -> None:
        if self.kind is CardKind.FACE and (self.rank is None or self.suit is None):
            raise CardCodeError("a face card needs both a rank and a suit")
        if self.kind is not CardKind.FACE and (self.rank is not None or self.suit is not None):
            raise CardCodeError(f"a {self.kind.value} card has no rank or suit")
        if self.joker and self.kind is not CardKind.JOKER:
            raise CardCodeError("only jokers carry a joker number")

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | str) -> Card:
        return cls(CardKind.FACE, Rank(rank), suit if isinstance(suit, Suit) else Suit(suit))

    @classmethod
    def parse(cls, code: str) -> Card:
        """Parse a card code; raise :class:`CardCodeError` (a ``ValueError``) naming the code."""
        return parse_card(code)

    @property
    def code(self) -> str:
        if self.kind is CardKind.JOKER:
            return f"JK{self.joker}" if self.joker else "JK"
        if self.kind is CardKind.BACK:
            return "BK"
        assert self.rank is not None and self.suit is not None
        return self.rank.code + self.suit.value

    @property
    def is_joker(self) -> bool:
        return self.kind is CardKind.JOKER

    @property
    def is_back(self) -> bool:
        return self.kind is CardKind.BACK

    @property
    def pretty(self) -> str:
        """Human form with a suit symbol: ``A♠``."""
        if self.suit is None or self.rank is None:
            return self.code
        return self.rank.code + self.suit.symbol

    def sort_key(self) -> tuple[int, int, int]:
        """Suit-major order (clubs..spades, ace low), jokers after, backs last."""
        if self.kind is CardKind.FACE:
            assert self.suit is not None and self.rank is not None
            return (0, list(Suit).index(self.suit), int(self.rank))
        return (1 if self.is_joker else 2, 0, self.joker)

    def __str__(self) -> str:
        return self.code

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self  # immutable: copies of a table state share their cards

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


JOKER = Card(CardKind.JOKER)
BACK = Card(CardKind.BACK)

_SUIT_BY_CHAR = {s.value: s for s in Suit} | {
    "♠": Suit.SPADES, "♤": Suit.SPADES, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
}
_FACE_RE = re.compile(r"^(10|[2-9TAJQK])(.)$")
_EXPECTED = "rank A 2-10 (or T) J Q K followed by suit S H D C (or ♠ ♥ ♦ ♣), JK/JK1/JK2 or BK"


def parse_card(code: str) -> Card:
    """Parse one card code (see module docs)."""
    if not isinstance(code, str):
        raise CardCodeError(f"card code must be a string, got {type(code).__name__}")
    text = code.strip().upper()
    if text in ("JK", "JK0", "JOKER"):
        return JOKER
    if text in ("JK1", "JK2"):
        return Card(CardKind.JOKER, joker=int(text[2]))
    if text in ("BK", "XX", "??"):
        return BACK
    match = _FACE_RE.match(text)
    if match is None or match.group(2) not in _SUIT_BY_CHAR:
        raise CardCodeError(f"bad card code {code!r}: expected {_EXPECTED}")
    return Card(CardKind.FACE, _RANK_BY_CODE[match.group(1)], _SUIT_BY_CHAR[match.group(2)])


def parse_cards(codes: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse codes separated by spaces or commas (or an iterable of codes)."""
    items = re.split(r"[\s,]+", codes.strip()) if isinstance(codes, str) else list(codes)
    return tuple(parse_card(c) for c in items if c)


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(c.code for c in cards)
