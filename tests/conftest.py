"""Shared test fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture
def shared_dir() -> Path:
    """../shared beside the repository; tests that need it skip cleanly when it is absent."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED
