"""Where the missing indices of a fan or a spread hand lie, from the indices read beside them.

In a fan the index corners lie in a row, each card turned from the one before by the same angle about
the fan's pivot; in a hand spread sideways each is shifted alike. The finder's index map can merge
two or three neighbouring indices of a tight fan into one peak, so the indices read show gaps of a
whole number of steps, and the row can stop short of the fan's ends. With the step measured on the
neighbours that were read, the frames in each gap, and one step beyond each end of a row, are put
where the row says (:func:`row_frames`); the recogniser reads them (``vision.index_frames``).

Only geometry here: frames in, frames out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from vision.detect import CornerFrame
from vision.finder import IndexFrame

TURN = 25.0  # degrees between the axes of neighbouring index frames of one row, at most
STEP = (0.06, 0.9)  # card widths between neighbouring indices of a row (along the short edge)
ACROSS = 0.5  # of the step: how far a neighbour may lie across the row (a fan's arc bends it)
WIDTHS = 1.25  # two frames of one row are at most this many times wider than each other
WHOLE = 0.3  # of a step: how far a gap may be from a whole number of steps
HALVES = 1.4  # steps: a longer gap that is no whole number of them is read every half step
MOST_STEPS = 6  # a gap of more steps than this is two rows, not one with indices missing
SAME = 0.05  # card widths: a frame this close to one given is that one


def row_frames(frames: list[IndexFrame], tried: Sequence[CornerFrame] = ()) -> list[IndexFrame]:
    """Frames where a row of the upright ``frames`` is missing an index: in each gap of two or more
    of its steps (every half step where the gap is no whole number of them: a frame's corner can
    be a few per cent of a card off), and one step beyond each end of a row of two or more. None
    where one of ``frames`` or of the frames ``tried`` already lies."""
    upright = [f for f in frames if not f.sideways]
    ahead = _next_in_row(upright)
    out: list[IndexFrame] = []
    for row in _rows(upright, ahead):
        gaps = [_along(a, b) for a, b in zip(row, row[1:], strict=False)]
        step = min(gaps)
        for (a, b), gap in zip(zip(row, row[1:], strict=False), gaps, strict=True):
            k = round(gap / step)
            if 2 <= k <= MOST_STEPS and abs(gap / step - k) <= WHOLE:
                out += [turned(a, b, j / k) for j in range(1, k)]
            elif HALVES <= gap / step <= MOST_STEPS:
                n = round(2 * gap / step)
                out += [turned(a, b, j / n) for j in range(1, n)]
        k_last, k_first = max(1, round(gaps[-1] / step)), max(1, round(gaps[0] / step))
        out.append(turned(row[-2], row[-1], 1.0 + 1.0 / k_last))
        out.append(turned(row[1], row[0], 1.0 + 1.0 / k_first))
    kept: list[IndexFrame] = []
    for f in out:
        near = [*tried, *(g.frame for g in frames + kept)]
        if not any(np.linalg.norm(g.origin - f.frame.origin) < SAME * g.width for g in near):
            kept.append(f)
    return kept


def _along(a: IndexFrame, b: IndexFrame) -> float:
    """How far ``b``'s corner lies from ``a``'s along the row, in card widths."""
    fa, fb = a.frame, b.frame
    x = fa.x + fb.x
    return float((fb.origin - fa.origin) @ (x / np.linalg.norm(x))) / ((fa.width + fb.width) / 2)


def _next_in_row(frames: list[IndexFrame]) -> dict[int, int]:
    """Each frame's nearest neighbour ahead (by index into ``frames``), where it has one; a frame
    claimed by two is kept by the nearer. ``b`` can be the next index after ``a`` where their axes
    and sizes are alike and ``b`` lies a step ahead of ``a`` along the short edge, not far across
    (every pair measured at once: a fan has a few tens of frames)."""
    if len(frames) < 2:
        return {}
    x, y, width, gap, mean_width = pairwise(frames)
    along_x, across_y = x[:, None, :] + x[None, :, :], y[:, None, :] + y[None, :, :]
    along = (gap * along_x).sum(axis=2) / np.linalg.norm(along_x, axis=2) / mean_width
    across = np.abs((gap * across_y).sum(axis=2)) / np.linalg.norm(across_y, axis=2) / mean_width
    alike = (x @ x.T >= math.cos(math.radians(TURN))) & (
        np.maximum(width[:, None], width[None, :]) <= WIDTHS * np.minimum(width[:, None], width[None, :])
    )
    ok = alike & (along >= STEP[0]) & (along <= STEP[1]) & (across <= ACROSS * along)
    np.fill_diagonal(ok, False)
    claimed: dict[int, tuple[float, int]] = {}
    for i in np.flatnonzero(ok.any(axis=1)).tolist():
        j = int(np.flatnonzero(ok[i])[np.argmin(along[i][ok[i]])])
        if j not in claimed or along[i, j] < claimed[j][0]:
            claimed[j] = (float(along[i, j]), i)
    return {i: j for j, (_, i) in claimed.items()}


def pairwise(
    frames: Sequence[IndexFrame],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every frame's x and y axes (n × 2) and width (n), and for every pair [a, b] the vector from
    ``a``'s corner to ``b``'s (n × n × 2) and their mean width (n × n)."""
    origin = np.array([f.frame.origin for f in frames], np.float64).reshape(-1, 2)
    x = np.array([f.frame.x for f in frames], np.float64).reshape(-1, 2)
    y = np.array([f.frame.y for f in frames], np.float64).reshape(-1, 2)
    width = np.array([f.frame.width for f in frames], np.float64)
    gap = origin[None, :, :] - origin[:, None, :]
    return x, y, width, gap, (width[:, None] + width[None, :]) / 2


def _rows(frames: list[IndexFrame], ahead: dict[int, int]) -> list[list[IndexFrame]]:
    """The chains of two or more frames that ``ahead`` links, each in order along its row."""
    behind = set(ahead.values())
    rows = []
    for start in range(len(frames)):
        if start in behind or start not in ahead:
            continue
        row, seen, i = [start], {start}, start
        while i in ahead and ahead[i] not in seen:
            i = ahead[i]
            row.append(i)
            seen.add(i)
        rows.append([frames[k] for k in row])
    return rows


def turned(a: IndexFrame, b: IndexFrame, t: float) -> IndexFrame:
    """The frame a share ``t`` of the way from ``a`` to ``b`` (beyond ``b`` when ``t`` > 1): turned
    about the point that turns ``a`` onto ``b`` (a fan's pivot), or shifted where they are parallel."""
    fa, fb = a.frame, b.frame
    turn = math.atan2(float(fb.x[1]), float(fb.x[0])) - math.atan2(float(fa.x[1]), float(fa.x[0]))
    turn = (turn + math.pi) % (2 * math.pi) - math.pi
    width = fa.width + t * (fb.width - fa.width)
    if abs(turn) < math.radians(0.5):
        origin = fa.origin + t * (fb.origin - fa.origin)
        x, y = fa.x, fa.y
    else:
        whole = _rotation(turn)
        pivot = np.linalg.solve(np.eye(2) - whole, fb.origin - whole @ fa.origin)
        part = _rotation(t * turn)
        origin = pivot + part @ (fa.origin - pivot)
        x, y = part @ fa.x, part @ fa.y
    return IndexFrame(CornerFrame(origin, x, y, width), False, min(a.score, b.score))


def _rotation(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s], [s, c]])
