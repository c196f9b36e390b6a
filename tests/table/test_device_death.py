"""A table playing on simulated devices on real ptys whose simulator process is killed (SIGKILL) mid-deal or
mid-spin and started again: as when a shoe's cable is kicked out, or its power cut, during play.

The host must pause play with a reason a dealer understands, carry on by itself once the device is back,
and its event log must hold every card the device dealt exactly once (the device's own journal is the
reference). The moment of the kill is forced: the simulator holds its output from the moment it has
executed the command the host is waiting on, and the test kills it then, before the reply leaves.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dealer.config import load_settings
from dealer.table.hardware import link_source
from dealer.table.host import TableHost

NO_DEVICES = {"shoe": "none", "shuffler": "none", "reels": "none", "camera": "none"}
WAIT = 60.0  # an upper bound for things that must happen; never reached when they do


def _host(tmp_path: Path, devices: dict[str, str], **table: Any) -> TableHost:
    settings = load_settings(None, table={"db": tmp_path / "t.db", "pace_ms": 0, **table},
                             devices={**NO_DEVICES, **devices})
    return TableHost.open(settings)


def _until(what: str, condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def _executed(sim: Any, command: str) -> int:
    return int(sim.stats()["device"]["executed"].get(command, 0))


def _kill_while_executing(sim: Any, command: str) -> None:
    """Kill the simulator right after it has run ``command`` and before its reply or events leave."""
    sim.command(f"hold_after {command}")
    _until(f"the device to run a {command}", lambda: sim.stats()["holding"])
    sim.kill()


def _cards_in_log(host: TableHost) -> list[str]:
    return [c.code for c in host.table.state.require_shoe().dealt]


def _cards_dealt_by_device(sim: Any) -> list[str]:
    return [values["code"] for _, _, name, values in sim.event_log() if name == "CARD_DEALT"]


def test_shoe_killed_mid_deal_pauses_with_a_reason_resumes_and_logs_every_card_once(tmp_path: Path) -> None:
    host = _host(tmp_path, {"shoe": "sim"})
    try:
        sim = host.hardware.shoe.simulator
        host.start()  # simulated play deals from the device shoe on its own
        _until("cards from the shoe", lambda: len(_cards_in_log(host)) >= 8)

        _kill_while_executing(sim, "DEAL")
        source = link_source("shoe")
        _until("the table to pause", lambda: source in host.table.state.paused)
        reason = host.table.state.paused[source]
        assert "shoe is not answering" in reason and "resumes by itself" in reason, reason
        out_at_pause = len(_cards_in_log(host))
        assert host.step() is False  # paused: play does not go on without the shoe

        sim.restart()  # the cable is back
        _until("the table to resume", lambda: source not in host.table.state.paused)
        _until("play to go on", lambda: len(_cards_in_log(host)) >= out_at_pause + 8)
        host.set_autoplay(False)
        with host.step_lock:  # no step in flight: the log and the device agree from here on
            _until("the last card to arrive", lambda: len(_cards_in_log(host)) ==
                   len(_cards_dealt_by_device(sim)))
            assert _cards_in_log(host) == _cards_dealt_by_device(sim)  # each card once, none lost
        assert host.table.state.paused == {}
        assert host.table.public_state()["shoe"]["faults"] == []
    finally:
        host.stop()


def test_reels_killed_mid_spin_pause_with_a_reason_resume_and_show_the_logged_spin(tmp_path: Path) -> None:
    host = _host(tmp_path, {"reels": "sim"}, game="slots")
    try:
        reels = host.hardware.devices["reels"]
        sim = reels.simulator
        host.start()

        def spins() -> list[Any]:
            return [r for r in host.table.store.records() if r.kind == "slots.spin"]

        def shown_a_spin() -> bool:
            state = sim.stats()["state"]
            return bool(state["homed"]) and state["meters"]["spins"] >= 1

        _until("a spin on the homed reels", shown_a_spin)
        _kill_while_executing(sim, "SPIN")
        source = link_source("reels")
        _until("the table to pause", lambda: source in host.table.state.paused)
        assert "reels is not answering" in host.table.state.paused[source]
        spun_at_pause = len(spins())

        sim.restart()
        _until("the table to resume", lambda: source not in host.table.state.paused)
        _until("play to go on", lambda: len(spins()) >= spun_at_pause + 3)
        host.set_autoplay(False)
        with host.step_lock:
            logged = spins()
            wanted = logged[-1].data["stops"]
            # the display re-homes after its power cut and shows the last logged spin
            _until("the reels to show the last spin", lambda: sim.stats()["state"]["positions"] == wanted)
        assert len({r.seq for r in logged}) == len(logged)
        assert host.table.state.paused == {}
    finally:
        host.stop()
