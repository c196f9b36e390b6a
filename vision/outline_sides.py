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
