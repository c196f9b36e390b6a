"""Fixtures for vision tests: the project's own rendered frames, and the real dev photos when present."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision import Recognizer

REPO = Path(__file__).resolve().parents[2]
DEV = REPO.parent / "shared" / "vision" / "dev"
# glyph masks of font families the patch reader never trained on (fonts.HELD_OUT)
HELDOUT_FONTS = Path(__file__).parent / "data" / "patch_reader_heldout_fonts.npz"


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


@pytest.fixture(scope="session")
def masks() -> dict[str, np.ndarray]:
    """The held-out fonts' glyph masks (``HELDOUT_FONTS``), by ``<font>_<rank or suit>``."""
    return dict(np.load(HELDOUT_FONTS))
