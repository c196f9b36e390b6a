"""Simulated play: the engine deals and decides, step by step, at a pace people can watch.

One step asks the game what must happen next and produces the operation for it:

* a card is due: the next card of the table's known-order shoe, through ``game.card_operation``
  (with devices attached, the shoe device deals instead and the card arrives as an event);
* a shuffle is due: a new shuffle with the cut card placed by the house rule;
* anything else: the game's own ``auto_operation`` (basic strategy, drawing rules, settling), and
  simulated players (:mod:`dealer.table.players`) for the bets.

Games that count their own cards (faro, trente et quarante, red dog, the pot games; see
:attr:`~dealer.table.games.GameEntry.cards_seen`) do not record the table's shoe themselves, so a
card takes two steps: ``shoe.deal`` (the card left the shoe) and then the game's card operation
with that card. Their shuffle is two steps as well: the shoe, then the game's own new deal. Before
the first card such a game gets the shoe it is dealt from (one pack for faro, the game's decks
for trente et quarante), loaded in place of the table's default shoe.
"""

from __future__ import annotations

import importlib
from typing import Any

from dealer.core.games.base import Step
from dealer.core.operations import Operation
from dealer.core.rng import Rng
from dealer.core.shoe import ShoeMode
from dealer.core.table_state import DealCard, LoadShoe, ShuffleShoe, TransferChips
from dealer.table.games import GameEntry, find_entry
from dealer.table.players import BETTORS, SEATED, Players, Seating
from dealer.table.runtime import Table


def next_operation(table: Table, rng: Rng | None = None, players: Players = 3) -> Operation | None:
    """The operation simulated play performs next, or None when it must wait. ``players`` is a
    number of simulated seats, or a :class:`~dealer.table.players.Seating` (a night's players)."""
    game = table.game
    if game is None or table.paused:
        return None
    rng = rng or Rng.system()
    entry = find_entry(table.game_name)
    if entry is not None:
        op = _shoe_for_the_round(table, entry, game, rng)
        if op is not None:
            return op
    if entry is not None and entry.counts_own_cards:
        return _own_count_operation(table, entry, game, rng, players)
    prompt = game.prompt()
    shoe = table.state.shoe
    if prompt.step is Step.SHUFFLE:
        if shoe is None or shoe.mode is not ShoeMode.KNOWN:
            return None
        return ShuffleShoe(cut_behind=shoe.rules.cut.choose(rng))
    if prompt.step is Step.CARD:
        if shoe is None or shoe.mode is not ShoeMode.KNOWN or not shoe.can_draw():
            return None
        return game.card_operation(shoe.next_card())
    if prompt.step is Step.DONE:
        return None
    if prompt.step is Step.BET:  # the players first: the game starts the round once they are done
        op = _bettor(table, game, players, rng)
        return op if op is not None else game.auto_operation()
    op = game.auto_operation()
    if op is None:
        op = _bettor(table, game, players, rng)
    return op


def _shoe_for_the_round(table: Table, entry: GameEntry, game: Any, rng: Rng) -> Operation | None:
    """Between rounds of a simulated game: the shoe this game is dealt from (loaded in place of the
    table's default), shuffled, and shuffled again before each round of a fresh-pack game."""
    shoe = table.state.shoe
    if shoe is None or shoe.mode is not ShoeMode.KNOWN or not entry.is_between_rounds(game):
        return None
    wanted = entry.shoe_rules(game)
    if wanted is not None and shoe.rules != wanted:
        return LoadShoe(decks=wanted.decks, pack=wanted.pack, cut_min=wanted.cut.min_behind,
                        cut_max=wanted.cut.max_behind, burn=wanted.burn, mode=ShoeMode.KNOWN)
    if not shoe.is_shuffled or (entry.fresh_pack and shoe.cards_out):
        return ShuffleShoe(cut_behind=shoe.rules.cut.choose(rng))
    return None


def _bettor(table: Table, game: Any, players: Players, rng: Rng) -> Operation | None:
    name = table.game_name or ""
    bettor = BETTORS.get(name)
    if bettor is None and name.startswith("scorebook:"):
        bettor = BETTORS.get("scorebook")
    if bettor is None:
        return None
    module = importlib.import_module(type(game).__module__)
    seating = players if isinstance(players, Seating) else None
    given: Any = players if seating is None or name in SEATED else max(seating.seats, default=0)
    op = bettor(module, table.state, game, given, rng)
    if seating is not None and not seating.buy_in and isinstance(op, TransferChips) and op.source == "cage":
        return None  # chips come to a night's table only with a player who sits down
    return op


def _own_count_operation(table: Table, entry: GameEntry, game: Any, rng: Rng,
                         players: Players) -> Operation | None:
    assert entry.cards_seen is not None
    shoe = table.state.shoe
    if shoe is None or shoe.mode is not ShoeMode.KNOWN:
        # a physical shoe: the cards come from the devices or the dealer; only decisions are ours
        op = game.auto_operation() if game.prompt().step is not Step.CARD else None
        return op if op is not None else _bettor(table, game, players, rng)
    pending = len(shoe.dealt) - entry.cards_seen(game)
    if pending > 0:  # a card left the shoe and the game has not had it yet
        return game.card_operation(shoe.dealt[-pending])
    if shoe.dealt and _just_dealt(table):  # the counts drifted (a card typed by hand): the last one
        return game.card_operation(shoe.dealt[-1])
    prompt = game.prompt()
    if prompt.step is Step.SHUFFLE:
        if shoe.cards_out:  # the shoe first, then the game's own new deal
            return ShuffleShoe(cut_behind=shoe.rules.cut.choose(rng))
        return game.auto_operation()
    if prompt.step is Step.DONE:
        return None
    if prompt.step is not Step.CARD:
        op = game.auto_operation()
        return op if op is not None else _bettor(table, game, players, rng)
    op = _bettor(table, game, players, rng)  # bets open while the dealer waits to turn a card
    if op is not None:
        return op
    if shoe.burns_due:
        return table.state.next_deal()
    if not shoe.can_draw():  # the game wants more cards than this shoe holds: refill it
        return ShuffleShoe(cut_behind=shoe.rules.cut.choose(rng))
    return DealCard(shoe.next_card())


def _just_dealt(table: Table) -> bool:
    """The last record is a card out of the shoe (not a burn) that no game operation took yet."""
    last = table.store.tail(1)
    return bool(last) and last[0].kind == DealCard.kind and not last[0].data.get("burn")

