"""Overlapping hands: an index read surely is not read again through the other frames that reach it
(a merged region's corners, the closer look), a merged region's corners are read only where glyphs
segment, hypotheses of a hole card that cover an index are not looked at, and a back far smaller
than the cards is part of one, not a card."""

from __future__ import annotations

from collections import Counter
from typing import Any

import cv2
import numpy as np
import pytest

import vision.hand_backs as hand_backs
import vision.recognizer as recognizer
from vision import Recognizer, SimulatedCamera, index_frames
from vision.card_side import CardSideNet
from vision.detect import CardQuad, CornerFrame
from vision.finder import IndexFrame
from vision.index_frames import TAKEN_SURE, TakenIndices, index_point
from vision.patch_reader import PatchReader
from vision.sighting import BACK, Sighting

# the bench's table of six two-card hands (`dealer bench vision`), one of them a back and a face
CODES = ["AS", "10H", "QD", "7C", "6S", "9D", "KH", "4C", "JS", "2D", "BK", "8H"]


@pytest.fixture(scope="module")
def hands() -> np.ndarray:
    cam = SimulatedCamera(size=(1920, 1080), background="felt", seed=11, card_width=170)
    return cam.frame_for(CODES, layout="hand").image


@pytest.fixture(scope="module")
def bench_hands() -> Any:
    """The bench's own hand frame: drawn from its camera after the row and the scatter, as the bench
    draws them. There the back was dealt first and the 8H lies half over it."""
    cam = SimulatedCamera(size=(1920, 1080), background="felt", seed=11, card_width=170)
    for layout in ("row", "scatter"):
        cam.frame_for(CODES, layout=layout)
    return cam.frame_for(CODES, layout="hand")


def _frame(x: float, y: float, width: float = 100.0) -> CornerFrame:
    return CornerFrame(np.array([x, y]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), width)


def _read_at(frame: CornerFrame, code: str, confidence: float) -> Sighting:
    """A card read at upright corner ``frame``: its index box and the card the frame implies."""
    fr = IndexFrame(frame, False, 0.0)
    cx, cy = index_point(fr)
    box = ((cx - 6, cy - 12), (cx + 6, cy - 12), (cx + 6, cy + 12), (cx - 6, cy + 12))
    outline = tuple((float(x), float(y)) for x, y in fr.outline())
    return Sighting(code, confidence, outline, box)


def test_a_frame_at_an_index_or_a_corner_read_surely_is_taken() -> None:
    card = _frame(100, 100)
    taken = TakenIndices.of([_read_at(card, "7C", 0.995)])
    assert taken.holds(_frame(103, 98), sideways=False)  # the same index, a few pixels off
    assert taken.holds(_frame(100 + 100, 100 + 140, 100), sideways=True)  # the card's far corner
    # a card lying on it, as in a fan: its index is inside the outline read, but no index read is there
    assert not taken.holds(_frame(125, 100), sideways=False)
    assert not taken.holds(_frame(400, 100), sideways=False)
    # an unsure reading takes nothing: a corner reading may yet be surer
    unsure = TakenIndices.of([_read_at(card, "7C", TAKEN_SURE - 0.05)])
    assert not unsure.holds(_frame(100, 100), sideways=False)


def test_a_hands_region_corners_at_indices_read_surely_are_not_read_again(
    monkeypatch: pytest.MonkeyPatch, hands: np.ndarray
) -> None:
    real_read = Recognizer._read
    real_corners = Recognizer._read_corners
    state = {"in_corners": False, "reads": 0}

    def read(self: Recognizer, *args: object, **kwargs: object) -> object:
        state["reads"] += state["in_corners"]
        return real_read(self, *args, **kwargs)  # type: ignore[arg-type]

    def read_corners(self: Recognizer, *args: object, **kwargs: object) -> list[Sighting]:
        state["in_corners"] = True
        try:
            return real_corners(self, *args, **kwargs)  # type: ignore[arg-type]
        finally:
            state["in_corners"] = False

    monkeypatch.setattr(Recognizer, "_read", read)
    monkeypatch.setattr(Recognizer, "_read_corners", read_corners)
    # every region's corners looked at, as where a region is not all cards read surely
    monkeypatch.setattr(recognizer, "unexplained", lambda blobs, read: blobs)

    def corner_reads() -> tuple[Counter[str], int]:
        state["reads"] = 0
        rec = Recognizer("table")
        rec.quick = False  # the full read's looks at the regions' corners (vision.quick_read reads none)
        found = Counter(s.card for s in rec.recognize(hands))
        return found, int(state["reads"])

    found, reads = corner_reads()
    monkeypatch.setattr(TakenIndices, "holds", lambda self, f, sideways: False)
    found_all, reads_all = corner_reads()
    assert found == found_all == Counter(CODES)  # every card, once, the back included
    assert reads < 0.7 * reads_all


def test_a_hole_card_hypothesis_that_is_a_face_read_is_not_looked_at(
    monkeypatch: pytest.MonkeyPatch, hands: np.ndarray
) -> None:
    looked: list[np.ndarray] = []
    real_sides = CardSideNet.sides

    def sides(self: CardSideNet, image: np.ndarray, quads: list[object]) -> object:
        looked.extend(np.asarray(q, np.float64).reshape(4, 2) for q in quads)
        return real_sides(self, image, quads)

    real_backs = hand_backs.backs_in_regions
    indices: list[np.ndarray] = []

    def backs_in_regions(image: np.ndarray, blobs: object, known: list[Sighting], **kw: object) -> object:
        indices.extend(np.mean(np.array(s.index_corner), axis=0) for s in known if s.index_corner)
        monkeypatch.setattr(CardSideNet, "sides", sides)
        try:
            return real_backs(image, blobs, known, **kw)  # type: ignore[arg-type]
        finally:
            monkeypatch.setattr(CardSideNet, "sides", real_sides)

    corners_tried: list[CornerFrame] = []

    class RecordedFrame(IndexFrame):  # each corner a hypothesis is built from
        def outline(self) -> np.ndarray:
            corners_tried.append(self.frame)
            return super().outline()

    monkeypatch.setattr(hand_backs, "IndexFrame", RecordedFrame)
    monkeypatch.setattr(recognizer, "backs_in_regions", backs_in_regions)
    found = Recognizer("table").recognize(hands)
    assert Counter(s.card for s in found) == Counter(CODES)
    assert looked and indices and corners_tried
    # none from a corner of a face read surely
    sure = [c for s in found if s.index_corner and s.confidence >= hand_backs.FACE_SURE for c in s.outline]
    for f in corners_tried:
        assert np.hypot(*(np.array(sure) - f.origin).T).min() >= hand_backs.SAME_CORNER * f.width


def _quad(x: float, y: float, w: float, h: float) -> tuple[tuple[float, float], ...]:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def test_a_back_smaller_every_way_than_half_the_faces_width_is_no_card() -> None:
    faces = [
        Sighting(code, 1.0, _quad(x, 100, 170, 238), _quad(x + 5, 105, 20, 45))
        for code, x in (("7C", 100), ("9D", 400), ("KH", 700))
    ]
    sliver = Sighting(BACK, 0.8, _quad(1000, 500, 62, 65), None)  # a back's corner left beside its cover
    whole = Sighting(BACK, 0.8, _quad(1200, 500, 170, 238), None)
    strip = Sighting(BACK, 0.8, _quad(1000, 800, 160, 40), None)  # a hole card's edge: long enough
    kept = recognizer._no_back_on_a_face([*faces, sliver, whole, strip])
    assert sliver not in kept and whole in kept and strip in kept
    # with no face to measure the cards by, a small back stands
    assert recognizer._no_back_on_a_face([sliver]) == [sliver]


def test_the_band_in_view_of_a_back_a_face_lies_over_is_no_back() -> None:
    # the face covers all of the back but a band across its top; a finder outlined the band and the
    # face's top edge as one short card (half the face's area, a third of it on the face): the back
    # searches outline that card whole. A back lying whole over part of a face, its index in view, stays
    face = Sighting("9C", 1.0, _quad(560, 258, 150, 210), _quad(685, 418, 20, 45))  # read at its lower index
    band = Sighting(BACK, 0.8, _quad(560, 180, 150, 114), None)
    beside = Sighting(BACK, 0.8, _quad(760, 180, 150, 114), None)  # as short, but on no face
    over = Sighting(BACK, 0.8, _quad(520, 220, 150, 210), None)
    kept = recognizer._no_back_on_a_face([face, band, beside, over])
    assert band not in kept and beside in kept and over in kept


def test_a_merged_regions_corner_is_read_only_where_its_glyphs_segment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a blurred 50-px card: its glyphs do not segment, the patch reader still reads the index whole
    shot = SimulatedCamera(size=(640, 480), background="felt", seed=3, card_width=50).frame_for(
        ["9D"], "scatter"
    )
    image = cv2.GaussianBlur(shot.image, (0, 0), 1.5)
    corner = CardQuad(shot.placements[0].corners()).frame(0)
    rec = Recognizer("table")
    whole, _ = rec._read(image, corner, False, True)
    assert whole is not None and whole.card == "9D"  # an index frame's corner is read whole
    passes = 0
    real_logits = PatchReader.logits

    def logits(self: PatchReader, x: np.ndarray) -> np.ndarray:
        nonlocal passes
        passes += len(x)
        return real_logits(self, x)

    monkeypatch.setattr(PatchReader, "logits", logits)
    # a merged region's corner is not: most of those are no index corner at all
    assert rec._read(image, corner, False, True, whole=False) == (None, False)
    assert passes == 0
    assert rec._read_corners(image, (corner,), True) == []
    assert passes == 0


def test_an_index_frame_is_read_whole_only_the_way_the_finder_guessed() -> None:
    # the blurred 50-px card again: its index reads only whole, through the patch reader
    shot = SimulatedCamera(size=(640, 480), background="felt", seed=3, card_width=50).frame_for(
        ["9D"], "scatter"
    )
    image = cv2.GaussianBlur(shot.image, (0, 0), 1.5)
    corner = CardQuad(shot.placements[0].corners()).frame(0)
    rec = Recognizer("table")
    read, _ = index_frames._read_frames(rec, image, [IndexFrame(corner, False, 1.0)], True, [])
    assert [r.card for r, _ in read] == ["9D"]
    # guessed sideways, the upright patch is read only where its glyphs segment: the guess is almost
    # always right, and the other way read whole gave 2 readings in 1,880 on training-family scenes
    read, _ = index_frames._read_frames(rec, image, [IndexFrame(corner, True, 1.0)], True, [])
    assert read == []


def test_no_sideways_patch_is_read_whole(monkeypatch: pytest.MonkeyPatch, bench_hands: Any) -> None:
    # the finder guesses "sideways" (a four-index deck's mirrored index) at the bare corners of most
    # of these two-index cards; where such a patch's glyphs do not segment the whole-patch network is
    # not asked about it (it still gives a second opinion on glyphs that segment), and every card is
    # still read
    asked: list[bool] = []
    real = recognizer.second_opinion

    def second_opinion(patch: np.ndarray, m: np.ndarray, sideways: bool, glyphs: Any, **kw: Any) -> Any:
        if glyphs is None:
            asked.append(sideways)
        return real(patch, m, sideways, glyphs, **kw)

    monkeypatch.setattr(recognizer, "second_opinion", second_opinion)
    found = Recognizer("table").recognize(bench_hands.image)
    assert Counter(s.card for s in found) == Counter(CODES)
    assert asked and not any(asked)


def test_a_hole_card_tucked_under_its_up_card_is_a_back(bench_hands: Any) -> None:
    # the back's outline holds the 8H's index, which the recogniser takes for a wrong outline unless
    # the card-side network is surer than for a back found apart from any face
    shot = bench_hands
    found = Recognizer("table").recognize(shot.image)
    assert Counter(s.card for s in found) == Counter(CODES)
    back = next(s for s in found if s.card == BACK)
    assert back.evidence == (hand_backs.UNDER,)
    truth = next(p for p in shot.placements if p.code == BACK).corners()
    off = min(np.abs(np.roll(np.array(back.outline), k, axis=0) - truth).max() for k in range(4))
    assert off < 0.15 * 170  # its hidden corner from the card width traced
    face = next(p for p in shot.placements if p.code == "8H").corners()
    assert recognizer._strictly_inside(back.outline, face.mean(axis=0) * 0.5 + face[0] * 0.5)  # under it


def test_an_unsure_back_under_a_face_is_not_reported(
    monkeypatch: pytest.MonkeyPatch, bench_hands: Any
) -> None:
    monkeypatch.setattr(hand_backs, "UNDER_SURE", 1.01)  # no network is that sure
    found = Recognizer("table").recognize(bench_hands.image)
    assert all(s.evidence != (hand_backs.UNDER,) for s in found)
    # the back may still be found at its own corners (with patch reader v7, which reads the 8H at its
    # index and so leaves the back's corners to the back rule): then on the back dealt, nowhere else
    back = next(p for p in bench_hands.placements if p.code == BACK).corners()
    for s in found:
        if s.card == BACK:
            assert s.evidence == (hand_backs.EVIDENCE,)
            middle = np.mean(np.array(s.outline), axis=0)
            assert recognizer._strictly_inside(tuple(map(tuple, back)), middle)


def test_on_a_pale_table_a_hole_card_under_its_up_card_is_found_by_its_colour() -> None:
    # on light wood the threshold finder's region of a hand runs into the table: the backs are found
    # from their colour regions (part of a card each) joined to the faces lying over them
    codes = ["BK", "10D", "BK", "9C", "BK", "6C", "BK", "AD"]
    cam = SimulatedCamera(size=(1920, 1080), background="light_wood", seed=4000, card_width=170)
    shot = cam.frame_for(codes, "hand")
    found = Recognizer("table").recognize(shot.image)
    assert Counter(s.card for s in found) <= Counter(codes)
    under = [s for s in found if s.evidence == (hand_backs.UNDER,)]
    assert len(under) >= 2
    backs = [p.corners() for p in shot.placements if p.code == BACK]
    for b in under:  # each on a back of its own, not a face's outline
        middle = np.mean(np.array(b.outline), axis=0)
        assert any(recognizer._strictly_inside(tuple(map(tuple, t)), middle) for t in backs)


def test_a_back_found_again_inside_a_bigger_back_is_one_card() -> None:
    # one back found twice: whole, and again as its inner border (or as the card a corner's letters
    # imply); a hand of two backs, one half over the other, stays two cards
    def back(x: float, y: float, w: float, evidence: str = "no index") -> Sighting:
        outline = ((x, y), (x + w, y), (x + w, y + 1.4 * w), (x, y + 1.4 * w))
        return Sighting(BACK, 0.8, outline, None, (evidence,))

    whole, border = back(100, 100, 200), back(120, 130, 150, "JOKER letters on a back's lattice")
    assert recognizer._one_sighting_per_back([border, whole]) == [whole]
    lower, upper = back(100, 100, 200), back(200, 110, 200)  # half a card over the first
    assert recognizer._one_sighting_per_back([lower, upper]) == [lower, upper]
    face = Sighting("7H", 1.0, whole.outline, ((100.0, 100.0),) * 4)
    assert recognizer._one_sighting_per_back([face, border, whole]) == [face, whole]
    # a back traced whole stands before a bigger outline guessed from a merged region's corners
    traced = back(120, 130, 150, recognizer.TRACED_BACK)
    guessed = back(100, 100, 200, "a back among the corners of a merged region")
    assert recognizer._one_sighting_per_back([guessed, traced]) == [traced]


def test_a_back_guessed_from_a_corners_letters_over_another_back_by_half_is_that_back() -> None:
    # a training-family scene's back found whole and again as the card one corner's lattice
    # letters imply, that guess lying 0.73 on it: one back. Two backs guessed otherwise (the
    # outlines of a face-down hand's cards) may overlap that much and stay two
    def back(x: float, evidence: str) -> Sighting:
        outline = ((x, 100.0), (x + 200.0, 100.0), (x + 200.0, 380.0), (x, 380.0))
        return Sighting(BACK, 0.8, outline, None, (evidence,))

    whole, letters = back(100, recognizer.TRACED_BACK), back(160, recognizer.LETTERS_BACK)  # 0.7
    assert recognizer._one_sighting_per_back([whole, letters]) == [whole]
    assert recognizer._one_sighting_per_back([letters, whole]) == [whole]
    first, second = back(100, "a back among the corners of a merged region"), back(160, "no index")
    assert recognizer._one_sighting_per_back([first, second]) == [first, second]
    # less than half is a neighbour's card
    beside = back(220, recognizer.LETTERS_BACK)  # 0.4
    assert recognizer._one_sighting_per_back([whole, beside]) == [whole, beside]


def test_only_the_parts_of_two_backs_inside_the_frame_say_whether_they_are_one() -> None:
    # a held-out scene's back cut by the frame's top edge: found whole, and again as the card the
    # letters of its lattice imply, that outline running 23 px beyond the edge. Inside the frame it
    # lies 0.93 on the whole back (one back); counting its guessed part beyond the edge, 0.87 (two)
    whole = Sighting(BACK, 0.8, ((1018, 22), (1113, 310), (622, 474), (525, 5)), None, ("no index",))
    letters = Sighting(
        BACK, 0.8, ((1005, -23), (1076, 229), (737, 244), (665, -8)), None, ("JOKER letters",)
    )
    assert recognizer._one_sighting_per_back([whole, letters]) == [whole, letters]
    assert recognizer._one_sighting_per_back([whole, letters], (960, 1280, 3)) == [whole]
    # a back wholly inside the frame is judged as before
    lower, upper = (
        Sighting(BACK, 0.8, ((100, 100), (300, 100), (300, 380), (100, 380)), None, ("no index",)),
        Sighting(BACK, 0.8, ((200, 110), (400, 110), (400, 390), (200, 390)), None, ("no index",)),
    )
    assert recognizer._one_sighting_per_back([lower, upper], (960, 1280, 3)) == [lower, upper]


def test_a_card_read_again_unsurely_through_another_corner_is_one_card() -> None:
    # the 10S read surely at its index, and again at 0.67 through a mirrored corner whose frame
    # implied a card of the wrong width: one card; read surely both times, they may be two copies
    def face(conf: float, x: float, y: float, w: float, code: str = "10S") -> Sighting:
        outline = ((x, y), (x + w, y), (x + w, y + 1.4 * w), (x, y + 1.4 * w))
        return Sighting(code, conf, outline, ((x, y),) * 4, (f"{code}:{conf:.2f}",))

    sure, again = face(0.96, 100, 100, 200), face(0.67, 80, 90, 150)
    assert recognizer._one_sighting_per_card([again, sure]) == [sure]
    copy = face(0.95, 80, 90, 150)
    assert recognizer._one_sighting_per_card([copy, sure]) == [copy, sure]
    # a copy partly covered by the other reads less surely: at COPY_MIN (0.8) it still stands, as
    # index_frames groups it apart; beside an unsure reading of the card it does not
    covered = face(0.82, 80, 90, 150)
    assert recognizer._one_sighting_per_card([covered, sure]) == [covered, sure]
    unsure = face(0.88, 100, 100, 200)
    assert recognizer._one_sighting_per_card([covered, unsure]) == [unsure]
    other = face(0.67, 80, 90, 150, "9S")
    assert recognizer._one_sighting_per_card([other, sure]) == [other, sure]


def test_the_regions_of_hands_read_surely_are_not_searched_again(
    monkeypatch: pytest.MonkeyPatch, bench_hands: Any
) -> None:
    # six two-card hands: each hand is one bright region, and once both its cards are read surely
    # no other card shows there; only the hand of a face over a back (a back is no reading) is
    # searched, its corners read and its hole card looked for
    searched: list[int] = []
    real_backs = hand_backs.backs_in_regions

    def backs_in_regions(
        image: np.ndarray, blobs: tuple[object, ...], known: list[Sighting], **options: Any
    ) -> object:
        searched.append(len(blobs))
        return real_backs(image, blobs, known, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(recognizer, "backs_in_regions", backs_in_regions)
    found = Recognizer("table").recognize(bench_hands.image)
    assert Counter(s.card for s in found) == Counter(CODES)
    assert searched == [1]
    back = next(p for p in bench_hands.placements if p.code == BACK)
    (hole,) = [s for s in found if s.card == BACK]
    assert np.linalg.norm(np.mean(np.array(hole.outline), axis=0) - np.array(back.centre)) < 0.15 * back.width


def test_a_card_read_again_at_its_far_index_through_another_quad_is_one_card() -> None:
    # a Q♣ laid sideways across a doubled hand, read at its near index; a quad round the hand's
    # second card reaches its far index, where it read Q♣ again (and hid that second card, a 7♣)
    queen = Sighting("QC", 1.0, ((500.0, 400.0), (500.0, 230.0), (738.0, 230.0), (738.0, 400.0)))
    again = Sighting(
        "QC", 0.9, ((560.0, 100.0), (730.0, 100.0), (730.0, 338.0), (560.0, 338.0)), ((700.0, 240.0),) * 4
    )
    assert recognizer._same_card_again(queen, again)  # its middle is off the queen, its index on it
    elsewhere = Sighting("QC", 0.9, again.outline, ((700.0, 200.0),) * 4)
    assert not recognizer._same_card_again(queen, elsewhere)  # a second copy's index lies off it
    assert not recognizer._same_card_again(queen, Sighting("7C", 0.9, again.outline, again.index_corner))
    codes = ["8D", "4S", "9H", "3H", "7C", "QC", "AD", "6C", "9D", "6H", "AH", "3C"]
    cam = SimulatedCamera(
        size=(1920, 1080), background="felt", seed=3, card_width=170, hand_cards=3, double_down=True
    )
    rec = Recognizer("table")
    rec.quick = False
    found = Counter(s.card for s in rec.recognize(cam.frame_for(codes, "hand").image))
    assert found == Counter(codes)
