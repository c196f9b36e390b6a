"""A video file of a still table (the project's render of a row of cards), for camera tests."""

from __future__ import annotations

from pathlib import Path

import cv2

import vision


def table_video(path: Path, cards: list[str], frames: int, size: tuple[int, int] = (960, 540)) -> Path:
    """Write ``frames`` identical frames of ``cards`` in a row, 150 px wide on felt, to ``path`` (MJPG)."""
    camera = vision.SimulatedCamera(size=size, background="felt", seed=5, card_width=150)
    still = camera.frame_for(cards, layout="row").image
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, size)
    for _ in range(frames):
        writer.write(still)
    writer.release()
    return path
