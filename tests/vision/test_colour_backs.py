"""Backs found by their colour against the table, where no finder outlined them."""

from __future__ import annotations

import numpy as np
import pytest

from vision import Recognizer, SimulatedCamera
from vision import colour_backs as colour_search
from vision.colour_backs import _lightness, colour_backs, table_is_pale
from vision.frame_copies import resized, sharing
from vision.sighting import BACK, Sighting
from vision.simcam import Placement

INDEX_BOX = ((0.03, 0.05), (0.17, 0.05), (0.17, 0.5), (0.03, 0.5))  # a face's index, in card widths


def _middles(sightings: list[Sighting]) -> list[np.ndarray]:
    return [np.mean(np.array(s.outline), axis=0) for s in sightings]


@pytest.mark.parametrize("background", ["white", "light_wood", "grey", "felt", "dark"])
def test_backs_stand_apart_from_any_table_and_a_face_beside_them_is_no_back(background: str) -> None:
    shot = SimulatedCamera(size=(1280, 720), background=background, seed=0).frame_for(
        ["BK", "BK", "7H"], "scatter"
    )
    found = colour_backs(shot.image, [])
    assert [s.card for s in found] == [BACK, BACK]
    backs = [p for p in shot.placements if p.code == BACK]
    for p in backs:  # each back found where it lies, once
        near = [m for m in _middles(found) if np.linalg.norm(m - np.array(p.centre)) < 0.2 * p.width]
        assert len(near) == 1


def test_a_back_already_seen_is_not_reported_again() -> None:
    shot = SimulatedCamera(size=(1280, 720), background="white", seed=0).frame_for(["BK", "7H"], "scatter")
    back = next(p for p in shot.placements if p.code == BACK)
    seen = Sighting(BACK, 0.8, tuple((float(x), float(y)) for x, y in back.corners()), None)
    assert colour_backs(shot.image, [seen]) == []


def test_a_checked_tablecloth_and_plain_paper_are_no_backs() -> None:
    # squares of a printed cloth stand apart from the table's median colour too; so does a plain
    # card-shaped paper: neither is a face-down card
    table = np.full((720, 1280, 3), 235, np.uint8)
    for y in range(0, 720, 90):
        for x in range((y // 90) % 2 * 90, 1280, 180):
            table[y : y + 90, x : x + 90] = (60, 140, 40)
    paper = np.full((720, 1280, 3), 230, np.uint8)
    paper[200:400, 500:640] = (90, 60, 170)
    assert colour_backs(table, []) == []
    assert colour_backs(paper, []) == []


@pytest.mark.parametrize(("background", "seed"), [("white", 4001), ("light_wood", 4002), ("white", 4004)])
def test_hands_dealt_face_down_on_a_pale_table_are_seen_card_by_card(background: str, seed: int) -> None:
    # two face-up hands and two face-down ones on a pale table: the threshold finder's regions run
    # into the table and the learned finder's interior map is weak on the lattice, so before this at
    # most two of the four backs were reported; the lower card of each face-down hand shows only an
    # L-shaped part of itself beside the card on it
    codes = ["5H", "9S", BACK, BACK, "KD", "2C", BACK, BACK]
    cam = SimulatedCamera(size=(1920, 1080), background=background, seed=seed, card_width=170)
    shot = cam.frame_for(codes, "hand")
    read = Recognizer("table").recognize(shot.image)
    assert sorted(s.card for s in read) == sorted(codes)
    found = _middles([s for s in read if s.card == BACK])
    for p in (p for p in shot.placements if p.code == BACK):
        assert min(float(np.linalg.norm(m - np.array(p.centre))) for m in found) < 0.15 * p.width


@pytest.mark.parametrize(("background", "seed"), [("white", 4001), ("light_wood", 4003), ("grey", 4005)])
def test_every_hole_card_on_a_pale_table_is_seen(background: str, seed: int) -> None:
    # each face-up card with its hole card on it: on a pale table the finders lost one back in four
    # (on a white cloth all four)
    codes = ["7D", BACK, "QS", BACK, "4C", BACK, "JH", BACK]
    cam = SimulatedCamera(size=(1920, 1080), background=background, seed=seed, card_width=170)
    image = cam.frame_for(codes, "hand").image
    rec = Recognizer("table")
    assert sorted(s.card for s in rec.recognize(image)) == sorted(codes)
    rec.colour_search = False  # the switch a host trading backs on a pale cloth for speed would use
    assert [s.card for s in rec.recognize(image)].count(BACK) < 4


@pytest.mark.parametrize(
    ("background", "gap", "angle"),
    [("felt", 0.0, 0.0), ("felt", 0.0, 25.0), ("wood", 0.0, 0.0), ("wood", 0.08, 25.0), ("dark", 0.08, 25.0)],
)
def test_a_back_lying_against_a_face_read_is_found(background: str, gap: float, angle: float) -> None:
    # a back dealt beside a face, touching it or a few pixels off: on felt or wood the two make one
    # region of "not the table", which is no card-shaped quad, and no back was found; with the face
    # read, its place is cut out of that region and the back stands alone
    cam = SimulatedCamera(size=(1280, 720), background=background, seed=3)
    width = 130.0
    step = width * (1 + gap)
    a = np.radians(angle)
    face = Placement("7H", (560.0, 360.0), angle, width)
    back = Placement(BACK, (560.0 + step * np.cos(a), 360.0 - step * np.sin(a)), angle, width)
    image = cam.render([face, back]).image
    c = face.corners()
    across, down = ((c[k] - c[0]) / np.linalg.norm(c[k] - c[0]) for k in (1, 3))  # unit vectors
    index = tuple(
        (float(p[0]), float(p[1]))
        for p in (c[0] + across * width * u + down * width * v for u, v in INDEX_BOX)
    )
    read = Sighting("7H", 1.0, tuple((float(x), float(y)) for x, y in face.corners()), index)
    found = colour_backs(image, [read])
    assert [s.card for s in found] == [BACK]
    assert np.linalg.norm(_middles(found)[0] - np.array(back.centre)) < 0.1 * width


def _back_over(
    background: str, angle: float, shift: tuple[float, float], face_on_top: bool = False
) -> tuple[np.ndarray, Placement]:
    """A 9C and a back dealt over it (under it, ``face_on_top``), moved ``shift`` (card-aligned
    pixels) towards the 9C's top left."""
    a = np.radians(angle)
    turn = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
    dx, dy = turn @ np.array(shift)
    face = Placement("9C", (640.0, 360.0), angle, 150.0)
    back = Placement(BACK, (640.0 - dx, 360.0 - dy), angle, 150.0)
    cam = SimulatedCamera(size=(1280, 720), background=background, seed=3, card_width=150)
    return cam.render([back, face] if face_on_top else [face, back]).image, back


@pytest.mark.parametrize(
    ("background", "angle", "shift"),
    [
        ("felt", 0.0, (75.0, 0.0)),
        ("dark", 20.0, (30.0, 30.0)),
        ("wood", 0.0, (30.0, 90.0)),
        ("grey", -35.0, (22.0, 22.0)),
        ("felt", 20.0, (0.0, 75.0)),
        ("felt", 0.0, (22.0, 22.0)),  # the back covers all the face but a strip with its index
        ("light_wood", 20.0, (22.0, 22.0)),
        ("white", 0.0, (0.0, 75.0)),
    ],
)
def test_a_back_dealt_over_a_face_is_seen_beside_it(
    background: str, angle: float, shift: tuple[float, float]
) -> None:
    # the pair is one region, outlined and read as the face (its index shows past the back's corner);
    # the back's print, far from the table's colour and from the face's paper, stands alone, as big
    # as the outline read for the face where the back covers nearly all of it
    image, back = _back_over(background, angle, shift)
    found = Recognizer("table").recognize(image)
    assert sorted(s.card for s in found) == ["9C", BACK]
    (seen,) = [s for s in found if s.card == BACK]
    assert np.linalg.norm(np.mean(np.array(seen.outline), axis=0) - back.centre) < 0.15 * back.width


@pytest.mark.parametrize("layout", ["scatter", "hand"])
@pytest.mark.parametrize("background", ["felt", "white", "grey"])
def test_court_cards_and_jokers_hold_no_back_in_their_print(background: str, layout: str) -> None:
    # a court card's picture is print far from the table and the paper, framed like a small card
    codes = ["JS", "QH", "KD", "JC", "JK", "KS"]
    shot = SimulatedCamera(size=(1280, 720), background=background, seed=1, card_width=140).frame_for(
        codes, layout
    )
    assert BACK not in [s.card for s in Recognizer("table").recognize(shot.image)]


@pytest.mark.parametrize("background", ["felt", "wood", "dark"])
def test_a_hole_card_tucked_half_under_its_up_card_is_seen(background: str) -> None:
    # the up card lies over the hole card's right half: the back shows as a strip no card-shaped
    # region holds; its print, grown across the face to a card, is the hole card (on dark cloth the
    # face is outlined with the back as one square quad: a pair, no card)
    hole = Placement(BACK, (565.0, 360.0), 0.0, 150.0)
    face = Placement("9C", (640.0, 360.0), 0.0, 150.0)
    cam = SimulatedCamera(size=(1280, 720), background=background, seed=3, card_width=150)
    found = Recognizer("table").recognize(cam.render([hole, face]).image)
    assert sorted(s.card for s in found) == ["9C", BACK]
    (seen,) = [s for s in found if s.card == BACK]
    assert np.linalg.norm(np.mean(np.array(seen.outline), axis=0) - hole.centre) < 0.15 * hole.width


@pytest.mark.parametrize(
    ("background", "angle"), [("light_wood", 0.0), ("light_wood", 20.0), ("white", -35.0)]
)
def test_a_back_whose_lower_part_a_face_covers_is_seen(background: str, angle: float) -> None:
    # the face covers all the back but a band across its top: the network, shown the whole card,
    # sees the face's index on it and no back; shown the band in view, it sees a back
    image, back = _back_over(background, angle, (0.0, 75.0), face_on_top=True)
    found = Recognizer("table").recognize(image)
    assert sorted(s.card for s in found) == ["9C", BACK]
    (seen,) = [s for s in found if s.card == BACK]
    assert np.linalg.norm(np.mean(np.array(seen.outline), axis=0) - back.centre) < 0.2 * back.width


@pytest.mark.parametrize(
    ("background", "angle", "shift"),
    [
        ("felt", 20.0, (30.0, 30.0)),
        ("dark", 0.0, (40.0, 40.0)),
        ("wood", -35.0, (40.0, 40.0)),
        ("white", 20.0, (50.0, 50.0)),
    ],
)
def test_a_hole_card_whose_up_card_covers_all_but_its_top_left_is_seen(
    background: str, angle: float, shift: tuple[float, float]
) -> None:
    # the up card, dealt over the hole card a little down and right, leaves a band along its top and
    # left in view (a third to a half of it): the hole card's outline guessed from the region's
    # corners shows the face's index on it, and only the network trained on such cards
    # (``card_side.hole_card_side``) takes it for the back it is
    image, back = _back_over(background, angle, shift, face_on_top=True)
    found = Recognizer("table").recognize(image)
    assert sorted(s.card for s in found) == ["9C", BACK]
    (seen,) = [s for s in found if s.card == BACK]
    assert np.linalg.norm(np.mean(np.array(seen.outline), axis=0) - back.centre) < 0.15 * back.width


@pytest.mark.parametrize("background", ["light_wood", "white", "felt"])
def test_backs_in_a_phone_photo_of_a_far_off_table_are_seen(background: str) -> None:
    # 56-px cards in a 3200 x 2400 photo: under the finders' floor (2 % of the long side), read as faces
    # by the small-card passes; the backs among them are as small, and the colour search looks for them
    # in a copy where the cards read are as wide as the benchmark's narrowest in a 1280-px frame
    codes = ["AS", BACK, "QD", "7C", BACK, "9D", "KH", "4C"]
    shot = SimulatedCamera(size=(3200, 2400), background=background, seed=1, card_width=56).frame_for(
        codes, "scatter"
    )
    found = [s for s in Recognizer("table").recognize(shot.image) if s.card == BACK]
    backs = [p for p in shot.placements if p.code == BACK]
    assert len(found) == len(backs)
    for p in backs:  # each where it lies
        assert min(np.linalg.norm(m - np.array(p.centre)) for m in _middles(found)) < 0.2 * p.width


@pytest.mark.parametrize("background", ["white", "light_wood", "grey", "felt"])
def test_a_back_the_frames_edge_cuts_is_seen_reaching_past_the_edge(
    background: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a back turned 20°, a third of it past the frame's right edge, beside a 7H read: its region of
    # colour touches the edge and is no card-shaped quad
    cam = SimulatedCamera(size=(1280, 720), background=background, seed=3, card_width=150)
    face, back = Placement("7H", (560.0, 330.0), 10.0, 150.0), Placement(BACK, (1240.0, 300.0), 20.0, 150.0)
    image = cam.render([face, back]).image
    corners = face.corners()
    index = corners[0] + (corners - corners[0]) * 0.15  # the 7H's index, at its first corner
    read = [Sighting("7H", 1.0, tuple(map(tuple, corners)), tuple(map(tuple, index)))]
    (found,) = colour_backs(image, read)
    outline = np.array(found.outline)
    for c in back.corners():  # every corner, the two beyond the edge too, within 0.15 card widths
        assert np.linalg.norm(outline - c, axis=1).min() < 0.15 * back.width
    assert outline[:, 0].max() > image.shape[1]
    monkeypatch.setattr(colour_search, "_backs_the_edge_cuts", lambda *a: [])
    assert colour_backs(image, read) == []  # the searches for whole backs do not see it


def test_the_tables_lightness_is_measured_once_a_frame() -> None:
    # ``table_is_pale`` (asked by the quick read) and the colour search measure the same copy of a frame
    shot = SimulatedCamera(size=(1280, 720), background="white", seed=0).frame_for(["BK", "7H"], "scatter")
    image = shot.image
    with sharing(image):
        assert table_is_pale(image)
        small = resized(image, (640, 360))
        assert _lightness(image, small) is _lightness(image, small)
    assert _lightness(image, small) is not _lightness(image, small)  # outside the frame's scope: afresh
