"""Counts of the set pixels of 0 / 1 masks (uint8), by ``cv2.countNonZero``: the very whole numbers
numpy's sums give, in a tenth of the time (a sum widens every pixel first). Asked a few dozen
times a frame of masks of a card's size (``vision.hand_backs``, ``vision.colour_backs``)."""

from __future__ import annotations

import cv2
import numpy as np


def set_pixels(mask: np.ndarray) -> int:
    """``int(mask.sum())`` of a 0 / 1 uint8 mask."""
    return int(cv2.countNonZero(mask))


def set_in_both(a: np.ndarray, b: np.ndarray) -> int:
    """``int((a & b).sum())`` of two 0 / 1 uint8 masks of one shape."""
    return int(cv2.countNonZero(cv2.bitwise_and(a, b)))
