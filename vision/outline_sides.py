"""The side lengths of a card outline (its corners in order, either way round)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def side_lengths(outline: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
    """The length of each side of ``outline`` (N × 2 corners in order): side k ends at corner k."""
    q = np.asarray(outline, np.float64)
    d = q - q[np.arange(-1, len(q) - 1)]  # each corner less the one before it
    lengths: np.ndarray = np.sqrt(np.add.reduce(d * d, axis=1))  # ``np.linalg.norm``'s arithmetic, faster
    return lengths


def short_side(outline: np.ndarray | Sequence[Sequence[float]]) -> float:
    """The shortest side of ``outline``: a card's width, whichever corner its outline starts at.

    >>> short_side([(0, 0), (3, 0), (3, 4), (0, 4)])
    3.0
    """
    return float(side_lengths(outline).min())


def short_sides(outlines: Sequence[Sequence[Sequence[float]]]) -> list[float]:
    """``short_side`` of each of the four-corner ``outlines``, in one pass with its arithmetic (the
    widths of the cards read in a frame).

    >>> short_sides([[(0, 0), (3, 0), (3, 4), (0, 4)], [(0, 0), (0, 2), (5, 2), (5, 0)]])
    [3.0, 2.0]
    """
    q = np.array(outlines, np.float64).reshape(-1, 4, 2)
    d = q - q[:, [3, 0, 1, 2]]  # each corner less the one before it
    widths: list[float] = np.sqrt(np.add.reduce(d * d, axis=2)).min(axis=1).tolist()
    return widths


def mean_width(outline: np.ndarray | Sequence[Sequence[float]]) -> float:
    """The width of a four-corner ``outline``: the mean of its two opposite sides that are the
    shorter pair. A quad traced round more than one card can have one side much shorter than its
    opposite one, which no card seen at a slant has (``short_side`` takes that side alone).

    >>> mean_width([(0, 0), (4, 0), (3, 6), (1, 6)]), short_side([(0, 0), (4, 0), (3, 6), (1, 6)])
    (3.0, 2.0)
    """
    sides = side_lengths(outline)  # side k ends at corner k: sides 0 and 2 are opposite, 1 and 3
    return float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)
