"""Simulated players for a simulated table: they buy in, bet and start the round.

The games decide everything a rule decides (``auto_operation``); betting is a person's choice, so a
simulated table needs someone to make it. Each game that can be simulated has a bettor here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dealer.core.operations import Operation
from dealer.core.rng import Rng
from dealer.core.table_state import TableState, TransferChips

BUY_IN = 500
Bettor = Callable[[Any, TableState, Any, int, Rng], Operation | None]


def _buy_in_or(table: TableState, account: str, needed: int, then: Operation) -> Operation:
    if table.ledger.balance(account) < needed:
        return TransferChips("cage", account, max(BUY_IN, needed), "simulated player buys in")
    return then


def blackjack_bettor(module: Any, table: TableState, game: Any, players: int, rng: Rng) -> Operation | None:
    rules = game.rules
    for seat in range(1, min(players, rules.seats) + 1):
        current = game.seats.get(seat)
        if current is not None and current.bet:
            continue
        amount = min(rules.max_bet, rules.min_bet * rng.choice((1, 1, 2, 5)))
        op = _buy_in_or(table, f"seat-{seat}", amount, module.PlaceBet(seat, amount))
        if isinstance(op, TransferChips) or game.can_bet(seat, amount):
            return op
    return module.StartRound() if game.can_start() else None


BETTORS: dict[str, Bettor] = {"blackjack": blackjack_bettor}
