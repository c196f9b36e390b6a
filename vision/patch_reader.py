"""The patch reader: a small CNN that reads a whole upright index-corner patch, no segmentation.

The glyph readers (``vision.reader``, ``vision.glyphs``) need ``segment_index`` to cut the rank and
the suit apart, which fails when an index is only a few pixels tall (cards under ~80 px wide). This
network takes the corner patch exactly as ``vision.index.cut_patch`` gives it (upright, or sideways
for the mirrored index of a four-index deck), shrunk to ``INPUT_H`` × ``INPUT_W`` in colour, and gives
three softmaxes: the rank (13 + reject), the suit (4 + reject) and whether it is a joker's corner.

Weights: ``vision/models/patch_reader.onnx``, trained by ``tools/vision/train_patch_reader.py`` only on
the project's renders (model card: ``vision/models/PATCH_READER.md``). Run by ``cv2.dnn``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.detect import min_channel
from vision.errors import ModelError
from vision.index import PW, PX, interpolated_percentiles
from vision.onnx_nets import OnnxNet, load_checked
from vision.sighting import RANKS, SUITS

REJECT = "-"
RANK_CLASSES: tuple[str, ...] = RANKS + (REJECT,)
SUIT_CLASSES: tuple[str, ...] = SUITS + (REJECT,)
N_RANK, N_SUIT, N_JOKER = len(RANK_CLASSES), len(SUIT_CLASSES), 2
N_OUT = N_RANK + N_SUIT + N_JOKER
INPUT_H, INPUT_W = 64, 40  # the patch (PH × PW = 99 × 57) shrunk, aspect nearly kept
# the network's logits are divided by these (rank, suit, joker) before the softmaxes, so that a reading
# given with confidence p is right about a fraction p of the time. Fitted with the shipped weights by
# ``tools/vision/train_patch_reader.py --calibrate --calibrate-on v2:95 v3:97 v5f:98`` (least negative
# log-likelihood on 6,000 rendered calibration cards training never drew: small ones, badly photographed
# and blurred ones, and hands and fans with frames between two indices; vision/models/PATCH_READER.md, v7)
TEMPERATURE = (0.82, 0.82, 1.0)


def prepare(patches: np.ndarray | list[np.ndarray]) -> np.ndarray:
    """N × 3 × INPUT_H × INPUT_W float32 network input from BGR uint8 corner patches.

    Each patch is shrunk with INTER_AREA and normalised by its own mean and spread (over all three
    channels together, so red stays redder than black)."""
    out = np.empty((len(patches), 3, INPUT_H, INPUT_W), np.float32)
    for i, p in enumerate(patches):
        if p.ndim != 3 or p.shape[2] != 3:
            raise ValueError(f"a corner patch is an H×W×3 BGR image, got shape {p.shape}")
        small = cv2.resize(p, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)
        mean, std = (float(v[0, 0]) for v in cv2.meanStdDev(small.reshape(-1)))
        out[i] = cv2.dnn.blobFromImage(small, 1.0 / (std + 8.0), mean=(mean, mean, mean))[0]
    return out


@dataclass(frozen=True)
class PatchReading:
    """The three softmaxes for one patch."""

    rank: np.ndarray  # over RANK_CLASSES
    suit: np.ndarray  # over SUIT_CLASSES
    joker: float  # probability that this is a joker's corner

    @property
    def card(self) -> str | None:
        """The most probable code, or None when either head's best guess is reject."""
        r, s = int(self.rank.argmax()), int(self.suit.argmax())
        if r == N_RANK - 1 or s == N_SUIT - 1:
            return None
        return RANKS[r] + SUITS[s]

    @property
    def confidence(self) -> float:
        return float(self.rank.max() * self.suit.max())


def split_softmax(
    logits: np.ndarray, temperature: tuple[float, float, float] = TEMPERATURE
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rank, suit and joker probabilities (N × 14, N × 5, N) from the network's N × 21 logits, each
    head's logits divided by its ``temperature`` (the calibrated ``TEMPERATURE`` unless told)."""

    def sm(z: np.ndarray) -> np.ndarray:
        e: np.ndarray = np.exp(z - z.max(axis=1, keepdims=True))
        out: np.ndarray = e / e.sum(axis=1, keepdims=True)
        return out

    lg = np.asarray(logits, np.float32)
    if lg.ndim != 2 or lg.shape[1] != N_OUT:
        raise ValueError(f"patch reader logits are N × {N_OUT}, got shape {lg.shape}")
    tr, ts, tj = temperature
    pr = sm(lg[:, :N_RANK] / tr)
    ps = sm(lg[:, N_RANK : N_RANK + N_SUIT] / ts)
    pj = sm(lg[:, N_RANK + N_SUIT :] / tj)[:, 1]
    return pr, ps, pj


@dataclass(frozen=True, eq=False)
class PatchReader(OnnxNet):
    """The patch network: rank, suit and joker softmaxes for whole corner patches."""

    @classmethod
    def load(cls, path: str | Path | None = None) -> PatchReader:
        return load_checked(cls, path, "patch_reader.onnx", "patch reader", cls.logits,
                            (1, 3, INPUT_H, INPUT_W), N_OUT)

    def logits(self, x: np.ndarray) -> np.ndarray:
        """N × 21 logits for prepared input (``prepare``), one patch per forward pass (cv2.dnn re-plans
        the network whenever the batch size changes)."""
        net = self._net()
        rows = []
        for i in range(len(x)):
            net.setInput(np.ascontiguousarray(x[i : i + 1], np.float32))
            rows.append(net.forward().reshape(-1))
        return np.stack(rows) if rows else np.zeros((0, N_OUT), np.float32)

    def read_many(
        self, patches: list[np.ndarray], temperature: tuple[float, float, float] = TEMPERATURE
    ) -> list[PatchReading]:
        pr, ps, pj = split_softmax(self.logits(prepare(patches)), temperature)
        return [PatchReading(pr[i], ps[i], float(pj[i])) for i in range(len(patches))]

    def read(self, patch: np.ndarray) -> PatchReading:
        """Rank, suit and joker probabilities of one corner patch (BGR, as ``cut_patch`` cuts it)."""
        return self.read_many([patch])[0]


@lru_cache(maxsize=1)
def default_patch_reader() -> PatchReader:
    """The shipped patch reader, loaded once per process."""
    return PatchReader.load()


def index_reading(
    patch: np.ndarray, patch_to_image: np.ndarray, sideways: bool, reader: PatchReader | None = None
) -> tuple[str, float, float, tuple[tuple[float, float], ...]]:
    """The recogniser's view of one patch read whole: (code or ``JK``, confidence, reject, index box).

    The confidence is the best rank's probability times the best suit's (reject classes aside), so a
    patch the network calls reject has a low one; ``reject`` is the larger reject probability. The index
    box is the index column of the patch (its right edge for a sideways patch) mapped into the image.
    """
    r = (reader or default_patch_reader()).read(patch)
    x0, x1 = 0.02 * PX, 0.2 * PX
    if sideways:
        x0, x1 = PW - x1, PW - x0
    y0, y1 = 0.03 * PX, 0.5 * PX
    box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64).reshape(-1, 1, 2)
    pts = cv2.perspectiveTransform(box, patch_to_image).reshape(-1, 2)
    corner = tuple((float(x), float(y)) for x, y in pts)
    ri, si = int(r.rank[:-1].argmax()), int(r.suit[:-1].argmax())
    conf = float(r.rank[ri] * r.suit[si])
    reject = float(max(r.rank[-1], r.suit[-1]))
    if r.joker > 0.5 and r.joker > conf:
        return "JK", r.joker, 0.0, corner
    return RANKS[ri] + SUITS[si], conf, reject, corner


# -- the recogniser's hook ---------------------------------------------------------------------------
# "off"; "fallback": only where segmentation fails; "unsure": also where the glyph reading is unsure
PATCH_MODES = ("off", "fallback", "unsure")
DEFAULT_MODE = "unsure"  # chosen by measurement (vision/models/PATCH_READER.md)
UNSURE_BELOW = 0.5  # a glyph reading less confident than this gets the patch reader's second opinion
# where the two readers disagree the patch reader must be this much more confident to win. Chosen on
# 120 rendered training-split scenes (``train_patch_reader.py --margins``, PATCH_READER.md): of 354
# disagreements on cards up to 130 px wide, a margin of 0.4 lets it win 32 (23 right, 9 wrong, 1 right
# glyph reading lost), 0.25 lets it win 41 (25 right, 16 wrong, 3 lost)
DISAGREE_MARGIN = 0.4
# a reading of the patch reader's alone (the glyphs could not be cut) must be at least this confident:
# with calibrated confidences, more likely right than wrong (chosen on the same 120 scenes: F1 0.736
# at 0.05, 0.745 at 0.55-0.6, 0.741 at 0.75)
FALLBACK_MIN = 0.6
MIN_CONTRAST = 25  # darkest-channel spread (3rd to 90th percentile) below which a patch is bare paper
# (session 6, with the v3 weights that read washed-out and under-exposed indices: F1 0.850 at 40, 0.853 at
# 25 on 240 training-family scenes, scenes.py --split train --count 240 --seed 5000)


def patch_mode() -> str:
    mode = os.environ.get("DEALER_VISION_PATCH") or DEFAULT_MODE
    if mode not in PATCH_MODES:
        raise ModelError(f"unknown patch reader mode {mode!r}: expected one of {', '.join(PATCH_MODES)}")
    return mode


def _env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError:
        raise ModelError(f"{name} must be a number, got {raw!r}") from None


def disagree_margin() -> float:
    """``DISAGREE_MARGIN``, or ``DEALER_VISION_PATCH_MARGIN`` when set (for measuring other margins)."""
    return _env_float("DEALER_VISION_PATCH_MARGIN", DISAGREE_MARGIN)


def unsure_below() -> float:
    """``UNSURE_BELOW``, or ``DEALER_VISION_PATCH_UNSURE`` when set (for measuring other levels)."""
    return _env_float("DEALER_VISION_PATCH_UNSURE", UNSURE_BELOW)


def fallback_min() -> float:
    return _env_float("DEALER_VISION_PATCH_FALLBACK_MIN", FALLBACK_MIN)


def has_ink(patch: np.ndarray) -> bool:
    """Whether the patch holds any ink at all (bare paper or an even table is not worth a forward pass)."""
    dark, white = interpolated_percentiles(min_channel(patch)[::2, ::2], (3, 90))
    return bool(white - dark >= MIN_CONTRAST)


Whole = tuple[str, float, float, tuple[tuple[float, float], ...]]


def second_opinion(
    patch: np.ndarray,
    patch_to_image: np.ndarray,
    sideways: bool,
    glyph_reading: tuple[str, float] | None,
) -> Whole | None:
    """What the recogniser should make of a corner whose glyphs it could not cut (``glyph_reading`` None)
    or read only unsurely (code, confidence): the patch reader's reading, or None to keep its own.

    Agreement raises the confidence as two independent readings do; in a disagreement the patch reader
    wins only by ``DISAGREE_MARGIN``. It is asked at any card width: until session 35 cards over 500 px
    in a table frame were left to the glyph readers (most corners asked about there held no index),
    but with the readers and checks of that session, asking it everywhere read more cards on every
    training-family set (240-scene sets and 4032 × 3024 photos), at no cost measurable in time."""
    mode = patch_mode()
    if mode == "off":
        return None
    if glyph_reading is not None and (mode != "unsure" or glyph_reading[1] >= unsure_below()):
        return None
    if not has_ink(patch):
        return None
    code, conf, reject, box = index_reading(patch, patch_to_image, sideways)
    if glyph_reading is None:
        return (code, conf, reject, box) if conf >= fallback_min() else None
    if code == glyph_reading[0]:
        return code, 1.0 - (1.0 - conf) * (1.0 - glyph_reading[1]), reject, box
    return (code, conf, reject, box) if conf > glyph_reading[1] + disagree_margin() else None
