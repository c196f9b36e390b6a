"""Downscaled copies of the frame being recognised, made once and shared by the steps that need one;
and the same for any other work on that frame (``remembered``): a corner read twice by two steps.

The threshold finder and the colour search both look at the frame 640 px wide, the learned finder
and the corner refiner both start from its halving; on a 1080p frame each copy costs 0.3-0.7 ms.
``Recognizer.recognize`` opens a scope for its frame (``sharing``); inside it ``resized`` of that
very array at a size already made returns the copy made before. Outside a scope, or for any other
array, it is a plain ``cv2.resize``. A scope ends with its call, so a camera that reuses its buffer
for the next frame never gets a stale copy.

>>> import numpy as np
>>> frame = np.zeros((8, 8, 3), np.uint8)
>>> with sharing(frame):
...     resized(frame, (4, 4)) is resized(frame, (4, 4))
True
>>> resized(frame, (4, 4)) is resized(frame, (4, 4))
False
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TypeVar

import cv2
import numpy as np

T = TypeVar("T")


@dataclass
class _Copies:
    frame: np.ndarray
    by_size: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    done: dict[Hashable, object] = field(default_factory=dict)


_current: ContextVar[_Copies | None] = ContextVar("vision_frame_copies", default=None)


@contextmanager
def sharing(frame: np.ndarray) -> Iterator[None]:
    """Within this block, copies of ``frame`` made by ``resized`` are made once."""
    token = _current.set(_Copies(frame))
    try:
        yield
    finally:
        _current.reset(token)


def resized(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``image`` resized (bilinear) to ``size`` (width, height); shared within a ``sharing`` scope of
    this very array. The copy returned may be shared: callers do not write into it."""
    copies = _current.get()
    if copies is None or copies.frame is not image:
        return bilinear(image, size)
    if size not in copies.by_size:
        copies.by_size[size] = bilinear(image, size)
    return copies.by_size[size]


def remembered(frame: np.ndarray, key: Hashable, make: Callable[[], T]) -> T:
    """``make()``, done once per ``key`` within a ``sharing`` scope of this very ``frame`` (its result
    shared: callers do not change it); outside one, done every time."""
    return remembered_each(frame, [key], lambda _: [make()])[0]


def remembered_each(frame: np.ndarray, keys: list[Hashable], make: Callable[[list[int]], list[T]]) -> list[T]:
    """``remembered`` for many at once: ``make(indices)`` makes the results for the ``keys`` at those
    indices not done yet within a ``sharing`` scope of ``frame`` (all of them outside one), in one go."""
    copies = _current.get()
    if copies is None or copies.frame is not frame:
        return make(list(range(len(keys))))
    todo = [i for i, k in enumerate(keys) if k not in copies.done]
    for i, made in zip(todo, make(todo) if todo else [], strict=True):
        copies.done[keys[i]] = made
    return [copies.done[k] for k in keys]  # type: ignore[misc]


def bilinear(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``cv2.resize`` of ``image`` to ``size`` (width, height), bilinear. Shrunk by one odd whole
    factor k both ways (1920×1080 to 640×360), each output pixel's centre falls on a source pixel's
    centre (k x + (k - 1) / 2): that pixel is copied as it is, as nearest-exact resizing copies it,
    in half the time (the same bytes, ``tests/vision/test_speed_equivalences.py``)."""
    h, w = image.shape[:2]
    k = w // max(size[0], 1)
    if k > 1 and k % 2 == 1 and (w, h) == (k * size[0], k * size[1]):
        return cv2.resize(image, size, interpolation=cv2.INTER_NEAREST_EXACT)
    return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)


def subsampled(image: np.ndarray, step: int) -> np.ndarray:
    """``image[::step, ::step]``, contiguous. Where ``step`` divides both sides, by nearest-neighbour
    resizing, which picks those very pixels several times faster than numpy's strided copy."""
    h, w = image.shape[:2]
    if h % step or w % step:
        return np.ascontiguousarray(image[::step, ::step])
    return cv2.resize(image, (w // step, h // step), interpolation=cv2.INTER_NEAREST)
