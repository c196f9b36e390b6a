"""Money in integer chips, exact payout ratios and explicit rounding.

Amounts are plain ``int`` chip units. A payout is ``stake × ratio`` computed with
:class:`fractions.Fraction`; when that is not a whole number of chips the house rounding rule
decides, and the fraction rounded away is kept in :attr:`Payout.remainder` so it can be recorded.

>>> pay(10, THREE_TO_TWO)
Payout(stake=10, amount=15, remainder=Fraction(0, 1))
>>> pay(5, THREE_TO_TWO)       # 7.5 chips: the house rounds down by default
Payout(stake=5, amount=7, remainder=Fraction(1, 2))
>>> pay(5, THREE_TO_TWO, Rounding.HALF_UP).amount
8
>>> commission(25, Ratio(5, 100))  # 5 % of 25 = 1.25: commission rounds up by default
Payout(stake=25, amount=2, remainder=Fraction(-3, 4))
"""

from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass
from fractions import Fraction

from dealer.core.errors import MoneyError

Chips = int


class Rounding(enum.Enum):
    """What to do with a fractional chip. DOWN/UP are toward zero/away from zero."""

    DOWN = "down"
    UP = "up"
    HALF_UP = "half-up"
    EXACT = "exact"  # refuse: the stake must divide evenly

    def apply(self, value: Fraction) -> int:
        if value.denominator == 1:
            return int(value)
        if self is Rounding.DOWN:
            return math.floor(value)
        if self is Rounding.UP:
            return math.ceil(value)
        if self is Rounding.HALF_UP:
            return math.floor(value + Fraction(1, 2))
        raise MoneyError(f"{value} is not a whole number of chips and the rounding rule is exact")


@dataclass(frozen=True, slots=True)
class Ratio:
    """A payout ratio ``win:stake`` such as 3:2 (pays 3 for every 2 staked)."""

    win: int
    stake: int

    def __post_init__(self) -> None:
        if self.stake <= 0 or self.win < 0:
            raise MoneyError(f"a payout ratio needs win >= 0 and stake > 0, not {self.win}:{self.stake}")

    @classmethod
    def parse(cls, text: str) -> Ratio:
        """Parse ``"3:2"``, ``"6 to 5"``, ``"19/20"`` or ``"1"``."""
        match = re.fullmatch(r"\s*(\d+)\s*(?::|/|to)?\s*(\d+)?\s*", text)
        if match is None:
            raise MoneyError(f"bad payout ratio {text!r}: expected 'WIN:STAKE' such as '3:2'")
        return cls(int(match.group(1)), int(match.group(2) or 1))

    @property
    def fraction(self) -> Fraction:
        return Fraction(self.win, self.stake)

    def __str__(self) -> str:
        return f"{self.win}:{self.stake}"


EVEN = Ratio(1, 1)
THREE_TO_TWO = Ratio(3, 2)
SIX_TO_FIVE = Ratio(6, 5)
TWO_TO_ONE = Ratio(2, 1)
EIGHT_TO_ONE = Ratio(8, 1)
NINETEEN_TO_TWENTY = Ratio(19, 20)


@dataclass(frozen=True, slots=True)
class Payout:
    """A computed amount; ``remainder`` = exact value − amount (what rounding moved)."""

    stake: Chips
    amount: Chips
    remainder: Fraction


def check_chips(amount: object, what: str = "amount") -> Chips:
    """Return ``amount`` if it is a non-negative whole number of chips, else raise MoneyError."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise MoneyError(f"{what} must be a whole number of chips, got {amount!r}")
    if amount < 0:
        raise MoneyError(f"{what} must not be negative, got {amount}")
    return amount


def pay(stake: Chips, ratio: Ratio, rounding: Rounding = Rounding.DOWN) -> Payout:
    """The winnings (not including the returned stake) for ``stake`` at ``ratio``."""
    check_chips(stake, "stake")
    exact = stake * ratio.fraction
    amount = rounding.apply(exact)
    return Payout(stake, amount, exact - amount)


def commission(stake: Chips, rate: Ratio, rounding: Rounding = Rounding.UP) -> Payout:
    """A commission of ``rate`` on ``stake`` (the house's rounding defaults to up)."""
    return pay(stake, rate, rounding)
