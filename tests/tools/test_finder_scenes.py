"""The scene generator (tools/vision/scenes.py): the finder's backs-stage options (backs with art of
their own, a bigger share of backs, layout weights) and the benchmark's ground truth."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "vision"
sys.path.insert(0, str(TOOLS))

from backgrounds import TRAIN_FAMILIES  # noqa: E402
from scenes import FACE_PX, Deck, corner_affine, make_scene, targets, varied_back, write_benchmark  # noqa: E402

from vision.render import CARD_ASPECT  # noqa: E402


def test_varied_backs_are_card_sized_and_patterned() -> None:
    rng = np.random.default_rng(11)
    designs = [varied_back(rng, (240, 240, 235)) for _ in range(30)]
    for img in designs:
        assert img.shape == (int(round(FACE_PX * CARD_ASPECT)), FACE_PX, 3)
        middle = img[img.shape[0] // 4 : -img.shape[0] // 4, FACE_PX // 4 : -FACE_PX // 4]
        assert middle.reshape(-1, 3).std(axis=0).max() > 3  # a texture, never a flat colour
    # many designs, not one: their mean colours spread
    assert np.std([d.mean() for d in designs]) > 15


def test_back_heavy_scene_has_backs_with_their_own_art_and_targets() -> None:
    rng = np.random.default_rng(3)
    decks = [Deck(rng) for _ in range(2)]
    backs = 0
    for _ in range(6):
        s = make_scene(rng, (256, 256), TRAIN_FAMILIES, decks, backs=5000, back_designs=1.0)
        backs += sum(c.code == "BK" for c in s.cards)
        t = targets(s, 4)
        for c in s.cards:  # every card that shows is in the interior target
            assert (s.labels == c.ident).any()
        assert t[0].sum() > 0 or not s.cards
    assert backs >= 6


def test_layout_weights_choose_the_layout() -> None:
    rng = np.random.default_rng(4)
    decks = [Deck(rng)]
    visible = []
    for _ in range(8):  # stacks only: cards pile on each other, most are partly covered
        s = make_scene(rng, (256, 256), TRAIN_FAMILIES, decks, max_cards=8, layout_p=(0, 0, 0, 0, 0, 1))
        visible += [c.visible for c in s.cards]
    assert np.mean(np.array(visible) < 0.95) > 0.6  # the default mix: about half


def test_in_frame_is_the_part_of_the_card_inside_the_frame() -> None:
    rng = np.random.default_rng(21)
    decks = [Deck(rng)]
    cut = 0
    for _ in range(12):
        s = make_scene(rng, (256, 192), TRAIN_FAMILIES, decks, max_cards=6)
        frame = np.array([[0, 0], [256, 0], [256, 192], [0, 192]], np.float32)
        for c in s.cards:
            if np.linalg.norm(c.outline[1] - c.outline[0]) < 30:
                continue  # on a tiny card the mask's anti-aliased edge outweighs the frame's cut
            quad = c.outline.astype(np.float32)
            inside = cv2.intersectConvexConvex(quad, frame)[0] / cv2.contourArea(quad)
            assert abs(c.in_frame - inside) < 0.04  # the outline's rounded corners differ a little
            assert 0 < c.shown <= c.visible
            cut += c.in_frame < 0.9
    assert cut > 0  # the draw did cut some cards at the frame's edge


def test_a_back_mostly_outside_the_frame_is_not_asked_for(tmp_path: Path) -> None:
    write_benchmark(tmp_path, "train", 60, 8, (320, 240))
    truth = json.loads((tmp_path / "truth.json").read_text())
    labels = json.loads((tmp_path / "labels.json").read_text())
    optional = json.loads((tmp_path / "optional.json").read_text())
    asked = left = 0
    for name, scene in truth.items():
        for c in scene["cards"]:
            if c["code"] != "BK" or np.linalg.norm(np.subtract(c["outline"][1], c["outline"][0])) < 50:
                continue
            shown = c["visible"] * c["in_frame"]
            if shown > 0.5:
                asked += 1
                assert "BK" in labels[name]
            elif c["visible"] > 0.5:  # uncovered, but mostly outside the frame
                left += 1
                assert "BK" in optional[name]
    assert asked > 0 and left > 0


def test_a_curled_card_bows_its_long_edges_and_keeps_its_corners() -> None:
    # single cards only, big, so that the label map shows the edge's shape
    def scene(curl: tuple[float, np.random.Generator] | None):  # type: ignore[no-untyped-def]
        rng = np.random.default_rng(2)
        return make_scene(
            rng,
            (640, 640),
            TRAIN_FAMILIES,
            [Deck(rng)],
            max_cards=1,
            min_card=120,
            max_card=180,
            layout_p=(1, 0, 0, 0, 0, 0),
            curl=curl,
        )

    flat, curled = scene(None), scene((1.0, np.random.default_rng(3)))
    assert len(flat.cards) == len(curled.cards)
    whole = [k for k, c in enumerate(flat.cards) if c.visible > 0.98 and c.in_frame > 0.98]
    assert whole  # a card lying whole in the frame, for its edge to be looked at
    a, b = flat.cards[whole[0]], curled.cards[whole[0]]
    # the curl has a generator of its own: the same card, at the same corners
    assert a.code == b.code and np.allclose(a.outline, b.outline)
    width = float(np.linalg.norm(a.outline[1] - a.outline[0]))
    # the label map's long edge at mid-length: moved across by 2-6 % of a card width
    across = (a.outline[1] - a.outline[0]) / width

    def edge_offset(labels: np.ndarray, ident: int) -> float:
        mid = (a.outline[0] + a.outline[3]) / 2
        ts = np.arange(-0.2, 0.2, 0.002) * width
        inside = [
            labels[int(round(p[1])), int(round(p[0]))] == ident
            for p in (mid + t * across for t in ts)
            if 0 <= p[0] < labels.shape[1] and 0 <= p[1] < labels.shape[0]
        ]
        return float(ts[int(np.argmax(inside))])  # the first point on the card, crossing the edge

    moved = abs(edge_offset(curled.labels, b.ident) - edge_offset(flat.labels, a.ident)) / width
    assert 0.015 < moved < 0.07
    # its index boxes follow the ink: near the corner the bow is small, never more than the curl
    for q0, q1 in zip(a.index_quads, b.index_quads, strict=True):
        shift = np.abs(q1 - q0).max() / width
        assert shift < 0.06
    assert any(
        np.abs(q1 - q0).max() > 0.005 * width for q0, q1 in zip(a.index_quads, b.index_quads, strict=True)
    )
    assert not np.array_equal(flat.image, curled.image)
    # the truth a corner network learns from: the long edge turned as it leaves the corner, so that
    # in the curled card's local frame its index lies where the flat card's lies in its own
    assert a.bow == 0.0 and 0.02 <= abs(b.bow) <= 0.06
    assert "bow" in b.to_json() and "bow" not in a.to_json()
    k = int(np.argmax(b.index_visible))

    def place(quad: np.ndarray, bow: float) -> np.ndarray:  # the index middle in card widths from the corner
        corner, s_vec, l_vec = corner_affine(b.outline, k, bow)
        return np.linalg.solve(np.c_[s_vec, l_vec], quad.mean(axis=0) - corner)

    flat_place = place(a.index_quads[k], 0.0)
    turned = float(np.linalg.norm(place(b.index_quads[k], b.bow) - flat_place))
    unturned = float(np.linalg.norm(place(b.index_quads[k], 0.0) - flat_place))
    assert turned < 0.005 and unturned > 5 * turned  # (a flat card's frame there is off by ~0.01)
    flat_l = corner_affine(b.outline, k)[2]
    bent_l = corner_affine(b.outline, k, b.bow)[2]
    turn = np.degrees(np.arccos(np.dot(flat_l, bent_l) / np.linalg.norm(flat_l) / np.linalg.norm(bent_l)))
    assert turn > 1.0


def test_held_out_back_art_changes_only_the_backs(tmp_path: Path) -> None:
    # the benchmark's --back-art: the same scenes and labels, the backs of another design
    plain, art = tmp_path / "plain", tmp_path / "art"
    write_benchmark(plain, "held-out", 24, 5, (320, 240))
    write_benchmark(art, "held-out", 24, 5, (320, 240), back_art=1.0)
    for name in ("labels.json", "optional.json", "truth.json"):
        assert (plain / name).read_text() == (art / name).read_text()
    truth = json.loads((plain / "truth.json").read_text())
    changed = same = 0
    for name, scene in truth.items():
        a = cv2.imread(str(plain / "images" / name)).astype(int)
        b = cv2.imread(str(art / "images" / name)).astype(int)
        differs = np.abs(a - b).max(axis=2) > 40
        if any(c["code"] == "BK" and c["visible"] > 0.3 for c in scene["cards"]):
            changed += differs.any()
        elif not any(c["code"] == "BK" for c in scene["cards"]):  # the same but for JPEG rounding
            same += 1
            assert differs.mean() < 0.001
    assert changed > 0 and same > 0


def test_held_out_backs_are_patterned_cards_of_each_kind() -> None:
    from held_out_backs import KINDS, held_out_back

    rng = np.random.default_rng(2)
    for kind in KINDS:
        img = held_out_back(rng, (240, 240, 235), FACE_PX, kind)
        assert img.shape == (int(round(FACE_PX * CARD_ASPECT)), FACE_PX, 3)
        middle = img[img.shape[0] // 4 : -img.shape[0] // 4, FACE_PX // 4 : -FACE_PX // 4]
        assert middle.reshape(-1, 3).std(axis=0).max() > 10
