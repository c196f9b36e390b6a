"""vision.looks: a still photo read three ways, and the cards two of the readings agree on."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import Recognizer, SimulatedCamera
from vision.looks import SHIFT, agreed, look, several_looks
from vision.sighting import Sighting


def card(code: str, x: float, y: float, confidence: float = 0.9) -> Sighting:
    """A 60 × 84 card with its top-left corner at (x, y) and its index there."""
    outline = ((x, y), (x + 60, y), (x + 60, y + 84), (x, y + 84))
    index = ((x + 2, y + 2), (x + 12, y + 2), (x + 12, y + 24), (x + 2, y + 24))
    return Sighting(code, confidence, outline, index, ("index",))


def test_a_card_stands_where_two_looks_see_it_alike_and_goes_where_one_does() -> None:
    first = [card("AS", 0, 0), card("3C", 300, 0, 0.7)]  # the 3C made up by one look only
    second = [card("AS", 2, 1), card("KD", 100, 200)]
    third = [card("AS", 1, 2), card("KD", 103, 198)]  # the KD the first look missed
    out = agreed([first, second, third])
    assert [s.card for s in out] == ["AS", "KD"]
    # the earliest look that saw a card stands for it, and says how many saw it
    assert out[0].outline == first[0].outline and out[0].evidence == ("index", "seen alike in 3 of 3 looks")
    assert out[1].outline == second[1].outline and out[1].evidence[-1] == "seen alike in 2 of 3 looks"


def test_two_copies_of_a_code_are_two_cards_and_a_code_seen_in_two_places_is_none() -> None:
    # a six-deck shoe's two aces of spades, each seen by two looks: both stand
    a, b = card("AS", 0, 0), card("AS", 400, 0)
    assert len(agreed([[a, b], [b], [a]])) == 2
    # one look sees the ace here, another there: not the same card, so neither stands
    assert agreed([[a], [b], []]) == []
    # and a look's one sighting agrees with one of another look's at most: two of the first look's
    # sightings on one card of the second are one card agreed and one alone
    assert len(agreed([[card("AS", 0, 0), card("AS", 5, 5)], [card("AS", 2, 2)], []])) == 1


def centred(code: str, x: float, y: float) -> Sighting:
    """A 60 × 84 card lying square with its middle at (x, y)."""
    return Sighting(code, 0.9, ((x - 30, y - 42), (x + 30, y - 42), (x + 30, y + 42), (x - 30, y + 42)))


def test_the_moved_and_turned_looks_are_mapped_back_onto_the_photo() -> None:
    image = np.zeros((90, 160, 3), np.uint8)
    image[30, 50] = (0, 0, 255)
    seen: list[np.ndarray] = []

    def read(im: np.ndarray) -> list[Sighting]:
        """A card wherever the image's one red pixel is (as a recogniser reads a card drawn there)."""
        seen.append(im)
        y, x = np.unravel_index(int(np.argmax(im[..., 2])), im.shape[:2])
        return [centred("7H", float(x), float(y))]

    out = several_looks(read, image, 3)
    # the images read: the photo, and the photo moved two pixels up and left; the two agree on every
    # card, so a third look could change nothing and is not taken
    assert len(seen) == 2
    assert np.array_equal(seen[1][:-2, :-2], image[2:, 2:]) and seen[1].shape == image.shape
    assert len(out) == 1 and out[0].evidence[-1] == "seen alike in 2 of 2 looks"
    assert out[0].outline == centred("7H", 50, 30).outline
    # where they disagree (a card only the moved look sees), the photo turned upside down is read too,
    # its card placed back on the photo: there the red pixel's card again, so it stands with three
    extra = [centred("KD", 120, 45)]
    seen.clear()
    out = several_looks(lambda im: read(im) + (extra if len(seen) == 2 else []), image, 3)
    assert len(seen) == 3 and np.array_equal(seen[2], image[::-1, ::-1])
    assert [(s.card, s.evidence[-1]) for s in out] == [("7H", "seen alike in 3 of 3 looks")]
    assert several_looks(read, image, 1) == [centred("7H", 50, 30)]
    with pytest.raises(ValueError, match="looks must be one of 1, 3, 4, got 2"):
        several_looks(read, image, 2)
    with pytest.raises(ValueError, match=r"look must be 0 \(as it is\), .* got 4"):
        look(read, image, 4)


def test_a_card_only_the_turned_look_makes_up_is_dropped_and_one_the_first_misses_is_kept() -> None:
    image = np.zeros((90, 160, 3), np.uint8)
    calls: list[int] = []

    def read(im: np.ndarray) -> list[Sighting]:
        """The ace with its middle at (40, 50) of the photo, seen in each look's own pixels; the first
        look misses it, the turned one makes a joker up."""
        calls.append(1)
        if len(calls) == 1:
            return []
        if len(calls) == 2:  # moved two pixels up and left
            return [centred("AS", 38, 48)]
        return [centred("AS", 160 - 1 - 40, 90 - 1 - 50), centred("JK", 20, 20)]

    out = several_looks(read, image, 3)
    assert [s.card for s in out] == ["AS"]
    assert out[0].outline == centred("AS", 40, 50).outline  # the moved look's, placed back on the photo
    assert out[0].evidence == ("seen alike in 2 of 3 looks",)


def test_the_recogniser_reads_a_photo_three_ways_and_keeps_what_it_read_once() -> None:
    cam = SimulatedCamera(size=(960, 540), background="felt", seed=7, card_width=140)
    frame = cam.frame_for(["AS", "10H", "QD", "7C"], layout="row").image
    once = Recognizer("table").recognize(frame)
    thrice = Recognizer("table", looks=3).recognize(frame)
    assert sorted(s.card for s in thrice) == sorted(s.card for s in once) == ["10H", "7C", "AS", "QD"]
    for s in thrice:
        twin = next(o for o in once if o.card == s.card)
        assert np.abs(np.subtract(s.centre, twin.centre)).max() < 3  # on the photo's own pixels
        assert s.evidence[-1] in ("seen alike in 2 of 2 looks", "seen alike in 3 of 3 looks")
    with pytest.raises(ValueError, match="looks must be 1 .*, 3 or 4"):
        Recognizer("table", looks=2)


def test_a_fourth_look_turned_a_quarter_settles_a_card_one_look_alone_saw() -> None:
    image = np.zeros((90, 160, 3), np.uint8)
    image[30, 50] = (0, 0, 255)
    seen: list[np.ndarray] = []

    def read(im: np.ndarray) -> list[Sighting]:
        """A 7H wherever the red pixel is; the moved look alone sees a KD at (120, 45) of the photo,
        and so does the look turned a quarter (there at (89 - 45, 120) of its own pixels)."""
        seen.append(im)
        y, x = np.unravel_index(int(np.argmax(im[..., 2])), im.shape[:2])
        extra = {2: [centred("KD", 118, 43)], 4: [centred("KD", 89 - 45, 120)]}.get(len(seen), [])
        return [centred("7H", float(x), float(y)), *extra]

    out = several_looks(read, image, 4)
    assert len(seen) == 4 and np.array_equal(seen[3], np.rot90(image, -1))  # turned clockwise
    assert [(s.card, s.evidence[-1]) for s in out] == [
        ("7H", "seen alike in 4 of 4 looks"),
        ("KD", "seen alike in 2 of 4 looks"),
    ]
    assert out[1].outline == centred("KD", 120, 45).outline  # the moved look's, placed back
    # three looks stop at the third: the KD stands on the moved look's word alone, and goes
    seen.clear()
    assert [s.card for s in several_looks(read, image, 3)] == ["7H"] and len(seen) == 3


def test_no_fourth_look_where_the_third_leaves_no_card_on_one_look_alone() -> None:
    image = np.zeros((90, 160, 3), np.uint8)
    calls: list[int] = []

    def read(im: np.ndarray) -> list[Sighting]:
        """The first look misses the ace at (40, 50) of the photo; the moved and turned looks see it."""
        calls.append(1)
        return [
            [],
            [centred("AS", 38, 48)],
            [centred("AS", 160 - 1 - 40, 90 - 1 - 50)],
        ][min(len(calls), 3) - 1]

    out = several_looks(read, image, 4)
    assert len(calls) == 3
    assert [(s.card, s.evidence[-1]) for s in out] == [("AS", "seen alike in 2 of 3 looks")]


def test_a_sighting_of_the_photo_turned_a_quarter_is_placed_back_pixel_for_pixel() -> None:
    from vision.looks import _quarter_back

    # the photo is 160 × 90; turned clockwise it is 90 wide and 160 tall, and its top-left pixel
    # is the photo's bottom-left (0, 89)
    s = Sighting("AS", 0.9, ((0, 0), (10, 0), (10, 14), (0, 14)), ((1, 1), (3, 1), (3, 5), (1, 5)))
    back = _quarter_back(s, 90)
    assert back.outline == ((0, 89), (0, 79), (14, 79), (14, 89))
    assert back.index_corner == ((1, 88), (1, 86), (5, 86), (5, 88))
    assert (back.card, back.confidence) == ("AS", 0.9)
    image = np.zeros((90, 160), np.uint8)
    image[20, 130] = 255
    turned = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    ty, tx = np.unravel_index(int(np.argmax(turned)), turned.shape)
    assert _quarter_back(Sighting("AS", 0.9, ((float(tx), float(ty)),) * 4), 90).outline[0] == (130, 20)


def test_a_sighting_of_the_turned_photo_is_placed_back_pixel_for_pixel() -> None:
    from vision.looks import _turned_back

    s = Sighting("AS", 0.9, ((0, 0), (10, 0), (10, 14), (0, 14)), ((1, 1), (3, 1), (3, 5), (1, 5)))
    back = _turned_back(s, 160, 90)  # pixel (0, 0) of the turned photo is pixel (159, 89) of the photo
    assert back.outline == ((159, 89), (149, 89), (149, 75), (159, 75))
    assert back.index_corner == ((158, 88), (156, 88), (156, 84), (158, 84))
    assert (back.card, back.confidence) == ("AS", 0.9)


@settings(max_examples=80, deadline=None)
@given(
    w=st.integers(min_value=3, max_value=40),
    h=st.integers(min_value=3, max_value=40),
    fx=st.floats(min_value=0, max_value=1),
    fy=st.floats(min_value=0, max_value=1),
    k=st.sampled_from([0, 1, 2, 3]),
)
def test_every_look_places_a_card_back_on_the_pixel_it_lies_on(
    w: int, h: int, fx: float, fy: float, k: int
) -> None:
    # one marked pixel (not in the two rows and columns the moved look cuts off), and a card wherever a
    # look's image has it: placed back on the photo, the card lies on the marked pixel
    x, y = min(w - 1, SHIFT + int(fx * (w - SHIFT))), min(h - 1, SHIFT + int(fy * (h - SHIFT)))
    image = np.zeros((h, w, 3), np.uint8)
    image[y, x] = 255

    def read(im: np.ndarray) -> list[Sighting]:
        ty, tx = np.unravel_index(int(np.argmax(im[..., 0])), im.shape[:2])
        return [Sighting("AS", 0.9, ((float(tx), float(ty)),) * 4)]

    assert look(read, image, k)[0].outline[0] == (x, y)
