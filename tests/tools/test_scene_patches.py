"""tools/vision/scene_patches.py: the recogniser's own cuts in rendered scenes, labelled from the truth."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "vision"
sys.path.insert(0, str(TOOLS))

from scene_patches import IGNORE, R_REJ, S_REJ, mine, patch_labels  # noqa: E402
from scenes import write_benchmark  # noqa: E402

from vision.index import PH, PW  # noqa: E402
from vision.patch_reader import INPUT_H, INPUT_W, RANKS, SUITS  # noqa: E402

# the patch sits at (100, 50) in a 400 × 300 image, one patch pixel to one image pixel
TO_IMAGE = np.array([[1.0, 0, 100], [0, 1.0, 50], [0, 0, 1]])
SHAPE = (300, 400, 3)
INDEX = [[104, 54], [116, 54], [116, 90], [104, 90]]  # top-left, top-right, bottom-right, bottom-left
CARD = [[102, 52], [180, 52], [180, 160], [102, 160]]


def _patch(ink: int = 0, dx: int = 0) -> np.ndarray:
    """A white patch with the index box (patch pixels 4–16 × 4–40) printed at grey level ``ink`` (and
    again ``dx`` pixels to the right)."""
    p = np.full((PH, PW, 3), 250, np.uint8)
    p[6:38, 6:14] = ink
    p[6:38, 6 + dx : 14 + dx] = ink
    return p


def _card(
    code: str = "7H", quad: list[list[float]] = INDEX, outline: list[list[float]] = CARD, visible: bool = True
) -> dict[str, object]:
    return {"code": code, "outline": outline, "index_quads": [quad], "index_visible": [visible]}


def _shifted(points: list[list[float]], dx: float, dy: float = 0.0) -> list[list[float]]:
    return [[x + dx, y + dy] for x, y in points]


def test_an_index_upright_and_uncovered_in_the_patch_names_its_card() -> None:
    assert patch_labels(_patch(), TO_IMAGE, [_card("7H")], SHAPE) == (RANKS.index("7"), SUITS.index("H"), 0)
    assert patch_labels(_patch(), TO_IMAGE, [_card("10S")], SHAPE) == (RANKS.index("10"), SUITS.index("S"), 0)


def test_a_jokers_column_is_taught_as_joker_with_no_rank_or_suit() -> None:
    assert patch_labels(_patch(), TO_IMAGE, [_card("JK")], SHAPE) == (R_REJ, S_REJ, 1)


@pytest.mark.parametrize(
    "cards",
    [
        # lying on its side in the patch: the glyphs' downward edge points along the patch's width
        [_card(quad=[INDEX[3], INDEX[0], INDEX[1], INDEX[2]])],
        # covered by a card laid after it
        [
            _card(),
            _card("2C", quad=_shifted(INDEX, 200), outline=[[98, 48], [130, 48], [130, 100], [98, 100]]),
        ],
        # out of the patch altogether
        [_card(quad=_shifted(INDEX, 120), outline=_shifted(CARD, 120))],
        # a back: no index anywhere
        [{"code": "BK", "outline": CARD, "index_quads": [], "index_visible": []}],
    ],
)
def test_a_patch_without_an_index_that_shows_is_taught_as_reject(cards: list[dict[str, object]]) -> None:
    assert patch_labels(_patch(), TO_IMAGE, cards, SHAPE) == (R_REJ, S_REJ, 0)


def test_an_index_printed_too_faintly_to_read_is_taught_as_reject() -> None:
    assert patch_labels(_patch(ink=246), TO_IMAGE, [_card()], SHAPE) == (R_REJ, S_REJ, 0)


@pytest.mark.parametrize(
    "cards",
    [
        # half of it across the patch's left edge
        [_card(quad=_shifted(INDEX, -10), outline=_shifted(CARD, -10))],
        # uncovered by every outline, but the scene says something hides it
        [_card(visible=False)],
    ],
)
def test_an_index_half_shown_or_hidden_by_the_scene_is_left_out(cards: list[dict[str, object]]) -> None:
    assert patch_labels(_patch(), TO_IMAGE, cards, SHAPE) == (IGNORE, IGNORE, IGNORE)


def test_two_cards_indices_in_one_patch_are_left_out() -> None:
    cards = [_card("7H"), _card("9D", quad=_shifted(INDEX, 30), outline=_shifted(CARD, 30))]
    assert patch_labels(_patch(dx=30), TO_IMAGE, cards, SHAPE) == (IGNORE, IGNORE, IGNORE)
    # with the second index blank, only the first card's shows
    assert patch_labels(_patch(), TO_IMAGE, cards, SHAPE) == (RANKS.index("7"), SUITS.index("H"), 0)


def test_the_cuts_of_rendered_scenes_name_only_cards_laid_in_them(tmp_path: Path) -> None:
    write_benchmark(tmp_path, "train", count=4, seed=17, size=(640, 480))
    truth = json.loads((tmp_path / "truth.json").read_text())
    laid = {c["code"] for scene in truth.values() for c in scene["cards"]}
    d = mine(tmp_path)
    assert d["x"].shape[1:] == (INPUT_H, INPUT_W, 3) and len(d["x"]) == len(d["rank"]) == len(d["suit"])
    named = {
        RANKS[r] + SUITS[s]
        for r, s in zip(d["rank"], d["suit"], strict=True)
        if 0 <= r < R_REJ and 0 <= s < S_REJ
    } | ({"JK"} if (d["joker"] == 1).any() else set())
    assert named and named <= laid
    kept = mine(tmp_path, keep_reject=0.0)
    assert not ((kept["rank"] == R_REJ) & (kept["joker"] == 0)).any()
    assert len(kept["x"]) == len(d["x"]) - int(((d["rank"] == R_REJ) & (d["joker"] == 0)).sum())
