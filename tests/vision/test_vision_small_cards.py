"""The learned finder's pass at twice its working size where the cards in view are small
(vision.index_frames.small_card_frames): a phone photo of a whole table shows cards of 100 px in a
3200-px frame, 16 network pixels wide at the finder's 512; and again at four times that size where those
cards are still small (a 4032-px photo of 55-px cards)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from reading_checks import reads_more_with

from vision import Recognizer, SimulatedCamera, index_frames
from vision.finder import FinderMaps, IndexFrame, default_finder, frame_from_vectors
from vision.sighting import Sighting

CODES = ["AS", "10H", "QD", "7C", "6S", "9D", "KH", "4C"]


def _frame(x: float, width: float, score: float = 0.9) -> IndexFrame:
    return frame_from_vectors(np.array([x, 100.0]), np.array([width, 0.0]), np.array([0.0, width]), score)


def _maps(view: np.ndarray, finder_size: int = 512) -> FinderMaps:
    """First-pass maps of ``view`` as ``small_card_frames`` uses them: only their scale counts."""
    h, w = view.shape[:2]
    scale = max(1.0, max(h, w) / finder_size)
    empty = np.zeros((3, 1, 1), np.float32)
    return FinderMaps(empty, np.zeros((7, 1, 1), np.float32), scale, (round(w / scale), round(h / scale)))


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The long side of the network's input in each run of the learned finder, in order."""
    finder = default_finder()
    real_run = type(finder).run_scaled
    sides: list[int] = []

    def spy(self: object, small: np.ndarray, scale: float) -> FinderMaps:
        sides.append(max(small.shape[:2]))
        return real_run(self, small, scale)

    monkeypatch.setattr(type(finder), "run_scaled", spy)
    return sides


def test_the_small_card_pass_runs_only_where_the_cards_in_view_are_small(runs: list[int]) -> None:
    rec = Recognizer("table")
    view = np.full((2400, 3200, 3), 60, np.uint8)  # a phone photo's size: 6.25 pixels per network pixel
    maps = _maps(view)
    big = [_frame(100.0 + 400 * k, 300.0) for k in range(3)]  # 48 network pixels wide
    small = [_frame(100.0 + 200 * k, 120.0) for k in range(3)]  # 19 network pixels wide

    assert index_frames.small_card_frames(rec, view, maps, big) == big
    assert runs == []  # cards this big are seen well at the working size
    # the median card decides, among the surer frames: a pip or court art raises small weak ones
    faint = [_frame(2000.0 + 150 * k, 120.0, score=0.35) for k in range(5)]
    assert index_frames.small_card_frames(rec, view, maps, big + faint) == big + faint
    assert runs == []
    # small cards: a second pass at twice the working size (a bare table adds no frame)
    assert index_frames.small_card_frames(rec, view, maps, small) == small
    assert runs == [2 * rec.finder_size]
    runs.clear()
    rec.small_pass = False
    assert index_frames.small_card_frames(rec, view, maps, small) == small
    assert runs == []
    # a frame the first pass saw at (nearly) full size has nothing more to show
    rec.small_pass = True
    one = [_frame(100.0, 20.0)]
    webcam = np.full((480, 640, 3), 60, np.uint8)
    assert index_frames.small_card_frames(rec, webcam, _maps(webcam), one) == one
    assert runs == [640]  # a little more than the working size, never more than the frame itself
    runs.clear()
    tiny = np.full((400, 500, 3), 60, np.uint8)
    assert index_frames.small_card_frames(rec, tiny, _maps(tiny), one) == one
    assert runs == []


@pytest.mark.parametrize(
    ("background", "width", "layout", "read"),
    [("light_wood", 90, "hand", 8), ("felt", 90, "fan", 6), ("white", 110, "hand", 8)],
)
def test_small_cards_in_a_big_photo_are_read_at_twice_the_working_size(
    background: str, width: int, layout: str, read: int
) -> None:
    # 90-110 px cards in a 3200 × 2400 picture are 14-18 network pixels wide at the first pass,
    # where the index of a hand's or a fan's card is a pixel or two of the index map
    image = SimulatedCamera(size=(3200, 2400), background=background, seed=5, card_width=width).frame_for(
        CODES, layout
    ).image
    reads_more_with(Recognizer("table"), image, CODES, read, "small_pass")


def test_a_big_photos_table_grain_is_not_traced_for_corners(monkeypatch: pytest.MonkeyPatch) -> None:
    # at the classic finder's 640-px working width a 6000-px photo of light wood shows its grain as
    # bright bands across the frame; traced at full resolution they gave some 1,800 corner frames to read
    import cv2

    from vision import detect

    traced: list[float] = []  # each traced region's long side, in card widths
    real = detect._fine_corners

    def spy(image: np.ndarray, contour: np.ndarray, card_width: float, scale: float) -> list:
        traced.append(max(cv2.boundingRect(contour)[2:]) / card_width)
        return real(image, contour, card_width, scale)

    monkeypatch.setattr(detect, "_fine_corners", spy)
    codes = CODES + ["JS"]
    cam = SimulatedCamera(size=(6000, 4000), background="light_wood", seed=13, card_width=150)
    found = Counter(s.card for s in Recognizer("table").recognize(cam.frame_for(codes, "scatter").image))
    assert found == Counter(codes)
    assert traced and max(traced) <= detect.MAX_SPREAD


@pytest.mark.parametrize(
    ("background", "size", "width"),
    [("light_wood", (4032, 3024), 55), ("white", (4032, 3024), 55), ("light_wood", (6000, 4000), 80)],
)
def test_cards_still_small_at_twice_the_size_are_looked_for_at_four_times_it(
    runs: list[int], background: str, size: tuple[int, int], width: int
) -> None:
    # hands of 55-px cards in a 4032-px phone photo are 7 network pixels wide at the first pass and 14
    # at the second, where a lower card's index is lost beside the upper card's; at 2048 px they are 28
    image = SimulatedCamera(size=size, background=background, seed=5, card_width=width).frame_for(
        CODES, "hand"
    ).image
    rec = Recognizer("table")
    reads_more_with(rec, image, CODES, len(CODES), "deeper_small_pass")
    small_passes = [s for s in runs if s > rec.finder_size]
    # read whole with the deeper pass; the second reading (without it) stops at twice the size
    assert 4 * rec.finder_size in small_passes
    assert max(small_passes) == 4 * rec.finder_size  # never more: the frame itself is far bigger


def test_a_frame_under_one_and_a_half_times_the_second_pass_gets_no_third(runs: list[int]) -> None:
    # the benchmark scenes' 1280-px frames: the 1024-px pass has seen all but a fifth more
    image = SimulatedCamera(size=(1280, 960), background="light_wood", seed=5, card_width=40).frame_for(
        CODES, "hand"
    ).image
    Recognizer("table").recognize(image)
    assert 1024 in runs and max(runs) <= 1024


def _square(code: str, x: float, y: float, side: float, confidence: float = 0.99) -> Sighting:
    outline = ((x, y), (x + side, y), (x + side, y + 1.4 * side), (x, y + 1.4 * side))
    index = ((x, y), (x + 0.2 * side, y), (x + 0.2 * side, y + 0.4 * side), (x, y + 0.4 * side))
    return Sighting(code, confidence, outline, index)


def test_the_small_card_pass_looks_round_what_the_cards_read_surely_leave_unexplained() -> None:
    view = np.full((1080, 1920, 3), 60, np.uint8)
    maps = _maps(view)  # an interior map with no card surface
    ace = _square("AS", 100.0, 100.0, 100.0)
    on_it = _frame(100.0, 100.0)  # at the ace's index corner
    off = _frame(1000.0, 100.0)  # where no card is read
    # nothing read surely: the pass looks at the whole frame
    assert index_frames._unexplained_boxes(maps, [on_it, off], []) is None
    unsure = _square("AS", 100.0, 100.0, 100.0, confidence=0.6)
    assert index_frames._unexplained_boxes(maps, [on_it, off], [unsure]) is None
    # a frame the ace holds needs no second look; one off it does, with two card widths round it
    (box,) = index_frames._unexplained_boxes(maps, [on_it, off], [ace])
    x, y = index_frames.index_point(off)
    assert box == pytest.approx((x - 200.0, y - 200.0, x + 200.0, y + 200.0))
    assert index_frames._unexplained_boxes(maps, [on_it], [ace]) == []


def test_small_cards_read_whole_leave_the_small_card_pass_a_back(runs: list[int]) -> None:
    # twelve 100-px cards apart in a 1920-px frame (``dealer bench vision``'s): 27 network pixels at the
    # finder's 512, so its pass at 1024 px is due; the faces are read whole from their outlines, and
    # only the back's corners (the back is found later, by colour) are left for that pass to look at
    codes = ["AS", "10H", "QD", "7C", "6S", "9D", "KH", "4C", "JS", "2D", "BK", "8H"]
    cam = SimulatedCamera(size=(1920, 1080), background="felt", seed=11, card_width=100)
    image = cam.frame_for(codes, "scatter").image
    rec = Recognizer("table")
    assert Counter(s.card for s in rec.recognize(image)) == Counter(codes)
    assert 2 * rec.finder_size not in runs  # parts of the frame only, none of them that wide
    runs.clear()
    rec.small_pass_windows = False  # the same cards from the pass over the whole frame
    assert Counter(s.card for s in rec.recognize(image)) == Counter(codes)
    assert 2 * rec.finder_size in runs
