"""Tight fans: the indices a row of read indices says are missing are put in place and read
(vision.fan_rows, Recognizer.row_walk), every index along a fan's arc is probed through the frame the
fan's geometry makes (vision.fan_arcs, Recognizer.arc_probe), and neighbouring indices are two cards,
not one read twice."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision import Recognizer, SimulatedCamera
from vision.detect import CornerFrame
from vision.fan_arcs import arc_frames
from vision.fan_rows import row_frames
from vision.finder import IndexFrame, frame_from_vectors
from vision.index import Reading
from vision.index_frames import upright_twins
from vision.recognizer import _one_reading_per_index
from vision.sighting import FACES, Sighting

PIVOT = np.array([500.0, 900.0])


def fan_frame(k: float, step: float = 5.0, width: float = 100.0) -> IndexFrame:
    """The index frame of card ``k`` of a fan turned ``step`` degrees a card about ``PIVOT``, its
    corner 300 px above the pivot when upright."""
    a = math.radians(k * step)
    c, s = math.cos(a), math.sin(a)
    turn = np.array([[c, -s], [s, c]])
    origin = PIVOT + turn @ np.array([-50.0, -300.0])
    return IndexFrame(CornerFrame(origin, turn @ [1.0, 0.0], turn @ [0.0, 1.0], width), False, 1.0)


def near(frames: list[IndexFrame], want: IndexFrame, tol: float = 1.0) -> bool:
    return any(
        np.linalg.norm(f.frame.origin - want.frame.origin) < tol and float(f.frame.x @ want.frame.x) > 0.9999
        for f in frames
    )


def test_a_gap_of_whole_steps_in_a_fan_is_filled_and_its_ends_walked() -> None:
    # cards 0, 1, 2 and 5 read: 3 and 4 are missing, and 6 and -1 lie one step beyond the ends
    read = [fan_frame(k) for k in (0, 1, 2, 5)]
    out = row_frames(read)
    for k in (3, 4, -1, 6):
        assert near(out, fan_frame(k)), k
    assert len(out) == 4  # nothing where a card was read, nothing halfway between two steps


def test_a_gap_that_is_no_whole_number_of_steps_is_read_every_half_step() -> None:
    # card 2's frame came out half a step off (at 2.5): the gap from card 1 is read at 1.5 and 2
    out = row_frames([fan_frame(k) for k in (0, 1, 2.5)])
    assert near(out, fan_frame(1.5)) and near(out, fan_frame(2))


def test_a_hand_spread_sideways_is_a_row_too() -> None:
    def spread(k: int) -> IndexFrame:
        return IndexFrame(
            CornerFrame(np.array([100.0 + 20 * k, 50.0]), np.array([1.0, 0]), np.array([0, 1.0]), 90.0),
            False,
            1.0,
        )

    out = row_frames([spread(k) for k in (0, 1, 4)])
    for k in (2, 3, -1, 5):
        assert near(out, spread(k)), k


def test_cards_apart_are_no_row() -> None:
    # cards a card width or more apart, one above the other, turned 40° apart, or sideways: no frames
    def at(x: float, y: float, turn: float = 0.0, sideways: bool = False) -> IndexFrame:
        c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        return IndexFrame(
            CornerFrame(np.array([x, y]), np.array([c, s]), np.array([-s, c]), 100.0), sideways, 1.0
        )

    assert row_frames([at(0, 0), at(120, 0), at(240, 0)]) == []
    assert row_frames([at(0, 0), at(0, 20), at(0, 40)]) == []
    assert row_frames([at(0, 0), at(20, 0, turn=40), at(40, 0, turn=80)]) == []
    assert row_frames([at(0, 0, sideways=True), at(20, 0, sideways=True), at(40, 0, sideways=True)]) == []
    assert row_frames([at(0, 0)]) == []


def index_at(card: str, x: float, conf: float = 1.0) -> Sighting:
    quad = ((x, 0.0), (x + 15.0, 0.0), (x + 15.0, 40.0), (x, 40.0))  # an index 15 px wide
    return Sighting(card, conf, quad, quad, evidence=("index", f"{card}:{conf:.2f}"))


def test_indices_side_by_side_are_two_cards_and_one_index_read_twice_is_one() -> None:
    # a tight fan of 170-px cards: indices 15 px wide lie 20-25 px apart, each read surely
    both = [index_at("4S", 0), index_at("QD", 20)]
    assert _one_reading_per_index(both) == both
    # the same place, one of them read unsurely: one index read again through a corner a little off
    assert [s.card for s in _one_reading_per_index([index_at("4S", 0), index_at("QD", 20, 0.88)])] == ["4S"]
    # ink overlapping: one index read as two codes, however sure; the surer reading stands
    twice = [index_at("6C", 0, 0.96), index_at("6S", 5, 0.99)]
    assert [s.card for s in _one_reading_per_index(twice)] == ["6S"]


def hand_of(count: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return [FACES[k] for k in rng.choice(52, count, replace=False)]


def hand_in_a_row(layout: str, background: str, spacing: float, seed: int) -> tuple[np.ndarray, list[str]]:
    """A frame of a hand laid in a row: 18 cards of 170 px in a ``fan`` ``spacing`` degrees a card, or
    13 of 130 px in a ``spread`` ``spacing`` card widths a card."""
    fan = layout == "fan"
    codes = hand_of(18 if fan else 13, seed)
    cam = SimulatedCamera(
        size=(1920, 1080),
        background=background,
        seed=seed,
        card_width=170 if fan else 130,
        fan_spread=spacing if fan else 9.0,
        spread_step=0.2 if fan else spacing,
    )
    return cam.frame_for(codes, layout).image, codes


@pytest.mark.parametrize(
    ("layout", "background", "spacing", "seed", "at_least"),
    [
        # fans 5-6° a card: without the walk 11-13 of 18 (the finder merges neighbouring indices)
        ("fan", "light_wood", 5.0, 1, 13),
        ("fan", "white", 5.0, 4, 13),
        ("fan", "grey", 6.0, 5, 13),
        # a straight line, each index 0.18-0.2 card widths from the last: without the walk 7-9 of 13
        ("spread", "light_wood", 0.2, 1, 11),
        ("spread", "white", 0.2, 2, 11),
        ("spread", "grey", 0.18, 4, 11),
    ],
)
def test_a_hand_in_a_tight_fan_or_spread_is_read(
    layout: str, background: str, spacing: float, seed: int, at_least: int
) -> None:
    image, codes = hand_in_a_row(layout, background, spacing, seed)
    rec = Recognizer("table")
    # the row walk alone (the arc probe reads the fans whole without it, the gap probe most of them)
    rec.arc_probe = rec.gap_probe = False
    read = [s.card for s in rec.recognize(image)]
    assert set(read) <= set(codes) and len(read) == len(set(read))  # no card made up, none twice
    assert len(read) >= at_least
    rec.row_walk = False
    assert len(rec.recognize(image)) < len(read)


def test_the_simulated_spread_lays_its_cards_a_step_apart_in_a_straight_line() -> None:
    cam = SimulatedCamera(size=(1920, 1080), seed=9, card_width=100, spread_step=0.25)
    placed = cam.layout(["AS", "2S", "3S", "4S", "5S"], "spread")
    centres = np.array([p.centre for p in placed])
    steps = np.diff(centres, axis=0)
    assert np.allclose(np.hypot(steps[:, 0], steps[:, 1]), 25.0)  # 0.25 of a 100-px card
    assert np.allclose(steps, steps[0]) and len({p.angle for p in placed}) == 1
    along = math.degrees(math.atan2(steps[0][1], steps[0][0]))
    assert abs(along + placed[0].angle) < 1e-6  # the line runs along the cards' short edges
    assert np.allclose(centres.mean(axis=0), [960, 540])


def test_a_corner_read_sideways_has_an_upright_twin_at_the_same_place() -> None:
    # the finder's frame for the top-right corner of a card running left (a four-index deck's
    # mirrored corner); its twin is the top-left corner of a card running right
    sideways = frame_from_vectors(np.array([400.0, 300.0]), np.array([-120.0, 0.0]), np.array([0.0, 168.0]))
    assert sideways.sideways
    (twin,) = upright_twins([(Reading("7D", 1.0, 0.0, None), sideways)])
    assert not twin.sideways
    assert np.allclose(twin.frame.origin, [400, 300]) and twin.frame.width == pytest.approx(120)
    assert np.allclose(twin.frame.x, [1, 0]) and np.allclose(twin.frame.y, [0, 1])
    upright = frame_from_vectors(np.array([400.0, 300.0]), np.array([120.0, 0.0]), np.array([0.0, 168.0]))
    assert upright_twins([(Reading("7D", 1.0, 0.0, None), upright)]) == []


def test_a_spread_card_whose_corner_the_finder_took_for_a_mirrored_one_is_read() -> None:
    # 13 cards of 170 px, 0.2 card widths apart on felt: the finder takes the top-left corners of the
    # AH and the 9S for mirrored ones, and read sideways there each gives its left neighbour's index
    # (7D, 4S); nothing read the AH or the 9S
    codes = ["2S", "QS", "9D", "9H", "KC", "AD", "AC", "7D", "AH", "4S", "9S", "8C", "AS"]
    cam = SimulatedCamera(size=(1920, 1080), background="felt", seed=0, card_width=170, spread_step=0.2)
    image = cam.frame_for(codes, "spread").image
    rec = Recognizer("table")
    assert sorted(s.card for s in rec.recognize(image)) == sorted(codes)
    rec.upright_twins = False
    assert {"AH", "9S"}.isdisjoint(s.card for s in rec.recognize(image))


def index_middle(f: IndexFrame) -> np.ndarray:
    """The middle of the index of corner frame ``f`` (0.12, 0.2 card widths in from its corner)."""
    return f.frame.origin + f.frame.width * (0.12 * f.frame.x + 0.2 * f.frame.y)


def test_the_frames_along_a_fans_arc_meet_every_corner_the_fan_turns_one_onto() -> None:
    # 18 cards 5° apart, seven read surely through frames a few pixels and degrees off: every card's
    # corner, those read or not, has a probe within a few pixels, facing its way, a tenth narrower
    rng = np.random.default_rng(0)
    read = []
    for k in (1, 3, 4, 8, 12, 13, 16):
        f = fan_frame(k).frame
        turn = math.radians(float(rng.uniform(-3, 3)))
        c, s = math.cos(turn), math.sin(turn)
        x = np.array([[c, -s], [s, c]]) @ f.x
        moved = CornerFrame(f.origin + rng.uniform(-3, 3, 2), x, np.array([-x[1], x[0]]), f.width * 1.05)
        read.append(IndexFrame(moved, False, 1.0))
    (arc,) = arc_frames(read, [index_middle(fan_frame(k)) for k in (1, 3, 4, 8, 12, 13, 16)])
    for k in range(-1, 19):
        want = fan_frame(k).frame
        gaps = [np.linalg.norm(p.frame.origin - want.origin) for p in arc]
        probe = arc[int(np.argmin(gaps))].frame
        assert min(gaps) < 5.0, k
        assert float(probe.x @ want.x) > math.cos(math.radians(3)), k
        assert probe.width == pytest.approx(0.9 * 105, rel=0.05)


def test_indices_on_no_fans_arc_give_no_frames() -> None:
    # a straight row (its frames do not turn along it), a row bent but facing one way, too few
    # indices, and indices over a card width apart
    def row(k: float, bend: float = 0.0) -> IndexFrame:
        return IndexFrame(
            CornerFrame(
                np.array([100.0 + 20 * k, 50.0 + bend * k * k]), np.array([1.0, 0]), np.array([0, 1.0]), 100.0
            ),
            False,
            1.0,
        )

    for frames in ([row(k) for k in range(6)], [row(k, 1.0) for k in range(6)]):
        assert arc_frames(frames, [index_middle(f) for f in frames]) == []
    few = [fan_frame(k) for k in (0, 1, 2)]
    assert arc_frames(few, [index_middle(f) for f in few]) == []
    apart = [fan_frame(k, step=25.0) for k in range(5)]
    assert arc_frames(apart, [index_middle(f) for f in apart]) == []


@pytest.mark.parametrize(("background", "seed"), [("light_wood", 22), ("white", 21)])
def test_an_18_card_fan_5_degrees_a_card_on_a_light_table_is_read(background: str, seed: int) -> None:
    # renders the arc probe was not chosen on: without it 12 and 9 of the 18 were read
    image, codes = hand_in_a_row("fan", background, 5.0, seed)
    rec = Recognizer("table")
    read = [s.card for s in rec.recognize(image)]
    assert sorted(read) == sorted(codes)
    rec.arc_probe = False
    # without the arc probe fewer are read (14 of the 18 with patch reader v5, 15 with v7)
    assert len(rec.recognize(image)) < len(codes)
