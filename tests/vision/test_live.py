"""vision.LiveRecognizer: a camera's frames read only when the table changed, on rendered frames of one
table (each frame with its own sensor noise, as a camera's are)."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import vision.live
from vision import FrameError, LiveRecognizer, Recognizer, SimulatedCamera
from vision.live import FULL_EVERY
from vision.sighting import Sighting


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


class Scripted:
    """A recogniser whose reading through each look (``Recognizer.read_look``) the test sets; the looks
    it was asked for are kept."""

    def __init__(self, by_look: dict[int, list[Sighting]]) -> None:
        self.by_look, self.asked = by_look, []

    def read_look(self, image: np.ndarray, k: int) -> list[Sighting]:
        self.asked.append(k)
        return list(self.by_look.get(k, []))


def card(code: str, x: float) -> Sighting:
    return Sighting(code, 0.9, ((x, 100), (x + 60, 100), (x + 60, 184), (x, 184)))


def test_a_still_table_settles_on_the_cards_two_of_its_reads_agree_on() -> None:
    still, dealt = np.zeros((300, 400, 3), np.uint8), np.full((300, 400, 3), 200, np.uint8)
    rec = Scripted(
        {
            0: [card("AS", 0), card("3C", 200)],
            1: [card("AS", 1), card("KD", 100)],
            2: [card("KD", 99)],
            3: [card("AS", 2)],
        }
    )
    live = LiveRecognizer(rec, settle=2)  # type: ignore[arg-type]
    said = [codes(live.recognize(still)) for _ in range(6)]
    # each read is reported as it comes (a card just dealt shows at once); from the round's third read
    # on, the cards two of its reads see alike: the ace (first two) and the king (last two), not the
    # 3C the first read made up. The 3C resting on one read alone, a fourth frame is read (a quarter
    # turned, as a photo's fourth look); the table lying still, that is what it says from then on
    assert said == [["3C", "AS"], ["AS", "KD"], ["AS", "KD"], ["AS", "KD"], ["AS", "KD"], ["AS", "KD"]]
    assert rec.asked == [0, 1, 2, 3]  # as it is, moved two pixels, turned upside down, a quarter
    assert [s.evidence[-1] for s in live.recognize(still)] == [
        "seen alike in 3 of 4 looks",
        "seen alike in 2 of 4 looks",
    ]
    # the table changes: a new round from the first look, the reads before the change not counted;
    # no card rests on one of its three reads alone, so no fourth
    rec.by_look = {0: [card("QH", 300)], 1: [card("QH", 300)], 2: []}
    said = [codes(live.recognize(dealt)) for _ in range(4)]
    assert said == [["QH"], ["QH"], ["QH"], ["QH"]] and rec.asked == [0, 1, 2, 3, 0, 1, 2]


def test_a_change_in_the_middle_of_a_round_starts_it_again() -> None:
    a, b = np.zeros((300, 400, 3), np.uint8), np.full((300, 400, 3), 200, np.uint8)
    rec = Scripted({0: [card("AS", 0)], 1: [card("AS", 0)], 2: []})
    live = LiveRecognizer(rec, settle=2)  # type: ignore[arg-type]
    live.recognize(a)
    live.recognize(a)
    rec.by_look = {0: [], 1: [], 2: [card("7S", 50)]}  # the ace taken away, a seven dealt
    said = [codes(live.recognize(b)) for _ in range(3)]
    # the two reads of the ace are of another table: they vote on nothing after the change
    assert said == [[], [], []] and rec.asked == [0, 1, 0, 1, 2]


def test_a_round_of_fewer_than_three_reads_says_what_its_last_read_saw() -> None:
    still = np.zeros((300, 400, 3), np.uint8)
    rec = Scripted({0: [card("AS", 0)], 1: [card("AS", 0), card("3C", 200)]})
    live = LiveRecognizer(rec, settle=1)  # type: ignore[arg-type]
    assert [codes(live.recognize(still)) for _ in range(3)] == [["AS"], ["3C", "AS"], ["3C", "AS"]]


def test_a_rendered_still_table_settles_on_its_cards_seen_alike(table) -> None:
    live = LiveRecognizer(settle=2)
    said = [live.recognize(frame(table, 4)) for _ in range(4)]
    assert all(codes(s) == ["7D", "AS", "KH", "QC"] for s in said)
    agree = ("seen alike in 2 of 3 looks", "seen alike in 3 of 3 looks")
    assert all(s.evidence[-1] in agree for s in said[-1])
    # placed on the frame's own pixels, whichever way the round's reads turned it
    first = {s.card: s.centre for s in said[0]}
    assert all(np.hypot(*np.subtract(s.centre, first[s.card])) < 3 for s in said[-1])
