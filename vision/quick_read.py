"""The quick read: a frame of touching cards that the learned finder's first look explains whole.

Cards lying apart are outlined one by one and read whole, quickly. Touching cards — a blackjack
table's hands — make one bright region, and the full read goes through every index frame the finder
regressed, upright and sideways, then second looks, row walks and probes, each there for what the
first look may have missed: a 1920 × 1080 frame of six two-card hands took about 130 ms. Most such
frames explain themselves. Where the threshold finder saw touching cards (merged regions),
:func:`quick_read` reads the learned finder's upright index frames (refined), checks the whole-card
quads that hold no face read with the card-side network, finds the backs the full read finds
(``Recognizer.table_backs``: by colour, on card surface, and among the corners of the merged
regions: a hole card under its up card), and answers only where that explains everything the maps show:

- no card so small that the finder would look again at twice its size, and no frame so wide that it
  would look again at half its size, other than at a card read through another frame;
- where three or more indices lie side by side in a row, or two with the index map high between
  them (a fan, a spread, a hand of three dealt across), the full read's looks along rows (its row
  walk, arc and gap probes: ``index_frames.more_along_rows``) read nothing more: in a fan or a spread
  the finder may have merged indices, and those looks find them;
- between two indices read side by side, and between two lying as a hand's first and third cards do,
  dealt down and across (a blackjack hand after a hit: the finder often sees the middle card's corner
  too wide or turned, or not at all), the index between them is looked for as the full read looks
  for it (``index_frames.between_readings``), and what reads surely there is added;
- every card read through the upright frames reads surely (``QUICK_SURE``, its corners' readings
  together, as the full read groups them; no joker), and its pips agree (the face check);
- every upright frame whose ink reads nothing lies at a corner or the index of a card read, or has its
  index on the face of a card read at both its index corners (whole in view: that ink is its pips or
  art); elsewhere the full read looks closer (a card under another, a tight fan's index);
- every sideways frame (a four-index deck's mirrored corner, or a two-index card's bare corner) lies on
  a card read, or reads either way round nothing new and shows no ink;
- every whole-card quad that holds no face read is surely a back;
- no card surface of the interior map, and no part of a merged region, is left that the cards and
  backs found do not cover (``LEFT_OVER`` of a card: a pile's lower card);
- on a pale table, no back lies on or under a face (there the threshold regions run into the table,
  and the full read's other looks outline such a back better).

Where it answers, a card lying on another whose index the first look missed (a hand with a card laid
sideways across it: a blackjack double down) is looked for as the full read looks for it, one card
width across the short edge from its far corner (``vision.across_probes``), and added.

Anything else and it answers None: the full read runs, with the finders' work already done.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.across_probes import read_across
from vision.card_side import BACK_THRESHOLD, TRACED_BACK, default_card_side
from vision.closer_look import SAME_MIDDLE, unexplained_surface
from vision.colour_backs import table_is_pale
from vision.detect import Detection
from vision.face_reader import check_faces
from vision.fan_gaps import MIN_STEP, ahead_in_row, gap_probes
from vision.finder import STRIDE, FinderMaps, IndexFrame, index_frames
from vision.index import Reading
from vision.index_frames import (
    FAR_CORNER,
    GAP_HEAT,
    SMALL_CARD,
    between_readings,
    group_readings,
    group_sighting,
    index_point,
    mean_heat,
    more_along_rows,
)
from vision.outline_sides import short_side
from vision.region_cover import unexplained
from vision.render import CARD_ASPECT
from vision.sighting import BACK, JOKER, Sighting

if TYPE_CHECKING:
    from vision.recognizer import Recognizer

QUICK_SURE = 0.9  # every card read, its corners' readings together, at least this sure (index_frames.SURE)
# of the frame's long side: a frame this wide calls for the finder's half-size pass (big cards come out
# narrower than they are), unless it lies on a card read through another
BIG_CARD = 0.135
NEAR = 0.2  # card widths between a frame and the corner or index of a card read that explains it
# card surface left over (the interior map at SURFACE or more, or a merged region of the threshold
# finder), in card areas: a sliver along an outline (one a frame implies is a little short) or a chip's
# rim is not a card; the visible half of a back under a face, or a pile's lower card, is
SURFACE = 0.3
LEFT_OVER = 0.25
UNREAD = "an index frame whose ink read nothing away from the cards read"
ROW = "a row of indices in which the looks along rows read more (a fan, a spread: indices merged)"


def quick_read(
    rec: Recognizer, view: np.ndarray, det: Detection, maps: FinderMaps, colour: bool
) -> list[Sighting] | None:
    """The cards of ``view`` where the finders' work (``det``, the learned finder's ``maps``) and the
    readings of the learned finder's frames explain the frame whole, else None (the full read)."""
    return attempt(rec, view, det, maps, colour)[0]


def attempt(
    rec: Recognizer, view: np.ndarray, det: Detection, maps: FinderMaps, colour: bool
) -> tuple[list[Sighting] | None, str]:
    """:func:`quick_read`'s answer, and why the full read is needed where it is None ("" where not)."""
    if not det.blobs:
        return None, "no cards touching: the full read reads each whole from its outline"
    frames = index_frames(maps, rec.min_index_heat)
    sure_widths = [f.frame.width for f in frames if f.score >= 0.5]
    if not sure_widths:
        return None, "no index seen surely"
    if float(np.median(sure_widths)) < SMALL_CARD * maps.scale:
        return None, "small cards: the finder looks again at twice its size"
    big = [f.frame.width >= BIG_CARD * max(view.shape[:2]) for f in frames]
    upright = [f for f, b in zip(frames, big, strict=True) if not f.sideways and not b]
    found, unread = _read_upright(rec, view, upright, colour)
    if not found:
        return None, "no index read"
    if rec.between_probe:  # as the full read looks: between indices side by side, and in a hand of three
        found += between_readings(rec, view, found, colour, [])
    if _a_row(rec, [fr for _, fr in found], maps) and more_along_rows(rec, view, found, colour, maps):
        return None, ROW
    groups = group_readings(found)
    faces = [group_sighting(g) for g in groups]
    if any(s.card == JOKER or s.confidence < QUICK_SURE for s in faces):
        return None, "a card read unsurely, or a joker"
    if rec.face_check:  # as the full read checks them: a card not read at INDEX_SURE against its pips
        checked = check_faces(view, faces)
        if any(c.card != s.card for c, s in zip(checked, faces, strict=True)):
            return None, "a card whose pips say another"
        faces = checked
    backs = _quad_backs(view, det, faces)
    if backs is None:
        return None, "a whole card that is neither a face read nor surely a back"
    read = faces + backs
    width = float(np.median([fr.frame.width for _, fr in found]))
    whole = [_both_corners(g) for g in groups] + [False] * len(backs)
    if _unread_elsewhere(unread, found, read, width, whole):  # before the backs are looked for: it costs
        return None, UNREAD
    sightings = rec.table_backs(view, read, unexplained(det.blobs, read), maps)
    codes = {s.card for s in faces}

    def nothing_new(fr: IndexFrame) -> bool:
        """Whether a sideways frame reads, either way round as the full read reads it, no card but those
        read, and shows no ink unread (where the full read would look closer)."""
        for side in (True, False):
            r, ink = rec._read(view, fr.frame, side, colour, whole=False)
            if r is not None and r.confidence >= rec.min_confidence:
                if r.card not in codes:
                    return False
            elif ink:
                return False
        return True

    if why := _unexplained(maps, frames, big, sightings, width, nothing_new):
        return None, why
    if unexplained(det.blobs, sightings, backs=True, left=LEFT_OVER):
        # a part of a merged region that no card read covers: a card under others in a pile, whose
        # index the full read reads through the region's corners or a closer look
        return None, "a merged region with a part no card read covers"
    if any(_on_a_face(s, faces) for s in sightings if s.card == BACK) and table_is_pale(view):
        return None, "a back on or under a face on a pale table"
    if rec.across_probe:  # last: it reads (a card lying on another whose index the first look missed)
        more = read_across(rec, view, det.blobs, sightings, colour)
        sightings += check_faces(view, more) if rec.face_check and more else more  # as the full read does
    return sightings, ""


def _read_upright(
    rec: Recognizer, view: np.ndarray, upright: list[IndexFrame], colour: bool
) -> tuple[list[tuple[Reading, IndexFrame]], list[IndexFrame]]:
    """The readings of the ``upright`` frames (refined by ``rec.frame_steps``), and the frames where ink
    showed but read nothing (the full read looks closer there). Every frame is read: in a pile one
    card's index lies where another's far corner does."""
    for step in rec.frame_steps:
        upright = step(rec, view, upright)
    found: list[tuple[Reading, IndexFrame]] = []
    unread: list[IndexFrame] = []
    for fr in upright:
        r, ink = rec._read(view, fr.frame, False, colour)
        if r is not None and r.confidence >= rec.min_index_confidence:
            found.append((r, fr))
        elif ink:
            unread.append(fr)
    return found, unread


def _a_row(rec: Recognizer, read: list[IndexFrame], maps: FinderMaps) -> bool:
    """Whether the upright frames ``read`` lie in a row where the full read's looks along rows may read
    more: three or more side by side (a fan, a spread, a hand of three: its row walk and arc probe), or
    two with the finder's index map high between them (a tight fan's ridge: its gap probe)."""
    ahead = ahead_in_row(read)
    step = np.where(ahead >= MIN_STEP, ahead, np.inf)
    nxt = [int(np.argmin(a)) if np.isfinite(a).any() else None for a in step]
    if any(j is not None and nxt[j] is not None for j in nxt):
        return True
    return rec.gap_probe and any(mean_heat(maps, gap.probes) >= GAP_HEAT for gap in gap_probes(read))


def _quad_backs(view: np.ndarray, det: Detection, faces: list[Sighting]) -> list[Sighting] | None:
    """The finders' whole-card quads that are no face read (their middle away from every face's), those
    the card-side network takes for a back as backs; None where one that lies on no face is not a back
    (a card the quick read cannot name). One that lies on a face is an outline spanning a hand's cards
    (the full read reads the face's index there again)."""
    middles = np.array([_middle(np.array(s.outline)) for s in faces])
    widths = np.array([short_side(s.outline) for s in faces])
    quads = [
        q
        for q in (*det.quads, *det.tentative)
        if (np.hypot(*(middles - _middle(q.corners)).T) >= SAME_MIDDLE * widths).all()
    ]
    polys = [np.array(s.outline, np.float32).reshape(-1, 1, 2) for s in faces]
    backs = []
    for q, side in zip(quads, default_card_side().hypotheses(view, list[object](quads)), strict=True):
        if side.back >= BACK_THRESHOLD:
            backs.append(Sighting(BACK, 0.8, _outline(q.corners), None, evidence=(TRACED_BACK,)))
        elif not any(cv2.pointPolygonTest(p, _middle(q.corners), False) >= 0 for p in polys):
            return None
    return backs


def _unexplained(
    maps: FinderMaps,
    frames: list[IndexFrame],
    big: list[bool],
    sightings: list[Sighting],
    width: float,
    nothing_new: Callable[[IndexFrame], bool],
) -> str:
    """Why what the finder's ``maps`` show is not explained by the cards found ("" where it is): a
    sideways frame off them that reads something new (``nothing_new``), a big frame off them, or card
    surface that none covers."""
    polys = [np.array(s.outline, np.float32).reshape(-1, 1, 2) for s in sightings]

    def on_a_card(fr: IndexFrame) -> bool:
        p = (float(fr.frame.origin[0]), float(fr.frame.origin[1]))
        return any(cv2.pointPolygonTest(q, p, True) >= -NEAR * width for q in polys)

    for fr, b in zip(frames, big, strict=True):
        # a big frame off the cards read may be a card the finder saw too narrow (it looks again at
        # half its size); a sideways one a four-index deck's card read nowhere else, or a card under
        # another whose index the finder took for a mirrored one
        if b and not on_a_card(fr):
            return "a big frame at no card read"
        if fr.sideways and not b and not on_a_card(fr) and not nothing_new(fr):
            return "a sideways frame off the cards read that reads a card, or ink that reads nothing"
    left, _ = unexplained_surface(maps, sightings, SURFACE)
    cell = maps.scale * STRIDE
    n, _, stats, _ = cv2.connectedComponentsWithStats(left, connectivity=8)
    card = width * width * CARD_ASPECT
    if any(area * cell * cell >= LEFT_OVER * card for area in stats[1:n, cv2.CC_STAT_AREA]):
        return "card surface no card read covers"
    return ""


def _unread_elsewhere(
    unread: list[IndexFrame],
    found: list[tuple[Reading, IndexFrame]],
    cards: list[Sighting],
    width: float,
    whole: list[bool],
) -> bool:
    """Whether a frame whose ink read nothing lies away from the corners of ``cards`` and the indices
    read (``NEAR``), other than with its index on the face of a card read at both its index corners
    (``whole``, by card): there the full read looks closer (a card under another, a tight fan's
    index)."""
    if not unread:
        return False
    corners = [np.array(s.outline, np.float64) for s in cards]
    marks = np.concatenate([*corners, np.array([index_point(fr) for _, fr in found])])
    polys = [np.array(s.outline, np.float32).reshape(-1, 1, 2) for s in cards]
    for fr in unread:
        if float(np.hypot(*(marks - fr.frame.origin).T).min()) <= NEAR * width:
            continue
        p = index_point(fr)
        if any(w and cv2.pointPolygonTest(poly, p, False) >= 0 for poly, w in zip(polys, whole, strict=True)):
            continue  # the pips or art of a card whose two index corners show: nothing lies on it there
        return True
    return False


def _both_corners(group: list[tuple[Reading, IndexFrame]]) -> bool:
    """Whether one card's readings (``group_readings``) agree at two opposite index corners: the whole
    card in view, its far corner uncovered."""
    agree = [fr for r, fr in group if r.card == group[0][0].card and not fr.sideways]
    return any(
        float(np.linalg.norm(a.frame.origin - b.frame.origin)) >= FAR_CORNER * a.frame.width
        for i, a in enumerate(agree)
        for b in agree[i + 1 :]
    )


def _on_a_face(back: Sighting, faces: list[Sighting]) -> bool:
    """Whether ``back``'s outline overlaps a face's."""
    b = np.array(back.outline, np.float32)
    return any(cv2.intersectConvexConvex(b, np.array(f.outline, np.float32))[0] > 0 for f in faces)


def _middle(corners: np.ndarray) -> tuple[float, float]:
    c = np.asarray(corners, np.float64).mean(axis=0)
    return float(c[0]), float(c[1])


def _outline(corners: np.ndarray) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in np.asarray(corners, np.float64))
