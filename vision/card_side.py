"""Which side of a card a quad shows: its back, its face, or no card at all, by a small CNN.

The recogniser asks this of a card quad whose index it could not read: a face-down card has no
index, and neither has a patch of table, a hand or a region spanning two cards. The finders' quads
are often a little off (inset into a back's pattern, shifted onto the table, cut by the frame edge
or partly covered), so a test that needs the exact outline and a white border misses most backs.
:func:`card_side` warps the quad, with a margin round it, to a small canonical patch (portrait: the
shorter side first) and the network (``vision/models/card_side.onnx``, trained only on the
project's synthetic scenes, see ``CARD_SIDE.md``) gives the probability of each of ``SIDES``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.errors import VisionError
from vision.onnx_nets import OnnxNet, check_bgr, load_checked

W, H = 32, 44  # patch size, pixels: a card's shape (width × 1.4) with its margin
MARGIN = 0.08  # of the card's width, round the quad on every side: the context just outside it
SIDES = ("back", "face", "none")
# chosen on the training-family benchmarks for v2 and kept for v6 (CARD_SIDE.md), never on photos
BACK_THRESHOLD = 0.7
TRACED_BACK = "no index; the card-side network sees a back"  # a whole card's outline, read as a back
MIN_AREA = 4.0  # square pixels a quad must enclose to be judged at all


class CardSideError(VisionError, ValueError):
    """``card_side`` was given something that is not a BGR image or not a 4-corner quad."""


@dataclass(frozen=True)
class CardSide:
    """What a quad shows: the probability of a back, a face, and of no single card."""

    back: float
    face: float
    none: float

    @property
    def side(self) -> str:
        """The most likely of ``SIDES``."""
        return SIDES[int(np.argmax([self.back, self.face, self.none]))]


def canonical(corners: np.ndarray) -> np.ndarray:
    """The quad's corners starting at a shorter side (a quad traced from a long side is turned)."""
    c = np.asarray(corners, np.float64).reshape(4, 2)
    short = np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[3] - c[2])
    long = np.linalg.norm(c[2] - c[1]) + np.linalg.norm(c[0] - c[3])
    return np.roll(c, -1, axis=0) if short > long else c


def sample(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The H × W × 3 patch of the quad ``corners`` (canonical order) and ``MARGIN`` round it."""
    return warp_quad(image, corners, (W, H), MARGIN)


def warp_quad(image: np.ndarray, corners: np.ndarray, size: tuple[int, int], margin: float) -> np.ndarray:
    """The ``size`` (width, height) patch of the quad ``corners`` (canonical order: shorter side
    first) with ``margin`` card widths round it on every side. A big card is first shrunk by area
    averaging (a region round it only), so the patch does not alias; outside the image the edge is
    replicated."""
    pw, ph = size
    c = canonical(corners)
    mx = margin * pw / (1 + 2 * margin)  # patch pixels of margin
    my = margin * pw / (1 + 2 * margin)
    dst = np.array([[mx, my], [pw - mx, my], [pw - mx, ph - my], [mx, ph - my]], np.float32)
    side = max(float(np.linalg.norm(c[1] - c[0])), float(np.linalg.norm(c[3] - c[2])), 1.0)
    step = side / (pw - 2 * mx)  # image pixels per patch pixel
    ih, iw = image.shape[:2]
    pad = 0.25 * side + 2
    x0 = int(np.clip(np.floor(c[:, 0].min() - pad), 0, iw - 1))
    y0 = int(np.clip(np.floor(c[:, 1].min() - pad), 0, ih - 1))
    x1 = int(np.clip(np.ceil(c[:, 0].max() + pad), x0 + 1, iw))
    y1 = int(np.clip(np.ceil(c[:, 1].max() + pad), y0 + 1, ih))
    crop = image[y0:y1, x0:x1]
    src = c - (x0, y0)
    if step > 1.5:
        f = 1.5 / step
        cw, ch = max(1, round(crop.shape[1] * f)), max(1, round(crop.shape[0] * f))
        fx, fy = cw / crop.shape[1], ch / crop.shape[0]
        crop = cv2.resize(crop, (cw, ch), interpolation=cv2.INTER_AREA)
        src = (src + 0.5) * (fx, fy) - 0.5
    m = cv2.getPerspectiveTransform(dst, src.astype(np.float32))
    return cv2.warpPerspective(
        crop, m, (pw, ph), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
    )


def prepare(patches: np.ndarray) -> np.ndarray:
    """K × H × W × 3 uint8 patches → the network's input: NCHW float32, each patch standardised:
    ``(x - mean) / (std + 4)`` over its own pixels and channels."""
    x = patches.astype(np.float32)
    # the arithmetic of ``x.std(axis=…)``, its deviations from the mean kept for the quotient
    # rather than made again (``test_speed_equivalences``)
    dev = x - x.mean(axis=(1, 2, 3), keepdims=True)
    k, h, w, c = x.shape  # a patch's pixel count from its shape: an empty batch has no first patch
    std = np.sqrt(np.add.reduce(dev * dev, axis=(1, 2, 3), keepdims=True) / (h * w * c))
    out = np.empty((k, c, h, w), np.float32)
    return np.divide(dev.transpose(0, 3, 1, 2), std.transpose(0, 3, 1, 2) + 4.0, out=out)


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@dataclass(frozen=True, eq=False)
class CardSideNet(OnnxNet):
    """The card-side network: K prepared patches → K × 3 logits (``SIDES``), one forward pass."""

    @classmethod
    def load(cls, path: str | Path | None = None, name: str = "card_side.onnx") -> CardSideNet:
        """The network in the file at ``path``, or the packaged one called ``name``."""
        return load_checked(cls, path, name, "card-side network", cls.logits, (1, 3, H, W), 3)

    def logits(self, x: np.ndarray) -> np.ndarray:
        net = self._net()
        net.setInput(np.ascontiguousarray(x, np.float32))
        return np.asarray(net.forward(), np.float64).reshape(len(x), -1)

    def sides(self, image: np.ndarray, quads: list[object]) -> list[CardSide]:
        """What each quad (a ``CardQuad`` or 4 × 2 corners, image pixels) of the BGR ``image`` shows."""
        check_bgr(image, "card_side", CardSideError)
        corners = [check_quad(q) for q in quads]
        if not corners:
            return []
        p = _softmax(self.logits(prepare(np.stack([sample(image, c) for c in corners]))))
        return [CardSide(float(b), float(f), float(n)) for b, f, n in p]

    def hypotheses(self, image: np.ndarray, quads: Sequence[object]) -> list[CardSide]:
        """``sides`` of the recogniser's own hypotheses (quads it traced, grew or guessed): one folded into
        a line or a point shows no card (``NO_CARD``) instead of being an error, so that one degenerate
        guess cannot stop a whole frame's read."""
        flat = [_no_area(q) for q in quads]
        judged = iter(self.sides(image, [q for q, f in zip(quads, flat, strict=True) if not f]))
        return [NO_CARD if f else next(judged) for f in flat]


NO_CARD = CardSide(0.0, 0.0, 1.0)  # what a quad of no area shows


def _no_area(quad: object) -> bool:
    """Whether ``quad`` is four finite corners enclosing less than ``check_quad``'s least area."""
    c = np.asarray(getattr(quad, "corners", quad), np.float64)
    if c.shape != (4, 2) or not np.isfinite(c).all():
        return False  # malformed, not degenerate: ``sides`` says what is wrong with it
    return abs(cv2.contourArea(c.astype(np.float32))) < MIN_AREA


def check_quad(quad: object, user: str = "card_side") -> np.ndarray:
    """The 4 × 2 corners of ``quad`` (a ``CardQuad`` or corners), or a ``CardSideError`` naming ``user``."""
    corners = getattr(quad, "corners", quad)
    try:
        c = np.asarray(corners, np.float64)
    except (TypeError, ValueError) as exc:
        what = type(quad).__name__
        raise CardSideError(f"{user} expects a quad of 4 (x, y) corners, got {what}") from exc
    if c.shape != (4, 2) or not np.isfinite(c).all():
        raise CardSideError(f"{user} expects a quad of 4 finite (x, y) corners, got shape {c.shape}")
    if abs(cv2.contourArea(c.astype(np.float32))) < MIN_AREA:
        raise CardSideError(f"{user} expects a quad of some area, got a degenerate one")
    return c


@lru_cache(maxsize=1)
def default_card_side() -> CardSideNet:
    """The shipped card-side network, loaded once per process."""
    return CardSideNet.load()


@lru_cache(maxsize=1)
def hole_card_side() -> CardSideNet:
    """The card-side network trained also on cards other cards lie over (``card_side_hole.onnx``, v3
    in ``CARD_SIDE.md``), loaded once per process. It judges the outline guessed for a hole card
    under its up card: the main network takes a back a face covers a corner or the lower part of
    for a face, this one for the back it is. Elsewhere it calls more of a pile of faces a back, so it
    is asked only that."""
    return CardSideNet.load(name="card_side_hole.onnx")


def card_side(image: np.ndarray, quad: object) -> CardSide:
    """What the card quad ``quad`` (a ``CardQuad`` or 4 × 2 corners) of the BGR ``image`` shows."""
    return default_card_side().sides(image, [quad])[0]


def back_probability(image: np.ndarray, quad: object) -> float:
    """The probability that ``quad`` of ``image`` is a face-down card."""
    return card_side(image, quad).back
