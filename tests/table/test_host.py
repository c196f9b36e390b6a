"""A whole table run by its host: simulated players, the engine, devices on ptys, the camera."""

from __future__ import annotations

import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dealer.config import load_settings
from dealer.core.games.base import Step
from dealer.table.host import TableHost

NO_DEVICES = {"shoe": "none", "shuffler": "none", "reels": "none", "camera": "none"}


def host_for(tmp_path: Path, devices: dict[str, str], **table: Any) -> TableHost:
    settings = load_settings(None, table={"db": tmp_path / "t.db", "pace_ms": 0, **table}, devices=devices)
    return TableHost.open(settings)


def run(host: TableHost, steps: int) -> None:
    for _ in range(steps):
        if not host.step():
            break


def dealt_cards(host: TableHost) -> list[str]:
    return [c.code for c in host.table.state.require_shoe().dealt if not c.is_back]


def test_simulated_blackjack_settles_rounds_and_conserves_chips(tmp_path: Path) -> None:
    host = host_for(tmp_path, NO_DEVICES)
    try:
        run(host, 250)
        state = host.table.public_state()
        assert sum(state["balances"].values()) == 0  # chips only move between accounts
        assert len(host.table.history) >= 5
        assert host.table.history[-1]["round"] > host.table.history[0]["round"]
        counts = Counter(dealt_cards(host))
        assert max(counts.values()) <= 6  # a 6-deck shoe: no card dealt more often than it holds
        assert state["shoe"]["faults"] == []
    finally:
        host.stop()


def test_device_shoe_and_camera_deal_recognise_and_settle(tmp_path: Path) -> None:
    host = host_for(tmp_path, {**NO_DEVICES, "shoe": "sim", "camera": "sim"})
    try:
        assert host.hardware is not None and host.hardware.camera is not None
        assert host.table.state.shoe is not None and host.table.state.shoe.mode.value == "observed"
        run(host, 120)
        state = host.table.public_state()
        assert len(host.table.history) >= 3
        assert state["shoe"]["cards_out"] >= 20 and state["shoe"]["faults"] == []
        assert state["disputes"] == {} and state["paused"] == {}
    finally:
        host.stop()


def test_a_card_nobody_could_read_waits_for_the_dealer(tmp_path: Path) -> None:
    host = host_for(tmp_path, {**NO_DEVICES, "shoe": "sim", "camera": "sim"})
    try:
        while host.table.prompt().step is not Step.CARD:  # type: ignore[union-attr]
            host.step()
        host.hardware.shoe.simulator.command("misread 1")
        before = host.table.state.require_shoe().cards_out
        host.step()
        state = host.table.public_state()
        assert state["disputes"] == {"1": "the shoe read nothing, the camera saw nothing"}
        assert state["shoe"]["cards_out"] == before and not host.step()
        host.resolve(1, "KH")  # the dealer turns it over and types it
        assert dealt_cards(host)[-1] == "KH"
        run(host, 10)
        assert host.table.public_state()["shoe"]["cards_out"] > before + 1
    finally:
        host.stop()


def test_witnesses_that_disagree_pause_play_until_the_dealer_decides(tmp_path: Path) -> None:
    host = host_for(tmp_path, {**NO_DEVICES, "shoe": "sim", "camera": "sim"})
    try:
        while host.table.prompt().step is not Step.CARD:  # type: ignore[union-attr]
            host.step()
        cards_before = host.table.state.require_shoe().cards_out
        host.report_card("9S", "6S")  # the reader and the camera disagree
        state = host.table.public_state()
        assert "integrity" in state["paused"]
        assert state["disputes"] == {"1": "the shoe and the camera read the card differently"}
        said = str([state["paused"], state["disputes"]])  # the card may lie face down
        assert "9S" not in said and "6S" not in said
        assert host.table.disputes() == {"1": {"shoe": "9S", "camera": "6S",  # for the dealer
                                               "detail": "the shoe read 9S, the camera saw 6S"}}
        assert not host.step()  # play waits
        host.resolve(1, "6S")
        state = host.table.public_state()
        assert state["paused"] == {} and dealt_cards(host)[-1] == "6S"
        assert state["shoe"]["cards_out"] == cards_before + 1
    finally:
        host.stop()


def test_a_jam_pauses_the_table_until_it_is_cleared(tmp_path: Path) -> None:
    host = host_for(tmp_path, {**NO_DEVICES, "shoe": "sim", "camera": "sim"})
    try:
        run(host, 5)
        simulator = host.hardware.shoe.simulator
        simulator.command("jam")
        deadline = time.monotonic() + 5
        while "shoe" not in host.table.state.paused and time.monotonic() < deadline:
            time.sleep(0.02)
        assert host.table.state.paused == {"shoe": "jam"}
        assert not host.step()
        simulator.command("clear")
        deadline = time.monotonic() + 5
        while host.table.state.paused and time.monotonic() < deadline:
            time.sleep(0.02)
        assert host.table.state.paused == {}
        kinds = [r.kind for r in host.table.store.tail(40)]
        assert "table.pause" in kinds and "table.resume" in kinds  # the fault is in the log
    finally:
        host.stop()


@pytest.mark.parametrize("devices", [NO_DEVICES, {**NO_DEVICES, "shoe": "sim", "camera": "sim"}],
                         ids=["engine", "devices"])
def test_a_restarted_host_resumes_the_same_round(tmp_path: Path, devices: dict[str, str]) -> None:
    host = host_for(tmp_path, devices)
    run(host, 40)
    while host.table.prompt().step is Step.BET:  # type: ignore[union-attr]
        host.step()  # stop somewhere inside a round
    before = host.table.public_state()
    host.stop()
    again = host_for(tmp_path, devices)
    try:
        after = again.table.public_state()
        game_before, game_after = before["games"]["blackjack"], after["games"]["blackjack"]
        assert game_after["round"] == game_before["round"]
        assert game_after["seats"] == game_before["seats"] and game_after["dealer"] == game_before["dealer"]
        assert after["balances"] == before["balances"]
        run(again, 40)  # and play goes on from there
        assert again.table.public_state()["games"]["blackjack"]["round"] > game_before["round"]
    finally:
        again.stop()


def test_slot_spins_turn_the_reel_display_to_the_logged_stops(tmp_path: Path) -> None:
    host = host_for(tmp_path, {**NO_DEVICES, "reels": "sim"}, game="slots")
    try:
        reels = host.hardware.devices["reels"]
        seen = reels.subscribe()
        spins = []
        for _ in range(40):
            host.step()
            spins = [r for r in host.table.store.tail(60) if r.kind == "slots.spin"]
            if len(spins) >= 2:
                break
        assert spins, "no spin was played"
        wanted = spins[-1].data["stops"]
        deadline = time.monotonic() + 10
        positions: dict[int, int] = {}
        while time.monotonic() < deadline and [positions.get(i) for i in range(3)] != wanted:
            event = seen.get(timeout=deadline - time.monotonic())
            if type(event).__name__ == "ReelStopped":
                positions[event.reel] = event.position  # type: ignore[attr-defined]
        assert [positions.get(i) for i in range(3)] == wanted  # RULES H7: the reels show the outcome
        meters = host.meters()
        assert meters["devices"]["reels"]["spins"] >= 1  # the display's own non-volatile meters
        # every logged spin is metered once: a paid game, or a free one (free spins, re-spins)
        played = sum(m["games_played"] + m["free_games"] for m in meters["game"]["machines"].values())
        assert played == len([r for r in host.table.store.records() if r.kind == "slots.spin"])
    finally:
        host.stop()


def test_a_game_whose_pack_the_shoe_device_cannot_hold_is_dealt_by_the_engine(tmp_path: Path) -> None:
    host = host_for(tmp_path, {**NO_DEVICES, "shoe": "sim", "camera": "sim"}, game="pai-gow")
    try:
        assert "shoe" not in host.hardware.devices  # the simulated shoe holds standard packs only
        run(host, 200)
        state = host.table.public_state()
        assert state["shoe"]["faults"] == [] and len(host.table.history) >= 1
    finally:
        host.stop()


def test_taking_over_waits_for_the_step_in_progress_and_nothing_moves_after(tmp_path: Path) -> None:
    """The dealer page's "Take over": once autoplay-off has returned, the table stands still."""
    host = host_for(tmp_path, NO_DEVICES, mode="simulated")
    in_step, finish = threading.Event(), threading.Event()
    late_steps: list[int] = []
    off_returned = threading.Event()

    def hold_the_step() -> None:
        if off_returned.is_set():
            late_steps.append(sum(1 for _ in host.table.store.records()))
        in_step.set()
        finish.wait(10)

    host.before_step = hold_the_step
    try:
        host.start()
        assert host.autoplay and in_step.wait(10)  # autoplay is inside a step, held there
        taking_over = threading.Thread(target=lambda: (host.set_autoplay(False), off_returned.set()))
        taking_over.start()
        taking_over.join(0.3)
        assert taking_over.is_alive()  # the reply waits while the step is unfinished
        finish.set()
        taking_over.join(10)
        assert off_returned.is_set() and not host.autoplay
        records = sum(1 for _ in host.table.store.records())
        time.sleep(0.3)  # the autoplay thread goes round several times (pace 0 waits 0.05 s)
        assert late_steps == [] and sum(1 for _ in host.table.store.records()) == records
    finally:
        finish.set()
        host.stop()
