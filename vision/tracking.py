"""Temporal stability: turn per-frame sightings into card events.

* :class:`TableTracker` — a card becomes a ``new`` event once, after it has been read the same way in
  ``confirm`` of the last frames; a confirmed card whose reading settles on another code gives a
  ``correction`` (old → new), never a second card; a card unseen for ``forget`` frames is ``gone``.
* :class:`ShoeTracker` — each pass of a card through the window is exactly one ``new`` event; a
  different stable reading during the same pass is a ``correction``.

>>> from vision.sighting import Sighting
>>> box = ((0, 0), (60, 0), (60, 84), (0, 84))
>>> t = ShoeTracker(confirm=2, clear=2)
>>> frames = [[], [Sighting("AS", .9, box)], [Sighting("AS", .9, box)], [Sighting("AS", .9, box)], [], []]
>>> [(e.kind, e.card) for f in frames for e in t.update(f)]
[('new', 'AS')]
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from vision.sighting import Sighting

EventKind = Literal["new", "correction", "gone"]


@dataclass(frozen=True)
class CardEvent:
    """A stable change: ``new`` card, ``correction`` of an earlier reading, or card ``gone``."""

    kind: EventKind
    card: str
    track: int
    frame: int
    previous: str | None = None
    sighting: Sighting | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "event": self.kind,
            "card": self.card,
            "track": self.track,
            "frame": self.frame,
        }
        if self.previous is not None:
            out["previous"] = self.previous
        if self.sighting is not None:
            out["confidence"] = round(self.sighting.confidence, 4)
            out["outline"] = [[round(x, 1), round(y, 1)] for x, y in self.sighting.outline]
        return out


@dataclass
class _Track:
    ident: int
    centre: np.ndarray
    size: float
    history: deque[str]
    last_seen: int
    confirmed: str | None = None
    last: Sighting | None = None


def _size(s: Sighting) -> float:
    pts = np.array(s.outline)
    a, b = pts[1] - pts[0], pts[-1] - pts[0]
    return float(np.sqrt(max(1.0, abs(float(a[0] * b[1] - a[1] * b[0])))))


def _stable(history: deque[str], confirm: int) -> str | None:
    if len(history) < confirm:
        return None
    recent = list(history)[-confirm:]
    code, n = Counter(recent).most_common(1)[0]
    return code if n == confirm else None


@dataclass
class TableTracker:
    """Debounce table sightings into events, following each card by position."""

    confirm: int = 3
    forget: int = 15
    frame: int = 0
    tracks: list[_Track] = field(default_factory=list)
    _next: int = 1

    def update(self, sightings: list[Sighting]) -> list[CardEvent]:
        events: list[CardEvent] = []
        unmatched = list(range(len(self.tracks)))
        for s in sorted(sightings, key=lambda s: -s.confidence):
            c = np.array(s.centre)
            best, best_d = None, 0.0
            for i in unmatched:
                t = self.tracks[i]
                d = float(np.linalg.norm(t.centre - c))
                if d < 0.6 * t.size and (best is None or d < best_d):
                    best, best_d = i, d
            if best is None:
                self.tracks.append(
                    _Track(self._next, c, _size(s), deque(maxlen=2 * self.confirm), self.frame)
                )
                self._next += 1
                t = self.tracks[-1]
            else:
                unmatched.remove(best)
                t = self.tracks[best]
            t.centre, t.size, t.last_seen, t.last = c, _size(s), self.frame, s
            t.history.append(s.card)
            code = _stable(t.history, self.confirm)
            if code is not None and code != t.confirmed:
                kind: EventKind = "new" if t.confirmed is None else "correction"
                events.append(CardEvent(kind, code, t.ident, self.frame, t.confirmed, s))
                t.confirmed = code
        keep = []
        for t in self.tracks:
            if self.frame - t.last_seen >= self.forget:
                if t.confirmed is not None:
                    events.append(CardEvent("gone", t.confirmed, t.ident, self.frame))
            else:
                keep.append(t)
        self.tracks = keep
        self.frame += 1
        return events


@dataclass
class ShoeTracker:
    """One event per pass of a card through the shoe window.

    A pass starts when a card is read and ends after ``clear`` frames with no card.
    """

    confirm: int = 2
    clear: int = 3
    frame: int = 0
    history: deque[str] = field(default_factory=lambda: deque(maxlen=8))
    emitted: str | None = None
    empty_run: int = 0
    passes: int = 0

    def update(self, sightings: list[Sighting]) -> list[CardEvent]:
        events: list[CardEvent] = []
        s = max(sightings, key=lambda x: x.confidence) if sightings else None
        if s is None:
            self.empty_run += 1
            if self.empty_run >= self.clear:
                if self.emitted is not None:
                    self.passes += 1
                self.history.clear()
                self.emitted = None
        else:
            self.empty_run = 0
            self.history.append(s.card)
            code = _stable(self.history, self.confirm)
            if code is not None and code != self.emitted:
                kind: EventKind = "new" if self.emitted is None else "correction"
                events.append(CardEvent(kind, code, self.passes + 1, self.frame, self.emitted, s))
                self.emitted = code
        self.frame += 1
        return events
