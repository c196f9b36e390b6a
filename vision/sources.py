"""Frame sources: one interface over still images, video files, live cameras and recorded frames.

Every source is an iterator of :class:`Frame` and a context manager that releases the device.
:func:`open_source` picks the backend from a spec string: an image file, a folder of images, a video
file, a camera index (``"0"``) or a stream URL (``rtsp://…``, ``http://…``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.errors import SourceError

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff"})
VIDEO_SUFFIXES = frozenset({".mp4", ".avi", ".mov", ".mkv", ".webm", ".m4v", ".mpg", ".mpeg"})
# an iPhone's photos by default: OpenCV has no decoder for them
HEIC_SUFFIXES = frozenset({".heic", ".heif"})
HEIC_ADVICE = (
    "HEIC photos (an iPhone's default) cannot be read: export them as JPEG, or set the phone to take "
    "JPEG (Settings › Camera › Formats › Most Compatible)"
)


@dataclass(frozen=True, slots=True)
class Frame:
    """One BGR image with its position in the stream and a timestamp in seconds."""

    image: np.ndarray
    index: int
    timestamp: float
    name: str = ""


class FrameSource(Protocol):
    """Anything that yields frames and can be closed."""

    def __iter__(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...


class _Closing:
    def close(self) -> None:
        return None

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR, with a clear error when it is missing or not an image."""
    p = Path(path)
    if not p.is_file():
        raise SourceError(f"image file not found: {p}")
    if p.suffix.lower() in HEIC_SUFFIXES:
        raise SourceError(f"{p}: {HEIC_ADVICE}")
    data = np.fromfile(str(p), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise SourceError(f"cannot decode {p} as an image (expected PNG, JPEG, BMP, WebP or TIFF)")
    return image


class ImageSource(_Closing):
    """One still image, or every image of a folder in name order."""

    def __init__(self, path: str | Path) -> None:
        p = Path(path)
        if p.is_dir():
            self.paths = sorted(q for q in p.iterdir() if q.suffix.lower() in IMAGE_SUFFIXES)
            if not self.paths:
                if any(q.suffix.lower() in HEIC_SUFFIXES for q in p.iterdir()):
                    raise SourceError(f"folder {p} holds only HEIC photos: {HEIC_ADVICE}")
                raise SourceError(f"folder {p} holds no images ({', '.join(sorted(IMAGE_SUFFIXES))})")
        elif p.is_file():
            self.paths = [p]
        else:
            raise SourceError(f"image source not found: {p}")

    def __iter__(self) -> Iterator[Frame]:
        for i, p in enumerate(self.paths):
            yield Frame(read_image(p), i, float(i), p.name)


class CaptureSource(_Closing):
    """A ``cv2.VideoCapture``: a video file, a camera index or a stream URL.

    ``max_frames`` bounds the stream; ``realtime`` stamps frames with wall time instead of the
    container's position.

    :meth:`close` may be called from another thread while a frame is being read: the capture is
    released only once no read is under way (by the reader on its way out), and the iteration ends.
    Releasing a ``cv2.VideoCapture`` under a running ``read`` is undefined behaviour in OpenCV.
    """

    def __init__(
        self,
        target: str | int,
        *,
        max_frames: int | None = None,
        width: int | None = None,
        height: int | None = None,
    ) -> None:
        self.target = target
        self.capture = cv2.VideoCapture(target)
        if not self.capture.isOpened():
            raise SourceError(
                f"cannot open video source {target!r} (expected a video file, a camera index or a stream URL)"
            )
        if width:
            self.capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        if height:
            self.capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self.max_frames = max_frames
        self.live = isinstance(target, int)
        self._lock = threading.Lock()
        self._reading = False
        self._closing = False
        self._released = False

    def __iter__(self) -> Iterator[Frame]:
        i = 0
        start = time.monotonic()
        while self.max_frames is None or i < self.max_frames:
            got = self._read()
            if got is None:
                return
            image, position_ms = got
            stamp = time.monotonic() - start if self.live else position_ms / 1000.0
            yield Frame(image, i, stamp, str(self.target))
            i += 1

    def _read(self) -> tuple[np.ndarray, float] | None:
        """The next image and its position in ms; None at the end or once closing."""
        with self._lock:
            if self._closing:
                return None
            self._reading = True
        try:
            ok, image = self.capture.read()
            position_ms = float(self.capture.get(cv2.CAP_PROP_POS_MSEC)) if ok else 0.0
        finally:
            with self._lock:
                self._reading = False
                release = self._closing and not self._released
                self._released = self._released or release
            if release:
                self.capture.release()
        if not ok or image is None or release:
            return None
        return image, position_ms

    def close(self) -> None:
        """Release the capture now, or, when another thread is reading, as soon as its read returns."""
        with self._lock:
            self._closing = True
            if self._reading or self._released:
                return
            self._released = True
        self.capture.release()


class RecordedSource(_Closing):
    """Frames held in memory (tests, replays, the simulated camera) at a fixed frame rate."""

    def __init__(self, images: Iterable[np.ndarray], fps: float = 30.0) -> None:
        self.images = list(images)
        if fps <= 0:
            raise SourceError(f"fps must be positive, got {fps}")
        self.fps = fps
        for i, im in enumerate(self.images):
            if not isinstance(im, np.ndarray) or im.ndim != 3 or im.shape[2] != 3:
                raise SourceError(f"recorded frame {i} is not a BGR image (H×W×3 array)")

    def __iter__(self) -> Iterator[Frame]:
        for i, im in enumerate(self.images):
            yield Frame(im, i, i / self.fps, f"frame{i}")


def open_source(spec: str | int, *, max_frames: int | None = None) -> ImageSource | CaptureSource:
    """Open ``spec``: image file or folder, video file, camera index or URL."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isdigit()):
        return CaptureSource(int(spec), max_frames=max_frames)
    if "://" in spec:
        return CaptureSource(spec, max_frames=max_frames)
    p = Path(spec)
    if p.is_dir() or p.suffix.lower() in IMAGE_SUFFIXES:
        return ImageSource(p)
    if p.is_file() and p.suffix.lower() in HEIC_SUFFIXES:
        raise SourceError(f"{p}: {HEIC_ADVICE}")
    if p.is_file():
        return CaptureSource(str(p), max_frames=max_frames)
    raise SourceError(
        f"source {spec!r} not found: expected an image, a folder of images, a video file, "
        "a camera index or a URL"
    )
