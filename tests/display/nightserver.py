"""``dealer serve --config <night file>`` as a real process: a casino night for the page tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from serving import Server

TABLE = """
[[tables]]
id = "{id}"
name = "{name}"
game = "{game}"
rules = "{rules}"
mode = "simulated"
seats = {seats}
pace_ms = {pace}
devices = "{devices}"
"""


def night_file(directory: Path, tables: list[dict[str, Any]], guests: list[str]) -> Path:
    text = (f'[night]\nname = "Test night"\ndir = "{directory}"\nguests = {json.dumps(guests)}\n'
            "buy_in = 500\nmax_buy_in = 5000\n")
    for t in tables:
        text += TABLE.format(**{"rules": "", "seats": 7, "pace": 20, "devices": "none", **t})
    path = directory / "night.toml"
    path.write_text(text)
    return path


class NightServer(Server):
    """``dealer serve`` running a night file written from ``tables`` and ``guests``."""

    def __init__(self, directory: Path, tables: list[dict[str, Any]], guests: list[str]) -> None:
        super().__init__(config=night_file(directory, tables, guests))

    def post(self, path: str, body: dict[str, Any] | None = None, method: str = "POST") -> Any:
        return super().post(path, {} if body is None else body, method)
