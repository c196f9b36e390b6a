"""A bounded soak: more than 10 000 link faults across shoe, shuffler and reels, three processes at once.

Each process is the user's own command, ``dealer hw soak --kind K --json``, driving a simulator on a real
pty that injects the whole fault mix, ``vanish`` and ``vanish_write`` (the port disappears while the host
is writing) included. The device's own log and counters are the reference; the host must lose, duplicate,
corrupt or double-execute nothing, and no exception may escape a link thread or a command.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest

KINDS = ("shoe", "shuffler", "reels")
FAULTS_EACH = 3400  # 10 200 in all


@pytest.mark.slow
def test_ten_thousand_faults_across_three_devices_lose_nothing() -> None:
    procs = {kind: subprocess.Popen([sys.executable, "-m", "dealer", "hw", "soak", "--kind", kind,
                                     "--faults", str(FAULTS_EACH), "--rate", "0.5", "--seed", str(seed),
                                     "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for seed, kind in enumerate(KINDS, start=21)}
    reports = {}
    for kind, proc in procs.items():
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0 and "Traceback" not in err, f"{kind} soak failed:\n{err[-3000:]}\n{out}"
        reports[kind] = json.loads(out)
    mix: Counter[str] = Counter()
    for kind, report in reports.items():
        assert report["faults_total"] >= FAULTS_EACH, (kind, report["faults_total"])
        assert report["events_received"] == report["events_expected"] > 0, kind
        assert (report["lost"], report["duplicated"], report["corrupted"], report["double_executed"],
                report["crashed"]) == (0, 0, 0, 0, 0), (kind, report)
        assert sum(report["commands_executed_by_device"].values()) > 0, kind
        mix.update(report["faults_injected"])
    assert sum(mix.values()) >= 10_000
    assert mix["vanish_write"] > 0 and mix["vanish"] > 0, mix  # ports really vanished, mid-write too
