"""tools/vision/camera_faults.py: a scene folder read again as a faulty camera would have taken it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "vision"
sys.path.insert(0, str(TOOLS))

from camera_faults import FAULTS, measure, write_copy  # noqa: E402

from vision import SimulatedCamera  # noqa: E402


def test_every_fault_gives_a_frame_the_recogniser_takes() -> None:
    image = np.random.default_rng(1).integers(0, 256, (120, 200, 3), np.uint8)
    for name, fault in FAULTS.items():
        out = fault(image)
        assert out.dtype == np.uint8 and out.ndim == 3 and out.shape[2] == 3, name
    assert FAULTS["turned_90"](image).shape == (200, 120, 3)
    assert np.array_equal(FAULTS["none"](image), image)
    assert (FAULTS["over_exposed"](image) >= image).all()  # every level lifted, clipped at white
    grey = FAULTS["greyscale"](image)
    assert (grey[..., 0] == grey[..., 2]).all()
    # moved two pixels up and left, the frame's size kept (its last rows and columns repeated)
    shifted = FAULTS["shifted"](image)
    assert shifted.shape == image.shape and np.array_equal(shifted[:-2, :-2], image[2:, 2:])


def test_the_wide_lens_bows_a_straight_edge_outward_and_loses_nothing() -> None:
    image = np.zeros((300, 400, 3), np.uint8)
    image[40:260, 60:340] = 255  # a white rectangle: its top edge a straight line at y = 40
    bowed = FAULTS["wide_lens"](image)
    column = lambda x: int(np.argmax(bowed[:, x, 0] > 127))  # noqa: E731  the edge's row at column x
    # barrel distortion: the sides of the frame are drawn smaller than its middle, so the edge, straight
    # in the scene, lies further from the frame's middle at its own middle than towards its ends
    assert column(200) < column(130) < column(70)
    # nothing of the scene leaves the frame: a line along its border is drawn inside it, whole
    border = np.zeros_like(image)
    border[:, :2] = border[:, -2:] = border[:2, :] = border[-2:, :] = 255
    kept = FAULTS["wide_lens"](border)[..., 0] > 60
    assert kept[150, :40].any() and kept[150, -40:].any() and kept[:40, 200].any() and kept[-40:, 200].any()
    assert kept[150, 200] == 0


def test_bowed_cards_have_curved_edges_and_the_frame_border_stays() -> None:
    image = np.zeros((400, 600, 3), np.uint8)
    image[100:300, 150:450] = 255  # a white card-like rectangle: its top edge straight at y = 100
    bowed = FAULTS["bowed"](image)
    rows = [int(np.argmax(bowed[:, x, 0] > 127)) for x in range(170, 431, 20)]
    # the edge no longer lies on one line: its rows spread over more than two pixels, and not as a
    # tilt (a straight line through its ends misses its middle)
    assert max(rows) - min(rows) > 2
    ends = np.interp(range(170, 431, 20), [170, 430], [rows[0], rows[-1]])
    assert np.abs(np.array(rows) - ends).max() > 1.5
    # the warp fades out at the frame's edges: the border is drawn where it was, from inside the frame
    border = np.zeros_like(image)
    border[:, :3] = border[:, -3:] = border[:3, :] = border[-3:, :] = 255
    assert np.array_equal(FAULTS["bowed"](border)[[0, -1]], border[[0, -1]])
    assert np.array_equal(FAULTS["bowed"](border)[:, [0, -1]], border[:, [0, -1]])


def scene_folder(root: Path) -> Path:
    cam = SimulatedCamera(size=(960, 540), background="felt", seed=4, card_width=150)
    (root / "images").mkdir(parents=True)
    cv2.imwrite(str(root / "images" / "a.png"), cam.frame_for(["AS", "9D"], layout="row").image)
    (root / "labels.json").write_text(json.dumps({"a.png": ["AS", "9D"]}))
    return root


def test_a_folder_is_counted_under_each_fault_and_written_faulted(tmp_path: Path) -> None:
    folder = scene_folder(tmp_path / "scenes")
    counts = measure([folder], ["none", "turned_180", "shifted"], workers=1)
    assert counts == {"none": (2, 0, 0), "turned_180": (2, 0, 0), "shifted": (2, 0, 0)}
    # a card the folder says may be read (optional.json) is neither right nor false, as eval counts it
    (folder / "labels.json").write_text(json.dumps({"a.png": ["AS"]}))
    (folder / "optional.json").write_text(json.dumps({"a.png": ["9D"]}))
    assert measure([folder], ["none"], workers=1) == {"none": (1, 0, 0)}
    (folder / "labels.json").write_text(json.dumps({"a.png": ["AS", "9D"]}))
    write_copy(folder, tmp_path / "dark", "dark")
    written = cv2.imread(str(tmp_path / "dark" / "images" / "a.png"))
    original = cv2.imread(str(folder / "images" / "a.png"))
    assert written.shape == original.shape and written.mean() < 0.5 * original.mean()
    assert json.loads((tmp_path / "dark" / "labels.json").read_text()) == {"a.png": ["AS", "9D"]}


def test_a_turned_or_scaled_copy_carries_its_truth_with_it_and_a_bent_one_leaves_it_out(
    tmp_path: Path,
) -> None:
    folder = scene_folder(tmp_path / "scenes")
    image = cv2.imread(str(folder / "images" / "a.png"))
    h, w = image.shape[:2]
    # a truth.json as scenes.py writes it: one card's outline and index quad, in image pixels
    outline = [[100.0, 50.0], [250.0, 50.0], [250.0, 260.0], [100.0, 260.0]]
    quad = [[104.0, 54.0], [124.0, 54.0], [124.0, 94.0], [104.0, 94.0]]
    card = {"code": "AS", "outline": outline, "index_quads": [quad], "index_visible": [True], "visible": 1.0}
    (folder / "truth.json").write_text(json.dumps({"a.png": {"family": "felt", "cards": [card]}}))
    expected = {
        "turned_180": lambda x, y: (w - 1 - x, h - 1 - y),
        "turned_90": lambda x, y: (h - 1 - y, x),
        "shifted": lambda x, y: (x - 2, y - 2),
        "long_800": lambda x, y: ((x + 0.5) * 800 / w - 0.5, (y + 0.5) * 800 / w - 0.5),
        "dark": lambda x, y: (x, y),
    }
    for fault, move in expected.items():
        write_copy(folder, tmp_path / fault, fault)
        moved = json.loads((tmp_path / fault / "truth.json").read_text())["a.png"]["cards"][0]
        assert moved["outline"] == [list(np.round(move(x, y), 2)) for x, y in outline], fault
        assert moved["index_quads"] == [[list(np.round(move(x, y), 2)) for x, y in quad]], fault
        assert moved["code"] == "AS" and moved["visible"] == 1.0
    # the pixel under a truth corner is the pixel under the moved corner of the written frame
    turned = cv2.imread(str(tmp_path / "turned_90" / "images" / "a.png"))
    x, y = 180, 90
    assert np.array_equal(turned[x, h - 1 - y], image[y, x])
    # the wide lens and the bowed cards bend the frame: no truth holds there, so none is written
    for fault in ("wide_lens", "bowed"):
        write_copy(folder, tmp_path / fault, fault)
        assert not (tmp_path / fault / "truth.json").exists()
        assert (tmp_path / fault / "labels.json").is_file()
