"""A real camera watching the shoe window or the table, in its own thread.

Each frame goes through the recognizer (a table's only when the table changed: ``vision.LiveRecognizer``)
and a tracker; a card becomes an event once it is stable
over a few frames (one event per pass through a shoe window), and a reading that changes is a
correction, not a new card. Video files and stream URLs work the same way as a camera index.

Stopping coordinates with the camera thread: once :meth:`CameraWatcher.stop` returns, no card or
correction is being delivered and none will be, so the table may close right after it, even when
the thread is still stuck reading a stalled stream (its source is closed under the same protocol).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import vision
from dealer.table.camera_view import ViewRecorder

log = logging.getLogger(__name__)


@dataclass
class CameraWatcher:
    source: str  # a camera index ("0"), a video file or a stream URL
    on_card: Callable[[str], None]  # a new card was seen
    on_correction: Callable[[str, str], None]  # (was read as, really is)
    mode: str = "shoe"
    window: tuple[int, int, int, int] | None = None
    calibration: Path | None = None
    frames: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _source: vision.FrameSource | None = None
    _delivering: threading.Lock = field(default_factory=threading.Lock)
    # the last frame recognised, the timing and the frames skipped, for the camera page
    view: ViewRecorder = field(init=False)

    def __post_init__(self) -> None:
        self.view = ViewRecorder(self.source, self.mode)

    @property
    def bad_frames(self) -> int:
        """Frames recognition could not read (wrong size or type, the window outside the frame)."""
        return self.view.bad_frames

    def start(self) -> None:
        calibration = vision.Calibration.load(self.calibration) if self.calibration else None
        reader = vision.Recognizer(self.mode, window=self.window, calibration=calibration)  # type: ignore[arg-type]
        # a table lies still most of the time: its frames are read only when it changed
        recognizer = vision.LiveRecognizer(reader) if self.mode == "table" else reader
        tracker = vision.ShoeTracker() if self.mode == "shoe" else vision.TableTracker()
        source = vision.open_source(self.source)  # fails here, at start, on a bad source
        self._source = source
        self._thread = threading.Thread(target=self._run, args=(source, recognizer, tracker),
                                        name="camera", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop watching. Waits for a card being delivered; none is delivered after this returns."""
        self._stop.set()
        if self._source is not None:
            self._source.close()  # ends a read under way as soon as it returns
        with self._delivering:
            pass  # a delivery that started before the stop has finished; later ones see the stop
        if self._thread is not None:
            self._thread.join(timeout=10)

    def wait(self, timeout: float | None = None) -> None:
        """Until the source ends (a video file) or ``stop``."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self, source: vision.FrameSource, recognizer: vision.Recognizer | vision.LiveRecognizer,
             tracker: vision.ShoeTracker | vision.TableTracker) -> None:
        try:
            for frame in source:
                if self._stop.is_set():
                    break
                self.frames += 1
                started = time.perf_counter()
                try:
                    sightings = recognizer.recognize(frame.image)
                except vision.FrameError as exc:
                    # one bad frame (or a camera whose size no longer fits the window) is skipped, not
                    # the end of the camera; said once until the problem changes, not thirty times a second
                    if self.view.skipped(str(exc)):
                        log.warning("camera %s: frame %d skipped: %s", self.source, self.frames, exc)
                    continue
                self.view.record(frame.image, sightings, 1000 * (time.perf_counter() - started),
                                 read=getattr(recognizer, "read_last", True))
                for event in tracker.update(sightings):
                    with self._delivering:
                        if self._stop.is_set():
                            return
                        if event.kind == "new":
                            self.on_card(event.card)
                        elif event.kind == "correction" and event.previous is not None:
                            self.on_correction(event.previous, event.card)
        except Exception:  # a camera failure must not take the table down: it shows as missed cards
            log.exception("camera %s stopped", self.source)
        finally:
            source.close()
