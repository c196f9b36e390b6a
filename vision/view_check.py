"""Is the camera set up well? Plain advice from one recognised frame, for the host setting it up.

A host points a webcam at the table and needs to know, without reading any numbers, whether the
cards are big enough in the frame, lit well enough and read surely. :func:`check_view` looks at the
frame and what the recogniser made of it and says what to change:

* cards too small in the frame (the reader's accuracy falls steeply below about 80 px of card width),
* faces too dark or washed out (the card paper's level, and its contrast with the ink),
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


@dataclass(frozen=True)
class Advice:
    """One thing to change: a stable ``code`` and the sentence that says it."""

    code: str
    message: str


@dataclass(frozen=True)
class ViewCheck:
    """What one frame says about the camera's set-up. ``card_width`` is the median width in pixels of
    the cards seen (None without any); ``paper`` and ``contrast`` are measured on the faces read
    (None without any); ``advice`` is empty when nothing needs changing."""

    width: int
    height: int
    cards: int
    unsure: int
    card_width: float | None
    paper: float | None
    contrast: float | None
    advice: tuple[Advice, ...]

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
            "ok": self.ok,
            "advice": [{"code": a.code, "message": a.message} for a in self.advice],
        }


def card_width(s: Sighting) -> float:
    """The shorter side of a sighting's outline, pixels (a card's width, whatever its turn)."""
    o = np.asarray(s.outline, np.float64)
    sides = np.linalg.norm(np.roll(o, -1, axis=0) - o, axis=1)
    if len(o) == 4:
        return float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)
    return float(sides.min())


def paper_and_ink(image: np.ndarray, s: Sighting) -> tuple[float, float]:
    """The paper's level and the ink's on a face: the darkest channel's 90th and 2nd percentiles
    over the card, warped upright (a card is mostly paper; its index and pips are the ink)."""
    face = warp_quad(image, np.asarray(s.outline, np.float64), _FACE, 0.0)
    darkest = face.min(axis=2).astype(np.float64)
    inner = darkest[2:-2, 2:-2]  # the outline's own edge pixels may be table
    return float(np.percentile(inner, 90)), float(np.percentile(inner, 2))


def check_view(image: np.ndarray, sightings: Sequence[Sighting]) -> ViewCheck:
    """Advice on the camera's set-up from the BGR ``image`` and the ``sightings`` recognised in it.
    A frame that is not an H×W×3 uint8 array is a ``FrameError``."""
    check_bgr(image, "check_view", FrameError)
    h, w = image.shape[:2]
    widths = [card_width(s) for s in sightings]  # a Sighting's outline has three points or more
    faces = [s for s in sightings if s.card not in (BACK, JOKER) and len(s.outline) == 4]
    sure = [s for s in faces if s.confidence >= SURE]
    unsure = sum(1 for s in sightings if s.card != BACK and s.confidence < SURE)
    measured = [paper_and_ink(image, s) for s in sure]
    paper = float(np.median([p for p, _ in measured])) if measured else None
    contrast = float(np.median([p - i for p, i in measured])) if measured else None
    typical = float(np.median(widths)) if widths else None
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
    if unsure:
        advice.append(Advice("unsure", f"{unsure} card{'s' if unsure > 1 else ''} read unsurely (drawn "
                                       "amber). Check focus and glare on those cards, or move closer."))
    return ViewCheck(w, h, len(sightings), unsure, typical, paper, contrast, tuple(advice))
