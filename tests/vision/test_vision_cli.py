"""The `dealer vision` and `dealer bench vision` commands on rendered images."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from table_video import table_video
from typer.testing import CliRunner

from dealer.cli import app
from dealer.commands.vision import SHOWN_MISSES
from vision import SimulatedCamera
from vision.evaluate import EvalReport

runner = CliRunner()


def test_recognize_json_lists_cards_with_confidence_and_outline(tmp_path: Path) -> None:
    shot = SimulatedCamera(seed=2).frame_for(["JH", "4C"], "row")
    path = tmp_path / "t.png"
    cv2.imwrite(str(path), shot.image)
    res = runner.invoke(app, ["vision", "recognize", str(path), "--mode", "table", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert sorted(c["card"] for c in out) == ["4C", "JH"]
    assert all(0 <= c["confidence"] <= 1 and len(c["outline"]) == 4 for c in out)


def test_recognize_reads_a_photo_several_ways_unless_asked_once_and_names_a_bad_count(tmp_path: Path) -> None:
    shot = SimulatedCamera(seed=2).frame_for(["JH", "4C"], "row")
    path = tmp_path / "t.png"
    cv2.imwrite(str(path), shot.image)
    several = runner.invoke(app, ["vision", "recognize", str(path), "--json"])
    once = runner.invoke(app, ["vision", "recognize", str(path), "--looks", "1", "--json"])
    assert several.exit_code == once.exit_code == 0, several.output + once.output
    assert sorted(c["card"] for c in json.loads(several.stdout)) == ["4C", "JH"]
    assert sorted(c["card"] for c in json.loads(once.stdout)) == ["4C", "JH"]
    bad = runner.invoke(app, ["vision", "recognize", str(path), "--looks", "2"])
    assert bad.exit_code != 0 and "--looks must be one of 1, 3, 4, got 2" in bad.stderr


def test_recognize_missing_image_fails_with_a_message(tmp_path: Path) -> None:
    res = runner.invoke(app, ["vision", "recognize", str(tmp_path / "none.png"), "--json"])
    assert res.exit_code != 0
    assert "not found" in res.stderr


def test_recognize_a_frame_too_small_to_read_fails_with_a_message_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "dot.png"
    cv2.imwrite(str(path), np.zeros((1, 1, 3), np.uint8))
    res = runner.invoke(app, ["vision", "recognize", str(path)])
    assert res.exit_code == 2
    assert "at least 2×2 pixels, got 1×1" in res.stderr and "Traceback" not in res.output


def test_recognize_with_a_window_outside_the_image_fails_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "t.png"
    cv2.imwrite(str(path), SimulatedCamera(size=(400, 300), seed=2).frame_for(["JH"], "row").image)
    shoe = ["vision", "recognize", str(path), "--mode", "shoe", "--window"]
    res = runner.invoke(app, [*shoe, "500,500,50,50"])
    assert res.exit_code == 2
    assert "lies outside the 400×300 frame" in " ".join(res.stderr.split())
    res = runner.invoke(app, [*shoe, "0,0,0,50"])
    assert res.exit_code == 2 and "--window" in res.stderr


def _single_card_folders(root: Path) -> None:
    cam = SimulatedCamera(size=(800, 600), background="grey", seed=3, card_width=200)
    for code in ("6H", "9H", "QS"):
        (root / code).mkdir(parents=True)
        for i in range(2):
            shot = cam.frame_for([code], "scatter")
            cv2.imwrite(str(root / code / f"{i}.jpg"), shot.image)


def test_eval_single_card_folders_reports_accuracy(tmp_path: Path) -> None:
    _single_card_folders(tmp_path)
    res = runner.invoke(app, ["vision", "eval", str(tmp_path), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["layout"] == "single" and out["frames"] == 6
    assert out["accuracy"] == 1.0 and out["ms_per_frame"] > 0


def test_eval_scene_folder_reports_precision_recall(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    labels = {}
    cam = SimulatedCamera(seed=4)
    for i, codes in enumerate((["AS", "BK", "7D"], ["10C", "2H"])):
        cv2.imwrite(str(tmp_path / "images" / f"{i}.png"), cam.frame_for(codes, "row").image)
        labels[f"{i}.png"] = codes
    labels["0.png"] = ["AS", "BK", "8D"]  # one wrong label: one false positive and one false negative
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    out = json.loads(runner.invoke(app, ["vision", "eval", str(tmp_path), "--json"]).stdout)
    assert out["layout"] == "scenes"
    assert (out["true_positives"], out["false_positives"], out["false_negatives"]) == (4, 1, 1)
    assert out["confusions"] == [{"truth": "8D", "read": "7D", "count": 1}]
    assert out["ignored"] == 0

    # a card the folder marks optional (in the picture but too small to require): reading it is
    # neither right nor false; reading a card that is not there at all still is false
    labels["1.png"] = ["10C"]
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    (tmp_path / "optional.json").write_text(json.dumps({"1.png": ["2H"], "0.png": ["KS"]}))
    out = json.loads(runner.invoke(app, ["vision", "eval", str(tmp_path), "--json"]).stdout)
    assert (out["true_positives"], out["false_positives"], out["false_negatives"]) == (3, 1, 1)
    assert out["ignored"] == 1


def test_eval_lists_the_frames_read_wrong_and_json_lists_every_one(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    shot = SimulatedCamera(seed=4).frame_for(["AS", "7D"], "row").image
    labels = {}
    for i in range(SHOWN_MISSES + 2):  # each frame labelled with one card it does not show
        cv2.imwrite(str(tmp_path / "images" / f"{i:02d}.png"), shot)
        labels[f"{i:02d}.png"] = ["AS", "8D"]
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    res = runner.invoke(app, ["vision", "eval", str(tmp_path)])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert "  00.png: not read 8D; read but not there 7D" in lines
    assert sum(": not read 8D" in line for line in lines) == SHOWN_MISSES
    assert "  … and 2 more frames read wrong (--json lists every one)" in lines
    out = json.loads(runner.invoke(app, ["vision", "eval", str(tmp_path), "--json"]).stdout)
    assert len(out["misses"]) == SHOWN_MISSES + 2


def test_an_eval_report_lists_every_frame_read_wrong_however_many() -> None:
    rep = EvalReport("scenes")
    rep.misses = [{"file": f"{i}.jpg", "missing": ["AS"], "extra": []} for i in range(240)]
    assert len(rep.to_json()["misses"]) == 240  # type: ignore[arg-type]


def test_eval_rejects_an_unknown_layout(tmp_path: Path) -> None:
    (tmp_path / "junk").mkdir()
    res = runner.invoke(app, ["vision", "eval", str(tmp_path), "--json"])
    assert res.exit_code != 0 and "neither" in res.stderr


def test_calibrate_from_a_labelled_folder_then_recognise_with_it(tmp_path: Path) -> None:
    _single_card_folders(tmp_path / "deck")
    cal = tmp_path / "deck.npz"
    res = runner.invoke(
        app, ["vision", "calibrate", "--source", str(tmp_path / "deck"), "--out", str(cal), "--json"]
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["glyph_pairs"] >= 6
    img = next((tmp_path / "deck" / "9H").iterdir())
    res = runner.invoke(
        app, ["vision", "recognize", str(img), "--mode", "shoe", "--calibration", str(cal), "--json"]
    )
    assert [c["card"] for c in json.loads(res.stdout)] == ["9H"]


def test_calibrate_from_a_new_deck_pass_folder(tmp_path: Path) -> None:
    cam = SimulatedCamera(size=(640, 480), background="dark", seed=5)
    frames = tmp_path / "pass"
    frames.mkdir()
    n = 0
    for code in ("AS", "2S", "3S"):  # the first cards of a new deck
        for img in cam.shoe_pass(code, steps=4, empty=1):
            cv2.imwrite(str(frames / f"{n:04d}.png"), img)
            n += 1
    cal = tmp_path / "nd.npz"
    res = runner.invoke(
        app,
        ["vision", "calibrate", "--source", str(frames), "--order", "new-deck", "--out", str(cal), "--json"],
    )
    assert res.exit_code == 0, res.output
    assert cal.is_file()


def test_watch_prints_one_event_per_card(tmp_path: Path) -> None:
    cam = SimulatedCamera(size=(640, 480), background="dark", seed=7)
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, img in enumerate(cam.shoe_pass("8C", steps=6, empty=2)):
        cv2.imwrite(str(folder / f"{i:03d}.png"), img)
    res = runner.invoke(
        app, ["vision", "watch", "--source", str(folder), "--mode", "shoe", "--confirm", "2", "--json"]
    )
    assert res.exit_code == 0, res.output
    events = [json.loads(line) for line in res.stdout.splitlines()]
    assert [(e["event"], e["card"]) for e in events] == [("new", "8C")]


def test_watch_on_a_table_gives_each_card_once_as_it_is_dealt(tmp_path: Path) -> None:
    # a still table (each frame with its own noise), then a third card dealt: read only after changes
    cam = SimulatedCamera(size=(960, 540), background="felt", seed=5, card_width=110)
    base, spots = cam.table(), cam.layout(["AS", "KH", "7D"], "row")
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(8):
        cv2.imwrite(str(folder / f"{i:03d}.png"), cam.render(spots[: 2 if i < 4 else 3], base=base).image)
    res = runner.invoke(
        app, ["vision", "watch", "--source", str(folder), "--mode", "table", "--confirm", "2", "--json"]
    )
    assert res.exit_code == 0, res.output
    events = [json.loads(line) for line in res.stdout.splitlines()]
    assert sorted((e["event"], e["card"]) for e in events) == [("new", "7D"), ("new", "AS"), ("new", "KH")]
    assert next(e["frame"] for e in events if e["card"] == "7D") > 4  # dealt in the fifth frame


def test_watch_skips_frames_it_cannot_read_says_so_once_and_reads_on(tmp_path: Path) -> None:
    cam = SimulatedCamera(size=(640, 480), background="dark", seed=7)
    folder = tmp_path / "frames"
    folder.mkdir()
    frames = cam.shoe_pass("8C", steps=6, empty=2)
    for i, img in enumerate(frames):
        cv2.imwrite(str(folder / f"{i:03d}.png"), img)
    for i in (1, 2):  # two one-line frames: a camera's broken grabs
        cv2.imwrite(str(folder / f"{i:03d}b.png"), np.zeros((1, 640, 3), np.uint8))
    res = runner.invoke(
        app, ["vision", "watch", "--source", str(folder), "--mode", "shoe", "--confirm", "2", "--json"]
    )
    assert res.exit_code == 0, res.output
    events = [json.loads(line) for line in res.stdout.splitlines()]
    assert [(e["event"], e["card"]) for e in events] == [("new", "8C")]
    assert res.stderr.count("skipped") == 1 and "got 640×1" in res.stderr


@pytest.mark.slow
def test_bench_vision_json() -> None:
    res = runner.invoke(app, ["bench", "vision", "--repeat", "1", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["shoe_frame_640x480"]["mean_ms"] > 0
    assert out["table_cards_found"] == [12, 12]
    assert out["table_frame_1920x1080_6_hands"]["median_ms"] > 0
    assert out["table_frame_1920x1080_4_hands_of_3"]["median_ms"] > 0 and out["hits_cards_found"] == 12
    assert out["table_frame_1920x1080_4_doubled_hands"]["median_ms"] > 0 and out["doubled_cards_found"] == 12
    assert out["table_frame_1920x1080_12_small_cards"]["median_ms"] > 0 and out["small_cards_found"] == 12
    # the 24 MP photos also as `dealer vision recognize` reads a photo: up to four looks
    for key in ("photo_6000x4000_9_cards_4_looks", "photo_6000x4000_8_small_cards_4_looks"):
        assert out[key]["median_ms"] > 0 and out[key]["target_ms"] == 1500.0
    # the live camera over the six hands: every card of the deal seen, the still frames not read again
    assert out["live_cards_found"] == 12 and out["live_1920x1080_unchanged"]["frames"] == 6


def test_eval_all_scores_every_folder_with_its_finder(tmp_path: Path) -> None:
    dev = tmp_path / "dev"
    _single_card_folders(dev / "singles")
    scenes = dev / "scenes"
    (scenes / "images").mkdir(parents=True)
    shot = SimulatedCamera(size=(960, 540), background="light_wood", seed=4).frame_for(["AS", "7D"], "row")
    cv2.imwrite(str(scenes / "images" / "a.png"), shot.image)
    (scenes / "labels.json").write_text(json.dumps({"a.png": ["AS", "7D"]}))
    res = runner.invoke(app, ["vision", "eval-all", "--dev", str(dev), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["singles"]["finder"] == "classic" and out["singles"]["frames"] == 6
    assert out["scenes"]["finder"] == "both" and out["scenes"]["true_positives"] == 2
    bad = runner.invoke(app, ["vision", "eval-all", "--dev", str(dev), "--finder", "magic"])
    assert bad.exit_code != 0 and "--finder" in bad.stderr


def test_check_tells_a_host_their_cards_are_too_small_and_writes_the_view(tmp_path: Path) -> None:
    far = SimulatedCamera(size=(1280, 720), background="felt", seed=3, card_width=60)
    path = tmp_path / "far.png"
    cv2.imwrite(str(path), far.frame_for(["AS", "10H", "QD"], "row").image)
    drawn = tmp_path / "view.png"
    res = runner.invoke(app, ["vision", "check", str(path), "--annotate", str(drawn)])
    assert res.exit_code == 0, res.output
    assert "Move the camera closer" in " ".join(res.stdout.split())
    assert cv2.imread(str(drawn)).shape == (720, 1280, 3)
    res = runner.invoke(app, ["vision", "check", str(path), "--json"])
    out = json.loads(res.stdout)
    assert [a["code"] for a in out["advice"]] == ["small_cards"] and out["ok"] is False
    assert sorted(s["card"] for s in out["seen"]) == ["10H", "AS", "QD"]


def test_check_takes_a_settled_frame_from_a_video_and_passes_a_good_view(tmp_path: Path) -> None:
    path = table_video(tmp_path / "table.avi", ["7C", "KD"], 3)  # 150-px cards on felt
    res = runner.invoke(app, ["vision", "check", str(path), "--settle", "3"])
    assert res.exit_code == 0, res.output
    assert "camera set up well" in res.stdout


def test_check_of_a_missing_source_fails_with_a_message(tmp_path: Path) -> None:
    res = runner.invoke(app, ["vision", "check", str(tmp_path / "none.png")])
    assert res.exit_code == 2 and "not found" in res.stderr
