"""A card read through a frame that the learned finder's first look, set at full resolution, contradicts.

The full read reads many frames beside the first look's: the half-size pass's for big cards, the
double-size passes', a row walk's, a probe's, and the corners of whole cards' outlines. Where one of
those lies on an index at a slant, or a third too wide or narrow, the index is cut sheared and can
read surely as another card (a J♠ read as 3♠ at 1.00 through a frame turned 20°, a 5♦ as 3♦ through
one 0.6 as wide). The first look's frame at the same index, refined by the recogniser's frame steps
(the corner refiner), is the one whose geometry is measured best (CORNER_REFINER.md); where the two
disagree and it reads another card surely, its reading stands (measured on training-family scenes
only: docs/vision.md, session 47).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.corner_refiner import frame_axes
from vision.finder import FinderMaps, IndexFrame, index_frames
from vision.index_frames import index_point
from vision.outline_sides import short_side
from vision.sighting import BACK, JOKER, Sighting

if TYPE_CHECKING:
    from vision.recognizer import Recognizer

# chosen on the training-family 240- and 480-scene sets (seeds 5000 and 5001), never on photos: the
# four frames that misread there were turned 15-22° or 0.58 and 1.37 times as wide (on a second 480,
# seed 5002, two more 0.65 and 1.48); among cards read right, none of those whose frames disagree this
# much has a first-look frame reading another card surely
TURNED = 10.0  # degrees between an edge of the frame read and the same edge of the first look's, at most
WIDER = 4 / 3  # the two frames' card widths at most this far apart, either way
NEAR = 0.15  # card widths between the index read and the first look's index
SURE = 0.9  # the first look's frame reads another card at least this surely
OVERRULED = "the finder's refined first look reads another card there"


def overruled_by_first_look(
    rec: Recognizer,
    view: np.ndarray,
    maps: FinderMaps,
    sightings: list[Sighting],
    colour: bool,
    same_index: Callable[[Sighting, Sighting], bool],
) -> list[Sighting]:
    """``sightings`` with each card read at an index (``_checked_kind``) that the first look's refined
    frame there contradicts, in geometry and in what it reads, read through that frame. Where what it
    reads there is a card read already round that place, the misreading stands if the first look read
    that card's own index (``same_index``) and another than the misreading's; else it goes."""
    todo = [s for s in sightings if _checked_kind(s)]
    if not todo:
        return sightings
    first = [f for f in index_frames(maps, rec.min_index_heat) if not f.sideways]
    near = [f for f in first if any(_near(f, s) for s in todo)]
    for step in rec.frame_steps:  # (refined before and remembered, where the read itself used them)
        near = step(rec, view, near)
    if not near:
        return sightings
    checked = {id(s) for s in todo}
    out = []
    for s in sightings:
        again = _read_again(rec, view, s, near, colour) if id(s) in checked else None
        read = [o for o in sightings if again is not None and o is not s and _same_card(o, again)]
        if again is None:
            out.append(s)
        elif not read:
            out.append(again)
        elif not any(same_index(o, s) for o in read) and any(same_index(o, again) for o in read):
            # the first look read that card's own index, read already: its frame lies on it (a tight
            # fan's neighbour, whose index the finder's first look merged with this one's)
            out.append(s)
        # else the misreading goes: that card is read already, at this very index (rightly, through
        # another frame) or at its other index corner, and this index is that card's
    return out


def _same_card(a: Sighting, b: Sighting) -> bool:
    """Whether ``a`` and ``b`` are one card: the same code, either's outline holding the other's middle."""
    if a.card != b.card:
        return False
    return _holds(a.outline, b.centre) or _holds(b.outline, a.centre)


def _holds(outline: tuple[tuple[float, float], ...], point: tuple[float, float]) -> bool:
    poly = np.asarray(outline, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), False) > 0


def _checked_kind(s: Sighting) -> bool:
    """A face read at an index: through an index frame, or less than surely through a whole card's
    outline (a sure one never read wrong so on those sets: left unchecked, its frames unrefined)."""
    return (
        s.card not in (BACK, JOKER)
        and s.index_corner is not None
        and len(s.outline) == 4
        and (s.evidence[:1] == ("index",) or s.confidence < SURE)
    )


def _near(f: IndexFrame, s: Sighting) -> bool:
    centre = np.mean(np.asarray(s.index_corner, np.float64), axis=0)
    width = short_side(np.asarray(s.outline, np.float32))
    return float(np.hypot(*(np.asarray(index_point(f)) - centre))) < NEAR * width


def _read_again(
    rec: Recognizer, view: np.ndarray, s: Sighting, frames: list[IndexFrame], colour: bool
) -> Sighting | None:
    """``s`` read through the first look's frame at its index, where that frame disagrees with the
    outline ``s`` was read through and reads another card surely; else None."""
    near = [f for f in frames if _near(f, s)]
    if not near:
        return None
    centre = np.mean(np.asarray(s.index_corner, np.float64), axis=0)
    f = min(near, key=lambda f: float(np.hypot(*(np.asarray(index_point(f)) - centre))))
    if not _disagree(np.asarray(s.outline, np.float64), f):
        return None
    r = rec._read(view, f.frame, False, colour)[0]
    if r is None or r.card in (s.card, JOKER) or r.confidence < SURE:
        return None
    return Sighting(
        r.card,
        r.confidence,
        tuple((float(x), float(y)) for x, y in f.outline()),
        r.index_corner,
        evidence=("index", f"{r.card}:{r.confidence:.2f}", OVERRULED, f"not {s.card}:{s.confidence:.2f}"),
    )


def _disagree(outline: np.ndarray, f: IndexFrame) -> bool:
    """Whether the card ``outline``'s corner nearest ``f``'s is turned more than ``TURNED`` from it
    along either edge, or its width differs by more than ``WIDER``."""
    origin, s, long = frame_axes(f)
    k = int(np.argmin(np.linalg.norm(outline - origin, axis=1)))
    a, b = outline[(k + 1) % 4] - outline[k], outline[k - 1] - outline[k]
    # the outline's edge along the frame's short edge is the one more nearly parallel to it
    short_edge, long_edge = (a, b) if _cos(a, s) > _cos(b, s) else (b, a)
    turned = max(_degrees(short_edge, s), _degrees(long_edge, long))
    ratio = float(np.linalg.norm(short_edge) / max(float(np.linalg.norm(s)), 1e-9))
    return turned > TURNED or not 1 / WIDER <= ratio <= WIDER


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return abs(float(a @ b)) / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-12)


def _degrees(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.degrees(np.arccos(min(1.0, _cos(a, b)))))
