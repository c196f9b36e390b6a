"""Backs on card surface that nothing read explains (vision.surface_backs): the learned finder's
interior map holds a face-down card that no finder outlined as a quad — one the frame's edge cuts,
one partly covered — and the card-side network says what it is."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from vision import Recognizer, SimulatedCamera
from vision.finder import default_finder
from vision.sighting import BACK, Sighting
from vision.simcam import Placement
from vision.surface_backs import surface_backs

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "vision"))
from backgrounds import TRAIN_FAMILIES  # noqa: E402
from scenes import READABLE, Deck, make_scene  # noqa: E402

MIN_WIDTH = 32.0  # the narrowest card looked for in a 1280-px frame (Recognizer: 2.5 % of the long side)


def _outline(corners: np.ndarray) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in corners)


def _shot(code: str, centre: tuple[float, float], background: str = "felt") -> tuple[np.ndarray, Placement]:
    card = Placement(code, centre, -25.0, 220.0)
    cam = SimulatedCamera(size=(1280, 720), background=background, seed=3, card_width=200)
    return cam.render([card]).image, card


@pytest.mark.parametrize("background", ["felt", "dark"])
@pytest.mark.parametrize("centre", [(640.0, 360.0), (70.0, 360.0)], ids=["whole", "cut by the frame"])
def test_a_back_on_card_surface_nothing_explains_is_found_where_it_lies(
    background: str, centre: tuple[float, float]
) -> None:
    image, card = _shot(BACK, centre, background)
    maps = default_finder().run(image, 512)
    found = surface_backs(image, maps, [], MIN_WIDTH)
    assert [s.card for s in found] == [BACK]
    middle = np.mean(np.array(found[0].outline), axis=0)
    visible = np.clip(card.corners(), 0, None).mean(axis=0)  # the part of it inside the frame
    assert np.linalg.norm(middle - visible) < 0.25 * card.width


def test_a_back_seen_whole_or_in_part_is_not_found_again() -> None:
    image, card = _shot(BACK, (640.0, 360.0))
    maps = default_finder().run(image, 512)
    assert [s.card for s in surface_backs(image, maps, [], MIN_WIDTH)] == [BACK]  # unseen, it is found
    whole = card.corners()
    half = whole.copy()
    half[2:] = (whole[2:] + whole[1::-1]) / 2  # the half of it by its first short side
    for seen in (whole, half):  # the rest of a back seen in part is a piece of that back, not another
        assert surface_backs(image, maps, [Sighting(BACK, 0.8, _outline(seen), None)], MIN_WIDTH) == []


@pytest.mark.parametrize("background", ["felt", "white"])
def test_a_face_on_card_surface_is_no_back(background: str) -> None:
    image, _ = _shot("9S", (640.0, 360.0), background)
    maps = default_finder().run(image, 512)
    assert (maps.prob[0] > 0.5).any()  # the map holds the face's surface: the card-side network turns it down
    assert surface_backs(image, maps, [], MIN_WIDTH) == []


@pytest.mark.parametrize("seed", [480])
def test_a_back_no_finder_outlined_in_a_rendered_scene_is_read(seed: int) -> None:
    # scenes of the training families (the generator's own seed): a back the finders, the back
    # finders of merged regions, of colour and of the boundary map's rings all missed, found on the
    # interior map
    rng = np.random.default_rng(seed)
    scene = make_scene(rng, (1280, 960), TRAIN_FAMILIES, [Deck(rng)], max_cards=6, min_card=READABLE)
    backs = [
        c
        for c in scene.cards
        if c.code == BACK and c.shown > 0.5 and np.linalg.norm(c.outline[1] - c.outline[0]) >= READABLE
    ]
    rec = Recognizer("table")
    rec.surface_search = rec.ring_search = False
    assert [s.card for s in rec.recognize(scene.image)].count(BACK) < len(backs)
    rec.surface_search = True
    read = [s for s in rec.recognize(scene.image) if s.card == BACK]
    assert len(read) == len(backs)
    for c in backs:
        middle = c.outline.mean(axis=0)
        assert min(np.linalg.norm(np.mean(np.array(s.outline), axis=0) - middle) for s in read) < 0.5 * float(
            np.linalg.norm(c.outline[1] - c.outline[0])
        )


@pytest.mark.parametrize("background", ["felt", "light_wood", "white"])
def test_a_back_at_a_slant_with_a_corner_beyond_the_frame_is_found(background: str) -> None:
    # turned 30°, its middle 60 px from the left edge: the piece in view has five sides, and its
    # smallest box holds much table (the card-side network turned such boxes down)
    card = Placement(BACK, (60.0, 360.0), 30.0, 260.0)
    cam = SimulatedCamera(size=(1280, 720), background=background, seed=3, card_width=260)
    image = cam.render([card]).image
    found = [s for s in Recognizer("table").recognize(image) if s.card == BACK]
    assert len(found) == 1
    outline = np.array(found[0].outline)
    assert np.linalg.norm(outline.mean(axis=0) - card.centre) < 0.15 * card.width  # the whole card's middle
    assert outline[:, 0].min() < 0  # it reaches past the frame's edge, as the card does
