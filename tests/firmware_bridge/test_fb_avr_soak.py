"""The reference firmware under simavr survives link faults between host and AVR: >= 1,000 injected faults
per device (garbage, bit flips, drops, duplicates, splits, delays, lost and damaged host frames, a vanishing
port), and afterwards nothing is lost, duplicated, corrupted or executed twice."""

from __future__ import annotations

import pytest
from fb_avr import needs_avr, run_avr_soak

FAULTS = 1000


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["shoe", "shuffler", "reels"])
def test_firmware_soak_loses_nothing_and_never_executes_twice(kind: str) -> None:
    needs_avr()
    report = run_avr_soak(kind, FAULTS, seed=31, max_seconds=240)
    assert report["faults_total"] >= FAULTS, report
    assert report["lost"] == 0, report
    assert report["duplicated"] == 0, report
    assert report["corrupted"] == 0, report
    assert report["double_executed"] == 0, report
    assert report["events_received"] == report["events_expected"] > 0, report
    # the firmware really was retried and replayed from its cache, not spared the faults
    assert report["device_replays"] > 0 and report["retries"] > 0, report
