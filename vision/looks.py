"""Three looks at one still frame, and the cards at least two of them agree on.

A card the recogniser reads or makes up can hang on a few pixels: the same scene moved two pixels
reads up to ten cards in 240 scenes otherwise, some gained and some lost, and a made-up card is most
often one that only some of those readings show (BENCHMARKS.md, "Vision, session 51"). So a still
photo can be read three times — as it is, moved two pixels up and left (the last rows and columns
repeated), and turned upside down (as a camera across the table would see it) — and a card kept where
at least two of the three readings see it: the same code, the middle of one sighting on the other's
outline. On a fresh set of 480 held-out-family scenes that read 8 more cards right and made 23 fewer
up (F1 0.916 → 0.926). It costs two reads, and a third where the first two disagree (13–26 % of the
scenes of three sets), so it is for photos (``Recognizer.looks``, ``dealer vision recognize``), not a
live camera's every frame.

>>> a = Sighting("AS", 0.9, ((0, 0), (60, 0), (60, 84), (0, 84)))
>>> made_up = Sighting("3C", 0.7, ((200, 0), (260, 0), (260, 84), (200, 84)))
>>> [s.card for s in agreed([[a, made_up], [a], [a]])]
['AS']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np

from vision.sighting import Sighting

SHIFT = 2  # pixels the second look moves the frame up and left by
AGREED = "seen alike in {n} of {looks} looks"


def several_looks(
    read: Callable[[np.ndarray], list[Sighting]], image: np.ndarray, looks: int
) -> list[Sighting]:
    """The sightings at least two of ``looks`` (3) readings by ``read`` agree on: of ``image`` as it
    is, moved ``SHIFT`` pixels up and left, and turned 180°; each reading mapped back onto ``image``.
    The third is read only where the first two disagree. With one look, ``read(image)``."""
    if looks == 1:
        return read(image)
    if looks != 3:
        raise ValueError(f"looks must be 1 or 3, got {looks!r}")
    h, w = image.shape[:2]
    moved = cv2.copyMakeBorder(image[SHIFT:, SHIFT:], 0, SHIFT, 0, SHIFT, cv2.BORDER_REPLICATE)
    readings = [read(image), [s.shifted(SHIFT, SHIFT) for s in read(moved)]]
    both = agreed(readings)
    if len(both) == len(readings[0]) == len(readings[1]):
        # the first two agree on every card: a third look could only add a vote to a card both saw,
        # so it would change nothing (the two disagree in 13–26 % of the scenes of three sets)
        return both
    readings.append([_turned_back(s, w, h) for s in read(cv2.rotate(image, cv2.ROTATE_180))])
    return agreed(readings)


def agreed(readings: list[list[Sighting]], need: int = 2) -> list[Sighting]:
    """The sightings seen alike in at least ``need`` of ``readings`` (one list per look, all in one
    frame's pixels): a sighting of the earliest look that sees the card stands for it, its evidence
    saying in how many. Alike: the same code, and the middle of one on the other's outline; each
    sighting stands with at most one of each other look, the nearest."""
    taken = [[False] * len(r) for r in readings]
    out: list[Sighting] = []
    for i, reading in enumerate(readings):
        for a, anchor in enumerate(reading):
            if taken[i][a]:
                continue
            taken[i][a] = True
            votes = 1
            for j in range(i + 1, len(readings)):
                k = _nearest_alike(anchor, readings[j], taken[j])
                if k is not None:
                    taken[j][k] = True
                    votes += 1
            if votes >= need:
                note = AGREED.format(n=votes, looks=len(readings))
                out.append(replace(anchor, evidence=(*anchor.evidence, note)))
    return out


def _nearest_alike(s: Sighting, others: list[Sighting], taken: list[bool]) -> int | None:
    best, best_d = None, np.inf
    for k, o in enumerate(others):
        if taken[k] or o.card != s.card or not (_on(s.centre, o) or _on(o.centre, s)):
            continue
        d = float(np.hypot(s.centre[0] - o.centre[0], s.centre[1] - o.centre[1]))
        if d < best_d:
            best, best_d = k, d
    return best


def _on(p: tuple[float, float], s: Sighting) -> bool:
    poly = np.asarray(s.outline, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(poly, (float(p[0]), float(p[1])), False) >= 0


def _turned_back(s: Sighting, w: int, h: int) -> Sighting:
    """A sighting of the frame turned 180° placed on the w × h frame itself (corners keep their order:
    a turn keeps clockwise clockwise)."""

    def back(points: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
        return tuple((w - 1 - x, h - 1 - y) for x, y in points)

    index = None if s.index_corner is None else back(s.index_corner)
    return Sighting(s.card, s.confidence, back(s.outline), index, s.evidence)
