"""A camera's frames read only when the table changed: the live table's recogniser.

A camera over a table sends thirty frames a second, and between two of them almost nothing moves. A
frame of twelve cards in six hands takes the recogniser well over a tenth of a second, so read whole,
one after another, the frames of a table where nothing happens keep a core busy and leave a card that
lands waiting for the frame before it to be read. :class:`LiveRecognizer` keeps a small copy of the
last frame it read and what it saw:

* a frame that differs from it nowhere by more than a flicker (by ``CHANGED`` levels in a channel,
  over at least ``MIN_CHANGE`` of a card's area) is answered with that read's sightings, in a
  millisecond or two;
* any other frame is read whole by the :class:`~vision.recognizer.Recognizer`, and so are the
  ``settle`` frames after it (a tracker asks a card to read the same in a few frames: a card that
  just landed is confirmed by reads of frames of its own): a round of reads; and every ``full_every``
  frames, a round again.

The reads of a round look at the table the ways a still photo is read (:mod:`vision.looks`): as it is,
moved two pixels, turned upside down, and a quarter turned where after three reads a card rests on one
of them alone (a fourth frame read). Each read is reported as it comes, so a card that lands shows at
once; from the round's third read on, the cards two of its reads see alike are reported, and so while
the table lies still: a card one read alone made up, or one read alone missed, does not outlast the
round. On 480 fresh held-out-family scenes lying still that read F1 0.9197 → 0.935, for a fourth read
in three rounds of ten (BENCHMARKS.md, "Vision, session 52"). Nothing is read in part, and reads from
before a change never vote on the table after it. One instance serves one stream, in one thread.

>>> from vision import SimulatedCamera
>>> cam = SimulatedCamera(size=(960, 540), seed=3, card_width=110)
>>> base = cam.table()
>>> spots = cam.layout(["AS", "KH", "7D"], "row")
>>> live = LiveRecognizer(settle=0)
>>> sorted(s.card for s in live.recognize(cam.render(spots[:2], base=base).image))
['AS', 'KH']
>>> live.read_last  # the first frame is read
True
>>> sorted(s.card for s in live.recognize(cam.render(spots[:2], base=base).image)), live.read_last
(['AS', 'KH'], False)
>>> sorted(s.card for s in live.recognize(cam.render(spots, base=base).image)), live.read_last
(['7D', 'AS', 'KH'], True)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.errors import FrameError
from vision.looks import VIEWS, agreed, one_alone
from vision.onnx_nets import check_bgr
from vision.recognizer import Recognizer
from vision.render import CARD_ASPECT
from vision.sighting import Sighting
from vision.view_check import card_width

SMALL = 320  # the long side of the copy frames are compared at (pixels)
CHANGED = 24  # levels a channel of a pixel of that copy (lightly blurred) must move by to be a change
# changed pixels covering less than this share of a card's area are a flicker or a compression block
MIN_CHANGE = 0.02
CARD_SHARE = 0.06  # the card width assumed before any is seen, as a share of the frame's long side
SETTLE = 2  # frames read after each change, so that a card just landed is read in frames of its own
FULL_EVERY = 150  # frames between two reads when nothing changes (five seconds at 30 frames a second)


class LiveRecognizer:
    """Successive frames of one camera, each read only where the table changed since the last read.
    Each read is one look (``Recognizer.read_look``): the recogniser's own ``looks`` is not used, a
    round's reads being its looks."""

    def __init__(
        self, recognizer: Recognizer | None = None, *, settle: int = SETTLE, full_every: int = FULL_EVERY
    ) -> None:
        if settle < 0:
            raise ValueError(f"settle must be 0 or more frames, got {settle}")
        if full_every < 1:
            raise ValueError(f"full_every must be at least 1 frame, got {full_every}")
        self.recognizer = recognizer or Recognizer("table")
        self.settle = settle
        self.full_every = full_every
        self.read_last = False  # whether the last frame was read (or answered with what the reads saw)
        self._seen: list[Sighting] = []
        self._reference: np.ndarray | None = None  # the small copy of the last frame read
        self._to_read = 0  # frames still to be read after a change
        self._round: list[list[Sighting]] = []  # the readings of the frames read since the last change
        self._since_read = 0

    def reset(self) -> None:
        """Forget the last frame: the next is read (the camera was moved, the table cleared)."""
        self._reference = None

    def recognize(self, image: np.ndarray) -> list[Sighting]:
        """The sightings in ``image``, a frame of this camera's stream. A frame that is not an H×W×3
        uint8 array of at least 2×2 pixels is a ``FrameError`` and changes nothing kept."""
        check_bgr(image, "recognize", FrameError)
        small, scale = _small_copy(image)
        self._since_read += 1
        if self._changed(small, scale) or (self._to_read == 0 and self._since_read >= self.full_every):
            self._to_read, self._round = self.settle + 1, []
        if self._to_read == 0:
            self.read_last = False
            return list(self._seen)
        reading = self.recognizer.read_look(image, len(self._round) % VIEWS)
        self._round.append(reading)
        self._to_read -= 1
        if self._to_read == 0 and len(self._round) == 3 and one_alone(self._round):
            self._to_read = 1  # a card rests on one read alone: a fourth look, as at a photo
        # from a round's third read on: the cards two of its reads see alike
        self._seen = agreed(self._round) if len(self._round) >= 3 else reading
        self._reference, self._since_read = small, 0
        self.read_last = True
        return list(self._seen)

    def _changed(self, small: np.ndarray, scale: float) -> bool:
        """Whether ``small`` (a copy at ``scale`` frame pixels a pixel) differs from the copy of the
        last frame read by more than a flicker: by ``CHANGED`` levels in a channel, over ``MIN_CHANGE``
        of the area of a card as wide as those seen (``CARD_SHARE`` of the frame before any is)."""
        if self._reference is None or small.shape != self._reference.shape:
            return True
        widths = [card_width(s) for s in self._seen]
        card = float(np.median(widths)) / scale if widths else CARD_SHARE * max(small.shape)
        b, g, r = cv2.split(cv2.absdiff(small, self._reference))
        moved = cv2.countNonZero((cv2.max(cv2.max(b, g), r) >= CHANGED).astype(np.uint8))
        return moved >= MIN_CHANGE * card * card * CARD_ASPECT


def _small_copy(image: np.ndarray) -> tuple[np.ndarray, float]:
    """A copy of ``image`` with its long side at most ``SMALL``, lightly blurred (sensor noise and
    compression blocks averaged out), and the frame pixels a pixel of it spans. In colour: a red chip
    on green felt can be as light as the felt."""
    h, w = image.shape[:2]
    scale = max(1.0, max(h, w) / SMALL)
    if scale > 1:
        size = (max(1, round(w / scale)), max(1, round(h / scale)))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(image, (0, 0), 1.0), scale
