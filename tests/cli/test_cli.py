"""The CLI as a user runs it: a real process, real files."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from dealer import __version__
from dealer.core.table_state import LoadShoe, ShuffleShoe, TransferChips
from dealer.store import EventStore
from dealer.table.cage import AddPlayer, BuyIn, Cage, Sit


def dealer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dealer", *args], capture_output=True, text=True, timeout=60)


def make_log(path: Path) -> None:
    with EventStore.open(path) as store:
        store.append(LoadShoe(decks=1))
        store.append(ShuffleShoe(seed=4, cut_behind=10))
        store.append(TransferChips("cage", "seat-1", 75, "buy-in"))


def test_version() -> None:
    result = dealer("--version")
    assert result.returncode == 0 and __version__ in result.stdout


def test_audit_verify_passes_then_names_the_edited_record(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    make_log(db)
    ok = dealer("audit", "verify", "--db", str(db), "--json")
    assert ok.returncode == 0 and json.loads(ok.stdout) == {"ok": True, "records": 3, "first_bad": None,
                                                             "reason": ""}
    conn = sqlite3.connect(db)
    conn.execute("UPDATE events SET payload = replace(payload, '75', '750') WHERE seq = 3")
    conn.commit()
    conn.close()
    bad = dealer("audit", "verify", "--db", str(db))
    assert bad.returncode == 1 and "record 3" in bad.stdout
    assert json.loads(dealer("audit", "verify", "--db", str(db), "--json").stdout)["first_bad"] == 3


def test_replay_prints_the_rebuilt_state_as_json(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    make_log(db)
    result = dealer("replay", "--db", str(db), "--json")
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state["balances"] == {"cage": -75, "seat-1": 75}
    assert state["shoe"]["total"] == 52 and state["shoe"]["cut_index"] == 42 and state["applied"] == 3


def test_missing_log_is_a_clear_error(tmp_path: Path) -> None:
    for args in (["audit", "verify"], ["replay"]):
        result = dealer(*args, "--db", str(tmp_path / "nope.db"))
        assert result.returncode == 2 and "no event log" in result.stderr


def test_serve_refuses_a_bad_config_naming_file_and_key(tmp_path: Path) -> None:
    config = tmp_path / "bad.toml"
    config.write_text("[shoe]\ndecks = 'six'\n")
    result = dealer("serve", "--config", str(config))
    assert result.returncode == 2
    assert str(config) in result.stderr and "shoe.decks" in result.stderr


def test_serve_refuses_a_public_address_without_tokens(tmp_path: Path) -> None:
    result = dealer("serve", "--host", "0.0.0.0", "--db", str(tmp_path / "t.db"))
    assert result.returncode == 2 and "require_tokens" in result.stderr


def test_serve_refuses_a_camera_source_that_does_not_exist(tmp_path: Path) -> None:
    config = tmp_path / "cam.toml"
    config.write_text(f'[devices]\ncamera = "{tmp_path / "nope.mp4"}"\n')
    result = dealer("serve", "--config", str(config), "--db", str(tmp_path / "t.db"))
    assert result.returncode == 2 and "devices.camera" in result.stderr and "nope.mp4" in result.stderr


def test_replay_reads_a_nights_cage_log(tmp_path: Path) -> None:
    db = tmp_path / "cage.db"
    cage = Cage.open(db)
    cage.submit(AddPlayer("p1", "Ann"))
    cage.submit(BuyIn("p1", 500))
    cage.submit(Sit("p1", "bj", 2, 300))
    cage.close()
    result = dealer("replay", "--db", str(db), "--json")
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state["sold"] == 500 and state["in_stacks"] == 200 and state["at_tables"] == {"bj": 300}
    ann = state["players"][0]
    assert ann["name"] == "Ann" and ann["at_table"] == {"table": "bj", "seat": 2, "brought": 300}
    conn = sqlite3.connect(db)  # a sit of more chips than the stack holds cannot be replayed
    conn.execute("UPDATE events SET payload = replace(payload, '300', '900') WHERE seq = 3")
    conn.commit()
    conn.close()
    bad = dealer("replay", "--db", str(db))
    assert bad.returncode == 1 and "cage record 3 (night.sit)" in bad.stderr
