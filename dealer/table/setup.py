"""Bring a table to a playable state from its settings (first start, or after a restart)."""

from __future__ import annotations

from dealer.config import Settings
from dealer.core.rng import Rng
from dealer.core.shoe import BurnRule, CutRule, ShoeMode
from dealer.core.table_state import LoadShoe, ObserveShoe, ShuffleShoe
from dealer.table.games import open_game
from dealer.table.runtime import Table


def open_table(settings: Settings) -> Table:
    table = Table.open(settings.table.name, settings.table.db, game=settings.table.game)
    ensure_game(table, settings)
    ensure_shoe(table, settings)
    shoe = table.state.shoe
    if settings.table.mode == "live" and shoe is not None and shoe.mode is ShoeMode.KNOWN:
        table.submit(ObserveShoe())  # a live table's cards are seen, never drawn by the engine
    return table


def ensure_game(table: Table, settings: Settings) -> None:
    """Open the configured game unless the log already has it running (every opening operation:
    buy-ins for games with antes, the book before a scored game, each slot machine)."""
    open_game(table, settings.table.game, settings.table.rules)


def ensure_shoe(table: Table, settings: Settings, rng: Rng | None = None) -> None:
    """Load and shuffle a shoe when the log has none (a resumed table keeps its own)."""
    if table.state.shoe is not None:
        return
    shoe = settings.shoe
    mode = ShoeMode.KNOWN if settings.table.mode == "simulated" else ShoeMode.OBSERVED
    table.submit(LoadShoe(decks=shoe.decks, pack=shoe.pack, cut_min=shoe.cut_min, cut_max=shoe.cut_max,
                          burn=BurnRule(shoe.burn), mode=mode))
    cut = CutRule(shoe.cut_min, shoe.cut_max).choose(rng or Rng.system())
    table.submit(ShuffleShoe(cut_behind=cut))
    burn_after_shuffle(table)


def burn_after_shuffle(table: Table) -> None:
    """Simulated shoe: burn the cards the house rule asks for (a live dealer burns by hand)."""
    shoe = table.state.require_shoe()
    while shoe.mode is ShoeMode.KNOWN and shoe.burns_due > 0:
        table.submit(table.state.next_deal())
        shoe = table.state.require_shoe()
