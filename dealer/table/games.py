"""The games a table can run, and how to open each with its house rules.

Each entry names the operation that opens the game (it is logged like any other) and builds it
from the house-rules spec in the settings (``[table] rules = "h17,das"``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dealer.core.errors import DealerError, IllegalOperation
from dealer.core.games.base import Prompt
from dealer.core.operations import Operation


@dataclass(frozen=True)
class GameEntry:
    module: str  # under dealer.core.games
    new_operation: str  # the class that opens the game
    description: str
    actions: Callable[[Any, str, Prompt], Operation] | None = None  # (module, option, prompt) -> op

    def _module(self) -> Any:
        return importlib.import_module(f"dealer.core.games.{self.module}")

    def new_game(self, rules: str) -> Operation:
        op: Operation = getattr(self._module(), self.new_operation)(rules=rules)
        return op

    def action(self, option: str, prompt: Prompt) -> Operation:
        if self.actions is None:
            raise IllegalOperation(f"{self.module} takes its decisions as operations (POST /api/operations)")
        return self.actions(self._module(), option, prompt)


def _seat_of(prompt: Prompt) -> int:
    if not prompt.who or not prompt.who.startswith("seat-"):
        raise IllegalOperation(f"the prompt names no seat ({prompt.who!r})")
    return int(prompt.who.removeprefix("seat-"))


def _blackjack_action(module: Any, option: str, prompt: Prompt) -> Operation:
    simple = {"deal": module.StartRound, "peek-clear": module.PeekClear}
    if option in simple:
        op: Operation = simple[option]()
    elif option == "decline":
        op = module.Insure(_seat_of(prompt), 0)
    elif option in ("bet", "insure", "reveal"):
        raise IllegalOperation(f"{option!r} needs an amount or a card: use the form (POST /api/operations or "
                               "/api/cards)")
    else:
        op = module.Act(module.Action(option))
    return op


GAMES: dict[str, GameEntry] = {
    "blackjack": GameEntry("blackjack", "NewBlackjackGame", "Blackjack with a permanent bank (RULES A1)",
                           _blackjack_action),
}


def game_entry(name: str) -> GameEntry:
    try:
        return GAMES[name]
    except KeyError:
        raise DealerError(f"unknown game {name!r}: expected one of {', '.join(sorted(GAMES))}") from None
