"""The face reader: a small CNN that reads a whole card's face — its pips — through the card's quad.

An index is a few pixels tall on a card 50–80 px wide, and blur, glare or a finger can take it; the
pips in the middle of the same card are four times the size. Pip layouts are the same on every
standard deck (an eight is two columns of three and two in the middle), so the count and the shape
of the pips say the rank (ace to ten) and the suit of a card seen whole, whatever its index font.
Court cards are told apart from pip cards (``court``) but not from one another: a jack, a queen and
a king differ only in art that varies from deck to deck, so their rank is left to the index.

:func:`FaceReaderNet.read` warps each quad (shorter side first, a little margin) to a 40 × 56 patch
with ``card_side.warp_quad`` and the network (``vision/models/face_reader.onnx``, trained only on
the project's synthetic scenes, see ``FACE_READER.md``) gives a rank softmax over ``FACE_RANKS``
(``-``: no whole face to count — a back, a joker, a partly covered card, no card at all) and a suit
softmax over ``FACE_SUITS``. The recogniser uses it as evidence beside the index
(``vision.recognizer``), never alone on a card whose index reads surely.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.card_side import CardSideError, check_quad, warp_quad
from vision.card_side import prepare as prepare_patches
from vision.onnx_nets import OnnxNet, check_bgr, load_checked
from vision.sighting import BACK, JOKER, Sighting

W, H = 40, 56  # patch size, pixels (a card's shape, width × 1.4)
MARGIN = 0.03  # of the card's width round the quad: the card's own edge stays in the patch
FACE_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "court", "-")
FACE_SUITS = ("S", "H", "D", "C", "-")
COURT = FACE_RANKS.index("court")
COURT_RANKS = ("J", "Q", "K")  # the index ranks whose face is art, not pips
N_OUT = len(FACE_RANKS) + len(FACE_SUITS)


@dataclass(frozen=True)
class FaceReading:
    """The rank and suit softmaxes for one quad."""

    rank: np.ndarray  # over FACE_RANKS
    suit: np.ndarray  # over FACE_SUITS

    @property
    def rank_name(self) -> str:
        return FACE_RANKS[int(self.rank.argmax())]

    @property
    def suit_name(self) -> str:
        return FACE_SUITS[int(self.suit.argmax())]

    @property
    def card(self) -> str | None:
        """The code the face alone says (ace to ten), or None (a court card, no face, or reject)."""
        r, s = self.rank_name, self.suit_name
        if r in ("court", "-") or s == "-":
            return None
        return r + s

    @property
    def confidence(self) -> float:
        return float(self.rank.max() * self.suit.max())


def sample(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The H × W × 3 patch of the quad ``corners`` and ``MARGIN`` round it (``card_side.warp_quad``)."""
    return warp_quad(image, corners, (W, H), MARGIN)


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def split_softmax(logits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank and suit probabilities (K × 12, K × 5) from the network's K × 17 logits."""
    lg = np.asarray(logits, np.float64)
    if lg.ndim != 2 or lg.shape[1] != N_OUT:
        raise ValueError(f"face reader logits are K × {N_OUT}, got shape {lg.shape}")
    n = len(FACE_RANKS)
    return _softmax(lg[:, :n]), _softmax(lg[:, n:])


@dataclass(frozen=True, eq=False)
class FaceReaderNet(OnnxNet):
    """The face network: K prepared patches → K × 17 logits (``FACE_RANKS`` then ``FACE_SUITS``)."""

    @classmethod
    def load(cls, path: str | Path | None = None) -> FaceReaderNet:
        return load_checked(cls, path, "face_reader.onnx", "face reader", cls.logits, (1, 3, H, W), N_OUT)

    def logits(self, x: np.ndarray) -> np.ndarray:
        """K × 17 logits, one patch per forward pass (``cv2.dnn`` plans the network again whenever
        the batch size changes, which costs more than the passes)."""
        net = self._net()
        rows = []
        for i in range(len(x)):
            net.setInput(np.ascontiguousarray(x[i : i + 1], np.float32))
            rows.append(np.asarray(net.forward(), np.float64).reshape(-1))
        return np.stack(rows) if rows else np.zeros((0, N_OUT))

    def read(self, image: np.ndarray, quads: list[object]) -> list[FaceReading]:
        """What the face inside each quad (a ``CardQuad`` or 4 × 2 corners) of the BGR ``image`` says."""
        check_bgr(image, "face_reader", CardSideError)
        corners = [check_quad(q, "face_reader") for q in quads]
        if not corners:
            return []
        pr, ps = split_softmax(self.logits(prepare_patches(np.stack([sample(image, c) for c in corners]))))
        return [FaceReading(pr[i], ps[i]) for i in range(len(corners))]


@lru_cache(maxsize=1)
def default_face_reader() -> FaceReaderNet:
    """The shipped face reader, loaded once per process."""
    return FaceReaderNet.load()


def read_face(image: np.ndarray, quad: object) -> FaceReading:
    """What the face inside the card quad ``quad`` of the BGR ``image`` says."""
    return default_face_reader().read(image, [quad])[0]


# -- the recogniser's use -----------------------------------------------------------------------------
# chosen on training-family scenes (FACE_READER.md), never on photos
FACE_SURE = 0.9  # a face reading at least this sure may correct an index reading that is not sure
INDEX_SURE = 0.99  # an index reading at least this sure is never overruled by the face
FACE_ALONE = 0.9  # a whole card whose index did not read is reported from its face from this on
FACE = "face"  # the start of every evidence line the face reader adds: a sighting is checked once
FACE_ALONE_EVIDENCE = "face alone: the index did not read"


def checked(face: FaceReading, sighting: Sighting) -> Sighting:
    """``sighting`` (a face card read from its index) in the light of what its face says.

    Where both agree the confidence rises as for two independent readings; where the index reading
    is not sure (< ``INDEX_SURE``) and the face is (≥ ``FACE_SURE``) on a rank or suit it contradicts,
    the face's rank or suit stands. A face that shows no pips (a court card, a partly covered card)
    changes nothing: a court card's suit shows only at its index, which the index reader reads better.
    Nor does a face that shows pips where the index reads a court card: a court card has none, so the
    quad is not that card's (an outline implied by a card width the finder got wrong, lying over the
    next card of a hand: session 55, a queen read 0.99 at its index turned into the seven beside it)."""
    code = sighting.card
    if code in (BACK, JOKER) or face.card is None or any(e.startswith(FACE) for e in sighting.evidence):
        return sighting  # no pips to count (a court card's suit shows only at its index)
    rank, suit = code[:-1], code[-1]
    if rank in COURT_RANKS:
        return sighting  # pips on a court card: another card's face
    rank_agrees = face.rank_name == rank
    suit_agrees = face.suit_name == suit
    if rank_agrees and suit_agrees:
        conf = 1.0 - (1.0 - sighting.confidence) * (1.0 - face.confidence)
        return replace(
            sighting,
            confidence=min(1.0, conf),
            evidence=(*sighting.evidence, f"face agrees {face.confidence:.2f}"),
        )
    if sighting.confidence >= INDEX_SURE:
        return sighting
    new_rank = rank if rank_agrees else (face.rank_name if face.rank.max() >= FACE_SURE else None)
    new_suit = suit if suit_agrees else (face.suit_name if face.suit.max() >= FACE_SURE else None)
    if new_rank is None or new_suit is None:
        return sighting
    return replace(
        sighting,
        card=new_rank + new_suit,
        confidence=float(min(face.confidence, max(sighting.confidence, 0.5))),
        evidence=(*sighting.evidence, f"face says {new_rank + new_suit} {face.confidence:.2f}"),
    )


def check_faces(image: np.ndarray, sightings: list[Sighting]) -> list[Sighting]:
    """Every face sighting of ``image`` not read surely ``checked`` against the face inside its outline."""
    # a sure index reading is left as it is (the face could only agree): no pass for it
    todo = [i for i, s in enumerate(sightings) if s.card not in (BACK, JOKER) and s.confidence < INDEX_SURE]
    quads = [_quad_or_none(sightings[i].outline) for i in todo]
    keep = [(i, q) for i, q in zip(todo, quads, strict=True) if q is not None]
    if not keep:
        return sightings
    faces = default_face_reader().read(image, [q for _, q in keep])
    out = list(sightings)
    for (i, _), f in zip(keep, faces, strict=True):
        out[i] = checked(f, sightings[i])
    return out


def face_checked(image: np.ndarray, sighting: Sighting) -> Sighting:
    """``check_faces`` of one sighting."""
    return check_faces(image, [sighting])[0]


def faces_alone(image: np.ndarray, outlines: list[np.ndarray]) -> list[Sighting | None]:
    """For each card outline (4 × 2 corners, image pixels) whose index did not read, the card its face
    alone says — an ace to ten the face reader is at least ``FACE_ALONE`` sure of — or None (also for
    an outline of no area)."""
    ok = [_quad_or_none(o) for o in outlines]
    faces = iter(default_face_reader().read(image, [o for o in ok if o is not None]))
    out: list[Sighting | None] = []
    for o in ok:
        face = next(faces) if o is not None else None
        if o is None or face is None or face.card is None or face.confidence < FACE_ALONE:
            out.append(None)
            continue
        corners = tuple((float(x), float(y)) for x, y in o)
        out.append(Sighting(face.card, face.confidence, corners, None, evidence=(FACE_ALONE_EVIDENCE,)))
    return out


def _quad_or_none(outline: object) -> np.ndarray | None:
    """The outline's 4 × 2 corners, or None for an outline of no area (nothing to look at)."""
    try:
        return check_quad(np.asarray(outline, np.float64), "face_reader")
    except CardSideError:
        return None
