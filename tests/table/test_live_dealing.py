"""A live table run by hand, as the dealer page does it: typed cards, a face-down hole card."""

from __future__ import annotations

from pathlib import Path

from dealer.config import load_settings
from dealer.core.games.base import Step
from dealer.store import Role
from dealer.table.host import TableHost

NO_DEVICES = {"shoe": "none", "shuffler": "none", "reels": "none", "camera": "none"}


def test_live_blackjack_with_a_face_down_hole_card_turned_up_by_typing_it(tmp_path: Path) -> None:
    settings = load_settings(None, table={"db": tmp_path / "t.db", "mode": "live"}, devices=NO_DEVICES)
    host = TableHost.open(settings)
    try:
        admin = Role.ADMIN
        host.submit("chips.transfer", {"source": "cage", "target": "seat-1", "amount": 100}, admin)
        assert host.table.prompt().step is Step.SHUFFLE  # type: ignore[union-attr]
        host.act("shuffle")  # the dealer shuffled the physical shoe
        host.submit("blackjack.bet", {"seat": 1, "amount": 10}, admin)
        host.act("deal")
        # RULES A1: one card each and the dealer's upcard, then again; the hole card face down
        for code in ("9S", "7D", "8H", "BK"):
            host.enter_card(code)
        state = host.table.public_state()
        assert state["games"]["blackjack"]["dealer"]["cards"] == ["7D", "BK"]
        host.act("stand")  # 17 stands
        prompt = host.table.prompt()
        assert prompt is not None and prompt.step is Step.DECIDE and "reveal" in prompt.options
        host.enter_card("KC")  # the hole card is turned up: dealer 17 stands (RULES A1)
        game = host.table.public_state()["games"]["blackjack"]
        assert game["dealer"]["cards"] == ["7D", "KC"] and game["dealer"]["total"] == 17
        result = game["last_rounds"][-1]["seats"]["1"]["hands"][0]["result"]
        assert result == "push"  # 17 against 17 is a stand-off
        shoe = host.table.state.require_shoe()
        assert [c.code for c in shoe.dealt] == ["9S", "7D", "8H", "KC"] and shoe.unidentified == 0
    finally:
        host.stop()
