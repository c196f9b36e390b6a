"""``devices.shoe = "avr"``: a baccarat table deals a whole shoe through the reference firmware under simavr,
through TableHost (hardware -> ``open_device("shoe", "avr")``) and through a ``dealer serve`` process."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fb_avr import needs_avr
from serving import Server

from dealer.config import load_settings
from dealer.table.host import TableHost

NO_DEVICES = {"shoe": "none", "shuffler": "none", "reels": "none", "camera": "none"}
WAIT = 240.0  # an upper bound for things that must happen; never reached when they do


def _until(what: str, condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _device(sim: Any, name: str) -> list[tuple[int, dict[str, Any]]]:
    return [(number, values) for _, number, event, values in sim.event_log() if event == name]


def test_a_baccarat_shoe_is_dealt_to_the_cut_card_through_the_firmware(tmp_path: Path) -> None:
    needs_avr()
    settings = load_settings(None, table={"db": tmp_path / "t.db", "pace_ms": 0, "game": "baccarat"},
                             shoe={"decks": 8}, devices={**NO_DEVICES, "shoe": "avr"})
    host = TableHost.open(settings)
    try:
        assert host.hardware is not None and host.hardware.shoe is not None
        sim = host.hardware.shoe.simulator
        host.start()
        # RULES H2: the shoe is dealt down to the cut card, then the table loads a fresh shoe
        _until("the cut card", lambda: _device(sim, "CUT_CARD_REACHED"))
        _until("the next shoe", lambda: sim.stats()["device"]["executed"].get("LOAD", 0) >= 2)
        host.set_autoplay(False)
        with host.step_lock:  # no step in flight: the log and the firmware agree from here on
            cards = _device(sim, "CARD_DEALT")
            cut_number, cut = _device(sim, "CUT_CARD_REACHED")[0]
            first_shoe = [v["code"] for n, v in cards if n < cut_number]
            assert len(first_shoe) == cut["cards_dealt"]
            assert 0 < cut["cards_dealt"] < 8 * 52  # where the table put the cut card when it loaded
            assert all(first_shoe)  # every card was read at the gate
            dealt_now = [c.code for c in host.table.state.require_shoe().dealt]
            device_now = [v["code"] for _, v in cards]
            assert dealt_now == device_now[len(device_now) - len(dealt_now):]  # each card once, in order
        meters = host.hardware.shoe.meters()
        assert meters["cards_dealt"] == len(cards) and meters["cut_cards"] == 1
        assert host.table.public_state()["game"] == "baccarat"
    finally:
        host.stop()


@pytest.mark.slow
def test_dealer_serve_with_the_shoe_on_avr_deals_a_baccarat_shoe_to_the_cut_card(tmp_path: Path) -> None:
    needs_avr()
    env = {"DEALER_DEVICES__SHOE": "avr", "DEALER_DEVICES__SHUFFLER": "none", "DEALER_DEVICES__REELS": "none",
           "DEALER_DEVICES__CAMERA": "none", "DEALER_TABLE__GAME": "baccarat", "DEALER_SHOE__DECKS": "8",
           "DEALER_TABLE__PACE_MS": "0"}
    server = Server(tmp_path / "t.db", env=env)
    try:
        shoe: dict[str, Any] = {}

        def cut_reached() -> bool:
            shoe.update(server.get("/state")["shoe"])
            return bool(shoe["cut_card_reached"])

        _until("the cut card through dealer serve", cut_reached)  # RULES H2
        assert shoe["total"] == 8 * 52 and shoe["cards_out"] >= shoe["cut_index"]
        assert shoe["faults"] == []
        assert server.get("/state")["game"] == "baccarat"
    finally:
        server.stop()
