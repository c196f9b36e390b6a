"""Card recognition with OpenCV: frame sources, detection, index reading, calibration, tracking.

Never imports :mod:`dealer` or :mod:`firmware_bridge`; it reports plain card codes with evidence.

Public API::

    from vision import Recognizer, Sighting, SimulatedCamera, open_source, TableTracker, ShoeTracker
    from vision import annotate, write_image  # draw what was seen, to check a camera's view
    from vision import check_view, annotated_jpeg  # advice on the camera's set-up; a frame for a page
"""

from __future__ import annotations

from vision.annotate import annotate, annotated_jpeg, write_image
from vision.calibration import NEW_DECK_ORDER, Calibration
from vision.errors import CalibrationError, FrameError, ModelError, SightingError, SourceError, VisionError
from vision.live import LiveRecognizer
from vision.recognizer import Recognizer, recognize
from vision.sighting import BACK, CODES, JOKER, Sighting, is_card_code
from vision.simcam import Placement, SimFrame, SimulatedCamera
from vision.sources import (
    CaptureSource,
    Frame,
    FrameSource,
    ImageSource,
    RecordedSource,
    open_source,
    read_image,
)
from vision.tracking import CardEvent, ShoeTracker, TableTracker
from vision.view_check import Advice, ViewCheck, check_view

__all__ = [
    "Advice",
    "BACK",
    "CODES",
    "JOKER",
    "NEW_DECK_ORDER",
    "Calibration",
    "CalibrationError",
    "CaptureSource",
    "CardEvent",
    "Frame",
    "FrameError",
    "FrameSource",
    "ImageSource",
    "LiveRecognizer",
    "ModelError",
    "Placement",
    "Recognizer",
    "RecordedSource",
    "ShoeTracker",
    "SightingError",
    "SimFrame",
    "SimulatedCamera",
    "Sighting",
    "SourceError",
    "TableTracker",
    "ViewCheck",
    "VisionError",
    "annotate",
    "annotated_jpeg",
    "check_view",
    "is_card_code",
    "open_source",
    "read_image",
    "recognize",
    "write_image",
]
