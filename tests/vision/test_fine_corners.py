"""A merged region's corners traced again beyond the threshold finder's working size
(``vision.detect._fine_corners``): big cards on a shrunk cut, the same corners as at full resolution."""

from __future__ import annotations

import numpy as np
import pytest

from vision import SimulatedCamera, detect
from vision.detect import CornerFrame


def _traced(monkeypatch: pytest.MonkeyPatch, image: np.ndarray) -> tuple[list[CornerFrame], list[int], float]:
    """The fine corners of ``image``'s one merged region, the pixel count of each cut traced, and the
    card width there (full-image pixels)."""
    frames: list[CornerFrame] = []
    cuts: list[int] = []
    widths: list[float] = []
    real_trace, real_min = detect._fine_corners, detect.min_channel

    def trace(image: np.ndarray, contour: np.ndarray, card_width: float, scale: float) -> list[CornerFrame]:
        out = real_trace(image, contour, card_width, scale)
        frames.extend(out)
        widths.append(card_width * scale)
        return out

    def darkest(image: np.ndarray) -> np.ndarray:
        cuts.append(image.shape[0] * image.shape[1])
        return real_min(image)

    monkeypatch.setattr(detect, "_fine_corners", trace)
    monkeypatch.setattr(detect, "min_channel", darkest)
    detect.detect_cards(image)
    monkeypatch.undo()
    assert len(widths) == 1, "one merged region: the hand"
    return frames, cuts, widths[0]


@pytest.mark.parametrize(("size", "card_width"), [((1920, 1080), 600), ((4032, 3024), 900)])
def test_a_big_hand_is_traced_shrunk_and_gives_the_corners_full_resolution_gives(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], card_width: int
) -> None:
    # a phone held close over a two-card hand: cards 600-900 px wide. Traced at full resolution the cut
    # is millions of pixels; shrunk by a whole factor to 240-480 px a card, its corners are the same
    image = (
        SimulatedCamera(size=size, background="felt", seed=3, card_width=card_width)
        .frame_for(["KH", "7C"], layout="hand")
        .image
    )
    shrunk, shrunk_cuts, width = _traced(monkeypatch, image)
    monkeypatch.setattr(detect, "FINE_WIDTH", 10**6)  # every card traced at full resolution
    full, full_cuts, _ = _traced(monkeypatch, image)
    k = int(width // detect.FINE_WIDTH)
    assert k >= 2
    # the fine trace's cut is the last darkest-channel image made: the threshold masks come first
    assert shrunk_cuts[-1] <= full_cuts[-1] / (k * k) + 2 * (full_cuts[-1] ** 0.5)
    assert len(full) >= 6  # both cards' visible corners
    for f in full:
        near = [g for g in shrunk if np.linalg.norm(g.origin - f.origin) < 0.1 * width]
        assert any(float(g.x @ f.x) > 0.99 for g in near), f"corner at {f.origin.round()} lost when shrunk"
    for g in shrunk:
        assert g.width == pytest.approx(width)  # full-image pixels, as the full trace gives
