"""Randomness for shuffles, cut-card placement, dice and reels.

By default every draw comes from the operating system's CSPRNG (:mod:`secrets`). A seed exists only
for replay and tests: :meth:`Rng.from_seed` gives a reproducible stream, and its seed is recorded in
the event log so the same shuffle can be rebuilt.

>>> a, b = Rng.from_seed(7), Rng.from_seed(7)
>>> a.shuffled(range(10)) == b.shuffled(range(10))
True
>>> Rng.system().seed is None
True
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from typing import TypeVar

import numpy as np

T = TypeVar("T")


class Rng:
    """A source of uniform integers with an unbiased Fisher–Yates shuffle on top."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._seeded = None if seed is None else np.random.Generator(np.random.PCG64(seed))

    @classmethod
    def system(cls) -> Rng:
        return cls(None)

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        if seed < 0:
            raise ValueError(f"a replay seed is a non-negative integer, not {seed}")
        return cls(seed)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError(f"randbelow needs a positive bound, not {n}")
        if self._seeded is None:
            return secrets.randbelow(n)
        return int(self._seeded.integers(0, n))

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]`` (both ends included)."""
        return low + self.randbelow(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randbelow(len(items))]

    def shuffled(self, items: Iterable[T]) -> list[T]:
        """A uniformly random permutation (Fisher–Yates, one ``randbelow`` per position)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def dice(self, count: int = 3, sides: int = 6) -> tuple[int, ...]:
        return tuple(self.randint(1, sides) for _ in range(count))

    def numpy(self) -> np.random.Generator:
        """A numpy generator for batch simulation: the seeded stream, or one keyed by the CSPRNG."""
        if self._seeded is not None:
            return self._seeded
        return np.random.Generator(np.random.PCG64(secrets.randbits(128)))
