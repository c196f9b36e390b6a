"""What the recogniser saw, drawn on a copy of the frame: to check a camera's view of the table.

Each sighting's outline is drawn in a colour that says how sure the reading is (green: sure, amber:
unsure, blue: a back), the index that was read is boxed, and the code and confidence are written
beside the card on a dark label, at a size that stays legible from a webcam frame to a phone photo.

>>> import numpy as np
>>> from vision.sighting import Sighting
>>> frame = np.full((120, 160, 3), 90, np.uint8)
>>> drawn = annotate(frame, [Sighting("QH", 0.97, ((40, 20), (100, 20), (100, 100), (40, 100)))])
>>> drawn.shape == frame.shape, bool((frame == 90).all())  # the frame itself is left as it was
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.errors import SourceError
from vision.sighting import BACK, Sighting

SURE = 0.8  # a reading at least this confident is drawn as sure
_SURE_COLOUR = (60, 200, 60)  # BGR
_UNSURE_COLOUR = (0, 170, 255)
_BACK_COLOUR = (255, 140, 40)
_LABEL_BACKGROUND = (30, 30, 30)
_FONT = cv2.FONT_HERSHEY_SIMPLEX


def _colour(s: Sighting) -> tuple[int, int, int]:
    if s.card == BACK:
        return _BACK_COLOUR
    return _SURE_COLOUR if s.confidence >= SURE else _UNSURE_COLOUR


def annotate(image: np.ndarray, sightings: Sequence[Sighting]) -> np.ndarray:
    """A copy of ``image`` (BGR) with every sighting's outline, index box, code and confidence."""
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError("annotate expects a BGR image: an H×W×3 uint8 array")
    out = image.copy()
    h, w = out.shape[:2]
    unit = max(h, w) / 1000  # line widths and text grow with the frame
    line = max(1, round(2 * unit))
    scale = max(0.4, 0.6 * unit)
    for s in sightings:
        colour = _colour(s)
        outline = np.round(np.array(s.outline, np.float64)).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [outline], True, colour, line, cv2.LINE_AA)
        if s.index_corner:
            box = np.round(np.array(s.index_corner, np.float64)).astype(np.int32).reshape(-1, 1, 2)
            cv2.polylines(out, [box], True, colour, max(1, line // 2), cv2.LINE_AA)
        _label(out, f"{s.card} {s.confidence:.2f}", outline.reshape(-1, 2), colour, scale, line)
    return out


def _label(
    out: np.ndarray, text: str, outline: np.ndarray, colour: tuple[int, int, int], scale: float, line: int
) -> None:
    """``text`` on a dark box just above the card's top-most corner, kept inside the frame."""
    (tw, th), base = cv2.getTextSize(text, _FONT, scale, line)
    pad = max(2, line)
    top = outline[int(np.argmin(outline[:, 1]))]
    h, w = out.shape[:2]
    x = int(np.clip(top[0] - tw // 2, 0, max(0, w - tw - 2 * pad)))
    y = int(np.clip(top[1] - 2 * pad - base, th + 2 * pad, h - base - pad))
    cv2.rectangle(out, (x, y - th - pad), (x + tw + 2 * pad, y + base + pad), _LABEL_BACKGROUND, -1)
    cv2.putText(out, text, (x + pad, y), _FONT, scale, colour, line, cv2.LINE_AA)


def annotated_jpeg(image: np.ndarray, sightings: Sequence[Sighting], *, max_width: int = 960,
                   quality: int = 80) -> bytes:
    """``annotate`` of ``image``, shrunk to at most ``max_width`` pixels wide, as JPEG bytes: a
    frame small enough to send to a phone a few times a second, with labels still legible."""
    drawn = annotate(image, sightings)
    h, w = drawn.shape[:2]
    if w > max_width:
        drawn = cv2.resize(drawn, (max_width, max(1, round(h * max_width / w))), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", drawn, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # an H×W×3 uint8 array always encodes; anything else was refused by annotate
        raise SourceError("the annotated frame could not be encoded as JPEG")
    return data.tobytes()


def write_image(path: str | Path, image: np.ndarray) -> None:
    """Write ``image`` to ``path`` (the format from its suffix), with a clear error when it cannot be."""
    p = Path(path)
    if not p.parent.is_dir():
        raise SourceError(f"cannot write {p}: folder {p.parent} does not exist")
    try:
        ok, data = cv2.imencode(p.suffix or ".png", image)
    except cv2.error:
        ok = False
    if not ok:
        raise SourceError(f"cannot write {p}: expected a .png, .jpg, .bmp, .webp or .tiff file name")
    try:
        data.tofile(str(p))
    except OSError as exc:
        raise SourceError(f"cannot write {p}: {exc.strerror or exc}") from exc
