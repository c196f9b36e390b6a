"""vision.LiveRecognizer: a camera's frames read only when the table changed, on rendered frames of one
table (each frame with its own sensor noise, as a camera's are)."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import vision.live
from vision import FrameError, LiveRecognizer, Recognizer, SimulatedCamera
from vision.live import FULL_EVERY


def test_docstring_examples_run() -> None:
    result = doctest.testmod(vision.live)
    assert result.attempted > 0 and result.failed == 0


@pytest.fixture(scope="module")
def table() -> tuple[SimulatedCamera, np.ndarray, list[object]]:
    cam = SimulatedCamera(size=(960, 540), background="felt", seed=5, card_width=110)
    return cam, cam.table(), cam.layout(["AS", "KH", "7D", "QC"], "row")


def frame(table: tuple[SimulatedCamera, np.ndarray, list[object]], cards: int) -> np.ndarray:
    cam, base, spots = table
    return cam.render(spots[:cards], base=base).image  # type: ignore[arg-type]


def codes(sightings: list[object]) -> list[str]:
    return sorted(s.card for s in sightings)  # type: ignore[attr-defined]


def test_a_still_table_is_not_read_again_once_settled(table) -> None:
    live = LiveRecognizer(settle=2)
    reads = []
    for _ in range(6):
        got = live.recognize(frame(table, 3))
        reads.append(live.read_last)
        assert codes(got) == ["7D", "AS", "KH"]
    # the first frame and the two after it are read; the rest differ only by sensor noise
    assert reads == [True, True, True, False, False, False]


def test_a_card_dealt_or_taken_away_is_read_at_once(table) -> None:
    live = LiveRecognizer(settle=0)
    assert codes(live.recognize(frame(table, 2))) == ["AS", "KH"]
    assert codes(live.recognize(frame(table, 2))) == ["AS", "KH"] and not live.read_last
    assert codes(live.recognize(frame(table, 3))) == ["7D", "AS", "KH"] and live.read_last
    assert codes(live.recognize(frame(table, 4))) == ["7D", "AS", "KH", "QC"] and live.read_last
    assert codes(live.recognize(frame(table, 2))) == ["AS", "KH"] and live.read_last


def test_each_read_is_the_recognisers_reading_of_that_frame(table) -> None:
    live, whole = LiveRecognizer(settle=0), Recognizer("table")
    for cards in (1, 2, 3, 4):
        image = frame(table, cards)
        assert live.recognize(image) == whole.recognize(image)


def test_a_flicker_is_no_change_but_a_chip_or_the_light_is(table) -> None:
    live = LiveRecognizer(settle=0)
    image = frame(table, 2)
    live.recognize(image)
    flicker = np.clip(image.astype(np.int16) + 8, 0, 255).astype(np.uint8)  # exposure hunting a little
    live.recognize(flicker)
    assert not live.read_last
    chip = image.copy()
    chip[400:440, 700:740] = (30, 30, 200)  # a red chip as light as the felt, a tenth of a card
    assert codes(live.recognize(chip)) == ["AS", "KH"] and live.read_last
    lights = np.clip(chip.astype(np.int16) + 40, 0, 255).astype(np.uint8)
    live.recognize(lights)
    assert live.read_last


def test_a_still_table_is_read_again_now_and_then(table) -> None:
    live = LiveRecognizer(settle=0, full_every=3)
    image = frame(table, 1)
    reads = []
    for _ in range(7):
        live.recognize(image)
        reads.append(live.read_last)
    assert reads == [True, False, False, True, False, False, True]
    assert LiveRecognizer().full_every == FULL_EVERY


def test_a_frame_of_another_size_or_after_a_reset_is_read(table) -> None:
    live = LiveRecognizer(settle=0)
    image = frame(table, 2)
    live.recognize(image)
    live.recognize(image[:, :900].copy())
    assert live.read_last
    live.recognize(image[:, :900].copy())
    assert not live.read_last
    live.reset()
    live.recognize(image[:, :900].copy())
    assert live.read_last


def test_a_bad_frame_is_refused_and_changes_nothing(table) -> None:
    live = LiveRecognizer(settle=0)
    image = frame(table, 2)
    live.recognize(image)
    with pytest.raises(FrameError, match="H×W×3 uint8"):
        live.recognize(np.zeros((540, 960), np.uint8))
    assert codes(live.recognize(image)) == ["AS", "KH"] and not live.read_last


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="settle"):
        LiveRecognizer(settle=-1)
    with pytest.raises(ValueError, match="full_every"):
        LiveRecognizer(full_every=0)
