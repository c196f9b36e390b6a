"""Fixtures for vision tests: the project's own rendered frames, and the real dev photos when present."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision import Recognizer

REPO = Path(__file__).resolve().parents[2]
DEV = REPO.parent / "shared" / "vision" / "dev"


@pytest.fixture(scope="session")
def table_recognizer() -> Recognizer:
    return Recognizer("table")


@pytest.fixture(scope="session")
def shoe_recognizer() -> Recognizer:
    return Recognizer("shoe")


@pytest.fixture
def dev_photos() -> Path:
    """../shared/vision/dev; skips cleanly when ../shared is absent."""
    if not DEV.is_dir():
        pytest.skip("../shared/vision/dev is not present")
    return DEV
