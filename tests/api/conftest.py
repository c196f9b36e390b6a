from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dealer.api import create_app
from dealer.config import Settings, load_settings
from dealer.store import Role
from dealer.table.host import TableHost


def settings_for(tmp_path: Path, **table: object) -> Settings:
    return load_settings(None, table={"db": tmp_path / "t.db", "game": "none", "pace_ms": 0, **table},
                         server={"require_tokens": True})


@pytest.fixture
def secured(tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, str]]]:
    """A token-protected app on a table with no game, plus a token per role."""
    settings = settings_for(tmp_path)
    with TestClient(create_app(lambda: TableHost.open(settings))) as client:
        host: TableHost = client.app.state.host  # type: ignore[attr-defined]
        tokens = {role.name.lower(): host.tokens.create(role)[0] for role in Role}
        yield client, tokens
