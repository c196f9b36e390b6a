"""A frame recognition cannot read gives a ``FrameError`` naming what it got and what it expects;
any frame it can read, however small or noisy, gives a list of sightings and never an error from
deeper down (OpenCV's, or one of the networks' input checks)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vision import FrameError, Recognizer, SimulatedCamera, VisionError
from vision.sighting import CODES
from vision.simcam import BACKGROUNDS


@pytest.mark.parametrize(
    ("frame", "named"),
    [
        (np.zeros((300, 400, 3)), "float64"),  # a float image
        (np.zeros((300, 400, 3), np.uint16), "uint16"),  # a 16-bit one
        (np.zeros((300, 400, 3), bool), "bool"),
        (np.zeros((300, 400), np.uint8), r"shape \(300, 400\)"),  # greyscale
        (np.zeros((300, 400, 4), np.uint8), r"shape \(300, 400, 4\)"),  # with alpha
        (np.zeros((0, 0, 3), np.uint8), "0×0"),  # an empty grab
        (np.zeros((1, 500, 3), np.uint8), "500×1"),  # a one-line frame
        ([[0, 0, 0]], "list"),
    ],
)
@pytest.mark.parametrize("mode", ["table", "shoe"])
def test_a_frame_recognition_cannot_read_is_a_frame_error_naming_it(
    frame: object, named: str, mode: str
) -> None:
    with pytest.raises(FrameError, match=named) as caught:
        Recognizer(mode).recognize(frame)  # type: ignore[arg-type]
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, VisionError)
    assert "expects" in str(caught.value)  # and says what it expects


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    height=st.integers(2, 70),
    width=st.integers(2, 70),
    seed=st.integers(0, 2**32 - 1),
    kind=st.sampled_from(["noise", "speckle", "flat"]),
)
def test_any_small_or_noisy_frame_gives_sightings_not_an_error(
    table_recognizer: Recognizer, shoe_recognizer: Recognizer, height: int, width: int, seed: int, kind: str
) -> None:
    # before: a 2×3 frame of noise made the colour search pass a quad of no area to the card-side
    # network (CardSideError), and a frame one pixel high stopped in the corner refiner
    rng = np.random.default_rng(seed)
    if kind == "noise":
        frame = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    elif kind == "speckle":
        frame = np.where(rng.random((height, width, 1)) < 0.5, 250, 20).astype(np.uint8).repeat(3, axis=2)
    else:
        frame = np.full((height, width, 3), int(rng.integers(0, 256)), np.uint8)
    for recognizer in (table_recognizer, shoe_recognizer):
        assert isinstance(recognizer.recognize(frame), list)


def test_a_window_outside_the_frame_is_a_frame_error_naming_both() -> None:
    frame = SimulatedCamera(size=(400, 300), seed=1).frame_for(["QH"], "row").image
    with pytest.raises(FrameError, match=r"window \(500, 500, 50, 50\).*400×300 frame"):
        Recognizer("shoe", window=(500, 500, 50, 50)).recognize(frame)
    # partly outside is fine: the part inside is looked at
    assert isinstance(Recognizer("shoe", window=(300, 200, 500, 500)).recognize(frame), list)


@pytest.mark.parametrize("window", [(-5, 0, 50, 50), (0, 0, 0, 40), (0, 0, 40, 1), (1, 2, 3), ("a", 0, 1, 1)])
def test_a_window_of_no_size_or_off_the_top_left_is_refused_when_the_recogniser_is_made(
    window: object,
) -> None:
    with pytest.raises(FrameError, match="window"):
        Recognizer("shoe", window=window)  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.tuples(st.integers(120, 640), st.integers(90, 480)),
    background=st.sampled_from(BACKGROUNDS),
    layout=st.sampled_from(["row", "scatter", "hand", "fan", "spread"]),
    width=st.floats(0.03, 0.4),
    codes=st.lists(st.sampled_from(CODES), min_size=1, max_size=10),
    cut=st.tuples(st.floats(0, 0.5), st.floats(0, 0.5), st.floats(0.1, 1), st.floats(0.1, 1)),
    seed=st.integers(0, 2**16),
)
def test_any_cut_of_a_rendered_table_gives_sightings_not_an_error(
    table_recognizer: Recognizer,
    size: tuple[int, int],
    background: str,
    layout: str,
    width: float,
    codes: list[str],
    cut: tuple[float, float, float, float],
    seed: int,
) -> None:
    # cards of any size cut anywhere by the frame's edge: the searches' guesses at such cards can come out
    # of no area (a 20-px card's two sides snapped onto one edge stopped a held-out photo's read)
    w, h = size
    cam = SimulatedCamera(size=size, background=background, seed=seed, card_width=width * min(w, h))
    frame = cam.frame_for(codes, layout).image
    x0, y0 = int(cut[0] * w), int(cut[1] * h)
    part = frame[y0 : y0 + max(16, int(cut[3] * (h - y0))), x0 : x0 + max(16, int(cut[2] * (w - x0)))]
    assert isinstance(table_recognizer.recognize(np.ascontiguousarray(part)), list)
