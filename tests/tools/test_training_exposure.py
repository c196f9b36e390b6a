"""The over-exposure a training script may add to its patches (``train_card_side.py --exposure``, and
``--exposure-dark-only``: only where a camera would over-expose, over a dark table)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "vision"
sys.path.insert(0, str(TOOLS))

from train_card_side import _dark_round, augment  # noqa: E402

from vision.card_side import H, W  # noqa: E402


def _card_on(table: int, card: int = 200) -> np.ndarray:
    """A card-side patch: a card of level ``card`` filling it but for the table round it."""
    p = np.full((H, W, 3), table, np.uint8)
    p[3:-3, 3:-3] = card
    return p


def _white_share(table: int, exposure: float, dark_only: bool = True, draws: int = 300) -> float:
    """The mean share of the card's middle clipped white over ``draws`` augmentations."""
    x = _card_on(table)[None]
    rngs = [np.random.default_rng(seed) for seed in range(draws)]
    outs = [augment(rng, x, exposure=exposure, dark_only=dark_only) for rng in rngs]
    return float(np.mean([(out[0, 8:-8, 8:-8] == 255).mean() for out in outs]))


def test_the_table_round_a_patch_says_whether_a_camera_would_over_expose_it() -> None:
    assert _dark_round(_card_on(table=30))  # felt, dark cloth: metered dark, the cards blown out
    assert not _dark_round(_card_on(table=190))  # a pale table: metered bright, the cards kept


def test_exposure_clips_cards_on_a_dark_table_and_leaves_a_pale_tables_alone() -> None:
    dark_off, dark_on = _white_share(30, 0.0), _white_share(30, 1.0)
    pale_off, pale_on = _white_share(190, 0.0), _white_share(190, 1.0)
    assert dark_on >= dark_off + 0.25, (dark_off, dark_on)
    assert abs(pale_on - pale_off) < 0.08, (pale_off, pale_on)
    assert _white_share(190, 1.0, dark_only=False) >= pale_off + 0.25  # asked for everywhere: so it is
