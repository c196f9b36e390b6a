"""Helpers for the shoe-game tests (blackjack, pontoon, baccarat, chemin de fer): live tables whose
cards are fed in a stacked order, and simulated tables driven through the Game protocol."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from dealer.core.cards import Card, parse_cards
from dealer.core.games.base import Step
from dealer.core.operations import Operation
from dealer.core.rng import Rng
from dealer.core.table_state import ShuffleShoe, TableState, TransferChips


class Recorder:
    """A table that keeps every operation it applied (its event log, in memory)."""

    def __init__(self) -> None:
        self.table = TableState()
        self.log: list[Operation] = []

    def apply(self, op: Operation) -> None:
        self.table.apply(op)
        self.log.append(op)

    def buy_in(self, seats: Iterable[int], chips: int = 1000) -> None:
        for seat in seats:
            self.apply(TransferChips("cage", f"seat-{seat}", chips, "buy-in"))

    def shuffle(self, seed: int = 0, cut_behind: int | None = None) -> None:
        self.apply(ShuffleShoe(seed=seed, cut_behind=cut_behind))

    def feed(self, game: Any, codes: str | Iterable[Card]) -> None:
        """Live mode: the cards come out in this order, each through the game's card operation."""
        cards = parse_cards(codes) if isinstance(codes, str) else tuple(codes)
        for card in cards:
            assert game.prompt().step is Step.CARD, game.prompt()
            self.apply(game.card_operation(card))

    def balance(self, account: str) -> int:
        return self.table.ledger.balance(account)


def run_simulated(rec: Recorder, game: Any, place_bets: Any, rounds: int, rng: Rng,
                  max_steps: int = 100_000) -> int:
    """Drive ``rounds`` simulated rounds through prompt → operation → apply. Returns rounds played."""
    played = 0
    steps = 0
    in_round = False
    while played < rounds:
        steps += 1
        assert steps < max_steps, game.prompt()
        prompt = game.prompt()
        if prompt.step is Step.SHUFFLE:
            shoe = rec.table.require_shoe()
            rec.apply(ShuffleShoe(seed=rng.randbelow(2**31), cut_behind=shoe.rules.cut.choose(rng)))
            continue
        if prompt.step is Step.CARD:
            rec.apply(game.card_operation(rec.table.require_shoe().next_card()))
            continue
        if prompt.step is Step.BET:
            if in_round:
                played += 1
                in_round = False
                continue
            for op in place_bets(game):
                rec.apply(op)
            in_round = True
            continue
        op = game.auto_operation()
        assert op is not None, prompt
        rec.apply(op)
    return played


def replay_through_store(log: list[Operation], path: Path) -> TableState:
    """Write ``log`` to a real SQLite event store and rebuild the table from it."""
    from dealer.store import EventStore, rebuild_state

    store = EventStore.open(path)
    try:
        for op in log:
            store.append(op)
        return rebuild_state(store)
    finally:
        close = getattr(store, "close", None)
        if close is not None:
            close()
