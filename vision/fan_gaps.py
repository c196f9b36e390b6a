"""Where the cards of a tight fan lie between two of its indices read, when no other index says the step.

In a fan of five at 5-7° a card the finder's index map often shows the middle indices as one ridge, so
only the first and the last card are read (one through its index frame, one whole): a row of two has
no step to walk by (``vision.fan_rows``) and two points fit no arc (``vision.fan_arcs``). The cards
between are each the one before turned about the fan's pivot, so their corners lie on the turn that
takes one read corner onto the other: that turn is probed in small steps (:func:`gap_probes`), and
what reads there counts only where it divides the gap into whole steps, as a fan's cards do
(:func:`evenly_spaced`): a court card's art beside its index, read as an index, lies where no step
of the gap falls. The other way round, a card read between two neighbours of a row that lie no
farther apart than its next step is a frame half a step off, reading a card's margin (:func:`squeezed`).

Only geometry here: frames in, frames out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.detect import CornerFrame
from vision.fan_arcs import NARROW, PROBE
from vision.fan_rows import pairwise, turned
from vision.finder import IndexFrame

MIN_STEP = 0.08  # card widths between the corners of a fan's neighbouring cards, at least
MOST = 0.9  # card widths between two indices read, at most (a fan of five at 7° a card: 0.65 first to last;
# board cards side by side, a card width or more apart, are no fan)
FACING = 60.0  # degrees between the two frames' axes, at most
ACROSS = 0.5  # of the gap: how far across the row the second corner may lie (a fan's arc bends it)
OFF_STEP = 0.25  # of a step: how far a reading may lie from its whole number of steps
SHIFT = 0.45  # of a step: how far all the readings may lie off them together (frames a little off)
# a corner between two neighbours of a row, this far along from the first to the second (of their gap)...
SQUEEZED = (0.2, 0.8)
# ...where they lie at most this many times the row's next step apart, leaves its card no room
NO_ROOM = 1.15


@dataclass(frozen=True)
class Gap:
    """The probes between two corners read, in order, and the gap's length in card widths."""

    probes: tuple[IndexFrame, ...]
    along: float

    def share(self, k: float) -> float:
        """How far along the gap probe ``k`` lies (0 at the first corner, 1 at the second; between two
        probes for a ``k`` between)."""
        return (k + 1) / (len(self.probes) + 1)


def gap_probes(anchors: Sequence[IndexFrame]) -> list[Gap]:
    """For each of the upright ``anchors`` (corners whose index was read surely), the probes
    between it and the next one ahead of it along its row, where they lie at least two smallest
    steps and at most ``MOST`` card widths apart: the first's frame turned towards the second's
    every ``PROBE`` card widths of the arc, a little narrow (``fan_arcs.NARROW``)."""
    ahead = ahead_in_row(anchors)
    out: list[Gap] = []
    for i, a in enumerate(anchors):
        if not np.isfinite(ahead[i]).any():
            continue
        j = int(np.argmin(ahead[i]))
        along, b = float(ahead[i, j]), anchors[j]
        if along < 2 * MIN_STEP:
            continue
        n = math.ceil(_arc(a, b) / PROBE)
        probes = []
        for k in range(1, n):
            f = turned(a, b, k / n).frame
            probes.append(IndexFrame(CornerFrame(f.origin, f.x, f.y, NARROW * f.width), False, 1.0))
        out.append(Gap(tuple(probes), along))
    return out


def evenly_spaced(shares: Sequence[float], along: float) -> bool:
    """Whether readings at ``shares`` of a gap ``along`` card widths long lie at whole numbers of one
    step (up to a shift they share), one to a step, none at either end, and fill at least two in three
    of the places between (every one where there are fewer than three): the cards of a fan. The
    fewest steps that fit decide.

    >>> evenly_spaced([0.2, 0.47, 0.67], 0.65)  # four steps, the readings a little early
    True
    >>> evenly_spaced([0.5], 0.3)  # one card between
    True
    >>> evenly_spaced([0.12, 0.5], 0.6)  # no whole steps put both there
    False
    """
    if not shares:
        return False
    for steps in range(2, int(along / MIN_STEP) + 1):
        pos = np.asarray(shares, np.float64) * steps
        shift = float(np.median(pos - np.round(pos)))
        if abs(shift) > SHIFT:
            continue
        place = np.round(pos - shift).astype(int)
        if (np.abs(pos - shift - place) > OFF_STEP).any() or place.min() < 1 or place.max() > steps - 1:
            continue
        if len(set(place.tolist())) < len(place):
            continue
        between = steps - 1
        if len(place) >= between - between // 3:
            return True
    return False


def squeezed(frames: Sequence[IndexFrame], i: int) -> tuple[int, int] | None:
    """The neighbours (indices into ``frames``) that ``frames[i]`` lies squeezed between: the nearest
    behind it and the nearest ahead of it along one row, it ``SQUEEZED`` of the way from one to the
    other, and the two no farther apart than ``NO_ROOM`` times the row's step before or after them
    (no room for a card between); None where there is room, or no row to measure a step on.

    >>> row = [IndexFrame(CornerFrame(np.array([x, 0.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]),
    ...        100.0), False, 1.0) for x in (0, 30, 60, 45)]
    >>> squeezed(row, 3)   # half a step between the second and the third: no room there
    (1, 2)
    >>> squeezed(row, 1) is None   # the second card: the first and third lie two steps apart
    True
    """
    others = [k for k in range(len(frames)) if k != i]
    if len(others) < 3:
        return None
    full = ahead_in_row([frames[i]] + [frames[k] for k in others])  # row and column 0: frames[i]
    ahead, behind = full[0, 1:], full[1:, 0]
    if not (np.isfinite(ahead).any() and np.isfinite(behind).any()):
        return None
    a, b = int(np.argmin(behind)), int(np.argmin(ahead))
    rows = full[1:, 1:]
    gap = float(rows[a, b])
    if not np.isfinite(gap) or not SQUEEZED[0] <= float(behind[a]) / gap <= SQUEEZED[1]:
        return None
    steps = [float(rows[b].min()), float(rows[:, a].min())]  # from the second on, and up to the first
    step = min(steps)
    if not np.isfinite(step) or gap > NO_ROOM * step:
        return None
    return others[a], others[b]


def _arc(a: IndexFrame, b: IndexFrame) -> float:
    """The length in card widths of the arc that turns ``a``'s corner onto ``b``'s (the chord where
    the two face one way)."""
    fa, fb = a.frame, b.frame
    chord = float(np.linalg.norm(fb.origin - fa.origin)) / ((fa.width + fb.width) / 2)
    half = abs(math.atan2(float(fa.x[0] * fb.x[1] - fa.x[1] * fb.x[0]), float(fa.x @ fb.x))) / 2
    return chord * half / math.sin(half) if half > 1e-6 else chord


def ahead_in_row(anchors: Sequence[IndexFrame]) -> np.ndarray:
    """[a, b]: how far ``b``'s corner lies ahead of ``a``'s along ``a``'s short edge, in card widths,
    where the two can be neighbours of one row (facing alike, ``b`` ahead, not far across); inf
    where they cannot (every pair at once: a table has tens of cards read)."""
    n = len(anchors)
    if n < 2:
        return np.full((n, n), np.inf)
    x, y, _, gap, mean_width = pairwise(anchors)
    along = np.einsum("abk,ak->ab", gap, x) / mean_width
    across = np.abs(np.einsum("abk,ak->ab", gap, y)) / mean_width
    facing = x @ x.T >= math.cos(math.radians(FACING))
    ok = facing & (along > 0.0) & (along <= MOST) & (across <= ACROSS * along)
    return np.where(ok, along, np.inf)
