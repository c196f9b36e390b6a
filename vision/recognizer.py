"""Recognise cards in a frame: the entry point of the package.

>>> from vision.simcam import SimulatedCamera
>>> shot = SimulatedCamera(seed=1).frame_for(["QH", "9S"], layout="row")
>>> sorted(s.card for s in Recognizer(mode="table").recognize(shot.image))
['9S', 'QH']

Two modes:

* ``shoe`` — one card in a fixed window (``window=(x, y, w, h)`` of the frame, default the whole
  frame); at most one sighting, the most confident.
* ``table`` — every card in the frame: whole cards at any rotation and scale, and the corners of
  overlapped cards in hands and fans. A card whose two index corners both show is reported once.

Whole cards (the classic and the learned finders' quads) are read first; then the learned finder's
index frames, off the cards already read, are read through ``vision.index_frames``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from vision.across_probes import read_across
from vision.calibration import Calibration
from vision.card_side import BACK_THRESHOLD, TRACED_BACK, CardSideError, back_probability, card_side
from vision.closer_look import closer_quads
from vision.colour_backs import colour_backs
from vision.corner_refiner import refine_step
from vision.detect import Blob, CardQuad, CornerFrame, Detection, detect_cards, frame_key, min_channel
from vision.errors import FrameError
from vision.face_reader import check_faces, faces_alone
from vision.fan_gaps import squeezed
from vision.finder import FinderMaps, IndexFrame, default_finder, find_cards
from vision.first_look_check import overruled_by_first_look
from vision.frame_copies import remembered, sharing, subsampled
from vision.glyphs import RANK_CLASSES, SUIT_CLASSES, GlyphModel, default_model
from vision.hand_backs import MAYBE_TWO, backs_in_regions, completed_backs, in_a_back, split_hands
from vision.index import (
    PX,
    IndexGlyphs,
    Reading,
    at_the_edge,
    corner_box,
    cut_patch,
    letter_column,
    segment_index,
)
from vision.index_frames import (
    COPY_MIN,
    SURE,
    UNLIKE_FAR,
    FrameStep,
    TakenIndices,
    find_frames,
    index_corner_frames,
    indexed_pips,
    letters_on_a_back,
    read_index_frames,
    two_copies_seen,
)
from vision.looks import LOOKS, look, several_looks
from vision.onnx_nets import check_bgr
from vision.outline_sides import short_side, side_lengths
from vision.patch_reader import second_opinion
from vision.quick_read import quick_read
from vision.region_cover import backs_not_over_a_face, covers_an_index, unexplained
from vision.render import CARD_ASPECT
from vision.ringed_backs import ringed_backs
from vision.sighting import BACK, JOKER, RED_SUITS, Sighting
from vision.surface_backs import surface_backs

Mode = Literal["shoe", "table"]
# the narrowest card looked for, as a share of the frame's long side
MIN_CARD_FRACTION: dict[Mode, float] = {"shoe": 0.1, "table": 0.025}
Finder = Literal["learned", "classic", "both"]
FINDERS = ("learned", "classic", "both")
# chosen by measurement (docs/vision.md): which finder each mode uses unless told
DEFAULT_FINDER: dict[str, Finder] = {"table": "both", "shoe": "classic"}
# a whole card's two index corners, cut upright, correlate at least this much where they show one card's
# two indices (session 23, training-family scenes: 62 % of such quads; the quads spanning two cards,
# whose corners read different codes, correlated at most 0.33)
ALIKE_CORNERS = 0.4
# an index read where it touches the frame's edge is never sure: the patch repeats the edge's pixels
# beyond it, which can smear a glyph cut there into another (a 6 into a 5). Unsure, it joins a sure
# reading of the same card's other corner as one card (``index_frames.group_readings``); alone it
# still counts. Session 16: one false card fewer on each 240-scene set, none lost (0.75 lost one)
EDGE_CAP = 0.85
# an index's ink redness (``Glyph.redness``) below these is bluer or greener than red: a four-colour
# deck's diamonds (blue) or clubs (green). From the first the colour prior (red ink: hearts or diamonds,
# black ink: spades or clubs) fades, and past the second the suit's shape alone decides (and the patch
# reader, which learned red, black and grey inks, is shown the corner in grey). Chosen on the
# project's renders (``tools/vision/four_colour.py --redness``, corners read with the right rank): black
# ink -0.015 to 0.005, blue diamonds -0.73 to -0.49 (98 %), green clubs -0.47 to -0.003 (median -0.41);
# a red-and-black deck reads exactly as before
OTHER_INK = (-0.2, -0.3)
# a card read through an index frame alone this surely stands though it lies squeezed between two
# neighbours of a row (``_no_card_squeezed_between``; the margins read as a 3 at 0.94-0.98 in rendered fans)
SQUEEZE_SURE = 0.99
# a rank touching its suit with no thin neck is read at the cut the glyph readers read best
# (``index.IndexGlyphs.splits``) where they read it at least this well
SPLIT_MIN = 0.5
_RANKS = RANK_CLASSES[:-1]
_SUITS = SUIT_CLASSES[:-1]


def _grey(patch: np.ndarray) -> np.ndarray:
    """A corner patch in grey (its darkest channel in all three): its ink as dark as it is."""
    return cv2.cvtColor(min_channel(patch), cv2.COLOR_GRAY2BGR)


def colour_is_informative(image: np.ndarray) -> bool:
    """Whether the frame carries colour at all (a black-and-white scan does not): red ink is findable."""
    small = subsampled(image, 8).astype(np.int16)
    red = small[..., 2] - np.maximum(small[..., 0], small[..., 1])
    return bool((red > 45).mean() > 0.0005)


def _checked_window(window: object) -> tuple[int, int, int, int]:
    """``window`` as (x, y, w, h) whole pixels, x and y at least 0, w and h at least 2, or a FrameError."""
    try:
        x, y, w, h = (int(v) for v in window)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        raise FrameError(f"window must be four whole numbers (x, y, w, h), got {window!r}") from None
    if x < 0 or y < 0 or w < 2 or h < 2:
        raise FrameError(f"window must have x, y >= 0 and w, h >= 2 pixels, got {(x, y, w, h)}")
    return x, y, w, h


class Recognizer:
    """Find and read every card in a frame. Thread-compatible, stateless between frames."""

    def __init__(
        self,
        mode: Mode = "table",
        *,
        calibration: Calibration | None = None,
        model: GlyphModel | None = None,
        window: tuple[int, int, int, int] | None = None,
        min_confidence: float = 0.35,
        min_corner_confidence: float = 0.75,
        card_width_hint: float | None = None,
        work_width: int | None = None,
        finder: Finder | None = None,
        finder_size: int = 512,
        min_index_heat: float = 0.3,
        min_index_confidence: float = 0.6,
        looks: int = 1,
    ) -> None:
        if mode not in ("shoe", "table"):
            raise ValueError(f"mode must be 'shoe' or 'table', got {mode!r}")
        if looks not in LOOKS:
            raise ValueError(
                f"looks must be 1 (one read), 3 or 4 (a still photo read up to three or four ways), "
                f"got {looks!r}"
            )
        if window is not None:
            window = _checked_window(window)
        finder = finder or DEFAULT_FINDER[mode]
        if finder not in FINDERS:
            raise ValueError(f"finder must be one of {', '.join(FINDERS)}, got {finder!r}")
        self.finder: Finder = finder
        self.finder_size = finder_size
        self.min_index_heat = min_index_heat  # the learned finder's index map, to read a corner at all
        # a card read only through the learned finder's corner frames (no outline traced to back it)
        self.min_index_confidence = min_index_confidence
        self.coarse_pass = True  # a second, half-size pass of the learned finder for big cards
        # and a pass at twice the size for small cards (vision.index_frames.small_card_frames)
        self.small_pass = True
        # and again at twice that while the cards it sees are still small (a phone photo of a table)
        self.deeper_small_pass = True
        # those passes only round what the cards read surely leave unexplained, where that is a small
        # part of the frame (vision.index_frames.small_card_frames)
        self.small_pass_windows = True
        # a second look at twice the finder's resolution where the first left doubt: round indices
        # seen but not read, and on card surface no card read covers (vision.closer_look)
        self.closer_look = True
        # between two read indices side by side (a fan, a tight hand), an index the finder merged
        # with a neighbour's (vision.index_frames.between_frames)
        self.between_probe = True
        # and the indices of a fan's row missing between or beyond those read (vision.fan_rows)
        self.row_walk = True
        # and every index along the arc of a fan whose indices read surely (vision.fan_arcs)
        self.arc_probe = True
        # and the cards between two indices of a row with none other to step by, where the index map
        # showed them as one ridge: a tight fan of five (vision.fan_gaps)
        self.gap_probe = True
        # a card read through an index frame between two neighbours of a row with no room between
        # them is a frame half a step off, on a card's margin: dropped (vision.fan_gaps.squeezed)
        self.squeeze_check = True
        # a corner the finder took for a four-index deck's mirrored one, read sideways, read upright
        # too (vision.index_frames.upright_twins)
        self.upright_twins = True
        # backs that differ in colour from the table where no finder outlined them
        # (vision.colour_backs: about 6-8 ms of a 1920×1080 frame)
        self.colour_search = True
        # and backs on card surface of the learned finder's interior map that nothing read explains
        # (vision.surface_backs: a back cut by the frame's edge or partly covered)
        self.surface_search = True
        # and backs whose edges the learned finder's boundary map rings, where neither its interior
        # map nor their colour holds them (vision.ringed_backs: a pale back on a pale table)
        self.ring_search = True
        # the face reader (vision.face_reader): each face card's pips checked against its index, and a
        # whole card whose index does not read reported from its pips when they are sure
        self.face_check = True
        # work on the index frames between finding and reading them (vision.index_frames.FrameStep):
        # the corner-refinement network sets each regressed corner at full resolution
        self.frame_steps: tuple[FrameStep, ...] = (refine_step,)
        # a frame of touching cards the learned finder's first look explains whole is read from its
        # index frames alone, without the full read's second looks and probes (vision.quick_read)
        self.quick = True
        # the index of a card lying on another, one card width across the short edge from its far
        # corner traced on a merged region (vision.across_probes: a hand with a card laid across it)
        self.across_probe = True
        # a card read through a frame the finder's refined first look at its index contradicts, in
        # geometry and in what it reads, read through that first look's frame (vision.first_look_check)
        self.first_look_check = True
        # where an index frame does not read, the corners tried next (card widths along its axes);
        # none once the frames are refined (measured on training-family scenes: fewer false cards)
        self.corner_search: tuple[tuple[float, float], ...] = ()
        self.prefer = "classic"  # whose outline stands where both finders found a card (measured)
        self.mode: Mode = mode
        # a still photo read up to three or four times (as it is, moved two pixels, turned upside down
        # and a quarter): the cards two agree on (vision.looks); one read for a camera's frames
        self.looks = looks
        self.calibration = calibration
        self.model = model or default_model()
        self.window = window
        self.min_confidence = min_confidence
        # a lone corner of an overlapped card has no card outline to back it: ask for more
        self.min_corner_confidence = min_corner_confidence
        self.card_width_hint = card_width_hint
        self.work_width = work_width or (320 if mode == "shoe" else 640)

    # -- reading one corner -------------------------------------------------------------------------
    def read_corner(
        self, image: np.ndarray, frame: CornerFrame, *, sideways: bool = False, colour: bool = True
    ) -> Reading | None:
        return self._read(image, frame, sideways, colour)[0]

    def _read(
        self, image: np.ndarray, frame: CornerFrame, sideways: bool, colour: bool, whole: bool = True
    ) -> tuple[Reading | None, bool]:
        """The reading of one corner, and whether any index-like ink was there at all. Without
        ``whole`` a corner whose glyphs could not be cut is not read whole by the patch reader. Within
        one frame's recognition a corner is read once, however many steps ask (the quick read and
        the full read after it)."""
        key = ("read", id(self), frame_key(frame), sideways, colour, whole)
        return remembered(image, key, lambda: self._read_afresh(image, frame, sideways, colour, whole))

    def _read_afresh(
        self, image: np.ndarray, frame: CornerFrame, sideways: bool, colour: bool, whole: bool
    ) -> tuple[Reading | None, bool]:
        patch, m = cut_patch(image, frame, sideways)
        glyphs = segment_index(patch, from_right=sideways)
        if not whole and (glyphs is None or glyphs.suit is None):
            return None, glyphs is not None
        r, ink = self._read_cut(frame, patch, m, glyphs, sideways, colour)
        if r is not None and r.confidence > EDGE_CAP and at_the_edge(r.index_corner, image.shape):
            r = Reading(r.card, EDGE_CAP, r.reject, r.index_corner)
        return r, ink

    def _read_cut(
        self,
        frame: CornerFrame,
        patch: np.ndarray,
        m: np.ndarray,
        glyphs: IndexGlyphs | None,
        sideways: bool,
        colour: bool,
    ) -> tuple[Reading | None, bool]:
        """``_read`` of a corner already cut (``patch``, its patch→image matrix ``m``) and segmented."""
        if glyphs is None or glyphs.suit is None:
            # no rank over suit cut apart (a tiny or blurred index): the patch reader reads it whole
            whole = second_opinion(patch, m, sideways, None)
            if whole or glyphs is None or not glyphs.splits:
                return (Reading(*whole), True) if whole else (None, glyphs is not None)
            # where it does not, the glyph readers read the rank and suit at the cut they read best
            glyphs = self._best_split(glyphs)
            if glyphs.suit is None:
                return None, True
        options = (glyphs.rank,) + glyphs.rank_alternatives
        prs = self.model.rank.probabilities(np.stack([g.features for g in options]))
        best = int(prs[:, -1].argmin())  # the rank reading that looks most like a glyph
        rank_glyph, pr = options[best], prs[best]
        ps = self.model.suit.probabilities(glyphs.suit.features[None])[0]
        if self.calibration is not None:
            pr, ps = self.calibration.adjust(rank_glyph.features, glyphs.suit.features, pr, ps)
        reject = float(max(pr[-1], ps[-1]))
        pr_c = pr[:-1] / max(pr[:-1].sum(), 1e-9)
        ps_c = ps[:-1].copy()
        other = 0.0
        if colour:
            red = 0.5 * (glyphs.suit.redness + rank_glyph.redness)
            is_red = 1.0 / (1.0 + np.exp(-(red - 0.18) * 25.0))
            prior = np.array([1 - is_red if s not in RED_SUITS else is_red for s in _SUITS])
            other = min(1.0, max(0.0, (OTHER_INK[0] - red) / (OTHER_INK[0] - OTHER_INK[1])))
            ps_c *= (1.0 - other) * prior + other + 1e-3
        ps_c = ps_c / max(ps_c.sum(), 1e-9)
        r, s = int(pr_c.argmax()), int(ps_c.argmax())
        conf = float(pr_c[r] * ps_c[s] * (1.0 - reject))
        if _RANKS[r] == "J" and letter_column(patch[:, ::-1] if sideways else patch) >= 4:
            # "JOKER" spelt down the corner: its J over its O is no jack of diamonds
            return Reading(JOKER, max(conf, 0.8), 0.0, corner_box(frame)), True
        x0 = min(rank_glyph.box[0], glyphs.suit.box[0])
        y0 = rank_glyph.box[1]
        x1 = max(rank_glyph.box[0] + rank_glyph.box[2], glyphs.suit.box[0] + glyphs.suit.box[2])
        y1 = glyphs.suit.box[1] + glyphs.suit.box[3]
        if sideways:
            x0, x1 = patch.shape[1] - x1, patch.shape[1] - x0
        box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64).reshape(-1, 1, 2)
        pts = cv2.perspectiveTransform(box, m).reshape(-1, 2)
        unsure = (_RANKS[r] + _SUITS[s], conf)
        if other >= 0.5:  # blue or green ink: the patch reader learned red and black (and grey) ones
            patch = _grey(patch)
        if whole := second_opinion(patch, m, sideways, unsure):
            return Reading(*whole), True
        return Reading(_RANKS[r] + _SUITS[s], conf, reject, tuple((float(x), float(y)) for x, y in pts)), True

    def _best_split(self, glyphs: IndexGlyphs) -> IndexGlyphs:
        """``glyphs`` with the rank and suit of the cut of its merged rank-over-suit (``splits``) that
        the glyph readers read best, where they read it at least ``SPLIT_MIN``; else ``glyphs`` as they
        were."""
        pr = self.model.rank.probabilities(np.stack([r.features for r, _ in glyphs.splits]))
        ps = self.model.suit.probabilities(np.stack([s.features for _, s in glyphs.splits]))
        score = pr[:, :-1].max(axis=1) * ps[:, :-1].max(axis=1) * (1.0 - np.maximum(pr[:, -1], ps[:, -1]))
        best = int(score.argmax())
        if score[best] < SPLIT_MIN:
            return glyphs
        rank, suit = glyphs.splits[best]
        return IndexGlyphs(rank, suit, glyphs.ink_contrast)

    # -- whole cards --------------------------------------------------------------------------------
    def _read_quad(self, image: np.ndarray, quad: CardQuad, colour: bool) -> Sighting | None:
        readings: list[Reading] = []
        index = _IndexCorners(image, quad)  # each cut and segmented once, however often looked at
        # read surely at one index corner, the other not alike: maybe a quad traced round two cards
        unlike = False
        for k in (0, 2):
            r = self._read_cut(*index.corner(k), False, colour)[0]
            if r is not None:
                readings.append(r)
                if r.confidence >= 0.9:  # one sure corner is enough, unless the other shows another card
                    if k == 0 and (other := self._another_card(index, r, colour)):
                        readings.append(other)
                    unlike = not index.alike(0, 2)
                    break
        good = [r for r in readings if r.confidence >= self.min_confidence]
        if not good and self._is_back(image, quad, index, readings):
            # before the other corners are tried: a back's corners hold no index, only lattice
            return Sighting(BACK, 0.8, _outline(quad), None, evidence=(TRACED_BACK,))
        if not good:
            # a four-index deck's mirrored corners, read only where glyphs segment: read whole, they
            # gave no reading in 115 on 120 training-family scenes
            side = [
                r for k in (1, 3) if (r := self._read(image, quad.frame(k), True, colour, whole=False)[0])
            ]
            good = [r for r in side if r.confidence >= self.min_confidence]
            readings += good  # the evidence of a card read there
        if not good:
            # seen at a slant, a card's long side can look the shorter one: the outline then starts
            # at a long side and the index sits at corners 1 and 3, upright once the quad is turned
            turned = CardQuad(np.roll(quad.corners, -1, axis=0))
            upright = [r for k in (0, 2) if (r := self.read_corner(image, turned.frame(k), colour=colour))]
            # a second guess: sure, and not contradicted by the other corner (a region spanning two
            # cards, turned, shows one card's index at one end and the other card's at the other)
            sure = [r for r in upright if r.confidence >= self.min_confidence]
            if (
                sure
                and len({r.card for r in sure}) == 1
                and max(r.confidence for r in sure) >= self.min_corner_confidence
            ):
                good, quad, readings = sure, turned, upright
                unlike = not _IndexCorners(image, turned).alike(0, 2)
        outline = _outline(quad)
        if good:
            best = max(good, key=lambda r: r.confidence)
            agree = [r for r in good if r.card == best.card]
            conf = 1.0 - float(np.prod([1.0 - r.confidence for r in agree]))
            if len(agree) < len(good):
                conf *= 0.7
            return Sighting(
                best.card,
                min(1.0, conf),
                outline,
                best.index_corner,
                evidence=tuple(f"{r.card}:{r.confidence:.2f}" for r in readings)
                + ((UNLIKE_FAR,) if unlike else ()),
            )
        if self.mode == "table" and self.face_check and (face := faces_alone(image, [quad.corners])[0]):
            return face  # no index to read, but pips to count
        if any(r.reject < 0.5 and r.confidence > 0.2 for r in readings):
            return None  # an index is there, only not sure enough: neither a back nor a joker
        if index.joker(0) or index.joker(2):
            return Sighting(JOKER, 0.85, outline, None, evidence=("JOKER spelt down the index",))
        return None

    def _another_card(self, index: _IndexCorners, first: Reading, colour: bool) -> Reading | None:
        """The reading of a quad's second index corner where it shows another card than ``first``,
        read at its first: a region spanning two cards (a pile) shows one card's index at one end and
        another's at the other. Read only where the two corners do not look alike."""
        if index.alike(0, 2):
            return None
        other = self._read_cut(*index.corner(2), False, colour)[0]
        if other is None or other.card == first.card or other.confidence < self.min_confidence:
            return None
        return other

    def _is_back(
        self, image: np.ndarray, quad: CardQuad, index: _IndexCorners, readings: list[Reading]
    ) -> bool:
        """No index at the index corners, no rank glyph, and the card-side network sees a back. (Asked
        before a joker: a back's lattice at a corner can look like a column of letters.)"""
        if any(r.reject < 0.5 and r.confidence > 0.2 for r in readings):
            return False  # an index is there, only not sure enough
        return looks_like_back(image, quad) and not self._rank_glyph_seen(index)

    def _rank_glyph_seen(self, index: _IndexCorners) -> bool:
        """Whether either index corner holds a glyph the rank network takes for a rank (not a back)."""
        for k in (0, 2):
            glyphs = index.corner(k)[3]
            if glyphs is None:
                continue
            options = (glyphs.rank,) + glyphs.rank_alternatives
            pr = self.model.rank.probabilities(np.stack([g.features for g in options]))
            if float(pr[:, -1].min()) < 0.2:
                return True
        return False

    # -- overlapped cards ---------------------------------------------------------------------------
    def _read_corners(
        self,
        image: np.ndarray,
        frames: tuple[CornerFrame, ...],
        colour: bool,
        taken: Callable[[CornerFrame, bool], bool] = lambda f, sideways: False,
    ) -> list[Sighting]:
        """Cards read at the corners ``frames`` (upright and sideways, each again from a little
        further out where nothing reads), but not where ``taken`` says an index read already lies.

        Only corners whose glyphs segment are read: a merged region's corners are mostly no index
        corners at all (a hand's region has a few corners a card), and the patch reader, asked about
        every one whose glyphs did not segment, read something at 31 of 12,148 on 120 training-family
        scenes (about 100 forward passes a scene); without it the 240-scene sets read as well
        (BENCHMARKS.md, session 13)."""
        found: list[tuple[Reading, CornerFrame]] = []
        for f0 in frames:
            sides = [sideways for sideways in (False, True) if not taken(f0, sideways)]
            # a corner traced on a rounded or shadowed edge may sit a little inside the card, cutting
            # the index at the patch border: if nothing reads, look again from slightly further out
            for f in (f0, _shifted(f0, -0.03)) if sides else ():
                seen = inked = False
                for sideways in sides:
                    r, ink = self._read(image, f, sideways, colour, whole=False)
                    inked = inked or ink
                    if r and r.confidence >= self.min_confidence:
                        found.append((r, f))
                        seen = True
                    seen = seen or (r is not None and r.reject < 0.5 and r.confidence > 0.2)
                if not seen and inked and letters_on_a_back(image, f):
                    found.append((Reading(JOKER, 0.8, 0.0, corner_box(f)), f))
                    seen = True
                if seen or not inked:  # bare paper there: no index to look for further out
                    break
        out: list[Sighting] = []
        by_card: dict[str, list[tuple[Reading, CornerFrame]]] = {}
        for r, f in found:
            by_card.setdefault(r.card, []).append((r, f))
        for card, items in by_card.items():
            # both index corners of one card: same code, within a card diagonal of each other
            groups: list[list[tuple[Reading, CornerFrame]]] = []
            for it in sorted(items, key=lambda t: -t[0].confidence):
                diag = it[1].width * float(np.hypot(1.0, CARD_ASPECT)) * 1.1
                for g in groups:
                    if np.linalg.norm(g[0][1].origin - it[1].origin) <= diag:
                        g.append(it)
                        break
                else:
                    groups.append([it])
            for g in groups:
                r, f = g[0]
                outline = tuple((float(x), float(y)) for x, y in IndexFrame(f, False, 0.0).outline())
                conf = 1.0 - float(np.prod([1.0 - x[0].confidence for x in g]))
                if conf < self.min_corner_confidence:
                    continue
                out.append(
                    Sighting(
                        card,
                        min(1.0, conf),
                        outline,
                        r.index_corner,
                        evidence=("corner",) + tuple(f"{x[0].card}:{x[0].confidence:.2f}" for x in g),
                    )
                )
        return out

    def _whole_frame_card(self, image: np.ndarray, colour: bool) -> Sighting | None:
        """A scan or a tight crop: the frame itself is the card when its shape is a card's."""
        h, w = image.shape[:2]
        if h >= 1.85 * w:  # a tall strip: an index crop (rank over suit)
            r = read_index_crop(self, image)
            if r is None or r.confidence < self.min_confidence:
                return None
            box = ((0.0, 0.0), (w - 1.0, 0.0), (w - 1.0, h - 1.0), (0.0, h - 1.0))
            return Sighting(r.card, r.confidence, box, None, evidence=("index crop",))
        if not 1.15 < max(h, w) / min(h, w) < 1.85:
            return None
        pts = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], float)
        if w > h:
            pts = np.roll(pts, -1, axis=0)
        s = self._read_quad(image, CardQuad(pts), colour)
        return s if s is not None and s.card != BACK else None

    # -- frame --------------------------------------------------------------------------------------
    def table_backs(
        self, view: np.ndarray, sightings: list[Sighting], blobs: tuple[Blob, ...], maps: FinderMaps | None
    ) -> list[Sighting]:
        """A table's ``sightings`` with the backs among them checked and those no finder outlined
        added: backs that are a face's part or frame dropped, parts grown whole, backs in the merged
        regions ``blobs`` (a hole card), backs that differ from the table in colour or lie on card
        surface of the learned finder's ``maps`` that nothing read explains."""
        found = _no_joker_on_a_back(view, sightings)
        sightings = _no_back_on_a_face(found)
        if maps is not None:  # backs outlined too small, dropped as picture frames: grown whole
            parts = [s for s in found if s.card == BACK and s not in sightings]
            grown = completed_backs(view, parts, sightings, maps)
            sightings += [b for b in grown if not covers_an_index(b, sightings)]
        # a back built from a region's outer corners is a whole card, never a court card's inner frame
        held = backs_in_regions(view, blobs, sightings, maybe_two=MAYBE_TWO)
        # (one under a face holds that face's index: ``backs_in_regions`` asked more of it)
        held = backs_not_over_a_face(held, sightings)
        sightings = split_hands(sightings, held) + held
        if self.colour_search:
            sightings += backs_not_over_a_face(colour_backs(view, sightings), sightings)
        if self.surface_search and maps is not None:
            min_width = MIN_CARD_FRACTION[self.mode] * max(view.shape[:2])
            sightings += surface_backs(view, maps, sightings, min_width)
        if self.ring_search and maps is not None:
            sightings += ringed_backs(view, maps, sightings)
        # a joker read from letters on a quad spanning an up card and its hole card is checked again
        # against the backs the searches above found
        if any(s.card == JOKER for s in sightings):
            sightings = _no_joker_on_a_back(view, sightings)
        return sightings

    def _one_each(self, view: np.ndarray, sightings: list[Sighting]) -> list[Sighting]:
        """A table's ``sightings`` with one sighting per back, per card and per index read, and none
        squeezed between two neighbours of a row (the last step of a table's read, quick or full)."""
        sightings = _one_sighting_per_card(_one_sighting_per_back(sightings, view.shape))
        sightings = _one_reading_per_index(sightings)
        return _no_card_squeezed_between(sightings) if self.squeeze_check else sightings

    def _detect(self, view: np.ndarray) -> Detection:
        return self._find(view)[0]

    def _find(self, view: np.ndarray) -> tuple[Detection, FinderMaps | None]:
        """Card quads and corner candidates from the chosen finder (or both, merged), and the
        learned finder's maps (whose index frames are found once the quads are read)."""
        min_fraction = MIN_CARD_FRACTION[self.mode]
        dets = []
        maps: FinderMaps | None = None
        if self.finder in ("classic", "both"):
            dets.append(
                detect_cards(
                    view,
                    work_width=self.work_width,
                    card_width_hint=self.card_width_hint,
                    min_card_fraction=min_fraction,
                    fine_corners=self.mode == "table",
                )
            )
        if self.finder in ("learned", "both"):
            maps = default_finder().run(view, self.finder_size)
            known = dets[0].quads if dets else ()  # with both, only where the thresholds found none
            dets.insert(0, find_cards(view, min_card_fraction=min_fraction, maps=maps, known=known))
        if len(dets) == 1:
            return dets[0], maps
        first, second = (dets[1], dets[0]) if self.prefer == "classic" else (dets[0], dets[1])
        extra = [  # where both found a card, the preferred finder's outline stands
            q for q in second.quads if not any(_inside(o, q.corners.mean(axis=0)) for o in first.quads)
        ]
        return Detection(first.quads, first.blobs + second.blobs, first.scale, tuple(extra)), maps

    def recognize(self, image: np.ndarray) -> list[Sighting]:
        """Every card sighting in ``image`` (BGR); in shoe mode at most one. A frame that is not an
        H×W×3 uint8 array of at least 2×2 pixels, or that the window lies outside, is a ``FrameError``."""
        return self._in_window(image, lambda view: several_looks(self._read_view, view, self.looks))

    def read_look(self, image: np.ndarray, k: int) -> list[Sighting]:
        """The sightings of one read of ``image`` through look ``k`` of :func:`vision.looks.look` (0 as
        it is, 1 moved two pixels, 2 turned upside down, 3 a quarter turned), placed back on ``image``:
        the reads a live camera's still table is read through (:class:`vision.live.LiveRecognizer`).
        Bad frames as for :meth:`recognize`."""
        return self._in_window(image, lambda view: look(self._read_view, view, k))

    def _in_window(self, image: np.ndarray, read: Callable[[np.ndarray], list[Sighting]]) -> list[Sighting]:
        """``read`` of the recogniser's window of ``image`` (all of it without one), in ``image``'s
        pixels."""
        check_bgr(image, "recognize", FrameError)
        if self.window is None:
            return read(image)
        x, y, w, h = self.window
        view = image[y : y + h, x : x + w]
        if min(view.shape[:2]) < 2:
            fh, fw = image.shape[:2]
            raise FrameError(
                f"the window {self.window} (x, y, w, h) lies outside the {fw}×{fh} frame: "
                "expected at least 2×2 of its pixels inside it"
            )
        return [s.shifted(x, y) for s in read(view)] if x or y else read(view)

    def _read_view(self, view: np.ndarray) -> list[Sighting]:
        with sharing(view):  # the finders' downscaled copies of the frame are made once
            return self._recognize_view(view)

    def _recognize_view(self, view: np.ndarray) -> list[Sighting]:
        colour = colour_is_informative(view)
        det, maps = self._find(view)
        if self.quick and self.mode == "table" and maps is not None:
            quick = quick_read(self, view, det, maps, colour)
            if quick is not None:
                return self._one_each(view, quick)
        quads = det.quads
        if self.mode == "shoe" and quads:
            quads = (max(quads, key=lambda q: q.width * q.height),)
        sightings = [s for q in quads if (s := self._read_quad(view, q, colour))]
        read_tentative = []
        for q in det.tentative if self.mode == "table" else ():
            if s := self._read_quad(view, q, colour):
                sightings.append(s)
                read_tentative.append(q)
        if maps is not None and self.mode == "table":
            sightings = indexed_pips(self, view, maps, sightings, colour)
        frames = find_frames(self, view, maps, sightings, colour) if maps is not None else []
        for s in read_index_frames(self, view, frames, colour, sightings, maps):
            sightings.append(s)
        if maps is not None and self.mode == "table" and self.closer_look:
            for q in closer_quads(view, maps, sightings, self.finder_size, MIN_CARD_FRACTION[self.mode]):
                s = self._read_quad(view, q, colour)
                if s is not None and not any(_same_card_again(o, s) for o in sightings):
                    sightings.append(s)
                    read_tentative.append(q)
        if self.mode == "table" or not sightings:
            whole = [np.array(q.corners, np.float32).reshape(-1, 1, 2) for q in (*quads, *read_tentative)]
            read_whole = list(sightings)
            taken = TakenIndices.of(sightings)
            blobs = unexplained(det.blobs, sightings)
            for blob in blobs:
                for s in self._read_corners(view, blob.corners, colour, taken.holds):
                    # a corner on (or next to) a card already read whole is that card again
                    c = np.mean(np.array(s.index_corner or s.outline), axis=0)
                    if any(cv2.pointPolygonTest(q, (float(c[0]), float(c[1])), False) >= 0 for q in whole):
                        continue
                    if any(
                        o.card == s.card and np.linalg.norm(np.array(o.centre) - c) < 0.9 * _diagonal(o)
                        for o in read_whole
                    ):
                        continue
                    if any(  # the same card's corner found again from a neighbouring region
                        o.card == s.card
                        and np.linalg.norm(np.array(o.centre) - np.array(s.centre)) < 0.5 * _diagonal(o)
                        for o in sightings
                    ):
                        continue
                    # one index, one reading: where an index frame read this index, the surer stands
                    rivals = [o for o in sightings if _same_index(o, s)]
                    if any(o.confidence >= s.confidence for o in rivals):
                        continue
                    sightings = [o for o in sightings if o not in rivals]
                    sightings.append(s)
        if self.mode == "table" and self.across_probe:
            sightings += read_across(self, view, det.blobs, sightings, colour)
        if self.mode == "table":
            sightings = self.table_backs(view, sightings, blobs, maps)
            # after the backs: a misreading that goes leaves no bare card surface for one to be guessed on
            if self.first_look_check and maps is not None:
                sightings = overruled_by_first_look(self, view, maps, sightings, colour, _same_index)
            if self.face_check:
                sightings = check_faces(view, sightings)
            sightings = self._one_each(view, sightings)
        if self.mode == "shoe" and all(s.card == BACK for s in sightings):
            # a scan or tight crop has no card edge to find: what was found may be a court card's
            # inner frame (which looks like a back); the frame itself may be the card
            frame_card = self._whole_frame_card(view, colour)
            if frame_card is not None:
                sightings = [frame_card]
        if self.mode == "shoe" and sightings:
            sightings = [max(sightings, key=lambda s: s.confidence)]
        return sightings


class _IndexCorners:
    """The two index corners (0 and 2) of a whole card, each cut upright and segmented on first use."""

    def __init__(self, image: np.ndarray, quad: CardQuad) -> None:
        self.image, self.quad = image, quad
        self._cut: dict[int, tuple[CornerFrame, np.ndarray, np.ndarray]] = {}
        self._glyphs: dict[int, IndexGlyphs | None] = {}
        self._alike: dict[tuple[int, int], bool] = {}

    def corner(self, k: int) -> tuple[CornerFrame, np.ndarray, np.ndarray, IndexGlyphs | None]:
        """Corner ``k``'s frame, upright patch, patch→image matrix and glyphs."""
        frame, patch, m = self._patch(k)
        if k not in self._glyphs:
            self._glyphs[k] = segment_index(patch)
        return frame, patch, m, self._glyphs[k]

    def _patch(self, k: int) -> tuple[CornerFrame, np.ndarray, np.ndarray]:
        """Corner ``k``'s frame, upright patch and patch→image matrix, cut once (segmented only when
        ``corner`` asks)."""
        if k not in self._cut:
            frame = self.quad.frame(k)
            self._cut[k] = (frame, *cut_patch(self.image, frame))
        return self._cut[k]

    def alike(self, a: int, b: int) -> bool:
        """Whether corners ``a`` and ``b``, cut upright, look alike (grey levels correlated by at least
        ``ALIKE_CORNERS``): one card's two indices, not two cards' (cheaper than reading both). Worked
        out once per pair, however often asked."""
        if (a, b) not in self._alike:
            pa, pb = (
                cv2.cvtColor(self._patch(k)[1], cv2.COLOR_BGR2GRAY).astype(np.float32).ravel() for k in (a, b)
            )
            pa, pb = pa - pa.mean(), pb - pb.mean()
            norm = float(np.linalg.norm(pa) * np.linalg.norm(pb))
            self._alike[(a, b)] = norm > 0 and float(pa @ pb) >= ALIKE_CORNERS * norm
        return self._alike[(a, b)]

    def joker(self, k: int) -> bool:
        """``is_joker_corner`` of corner ``k``."""
        return letter_column(self.corner(k)[1]) >= 4


def looks_like_back(image: np.ndarray, quad: CardQuad) -> bool:
    """A back: the card-side network (``vision.card_side``, trained only on the project's renders)
    takes the quad for a face-down card rather than a face or no card.

    It sees a margin round the quad, so a quad inset into the pattern, slid onto the table, cut by
    the frame edge or partly covered still shows what the card is, and a plain or borderless back
    needs no white border to measure ink against.
    """
    try:
        return back_probability(image, quad) > BACK_THRESHOLD
    except CardSideError:  # a degenerate quad (no area) shows no card at all
        return False


def _no_joker_on_a_back(image: np.ndarray, sightings: list[Sighting]) -> list[Sighting]:
    """Jokers without those read on a back or on no card: a back's lattice seen at a corner can look
    like a column of letters ("JOKER" spelt down the index). Such a reading is dropped when its middle
    and index lie inside a back that was seen and its own outline (often only a guess from the index)
    does not show a face; where no back was seen there and the card-side network takes the card the
    reading implies for a back, it is that back. A joker read less than surely where the network sees
    no card at all, and no other card lies over half its outline (the cards of a fan hide a joker
    from the network), is letters on the table or on paper (a felt's printed text, a receipt): dropped.
    So is one read surely where the network takes its outline for neither a face nor a back
    (``NO_CARD``) and nothing lies over it: a receipt's ruled lines."""
    backs = [np.array(s.outline, np.float32).reshape(-1, 1, 2) for s in sightings if s.card == BACK]

    def inside_a_back(s: Sighting) -> bool:
        pts = [np.mean(np.array(s.outline), axis=0)]
        if s.index_corner:
            pts.append(np.mean(np.array(s.index_corner), axis=0))
        return any(
            all(cv2.pointPolygonTest(b, (float(p[0]), float(p[1])), False) >= 0 for p in pts) for b in backs
        )

    out = []
    for s in sightings:
        if s.card != JOKER:
            out.append(s)
            continue
        try:
            side = card_side(image, CardQuad(np.array(s.outline, np.float32)))
        except CardSideError:  # a degenerate outline: nothing to tell
            out.append(s)
            continue
        is_back = side.back > BACK_THRESHOLD
        if inside_a_back(s) and (is_back or side.face < 0.5):
            continue  # the back was seen: this is its lattice again
        unsure_none = s.confidence < SURE and side.side == "none"
        bare = max(side.face, side.back) < NO_CARD
        covered = _covered(s, sightings) if unsure_none or bare else 0.0  # (asked only where needed)
        if unsure_none and covered < ALONE:
            continue  # no card there, and none lies over it to hide it from the network
        if bare and covered < BARE and covered + _off_frame(s, image.shape) < BARE:
            # even a sure reading: ruled lines on bare paper, neither face nor back, nothing over it and
            # no frame's edge cutting it (where the network sees a quad mostly off the frame, repeated)
            continue
        if is_back:
            out.append(Sighting(BACK, 0.8, s.outline, None, evidence=(LETTERS_BACK,)))
            backs.append(np.array(s.outline, np.float32).reshape(-1, 1, 2))  # its other corners: this back
        else:
            out.append(s)
    return out


def _covered(s: Sighting, sightings: list[Sighting]) -> float:
    """How much of ``s``'s outline the other ``sightings`` lie over, summed (a share of its area)."""
    mine = np.array(s.outline, np.float32)
    area = _area(s.outline)
    total = 0.0
    for o in sightings:
        if o is s:
            continue
        try:
            total += float(
                cv2.intersectConvexConvex(mine, cv2.convexHull(np.array(o.outline, np.float32)))[0]
            )
        except cv2.error:  # a degenerate outline covers nothing
            continue
    return total / area if area > 0 else 0.0


def _off_frame(s: Sighting, shape: tuple[int, ...]) -> float:
    """The share of ``s``'s outline that lies beyond the edges of a frame of ``shape``."""
    area = _area(s.outline)
    if area <= 0:
        return 0.0
    inside = _in_frame(np.array(s.outline, np.float32), shape).astype(np.float32)
    return max(0.0, 1.0 - abs(float(cv2.contourArea(inside))) / area)


def _outline(quad: CardQuad) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in quad.corners)


def _one_sighting_per_back(sightings: list[Sighting], shape: tuple[int, ...] | None = None) -> list[Sighting]:
    """One back, one sighting: a back lying almost wholly on another (``WITHIN`` of the smaller, by
    ``hand_backs.in_a_back``) is one back found twice (its inner border, a corner's letters read as
    a joker's and turned into a back). A back traced whole stands before one guessed from corners,
    the bigger before the smaller. (The two backs of a hand dealt face down overlap far less, but
    the outlines guessed for them can overlap more than half.) A back guessed from one corner's
    letters is that back already where it overlaps one by ``LETTERS_WITHIN`` of the smaller: its
    outline is a guess from that corner alone. With the frame's ``shape``, only the
    parts of the outlines inside the frame count: beyond its edge an outline is a guess."""
    backs = sorted(
        (s for s in sightings if s.card == BACK),
        key=lambda s: (not (s.evidence and s.evidence[0] == TRACED_BACK), -_area(s.outline)),
    )
    kept: list[np.ndarray] = []
    kept_letters: list[np.ndarray] = []  # those of them guessed from a corner's letters
    dropped: set[int] = set()
    for b in backs:
        outline = _in_frame(np.array(b.outline, np.float32), shape).reshape(-1, 1, 2)
        letters = b.evidence[:1] == (LETTERS_BACK,)
        # a letters back is held to the lower share against every back kept, any other back against
        # the letters backs kept
        if in_a_back(outline, kept, LETTERS_WITHIN if letters else WITHIN) or (
            not letters and in_a_back(outline, kept_letters, LETTERS_WITHIN)
        ):
            dropped.add(id(b))
        else:
            kept.append(outline)
            if letters:
                kept_letters.append(outline)
    return [s for s in sightings if id(s) not in dropped]


def _in_frame(outline: np.ndarray, shape: tuple[int, ...] | None) -> np.ndarray:
    """The part of the convex ``outline`` (N × 2) inside a frame of ``shape`` (all of it without one, or
    where nothing of it is inside: that is for the caller's own tests to judge)."""
    if shape is None:
        return outline
    h, w = shape[:2]
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    try:
        area, part = cv2.intersectConvexConvex(outline.astype(np.float32), frame)
    except cv2.error:  # a degenerate outline
        return outline
    return part.reshape(-1, 2) if part is not None and area > 0 else outline


# card widths between the middles of two outlines of one code: closer than this they are one card, for
# two copies whose indices both show lie at least an index's width (about 0.17 card widths) apart
ONE_OUTLINE = 0.1


def _one_sighting_per_card(sightings: list[Sighting]) -> list[Sighting]:
    """A face whose outline's middle lies on a surer sighting of the same code, or whose outline
    holds that one's middle, is that card read again through another corner (its outline implied by
    a card width the finder got wrong) — unless, as ``index_frames`` groups copies, one reads surely
    (``SURE``) and the other at least ``COPY_MIN``: two copies of a card, one partly covering the
    other (session 16: one card more on the training-family 240 scenes, no false card more). Two
    outlines of one code with the same middle (``ONE_OUTLINE``) are one card however surely both read:
    its two index corners read through one quad, one of them first as another code that its pips
    then overruled (session 54). A joker read twice is one card (``_one_joker_per_card``)."""
    dropped = _one_joker_per_card(sightings)
    faces = sorted(
        (s for s in sightings if s.index_corner and id(s) not in dropped), key=lambda s: -s.confidence
    )
    for i, a in enumerate(faces):
        for b in faces[i + 1 :]:
            if b.card != a.card or id(a) in dropped:
                continue
            if _one_outline(a, b) or (
                not (a.confidence >= SURE and b.confidence >= COPY_MIN) and _one_on_the_other(a, b)
            ):
                dropped.add(id(b))
    return [s for s in sightings if id(s) not in dropped]


def _one_outline(a: Sighting, b: Sighting) -> bool:
    """Whether the middles of the two outlines lie within ``ONE_OUTLINE`` of the narrower's width."""
    pa, pb = np.array(a.outline, np.float32), np.array(b.outline, np.float32)
    gap = float(np.linalg.norm(pa.mean(axis=0) - pb.mean(axis=0)))
    return gap < ONE_OUTLINE * min(short_side(pa), short_side(pb))


def _one_joker_per_card(sightings: list[Sighting]) -> set[int]:
    """The ids of jokers where a surer one's outline holds their middle, or their outline holds its
    middle: the same joker read twice (surely at its index, and its letters read at a corner or spelt
    down a quad's; or surely at both its index corners). Two read surely whose index corners face the
    same way are two jokers, one lying on the other (a deck has two: ``two_copies_seen``)."""
    dropped: set[int] = set()
    jokers = sorted((s for s in sightings if s.card == JOKER), key=lambda s: -s.confidence)
    for i, a in enumerate(jokers):
        for b in jokers[i + 1 :]:
            if id(a) in dropped or id(b) in dropped or (b.confidence >= SURE and two_copies_seen(a, b)):
                continue
            if _one_on_the_other(a, b):
                dropped.add(id(b))
    return dropped


def _one_on_the_other(a: Sighting, b: Sighting) -> bool:
    """Whether the middle of either outline lies strictly inside the other."""
    return _strictly_inside(a.outline, np.mean(np.array(b.outline), axis=0)) or _strictly_inside(
        b.outline, np.mean(np.array(a.outline), axis=0)
    )


def _area(pts: tuple[tuple[float, float], ...]) -> float:
    return abs(float(cv2.contourArea(np.array(pts, np.float32))))


def _no_back_on_a_face(sightings: list[Sighting]) -> list[Sighting]:
    """Backs without those round a face's index or in the middle of a face (a court card's inner
    frame taken for a back): a back has no index. A back whose middle lies on a face but which is as
    big as a card (``INNER_FRAME`` of the face or more) is a back lying on that face (a hand's top
    card face down) and stays. Backs far smaller than the faces (``PART_OF_A_CARD``) go too, and those
    smaller than a face that run onto it (``PART_IN_VIEW``): the part in view of a back the face lies
    over. The recogniser grows those lying on a face into whole cards (``completed_backs``), and the
    back searches find the others whole."""
    faces = [s for s in sightings if s.index_corner]

    face_areas = [_area(f.outline) for f in faces]

    def inner_frame(b: Sighting) -> bool:
        centre = np.mean(np.array(b.outline), axis=0)
        area = _area(b.outline)
        smaller = [f for f, fa in zip(faces, face_areas, strict=True) if area < INNER_FRAME * fa]
        return any(_strictly_inside(f.outline, centre) for f in smaller)

    # cards under one camera are about one size: a back smaller every way than half the faces' width
    # is part of a card (a back's corner left beside the card lying on it) or a print, not a card
    widths = [short_side(f.outline) for f in faces if len(f.outline) == 4]
    least = PART_OF_A_CARD * float(np.median(widths)) if widths else 0.0

    def a_part(b: Sighting) -> bool:
        return len(b.outline) == 4 and float(side_lengths(b.outline).max()) < least

    def partly_under(b: Sighting) -> bool:
        area = _area(b.outline)
        mine = np.array(b.outline, np.float32)
        for f, fa in zip(faces, face_areas, strict=True):
            if area >= PART_IN_VIEW * fa:
                continue
            try:
                hull = cv2.convexHull(np.array(f.outline, np.float32))
                inter = float(cv2.intersectConvexConvex(mine, hull)[0])
            except cv2.error:  # a degenerate outline meets nothing
                continue
            if inter >= RUNS_UNDER * area:
                return True
        return False

    return [
        s
        for s in sightings
        if s.card != BACK or not (covers_an_index(s, faces) or inner_frame(s) or a_part(s) or partly_under(s))
    ]


def _strictly_inside(pts: tuple[tuple[float, float], ...], p: np.ndarray) -> bool:
    poly = np.array(pts, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(poly, (float(p[0]), float(p[1])), False) > 0


WITHIN = 0.9  # of a back's outline lying on another's: one back found twice
# of an unsure joker's outline under other cards, below which the card-side network's "no card" there
# stands: training-family scenes, letters on the table 0.00-0.18, jokers in fans 1.2 (session 27)
ALONE = 0.5
# a joker read even surely is letters on paper (a receipt's ruled lines) where the card-side network
# takes its outline for a face and for a back each less than this and other cards lie over less than
# ``BARE`` of it. Chosen on the training-family sets (240 and 480 scenes, seeds 5000 and 5001, session
# 46): the receipts read as jokers at 0.98-1.0 gave 0.000 and 0.000, nothing over them; for every real
# joker with nothing over it the larger of the two was 0.021 or more
NO_CARD = 0.01
BARE = 0.05
# of the smaller, where one of the two is a back guessed from a corner whose lattice read as letters:
# such an outline is implied by one corner only. Session 27, training-family scenes (val240, val60):
# the three pairs of back sightings overlapping by a fifth or more were each one back read twice, and
# the two of them with a letters back overlapped by 0.67 and 0.73
LETTERS_WITHIN = 0.5
LETTERS_BACK = "JOKER letters on a back's lattice"  # a back guessed from one corner's "letters"
INNER_FRAME = 0.8  # a court card's picture frame covers well under this much of its card
PART_OF_A_CARD = 0.5  # of the faces' median width: a back no longer than this any way is no card
# a back smaller than this share of a face's area that runs onto the face by ``RUNS_UNDER`` of its own
# area is the part in view of a back the face lies over (the rest of its outline is the face's): the
# back searches outline it whole. Backs outlined whole measure 0.76-0.97 of the faces' cards
# (``hand_backs.MAYBE_TWO``); the band of a back a face covers all but its top of, 0.64, running onto the
# face by 0.27 of itself (``test_a_back_whose_lower_part_a_face_covers_is_seen``)
PART_IN_VIEW = 0.75
RUNS_UNDER = 0.1


def _shifted(f: CornerFrame, by: float) -> CornerFrame:
    """The same corner frame moved ``by`` card widths along both of its axes."""
    return CornerFrame(f.origin + by * f.width * (f.x + f.y), f.x, f.y, f.width)


def _inside(q: CardQuad, p: np.ndarray) -> bool:
    poly = q.corners.astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(poly, (float(p[0]), float(p[1])), False) >= 0


def _same_card_again(a: Sighting, b: Sighting) -> bool:
    """Whether ``b`` is card ``a`` read again: the same code, its middle or the index it was read at
    on ``a``'s outline (a quad round a hand's other cards read at a corner where ``a``'s far index lies)."""
    if a.card != b.card:
        return False
    quad = CardQuad(np.array(a.outline, np.float32))
    index = [np.mean(np.array(b.index_corner), axis=0)] if b.index_corner else []
    return any(_inside(quad, p) for p in [np.array(b.centre), *index])


TWO_SURE = 0.95  # two readings this sure at indices whose boxes do not overlap are two cards


@dataclass(frozen=True)
class _Place:
    """Where a sighting's index lies: its box's middle, the unit directions of its first and second
    sides and their lengths, its diagonal, and how sure the reading is."""

    x: float
    y: float
    u: tuple[float, float]
    v: tuple[float, float]
    width: float
    height: float
    diagonal: float
    confidence: float


def _index_place(s: Sighting) -> _Place | None:
    """Where ``s``'s index corner lies, or None for a sighting read from no index."""
    if not s.index_corner or len(s.index_corner) != 4:
        return None
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = s.index_corner
    width, height = max(math.hypot(bx - ax, by - ay), 1e-9), max(math.hypot(cx - bx, cy - by), 1e-9)
    xs, ys = (ax, bx, cx, dx), (ay, by, cy, dy)
    return _Place(
        sum(xs) / 4,
        sum(ys) / 4,
        ((bx - ax) / width, (by - ay) / width),
        ((cx - bx) / height, (cy - by) / height),
        width,
        height,
        math.hypot(max(xs) - min(xs), max(ys) - min(ys)),
        s.confidence,
    )


def _near_places(a: _Place | None, b: _Place | None) -> bool:
    """Whether two index places are one: their boxes overlap (the ink of two indices cannot), or
    their middles are closer than half a diagonal and either reading is unsure (one index read
    again through a corner a little off reads less surely; a tight fan's neighbouring indices lie
    side by side that close, each read surely)."""
    if a is None or b is None:
        return False
    dx, dy = b.x - a.x, b.y - a.y
    across = abs(dx * a.u[0] + dy * a.u[1]) < min(a.width, b.width)
    down = abs(dx * a.v[0] + dy * a.v[1]) < min(a.height, b.height)
    if across and down:
        return True
    near = math.hypot(dx, dy) < 0.5 * min(a.diagonal, b.diagonal)
    return near and min(a.confidence, b.confidence) < TWO_SURE


def _same_index(a: Sighting, b: Sighting) -> bool:
    """Whether ``b``'s index is where ``a``'s is (:func:`_near_places`)."""
    return _near_places(_index_place(a), _index_place(b))


def _one_reading_per_index(sightings: list[Sighting]) -> list[Sighting]:
    """One index is one card: where two sightings were read from the same index, the one with the
    most readings agreeing on it, then the surer, stands."""
    kept: list[_Place | None] = []
    keep: set[int] = set()
    for i in sorted(range(len(sightings)), key=lambda i: (-_support(sightings[i]), -sightings[i].confidence)):
        place = _index_place(sightings[i])
        if not any(_near_places(k, place) for k in kept):
            kept.append(place)
            keep.add(i)
    return [s for i, s in enumerate(sightings) if i in keep]


def _no_card_squeezed_between(sightings: list[Sighting]) -> list[Sighting]:
    """``sightings`` without the faces read through an index frame alone, less surely than
    ``SQUEEZE_SURE`` and than both their neighbours, whose corner lies squeezed between two
    neighbouring cards of a row (``vision.fan_gaps.squeezed``): in a fan at 9-12° a card, a frame half
    a step right of an index meets the card's blank margin, a piece of its top pip and the next card's
    index at its edge, which the patch reader reads as a 3 of that suit at 0.94-0.98."""
    faces = [s for s in sightings if s.card not in (BACK, JOKER) and s.index_corner and len(s.outline) == 4]
    doubted = [i for i, s in enumerate(faces) if s.confidence < SQUEEZE_SURE and s.evidence[:1] == ("index",)]
    if len(faces) < 4 or not doubted:
        return sightings
    frames = [index_corner_frames(s)[0] for s in faces]
    drop = set()
    for i in doubted:
        s = faces[i]
        pair = squeezed(frames, i)
        if pair is not None and all(s.confidence < faces[k].confidence for k in pair):
            drop.add(id(s))
    return [s for s in sightings if id(s) not in drop]


def _support(s: Sighting) -> int:
    """How many readings agree on sighting ``s`` (the corners of an index frame group, or one)."""
    return max(1, sum(e.startswith(f"{s.card}:") for e in s.evidence))


def _diagonal(s: Sighting) -> float:
    pts = np.array(s.outline)
    return float(np.linalg.norm(pts.max(axis=0) - pts.min(axis=0)))


def recognize(
    image: np.ndarray, mode: Mode = "table", calibration: Calibration | None = None
) -> list[Sighting]:
    """One-shot convenience: ``Recognizer(mode, calibration=…).recognize(image)``."""
    return Recognizer(mode, calibration=calibration).recognize(image)


__all__ = ["PX", "Reading", "Recognizer", "recognize", "colour_is_informative"]


def read_index_crop(recognizer: Recognizer, crop: np.ndarray) -> Reading | None:
    """Read an image that is only an index corner (rank over suit), e.g. a crop cut by another tool."""
    from vision.index import PH, PW

    h, w = crop.shape[:2]
    scale = min(0.42 * PX / h, 0.2 * PX / w)
    small = cv2.resize(crop, (max(1, int(w * scale)), max(1, int(h * scale))), interpolation=cv2.INTER_AREA)
    lo = min_channel(crop)
    paper = [int(np.percentile(crop[..., c][lo >= np.percentile(lo, 80)], 50)) for c in range(3)]
    patch = np.empty((PH, PW, 3), np.uint8)
    patch[:] = paper
    y0 = x0 = 0  # the crop's own edges (card edge, table) touch the patch border and are dropped
    patch[y0 : y0 + small.shape[0], x0 : x0 + small.shape[1]] = small[: PH - y0, : PW - x0]
    frame = CornerFrame(np.zeros(2), np.array([1.0, 0.0]), np.array([0.0, 1.0]), float(PX))
    return recognizer.read_corner(patch, frame, colour=colour_is_informative(crop))
