"""Kill the server mid-round (SIGKILL) and start it again: the round resumes from the log."""

from __future__ import annotations

import time
from pathlib import Path

from serving import Server


def test_killed_server_resumes_the_same_round(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    # nothing outlives the SIGKILL to remove its device simulators' temporary folders: keep them in tmp_path
    server = Server(db, env={"TMPDIR": str(tmp_path)})
    try:
        deadline = time.monotonic() + 60
        while True:  # wait until a round is under way, past its first rounds
            state = server.get("/state")
            game = state["games"]["blackjack"]
            if game["round"] >= 2 and game["phase"] != "betting":
                break
            assert time.monotonic() < deadline, "no round got under way"
            time.sleep(0.02)
        server.post("/api/autoplay", {"on": False})  # freeze play so the state read is the last one
        frozen = server.get("/state")
    finally:
        server.kill()
    again = Server(db, env={"DEALER_TABLE__MODE": "live"})
    try:
        resumed = again.get("/state")
        assert resumed["seq"] >= frozen["seq"]
        before, after = frozen["games"]["blackjack"], resumed["games"]["blackjack"]
        assert after["round"] == before["round"] and after["phase"] == before["phase"]
        assert after["seats"] == before["seats"] and after["dealer"] == before["dealer"]
        assert resumed["balances"] == frozen["balances"]
    finally:
        again.stop()
