"""The card-side check: a face-down card is told from a face and from bare table through a quad a
finder got a little wrong.

Cards are the project's own renders (`vision/render.py`) on a plain cloth, and scenes of the
held-out table families from a seed no training uses: these tests measure, they do not train.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from vision.card_side import CardSide, CardSideError, CardSideNet, H, W, back_probability, card_side
from vision.detect import CardQuad
from vision.errors import ModelError, VisionError
from vision.recognizer import looks_like_back
from vision.render import CardStyle, render_back

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "vision"
sys.path.insert(0, str(TOOLS))

from backgrounds import HELD_OUT_FAMILIES  # noqa: E402
from rendered_table import table_with  # noqa: E402
from scenes import Deck  # noqa: E402
from train_card_side import scene_with_backs  # noqa: E402


def _off(outline: np.ndarray, how: str) -> np.ndarray:
    """The outline as a finder might trace it: inset into the card, slid onto the table, one corner
    pulled out, or started at a long side (turned by a corner)."""
    c = outline.mean(axis=0)
    w = float(np.linalg.norm(outline[1] - outline[0]))
    if how == "exact":
        return outline
    if how == "inset":
        return c + 0.88 * (outline - c)
    if how == "slid":
        return outline + np.array([0.08, -0.06]) * w
    if how == "corner":
        q = outline.copy()
        q[2] += np.array([0.1, 0.06]) * w
        return q
    return np.roll(outline, -1, axis=0)  # "turned"


HOW = ["exact", "inset", "slid", "corner", "turned"]


@pytest.fixture(scope="module")
def back_and_faces() -> tuple[np.ndarray, list[np.ndarray]]:
    return table_with(["BK", "7H", "KS", "JK"], CardStyle(back_colour=(120, 40, 130)))


def test_the_shipped_network_loads_and_gives_three_sides() -> None:
    net = CardSideNet.load()
    assert net.logits(np.zeros((2, 3, H, W), np.float32)).shape == (2, 3)


def test_a_file_that_is_not_the_network_is_a_model_error(tmp_path: Path) -> None:
    bad = tmp_path / "card_side.onnx"
    bad.write_bytes(b"not an onnx file")
    with pytest.raises(ModelError, match="card-side"):
        CardSideNet.load(bad)


@pytest.mark.parametrize("how", HOW)
def test_a_back_is_a_back_through_an_imprecise_quad(back_and_faces, how: str) -> None:  # type: ignore[no-untyped-def]
    image, outlines = back_and_faces
    quad = _off(outlines[0], how)
    assert card_side(image, quad).side == "back"
    assert looks_like_back(image, CardQuad(quad.astype(np.float32)))


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("k", [1, 2, 3], ids=["7H", "KS", "JK"])
def test_a_face_is_not_a_back_through_an_imprecise_quad(back_and_faces, how: str, k: int) -> None:  # type: ignore[no-untyped-def]
    image, outlines = back_and_faces
    quad = _off(outlines[k], how)
    assert card_side(image, quad).side == "face"
    assert not looks_like_back(image, CardQuad(quad.astype(np.float32)))


@pytest.mark.parametrize("colour", [(120, 40, 130), (200, 190, 60), (30, 30, 30)])
def test_a_back_cut_by_the_frame_edge_is_a_back(colour: tuple[int, int, int]) -> None:
    # a card at the edge of the view: a third of it is outside the frame, its quad runs off it
    image, outlines = table_with(["BK", "9D"], CardStyle(back_colour=colour), x0=-50.0)
    assert outlines[0][:, 0].min() < -40
    assert looks_like_back(image, CardQuad(outlines[0].astype(np.float32)))
    assert not looks_like_back(image, CardQuad(outlines[1].astype(np.float32)))


def test_bare_cloth_is_no_card(back_and_faces) -> None:  # type: ignore[no-untyped-def]
    image, outlines = back_and_faces
    below = outlines[0] + np.array([0.0, 240.0])  # under the back, on the cloth only
    assert int(below[:, 1].max()) < image.shape[0]
    assert below[:, 1].min() > max(o[:, 1].max() for o in outlines)
    assert not looks_like_back(image, CardQuad(below.astype(np.float32)))


def test_backs_of_held_out_tables_are_told_from_faces() -> None:
    # scenes of table families training never sees, from a seed it never uses; cards fully in view
    rng = np.random.default_rng(20_261_124)
    decks = [Deck(rng) for _ in range(3)]
    said: dict[bool, list[bool]] = {True: [], False: []}
    for _ in range(10):
        scene = scene_with_backs(rng, (640, 480), HELD_OUT_FAMILIES, decks, min_card=60, backs=20)
        for c in scene.cards:
            if c.visible > 0.9 and np.linalg.norm(c.outline[1] - c.outline[0]) >= 50:
                for how in ("inset", "slid", "turned"):
                    said[c.code == "BK"].append(back_probability(scene.image, _off(c.outline, how)) > 0.5)
    assert len(said[True]) >= 6 and len(said[False]) >= 6
    assert np.mean(said[True]) >= 0.8, said[True]
    assert np.mean(said[False]) <= 0.1, said[False]


@pytest.mark.parametrize(
    ("image", "quad", "what"),
    [
        (np.zeros((100, 100), np.uint8), np.zeros((4, 2)), "BGR image"),
        (np.zeros((100, 100, 3), np.float32), np.zeros((4, 2)), "BGR image"),
        ("frame.jpg", np.zeros((4, 2)), "BGR image"),
        (np.zeros((100, 100, 3), np.uint8), np.zeros((3, 2)), "4 finite"),
        (np.zeros((100, 100, 3), np.uint8), np.full((4, 2), np.nan), "4 finite"),
        (np.zeros((100, 100, 3), np.uint8), np.array([[5, 5], [5, 5], [5, 5], [5, 5]]), "degenerate"),
        (np.zeros((100, 100, 3), np.uint8), "corners", "4"),
    ],
)
def test_bad_input_is_a_clear_value_error(image, quad, what: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(CardSideError, match=what) as err:
        card_side(image, quad)
    assert isinstance(err.value, VisionError) and isinstance(err.value, ValueError)


def test_a_quad_far_outside_the_frame_gives_an_answer_not_a_crash() -> None:
    image = np.full((120, 160, 3), 90, np.uint8)
    quad = np.array([[1000.0, 1000.0], [1100.0, 1000.0], [1100.0, 1140.0], [1000.0, 1140.0]])
    assert card_side(image, quad).side in ("back", "face", "none")


def test_a_hypothesis_folded_into_a_line_shows_no_card_and_the_others_are_still_judged() -> None:
    # the recogniser's own guesses go through ``hypotheses``: one of no area must not stop the batch
    # (a held-out photo once failed to read at all on such a quad), and the rest read as on their own
    back = render_back(120)
    image = np.full((400, 400, 3), (40, 110, 40), np.uint8)
    image[100 : 100 + back.image.shape[0], 100:220] = back.image
    whole = np.array(
        [[100, 100], [220, 100], [220, 100 + back.image.shape[0]], [100, 100 + back.image.shape[0]]]
    )
    line = np.array([[300, 50], [300, 51], [300, 90], [300, 89]], float)
    net = CardSideNet.load()
    judged = net.hypotheses(image, [line, whole, line])
    assert judged[0] == judged[2] == CardSide(0.0, 0.0, 1.0)
    assert judged[1] == net.sides(image, [whole])[0]
    assert judged[1].side == "back"
    with pytest.raises(CardSideError, match="degenerate"):  # a caller's own quad is still checked
        net.sides(image, [line])
