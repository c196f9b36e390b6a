"""tools/vision/ab_sets.py: two readings of one scene folder compared scene by scene, with the noise."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "vision"
sys.path.insert(0, str(TOOLS))

from ab_sets import compare, main, read  # noqa: E402

from vision import SimulatedCamera  # noqa: E402


def _folder(root: Path, labels: dict[str, list[str]], optional: dict[str, list[str]]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "labels.json").write_text(json.dumps(labels))
    (root / "optional.json").write_text(json.dumps(optional))
    return root


def test_counts_are_those_of_dealer_vision_eval_and_the_changed_scenes_are_listed(tmp_path: Path) -> None:
    root = _folder(
        tmp_path,
        {"a.jpg": ["AS", "KD"], "b.jpg": ["2C", "2C"], "c.jpg": ["QH"]},
        {"a.jpg": ["BK"]},
    )
    base = {"a.jpg": ["AS", "BK"], "b.jpg": ["2C", "3C"], "c.jpg": ["QH"]}
    new = {"a.jpg": ["AS", "KD", "BK"], "b.jpg": ["2C"], "c.jpg": ["QH"]}
    out = compare(root, base, new, resamples=200)
    # base: a 1 right (BK optional: neither), 1 missed; b 1 right, 1 false (3C), 1 missed; c 1 right
    assert out["base"] == {"right": 3, "false": 1, "missed": 2, "f1": round(6 / 9, 4)}
    assert out["new"] == {"right": 4, "false": 0, "missed": 1, "f1": round(8 / 9, 4)}
    # a: +1 right; b: the false 3C gone, so right minus false +1; c: unchanged
    assert out["scenes"] == {"better": 2, "worse": 0, "same": 1}
    assert [c["scene"] for c in out["changed"]] == ["a.jpg", "b.jpg"]  # type: ignore[attr-defined]


def test_the_interval_holds_nothing_but_zero_for_one_reading_and_leaves_zero_out_for_a_clear_gain(
    tmp_path: Path,
) -> None:
    labels = {f"s{i:02d}.jpg": ["AS", "KD", "7C"] for i in range(40)}
    root = _folder(tmp_path, labels, {})
    base = {n: ["AS"] for n in labels}
    same = compare(root, base, dict(base), resamples=300)
    assert same["interval_95"] == {"f1": (0.0, 0.0), "right_minus_false": (0.0, 0.0)}
    # every scene one card better: the whole interval above zero
    better = compare(root, base, {n: ["AS", "KD"] for n in labels}, resamples=300)
    lo, hi = better["interval_95"]["right_minus_false"]  # type: ignore[index]
    assert lo == hi == 40
    assert better["interval_95"]["f1"][0] > 0  # type: ignore[index]
    # one scene of forty better, one worse: zero inside the interval
    mixed = dict(base) | {"s00.jpg": ["AS", "KD"], "s01.jpg": []}
    lo, hi = compare(root, base, mixed, resamples=300)["interval_95"]["right_minus_false"]  # type: ignore[index]
    assert lo < 0 < hi


def test_readings_that_do_not_match_the_folder_are_a_clear_error(tmp_path: Path) -> None:
    root = _folder(tmp_path, {"a.jpg": ["AS"], "b.jpg": ["KD"]}, {})
    with pytest.raises(SystemExit, match="not in the readings: b.jpg"):
        compare(root, {"a.jpg": [], "b.jpg": []}, {"a.jpg": []})
    with pytest.raises(SystemExit, match="does not hold: z.jpg"):
        compare(root, {"a.jpg": [], "b.jpg": [], "z.jpg": []}, {"a.jpg": [], "b.jpg": []})
    with pytest.raises(SystemExit, match="no such file"):
        compare(tmp_path / "nowhere", {}, {})
    with pytest.raises(SystemExit, match="no vision package there"):
        main(["read", str(root), "--out", str(tmp_path / "o.json"), "--tree", str(tmp_path)])


def test_read_gives_the_codes_the_table_recogniser_reads_in_each_scene(tmp_path: Path) -> None:
    import cv2

    camera = SimulatedCamera(size=(800, 450), background="felt", seed=3, card_width=150)
    scenes = {"one.png": ["AS", "10H", "QD"], "two.png": ["7C", "KH"]}
    (tmp_path / "images").mkdir()
    for name, codes in scenes.items():
        cv2.imwrite(str(tmp_path / "images" / name), camera.frame_for(codes, layout="row").image)
    _folder(tmp_path, scenes, {})
    got = read(tmp_path)
    assert got == {name: sorted(codes) for name, codes in scenes.items()}
    main(["read", str(tmp_path), "--out", str(tmp_path / "r.json")])
    assert json.loads((tmp_path / "r.json").read_text()) == got
    # the same scenes read turned upside down, as a camera across the table would see them
    main(["read", str(tmp_path), "--out", str(tmp_path / "t.json"), "--fault", "turned_180"])
    assert json.loads((tmp_path / "t.json").read_text()) == got
    with pytest.raises(SystemExit, match="--fault sideways: not a fault camera_faults.py knows"):
        main(["read", str(tmp_path), "--out", str(tmp_path / "x.json"), "--fault", "sideways"])
    # and as a live camera over each scene lying still: six noisy frames, the round's agreement
    main(["read", str(tmp_path), "--out", str(tmp_path / "l.json"), "--live", "6"])
    assert json.loads((tmp_path / "l.json").read_text()) == got
    with pytest.raises(SystemExit, match="--live -1: expected a number of frames, 1 or more"):
        main(["read", str(tmp_path), "--out", str(tmp_path / "x.json"), "--live", "-1"])
    with pytest.raises(SystemExit, match="--live with --looks 4: a live camera reads one look a frame"):
        main(["read", str(tmp_path), "--out", str(tmp_path / "x.json"), "--live", "6", "--looks", "4"])
