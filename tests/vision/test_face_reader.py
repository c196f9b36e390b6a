"""The face reader: a card seen whole is read from its pips (rank ace to ten, and suit), court cards
are told from pip cards, and the recogniser uses that beside the index.

Cards are the project's own renders (`vision/render.py`) in the held-out index fonts on a plain cloth:
these tests measure the shipped network, they do not train it.
"""

from __future__ import annotations

import numpy as np
import pytest
from rendered_table import table_with

from vision import Recognizer
from vision.card_side import CardSideError
from vision.errors import ModelError
from vision.face_reader import (
    FACE_ALONE_EVIDENCE,
    FACE_RANKS,
    FACE_SUITS,
    INDEX_SURE,
    FaceReaderNet,
    FaceReading,
    checked,
    default_face_reader,
    read_face,
)
from vision.render import CardStyle
from vision.sighting import Sighting

PIP_CARDS = ["AS", "2H", "3D", "4C", "5S", "6H", "7D", "8C", "9S", "10H"]
OUTLINE = ((0.0, 0.0), (100.0, 0.0), (100.0, 140.0), (0.0, 140.0))


def _reading(rank: str, suit: str, p: float) -> FaceReading:
    """A face reading sure of ``rank`` and ``suit`` with probability ``p`` each."""
    r = np.full(len(FACE_RANKS), (1 - p) / (len(FACE_RANKS) - 1))
    r[FACE_RANKS.index(rank)] = p
    s = np.full(len(FACE_SUITS), (1 - p) / (len(FACE_SUITS) - 1))
    s[FACE_SUITS.index(suit)] = p
    return FaceReading(r, s)


def _erase_indices(face: np.ndarray) -> None:
    """Paint both index corners of a 240-px face over with its paper: no index left to read."""
    h, w = face.shape[:2]
    paper = face[h // 2, 4].copy()
    face[: int(0.5 * w), : int(0.26 * w)] = paper
    face[h - int(0.5 * w) :, w - int(0.26 * w) :] = paper


def test_the_shipped_network_loads_and_gives_a_rank_and_a_suit() -> None:
    net = default_face_reader()
    image, outlines = table_with(["7C"], CardStyle())
    (f,) = net.read(image, [outlines[0]])
    assert f.rank.shape == (len(FACE_RANKS),) and f.suit.shape == (len(FACE_SUITS),)
    assert f.card == "7C"  # the project's own deck, seen whole at 120 px


@pytest.mark.parametrize("card_w", [60.0, 120.0])
def test_pip_cards_are_read_from_their_faces_in_a_font_never_trained_on(held_out_deck, card_w: float) -> None:
    style = held_out_deck("lato", (-0.2, 0.4, -0.1, 0.2))
    said = []
    for i in range(0, len(PIP_CARDS), 4):  # four to a table: each turned a little more, all in the frame
        image, outlines = table_with(PIP_CARDS[i : i + 4], style, card_w=card_w)
        said += [read_face(image, o).card for o in outlines]
    right = sum(s == c for s, c in zip(said, PIP_CARDS, strict=True))
    assert right >= 9, list(zip(PIP_CARDS, said, strict=True))


def test_court_cards_are_courts_and_backs_and_jokers_show_no_face_to_count(held_out_deck) -> None:
    style = held_out_deck("libertine", (0.3, -0.3, 0.2, -0.1))
    image, outlines = table_with(["KS", "QH", "JD", "BK", "JK"], style)
    faces = [read_face(image, o) for o in outlines]
    assert [f.rank_name for f in faces[:3]] == ["court"] * 3
    assert [f.card for f in faces] == [None] * 5
    assert [f.rank_name for f in faces[3:]] == ["-", "-"]


def test_a_quad_on_bare_cloth_shows_no_face() -> None:
    image, outlines = table_with(["4D"], CardStyle())
    off = outlines[0] + np.array([0.0, 260.0])  # below the card: cloth only
    assert read_face(image, off).card is None


def test_an_unsure_index_reading_gives_way_to_a_sure_face() -> None:
    # the index's 6 at a glance, the pips clearly an eight
    s = Sighting("6H", 0.7, OUTLINE, OUTLINE)
    out = checked(_reading("8", "H", 0.97), s)
    assert out.card == "8H" and "face says 8H" in out.evidence[-1]
    # a suit only: spades for clubs
    assert checked(_reading("2", "S", 0.97), Sighting("2C", 0.6, OUTLINE, OUTLINE)).card == "2S"


def test_a_sure_index_reading_is_never_overruled_by_the_face() -> None:
    s = Sighting("6H", INDEX_SURE, OUTLINE, OUTLINE)
    assert checked(_reading("8", "H", 0.99), s) == s


def test_a_face_not_sure_enough_changes_nothing() -> None:
    s = Sighting("6H", 0.7, OUTLINE, OUTLINE)
    assert checked(_reading("8", "H", 0.8), s) == s


def test_agreement_raises_the_confidence() -> None:
    agreed = checked(_reading("9", "D", 0.9), Sighting("9D", 0.6, OUTLINE, OUTLINE))
    assert agreed.card == "9D" and agreed.confidence > 0.9


@pytest.mark.parametrize("code", ["QS", "9C"])
def test_a_court_face_changes_nothing(code: str) -> None:
    # a court card's suit shows only at its index; a pip card's index against a court face: no winner
    s = Sighting(code, 0.6, OUTLINE, OUTLINE)
    assert checked(_reading("court", "C", 0.97), s) == s


@pytest.mark.parametrize("suit", ["C", "H"])
def test_pips_where_the_index_reads_a_court_card_change_nothing(suit: str) -> None:
    # a queen of hearts read at its index, the quad its finder's frame implies lying over the seven
    # beside it: the pips are the seven's, whatever their suit
    s = Sighting("QH", 0.98, OUTLINE, OUTLINE)
    assert checked(_reading("7", suit, 0.99), s) == s


def test_no_face_to_count_leaves_the_reading_alone() -> None:
    s = Sighting("5S", 0.5, OUTLINE, OUTLINE)
    assert checked(_reading("-", "-", 0.99), s) == s
    back = Sighting("BK", 0.8, OUTLINE, None)
    assert checked(_reading("7", "S", 0.99), back) == back


def test_a_whole_card_whose_index_cannot_be_read_is_read_from_its_pips() -> None:
    codes = ["7D", "9C", "4S"]
    image, outlines = table_with(codes, CardStyle(), paint=_erase_indices)
    rec = Recognizer("table")
    seen = rec.recognize(image)
    assert sorted(s.card for s in seen) == sorted(codes)
    assert all(FACE_ALONE_EVIDENCE in s.evidence for s in seen)
    rec.face_check = False
    assert [s.card for s in rec.recognize(image) if s.card in codes] == []


def test_a_bad_image_or_quad_is_refused_with_a_clear_error() -> None:
    image, outlines = table_with(["3H"], CardStyle())
    with pytest.raises(CardSideError, match="BGR image"):
        read_face(np.zeros((10, 10), np.uint8), outlines[0])
    with pytest.raises(CardSideError, match="4 finite"):
        read_face(image, np.zeros((3, 2)))
    with pytest.raises(CardSideError, match="degenerate"):
        read_face(image, np.zeros((4, 2)))


def test_a_missing_model_file_is_a_model_error(tmp_path) -> None:
    with pytest.raises(ModelError, match="face reader"):
        FaceReaderNet.load(tmp_path / "nope.onnx")
