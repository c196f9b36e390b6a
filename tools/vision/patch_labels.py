"""How a patch is labelled from where an index box lies in it: shared by the chunk drawer
(``train_patch_reader.py``) and the miner of the recogniser's own cuts (``scene_patches.py``), and
free of torch so that the project's own venv can import it.

An index box is sampled at a 5 × 5 grid of points; the share of them that lie upright inside the
patch (and uncovered) is how much of it shows. At ``SHOWS`` or more the patch shows that index, at
``HIDDEN`` or less it does not, and in between it is left out of the loss (``IGNORE``).
"""

from __future__ import annotations

import numpy as np

IGNORE = -100  # a class left out of the loss (torch's ``ignore_index``)
SHOWS, HIDDEN = 0.85, 0.35
# the sample points, as fractions of a box's width and height
GRID = np.stack(np.meshgrid(np.linspace(0.05, 0.95, 5), np.linspace(0.05, 0.95, 5)), -1).reshape(-1, 2)


def label_of(share: float) -> int:
    """1 where an index box shows (``share`` of it at least ``SHOWS``), 0 where it does not (at most
    ``HIDDEN``), -1 in between (left out of the loss)."""
    return 1 if share >= SHOWS else 0 if share <= HIDDEN else -1
