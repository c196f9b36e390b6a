"""Simulated play: the engine deals and decides, step by step, at a pace people can watch.

One step asks the game what must happen next and produces the operation for it:

* a card is due: the next card of the table's known-order shoe, through ``game.card_operation``
  (with devices attached, the shoe device deals instead and the card arrives as an event);
* a shuffle is due: a new shuffle with the cut card placed by the house rule;
* anything else: the game's own ``auto_operation`` (basic strategy, drawing rules, settling), and
  simulated players (:mod:`dealer.table.players`) for the bets.
"""

from __future__ import annotations

import importlib

from dealer.core.games.base import Step
from dealer.core.operations import Operation
from dealer.core.rng import Rng
from dealer.core.shoe import ShoeMode
from dealer.core.table_state import ShuffleShoe
from dealer.table.players import BETTORS
from dealer.table.runtime import Table


def next_operation(table: Table, rng: Rng | None = None, players: int = 3) -> Operation | None:
    """The operation simulated play performs next, or None when it must wait."""
    game = table.game
    if game is None or table.paused:
        return None
    prompt = game.prompt()
    shoe = table.state.shoe
    if prompt.step is Step.SHUFFLE:
        if shoe is None or shoe.mode is not ShoeMode.KNOWN:
            return None
        return ShuffleShoe(cut_behind=shoe.rules.cut.choose(rng or Rng.system()))
    if prompt.step is Step.CARD:
        if shoe is None or shoe.mode is not ShoeMode.KNOWN or not shoe.can_draw():
            return None
        return game.card_operation(shoe.next_card())
    if prompt.step is Step.DONE:
        return None
    op = game.auto_operation()
    if op is None and prompt.step is Step.BET and table.game_name in BETTORS:
        module = importlib.import_module(type(game).__module__)
        op = BETTORS[table.game_name](module, table.state, game, players, rng or Rng.system())
    return op


def play_steps(table: Table, steps: int, rng: Rng | None = None) -> int:
    """Run up to ``steps`` operations; returns how many were done (stops early when it must wait)."""
    done = 0
    for _ in range(steps):
        op = next_operation(table, rng)
        if op is None:
            break
        table.submit(op)
        done += 1
    return done

