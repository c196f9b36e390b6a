"""Kill a writing process with SIGKILL at random moments; nothing acknowledged may be lost."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dealer.store import EventStore

WRITER = Path(__file__).with_name("kill_writer.py")


def kill_rounds(path: Path, rounds: int) -> None:
    acked: dict[int, str] = {}
    chooser = random.Random()  # the moments are random on purpose; failures print the run
    for run in range(rounds):
        proc = subprocess.Popen([sys.executable, str(WRITER), str(path), str(run)],
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        first = proc.stdout.readline()  # wait until it is writing, then kill at a random moment
        assert first, "writer produced nothing"
        time.sleep(chooser.uniform(0.0, 0.15))
        os.kill(proc.pid, signal.SIGKILL)
        rest = proc.stdout.read()
        proc.wait()
        for line in [first, *rest.splitlines()]:
            seq, digest = line.split()
            acked[int(seq)] = digest
        with EventStore.open(path) as store:
            result = store.verify()
            assert result.ok, f"run {run}: {result}"
            stored = {r.seq: r.hash for r in store.records()}
        missing = [seq for seq in acked if stored.get(seq) != acked[seq]]
        assert not missing, f"run {run}: acknowledged records lost or changed: {missing[:5]}"
        assert sorted(stored) == list(range(1, len(stored) + 1))


def test_sigkill_loses_no_acknowledged_event(tmp_path: Path) -> None:
    kill_rounds(tmp_path / "kill.db", rounds=12)


@pytest.mark.slow
def test_sigkill_many_times(tmp_path: Path) -> None:
    kill_rounds(tmp_path / "kill.db", rounds=60)
