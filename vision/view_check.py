"""Is the camera set up well? Plain advice from one recognised frame, for the host setting it up.

A host points a webcam at the table and needs to know, without reading any numbers, whether the
cards are big enough in the frame, lit well enough and read surely. :func:`check_view` looks at the
frame and what the recogniser made of it and says what to change:

* cards too small in the frame (the reader's accuracy falls steeply below about 80 px of card width),
* faces too dark, washed out or over-exposed (the card paper's level, its contrast with the ink, and
  how much of it is clipped white), or a lamp's reflection on some of them (a patch clipped white),
* a picture out of focus (how far the cards' edges are spread against the table),
* cards read unsurely (drawn amber by :func:`vision.annotate`),
* no card seen at all.

Each piece of advice has a stable ``code`` for pages and tests, and a sentence for people.

>>> import numpy as np
>>> check_view(np.full((480, 640, 3), 40, np.uint8), []).advice[0].code
'no_cards'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.annotate import SURE  # below this a reading is drawn amber, and called unsure here
from vision.card_side import warp_quad
from vision.errors import FrameError
from vision.onnx_nets import check_bgr
from vision.sighting import BACK, JOKER, Sighting

# Card width in frame pixels. The learned finder sees a 1920-wide frame at 512 px, where a card under
# ~75 px is a few map pixels, and at the true corner the reader read 13 of 42 held-out cards 50-80 px
# wide against 23 of 31 at 80-120 px (vision/models/FINDER.md); under 50 px the benchmark does not
# even ask for a card.
GOOD_WIDTH = 80
MIN_WIDTH = 50
# The card paper's level (its brightest channels, 0-255) and its contrast with the ink, measured on
# the faces read. The patch reader was trained for under-exposed cards with paper at 35-110 and for
# washed-out ones with the ink 150-225 on clipped paper, and reads both markedly worse than a
# well-lit card (vision/models/PATCH_READER.md, v3): these are the edges of those regimes.
DARK_PAPER = 110
LOW_CONTRAST = 60
_FACE = (48, 68)  # a face warped to this size (width, height) to measure paper and ink
# A face whose paper is clipped white: most of it (``OVER_EXPOSED``) at the sensor's ceiling in every
# channel (``CLIPPED``). A well-exposed card has none of it there; a camera that meters a dark cloth
# lifts the paper past white, and a thin ink stroke with it to a pale grey the readers lose (session 24:
# the dev photos lifted ×1.5 + 20 lost 10 of 69 cards though the ink's contrast stayed high)
CLIPPED = 250
OVER_EXPOSED = 0.5
# A card with a clipped patch (a lamp reflected off its gloss) of at least a twentieth of its face, about
# an index's area, where the frame is not over-exposed or washed out as a whole. Unlike blur it gives
# no unsure reading to warn of it: on renders a reflection a sixth of a card across over the pips
# turned a 7♣ into a 6♣ and an A♠ into an A♣, each read surely
GLARE = 0.05
# The blur (Gaussian sigma) of the cards' edges, as measured here, in card widths. On the project's
# renders (tools/vision/blur_sweep.py: 12 cards 50-220 px wide over felt, light wood, white and dark
# tables, blurred by a known sigma), the measure at which a frame first read two cards fewer than
# sharp was 0.034-0.048 on felt and the dark table, 0.025-0.035 on light wood and 0.020-0.027 on white
# for cards 50-150 px wide, and 0.016-0.023 for 220-px cards; sharp frames measure 0.003-0.018. The
# line sits below most of those and above every sharp frame; where it comes late (white cloth, big
# cards) the cards read unsurely are still called out ("unsure").
BLURRY = 0.025
_EDGE_STEPS = 5  # profiles across each side of a card
_EDGE_CONTRAST = 30.0  # grey levels between card and table, at least, for an edge to be measured
_SAMPLE = 0.25  # px between the samples of a profile
_RISE = 2.563  # a Gaussian-blurred step rises from 10 % to 90 % over this many sigmas


@dataclass(frozen=True)
class Advice:
    """One thing to change: a stable ``code`` and the sentence that says it."""

    code: str
    message: str


@dataclass(frozen=True)
class ViewCheck:
    """What one frame says about the camera's set-up. ``card_width`` is the median width in pixels of
    the cards seen (None without any); ``paper``, ``contrast`` and ``clipped`` (the median share of a
    face that is clipped white) are measured on the faces read (None without any); ``blur`` is the
    median blur of the cards' edges in card widths (None where no card stands out from its table
    enough to measure it); ``advice`` is empty when nothing needs changing."""

    width: int
    height: int
    cards: int
    unsure: int
    card_width: float | None
    paper: float | None
    contrast: float | None
    advice: tuple[Advice, ...]
    blur: float | None = None
    clipped: float | None = None

    @property
    def ok(self) -> bool:
        return not self.advice

    def to_json(self) -> dict[str, object]:
        def rounded(v: float | None) -> float | None:
            return None if v is None else round(v, 1)

        return {
            "frame": [self.width, self.height],
            "cards": self.cards,
            "unsure": self.unsure,
            "card_width": rounded(self.card_width),
            "paper": rounded(self.paper),
            "contrast": rounded(self.contrast),
            "blur": None if self.blur is None else round(self.blur, 4),
            "clipped": None if self.clipped is None else round(self.clipped, 2),
            "ok": self.ok,
            "advice": [{"code": a.code, "message": a.message} for a in self.advice],
        }


def card_width(s: Sighting) -> float:
    """The shorter side of a sighting's outline, pixels (a card's width, whatever its turn)."""
    return _outline_width(np.asarray(s.outline, np.float64))


def _outline_width(o: np.ndarray) -> float:
    sides = np.linalg.norm(np.roll(o, -1, axis=0) - o, axis=1)
    if len(o) == 4:
        return float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)
    return float(sides.min())


def paper_and_ink(image: np.ndarray, s: Sighting) -> tuple[float, float]:
    """The paper's level and the ink's on a face: the darkest channel's 90th and 2nd percentiles
    over the card, warped upright (a card is mostly paper; its index and pips are the ink)."""
    return _paper_and_ink(_darkest(image, s))


def clipped_share(image: np.ndarray, s: Sighting) -> float:
    """The share of a face, warped upright, that is white at the sensor's ceiling (``CLIPPED`` or
    more in every channel)."""
    return _clipped(_darkest(image, s))


def _paper_and_ink(darkest: np.ndarray) -> tuple[float, float]:
    inner = darkest.astype(np.float64)
    return float(np.percentile(inner, 90)), float(np.percentile(inner, 2))


def _clipped(darkest: np.ndarray) -> float:
    return float((darkest >= CLIPPED).mean())


def _darkest(image: np.ndarray, s: Sighting) -> np.ndarray:
    """The darkest channel of a face warped upright, less the outline's own edge (it may be table)."""
    face = warp_quad(image, np.asarray(s.outline, np.float64), _FACE, 0.0)
    return face.min(axis=2)[2:-2, 2:-2]


def edge_blur(image: np.ndarray, outline: Sequence[tuple[float, float]]) -> float | None:
    """The blur (Gaussian sigma, pixels) of a card's edges against the table round it, or None where
    fewer than three places along its four sides stand out from the table by ``_EDGE_CONTRAST``.

    Across each side, away from the corners, the darkest channel is sampled along a line from inside
    the card out onto the table; the distance over which it falls from 90 % to 10 % of the way from
    the card's level to the table's is 2.56 sigmas for a Gaussian blur. Measured where the card meets
    the table, never on its print: a thin stroke of ink blurred wider than itself looks fainter, not
    wider, and would make a blurred index look sharp. The outline may be a few per cent off the card
    (a face's outline regressed from its index): each line runs an eighth of a card width either side.
    """
    o = np.asarray(outline, np.float64)
    if len(o) != 4:
        return None
    half = max(8.0, 0.12 * _outline_width(o))
    t = np.arange(-half, half + 1e-9, _SAMPLE)
    # only the card and the table round it, in its darkest channel
    h, w = image.shape[:2]
    x0, y0 = np.clip(np.floor(o.min(axis=0) - half - 2), 0, None).astype(int)
    x1, y1 = np.ceil(o.max(axis=0) + half + 3).astype(int)
    crop = image[y0 : min(y1, h), x0 : min(x1, w)]
    darkest = np.minimum(np.minimum(crop[..., 0], crop[..., 1]), crop[..., 2]).astype(np.float32)
    if min(darkest.shape) < 2:
        return None
    o = o - (x0, y0)
    centre = o.mean(axis=0)
    lines = []  # the sample points of each line, from inside the card out
    for k in range(4):
        a, b = o[k], o[(k + 1) % 4]
        along = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
        out = np.array([along[1], -along[0]])
        if np.dot(centre - a, out) > 0:
            out = -out
        for f in np.linspace(0.25, 0.75, _EDGE_STEPS):
            lines.append((a + f * (b - a))[None] + t[:, None] * out[None])
    pts = np.asarray(lines, np.float32)
    profiles = cv2.remap(darkest, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    m = profiles.shape[1] // 5
    card, table = np.median(profiles[:, :m], axis=1), np.median(profiles[:, -m:], axis=1)
    standing = np.abs(card - table) >= _EDGE_CONTRAST
    if standing.sum() < 3:
        return None
    rel = (profiles[standing] - table[standing, None]) / (card - table)[standing, None]  # 1 card, 0 table
    rel = cv2.blur(rel, (5, 1), borderType=cv2.BORDER_REPLICATE)  # over about a pixel, against noise
    sigmas = []
    for x in rel:
        steepest = int(np.argmax(np.abs(np.diff(x))))
        inside = np.flatnonzero(x[: steepest + 1] >= 0.9)  # the last sample at 90 % before the fall
        outside = np.flatnonzero(x[steepest + 1 :] <= 0.1)  # the first at 10 % after it
        if len(inside) and len(outside) and inside[-1] > 0 and steepest + 1 + outside[0] < len(x) - 1:
            sigmas.append((steepest + 1 + outside[0] - inside[-1]) * _SAMPLE / _RISE)
    return float(np.median(sigmas)) if len(sigmas) >= 3 else None


def check_view(image: np.ndarray, sightings: Sequence[Sighting]) -> ViewCheck:
    """Advice on the camera's set-up from the BGR ``image`` and the ``sightings`` recognised in it.
    A frame that is not an H×W×3 uint8 array is a ``FrameError``."""
    check_bgr(image, "check_view", FrameError)
    h, w = image.shape[:2]
    widths = [card_width(s) for s in sightings]  # a Sighting's outline has three points or more
    faces = [s for s in sightings if s.card not in (BACK, JOKER) and len(s.outline) == 4]
    sure = [s for s in faces if s.confidence >= SURE]
    unsure = sum(1 for s in sightings if s.card != BACK and s.confidence < SURE)
    cards = [s for s in sightings if s.card != JOKER and len(s.outline) == 4]  # the faces and backs
    darkest = {id(s): _darkest(image, s) for s in cards}  # each card warped once
    measured = [_paper_and_ink(darkest[id(s)]) for s in sure]
    paper = float(np.median([p for p, _ in measured])) if measured else None
    contrast = float(np.median([p - i for p, i in measured])) if measured else None
    clipped = float(np.median([_clipped(darkest[id(s)]) for s in sure])) if sure else None
    glare = sum(1 for s in cards if _clipped(darkest[id(s)]) >= GLARE)
    typical = float(np.median(widths)) if widths else None
    blurs = [b / width for s, width in zip(sightings, widths, strict=True)
             if width > 0 and (b := edge_blur(image, s.outline)) is not None]
    blur = float(np.median(blurs)) if blurs else None
    advice: list[Advice] = []
    if not sightings:
        advice.append(Advice("no_cards", "No card seen. Point the camera at the cards on the table, "
                                         "check it is in focus, and that the table is lit."))
    if typical is not None and typical < GOOD_WIDTH:
        what = "too small to read" if typical < MIN_WIDTH else "small: some will be missed or misread"
        advice.append(Advice("small_cards", f"Cards are about {typical:.0f} pixels wide in the picture, "
                                            f"{what}. Move the camera closer or use a higher resolution "
                                            f"(they read best from {GOOD_WIDTH} pixels wide)."))
    if paper is not None and paper < DARK_PAPER:
        advice.append(Advice("dark", "The cards look dark. Add light over the table or raise the "
                                     "camera's exposure."))
    elif contrast is not None and contrast < LOW_CONTRAST:
        advice.append(Advice("washed_out", "The cards look washed out: their ink is faint against the "
                                           "paper. Lower the camera's exposure, or move the lamp so it "
                                           "does not shine into the lens, and check the focus."))
    elif clipped is not None and clipped >= OVER_EXPOSED:
        advice.append(Advice("over_exposed", "The cards look over-exposed: their paper is pure white, and "
                                             "thin ink fades into it. Lower the camera's exposure (on a "
                                             "dark cloth automatic exposure brightens the cards too much) "
                                             "or dim the lamp over the table."))
    if glare and not any(a.code in ("washed_out", "over_exposed") for a in advice):  # all clipped: no spot
        many = f"{glare} cards" if glare > 1 else "a card"
        advice.append(Advice("glare", f"A lamp is reflected off {many} (a white patch on the card): it can "
                                      "hide pips and indices without a warning. Move the lamp or tilt the "
                                      "camera until the reflection falls off the cards."))
    if blur is not None and blur >= BLURRY:
        advice.append(Advice("blurry", "The picture is out of focus: the cards' edges are blurred. Focus "
                                       "the camera on the table (fix the focus if it keeps hunting), "
                                       "clean the lens, and keep the camera still."))
    if unsure:
        advice.append(Advice("unsure", f"{unsure} card{'s' if unsure > 1 else ''} read unsurely (drawn "
                                       "amber). Check focus and glare on those cards, or move closer."))
    return ViewCheck(w, h, len(sightings), unsure, typical, paper, contrast, tuple(advice), blur, clipped)
