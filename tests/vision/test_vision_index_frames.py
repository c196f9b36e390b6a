"""Reading cards through the learned finder's index frames (vision.index_frames), and the place for a
step between finding those frames and reading them (``Recognizer.frame_steps``)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from reading_checks import reads_more_with

from vision import Recognizer, SimulatedCamera, index_frames
from vision.detect import CornerFrame
from vision.finder import IndexFrame, default_finder, frame_from_vectors
from vision.index_frames import _moved, between_frames
from vision.sighting import Sighting

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "vision"))
from backgrounds import TRAIN_FAMILIES  # noqa: E402
from scenes import READABLE, Deck, make_scene  # noqa: E402

HAND = ["AS", "KH", "9C", "6D"]


@pytest.fixture(scope="module")
def hand() -> np.ndarray:
    cam = SimulatedCamera(size=(1280, 720), background="felt", seed=1, card_width=150)
    return cam.frame_for(HAND, "hand").image


def test_a_hand_is_read_through_the_index_frames_alone(hand: np.ndarray) -> None:
    found = Recognizer("table", finder="learned").recognize(hand)
    assert Counter(s.card for s in found) == Counter(HAND)
    assert all(s.evidence[0] == "index" for s in found)


def test_frame_steps_run_in_turn_between_finding_and_reading(hand: np.ndarray) -> None:
    rec = Recognizer("table", finder="learned")
    rec.frame_steps = ()  # the shipped step (the corner refiner) off: the frames as the finder gave them
    plain = rec.recognize(hand)
    calls: list[tuple[str, int]] = []

    def first(r: Recognizer, image: np.ndarray, frames: list[IndexFrame]) -> list[IndexFrame]:
        assert r is rec and image.shape == hand.shape
        assert frames and all(isinstance(f, IndexFrame) for f in frames)
        calls.append(("first", len(frames)))
        return frames[:1]

    def second(r: Recognizer, image: np.ndarray, frames: list[IndexFrame]) -> list[IndexFrame]:
        calls.append(("second", len(frames)))  # sees what the first step gave
        return frames

    rec.frame_steps = (first, second)
    one = rec.recognize(hand)
    assert calls[0][0] == "first" and calls[0][1] >= len(HAND) and calls[1] == ("second", 1)
    assert len(one) == 1 and one[0].card in HAND  # only the frame the steps kept was read

    rec.frame_steps = (lambda r, image, frames: frames,)
    assert rec.recognize(hand) == plain  # a step that changes nothing changes no sighting


def test_a_step_that_moves_every_frame_off_its_corner_loses_the_cards(hand: np.ndarray) -> None:
    rec = Recognizer("table", finder="learned")

    def off(r: Recognizer, image: np.ndarray, frames: list[IndexFrame]) -> list[IndexFrame]:
        # half a card width inward along both edges: the patch holds pips or art, no index
        return [IndexFrame(_moved(f.frame, 0.5, 0.5), f.sideways, f.score) for f in frames]

    rec.frame_steps = (off,)
    assert len(rec.recognize(hand)) < len(HAND)


def test_the_coarse_pass_runs_only_for_a_big_frame_off_the_cards_already_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = np.full((700, 1000, 3), 60, np.uint8)
    rec = Recognizer("table")
    # a frame as wide as a card filling a third of the long side: it calls for the coarse pass
    big = frame_from_vectors(np.array([100.0, 100.0]), np.array([300.0, 0.0]), np.array([0.0, 80.0]))
    small = frame_from_vectors(np.array([600.0, 100.0]), np.array([80.0, 0.0]), np.array([0.0, 80.0]))
    runs: list[int] = []
    finder = default_finder()
    real_run = type(finder).run
    monkeypatch.setattr(
        type(finder), "run", lambda self, im, side: runs.append(side) or real_run(self, im, side)
    )

    assert index_frames.big_card_frames(rec, view, [small], []) == [small]
    assert runs == []  # no big frame: no second pass
    index_frames.big_card_frames(rec, view, [big, small], [])
    assert runs == [rec.finder_size // 2]
    runs.clear()
    read = Sighting("AS", 0.99, ((100.0, 100.0), (400.0, 100.0), (400.0, 520.0), (100.0, 520.0)), None)
    assert index_frames.big_card_frames(rec, view, [big, small], [read]) == [big, small]
    assert runs == []  # the big frame is at a card read surely: nothing there to find again
    unsure = Sighting("AS", 0.6, read.outline, None)
    index_frames.big_card_frames(rec, view, [big, small], [unsure])
    assert runs == [rec.finder_size // 2]


def test_a_coarse_frame_replaces_the_first_pass_frames_only_where_it_reads_a_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a big card partly covered: the coarse pass's frame near its corner can lie on a neighbour's
    # index, or off the card, and read nothing, where the first pass's narrower frame at the card's
    # own corner reads it (a king of hearts 439 px wide under a ten, on a held-out scene)
    cam = SimulatedCamera(size=(1280, 960), background="felt", seed=3, card_width=380)
    sim = cam.frame_for(["KH"], "row")
    tl, tr, _, bl = sim.placements[0].corners()
    down = (bl - tl) * (float(np.linalg.norm(tr - tl)) / float(np.linalg.norm(bl - tl)))
    rec = Recognizer("table")

    def frames_at(corner: np.ndarray) -> tuple[IndexFrame, IndexFrame, IndexFrame]:
        at_index = frame_from_vectors(corner, tr - tl, down)
        narrow = frame_from_vectors(corner, 0.7 * (tr - tl), down)  # the first pass's: a big card is narrow
        off_card = frame_from_vectors(corner, tl - tr, -down)  # at the same corner, turned away: cloth
        return at_index, narrow, off_card

    def coarse_pass_gives(frame: IndexFrame) -> None:
        monkeypatch.setattr(index_frames, "index_frames", lambda maps, min_heat: [frame])

    at_index, narrow, off_card = frames_at(tl)
    coarse_pass_gives(off_card)
    assert any(f is narrow for f in index_frames.big_card_frames(rec, sim.image, [narrow], []))
    coarse_pass_gives(at_index)
    frames = index_frames.big_card_frames(rec, sim.image, [narrow], [])
    assert [f is at_index for f in frames] == [True]  # it reads the king surely: the narrow frame goes

    # the card cut by the frame's left edge through its index: the narrow frame reads a cut index, never
    # surely (an edge reading is capped), no better than the coarse frame's nothing, and goes
    x0 = int(tl[0] + 0.08 * float(np.linalg.norm(tr - tl)))
    cut = np.ascontiguousarray(sim.image[:, x0:])
    _, narrow, off_card = frames_at(tl - (x0, 0))
    coarse_pass_gives(off_card)
    assert not any(f is narrow for f in index_frames.big_card_frames(rec, cut, [narrow], []))


def test_frame_steps_get_no_frame_at_a_card_already_read_surely() -> None:
    # a row of whole cards: the thresholds trace and read every one, so the finder's frames at
    # them are those cards again; a step (a refiner, say) is not asked to work on them
    cam = SimulatedCamera(size=(1920, 1080), background="felt", seed=11, card_width=170)
    codes = ["AS", "10H", "QD", "7C", "6S", "9D", "KH", "4C"]
    image = cam.frame_for(codes, "row").image
    rec = Recognizer("table")
    seen: list[IndexFrame] = []

    def step(r: Recognizer, im: np.ndarray, frames: list[IndexFrame]) -> list[IndexFrame]:
        seen.extend(frames)
        return frames

    rec.frame_steps = (step,)
    found = rec.recognize(image)
    assert Counter(s.card for s in found) == Counter(codes)
    all_frames = index_frames.index_frames(default_finder().run(image, rec.finder_size), rec.min_index_heat)
    assert len(all_frames) >= len(codes)  # the finder sees every index ...
    assert len(seen) < len(codes) // 2  # ... but the cards read whole need none of them
    for f in seen:  # (one at a card's corner pointing away from it may be the next card's: it is read)
        for s in found:
            outline = np.array(s.outline)
            at_corner = np.hypot(*(outline - f.frame.origin).T).min() < 0.1 * f.frame.width
            assert not (at_corner and index_frames.runs_onto(f, outline))


def test_letters_at_a_corner_are_a_back_only_on_a_back_never_a_joker_alone() -> None:
    """A column of letter-like marks at a corner is what a joker's "JOKER" and a back's lattice
    both look like to the letter test: on the lattice it stands for the back, on a joker's own
    corner it is no evidence of anything (the joker is read by the patch and glyph readers)."""
    from vision.detect import CornerFrame
    from vision.index import is_joker_corner
    from vision.simcam import Placement

    cam = SimulatedCamera(size=(800, 600), background="felt", seed=3)
    right, down = np.array([1.0, 0.0]), np.array([0.0, 1.0])

    joker = cam.render([Placement("JK", (400, 300), 0.0, 300)])
    corner = CornerFrame(joker.placements[0].corners()[0], right, down, 300.0)
    assert is_joker_corner(joker.image, corner)
    assert not index_frames.letters_on_a_back(joker.image, corner)

    back = cam.render([Placement("BK", (400, 300), 0.0, 300)])
    origin = back.placements[0].corners()[0]
    on_lattice = [
        f
        for dx in range(0, 150, 10)
        for dy in range(0, 250, 10)
        if is_joker_corner(back.image, f := CornerFrame(origin + (dx, dy), right, down, 150.0))
    ]
    assert len(on_lattice) >= 20
    backs = sum(index_frames.letters_on_a_back(back.image, f) for f in on_lattice)
    assert backs >= 0.5 * len(on_lattice)


@pytest.mark.parametrize(
    ("background", "seed", "width", "codes"),
    [
        ("light_wood", 15, 106, ["7C", "6H", "6D", "KC", "5C", "4D"]),
        ("wood", 29, 86, ["QD", "4C", "3H", "7S", "QC", "9S"]),
        ("felt", 36, 116, ["9D", "2C", "QH", "JD", "9H", "JS"]),
    ],
)
def test_an_index_near_a_corner_another_frame_implies_is_still_read(
    background: str, seed: int, width: int, codes: list[str]
) -> None:
    # in a fan each card's index lies near a corner its neighbour's frame implies (that outline
    # rests on a regressed card width); such a frame used to be skipped as the neighbour again
    shot = SimulatedCamera(size=(1280, 720), background=background, seed=seed, card_width=width).frame_for(
        codes, "fan"
    )
    assert Counter(s.card for s in Recognizer("table").recognize(shot.image)) == Counter(codes)


def _reading(card: str, confidence: float) -> index_frames.Reading:
    return index_frames.Reading(card, confidence, 0.0, ((0.0, 0.0),) * 4)


def test_two_sure_readings_of_two_codes_are_two_cards_even_where_their_outlines_coincide() -> None:
    # frames at opposite corners of one outline: a card's two indices, or two cards of a hand
    top_left = frame_from_vectors(np.array([100.0, 100.0]), np.array([80.0, 0.0]), np.array([0.0, 80.0]))
    bottom_right = frame_from_vectors(
        np.array([180.0, 212.0]), np.array([-80.0, 0.0]), np.array([0.0, -80.0])
    )
    assert np.allclose(top_left.outline().mean(axis=0), bottom_right.outline().mean(axis=0))

    def groups(a: float, b: float) -> list[list[str]]:
        found = [(_reading("10D", a), top_left), (_reading("AS", b), bottom_right)]
        return [[r.card for r, _ in g] for g in index_frames.group_readings(found)]

    assert groups(0.97, 0.94) == [["10D"], ["AS"]]  # both sure: two cards
    assert groups(0.97, 0.6) == [["10D", "AS"]]  # one unsure: a misread corner of one card
    assert groups(0.6, 0.97) == [["AS", "10D"]]  # the surer reading leads
    same = [(_reading("10D", 0.97), top_left), (_reading("10D", 0.95), bottom_right)]
    assert len(index_frames.group_readings(same)) == 1  # one card read at both corners
    # a frame turned a quarter round whose outline coincides lies at neither of the card's index
    # corners (a card's are a diagonal apart): another card, however unsure its reading
    quarter = frame_from_vectors(np.array([196.0, 116.0]), np.array([0.0, 80.0]), np.array([-80.0, 0.0]))
    assert np.allclose(top_left.outline().mean(axis=0), quarter.outline().mean(axis=0))
    found = [(_reading("10D", 0.97), top_left), (_reading("AS", 0.6), quarter)]
    assert len(index_frames.group_readings(found)) == 2


def test_two_sure_readings_of_one_code_facing_one_way_are_two_copies_of_the_card() -> None:
    # a multi-deck shoe deals the same card twice: in a stack or a hand the two copies' indices face
    # the same way a fraction of a card apart; one card's two corners never face the same way
    first = frame_from_vectors(np.array([100.0, 100.0]), np.array([80.0, 0.0]), np.array([0.0, 80.0]))
    turned = np.array([[np.cos(0.2), -np.sin(0.2)], [np.sin(0.2), np.cos(0.2)]])  # about 11 degrees
    second = frame_from_vectors(np.array([130.0, 112.0]), turned @ [80.0, 0.0], turned @ [0.0, 80.0])
    far_corner = frame_from_vectors(np.array([180.0, 212.0]), np.array([-80.0, 0.0]), np.array([0.0, -80.0]))
    again = frame_from_vectors(np.array([104.0, 103.0]), np.array([80.0, 0.0]), np.array([0.0, 80.0]))

    def groups(*found: tuple[float, IndexFrame]) -> int:
        return len(index_frames.group_readings([(_reading("7H", c), f) for c, f in found]))

    assert groups((1.0, first), (0.98, second)) == 2  # two copies
    assert groups((1.0, first), (0.85, second)) == 2  # the second less sure, as a partly covered copy reads
    assert groups((1.0, first), (0.7, second)) == 1  # an unsure one may be a misread of the other
    assert groups((1.0, first), (0.98, far_corner)) == 1  # one card read at both its corners
    assert groups((1.0, first), (0.98, again)) == 1  # one corner read through two frames
    # read sideways, a four-index deck's mirrored corner faces the way its upright corner does when
    # that is read sideways too: sideways frames are never taken for two copies
    sideways = [
        frame_from_vectors(np.array(at), np.array([0.0, 80.0]), np.array([80.0, 0.0]))
        for at in ([100.0, 100.0], [100.0, 180.0])
    ]
    assert all(f.sideways for f in sideways)
    assert groups((1.0, sideways[0]), (1.0, sideways[1])) == 1


def test_a_copy_partly_under_a_card_read_whole_is_not_that_card_read_again() -> None:
    # a pile on a white table (a training-family scene): a 2C read whole through its outline, and a
    # second 2C under it whose index, turned some 30 degrees, lies a card width away; the outline its
    # frame implies overlaps the first card's, and it was taken for that card read again
    first = frame_from_vectors(np.array([100.0, 100.0]), np.array([80.0, 0.0]), np.array([0.0, 80.0]))
    index = ((104.0, 104.0), (116.0, 104.0), (116.0, 124.0), (104.0, 124.0))  # at the first corner
    whole = Sighting("2C", 0.95, tuple(map(tuple, first.outline())), index)  # type: ignore[arg-type]
    turned = np.array([[np.cos(0.5), -np.sin(0.5)], [np.sin(0.5), np.cos(0.5)]])  # about 29 degrees
    copy = frame_from_vectors(np.array([150.0, 60.0]), turned @ [80.0, 0.0], turned @ [0.0, 80.0])
    assert np.linalg.norm(copy.outline().mean(axis=0) - first.outline().mean(axis=0)) < 0.6 * 80

    def again(frame: IndexFrame, confidence: float) -> bool:
        return index_frames._same_card(whole, "2C", None, frame, confidence)

    assert not again(copy, 0.88)  # a copy, read surely enough (COPY_MIN)
    assert again(copy, 0.7)  # an unsure reading there may be this card misread through a bad frame
    same_index = frame_from_vectors(np.array([103.0, 98.0]), np.array([80.0, 0.0]), np.array([0.0, 80.0]))
    assert again(same_index, 0.99)  # its own index read through another frame
    far = frame_from_vectors(np.array([180.0, 212.0]), np.array([-80.0, 0.0]), np.array([0.0, -80.0]))
    assert again(far, 0.99)  # its own far index, turned half round


def test_another_rank_read_surely_at_an_unlike_quads_unread_corner_is_another_card() -> None:
    # a quad traced round two cards of a pile, read surely at its top card's index, its far corner
    # unlike that index: that corner is the lower card's, whose index reads another rank there
    first = frame_from_vectors(np.array([100.0, 100.0]), np.array([80.0, 0.0]), np.array([0.0, 80.0]))
    index = ((104.0, 104.0), (116.0, 104.0), (116.0, 124.0), (104.0, 124.0))  # at the first corner
    outline = tuple(map(tuple, first.outline()))
    whole = Sighting("5S", 0.97, outline, index, evidence=("5S:0.97", index_frames.UNLIKE_FAR))  # type: ignore[arg-type]
    far = frame_from_vectors(np.array([180.0, 212.0]), np.array([-80.0, 0.0]), np.array([0.0, -80.0]))
    # (a card beneath, lying across: upright with its corner at the top card's bare corner)
    bare = frame_from_vectors(np.array([180.0, 100.0]), np.array([0.0, 80.0]), np.array([-80.0, 0.0]))
    assert not bare.sideways and not far.sideways

    def again(code: str, frame: IndexFrame, confidence: float = 0.99) -> bool:
        return index_frames._same_card(whole, code, None, frame, confidence)

    assert not again("QC", far) and not again("QC", bare)  # another rank, sure: another card
    assert again("5C", far)  # the same rank: most often this card's own far index, its suit misread
    assert again("QC", far, 0.8)  # not sure enough to stand against a card read surely
    at_its_index = frame_from_vectors(np.array([101.0, 99.0]), np.array([80.0, 0.0]), np.array([0.0, 80.0]))
    assert again("QC", at_its_index)  # the corner it was read at is its own
    # a quad whose far corner looked like its index: a card one card wide holds its corners, as before
    alike = Sighting("5S", 0.97, outline, index, evidence=("5S:0.97",))  # type: ignore[arg-type]
    assert index_frames._same_card(alike, "QC", None, far, 0.99)


def test_a_sure_card_whose_far_corner_looked_unlike_its_index_holds_only_its_index() -> None:
    first = frame_from_vectors(np.array([100.0, 100.0]), np.array([80.0, 0.0]), np.array([0.0, 80.0]))
    index = ((104.0, 104.0), (116.0, 104.0), (116.0, 124.0), (104.0, 124.0))
    outline = tuple(map(tuple, first.outline()))
    plain = Sighting("5S", 0.97, outline, index, evidence=("5S:0.97",))  # type: ignore[arg-type]
    unlike = Sighting("5S", 0.97, outline, index, evidence=("5S:0.97", index_frames.UNLIKE_FAR))  # type: ignore[arg-type]
    # a frame whose index lies inside the outline, away from the card's index corners
    inside = frame_from_vectors(np.array([150.0, 160.0]), np.array([70.0, 0.0]), np.array([0.0, 70.0]))
    at_index = frame_from_vectors(np.array([101.0, 101.0]), np.array([80.0, 0.0]), np.array([0.0, 80.0]))
    sure_plain, sure_unlike = index_frames._Sure([plain]), index_frames._Sure([unlike])
    assert sure_plain.holds(inside) and not sure_plain.in_a_hand(inside)
    # held no longer: read, and kept only where it reads another code surely (``in_a_hand``)
    assert not sure_unlike.holds(inside) and sure_unlike.in_a_hand(inside)
    assert sure_unlike.holds(at_index)  # its own index is still its own
    # the small-card passes still take the outline as explained
    assert index_frames._Sure([unlike], loose=False).holds(inside)


def test_a_card_beneath_a_quad_whose_far_corner_looked_unlike_its_index_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a training-family scene of piles (the generator's own seed): one quad traced round two cards
    rng = np.random.default_rng(50)
    scene = make_scene(
        rng,
        (1280, 960),
        TRAIN_FAMILIES,
        [Deck(rng)],
        max_cards=8,
        min_card=READABLE,
        layout_p=(0.1, 0.2, 0.1, 0.2, 0.1, 0.3),
    )
    wanted = Counter(
        c.code
        for c in scene.cards
        if np.linalg.norm(c.outline[1] - c.outline[0]) >= READABLE
        and (any(c.index_visible) or (c.code == "BK" and c.shown > 0.5))
    )
    rec = Recognizer("table")
    assert Counter(s.card for s in rec.recognize(scene.image)) == wanted
    # a card read surely holding every frame on its outline, as before: the card beneath is lost
    monkeypatch.setattr(index_frames, "UNLIKE_FAR", "(never)")
    read = Counter(s.card for s in rec.recognize(scene.image))
    assert sum((read & wanted).values()) < sum(wanted.values())


def test_a_sure_index_at_the_corner_of_a_quad_read_unsurely_as_another_card_is_its_own_card() -> None:
    # a 9S/AC hand on dark cloth: the quad round both cards once read 7S (0.80) and the 9S's sure
    # index at its corner was taken for that card again
    codes = ["3C", "KS", "9S", "AC", "QS", "7S"]
    shot = SimulatedCamera(size=(1280, 720), background="dark", seed=42, card_width=98).frame_for(
        codes, "hand"
    )
    found = Counter(s.card for s in Recognizer("table").recognize(shot.image))
    assert not Counter(codes) - found


@pytest.mark.parametrize(
    ("background", "seed", "width", "layout", "codes", "read"),
    [
        ("grey", 10, 90, "fan", ["10S", "AS", "4H", "8H", "8C", "5H", "JH"], 6),
        ("light_wood", 13, 70, "hand", ["JD", "3H", "4D", "JH", "QD"], 5),
    ],
)
def test_small_cards_in_a_fan_or_hand_are_read_at_a_closer_look(
    background: str, seed: int, width: int, layout: str, codes: list[str], read: int
) -> None:
    # at the finder's working size (512 px for a 1920-px frame) the indices of a fan of 70-90 px
    # cards are a few map pixels apart and the corners regressed there mix neighbours: the index
    # is seen but does not read, and the second look at twice the resolution reads it
    image = (
        SimulatedCamera(size=(1920, 1080), background=background, seed=seed, card_width=width)
        .frame_for(codes, layout)
        .image
    )
    rec = Recognizer("table")
    rec.row_walk = False  # which finds the fan's too, from its neighbours (tests/vision/test_fan_rows.py)
    rec.small_pass = False  # which looks at the whole frame at twice the size (test_vision_small_cards.py)
    reads_more_with(rec, image, codes, read, "closer_look")


def test_the_closer_look_runs_only_round_indices_seen_but_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    finder = default_finder()
    real_run = type(finder).run
    sizes: list[tuple[int, int]] = []

    def run(self: object, im: np.ndarray, side: int) -> object:
        sizes.append(im.shape[:2])
        return real_run(self, im, side)  # type: ignore[arg-type]

    monkeypatch.setattr(type(finder), "run", run)
    # a row of big cards: every index reads, no second look
    cam = SimulatedCamera(size=(1920, 1080), background="felt", seed=11, card_width=170)
    codes = ["AS", "10H", "QD", "7C"]
    rec = Recognizer("table")
    assert Counter(s.card for s in rec.recognize(cam.frame_for(codes, "row").image)) == Counter(codes)
    assert sizes == [(1080, 1920)]
    # a frame that did not read: one window round its index, about three card widths across
    sizes.clear()
    view = np.full((1080, 1920, 3), 90, np.uint8)
    unread = frame_from_vectors(np.array([900.0, 500.0]), np.array([80.0, 0.0]), np.array([0.0, 80.0]))
    assert index_frames.closer_frames(rec, view, [unread], []) == []  # a bare table shows no index
    ((h, w),) = sizes
    assert 200 <= h <= 300 and 200 <= w <= 300
    # two unread frames side by side are one window; a small frame needs no closer look
    sizes.clear()
    beside = frame_from_vectors(np.array([1000.0, 500.0]), np.array([80.0, 0.0]), np.array([0.0, 80.0]))
    index_frames.closer_frames(rec, view, [unread, beside], [])
    assert len(sizes) == 1 and sizes[0][1] > w
    sizes.clear()
    assert index_frames.closer_frames(rec, view[:480, :640], [unread], []) == []
    assert sizes == []


@pytest.mark.parametrize(("background", "seed"), [("white", 4001), ("white", 4004)])
def test_an_index_between_two_read_ones_in_a_fan_on_a_pale_table_is_read(background: str, seed: int) -> None:
    # on a white cloth the finder's index map merged the second and fourth cards' indices with
    # their neighbours' (50 px apart at 1920 wide): read halfway between two indices side by side
    codes = ["6D", "AH", "3C", "4D", "6H"]
    cam = SimulatedCamera(size=(1920, 1080), background=background, seed=seed, card_width=170, fan_spread=9.0)
    image = cam.frame_for(codes, "fan").image
    rec = Recognizer("table")
    assert sorted(s.card for s in rec.recognize(image)) == sorted(codes)
    # the row walk and the arc probe find it too (tests/vision/test_fan_rows.py)
    rec.between_probe = rec.row_walk = rec.arc_probe = False
    assert len(rec.recognize(image)) < len(codes)


def test_frames_are_looked_for_only_between_indices_lying_side_by_side() -> None:
    def read_at(ox: float, oy: float, turn: float = 0.0) -> tuple[object, IndexFrame]:
        c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))  # the card turned on screen
        frame = CornerFrame(np.array([ox, oy]), np.array([c, s]), np.array([-s, c]), 100.0)
        return (None, IndexFrame(frame, False, 1.0))

    # two corners 60 px apart along the short edge of 100-px cards: one frame, halfway
    (mid,) = between_frames([read_at(0, 0), read_at(60, 0)])  # type: ignore[list-item]
    assert np.allclose(mid.frame.origin, [30, 0]) and not mid.sideways
    # side by side but a card apart (two cards in a row), one above the other, or turned 40° apart: none
    assert between_frames([read_at(0, 0), read_at(110, 0)]) == []  # type: ignore[list-item]
    assert between_frames([read_at(0, 0), read_at(0, 60)]) == []  # type: ignore[list-item]
    assert between_frames([read_at(0, 0), read_at(60, 0, turn=40)]) == []  # type: ignore[list-item]


def test_a_frame_is_looked_for_between_a_hands_first_and_third_cards() -> None:
    # a blackjack hand after a hit: each card dealt 0.42 card widths across and 0.3 down from the one
    # before (vision.simcam's hands). The middle card's index lies between the first's and the third's
    def read_at(ox: float, oy: float, x: tuple[float, float] = (1.0, 0.0)) -> tuple[object, IndexFrame]:
        ax = np.array(x)
        frame = CornerFrame(np.array([ox, oy]), ax, np.array([-ax[1], ax[0]]), 100.0)
        return (None, IndexFrame(frame, False, 1.0))

    first, third = read_at(0, 0), read_at(84, 60)
    (mid,) = between_frames([first, third], hands=True)  # type: ignore[list-item]
    assert np.allclose(mid.frame.origin, [42, 30]) and not mid.sideways
    assert between_frames([first, third]) == []  # type: ignore[list-item]  # no fan's row
    # a two-card hand's corners (half a card apart) have no card between them
    assert between_frames([first, read_at(42, 30)], hands=True) == []  # type: ignore[list-item]
    # the third card read through its far index (the corner across the card, turned half round): its
    # near corner is the far corner of the outline that frame implies; and the first card's far
    # corner pairs with that frame, halfway at the middle card's far corner
    probes = between_frames([first, read_at(184, 200, x=(-1.0, 0.0))], hands=True)  # type: ignore[list-item]
    assert sorted(tuple(np.round(p.frame.origin)) for p in probes) == [(42, 30), (142, 170)]
    # a card more down than across from another (steeper than 45°) is no hand's next card, and corners
    # side by side are a row's (the probes without ``hands``)
    assert between_frames([first, read_at(50, 90)], hands=True) == []  # type: ignore[list-item]
    assert between_frames([first, read_at(60, 0)], hands=True) == []  # type: ignore[list-item]


def test_a_frame_at_a_backs_corner_is_its_lattice_only_when_it_runs_into_the_back() -> None:
    # a back read whole but unsurely (0.8): the finder's frame at its corner, running into it along
    # its edges, is the lattice and is not read; a card lying beside it whose index corner falls at
    # that corner (a hand dealt edge to edge) runs away from the back: its frame is read, and counts
    # only if it reads surely
    from vision.index_frames import _Sure

    back = Sighting("BK", 0.8, ((500.0, 400.0), (700.0, 400.0), (700.0, 680.0), (500.0, 680.0)))
    sure = _Sure([back])
    right, down, up = np.array([1.0, 0.0]), np.array([0.0, 1.0]), np.array([0.0, -1.0])
    lattice = IndexFrame(CornerFrame(np.array([503.0, 402.0]), right, down, 200.0), False, 1.0)
    card_above = IndexFrame(CornerFrame(np.array([497.0, 398.0]), up, right, 200.0), False, 1.0)
    elsewhere = IndexFrame(CornerFrame(np.array([300.0, 300.0]), right, down, 200.0), False, 1.0)
    assert sure.holds(lattice)
    assert not sure.holds(card_above) and sure.on_a_back(card_above)
    assert not sure.holds(elsewhere) and not sure.on_a_back(elsewhere)


def test_a_card_read_surely_through_a_whole_hands_region_holds_only_its_own_cards_frames() -> None:
    # a doubled hand's threshold region (250 × 400: two upright cards and one laid sideways across
    # them, 170 wide) read surely as its first card at that card's index; the sideways card's index
    # corner is the region's bottom-left corner
    from vision.index_frames import _same_card, _Sure

    right, down, up = np.array([1.0, 0.0]), np.array([0.0, 1.0]), np.array([0.0, -1.0])
    index = ((105.0, 105.0), (120.0, 105.0), (120.0, 150.0), (105.0, 150.0))
    region = ((100.0, 100.0), (350.0, 100.0), (350.0, 500.0), (100.0, 500.0))
    six = Sighting("6H", 0.91, region, index)
    own = IndexFrame(CornerFrame(np.array([102.0, 101.0]), right, down, 170.0), False, 1.0)
    pips = IndexFrame(CornerFrame(np.array([150.0, 200.0]), right, down, 170.0), False, 1.0)
    across = IndexFrame(CornerFrame(np.array([100.0, 500.0]), up, right, 170.0), False, 1.0)
    # the finder's frames at three other cards' indices: the cards in view are 170 wide
    in_view = [
        IndexFrame(CornerFrame(np.array([x, 100.0]), right, down, 170.0), False, 1.0)
        for x in (500.0, 700.0, 900.0)
    ]
    sure = _Sure([six], in_view)
    assert sure.holds(own)  # its own index
    # the rest of the region: the second card's index lies on the first card's face, the third's at
    # the region's corner; read, and taken only where they read surely
    assert not sure.holds(pips) and sure.in_a_hand(pips)
    assert not sure.holds(across) and sure.in_a_hand(across)
    assert _same_card(six, "6H", index, own, 0.95)
    assert not _same_card(six, "10H", ((110.0, 470.0),) * 4, across, 0.98)
    # read through an outline one card wide, the card holds every frame on it and at its corners
    card = Sighting("6H", 0.91, ((100.0, 100.0), (270.0, 100.0), (270.0, 338.0), (100.0, 338.0)), index)
    below = IndexFrame(CornerFrame(np.array([100.0, 338.0]), up, right, 170.0), False, 1.0)
    assert _Sure([card]).holds(pips) and _Sure([card]).holds(below)
    assert not _Sure([card]).in_a_hand(pips) and not _Sure([card]).in_a_hand(below)
    assert _same_card(card, "10H", ((110.0, 310.0),) * 4, below, 0.98)
    # a frame whose regressed width came out short does not take it for a hand's: the cards in view
    # (the median of the frames' widths and the cards read) are as wide as it
    short = IndexFrame(CornerFrame(np.array([100.0, 338.0]), up, right, 130.0), False, 1.0)
    assert _Sure([card]).holds(short) and _Sure([card], in_view).holds(short)
    assert not _Sure([card], [short] * 3).holds(short)  # where they are that narrow, it does
    assert not _same_card(card, "10H", ((110.0, 310.0),) * 4, short, 0.98)
    assert _same_card(card, "10H", ((110.0, 310.0),) * 4, short, 0.98, in_view=170.0)


def test_a_quad_round_a_hand_with_one_short_side_is_as_wide_as_its_shorter_pair_of_sides() -> None:
    # a threshold quad traced round two cards of a hand, one of its sides cut short where it crosses the
    # upper card (sides 344, 400, 280, 200), read surely at the upper card's index; the cards in view are
    # 200 wide. Its shortest side alone looks like a card's width; its shorter pair of opposite sides
    # (300 on average) is a hand's, so it holds only the frames at its own index, and the lower card's
    # index elsewhere on it is read
    from vision.index_frames import _a_hands, _Sure

    right, down = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    index = ((105.0, 105.0), (120.0, 105.0), (120.0, 150.0), (105.0, 150.0))
    quad = Sighting("6S", 0.98, ((100.0, 100.0), (500.0, 100.0), (500.0, 380.0), (300.0, 380.0)), index)
    in_view = [
        IndexFrame(CornerFrame(np.array([x, 600.0]), right, down, 200.0), False, 1.0)
        for x in (0.0, 300.0)
    ]
    own = IndexFrame(CornerFrame(np.array([102.0, 101.0]), right, down, 200.0), False, 1.0)
    lower = IndexFrame(CornerFrame(np.array([300.0, 200.0]), right, down, 200.0), False, 1.0)
    sure = _Sure([quad], in_view)
    assert sure.holds(own)
    assert not sure.holds(lower) and sure.in_a_hand(lower)
    assert _a_hands(quad, 200.0)  # and a reading at its other corners is no reading of it again
    card = Sighting("6S", 0.98, ((100.0, 100.0), (300.0, 100.0), (300.0, 380.0), (100.0, 380.0)), index)
    assert not _a_hands(card, 200.0)


def test_a_card_lying_corner_to_corner_with_one_read_surely_is_read_at_that_corner() -> None:
    # a 7S read surely through its outline (170 × 238); a 9D lies off its top-left corner, turned half
    # round, its own index corner within a tenth of a width of the 7S's. The finder's frame there points
    # away from the 7S (its card's middle off the 7S): another card, read. The 7S's own frame at that
    # corner, turned 30° off its edges and a fifth too wide, still runs onto the 7S: the 7S again
    from vision.index_frames import _same_card, _Sure

    index = ((105.0, 105.0), (120.0, 105.0), (120.0, 150.0), (105.0, 150.0))
    seven = Sighting("7S", 0.99, ((100.0, 100.0), (270.0, 100.0), (270.0, 338.0), (100.0, 338.0)), index)
    left, up = np.array([-1.0, 0.0]), np.array([0.0, -1.0])
    away = IndexFrame(CornerFrame(np.array([94.0, 96.0]), left, up, 170.0), False, 1.0)
    turn = np.radians(30.0)
    right_ish, down_ish = np.array([np.cos(turn), np.sin(turn)]), np.array([-np.sin(turn), np.cos(turn)])
    own = IndexFrame(CornerFrame(np.array([103.0, 97.0]), right_ish, down_ish, 204.0), False, 1.0)
    sure = _Sure([seven])
    assert not sure.holds(away)
    assert sure.holds(own)
    nine_index = ((90.0, 90.0), (75.0, 90.0), (75.0, 45.0), (90.0, 45.0))
    assert not _same_card(seven, "9D", nine_index, away, 0.95)
    assert _same_card(seven, "9D", nine_index, own, 0.95)


@pytest.mark.parametrize(
    ("background", "seed", "codes"),
    [
        # a 6H, an AC and a 10H laid across them read as the 6H (0.91) through the region round all
        # three: the 10H's index, at that region's corner and on it, was taken for the 6H again
        ("wood", 3007, ["6H", "AC", "10H", "2S", "3S", "6S", "2D", "8C", "JD", "2H", "9C", "KS"]),
        # the second card's index on the first's face, where the finder's first look saw none: the
        # 6H over an AC, and the JS over a 10D, each hand read through its whole region
        ("wood", 3001, ["5H", "AD", "8C", "4D", "8S", "9H", "AC", "6H", "2H", "9D", "4H", "JD"]),
        ("felt", 3003, ["10D", "JS", "2D", "QS", "2H", "AH", "KH", "10H", "9S", "9D", "8H", "7D"]),
    ],
)
def test_a_doubled_hand_read_through_its_whole_region_still_gives_its_other_cards(
    background: str, seed: int, codes: list[str]
) -> None:
    cam = SimulatedCamera(
        size=(1920, 1080), background=background, seed=seed, card_width=170, hand_cards=3, double_down=True
    )
    rec = Recognizer("table")
    rec.quick = False
    found = Counter(s.card for s in rec.recognize(cam.frame_for(codes, "hand").image))
    assert not Counter(codes) - found


def test_a_four_index_cards_two_top_indices_are_one_card_though_their_frames_are_turned() -> None:
    # the upright index at the top-left corner and the mirrored one at the top-right corner, read
    # sideways; the finder misjudges each frame's turn by 10 degrees, so neither frame's card quite
    # reaches the other's corner along its long side
    def turn(degrees: float) -> np.ndarray:
        t = np.radians(degrees)
        return np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])

    top_left = frame_from_vectors(np.array([100.0, 100.0]), turn(10) @ [80.0, 0.0], turn(10) @ [0.0, 80.0])
    top_right = frame_from_vectors(
        np.array([180.0, 100.0]), turn(-10) @ [-80.0, 0.0], turn(-10) @ [0.0, 80.0]
    )
    assert top_right.sideways and not top_left.sideways
    found = [(_reading("9H", 1.0), top_left), (_reading("9H", 0.97), top_right)]
    assert len(index_frames.group_readings(found)) == 1
    # a 9H a card's length further down the table is another card
    below = frame_from_vectors(np.array([100.0, 260.0]), np.array([80.0, 0.0]), np.array([0.0, 80.0]))
    apart = [(_reading("9H", 1.0), top_left), (_reading("9H", 0.6), below)]
    assert len(index_frames.group_readings(apart)) == 2
