"""Where every index of a fan lies, from the arc that the indices read surely trace.

In a fan each card is the one before it turned about one pivot, so the middles of the indices lie on a
circle about that pivot, and every card's corner frame is any other card's turned about it. In a tight
fan the finder's frames are a few pixels, a tenth of a card width and tens of degrees off, and a patch
read through one of them gives the neighbour's index or none; the indices that did read surely still
lie on the arc. A circle is fitted to their middles, one frame made from all of theirs (each turned to
one place on the arc, and the median taken), and that frame is turned along the arc in steps small
enough that every index is met near its own corner (:func:`arc_frames`); the recogniser reads them
(``vision.index_frames``).

Only geometry here: frames and index middles in, frames out.
"""

from __future__ import annotations

import math

import numpy as np

from vision.detect import CornerFrame
from vision.finder import IndexFrame

# The bounds below were set once, not tuned: the rendered fans' index middles lie on circles about
# 1.8 card widths round, 0.16 card widths apart at 5° a card, within a few pixels of the circle
MIN_SURE = 4  # indices read surely on one arc, at least (three fix any circle)
LINK = 1.0  # card widths between the middles of two neighbouring indices read, at most
FIT = 0.03  # card widths: how far an index middle may lie off the fitted circle
RADIUS = (0.5, 6.0)  # card widths: a fan's circle round its indices
# how far the frames' turn per radian round the arc may be from one (a straight row's is 0): on the
# rendered 18-card fans 0.89-1.04, on a rendered straight spread whose indices fitted a circle -0.05
TURN_SLOPE = 0.35
# card widths along the arc between two probes: a patch reads its index from about 8 px before its
# corner to 4 px after it (170-px cards; rendered fans read through the true frames moved), so
# every index gets one probe or two
PROBE = 0.045
# the frames read surely come out a few per cent wide, and a frame too wide takes in the next card's
# edge: a tenth narrower (rendered 18-card fans, 5° a card: the true frames 1.1 times as wide read
# 98 of 108 indices, 0.9 times as wide 108)
NARROW = 0.9
# card widths of arc probed beyond the first and the last index read: on rendered 18-card fans at 5°
# a card, 0.5 left the first two or three cards of a fan unread where those read began at the fourth
BEYOND = 1.0


def arc_frames(frames: list[IndexFrame], middles: list[np.ndarray]) -> list[list[IndexFrame]]:
    """For each fan that the upright ``frames`` of indices read surely trace (their ``middles``, in
    image pixels), the frames along its arc in order, every ``PROBE`` card widths from ``BEYOND``
    before its first index to ``BEYOND`` after its last."""
    out: list[list[IndexFrame]] = []
    for group in _groups(frames, middles):
        fit = _circle([middles[i] for i in group], _width([frames[i] for i in group]))
        if fit is None:
            continue
        centre, kept = fit
        arc = _along_arc([frames[group[i]] for i in kept], [middles[group[i]] for i in kept], centre)
        if arc:
            out.append(arc)
    return out


def _width(frames: list[IndexFrame]) -> float:
    """The median card width of ``frames``."""
    return float(np.median([f.frame.width for f in frames]))


def _groups(frames: list[IndexFrame], middles: list[np.ndarray]) -> list[list[int]]:
    """The sets of ``MIN_SURE`` or more indices linked by middles within ``LINK`` card widths."""
    n = len(frames)
    if n < MIN_SURE:
        return []
    pts = np.array(middles, np.float64)
    widths = np.array([f.frame.width for f in frames])
    near = np.hypot(*(pts[:, None] - pts[None]).transpose(2, 0, 1)) <= LINK * np.minimum.outer(widths, widths)
    label = list(range(n))
    for i, j in zip(*np.nonzero(near), strict=True):
        a, b = _root(label, int(i)), _root(label, int(j))
        label[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(_root(label, i), []).append(i)
    return [g for g in groups.values() if len(g) >= MIN_SURE]


def _root(label: list[int], i: int) -> int:
    """The first index of the set ``i`` is linked into."""
    while label[i] != i:
        i = label[i]
    return i


def _circle(points: list[np.ndarray], width: float) -> tuple[np.ndarray, list[int]] | None:
    """The centre of the circle through ``points``, and which of them lie on it (within ``FIT``
    card widths), the farthest dropped one by one; None where fewer than ``MIN_SURE`` remain or the
    radius is no fan's."""
    kept = list(range(len(points)))
    while len(kept) >= MIN_SURE:
        p = np.array([points[i] for i in kept], np.float64)
        a = np.column_stack([2 * p, np.ones(len(p))])
        (cx, cy, c), *_ = np.linalg.lstsq(a, (p**2).sum(axis=1), rcond=None)
        radius = math.sqrt(max(c + cx * cx + cy * cy, 0.0))
        off = np.abs(np.hypot(p[:, 0] - cx, p[:, 1] - cy) - radius)
        worst = int(off.argmax())
        if off[worst] <= FIT * width:
            if not RADIUS[0] * width <= radius <= RADIUS[1] * width:
                return None
            return np.array([cx, cy]), kept
        del kept[worst]
    return None


def _along_arc(frames: list[IndexFrame], middles: list[np.ndarray], centre: np.ndarray) -> list[IndexFrame]:
    """One frame made of ``frames`` (each turned about ``centre`` to where the first index lies, the
    median of their corners, turns and widths), turned along the arc in ``PROBE`` steps; none where
    the frames do not turn with the arc as a fan's do."""
    polar = np.array([math.atan2(m[1] - centre[1], m[0] - centre[0]) for m in middles])
    polar = polar[0] + (polar - polar[0] + math.pi) % (2 * math.pi) - math.pi
    corners, turns = [], []
    for f, a in zip(frames, polar, strict=True):
        back = _rotation(polar[0] - a)
        corners.append(centre + back @ (f.frame.origin - centre))
        turns.append(math.atan2(f.frame.x[1], f.frame.x[0]) + polar[0] - a)
    turn = _circular_median(np.array(turns))
    # a fan's cards turn as their corners go round the arc; a straight row's do not
    own = np.array([math.atan2(f.frame.x[1], f.frame.x[0]) for f in frames])
    own = own[0] + _wrapped(own - own[0])
    slope = float(np.polyfit(polar - polar.mean(), own - own.mean(), 1)[0])
    if abs(slope - 1.0) > TURN_SLOPE:
        return []
    corner = np.median(np.array(corners), axis=0)
    width = _width(frames)
    radius = float(np.linalg.norm(corner - centre))
    step = PROBE * width / radius
    lo, hi = polar.min() - BEYOND * width / radius, polar.max() + BEYOND * width / radius
    out = []
    for a in np.arange(lo, hi + step / 2, step):
        r = _rotation(a - polar[0])
        x = r @ np.array([math.cos(turn), math.sin(turn)])
        y = np.array([-x[1], x[0]])
        out.append(IndexFrame(CornerFrame(centre + r @ (corner - centre), x, y, NARROW * width), False, 1.0))
    return out


def _circular_median(angles: np.ndarray) -> float:
    """The median of ``angles`` (radians) about their circular mean."""
    mean = math.atan2(float(np.sin(angles).mean()), float(np.cos(angles).mean()))
    return mean + float(np.median(_wrapped(angles - mean)))


def _wrapped(a: np.ndarray) -> np.ndarray:
    """Angles (radians) brought into [-pi, pi)."""
    return (a + np.pi) % (2 * np.pi) - np.pi


def _rotation(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s], [s, c]])
