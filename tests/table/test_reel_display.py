"""The reel display shows the last logged spin even when it is still turning when the spin arrives.

A slot spin is decided and logged before the display shows it (RULES H7: the reels show the outcome).
A display that is still turning, or still homing after a power cut, refuses a new spin as busy; the
host must ask again rather than leave the reels on an older spin.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import firmware_bridge as fb
from dealer.config import load_settings
from dealer.table.hardware import TableHardware

ACTION_S = 0.3  # each reel turns this long: the display is busy for 0.9 s after a spin starts
WAIT = 30.0


def _until(what: str, condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def test_a_spin_sent_while_the_reels_still_turn_is_shown_once_they_stop(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="dealer.table.hardware")
    process = fb.start_simulator("reels", action_time=ACTION_S)
    reels = fb.ReelDisplay(process.port, simulator=process, on_close=process.stop)
    hardware = TableHardware(load_settings(None, table={"db": tmp_path / "t.db"}),
                             submit=lambda op: None, on_card=lambda shoe, camera: None,
                             devices={"reels": reels})
    try:
        reels.home()
        turning = threading.Thread(target=reels.spin, args=((3, 4, 5),))
        turning.start()
        _until("the first spin to start", lambda: process.stats()["state"]["meters"]["spins"] == 1)

        hardware.show_spin((7, 8, 9))  # RULES H7: the newest logged spin, sent while the reels turn

        _until("the newest spin", lambda: process.stats()["state"]["positions"] == [7, 8, 9])
        turning.join(timeout=WAIT)
        assert process.stats()["state"]["meters"]["spins"] == 2  # each spin shown once
        assert "could not show (7, 8, 9) yet" in caplog.text  # it was refused while the reels turned
    finally:
        hardware.close()
