"""What every game offers the table runtime, whichever game it is.

A game is a state machine over frozen operations (see :mod:`dealer.core.operations`). It runs in two
automation modes with the same operations:

* **live** — a human deals real cards. The camera, a reading shoe or the dealer reports each card;
  the runtime asks :meth:`Game.card_operation` where the rules send it, validates and records it, and
  shows :meth:`Game.prompt` ("dealer draws", "seat 3 to act").
* **simulated** — the engine deals from a known-order shoe, and :meth:`Game.auto_operation` plays
  the decisions a human would otherwise make (basic strategy, drawing rules).

The runtime never needs to know a game's rules: it loops ``prompt → operation → log → apply``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, runtime_checkable

from dealer.core.cards import Card
from dealer.core.operations import Operation


class Step(enum.Enum):
    """The kind of thing that must happen next at the table."""

    BET = "bet"  # waiting for bets / a new round to start
    CARD = "card"  # the next card must come out of the shoe (who gets it: Prompt.who)
    DECIDE = "decide"  # a player or banker must choose (Prompt.options)
    SETTLE = "settle"  # the round is decided; settlement is due
    SHUFFLE = "shuffle"  # the cut card came out: shuffle before the next round
    DONE = "done"  # the game or shoe is over


@dataclass(frozen=True, slots=True)
class Prompt:
    """What must happen next, in terms a dealer or a display can show."""

    step: Step
    who: str | None = None  # "seat-3", "dealer", "banker", "player"...
    options: tuple[str, ...] = ()
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step.value, "who": self.who, "options": list(self.options),
                "text": self.text}


@runtime_checkable
class Game(Protocol):
    """The interface the table runtime drives. State lives in ``TableState.games[name]``."""

    name: ClassVar[str]

    def prompt(self) -> Prompt:
        """What must happen next."""
        ...

    def card_operation(self, card: Card) -> Operation:
        """The operation that gives ``card`` (just out of the shoe) to whoever the rules say."""
        ...

    def auto_operation(self) -> Operation | None:
        """Simulated mode: the engine's own next decision, or None when nothing is automatic."""
        ...

    def to_json(self) -> dict[str, Any]:
        """Public state for the display and the API: never an undealt card."""
        ...
