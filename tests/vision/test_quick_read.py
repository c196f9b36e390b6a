"""The quick read (vision.quick_read): a frame the learned finder's first look explains whole is read
from it alone, with the same cards as the full read; any frame it does not explain is left to the
full read, which then reads it as before."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import vision.quick_read as quick_read
from vision import Recognizer, SimulatedCamera
from vision.detect import frame_key
from vision.index import Reading
from vision.sighting import BACK

# the bench's six two-card hands (`dealer bench vision`): a back dealt first, the 8H half over it
HANDS = ["AS", "10H", "QD", "7C", "6S", "9D", "KH", "4C", "JS", "2D", "BK", "8H"]
FACE_UP = [c if c != BACK else "3S" for c in HANDS]


def frame(codes: list[str], layout: str, *, seed: int = 11, width: int = 170) -> Any:
    cam = SimulatedCamera(size=(1920, 1080), background="felt", seed=seed, card_width=width)
    return cam.frame_for(codes, layout=layout).image


def attempt(image: np.ndarray, rec: Recognizer | None = None) -> tuple[list[Any] | None, str]:
    rec = rec or Recognizer("table")
    det, maps = rec._find(image)
    assert maps is not None
    return quick_read.attempt(rec, image, det, maps, True)


def cards(image: np.ndarray, *, quick: bool) -> Counter[str]:
    rec = Recognizer("table")
    rec.quick = quick
    return Counter(s.card for s in rec.recognize(image))


def read_quickly(image: np.ndarray, monkeypatch: pytest.MonkeyPatch) -> tuple[Counter[str], list[str]]:
    """The recogniser's cards for ``image``, and why the quick read left it to the full read ("" where
    it did not)."""
    whys: list[str] = []
    real = quick_read.attempt

    def spy(*args: Any) -> tuple[list[Any] | None, str]:
        out = real(*args)
        whys.append(out[1])
        return out

    monkeypatch.setattr(quick_read, "attempt", spy)
    return Counter(s.card for s in Recognizer("table").recognize(image)), whys


@pytest.fixture(scope="module")
def face_up() -> np.ndarray:
    return frame(FACE_UP, "hand")


@pytest.fixture(scope="module")
def with_a_back() -> np.ndarray:
    return frame(HANDS, "hand")


@pytest.mark.parametrize(
    ("fixture", "dealt"),
    [
        ("face_up", FACE_UP),
        # the hole card under the 8H: its part in view is card surface no face read explains, and the
        # hand's merged region's corners give the back (hand_backs), as in the full read
        ("with_a_back", HANDS),
    ],
)
def test_six_hands_are_read_from_the_first_look(
    fixture: str, dealt: list[str], request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    image = request.getfixturevalue(fixture)
    found, whys = read_quickly(image, monkeypatch)
    assert whys == [""]
    assert found == Counter(dealt)
    quick, _ = attempt(image)
    assert quick is not None
    assert all(s.confidence >= quick_read.QUICK_SURE for s in quick if s.card != BACK)


@pytest.mark.parametrize("fixture", ["face_up", "with_a_back"])
def test_the_quick_read_gives_the_full_reads_cards(fixture: str, request: pytest.FixtureRequest) -> None:
    image = request.getfixturevalue(fixture)
    assert cards(image, quick=True) == cards(image, quick=False)


FAN = ["AS", "7H", "QC", "2D", "9S"]


def fan_frame(spread: float) -> np.ndarray:
    cam = SimulatedCamera(size=(1920, 1080), background="felt", seed=11, card_width=170, fan_spread=spread)
    return cam.frame_for(FAN, layout="fan").image


def test_a_tight_fan_whose_indices_the_finder_merged_is_left_to_the_full_read() -> None:
    # five cards at 5° a card: the finder's index map merges neighbouring indices into one ridge, which
    # the full read's row walk, arc and gap probes take apart; the quick read runs them to know that
    fan = fan_frame(5.0)
    found, why = attempt(fan)
    assert found is None
    assert why == quick_read.ROW
    assert cards(fan, quick=True) == cards(fan, quick=False) == Counter(FAN)


def test_a_fan_whose_row_holds_nothing_more_is_read_quickly() -> None:
    # at 9° a card each index stands apart: the looks along the fan's row read nothing more
    fan = fan_frame(9.0)
    found, why = attempt(fan)
    assert why == ""
    assert found is not None
    assert Counter(s.card for s in found) == cards(fan, quick=False) == Counter(FAN)


def test_small_cards_are_left_to_the_full_read() -> None:
    # 60-px cards in a 1920-px frame: the finder looks again at twice its size, which the quick read
    # does not
    small = frame(FACE_UP, "hand", width=60)
    found, why = attempt(small)
    assert found is None
    assert why.startswith("small cards")


def test_cards_lying_apart_are_left_to_the_full_read() -> None:
    # no card touching another: the full read reads each one whole from its outline, as fast
    apart = frame(FACE_UP[:6], "row")
    found, why = attempt(apart)
    assert found is None
    assert why.startswith("no cards touching")


def with_the_eight(rec: Recognizer, change: Callable[[Reading], Reading | None]) -> Recognizer:
    """``rec`` with every reading of the 8H changed by ``change`` (None: not read)."""
    real = rec._read

    def read(image: np.ndarray, frame: Any, sideways: bool, colour: bool, whole: bool = True) -> Any:
        r, ink = real(image, frame, sideways, colour, whole)
        return (change(r) if r is not None and r.card == "8H" else r), ink

    rec._read = read  # type: ignore[method-assign]
    return rec


def test_an_index_whose_ink_reads_nothing_sends_the_frame_to_the_full_read(face_up: np.ndarray) -> None:
    # the 8H's index unreadable: its frames lie on no card read, its card's surface is no card's
    found, why = attempt(face_up, with_the_eight(Recognizer("table"), lambda r: None))
    assert found is None
    assert why in (
        quick_read.UNREAD,
        "card surface no card read covers",
        "a merged region with a part no card read covers",
    )


HITS = ["AS", "10H", "QD", "7C", "6S", "9D", "KH", "4C", "JS", "2D", "5C", "8H"]  # four hands of three
MIDDLE = ["10H", "6S", "4C", "5C"]  # each hand's second card


def hits_frame(seed: int, background: str = "felt") -> np.ndarray:
    cam = SimulatedCamera(size=(1920, 1080), background=background, seed=seed, card_width=170, hand_cards=3)
    return cam.frame_for(HITS, "hand").image


@pytest.mark.parametrize(("seed", "background"), [(4, "felt"), (5, "felt"), (5, "dark"), (6, "felt")])
def test_hands_of_three_read_quickly_or_not_give_every_card(
    seed: int, background: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a blackjack table after hits: four hands of three, each card dealt down and across from the one
    # before. The finder regressed some middle cards' corners as a card too wide, lying on the first
    # card's face, or turned the wrong way: the quick read of session 36 answered without those cards
    image = hits_frame(seed, background)
    found, _ = read_quickly(image, monkeypatch)
    assert found == Counter(HITS)
    assert found == cards(image, quick=False)


@pytest.mark.parametrize(("seed", "background"), [(5, "felt"), (6, "felt"), (6, "dark"), (5, "wood")])
def test_hands_of_three_dealt_across_are_read_quickly(
    seed: int, background: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # hands dealt more across than down: a hand's three indices lie in a row, as a fan's do, and until
    # session 44 every such frame went to the full read. The full read's looks along a row (its walk,
    # arc and gap probes) read nothing more in these hands, so the quick read answers, with every card
    image = hits_frame(seed, background)
    found, whys = read_quickly(image, monkeypatch)
    assert whys == [""]
    assert found == Counter(HITS)
    # where those looks read a card more (a fan's merged indices), the frame goes to the full read
    monkeypatch.setattr(quick_read, "more_along_rows", lambda *args: True)
    assert attempt(image) == (None, quick_read.ROW)


def test_a_hands_middle_card_the_first_look_missed_is_read_between_its_neighbours(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # every first-look frame at a middle card's index taken away: the quick read still answers, with
    # each middle card read through the look between its hand's first and third cards
    image = hits_frame(4)
    rec = Recognizer("table")
    det, maps = rec._find(image)
    assert maps is not None
    frames = quick_read.index_frames(maps, rec.min_index_heat)

    def reads(fr: Any) -> str | None:
        for step in rec.frame_steps:
            fr = step(rec, image, [fr])[0]
        r = rec._read(image, fr.frame, False, True)[0]
        return r.card if r is not None else None

    middles = [fr.frame.origin for fr in frames if reads(fr) in MIDDLE]
    # three of them read through frames of the first look (the 5C's index it misses already)
    assert {reads(fr) for fr in frames} & set(MIDDLE) == {"10H", "6S", "4C"}

    def without_middles(m: Any, min_heat: float) -> list[Any]:
        return [
            fr
            for fr in frames
            if all(np.linalg.norm(fr.frame.origin - o) > 0.3 * fr.frame.width for o in middles)
        ]

    monkeypatch.setattr(quick_read, "index_frames", without_middles)
    quick, why = quick_read.attempt(rec, image, det, maps, True)
    assert why == ""
    assert quick is not None
    assert Counter(s.card for s in quick) == Counter(HITS)


def test_ink_on_the_face_of_a_card_read_at_both_corners_needs_no_closer_look(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the bench's four hands of three: two of the finder's frames lie on the top cards' faces by their
    # far indices (the 9D's pips, the QD's art), show ink that reads nothing and lie a little over NEAR
    # from every corner and index read. Each top card is read at both its index corners, so nothing
    # lies on its face: the quick read answers, with every card
    image = hits_frame(11)
    found, whys = read_quickly(image, monkeypatch)
    assert whys == [""]
    assert found == Counter(HITS)
    # without that, those frames send the frame to the full read (as before session 43)
    monkeypatch.setattr(quick_read, "_both_corners", lambda group: False)
    assert attempt(image) == (None, quick_read.UNREAD)


def test_a_card_read_unsurely_sends_the_frame_to_the_full_read(face_up: np.ndarray) -> None:
    # both of the 8H's corners read at 0.6: together 0.84, under QUICK_SURE
    unsure = with_the_eight(Recognizer("table"), lambda r: Reading(r.card, 0.6, r.reject, r.index_corner))
    found, why = attempt(face_up, unsure)
    assert found is None
    assert why == "a card read unsurely, or a joker"


def test_switched_off_the_full_read_runs(face_up: np.ndarray, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = quick_read.attempt
    monkeypatch.setattr(quick_read, "attempt", lambda *a: calls.append(1) or real(*a))
    rec = Recognizer("table")
    rec.quick = False
    assert Counter(s.card for s in rec.recognize(face_up)) == Counter(FACE_UP)
    assert calls == []


def test_a_frame_the_quick_read_leaves_has_no_corner_read_twice(
    face_up: np.ndarray, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the 8H read unsurely: the quick read leaves the frame after reading every upright frame, and
    # the full read after it reads those corners again only through what the quick read remembered
    read: Counter[tuple[object, ...]] = Counter()
    real = Recognizer._read_afresh

    def afresh(self: Recognizer, image: np.ndarray, frame: Any, sideways: bool, *flags: bool) -> Any:
        colour, whole = flags
        read[(frame_key(frame), sideways, colour, whole)] += 1
        r, ink = real(self, image, frame, sideways, colour, whole)
        if r is not None and r.card == "8H":
            r = Reading(r.card, 0.6, r.reject, r.index_corner)
        return r, ink

    monkeypatch.setattr(Recognizer, "_read_afresh", afresh)
    found, whys = read_quickly(face_up, monkeypatch)
    assert whys == ["a card read unsurely, or a joker"]
    assert len(read) > 20
    assert max(read.values()) == 1
    assert found - Counter(FACE_UP) == Counter()  # nothing made up (the 8H at 0.84 may go)


def test_a_doubled_hand_whose_second_card_the_first_look_missed_is_read_whole() -> None:
    # the 6D over the 4S, the 5H laid across both: the first look has no frame at the 6D's index (on
    # the 4S's face) and its part in view is under a quarter of a card, so none of the quick read's
    # checks sees it; the full read's closer look does. A quick read that answered here (a version
    # that looked closer round an unread frame on another hand, found nothing there and went on)
    # lost it
    codes = ["JD", "KD", "9H", "6H", "JS", "JH", "4S", "6D", "5H", "2H", "QD", "8H"]
    cam = SimulatedCamera(
        size=(1920, 1080), background="wood", seed=7, card_width=170, hand_cards=3, double_down=True
    )
    found = Counter(s.card for s in Recognizer("table").recognize(cam.frame_for(codes, "hand").image))
    assert found == Counter(codes)
