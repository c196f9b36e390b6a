"""Which hand order a game uses.

* ``STANDARD`` — ordinary poker (RULES B1): A-2-3-4-5 is the lowest straight; a joker is the bug.
* ``PAI_GOW`` — A-2-3-4-5 is the second-highest straight, above K-Q-J-10-9 (RULES A8); the joker is
  the bug (in a two-card front it plays as an ace).
* ``PUSOY`` — the standard order with A-2-3-4-5 lowest (RULES A9) and no joker in the pack.
"""

from __future__ import annotations

import enum

from dealer.core.evaluation.tables import Tables, tables


class Ranking(enum.Enum):
    STANDARD = "standard"
    PAI_GOW = "pai-gow"
    PUSOY = "pusoy"

    @property
    def wheel_high(self) -> bool:
        return self is Ranking.PAI_GOW

    def tables(self) -> Tables:
        return tables(self.wheel_high)
