"""Read cards through the learned finder's index frames: one corner frame per visible index.

The learned finder (``vision.finder``) regresses, at every index it sees, the reading frame of that
card corner. Once the whole cards the finders traced are read, three steps turn its maps into
sightings, each a function of the recogniser, the image and the frames so far:

1. :func:`find_frames` — the index frames of the network's maps, with those of big cards taken from a
   second, coarser pass (:func:`big_card_frames`) where a frame off the cards already read calls for
   it; frames at a card already read surely are that card again and are dropped;
2. (also in :func:`find_frames`) the recogniser's ``frame_steps``, each
   ``step(recognizer, image, frames)`` → frames: work on the frames themselves; by default the
   corner refiner sets each corner at full resolution (``vision.corner_refiner.refine_step``);
3. :func:`read_index_frames` — each frame's index read (with ``corner_search``, nearby corners are
   tried where it does not read surely), a card read twice or already read whole reported once;
   where an index was seen but did not read, the finder looks again at twice its working
   resolution round it, and over a card read through a whole hand's outline (:func:`closer_frames`),
   and those frames are read too (``closer_look``);
   halfway between two indices read side by side, where the network's index map merged a
   fan's neighbouring indices into one peak (:func:`between_frames`, ``between_probe``); and where
   a row of indices read (a fan, a spread hand) is missing some, in its gaps and beyond its ends
   (``vision.fan_rows``, ``row_walk``); all along the arc of a fan whose indices read surely,
   through one frame the fan's own geometry makes (``vision.fan_arcs``, ``arc_probe``); last, between
   two indices of a row with no other to step by, where the index map showed the cards between as one
   ridge (``vision.fan_gaps``, ``gap_probe``; the index corners of cards read whole count there too).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.card_side import BACK_THRESHOLD, CardSideError, back_probability
from vision.closer_look import Region, closer_scale, look, tiles, unexplained_regions, windows
from vision.detect import CardQuad, CornerFrame
from vision.face_reader import face_checked, faces_alone
from vision.fan_arcs import arc_frames
from vision.fan_gaps import evenly_spaced, gap_probes
from vision.fan_rows import row_frames
from vision.finder import (
    STRIDE,
    FinderMaps,
    IndexFrame,
    default_finder,
    frame_from_vectors,
    index_frames,
    network_input,
)
from vision.index import Reading, at_the_edge, corner_box, is_joker_corner
from vision.outline_sides import mean_width, short_side
from vision.render import CARD_ASPECT
from vision.sighting import BACK, JOKER, Sighting

if TYPE_CHECKING:
    from vision.recognizer import Recognizer

SURE = 0.9  # a reading this confident is taken as right (confidences are calibrated)
BETWEEN_TURN = 25.0  # degrees between the axes of two index frames of a fan's neighbouring cards, at most
BETWEEN_GAP = (0.3, 0.8)  # card widths along the short edge between two indices with one hidden between
# card widths between the corners of a hand's first and third cards (a two-card hand's lie about 0.5 apart)
HAND_GAP = (0.75, 1.3)
# two readings of one code (one sure) at frames facing one way (within ALIKE_TURN degrees) and alike in
# width (within ALIKE_WIDTH times) are two copies of the card, not two corners of one
ALIKE_TURN = 45.0
ALIKE_WIDTH = 1.3
# a four-index card's top-right corner lies where its long side starts: a frame turned a little off
# (10° puts it 0.17 card widths before) still holds it
LONG_SLACK = 0.3
FAR_CORNER = 1.3  # card widths between one card's two index corners, at least (the diagonal is 1.72)
COPY_MIN = 0.8  # the less sure of two copies' readings, at least (the other is sure)
APART = 0.35  # card widths between two copies' corners, at least (one corner read twice lies closer)
# a card read surely through an outline this much wider than a frame's card holds that frame only at its
# index (``_Sure``): the outline is a whole hand's
OVERSIZED = 0.2
# the evidence of a card read surely at one index corner of a quad whose other index corner does not look
# alike: the quad may be traced round two cards, the lower one's index inside it (``_Sure``)
UNLIKE_FAR = "its far index corner unlike the one read"
ALONG = np.cos(np.radians(20.0))  # a frame axis within this angle of a back's edge runs along it
ROW_ROUNDS = 4  # a row's ends are walked this many steps at most
# an index read this surely is not read again through the frames of a merged region's corners or of
# the closer look (``TakenIndices``): a corner reading replaces an index reading only when surer
TAKEN_SURE = 0.99
CLOSER_MIN = 0.8  # a reading from the closer look counts from here (chosen on training-family scenes)
# the closer look's index map peaks taken as frames, from here: at twice the resolution the finder
# also marks pips and court art faintly. Session 16, training-family 240 scenes: of 2,849 closer
# frames read, 1,597 peak at 0.5 or more, and 122 of the 129 readings kept; F1 the same on both
# 240-scene sets (0.6 lost 2 held-out cards, 0.7 lost 3)
CLOSER_HEAT = 0.5
# where the cards in view are narrower than this many network pixels at the finder's working size, the
# finder looks again at SMALL_PASS times that size (session 22, chosen on training-family scenes of
# 1280 × 960 and of 3200 × 2400 pixels: 28 to 44 px and 1.5, 2 and 2.5 times measured)
SMALL_CARD = 36
SMALL_PASS = 2
# and where the cards that pass sees are still that small, once more at twice its size, up to this many
# times the working size (a 4032-px photo's 60-px card is 15 network pixels at 1024 px, 30 at 2048);
# never at more than the frame's own size, nor at a size under 1.5 times the last (a 1280-px frame's
# 1024-px pass is its last). Session 29, measured on training-family phone photos (3200 × 2400 and
# 4032 × 3024, cards up to 320 and 1100 px): F1 0.895 -> 0.905 and 0.869 -> 0.900; no threshold new
SMALL_MOST = 4
# with cards read surely, the small-card passes look only round what those leave unexplained: a frame
# none holds, this many of its card widths each way (the network's context reaches far: its maps 20
# map pixels inside a tile still differ from the whole frame's; at one card width more scenes read
# otherwise, session 40), and card surface none covers; over the whole frame where the tiles would
# cover more than WINDOWS_MOST of it
WINDOW_REACH = 2.0
WINDOWS_MOST = 1 / 3
# card widths outside a face read from its pips alone that its index may lie (its outline, cut
# short by a card it lies on, may stop short of it)
PIPS_REACH = 0.25
# the finder's index map along the probes between two indices read, on average, at least, for them to be
# read (``gap_probe``): the cards of a tight fan between them make one ridge there (0.79-0.95 on rendered
# fans of five at 5-7° a card), a two-card hand's first card shows its face (0.29-0.62 on rendered hands)
GAP_HEAT = 0.7
# a reading between two indices, where no other index gives the step, counts from here: the probes meet a
# court card's art beside its index, read as one at 0.96-0.98 in rendered fans at 12° a card
GAP_SURE = 0.99
# a step between finding the index frames and reading them: (recogniser, image, frames) → frames
FrameStep = Callable[["Recognizer", np.ndarray, list[IndexFrame]], list[IndexFrame]]


def find_frames(
    rec: Recognizer,
    view: np.ndarray,
    maps: FinderMaps,
    known: list[Sighting] | None = None,
    colour: bool = True,
) -> list[IndexFrame]:
    """The index frames of the learned finder's ``maps`` of ``view``, then ``rec.frame_steps`` in turn.
    ``known``: the cards already read (whole): frames at their corners, or whose index lies on one
    read surely, are that card again and are dropped before the steps (none of them would be read).
    ``colour``: whether the frame's colour tells red from black (as the frames will be read)."""
    found = index_frames(maps, rec.min_index_heat)
    sure = _Sure(known or [], found)
    big = big_card_frames(rec, view, found, known, colour)
    frames = [f for f in small_card_frames(rec, view, maps, big, known or []) if not sure.holds(f)]
    return _stepped(rec, view, frames)


def _stepped(rec: Recognizer, view: np.ndarray, frames: list[IndexFrame]) -> list[IndexFrame]:
    """``frames`` through ``rec.frame_steps`` in turn (a step's work on a frame is done once per
    recognition: the corner refiner remembers it)."""
    for step in rec.frame_steps:
        frames = step(rec, view, frames)
    return frames


def indexed_pips(
    rec: Recognizer, view: np.ndarray, maps: FinderMaps, sightings: list[Sighting], colour: bool
) -> list[Sighting]:
    """``sightings`` with each face read from its pips alone (no index read at its outline's
    corners) read again at an index the finder saw on or by it: where one of them reads the same
    code surely, the face is that index's reading (its outline stays the finder's). A threshold
    region cut short by the card it lies on (a hole card tucked under its up card) gives an outline
    whose corners miss the index; the face read without it would hide that index from the frames
    read next, and leave it bare for a back to be guessed over it."""

    def pips_only(s: Sighting) -> bool:
        return s.card not in (BACK, JOKER) and s.index_corner is None

    if not any(pips_only(s) for s in sightings):
        return sightings
    frames = [f for f in index_frames(maps, rec.min_index_heat) if not f.sideways]
    return [(_index_of(rec, view, s, frames, colour) if pips_only(s) else None) or s for s in sightings]


def _index_of(
    rec: Recognizer, view: np.ndarray, face: Sighting, frames: list[IndexFrame], colour: bool
) -> Sighting | None:
    """``face`` read surely at one of ``frames`` whose index lies within ``PIPS_REACH`` of its
    width of its outline (with that index), or None."""
    outline = np.array(face.outline, np.float32)
    reach = PIPS_REACH * short_side(outline)
    poly = outline.reshape(-1, 1, 2)
    best: tuple[Reading, IndexFrame] | None = None
    for fr in frames:
        if cv2.pointPolygonTest(poly, index_point(fr), True) < -reach:
            continue
        r, _ = rec._read(view, fr.frame, False, colour)
        if (
            r is not None
            and r.card == face.card
            and r.confidence >= SURE
            and (best is None or r.confidence > best[0].confidence)
        ):
            best = (r, fr)
    if best is None:
        return None
    r, fr = best
    return Sighting(
        face.card,
        max(face.confidence, r.confidence),
        face.outline,
        r.index_corner,
        evidence=("index", f"{r.card}:{r.confidence:.2f}", *face.evidence),
    )


def big_card_frames(
    rec: Recognizer,
    view: np.ndarray,
    frames: list[IndexFrame],
    known: list[Sighting] | None = None,
    colour: bool = True,
) -> list[IndexFrame]:
    """Frames of big cards from a second pass at half the working size, where the network saw
    such cards at the sizes it learned (it underestimates a card wider than about a fifth of its
    input, and with the width the corner): where one reads a card surely (through ``rec``'s frame
    steps, ``colour`` as the frames will be read) it replaces the first pass's frames there; where it
    reads none, they stay beside it, but for one whose reading reaches the frame's edge. ``known``:
    cards already read (``frames`` at those read surely do not call for the pass)."""
    long_side = max(view.shape[:2])
    if not rec.coarse_pass or long_side <= rec.finder_size // 2:
        return frames
    # a big card's first-pass width comes out up to about a quarter short: only a frame that
    # could be one of the coarse pass's (>= 0.18 of the long side) calls for that pass, and only
    # off the cards already read surely (a frame there is not read: that card is known)
    sure = _Sure(known or [])
    if not any(f.frame.width >= 0.135 * long_side and not sure.holds(f) for f in frames):
        return frames
    coarse = [
        f
        for f in index_frames(default_finder().run(view, rec.finder_size // 2), rec.min_index_heat)
        if f.frame.width >= 0.18 * long_side
    ]
    if not coarse:
        return frames

    def readings(f: IndexFrame) -> list[Reading]:
        """What ``f`` reads once through the frame steps (each frame alone: a step may drop one)."""
        return [r for g in _stepped(rec, view, [f]) if (r := rec._read(view, g.frame, g.sideways, colour)[0])]

    # a coarse frame can land on a neighbour's index and read that card or nothing, where the first
    # pass's frames at the card's own corner read it (a big card partly covered, session 54)
    replacing = [c for c in coarse if any(r.confidence >= SURE for r in readings(c))]

    def near(f: IndexFrame, among: list[IndexFrame]) -> bool:
        return any(np.linalg.norm(c.frame.origin - f.frame.origin) < 0.25 * c.frame.width for c in among)

    def read_at_the_edge(f: IndexFrame) -> bool:
        # a narrow frame there reads a cut index, never surely: no better than the coarse frame's nothing
        return any(at_the_edge(r.index_corner, view.shape) for r in readings(f))

    def stays(f: IndexFrame) -> bool:
        return not near(f, coarse) or not (near(f, replacing) or read_at_the_edge(f))

    return coarse + [f for f in frames if stays(f)]


def small_card_frames(
    rec: Recognizer,
    view: np.ndarray,
    maps: FinderMaps,
    frames: list[IndexFrame],
    known: Sequence[Sighting] = (),
) -> list[IndexFrame]:
    """``frames`` and those of small cards from a pass at ``SMALL_PASS`` times the working size, and
    again at twice that while the cards seen stay small (up to ``SMALL_MOST`` times the working size,
    ``Recognizer.deeper_small_pass``), where their indices are as many network pixels as the finder
    learned to see: at 512 px a 3200-px photo's 100-px card is 16 network pixels wide and a 1280-px
    frame's 50-px card 20, its index 4 tall. Run only where the cards in view are small: the median
    card width of the first pass's (``maps``) surer frames (index heat 0.5 or more) under
    ``SMALL_CARD`` network pixels (a court card's art or a pip raises weak frames of any width), and
    never at more than the frame's own size. A later pass's frame of a card that small is added where
    no earlier pass gave a frame within 0.15 card widths (one index, one frame); the pass after it
    runs where that pass's surer frames of such cards are still under ``SMALL_CARD`` network pixels
    at its size. Where cards are read surely already (``known``), a pass looks only round what they
    leave unexplained (``Recognizer.small_pass_windows``, :func:`_unexplained_boxes`): the frames of
    twelve 100-px cards lying apart in a 1920-px frame, all read whole from their outlines but a back,
    need the finder's second pass only round that back."""
    small = SMALL_CARD * maps.scale  # full-image pixels
    sure = [f.frame.width for f in frames if f.score >= 0.5]
    if not rec.small_pass or not sure or float(np.median(sure)) >= small:
        return frames
    boxes = _unexplained_boxes(maps, frames, list(known)) if rec.small_pass_windows else None
    long_side = max(view.shape[:2])
    size, out = rec.finder_size, list(frames)
    most = SMALL_MOST if rec.deeper_small_pass else SMALL_PASS
    while size < most * rec.finder_size:
        last, size = size, min(SMALL_PASS * size, long_side)
        if size <= last * (1.5 if last > rec.finder_size else 1.0):
            break  # (nearly) the frame's own size was seen already
        again = [a for a in _small_pass(rec, view, size, boxes) if a.frame.width < small]
        origins = np.array([f.frame.origin for f in out]).reshape(-1, 2)
        reach = 0.15 * np.array([f.frame.width for f in out])
        out += [a for a in again if not (np.hypot(*(origins - a.frame.origin).T) < reach).any()]
        seen = [a.frame.width for a in again if a.score >= 0.5]
        if not seen or float(np.median(seen)) * size / long_side >= SMALL_CARD:
            break
    return out


def _small_pass(rec: Recognizer, view: np.ndarray, size: int, boxes: list[Region] | None) -> list[IndexFrame]:
    """The finder's index frames of ``view`` seen at ``size`` px on its long side: of the whole frame,
    or only of tiles of it round ``boxes`` where those cover at most ``WINDOWS_MOST`` of it."""
    small = network_input(view, size)
    h, w = small.shape[:2]
    scale = view.shape[1] / w  # full-image pixels per network pixel
    parts = tiles(boxes, scale, w, h) if boxes is not None else []
    finder = default_finder()
    if boxes is None or sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in parts) > WINDOWS_MOST * w * h:
        return index_frames(finder.run_scaled(small, scale), rec.min_index_heat)
    return [
        _offset(f, x0 * scale, y0 * scale)
        for x0, y0, x1, y1 in parts
        for f in index_frames(finder.run_scaled(small[y0:y1, x0:x1], scale), rec.min_index_heat)
    ]


def _unexplained_boxes(
    maps: FinderMaps, frames: list[IndexFrame], known: list[Sighting]
) -> list[Region] | None:
    """Boxes (full-image pixels) round what the cards of ``known`` read surely leave unexplained in the
    first pass (``maps``, ``frames``): each frame none of them holds, ``WINDOW_REACH`` of its card
    widths each way, and the card surface none covers (half the narrowest such card across, at
    least); None where no card is read surely."""
    # (a quad read surely whose far corner looked unlike its index still explains its outline: the
    # frames inside it are read at the first pass's size, not looked for again)
    sure = _Sure(known, frames, loose=False)
    if not sure.cards:
        return None
    boxes = []
    for f in frames:
        if not sure.holds(f):
            x, y = index_point(f)
            r = WINDOW_REACH * f.frame.width
            boxes.append((x - r, y - r, x + r, y + r))
    return boxes + unexplained_regions(maps, sure.cards, 0.5 * float(np.min(sure.widths)))


def read_index_frames(
    rec: Recognizer,
    image: np.ndarray,
    frames: list[IndexFrame],
    colour: bool,
    known: list[Sighting],
    maps: FinderMaps | None = None,
) -> list[Sighting]:
    """Cards read through the corner frames the learned finder regressed at each index.

    A frame at a corner of a card already read surely (``known``) is that card again and is not
    read twice; the corners of one card read alike are one sighting. Where an index was seen but
    did not read, the finder takes a closer look (:func:`closer_frames`) and those frames are read
    too; so are frames between indices side by side and in the gaps and at the ends of a row of
    indices (:func:`between_frames`, :func:`_walk_rows`), along a fan's arc (:func:`_probe_arcs`) and,
    with the finder's ``maps``, between two indices of a fan's row with no step to walk by
    (:func:`_probe_gaps`).
    """
    width = width_in_view(frames, known)
    found, unread = _read_frames(rec, image, frames, colour, known)
    if rec.between_probe:
        found += between_readings(rec, image, found, colour, known)
    if rec.upright_twins:
        # a spread's or a fan's corner taken for a mirrored one reads the neighbour's index across it
        # (sideways), and the card's own index, upright at the same corner, is then read by none
        found += _sure_and_new(rec, image, upright_twins(found), colour, known, found)
    walked: list[CornerFrame] = []  # the row walk's frames read so far: none is read twice
    if rec.row_walk:
        found += _walk_rows(rec, image, found, colour, known, walked)
    # a reading through a sideways frame leaves doubt too: the finder may have misjudged an upright
    # index's turn (a two-index deck has no sideways index), often where it merged neighbouring ones
    doubt = unread + [fr for _, fr in found if fr.sideways]
    # and a card read through a whole hand's outline: the hand's other indices lie on its face, where
    # the first look's index map often stays under the heat its frames start from
    hands = [s.outline for s in known if s.card not in (BACK, JOKER) and _a_hands(s, width)] if width else []
    if (doubt or hands) and rec.closer_look:
        more = closer_frames(rec, image, doubt, [fr for _, fr in found], hands)
        for step in rec.frame_steps:
            more = step(rec, image, more)
        sure = [(r, fr) for r, fr in found if r.confidence >= TAKEN_SURE and r.index_corner]
        # only the index corners of those read: a far corner guessed from a regressed width is, in a
        # straight spread, where the index corner of the fifth card on lies (with the far corners, 5
        # of the 65 cards read on six rendered spreads at 0.2 card widths were lost)
        taken = TakenIndices(
            [np.asarray(r.index_corner, np.float64) for r, _ in sure], [fr.frame.origin for _, fr in sure]
        )
        more = [fr for fr in more if not taken.holds(fr.frame, fr.sideways)]
        # a second look reads more of what is not an index (court art, pips, letter-like lattices):
        # it has to read surely, and a joker as surely as any probe's (the letters a back's lattice
        # shows read as a joker at about 0.8)
        closer = [
            (r, fr)
            for r, fr in _read_frames(rec, image, more, colour, known, jokers=False)[0]
            if r.confidence >= CLOSER_MIN and (r.card != JOKER or r.confidence >= SURE)
        ]
        found += closer
        if closer and rec.row_walk:  # the rows those indices belong to may go on
            found += _walk_rows(rec, image, found, colour, known, walked)
    if rec.arc_probe:
        found = _probe_arcs(rec, image, found, colour, known)
    if rec.gap_probe and maps is not None:
        found += _probe_gaps(rec, image, found, colour, known, maps)
    out: list[Sighting] = []
    for g in group_readings(found):
        r, fr = g[0]
        s = group_sighting(g)
        if s.confidence < rec.min_index_confidence and rec.face_check and r.card != JOKER:
            # too unsure to stand alone: the face inside the outline the frame implies may settle it
            s = face_checked(image, s)
        if s.confidence < rec.min_index_confidence:
            continue
        deferred = _deferred_to(known, s)
        if any(_same_card(o, s.card, s.index_corner, fr, s.confidence, width) for o in deferred):
            continue
        out.append(s)
    if unread and rec.face_check:
        out += faces_of_unread(image, unread, known + out)
    return out


def group_sighting(group: list[tuple[Reading, IndexFrame]]) -> Sighting:
    """One card's sighting from its readings (``group_readings``: the surest upright first): their
    confidences combined as independent readings where they agree (less where one disagrees), the
    outline the first frame implies, and every reading as evidence."""
    r, fr = group[0]
    agree = [x[0].confidence for x in group if x[0].card == r.card]
    conf = 1.0 - float(np.prod([1.0 - c for c in agree]))
    if len(agree) < len(group):
        conf *= 0.7
    return Sighting(
        r.card,
        min(1.0, conf),
        tuple((float(x), float(y)) for x, y in fr.outline()),
        r.index_corner,
        evidence=("index",) + tuple(f"{x[0].card}:{x[0].confidence:.2f}" for x in group),
    )


def faces_of_unread(image: np.ndarray, unread: list[IndexFrame], read: list[Sighting]) -> list[Sighting]:
    """Whole cards whose index was seen but did not read, from their pips: the outline each frame
    implies, where no card read lies, read by the face reader (``vision.face_reader``) when it is
    sure of an ace to ten (a partly covered card shows no whole face to count)."""
    taken = [np.array(s.outline, np.float32).reshape(-1, 1, 2) for s in read]
    todo: list[np.ndarray] = []
    for fr in unread:
        outline = fr.outline()
        c = outline.mean(axis=0)
        if any(cv2.pointPolygonTest(q, (float(c[0]), float(c[1])), False) >= 0 for q in taken):
            continue  # a card read there already, or this card's other corner
        todo.append(outline)
        taken.append(outline.astype(np.float32).reshape(-1, 1, 2))
    return [s for s in faces_alone(image, todo) if s is not None]


def _read_frames(
    rec: Recognizer,
    image: np.ndarray,
    frames: list[IndexFrame],
    colour: bool,
    known: list[Sighting],
    *,
    jokers: bool = True,
) -> tuple[list[tuple[Reading, IndexFrame]], list[IndexFrame]]:
    """Each frame's reading where its index reads, and the frames where index-like ink showed
    but read nothing sure enough to stand on its own. Without ``jokers`` ink that reads nothing is
    not looked at for a joker's letters (a probe's caller takes no joker from it)."""
    sure = _Sure(known, frames)
    found: list[tuple[Reading, IndexFrame]] = []
    unread: list[IndexFrame] = []
    # upright corners first: a four-index deck's mirrored corner (read sideways) is only needed
    # for a card none of whose upright corners read surely
    for fr in sorted(frames, key=lambda f: (f.sideways, -f.score)):
        f = fr.frame
        if sure.holds(fr):
            continue
        lattice = sure.on_a_back(fr)
        hand = sure.in_a_hand(fr)
        # an unrefined corner is only as fine as the network's working size: with a corner search,
        # where the index does not read surely there, nearby corners are tried and the surest kept
        best: tuple[Reading, IndexFrame] | None = None
        for at in [f] + [_moved(f, bx, by) for bx, by in rec.corner_search]:
            # which edge is the short one decides upright or sideways: the network's guess first. The
            # other is read only where its glyphs segment: read whole by the patch reader, it gave 2
            # readings in 1,880 on 120 training-family scenes (the guess read whole gave 97 in 1,900).
            # A sideways patch is never read whole: the finder guesses sideways at the bare corners of
            # most two-index cards, where the whole-patch network was asked ~25 times a 1080p frame of
            # six hands for nothing; not asking it there left the 240 training-family scenes as they
            # were and took 4 false cards (and 1 true) off the 240 held-out ones (session 20)
            inked = False
            for side in (fr.sideways, not fr.sideways):
                r, ink = rec._read(image, at, side, colour, whole=not side and not fr.sideways)
                inked = inked or ink
                if r is not None and r.confidence >= rec.min_confidence:
                    if best is None or r.confidence > best[0].confidence:
                        best = (r, IndexFrame(at, side, fr.score))
                    break
            if best is None and inked and jokers and not lattice and letters_on_a_back(image, at):
                best = (Reading(JOKER, 0.8, 0.0, corner_box(at)), IndexFrame(at, False, fr.score))
            if (best is not None and best[0].confidence >= rec.min_index_confidence) or not inked:
                break
        # a frame at a corner another frame implies is still read: that outline rests on a regressed
        # card width, and in hands and fans a neighbour's index often lies near one of its corners
        # (the same card read twice is one group below)
        if lattice:  # only a sure reading tells a card's index from the back's lattice
            if best is not None and best[0].confidence >= SURE:
                found.append(best)
            continue
        if hand:  # nor one from the pips, art and index edges of the hand's other cards
            if best is not None and best[0].confidence >= SURE and best[0].card != JOKER:
                found.append(best)
            continue
        if best is not None:
            found.append(best)
        if inked and (best is None or best[0].confidence < rec.min_index_confidence):
            unread.append(fr)
    return found, unread


def _sure_and_new(
    rec: Recognizer,
    image: np.ndarray,
    probes: list[IndexFrame],
    colour: bool,
    known: list[Sighting],
    found: list[tuple[Reading, IndexFrame]],
) -> list[tuple[Reading, IndexFrame]]:
    """The readings of frames put where an index may have been missed: only sure ones (a joker too:
    a back's lattice reads as one at about 0.8), and none of a code ``found`` already (unless the two
    are copies of a card lying one on the other)."""
    return [
        (r, fr)
        for r, fr in _read_frames(rec, image, probes, colour, known, jokers=False)[0]
        if r.confidence >= SURE
        and not any(r.card == o.card and not _two_copies((o, of), (r, fr)) for o, of in found)
    ]


def between_readings(
    rec: Recognizer,
    image: np.ndarray,
    found: list[tuple[Reading, IndexFrame]],
    colour: bool,
    known: list[Sighting],
) -> list[tuple[Reading, IndexFrame]]:
    """The sure readings of codes not ``found`` between the indices ``found`` (:func:`between_frames`).

    A fan's or a tight hand's indices lie a few map pixels apart, and the finder's index map can merge
    two into one peak: between two indices read lying side by side the index of a card between them
    is looked for, and between a hand's first and third cards, where the second's index lies. The
    hand's probes are refined as the finder's frames are (from corners of cards turned each its own
    way, halfway is as far off as either)."""
    probes = between_frames(found, hands=True)
    for step in rec.frame_steps if probes else ():
        probes = step(rec, image, probes)
    return _sure_and_new(rec, image, between_frames(found) + probes, colour, known, found)


def sure_new_cards(
    rec: Recognizer, image: np.ndarray, probes: list[IndexFrame], colour: bool, read: list[Sighting]
) -> list[Sighting]:
    """The cards read surely through ``probes`` whose codes none of ``read`` has, one
    sighting per card. A probe lying on a card read is read too (a hand's upper card's index lies on
    the card below it)."""
    codes = {s.card for s in read}
    found = [(r, fr) for r, fr in _sure_and_new(rec, image, probes, colour, [], []) if r.card not in codes]
    return [group_sighting(g) for g in group_readings(found)]


def more_along_rows(
    rec: Recognizer,
    image: np.ndarray,
    found: list[tuple[Reading, IndexFrame]],
    colour: bool,
    maps: FinderMaps,
) -> bool:
    """Whether the full read's looks along the rows of the indices ``found`` (:func:`_walk_rows`,
    :func:`_probe_arcs`, :func:`_probe_gaps`, each as switched on in ``rec``) read a card more, or one
    otherwise: in a fan or a spread the finder may have merged neighbouring indices."""
    if rec.row_walk and _walk_rows(rec, image, found, colour, [], []):
        return True
    if rec.arc_probe:
        after = _probe_arcs(rec, image, found, colour, [])
        if sorted(r.card for r, _ in after) != sorted(r.card for r, _ in found):
            return True
    return rec.gap_probe and bool(_probe_gaps(rec, image, found, colour, [], maps))


def _walk_rows(
    rec: Recognizer,
    image: np.ndarray,
    found: list[tuple[Reading, IndexFrame]],
    colour: bool,
    known: list[Sighting],
    probed: list[CornerFrame],
) -> list[tuple[Reading, IndexFrame]]:
    """Sure readings of new codes at the frames where a row of the indices read is missing one
    (``vision.fan_rows``): a row's gaps and ends, then the ends again from what was read there.
    Frames ``probed`` before (a reading depends only on its frame) are not read again; those read
    now are added to it."""
    found = list(found)
    new: list[tuple[Reading, IndexFrame]] = []
    for _ in range(ROW_ROUNDS):
        probes = row_frames([fr for _, fr in found], probed)
        if not probes:
            break
        probed += [f.frame for f in probes]
        read = [
            (r, fr)
            for r, fr in _read_frames(rec, image, probes, colour, known, jokers=False)[0]
            # a code read unsurely elsewhere may be this card's, read there through a frame off its index
            if r.confidence >= SURE
            and not any(
                r.card == o.card and o.confidence >= SURE and not _two_copies((o, of), (r, fr))
                for o, of in found
            )
        ]
        if not read:
            break
        found += read
        new += read
    return new


def _probe_arcs(
    rec: Recognizer,
    image: np.ndarray,
    found: list[tuple[Reading, IndexFrame]],
    colour: bool,
    known: list[Sighting],
) -> list[tuple[Reading, IndexFrame]]:
    """``found`` with the sure readings along the arcs that its sure upright indices trace (the fans
    of ``vision.fan_arcs``; the surest reading of each code, :func:`_arc_readings`). Readings of one
    code through the finder's frames within half a card width of one of those, and unsure ones of any
    code within a tenth (closer than a 5° fan's neighbouring corners), are its index read through a
    frame a little off: the arc's reading takes their place. A code read surely elsewhere (farther
    off, or whole) is not read again."""
    sure = [(r, fr) for r, fr in found if r.confidence >= SURE and not fr.sideways and r.card != JOKER]
    middles = [np.mean(np.asarray(r.index_corner, np.float64), axis=0) for r, _ in sure]
    best: dict[str, tuple[Reading, IndexFrame]] = {}
    for arc in arc_frames([fr for _, fr in sure], middles):
        for r, fr in _arc_readings(_read_frames(rec, image, arc, colour, known, jokers=False)[0], arc):
            if r.card not in best or r.confidence > best[r.card][0].confidence:
                best[r.card] = (r, fr)
    out = list(found)
    for r, fr in best.values():
        gap = [float(np.linalg.norm(x[1].frame.origin - fr.frame.origin)) / fr.frame.width for x in out]
        near = [
            x
            for x, g in zip(out, gap, strict=True)
            if (x[0].card == r.card and g < 0.5) or (x[0].confidence < SURE and g < 0.1)
        ]
        others = [o for o, _ in out if not any(o is n for n, _ in near)] + known
        if any(o.card == r.card and o.confidence >= SURE for o in others):
            continue
        out = [x for x in out if not any(x is n for n in near)] + [(r, fr)]
    return out


def _probe_gaps(
    rec: Recognizer,
    image: np.ndarray,
    found: list[tuple[Reading, IndexFrame]],
    colour: bool,
    known: list[Sighting],
    maps: FinderMaps,
) -> list[tuple[Reading, IndexFrame]]:
    """New codes read between two indices of a row read surely (or of cards read whole) that no other
    index gives a step to (``vision.fan_gaps``): along the probes where the finder's index map lies
    high (``GAP_HEAT``), each code's surest reading (``GAP_SURE``, read by a probe next to its own
    too), kept where the readings of the gap divide it into whole steps."""
    anchors = [fr for r, fr in found if r.confidence >= SURE and not fr.sideways and r.card != JOKER]
    anchors += [fr for _, fr in _read_whole(known)]
    have = {r.card for r, _ in found if r.confidence >= SURE}
    have |= {o.card for o in known if o.confidence >= SURE}
    best: dict[str, tuple[Reading, IndexFrame]] = {}
    for gap in gap_probes(anchors):
        if mean_heat(maps, gap.probes) < GAP_HEAT:
            continue
        step = {id(fr.frame): k for k, fr in enumerate(gap.probes)}
        surest: dict[str, tuple[Reading, IndexFrame]] = {}
        at: dict[str, set[int]] = {}  # the probes that read each code surely
        probes = list(gap.probes)
        for r, fr in _arc_readings(_read_frames(rec, image, probes, colour, known, jokers=False)[0], probes):
            if r.card in have or r.confidence < GAP_SURE or id(fr.frame) not in step:
                continue
            at.setdefault(r.card, set()).add(step[id(fr.frame)])
            if r.card not in surest or r.confidence > surest[r.card][0].confidence:
                surest[r.card] = (r, fr)
        where = [gap.share(_middle_of_run(at[code], step[id(fr.frame)])) for code, (_, fr) in surest.items()]
        if not evenly_spaced(where, gap.along):
            continue
        for code, (r, fr) in surest.items():
            if code not in best or r.confidence > best[code][0].confidence:
                best[code] = (r, fr)
    return list(best.values())


def _middle_of_run(read: set[int], k: int) -> float:
    """The middle of the run of consecutive probes in ``read`` (the probes that read one code) that holds
    probe ``k``. An index reads through the several probes that sweep across it (three or four at 1.0 in
    a fan at 5° a card): the middle of that run is where it lies, where the surest probe, the first of
    equals, lies a third of a step early."""
    lo = hi = k
    while lo - 1 in read:
        lo -= 1
    while hi + 1 in read:
        hi += 1
    return (lo + hi) / 2


def _read_whole(known: list[Sighting]) -> list[tuple[Reading, IndexFrame]]:
    """The faces read surely whole (``known``) as readings through both their index corners' frames
    (which of the two lies in a row is not the one its reading came from: a fan's top card is often
    read from its far index)."""
    out: list[tuple[Reading, IndexFrame]] = []
    for o in known:
        if o.confidence < SURE or o.card in (BACK, JOKER) or not o.index_corner or len(o.outline) != 4:
            continue
        reading = Reading(o.card, o.confidence, 0.0, o.index_corner)
        out += [(reading, fr) for fr in index_corner_frames(o)]
    return out


def index_corner_frames(face: Sighting) -> tuple[IndexFrame, IndexFrame]:
    """The upright frames at the two index corners of ``face``'s four-corner outline, the one nearer
    its index first."""
    quad = CardQuad(np.asarray(face.outline, np.float64))
    first, second = IndexFrame(quad.frame(0), False, 1.0), IndexFrame(quad.frame(2), False, 1.0)
    if face.index_corner:
        middle = np.mean(np.asarray(face.index_corner, np.float64), axis=0)
        if np.linalg.norm(second.frame.origin - middle) < np.linalg.norm(first.frame.origin - middle):
            return second, first
    return first, second


def mean_heat(maps: FinderMaps, probes: tuple[IndexFrame, ...]) -> float:
    """The finder's index map at the index middles of ``probes``, on average (0 off the map)."""
    heat = maps.prob[2]
    pts = np.array([index_point(fr) for fr in probes], np.float64) / maps.scale
    col, row = (np.rint((pts + 0.5) / STRIDE - 0.5).astype(int)).T
    inside = (col >= 0) & (row >= 0) & (col < heat.shape[1]) & (row < heat.shape[0])
    values = np.zeros(len(pts))
    values[inside] = heat[row[inside], col[inside]]
    return float(values.mean()) if len(values) else 0.0


def _arc_readings(
    read: list[tuple[Reading, IndexFrame]], arc: list[IndexFrame]
) -> list[tuple[Reading, IndexFrame]]:
    """The sure readings (no joker) of the probes along one ``arc`` that a probe next to theirs read
    too. The probes just before and after an index read it too, less surely; a code read at one probe
    alone, at neither next to it, is an index read through a frame half off it (at the end of one
    index's probes, taking in part of the next: a false card on a training-family scene)."""
    # a reading's frame is its probe's own (one a corner search moved is taken for no probe's)
    code_at = {id(fr.frame): r.card for r, fr in read}
    codes = [None] + [code_at.get(id(f.frame)) for f in arc] + [None]  # probe i's is codes[i + 1]
    place = {id(f.frame): i for i, f in enumerate(arc)}
    out = []
    for r, fr in read:
        i = place.get(id(fr.frame))
        if i is None or r.confidence < SURE or r.card == JOKER or r.card not in (codes[i], codes[i + 2]):
            continue
        out.append((r, fr))
    return out


def upright_twins(found: list[tuple[Reading, IndexFrame]]) -> list[IndexFrame]:
    """The frames read sideways, each taken for an upright corner at the same place: a card running
    the other way along its short edge (the mirror image of the sideways frame's card)."""
    return [mirrored(fr.frame, fr.sideways, fr.score) for _, fr in found if fr.sideways]


def mirrored(f: CornerFrame, sideways: bool, score: float = 1.0) -> IndexFrame:
    """The frame at ``f``'s corner of the card running the other way along its short edge: upright
    where ``f`` is read sideways (a four-index deck's mirrored corner), sideways where upright. (Read
    so for every frame whose first reading failed, in place of the same frame turned, it found 3
    cards, lost 3 and gave 3 false ones more on the training-family scenes: only ``upright_twins``.)"""
    m = f.card_to_image()  # columns: the long edge, then the short one, where sideways
    s, long = (m[:2, 1], m[:2, 0]) if sideways else (m[:2, 0], m[:2, 1])
    return frame_from_vectors(f.origin, -s, long, score)


def between_frames(found: list[tuple[Reading, IndexFrame]], *, hands: bool = False) -> list[IndexFrame]:
    """Frames halfway between two upright index frames read whose cards may have one between them,
    the axes alike (within ``BETWEEN_TURN`` degrees): side by side as a fan's or a spread's cards
    lie (corners ``BETWEEN_GAP`` card widths apart along the short edge, less than half that across);
    with ``hands``, the first and third cards of a hand dealt down and across instead (``HAND_GAP``:
    each card lies by as much down as across from the one before, or less, so their corners lie apart
    within 45° of the short edge), where a hand's top card is often read through its far index: its
    near corner, the far corner of the outline that frame implies, pairs too."""
    frames = [fr for _, fr in found if not fr.sideways]
    others = [_far_corner(fr) for fr in frames] if hands else []
    out: list[IndexFrame] = []
    for i, a in enumerate(frames):
        for b in frames[i + 1 :] + others:
            fa, fb = a.frame, b.frame
            if float(fa.x @ fb.x) < np.cos(np.radians(BETWEEN_TURN)):
                continue
            width = (fa.width + fb.width) / 2
            gap = fb.origin - fa.origin
            along = abs(float(gap @ (fa.x + fb.x))) / 2 / width
            across = abs(float(gap @ (fa.y + fb.y))) / 2 / width
            if hands:
                apart = float(np.hypot(along, across))
                if not (0.5 * along < across <= along and HAND_GAP[0] <= apart <= HAND_GAP[1]):
                    continue
            elif not (BETWEEN_GAP[0] <= along <= BETWEEN_GAP[1] and across <= 0.5 * along):
                continue
            x, y = fa.x + fb.x, fa.y + fb.y
            mid = CornerFrame(
                (fa.origin + fb.origin) / 2, x / np.linalg.norm(x), y / np.linalg.norm(y), width
            )
            if not any(np.linalg.norm(f.frame.origin - mid.origin) < 0.12 * width for f in frames + out):
                out.append(IndexFrame(mid, False, min(a.score, b.score)))
    return out


def _far_corner(fr: IndexFrame) -> IndexFrame:
    """The upright frame at the corner across the card from upright frame ``fr``'s (the card's other
    index corner, of the outline ``fr`` implies)."""
    return IndexFrame(CardQuad(np.asarray(fr.outline(), np.float64)).frame(2), False, fr.score)


def closer_frames(
    rec: Recognizer,
    image: np.ndarray,
    unread: list[IndexFrame],
    read: list[IndexFrame],
    regions: Sequence[Sequence[tuple[float, float]]] = (),
) -> list[IndexFrame]:
    """Index frames from the finder's closer look (``vision.closer_look``) round the indices that
    were seen but did not read, and over the outlines ``regions``: at the working size an index of a
    small card or of one in a tight fan is a few map pixels, and the corner regressed there mixes
    neighbours. Frames at a corner already ``read`` are left out, and those at a window's edge,
    where the finder lacked context."""
    h, w = image.shape[:2]
    scale = closer_scale(image, rec.finder_size)
    if scale is None:
        return []
    around = []  # about three card widths round each index
    for fr in unread:
        cx, cy = index_point(fr)
        half = 1.5 * fr.frame.width
        around.append((cx - half, cy - half, cx + half, cy + half))
    for outline in regions:
        (x0, y0), (x1, y1) = np.min(outline, axis=0), np.max(outline, axis=0)
        around.append((float(x0), float(y0), float(x1), float(y1)))
    out: list[IndexFrame] = []
    for box in windows(around, scale, w, h):
        x0, y0, x1, y1 = box
        edge = _MARGIN * scale
        for fr in index_frames(look(image[y0:y1, x0:x1], scale), max(rec.min_index_heat, CLOSER_HEAT)):
            px, py = index_point(fr)
            if not (edge <= px <= x1 - x0 - edge and edge <= py <= y1 - y0 - edge):
                continue
            moved = _offset(fr, x0, y0)
            if any(np.linalg.norm(moved.frame.origin - o.frame.origin) < 0.1 * o.frame.width for o in read):
                continue
            out.append(moved)
    return out


_MARGIN = 8  # network pixels at a window's edge where the finder lacks context: frames there are left


def _offset(fr: IndexFrame, dx: float, dy: float) -> IndexFrame:
    """Frame ``fr`` of a crop, in the pixels of the image the crop starts (``dx``, ``dy``) into."""
    f = fr.frame
    hom = None
    if f.homography is not None:
        hom = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]]) @ f.homography
    return IndexFrame(CornerFrame(f.origin + [dx, dy], f.x, f.y, f.width, hom), fr.sideways, fr.score)


def group_readings(found: list[tuple[Reading, IndexFrame]]) -> list[list[tuple[Reading, IndexFrame]]]:
    """The readings of one card together, its surest upright reading first: the same code read at
    a corner of the card the other frame implies (the card width, hence the far corners, is the
    least sure part of a frame) unless it is another copy of a card read there (``_two_copies``),
    or another code read where the outlines coincide closely from the same corner or the card's far
    one, unless both readings are sure: two sure readings of two codes are two cards (in a hand two
    indices can imply one outline), and so are two frames at corners no card has two indices at."""
    groups: list[list[tuple[Reading, IndexFrame]]] = []
    for it in sorted(found, key=lambda t: (t[1].sideways, -t[0].confidence)):
        centre = it[1].outline().mean(axis=0)
        for g in groups:
            lead = g[0][1]
            if g[0][0].card == it[0].card:
                same = not any(_two_copies(m, it) for m in g) and (
                    _covers(lead, it[1].frame.origin) or _covers(it[1], lead.frame.origin)
                )
            else:
                gap = float(np.linalg.norm(lead.frame.origin - it[1].frame.origin)) / lead.frame.width
                same = bool(
                    np.linalg.norm(lead.outline().mean(axis=0) - centre) < 0.1 * lead.frame.width
                    and min(g[0][0].confidence, it[0].confidence) < SURE
                    # one corner read twice, or the card's far corner: not a corner between the two
                    and (gap < APART or gap > FAR_CORNER)
                )
            if same:
                g.append(it)
                break
        else:
            groups.append([it])
    return groups


def letters_on_a_back(image: np.ndarray, frame: CornerFrame) -> bool:
    """Whether a column of letter-like marks at corner ``frame`` (what a joker's "JOKER" looks like
    to ``is_joker_corner``) is a back's lattice: the card-side network takes the card the frame
    implies for a back. Such a corner is reported as a joker reading that
    ``vision.recognizer``'s joker pass then turns into that back (or drops, on a back already seen).
    Letters alone never make a joker: on training-family scenes they were a back's lattice 32 times
    in 33 (a joker's corner is read by the patch reader's joker head and the glyph readers instead)."""
    if not is_joker_corner(image, frame):
        return False
    quad = IndexFrame(frame, False, 0.0).outline().astype(np.float32)  # the card the corner implies
    try:
        return back_probability(image, CardQuad(quad)) > BACK_THRESHOLD
    except CardSideError:  # a degenerate frame: no card to tell
        return False


class TakenIndices:
    """Where indices read surely (``TAKEN_SURE``) lie, and corners taken for such a card's. A frame
    whose index would lie on such an index, or which sits at such a corner, could only read that card
    again (``recognize`` drops a corner reading of a card read, and one at an index read as surely)
    or, misread through a frame a little off, a second card where there is one; in a hand or a fan
    most of the frames a merged region's corners and the finder's closer look give are such. They
    are not read. A card's whole outline is no test: in a hand or a fan the card on top shows its
    index inside the outline of the card beneath."""

    def __init__(self, boxes: list[np.ndarray], corners: list[np.ndarray]) -> None:
        # each box grown by half about its middle: the box read is the ink, a frame's index point a guess
        grown = [(b - b.mean(axis=0)) * 1.5 + b.mean(axis=0) for b in boxes]
        self.boxes = [np.asarray(q, np.float32).reshape(-1, 1, 2) for q in grown]
        self.corners = np.asarray(corners, np.float64).reshape(-1, 2)

    @classmethod
    def of(cls, read: list[Sighting]) -> TakenIndices:
        """The indices of the cards ``read`` surely, and the four corners of each (for a merged
        region's corners; the closer look's frames are tested against index corners only)."""
        sure = [s for s in read if s.index_corner and s.confidence >= TAKEN_SURE]
        corners = [c for s in sure for c in s.outline]
        return cls([np.asarray(s.index_corner, np.float64) for s in sure], corners)

    def holds(self, f: CornerFrame, sideways: bool) -> bool:
        """Whether corner ``f`` is a card's read surely, or its index (read upright or ``sideways``)
        lies on one read surely."""
        if _near(self.corners, f).any():
            return True
        p = index_point(IndexFrame(f, sideways, 0.0))
        return any(cv2.pointPolygonTest(q, p, False) >= 0 for q in self.boxes)


class _Sure:
    """Cards read surely: a frame at one of their corners running onto it, or whose index lies on one
    of them (a visible index on a card read whole is that card's), is that card again. A frame at a corner of
    a back read whole, running into the back along its edges, is its lattice; any other is a card
    lying on the back whose index shows there, read only when it reads surely (:meth:`on_a_back`)."""

    def __init__(
        self, known: list[Sighting], frames: list[IndexFrame] | None = None, loose: bool = True
    ) -> None:
        self.known, self.frames = known, frames or []
        self.width: float | None = None  # the cards' in view (``width_in_view``), found on first use
        self.cards = cards = [o for o in known if o.confidence >= SURE]
        sure = [np.array(o.outline, np.float64) for o in cards]
        backs = [np.array(o.outline) for o in known if o.card == BACK and o.confidence < SURE]
        self.pts = np.concatenate(sure) if sure else np.zeros((0, 2))  # their corners
        self.owner = np.repeat(np.arange(len(sure)), [len(q) for q in sure])  # whose corner each is
        self.back_pts = np.concatenate(backs) if backs else np.zeros((0, 2))
        # each back corner's two edge directions
        self.back_edges = np.concatenate([_edges(q) for q in backs]) if backs else np.zeros((0, 2, 2))
        self.polys = [q.astype(np.float32).reshape(-1, 1, 2) for q in sure]
        # each outline's bounding box: a point outside it is outside the outline
        self.lo = np.array([q.min(axis=0)[0] for q in self.polys]).reshape(-1, 2)
        self.hi = np.array([q.max(axis=0)[0] for q in self.polys]).reshape(-1, 2)
        # of each four-corner outline read at an index: its width (its index, ``_index``, made on first use)
        self.widths = np.array([mean_width(q) for q in sure])
        self.indexed = np.array([bool(o.index_corner) and len(o.outline) == 4 for o in cards], bool)
        self.loose = np.array([loose and UNLIKE_FAR in o.evidence for o in cards], bool)
        self.indices: dict[int, TakenIndices] = {}

    def holds(self, fr: IndexFrame) -> bool:
        """Whether frame ``fr`` is at a corner of a card read surely and runs onto it, or its index on
        one, or is a back's own corner (running into the back along its edges). A card read surely
        through an outline more than ``OVERSIZED`` wider than the frame's card (a threshold region round
        a whole hand, read at its first card's index) holds only the frames at its index: the hand's
        other cards lie over the rest of that region, their indices on the first card's face."""
        f = fr.frame
        near = _near(self.back_pts, f)
        if near.any() and _along(self.back_edges[near], f):
            return True
        if not self.polys:  # no card read surely yet
            return False
        wide = self._wide(f)
        at_corner = _near(self.pts, f) & ~wide[self.owner]
        if at_corner.any() and self._onto(fr, np.unique(self.owner[at_corner]).tolist()):
            return True
        at = index_point(fr)
        p = np.float32(at)
        boxed = np.flatnonzero((self.lo <= p).all(axis=1) & (p <= self.hi).all(axis=1) & ~wide).tolist()
        if any(cv2.pointPolygonTest(self.polys[i], at, False) > 0 for i in boxed):
            return True
        return any(self._index(i).holds(f, fr.sideways) for i in np.flatnonzero(wide).tolist())

    def _onto(self, fr: IndexFrame, cards: list[int]) -> bool:
        """Whether frame ``fr`` runs onto one of ``cards``, at whose corners it is (``runs_onto``)."""
        return any(runs_onto(fr, self.polys[i]) for i in cards)

    def in_a_hand(self, fr: IndexFrame) -> bool:
        """Whether frame ``fr``'s index lies on a card read surely through a whole hand's region
        (which does not :meth:`hold` it): only a sure reading of another code counts there."""
        if not self.polys:
            return False
        f = fr.frame
        at = index_point(fr)
        wide = self._wide(f)
        return any(cv2.pointPolygonTest(self.polys[i], at, False) > 0 for i in np.flatnonzero(wide).tolist())

    def _index(self, i: int) -> TakenIndices:
        """Card ``i``'s index corner and index (grown by half about its middle, as ``TakenIndices`` grows
        every index)."""
        if i not in self.indices:
            card = self.cards[i]
            corner = index_corner_frames(card)[0].frame.origin
            self.indices[i] = TakenIndices([np.asarray(card.index_corner, np.float64)], [corner])
        return self.indices[i]

    def _wide(self, f: CornerFrame) -> np.ndarray:
        """Which cards read surely were read through a whole hand's outline, by frame ``f``'s card and
        the cards in view (a frame's regressed width may be far off), or through a quad whose far index
        corner did not look like the one read (``UNLIKE_FAR``): each holds frames only at its index."""
        wide = self.indexed & (self.widths > (1 + OVERSIZED) * f.width)
        if wide.any():
            if self.width is None:
                self.width = width_in_view(self.frames, self.known)
            wide &= self.widths > (1 + OVERSIZED) * self.width
        return wide | (self.indexed & self.loose)

    def on_a_back(self, fr: IndexFrame) -> bool:
        """Whether frame ``fr`` is at a corner of a back read whole but not surely (and, unless
        :meth:`holds`, is not the back's own corner)."""
        return bool(_near(self.back_pts, fr.frame).any())


def _a_hands(card: Sighting, width: float) -> bool:
    """Whether ``card`` was read at an index through a four-corner outline more than ``OVERSIZED``
    wider than cards ``width`` wide (``mean_width``: a quad round a hand can have one side cut short):
    a threshold region round a whole hand."""
    outline = np.asarray(card.outline, np.float64)
    return bool(card.index_corner) and len(outline) == 4 and mean_width(outline) > (1 + OVERSIZED) * width


def width_in_view(frames: list[IndexFrame], known: list[Sighting]) -> float:
    """The width of the cards in view: the median of the finder's surer ``frames``' (index heat 0.5
    or more; of them all where none is) and the ``known`` cards' read through four-corner outlines;
    0 without either."""
    widths = [f.frame.width for f in frames if f.score >= 0.5] or [f.frame.width for f in frames]
    widths += [short_side(s.outline) for s in known if len(s.outline) == 4]
    return float(np.median(widths)) if widths else 0.0


def _near(corners: np.ndarray, f: CornerFrame) -> np.ndarray:
    """Which of ``corners`` lie within a tenth of a card width of frame ``f``'s corner."""
    return np.hypot(*(corners - f.origin).T) < 0.1 * f.width if len(corners) else np.zeros(0, bool)


def _edges(outline: np.ndarray) -> np.ndarray:
    """(4, 2, 2): at each corner of ``outline``, the unit directions of its two edges."""
    nxt, prv = np.roll(outline, -1, axis=0) - outline, np.roll(outline, 1, axis=0) - outline
    unit = np.stack([nxt, prv], axis=1)
    return unit / np.maximum(np.linalg.norm(unit, axis=2, keepdims=True), 1e-9)


def _along(edges: np.ndarray, f: CornerFrame) -> bool:
    """Whether frame ``f`` runs into the back at one of the corners it is at: its x axis lies along
    one of that corner's edges (``edges``, K × 2 directions), pointing the way the edge goes."""
    return bool((edges @ np.asarray(f.x, np.float64) >= ALONG).any())


def _same_card(
    whole: Sighting,
    card: str,
    index: tuple[tuple[float, float], ...] | None,
    at: IndexFrame,
    confidence: float,
    in_view: float = 0.0,
) -> bool:
    """Whether ``card``, read at the index frame ``at`` with ``confidence``, is a card already read:
    the same code on or next to it (frames' widths are the least sure part), or its read corner
    where one of the other's corners is and its frame running onto it (``runs_onto``: the same card
    read otherwise, the whole card's reading stands; one pointing away is another card lying corner to
    corner with it) — unless this reading is sure and the whole card's is not (a quad round two cards of a
    hand, read as the other one). Of a card read through a whole hand's outline (more than
    ``OVERSIZED`` wider than ``at``'s card and the cards ``in_view``) only the index corner counts:
    the outline's other corners are the hand's other cards'."""
    theirs = np.array(whole.outline)
    width = at.frame.width
    if whole.card != card and _a_hands(whole, max(width, in_view)):
        theirs = index_corner_frames(whole)[0].frame.origin.reshape(1, 2)
    if whole.card == card:
        if _another_copy(whole, Reading(card, confidence, 0.0, index), at):
            return False
        c = np.mean(np.array(index), axis=0) if index else at.frame.origin
        poly = theirs.astype(np.float32).reshape(-1, 1, 2)
        if cv2.pointPolygonTest(poly, (float(c[0]), float(c[1])), False) >= 0:
            return True
        if np.linalg.norm(theirs.mean(axis=0) - at.outline().mean(axis=0)) < 0.6 * width:
            return True
    if card != whole.card and confidence >= SURE > whole.confidence:
        return False
    if confidence >= SURE and UNLIKE_FAR in whole.evidence and _another_rank_unread(whole, card, at):
        return False
    if float(np.hypot(*(theirs - at.frame.origin).T).min()) >= 0.1 * width:
        return False
    return len(theirs) < 3 or runs_onto(at, theirs)


def _another_rank_unread(whole: Sighting, card: str, at: IndexFrame) -> bool:
    """Whether ``card`` is of another rank than ``whole`` (read at its index through a four-corner
    outline) and upright frame ``at`` lies at a corner of that outline other than the one read. Asked
    of a quad whose far index corner looked unlike the one read (``UNLIKE_FAR``): its own far index is
    not there, so another rank read at one of its corners is another card's index (an outline traced
    round two cards, one under the other, ends at the lower card's corner); the same rank may be its
    own index with the suit misread."""
    if at.sideways or not whole.index_corner or len(whole.outline) != 4 or card in (BACK, JOKER):
        return False
    if whole.card in (BACK, JOKER) or whole.card[:-1] == card[:-1]:
        return False
    outline = np.asarray(whole.outline, np.float64)
    middle = np.mean(np.asarray(whole.index_corner, np.float64), axis=0)
    unread = np.delete(outline, int(np.argmin(np.hypot(*(outline - middle).T))), axis=0)
    return bool(_near(unread, at.frame).any())


def runs_onto(fr: IndexFrame, outline: np.ndarray) -> bool:
    """Whether the card frame ``fr`` implies has its middle on ``outline`` (N × 2 corners): a frame at
    a card's own corner does, even turned or scaled well off; one at that corner pointing away is
    another card's, the two lying corner to corner."""
    middle = fr.outline().mean(axis=0)
    poly = np.asarray(outline, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(poly, (float(middle[0]), float(middle[1])), False) > 0


def _deferred_to(known: list[Sighting], s: Sighting) -> list[Sighting]:
    """The cards ``known`` that a reading ``s`` of one of them would be taken for again: all of them,
    but for a joker read surely, none of the jokers known less surely. Those are "JOKER" letters read
    at a corner or spelt down a quad's, and often a back's lattice (dropped with it later, which would
    take the joker read surely with it); where one is the same joker, the two are one card at the end
    (``vision.recognizer``). Session 53, with the sure jokers of the probes and the closer look: 10
    jokers more on three held-out-family sets of 480 scenes (of 161 in view), one more and one ace
    fewer on three training-family sets of 240, none made up."""
    if s.card != JOKER or s.confidence < SURE:
        return known
    return [o for o in known if o.card != JOKER or o.confidence >= SURE]


def index_point(f: IndexFrame) -> tuple[float, float]:
    """Where the index of corner frame ``f`` lies (its middle), in image pixels."""
    u, v = (0.2, 0.14) if f.sideways else (0.14, 0.2)
    p = f.frame.card_to_image() @ np.array([u, v, 1.0])
    return float(p[0] / p[2]), float(p[1] / p[2])


def _two_copies(a: tuple[Reading, IndexFrame], b: tuple[Reading, IndexFrame]) -> bool:
    """Whether two readings of one code, one sure and the other at least ``COPY_MIN`` (a copy partly
    covered reads less surely), are two copies of the card (a multi-deck shoe's): their
    upright frames face the same way, at about one card width (``_alike``), ``APART``. One card's
    two upright corners never face the same way: its far index is turned half round."""
    (ra, fa), (rb, fb) = a, b
    gap = float(np.linalg.norm(fa.frame.origin - fb.frame.origin))
    apart = gap >= APART * min(fa.frame.width, fb.frame.width)
    sure = max(ra.confidence, rb.confidence) >= SURE and min(ra.confidence, rb.confidence) >= COPY_MIN
    return ra.card == rb.card and sure and apart and _alike(fa, fb)


def _another_copy(whole: Sighting, reading: Reading, at: IndexFrame) -> bool:
    """Whether ``reading`` at ``at`` is another copy of the card ``whole`` (read at an index corner of
    its four-corner outline), as ``_two_copies`` tells two frames' readings apart: a copy lying partly
    under it, its index beside the other's and facing the same way, is not that card read again even
    where the outline it implies overlaps the other's."""
    if len(whole.outline) != 4 or not whole.index_corner:
        return False
    mine = Reading(whole.card, whole.confidence, 0.0, whole.index_corner)
    return _two_copies((mine, index_corner_frames(whole)[0]), (reading, at))


def two_copies_seen(a: Sighting, b: Sighting) -> bool:
    """Whether sightings ``a`` and ``b`` of one code, each read at an index corner of its four-corner
    outline, are two copies of the card as ``_two_copies`` tells them (index frames facing the same way,
    apart), not one card read at its two index corners (those face opposite ways)."""
    if len(b.outline) != 4 or not b.index_corner:
        return False
    return _another_copy(a, Reading(b.card, b.confidence, 0.0, b.index_corner), index_corner_frames(b)[0])


def _alike(a: IndexFrame, b: IndexFrame) -> bool:
    """Whether upright frames ``a`` and ``b`` face the same way (their x axes within ``ALIKE_TURN``)
    at about one card width (within ``ALIKE_WIDTH``). Sideways frames are never alike: a corner read
    sideways may be an upright index's (where the frame's turn was misjudged), and that frame faces
    the way the mirrored index's frame beside it does."""
    wa, wb = sorted((a.frame.width, b.frame.width))
    return (
        not a.sideways
        and not b.sideways
        and float(a.frame.x @ b.frame.x) >= np.cos(np.radians(ALIKE_TURN))
        and wb <= ALIKE_WIDTH * wa
    )


def _covers(f: IndexFrame, p: np.ndarray, grow: float = 1.35) -> bool:
    """Whether ``p`` lies on the card frame ``f`` implies, its size allowed to be ``grow`` times off, and
    up to ``LONG_SLACK`` before its long side starts."""
    m = f.frame.card_to_image()
    u, v = np.linalg.solve(m[:2, :2], np.asarray(p, float) - m[:2, 2])
    long, short = (u, v) if f.sideways else (v, u)
    return bool(-0.1 < short < grow and -LONG_SLACK < long < grow * CARD_ASPECT)


def _moved(f: CornerFrame, bx: float, by: float) -> CornerFrame:
    """A corner frame moved ``bx``, ``by`` card widths along its axes, its homography with it."""
    m = f.card_to_image()
    p = m @ np.array([bx, by, 1.0])
    origin = p[:2] / p[2]
    hom = None
    if f.homography is not None:
        hom = m @ np.array([[1.0, 0.0, bx], [0.0, 1.0, by], [0.0, 0.0, 1.0]])
    return CornerFrame(origin, f.x, f.y, f.width, hom)
