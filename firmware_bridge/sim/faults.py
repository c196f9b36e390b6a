"""Fault injection between a simulated device and its wire.

Link faults act on whole outgoing frames (device → host) or on incoming chunks (host → device):

================  ===========================================================================
``garbage``       random bytes (zeros included) before the frame
``bitflip``       one bit of the frame flipped
``drop``          the frame is never sent
``duplicate``     the frame is sent twice
``split``         the frame is sent in two pieces a few milliseconds apart
``delay``         the line stalls 10-80 ms before the frame (everything after waits too)
``drop_in``       a chunk from the host is lost
``flip_in``       one bit of a chunk from the host is flipped
``vanish``        the port disappears for a moment and comes back (handled by the runner)
``vanish_write``  the port disappears while a frame from the host is arriving: the device keeps only the
                  first bytes of the chunk (a command cut mid-frame, never executed) and the port is gone
                  while the host is still writing and reading; it comes back a moment later
================  ===========================================================================

Device faults (``reset``, ``jam``, ``empty``, ``misread``, ``door``, ``home_fail``) are applied to the
core directly by the runner's control channel.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from dataclasses import dataclass

OUT_FAULTS = ("garbage", "bitflip", "drop", "duplicate", "split", "delay")
IN_FAULTS = ("drop_in", "flip_in", "vanish_write")
LINK_FAULTS = OUT_FAULTS + IN_FAULTS + ("vanish",)
#: default chaos mix: cheap faults often, a vanishing port rarely
CHAOS_WEIGHTS = {"garbage": 10, "bitflip": 10, "drop": 10, "duplicate": 10, "split": 10, "delay": 6,
                 "drop_in": 6, "flip_in": 6, "vanish": 0.3, "vanish_write": 0.3}


@dataclass
class Chunk:
    delay: float  # seconds to stall the line before these bytes
    data: bytes


class FaultInjector:
    """Applies one-shot faults (queued by name) and random chaos faults to the device's traffic."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.queued: deque[str] = deque()
        self.injected: Counter[str] = Counter()
        self.chaos_left = 0
        self.chaos_rate = 0.0
        self.chaos_kinds: list[str] = []
        self.chaos_weights: list[float] = []
        self.vanish_requested = 0.0

    def queue(self, kind: str, count: int = 1) -> None:
        if kind not in LINK_FAULTS:
            raise ValueError(f"unknown link fault {kind!r}; expected one of {', '.join(LINK_FAULTS)}")
        self.queued.extend([kind] * count)

    def chaos(self, count: int, rate: float = 0.2, kinds: list[str] | None = None) -> None:
        chosen = kinds or list(CHAOS_WEIGHTS)
        unknown = [k for k in chosen if k not in LINK_FAULTS]
        if unknown:
            raise ValueError(f"unknown link faults {unknown}; expected some of {', '.join(LINK_FAULTS)}")
        self.chaos_left, self.chaos_rate = count, rate
        self.chaos_kinds = chosen
        self.chaos_weights = [CHAOS_WEIGHTS.get(k, 1.0) for k in chosen]

    def _pick(self, allowed: tuple[str, ...]) -> str | None:
        for index, kind in enumerate(self.queued):
            if kind in allowed:
                del self.queued[index]
                return kind
        if self.chaos_left > 0 and self.rng.random() < self.chaos_rate:
            kind = self.rng.choices(self.chaos_kinds, self.chaos_weights)[0]
            if kind in allowed:
                self.chaos_left -= 1
                return kind
        return None

    def outgoing(self, frame: bytes) -> list[Chunk]:
        kind = self._pick(OUT_FAULTS + ("vanish",))
        if kind is None:
            return [Chunk(0.0, frame)]
        self.injected[kind] += 1
        rng = self.rng
        if kind == "vanish":
            self.vanish_requested = rng.uniform(0.05, 0.3)
            return [Chunk(0.0, frame)]
        if kind == "garbage":
            junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 24)))
            return [Chunk(0.0, junk + frame)]
        if kind == "bitflip":
            data = bytearray(frame)
            bit = rng.randrange((len(data) - 1) * 8)  # never the delimiter
            data[bit // 8] ^= 1 << (bit % 8)
            return [Chunk(0.0, bytes(data))]
        if kind == "drop":
            return []
        if kind == "duplicate":
            return [Chunk(0.0, frame), Chunk(0.0, frame)]
        if kind == "split":
            cut = rng.randint(1, len(frame) - 1)
            return [Chunk(0.0, frame[:cut]), Chunk(rng.uniform(0.001, 0.005), frame[cut:])]
        return [Chunk(rng.uniform(0.01, 0.08), frame)]  # delay

    def incoming(self, data: bytes) -> bytes:
        kind = self._pick(IN_FAULTS)
        if kind is None or not data:
            return data
        self.injected[kind] += 1
        if kind == "drop_in":
            return b""
        if kind == "vanish_write":
            self.vanish_requested = self.rng.uniform(0.05, 0.3)
            return data[:self.rng.randrange(len(data))]
        out = bytearray(data)
        bit = self.rng.randrange(len(out) * 8)
        out[bit // 8] ^= 1 << (bit % 8)
        return bytes(out)

    def take_vanish(self) -> float:
        seconds, self.vanish_requested = self.vanish_requested, 0.0
        return seconds

    def to_dict(self) -> dict[str, object]:
        return {"injected": dict(self.injected), "total": sum(self.injected.values()),
                "chaos_left": self.chaos_left, "queued": len(self.queued)}
