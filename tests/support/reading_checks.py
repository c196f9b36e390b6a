"""Checks the vision tests share about what the recogniser reads in a frame."""

from __future__ import annotations

from collections import Counter

import numpy as np

from vision import Recognizer


def reads_more_with(rec: Recognizer, image: np.ndarray, codes: list[str], read: int, switch: str) -> None:
    """Assert that ``rec`` reads at least ``read`` of ``codes`` in ``image`` and no card that is not
    there, and fewer than ``read`` once its step named ``switch`` (a ``Recognizer`` flag) is off."""
    want = Counter(codes)
    found = Counter(s.card for s in rec.recognize(image))
    assert sum((found & want).values()) >= read
    assert not found - want  # no card that is not there
    setattr(rec, switch, False)
    assert sum((Counter(s.card for s in rec.recognize(image)) & want).values()) < read
