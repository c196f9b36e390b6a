"""What the table's camera saw last, for the host checking its set-up from a phone.

The camera thread (a real camera's :class:`~dealer.table.camera.CameraWatcher`, or the simulated
table's camera) records each frame it recognised in a :class:`ViewRecorder`; the API asks it for the
latest frame drawn with its readings, the advice :func:`vision.check_view` gives on it, and how fast
recognition keeps up. Recording only keeps a reference to the frame: drawing, checking and encoding
happen when someone asks, off the camera thread.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from statistics import median
from typing import Any

import numpy as np

import vision
from vision.annotate import SURE  # below this a reading is drawn amber (and called unsure)

KEEP = 30  # frames whose timing the status summarises


@dataclass(frozen=True)
class CameraView:
    """One recognised frame: the image, what was read in it, its number and when it was read."""

    image: np.ndarray
    sightings: tuple[vision.Sighting, ...]
    frame: int
    at: float  # wall-clock time (time.time()) the reading finished
    ms: float  # how long recognition took


@dataclass
class ViewRecorder:
    """The latest recognised frame and the recent timing, shared between the camera thread (which
    records) and the API (which reads). Thread-safe."""

    source: str
    mode: str
    clock: Callable[[], float] = time.time
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _latest: CameraView | None = None
    _latest_seen: CameraView | None = None  # the last frame with a card in it
    _frames: int = 0
    _read: int = 0  # of those, frames recognition read (a still table's are answered without a read)
    _bad: int = 0
    _last_bad: str = ""
    _times: deque[float] = field(default_factory=lambda: deque(maxlen=KEEP))  # when each frame came
    _read_ms: deque[float] = field(default_factory=lambda: deque(maxlen=KEEP))  # how long each read took
    _checked: tuple[int, dict[str, Any]] | None = None  # the last frame checked, and the check

    def record(
        self, image: np.ndarray, sightings: Sequence[vision.Sighting], ms: float, *, read: bool = True
    ) -> None:
        """A frame was recognised in ``ms`` milliseconds: ``read``, or (a still table's frame, see
        ``vision.LiveRecognizer``) answered with what the last reads agreed on."""
        now = self.clock()
        with self._lock:
            self._frames += 1
            self._latest = CameraView(image, tuple(sightings), self._frames, now, ms)
            if sightings:
                self._latest_seen = self._latest
            self._times.append(now)
            if read:
                self._read += 1
                self._read_ms.append(ms)

    def skipped(self, reason: str) -> bool:
        """A frame recognition could not read (``vision.FrameError``): counted, and the reason kept.
        Whether the reason differs from the last skipped frame's: say it then, and not again thirty
        times a second while the problem lasts."""
        with self._lock:
            self._bad += 1
            new = reason != self._last_bad
            self._last_bad = reason
            return new

    @property
    def bad_frames(self) -> int:
        with self._lock:
            return self._bad

    def latest(self) -> CameraView | None:
        """The frame to show: the latest one; for a shoe camera the latest with a card in it (its
        window is empty between cards, and an empty window says nothing about the set-up)."""
        with self._lock:
            if self.mode == "shoe" and self._latest_seen is not None:
                return self._latest_seen
            return self._latest

    def status(self) -> dict[str, Any]:
        """Frames recognised, of those read, and skipped; the median time of the last ``KEEP`` reads
        (``ms_per_frame``: how long the recogniser takes over a frame) and the frame rate over the last
        ``KEEP`` frames (None until there are two)."""
        with self._lock:
            times, reads = list(self._times), list(self._read_ms)
            frames, read, bad, last_bad = self._frames, self._read, self._bad, self._last_bad
        fps = None
        if len(times) >= 2 and times[-1] > times[0]:
            fps = round((len(times) - 1) / (times[-1] - times[0]), 2)
        return {
            "source": self.source,
            "mode": self.mode,
            "frames": frames,
            "frames_read": read,
            "bad_frames": bad,
            "last_bad_frame": last_bad or None,
            "ms_per_frame": round(median(reads), 1) if reads else None,
            "frames_per_second": fps,
        }

    def report(self) -> dict[str, Any]:
        """The status, the latest frame's readings and the set-up advice on it (no image)."""
        out = self.status()
        view = self.latest()
        if view is None:
            out.update(frame=None, seen=[], check=None)
            return out
        out.update(
            frame={"number": view.frame, "age_s": round(max(0.0, self.clock() - view.at), 2),
                   "ms": round(view.ms, 1)},
            seen=[{"card": s.card, "confidence": round(s.confidence, 3),
                   "unsure": s.card != vision.BACK and s.confidence < SURE} for s in view.sightings],
            check=self._check(view),
        )
        return out

    def _check(self, view: CameraView) -> dict[str, Any]:
        """The set-up advice on ``view``, worked out once a frame however often the page asks (a
        shoe camera shows one frame until the next card, a still table many times over)."""
        checked = self._checked
        if checked is not None and checked[0] == view.frame:
            return checked[1]
        check = vision.check_view(view.image, view.sightings).to_json()
        self._checked = (view.frame, check)
        return check

    def jpeg(self) -> tuple[int, bytes] | None:
        """The latest frame's number and the frame with its readings drawn, as JPEG; None before the
        first frame."""
        view = self.latest()
        return None if view is None else (view.frame, vision.annotated_jpeg(view.image, view.sightings))
