"""The learned finder's closer look (vision.closer_look): a second pass at twice its working
resolution only where the first left card surface unexplained or an index unread."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import vision.recognizer as recognizer_module
from vision import Recognizer, SimulatedCamera
from vision.closer_look import MIN_SIDE, closer_scale, unexplained_regions, windows
from vision.finder import STRIDE, FinderMaps
from vision.sighting import Sighting


@pytest.mark.parametrize(
    ("background", "seed", "width", "layout", "codes", "read"),
    [
        ("white", 11, 160, "row", ["KC", "BK", "8D", "9S", "BK", "BK", "3C", "10H", "4S"], 8),
        ("white", 64, 160, "scatter", ["BK", "QH", "BK", "4H", "BK", "5H"], 5),
    ],
)
def test_backs_on_a_white_cloth_are_found_at_a_closer_look(
    monkeypatch: pytest.MonkeyPatch,
    background: str,
    seed: int,
    width: int,
    layout: str,
    codes: list[str],
    read: int,
) -> None:
    # at the working size the lattice of a back breaks its card region into ragged pieces that no
    # quad fits; looked at again at twice the resolution, the back is one clean card
    cam = SimulatedCamera(size=(1920, 1080), background=background, seed=seed, card_width=width)
    image = cam.frame_for(codes, layout).image
    rec = Recognizer("table")
    # the closer look alone: the colour search and the boundary map's rings find these backs too
    rec.colour_search = rec.ring_search = False
    found = Counter(s.card for s in rec.recognize(image))
    assert sum((found & Counter(codes)).values()) >= read
    assert not found - Counter(codes)  # no card that is not there
    monkeypatch.setattr(recognizer_module, "closer_quads", lambda *args: [])
    without = Counter(s.card for s in rec.recognize(image))
    assert sum((without & Counter(codes)).values()) < read
    rec.colour_search = True  # and the colour search alone finds them as well
    by_colour = Counter(s.card for s in rec.recognize(image))
    assert sum((by_colour & Counter(codes)).values()) >= read
    assert not by_colour - Counter(codes)


def _maps(interior: np.ndarray, scale: float) -> FinderMaps:
    prob = np.zeros((3, *interior.shape), np.float32)
    prob[0] = interior
    return FinderMaps(prob, np.zeros((7, *interior.shape), np.float32), scale, (0, 0))


def test_unexplained_regions_are_card_surface_no_sighting_covers() -> None:
    interior = np.zeros((100, 160), np.float32)
    interior[10:40, 10:30] = 1.0  # a card read already
    interior[50:80, 100:120] = 1.0  # a card nothing read
    interior[90:92, 60:62] = 1.0  # a speck
    scale = 2.0
    cell = scale * STRIDE
    corners = [(9, 9), (31, 9), (31, 41), (9, 41)]  # map pixels round the first card
    read = Sighting("AS", 0.99, tuple((x * cell, y * cell) for x, y in corners), None)
    regions = unexplained_regions(_maps(interior, scale), [read], min_side=40.0)
    assert len(regions) == 1
    x0, y0, x1, y1 = regions[0]
    assert x0 < 100 * cell and x1 > 120 * cell and y0 < 50 * cell and y1 > 80 * cell
    assert x1 - x0 < 2 * 20 * cell  # round the card, not the frame
    assert unexplained_regions(_maps(interior, scale), [], min_side=40.0)[0][0] < 10 * cell


def test_windows_are_grown_to_the_least_side_merged_where_they_overlap_and_clipped() -> None:
    scale = 2.0
    least = MIN_SIDE * scale
    (box,) = windows([(500.0, 500.0, 510.0, 510.0)], scale, 1920, 1080)
    assert box[2] - box[0] >= least - 1 and box[3] - box[1] >= least - 1
    two = windows([(500.0, 500.0, 510.0, 510.0), (600.0, 500.0, 610.0, 510.0)], scale, 1920, 1080)
    assert len(two) == 1 and two[0][0] <= 505 - least / 2 and two[0][2] >= 605 + least / 2
    apart = windows([(100.0, 100.0, 110.0, 110.0), (1500.0, 800.0, 1510.0, 810.0)], scale, 1920, 1080)
    assert len(apart) == 2
    (edge,) = windows([(0.0, 0.0, 10.0, 10.0)], scale, 1920, 1080)
    assert edge[0] == 0 and edge[1] == 0


def test_there_is_no_closer_look_at_a_frame_the_first_look_saw_nearly_whole() -> None:
    assert closer_scale(np.zeros((480, 640, 3), np.uint8), 512) is None
    assert closer_scale(np.zeros((1080, 1920, 3), np.uint8), 512) == pytest.approx(1920 / 1024)


def test_a_back_lying_on_a_hand_is_found_though_its_middle_is_on_a_card_read_below_it() -> None:
    # the back's region was ragged at the first look; at the second its quad's middle lies on the
    # outline the 9D's index implies, which is not the same card (their middles are far apart)
    codes = ["2S", "9D", "BK"]
    cam = SimulatedCamera(size=(1920, 1080), background="light_wood", seed=7, card_width=160)
    found = Counter(s.card for s in Recognizer("table").recognize(cam.frame_for(codes, "hand").image))
    assert not Counter(codes) - found
