"""Property-based API testing with schemathesis against the app's own OpenAPI: no server errors.

The server runs for real (``dealer serve`` in its own process, a blackjack table with no devices);
the schemathesis command line drives every operation with generated requests.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from serving import Server

NO_DEVICES = {"DEALER_DEVICES__SHOE": "none", "DEALER_DEVICES__SHUFFLER": "none",
              "DEALER_DEVICES__REELS": "none", "DEALER_DEVICES__CAMERA": "none"}
CLI = shutil.which("schemathesis", path=str(Path(sys.executable).parent))
# A night's per-table copies of the single-table routes run the same handlers, fuzzed at their
# single-table paths; only the table lookup differs (tests/api/test_night_api.py). Fuzzing them
# twice would double the run; the night's own routes (tables, game, seats, players...) stay in.
PER_TABLE_COPIES = (r"^/api/tables/\{table_id\}/(history|history\.csv|events|operations|actions|cards|"
                    r"cards/correct|void|disputes|disputes/\{issue\}|resume|meters|devices|devices/\{kind\}/\{command\}|"
                    r"autoplay|games)$")


@pytest.mark.skipif(CLI is None, reason="schemathesis is not installed (dev extra)")
def test_no_route_answers_with_a_server_error(tmp_path: Path) -> None:
    server = Server(tmp_path / "table.db", env={**NO_DEVICES, "DEALER_TABLE__PACE_MS": "20"})
    try:
        result = subprocess.run(
            [str(CLI), "run", server.url + "/openapi.json", "--checks", "not_a_server_error",
             "--max-examples", "40", "--seed", "7", "--workers", "1", "--exclude-path", "/ws",
             "--exclude-path-regex", PER_TABLE_COPIES],
            capture_output=True, text=True, timeout=420)
    finally:
        server.stop()
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    passed = re.search(r"(\d+) generated, (\d+) passed", result.stdout)
    assert passed is not None and int(passed.group(2)) >= 100, result.stdout[-2000:]  # requests sent
