"""``dealer hw …`` and ``dealer sim device`` as a user runs them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from dealer.cli import app
from firmware_bridge import Shoe

runner = CliRunner()


def test_hw_ping_reports_percentiles_as_json() -> None:
    result = runner.invoke(app, ["hw", "ping", "--port", "sim://shoe?decks=1&seed=1", "--count", "30",
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["count"] == 30 and 0 < data["p50_ms"] <= data["p99_ms"] <= data["max_ms"]


def test_hw_info_prints_hello_reply_fields() -> None:
    result = runner.invoke(app, ["hw", "info", "--port", "sim://reels?seed=2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["kind"] == "reels" and data["proto_version"] == 1 and data["boot_id"] > 0
    assert {"firmware", "unique_id", "capabilities", "reset_cause", "last_event_no"} <= set(data)


def test_hw_ping_on_a_missing_port_fails_clearly() -> None:
    result = runner.invoke(app, ["hw", "ping", "--port", "/dev/no-such-tty", "--json"])
    assert result.exit_code == 2
    assert "/dev/no-such-tty" in result.output


def test_hw_soak_small_run_loses_nothing() -> None:
    result = runner.invoke(app, ["hw", "soak", "--kind", "shoe", "--faults", "40", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["faults_total"] >= 40
    assert data["lost"] == data["duplicated"] == data["double_executed"] == data["corrupted"] == 0
    assert data["events_received"] == data["events_expected"] > 0


def test_sim_device_runs_on_a_pty_and_takes_fault_commands(tmp_path: os.PathLike[str]) -> None:
    link = os.path.join(tmp_path, "shoe")
    dealer = os.path.join(os.path.dirname(sys.executable), "dealer")
    if not os.path.exists(dealer):
        pytest.skip("the dealer script is not installed beside this Python")
    proc = subprocess.Popen([dealer, "sim", "device", "--kind", "shoe", "--decks", "2", "--seed", "4",
                             "--link", link], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdin is not None
        first = json.loads(proc.stdout.readline())
        assert first["port"] == link and first["tty"].startswith("/dev/pts/")
        with Shoe(link, heartbeat=None) as shoe:
            assert shoe.status().cards == 104
            shoe.deal()
        proc.stdin.write("misread 1\nstats\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["ok"]
        stats = json.loads(proc.stdout.readline())
        assert stats["state"]["cards"] == 103 and stats["device"]["executed"]["DEAL"] == 1
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(5)
    assert not os.path.exists(link)


