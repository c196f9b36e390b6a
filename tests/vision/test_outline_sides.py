"""An outline's side lengths (vision.outline_sides): a card's width whichever corner it starts at."""

from __future__ import annotations

import doctest

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from vision import outline_sides
from vision.outline_sides import short_side, short_sides, side_lengths


def test_docstring_examples_run() -> None:
    result = doctest.testmod(outline_sides)
    assert result.attempted > 0 and result.failed == 0


def test_a_turned_card_measures_its_width_from_any_corner_either_way_round() -> None:
    # a 60 × 84 card turned 30°, its corners listed from each corner in turn, clockwise and not
    t = np.radians(30.0)
    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    card = np.array([[0, 0], [60, 0], [60, 84], [0, 84]], np.float64) @ turn.T + [200, 100]
    for k in range(4):
        for outline in (np.roll(card, k, axis=0), np.roll(card[::-1], k, axis=0)):
            assert abs(short_side(outline) - 60.0) < 1e-9
            assert sorted(np.round(side_lengths(outline), 9)) == [60.0, 60.0, 84.0, 84.0]


@given(st.lists(st.tuples(st.floats(-1e4, 1e4), st.floats(-1e4, 1e4)), min_size=3, max_size=8))
def test_every_side_is_measured_once(points: list[tuple[float, float]]) -> None:
    q = np.array(points)
    lengths = side_lengths(points)
    assert len(lengths) == len(points)
    # side k ends at corner k: from the last corner to the first, then each to the next
    for k in range(len(points)):
        assert abs(lengths[k] - np.hypot(*(q[k] - q[k - 1]))) <= 1e-9 * max(1.0, lengths[k])
    assert short_side(points) == lengths.min()


@given(
    st.lists(
        st.lists(st.tuples(st.floats(-1e4, 1e4), st.floats(-1e4, 1e4)), min_size=4, max_size=4), max_size=6
    )
)
def test_many_outlines_measure_as_each_alone(outlines: list[list[tuple[float, float]]]) -> None:
    # the frame's card widths in one pass: the very floats each outline's ``short_side`` gives
    assert short_sides(outlines) == [short_side(np.asarray(o, np.float64)) for o in outlines]
