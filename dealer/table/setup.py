"""Bring a table to a playable state from its settings (first start, or after a restart)."""

from __future__ import annotations

from dealer.config import Settings
from dealer.core.rng import Rng
from dealer.core.shoe import BurnRule, CutRule, ShoeMode
from dealer.core.table_state import LoadShoe, ObserveShoe, ShuffleShoe
from dealer.store import EventStore
from dealer.table.games import open_game
from dealer.table.runtime import Table

GAME_SOURCE = "game"  # a change of game pauses the table with this source while it happens
GAME_CHANGE = "game change: "  # the pause's reason: "game change: blackjack -> baccarat"


def logged_game(store: EventStore) -> str | None:
    """The game the table's log last changed to (None: the configured game, never changed)."""
    game = None
    for record in store.records():
        if record.kind == "table.pause" and record.data.get("source") == GAME_SOURCE:
            reason = str(record.data.get("reason", ""))
            if reason.startswith(GAME_CHANGE) and " -> " in reason:
                game = reason.rsplit(" -> ", 1)[1].strip()
    return game


def open_table(settings: Settings) -> Table:
    store = EventStore.open(settings.table.db)
    try:
        game = logged_game(store) or settings.table.game
        table = Table(settings.table.name, store, game=game)
        ensure_game(table, settings)  # refuses rules the game does not take
        ensure_shoe(table, settings)
        shoe = table.state.shoe
        if settings.table.mode == "live" and shoe is not None and shoe.mode is ShoeMode.KNOWN:
            table.submit(ObserveShoe())  # a live table's cards are seen, never drawn by the engine
    except BaseException:
        store.close()
        raise
    return table


def ensure_game(table: Table, settings: Settings) -> None:
    """Open the configured game unless the log already has it running (every opening operation:
    buy-ins for games with antes, the book before a scored game, each slot machine)."""
    game = table.game_name or "none"
    open_game(table, game, settings.table.rules if game == settings.table.game else "")


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
