"""The exceptions raised by :mod:`vision`, one hierarchy rooted at :class:`VisionError`."""

from __future__ import annotations


class VisionError(Exception):
    """Base of every error raised by the vision package."""


class SightingError(VisionError, ValueError):
    """A sighting was built from invalid values (bad card code, confidence or outline)."""


class FrameError(VisionError, ValueError):
    """A frame given to recognition is not one it can read (not an H×W×3 uint8 BGR image, or too small),
    or the window to look at lies outside it."""


class SourceError(VisionError, OSError):
    """A frame source could not be opened or read."""


class CalibrationError(VisionError, ValueError):
    """A calibration could not be learned, saved or loaded."""


class ModelError(VisionError, RuntimeError):
    """The shipped glyph model is missing or unreadable."""
