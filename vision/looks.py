"""Up to four looks at one still frame, and the cards at least two of them agree on.

A card the recogniser reads or makes up can hang on a few pixels: the same scene moved two pixels
reads up to ten cards in 240 scenes otherwise, some gained and some lost, and a made-up card is most
often one that only some of those readings show (BENCHMARKS.md, "Vision, session 51"). So a still
photo can be read several times — as it is; moved two pixels up and left (the last rows and columns
repeated); where those two disagree, turned upside down (as a camera across the table would see it);
and where a card still rests on one of those three readings alone, turned a quarter — and a card kept
where at least two of the readings see it: the same code, the middle of one sighting on the other's
outline. On a fresh set of 480 held-out-family scenes (seed 7790) three looks read 7 more cards right
and made 34 fewer up than one (F1 0.919 → 0.932), and four 26 more right again for 8 more made up
(0.939), at 2.5 reads a scene. It is for photos (``Recognizer.looks``, ``dealer vision recognize``),
not a live camera's every frame: a live camera's still table is read through the looks one frame at a
time, in the reads it takes after a change anyway (:class:`vision.live.LiveRecognizer`).

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
LOOKS = (1, 3, 4)  # the most reads a still frame may get: one; three; four
VIEWS = 4  # the looks there are (:func:`look`): as it is, moved, turned upside down, a quarter turned


def several_looks(
    read: Callable[[np.ndarray], list[Sighting]], image: np.ndarray, looks: int
) -> list[Sighting]:
    """The sightings at least two of up to ``looks`` (3 or 4) readings by ``read`` agree on: of
    ``image`` as it is, moved ``SHIFT`` pixels up and left, turned 180° and turned 90°; each reading
    mapped back onto ``image``. The third is read only where the first two disagree, and the fourth
    only where the first three leave a card that one of them alone sees. With one look,
    ``read(image)``."""
    if looks == 1:
        return read(image)
    if looks not in LOOKS:
        raise ValueError(f"looks must be one of {', '.join(map(str, LOOKS))}, got {looks!r}")
    readings = [look(read, image, 0), look(read, image, 1)]
    for k in range(2, looks):
        if not one_alone(readings):
            # every card seen has two votes or more: another look could only add a vote to a card
            # already kept, or stand alone itself (the first two disagree in 13–26 % of the scenes of
            # three sets; a fourth is needed in about a fifth of the scenes)
            break
        readings.append(look(read, image, k))
    return agreed(readings)


def look(read: Callable[[np.ndarray], list[Sighting]], image: np.ndarray, k: int) -> list[Sighting]:
    """Look ``k`` at ``image`` by ``read``, its sightings placed back on ``image``: 0 as it is, 1 moved
    ``SHIFT`` pixels up and left (the last rows and columns repeated), 2 turned 180°, 3 turned 90°
    clockwise."""
    h, w = image.shape[:2]
    if k == 0:
        return read(image)
    if k == 1:
        moved = cv2.copyMakeBorder(image[SHIFT:, SHIFT:], 0, SHIFT, 0, SHIFT, cv2.BORDER_REPLICATE)
        return [s.shifted(SHIFT, SHIFT) for s in read(moved)]
    if k == 2:
        return [_turned_back(s, w, h) for s in read(cv2.rotate(image, cv2.ROTATE_180))]
    if k == 3:
        return [_quarter_back(s, h) for s in read(cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE))]
    raise ValueError(
        f"look must be 0 (as it is), 1 (moved), 2 (turned upside down) or 3 (a quarter), got {k!r}"
    )


def agreed(readings: list[list[Sighting]], need: int = 2) -> list[Sighting]:
    """The sightings seen alike in at least ``need`` of ``readings`` (one list per look, all in one
    frame's pixels): a sighting of the earliest look that sees the card stands for it, its evidence
    saying in how many. Alike: the same code, and the middle of one on the other's outline; each
    sighting stands with at most one of each other look, the nearest."""
    return [
        replace(g[0], evidence=(*g[0].evidence, AGREED.format(n=len(g), looks=len(readings))))
        for g in _alike(readings)
        if len(g) >= need
    ]


def one_alone(readings: list[list[Sighting]]) -> bool:
    """Whether one of ``readings`` alone sees a card (no other sees it alike): a card another look
    may yet keep, or drop."""
    return any(len(g) == 1 for g in _alike(readings))


def _alike(readings: list[list[Sighting]]) -> list[list[Sighting]]:
    """Every sighting of ``readings`` in one group with those of later looks seen alike with it, the
    earliest look's first (see :func:`agreed`)."""
    taken = [[False] * len(r) for r in readings]
    groups: list[list[Sighting]] = []
    for i, reading in enumerate(readings):
        for a, anchor in enumerate(reading):
            if taken[i][a]:
                continue
            taken[i][a] = True
            group = [anchor]
            for j in range(i + 1, len(readings)):
                k = _nearest_alike(anchor, readings[j], taken[j])
                if k is not None:
                    taken[j][k] = True
                    group.append(readings[j][k])
            groups.append(group)
    return groups


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
    return _mapped(s, lambda x, y: (w - 1 - x, h - 1 - y))


def _quarter_back(s: Sighting, h: int) -> Sighting:
    """A sighting of the frame turned 90° clockwise placed on the frame itself, ``h`` pixels tall:
    pixel (x, y) of the turned frame is pixel (y, h - 1 - x) of the frame."""
    return _mapped(s, lambda x, y: (y, h - 1 - x))


def _mapped(s: Sighting, back: Callable[[float, float], tuple[float, float]]) -> Sighting:
    def each(points: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
        return tuple(back(x, y) for x, y in points)

    index = None if s.index_corner is None else each(s.index_corner)
    return Sighting(s.card, s.confidence, each(s.outline), index, s.evidence)
