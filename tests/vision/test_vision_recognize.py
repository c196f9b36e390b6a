"""Recognition on the project's own rendered frames (SimulatedCamera): layouts, look-alikes, backs."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from vision import Recognizer, SimulatedCamera
from vision.detect import CardQuad
from vision.index_frames import UNLIKE_FAR
from vision.recognizer import (
    _IndexCorners,
    _no_joker_on_a_back,
    _one_reading_per_index,
    _one_sighting_per_card,
)
from vision.render import CardStyle, render_back, render_card
from vision.sighting import BACK, JOKER, Sighting
from vision.simcam import Placement


def _codes(rec: Recognizer, image: np.ndarray) -> Counter[str]:
    return Counter(s.card for s in rec.recognize(image))


@pytest.mark.parametrize("background", ["felt", "wood", "dark", "grey"])
def test_a_row_of_cards_is_read_on_every_background(table_recognizer: Recognizer, background: str) -> None:
    codes = ["AS", "10H", "QD", "7C", "KS", "3D"]
    shot = SimulatedCamera(size=(1280, 720), background=background, seed=5).frame_for(codes, "row")
    assert _codes(table_recognizer, shot.image) == Counter(codes)


@pytest.mark.parametrize(
    "pair",
    [
        ("6S", "9S"),
        ("6H", "9H"),
        ("QC", "9C"),
        ("4D", "6D"),
        ("7H", "9H"),
        ("AC", "4C"),
        ("AH", "AD"),
        ("5S", "5C"),
    ],
)
def test_look_alikes_are_told_apart_at_any_rotation(
    table_recognizer: Recognizer, pair: tuple[str, str]
) -> None:
    cam = SimulatedCamera(size=(1280, 720), background="felt", seed=9, card_width=150)
    placements = []
    for i, angle in enumerate((0, 90, 180, 270)):
        for j, code in enumerate(pair):
            placements.append(Placement(code, (160 + 300 * i, 190 + 340 * j), angle + 7.0 * j, 150))
    shot = cam.render(placements)
    assert _codes(table_recognizer, shot.image) == Counter(p.code for p in placements)


def test_face_down_cards_are_reported_as_backs(table_recognizer: Recognizer) -> None:
    shot = SimulatedCamera(background="dark", seed=2).frame_for(["BK", "JD", "BK"], "row")
    assert _codes(table_recognizer, shot.image) == Counter({"BK": 2, "JD": 1})


def test_scattered_cards_of_mixed_sizes_each_counted_once(table_recognizer: Recognizer) -> None:
    codes = ["2C", "8H", "JS", "10D", "5H", "KC", "9D", "4S"]
    shot = SimulatedCamera(size=(1920, 1080), background="wood", seed=4, card_width=190).frame_for(
        codes, "scatter"
    )
    found = table_recognizer.recognize(shot.image)
    assert Counter(s.card for s in found) == Counter(codes)
    for s in found:  # outline lies on the card it names
        p = next(p for p in shot.placements if p.code == s.card)
        assert np.linalg.norm(np.array(s.centre) - np.array(p.centre)) < 0.25 * p.width
        assert s.index_corner is not None


def test_overlapping_two_card_hands_read_from_the_visible_corners(table_recognizer: Recognizer) -> None:
    codes = ["AS", "KH", "9C", "6D"]
    shot = SimulatedCamera(size=(1280, 720), background="felt", seed=1, card_width=150).frame_for(
        codes, "hand"
    )
    assert _codes(table_recognizer, shot.image) == Counter(codes)


def test_shoe_mode_reports_the_one_card_in_the_window(shoe_recognizer: Recognizer) -> None:
    cam = SimulatedCamera(size=(640, 480), background="dark", seed=3)
    for code in ("QS", "9H", "10C"):
        shot = cam.frame_for([code], "shoe")
        found = shoe_recognizer.recognize(shot.image)
        assert [s.card for s in found] == [code]


def test_an_empty_table_gives_no_sightings(table_recognizer: Recognizer) -> None:
    assert table_recognizer.recognize(SimulatedCamera(seed=8).render([]).image) == []


def test_bad_input_is_rejected_clearly(table_recognizer: Recognizer) -> None:
    with pytest.raises(ValueError, match="BGR image"):
        table_recognizer.recognize(np.zeros((10, 10), np.uint8))
    with pytest.raises(ValueError, match="mode"):
        Recognizer("floor")  # type: ignore[arg-type]


@pytest.mark.parametrize("layout", ["row", "scatter"])
def test_jokers_are_reported_as_jokers_not_jacks(table_recognizer: Recognizer, layout: str) -> None:
    # a joker's J over its O must not pass for a jack of diamonds
    codes = ["JK", "JD", "KS", "JK", "BK", "JC"]
    shot = SimulatedCamera(size=(1280, 720), background="felt", seed=3).frame_for(codes, layout)
    assert _codes(table_recognizer, shot.image) == Counter(codes)


def test_a_joker_in_an_overlapping_hand_is_read_from_its_corner(table_recognizer: Recognizer) -> None:
    codes = ["JK", "9C", "QH", "JK"]
    cam = SimulatedCamera(size=(1280, 720), background="dark", seed=3, card_width=150)
    shot = cam.frame_for(codes, "hand")
    assert _codes(table_recognizer, shot.image) == Counter(codes)


@pytest.mark.parametrize(
    ("background", "seed", "spread"), [("felt", 5, 9.0), ("wood", 6, 9.0), ("dark", 7, 9.0), ("felt", 5, 7.0)]
)
def test_a_fan_is_read_from_the_index_corners_that_show(
    table_recognizer: Recognizer, background: str, seed: int, spread: float
) -> None:
    codes = ["4H", "KS", "QH", "9C", "7D"]  # each card shows its corner and a short stub of its edges
    cam = SimulatedCamera(
        size=(1920, 1080), background=background, seed=seed, card_width=170, fan_spread=spread
    )
    shot = cam.frame_for(codes, "fan")
    assert _codes(table_recognizer, shot.image) == Counter(codes)


def test_court_cards_are_never_taken_for_backs(table_recognizer: Recognizer) -> None:
    # a back is a card with no index on either index corner AND a pattern reaching every edge;
    # court art is dense too, so a face whose index is hard to read must not become "BK"
    codes = [r + s for s in "SHDC" for r in "JQK"] + ["BK", "JK", "BK"]
    cam = SimulatedCamera(size=(1920, 1080), background="dark", seed=12, card_width=160)
    placements = [
        Placement(c, (200 + (i % 5) * 370, 190 + (i // 5) * 345), (i * 47) % 360, 160)
        for i, c in enumerate(codes)
    ]
    shot = cam.render(placements)
    assert _codes(table_recognizer, shot.image) == Counter(codes)


@pytest.mark.parametrize("code", ["6C", "AD", "QH", "10S"])
def test_a_card_seen_lengthwise_at_a_slant_is_read(table_recognizer: Recognizer, code: str) -> None:
    """Laid lengthwise away from a low camera, a card's long sides look shorter than its short ones:
    the index is then at the corners an outline from the apparent short side does not start at."""
    face = render_card(code, 300, seed=3).image
    h, w = face.shape[:2]
    rng = np.random.default_rng(1)
    table = np.clip(rng.normal((40, 45, 95), 6, (720, 1280, 3)), 0, 255).astype(np.uint8)
    far_left, far_right, near_right, near_left = (560, 300), (720, 300), (770, 430), (510, 430)
    m = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [w, 0], [w, h], [0, h]]),
        np.float32([far_left, far_right, near_right, near_left]),
    )
    card = cv2.warpPerspective(face, m, (1280, 720))
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, (1280, 720)) > 127
    table[mask] = card[mask]
    assert (far_right[0] - far_left[0]) > np.hypot(near_left[0] - far_left[0], near_left[1] - far_left[1])
    assert _codes(table_recognizer, table) == Counter([code])


def test_a_joker_reading_on_a_back_is_the_back_and_one_on_a_joker_is_kept() -> None:
    # a back's lattice at a corner can pass for "JOKER" spelt down the index; a joker's face has
    # bare margins, a back's pattern runs to every edge
    table = np.full((700, 900, 3), (40, 90, 30), np.uint8)
    for x, code in ((100, BACK), (500, JOKER)):
        card = render_card(code, 250).image
        table[150 : 150 + card.shape[0], x : x + card.shape[1]] = card
    outlines = {
        code: ((x, 150.0), (x + 250.0, 150.0), (x + 250.0, 500.0), (x, 500.0))
        for x, code in ((100.0, BACK), (500.0, JOKER))
    }
    read = [Sighting(JOKER, 0.8, outlines[BACK], None), Sighting(JOKER, 0.8, outlines[JOKER], None)]
    assert [(s.card, s.outline) for s in _no_joker_on_a_back(table, read)] == [
        (BACK, outlines[BACK]),
        (JOKER, outlines[JOKER]),
    ]
    # read at both of the back's corners: one back
    twice = [Sighting(JOKER, 0.8, outlines[BACK], None), Sighting(JOKER, 0.9, outlines[BACK], None)]
    assert [s.card for s in _no_joker_on_a_back(table, twice)] == [BACK]
    # where the back was already seen whole, the joker reading is only dropped
    seen = [Sighting(BACK, 0.8, outlines[BACK], None), Sighting(JOKER, 0.8, outlines[BACK], None)]
    assert [s.card for s in _no_joker_on_a_back(table, seen)] == [BACK]


def test_a_joker_read_unsurely_where_no_card_lies_is_dropped() -> None:
    # letters printed on a felt (or a receipt's lines) can read as "JOKER" down an index: where the
    # card the reading implies shows no card at all, an unsure joker is those letters
    table = np.full((700, 900, 3), (95, 40, 80), np.uint8)
    for i, word in enumerate(("INSURANCE", "PAYS 2 TO 1")):
        cv2.putText(table, word, (120, 220 + 90 * i), cv2.FONT_HERSHEY_DUPLEX, 2.2, (120, 170, 230), 5)
    joker = render_card(JOKER, 250).image
    table[150 : 150 + joker.shape[0], 600 : 600 + joker.shape[1]] = joker
    on_felt = ((300.0, 150.0), (550.0, 150.0), (550.0, 500.0), (300.0, 500.0))
    on_joker = ((600.0, 150.0), (850.0, 150.0), (850.0, 500.0), (600.0, 500.0))
    read = [Sighting(JOKER, 0.8, on_felt, None), Sighting(JOKER, 0.8, on_joker, None)]
    assert [s.outline for s in _no_joker_on_a_back(table, read)] == [on_joker]
    # a sure reading goes too where the network sees neither a face nor a back there and nothing lies
    # over it (session 46: receipts read as jokers at 0.97-1.0); on the joker it stands
    sure = [Sighting(JOKER, 0.95, on_felt, None), Sighting(JOKER, 0.95, on_joker, None)]
    assert [s.outline for s in _no_joker_on_a_back(table, sure)] == [on_joker]
    # a joker in a fan: the cards over its outline are why the network sees no single card there
    over = ((330.0, 170.0), (580.0, 170.0), (580.0, 520.0), (330.0, 520.0))
    for confidence in (0.8, 0.95):
        fan = [Sighting(JOKER, confidence, on_felt, None), Sighting("5H", 0.99, over, None)]
        assert [s.card for s in _no_joker_on_a_back(table, fan)] == [JOKER, "5H"]


def test_a_receipts_ruled_lines_read_surely_as_a_joker_are_dropped() -> None:
    # a slip of paper with printed lines on a table, the corner of it read as "JOKER" at 0.99, as
    # three receipts of the 480-scene sets were (session 46): the network sees no card there
    table = np.full((700, 900, 3), (90, 60, 20), np.uint8)  # dark blue cloth
    slip = np.array([[150, 150], [400, 150], [400, 500], [150, 500]], np.int32)
    cv2.fillConvexPoly(table, slip, (228, 236, 238), cv2.LINE_AA)
    for k in range(9):
        y = 190 + 34 * k
        cv2.line(table, (175, y), (175 + 150 + 40 * (k % 3), y), (60, 60, 60), 3, cv2.LINE_AA)
    joker = render_card(JOKER, 250).image
    table[150 : 150 + joker.shape[0], 550 : 550 + joker.shape[1]] = joker
    on_slip = tuple((float(x), float(y)) for x, y in slip)
    on_joker = ((550.0, 150.0), (800.0, 150.0), (800.0, 500.0), (550.0, 500.0))
    read = [Sighting(JOKER, 0.99, on_slip, None), Sighting(JOKER, 0.99, on_joker, None)]
    assert [s.outline for s in _no_joker_on_a_back(table, read)] == [on_joker]


def test_a_back_whose_lattice_looks_like_letters_at_a_corner_is_a_back() -> None:
    card = render_back(260, CardStyle(back_colour=(120, 120, 120)))
    h, w = card.image.shape[:2]
    table = np.full((h + 80, w + 80, 3), (40, 110, 40), np.uint8)
    table[40 : 40 + h, 40 : 40 + w] = card.image
    quad = CardQuad(np.array([[40, 40], [40 + w, 40], [40 + w, 40 + h], [40, 40 + h]], np.float32))
    corners = _IndexCorners(table, quad)
    assert corners.joker(0) or corners.joker(2)  # the lattice at a corner reads like J-O-K-E-R
    assert [s.card for s in Recognizer("table").recognize(table)] == [BACK]


def test_an_index_read_through_its_frame_is_not_read_again_as_another_card() -> None:
    # two-card hands on wood: a blob corner at the 8C's index (already read through its index
    # frame) once read as a 5C, a card that is not on the table
    codes = ["AD", "6D", "4H", "4S", "8S", "2C", "8C", "JS"]
    cam = SimulatedCamera(size=(1920, 1080), background="wood", seed=4001, card_width=170)
    shot = cam.frame_for(codes, "hand")
    assert sorted(s.card for s in Recognizer("table").recognize(shot.image)) == sorted(codes)


def test_one_index_read_as_two_cards_is_the_card_most_readings_agree_on() -> None:
    # a jack's index read upright at two corner frames as JS, and once through a frame turned a
    # quarter as 3S: one patch of ink is one card, and the wrong code must not stand beside it
    outline = ((600.0, 840.0), (800.0, 840.0), (800.0, 1120.0), (600.0, 1120.0))
    index = ((608.0, 850.0), (640.0, 850.0), (640.0, 905.0), (608.0, 905.0))
    jack = Sighting("JS", 1.0, outline, index, evidence=("index", "JS:1.00", "JS:0.99"))
    misread = Sighting("3S", 0.99, outline, tuple((x + 4, y + 3) for x, y in index), ("index", "3S:0.99"))
    assert _one_reading_per_index([misread, jack]) == [jack]
    # a hand: the lower card's index beside the upper card's is another card, and both stand
    beside = Sighting("8D", 0.99, outline, tuple((x + 60, y) for x, y in index), ("index", "8D:0.99"))
    assert _one_reading_per_index([jack, beside]) == [jack, beside]
    # the same index read twice alike is one card
    again = Sighting("JS", 0.95, outline, tuple((x + 2, y) for x, y in index), ("index", "JS:0.95"))
    assert _one_reading_per_index([again, jack]) == [jack]


def card_read_at(code: str, conf: float, x: float, y: float, far: bool = False, *evidence: str) -> Sighting:
    """A 100 × 140 card at (x, y), read at its top-left index corner, or at its bottom-right (``far``)."""
    outline = ((x, y), (x + 100, y), (x + 100, y + 140), (x, y + 140))
    ix, iy = (x + 85, y + 105) if far else (x, y)
    index = ((ix, iy), (ix + 15, iy), (ix + 15, iy + 35), (ix, iy + 35))
    return Sighting(code, conf, outline, index, evidence=("index", f"{code}:{conf:.2f}", *evidence))


def test_one_outline_read_at_both_index_corners_is_one_card_and_two_copies_stay_two() -> None:
    near = card_read_at("8D", 0.99, 0, 0)
    # its other index read as 5D, then overruled by its pips: the same outline, both sure
    far = card_read_at("8D", 0.93, 1, 0, True, "face says 8D 1.00")
    assert _one_sighting_per_card([near, far]) == [near]
    # a second copy (a six-deck shoe's) lying a third of a card across it, its index showing: two cards
    copy = card_read_at("8D", 0.95, 30, 20)
    assert _one_sighting_per_card([near, copy]) == [near, copy]


def test_a_joker_read_surely_whose_card_the_frames_edge_cuts_is_kept() -> None:
    # session 53: a joker lying at the frame's bottom edge, read surely at its index, its outline mostly
    # off the frame: the card-side network, shown the quad with the edge's rows repeated, sees no card,
    # and the receipt rule took it for ruled lines. The frame's edge hides it as a card lying over it would
    table = np.full((700, 900, 3), (95, 40, 80), np.uint8)
    joker = render_card(JOKER, 250).image
    top = 630  # a fifth of the card in view (its index corner)
    table[top:, 300:550] = joker[: 700 - top]
    cut = ((300.0, float(top)), (550.0, float(top)), (550.0, top + 350.0), (300.0, top + 350.0))
    assert [s.card for s in _no_joker_on_a_back(table, [Sighting(JOKER, 0.99, cut, None)])] == [JOKER]


@pytest.mark.parametrize("background", ["felt", "white"])
@pytest.mark.parametrize("start", [0, 1, 2, 3], ids=["corner 0", "turned", "corner 2", "turned back"])
def test_a_quad_read_at_either_index_corner_says_when_its_far_index_looks_unlike(
    background: str, start: int
) -> None:
    # A quad read surely at one index corner whose other index corner shows something else may be traced
    # round two cards (the lower card's index then lies inside it and must still be read): whichever
    # corner the outline starts from, and whether it is read as drawn or turned a quarter.
    rec = Recognizer("table")
    cam = SimulatedCamera(size=(1280, 960), background=background, seed=1, card_width=300)
    nine = Placement("9H", (520.0, 480.0), 0.0, 300.0)
    over = Placement("KS", (670.0, 740.0), 30.0, 300.0)  # lying over the nine's lower index
    quad = CardQuad(np.roll(nine.corners(), -start, axis=0).astype(np.float32))
    for cards, unlike in (([nine], False), ([nine, over], True)):
        s = rec._read_quad(cam.render(cards).image, quad, True)
        assert s is not None and s.card == "9H" and s.confidence >= 0.9
        assert (UNLIKE_FAR in s.evidence) == unlike
