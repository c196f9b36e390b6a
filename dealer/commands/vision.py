"""``dealer vision``: recognise cards in images and streams, evaluate, calibrate a deck, watch a camera."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from dealer.commands.output import console, errors, fail, print_json
from dealer.table.camera_view import ViewRecorder
from vision import (
    NEW_DECK_ORDER,
    Calibration,
    FrameError,
    LiveRecognizer,
    Recognizer,
    ShoeTracker,
    TableTracker,
    VisionError,
    annotate,
    check_view,
    is_card_code,
    open_source,
    read_image,
    write_image,
)
from vision.evaluate import evaluate
from vision.index import cut_patch, segment_index
from vision.looks import LOOKS
from vision.recognizer import FINDERS

NAME = "vision"
app = typer.Typer(
    help="Card recognition: recognise, check a camera's set-up, evaluate, calibrate a deck, watch a camera.",
    no_args_is_help=True,
)

ModeOpt = Annotated[str, typer.Option("--mode", help="shoe (one card in a window) or table (every card).")]
CalOpt = Annotated[Path | None, typer.Option("--calibration", help="Deck calibration file from `calibrate`.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output only.")]
FinderOpt = Annotated[
    str | None,
    typer.Option(
        "--finder",
        help="Card finder: learned, classic (thresholds) or both (default: the measured choice per mode).",
    ),
]
LOOKS_HELP = (
    "Reads of each image, at most: 4 (as it is, moved two pixels, turned upside down and a quarter; the "
    "cards two of them agree on: more read, fewer made up; two reads, more only where they disagree), "
    "3 (without the quarter turn) or 1."
)


def _looks(looks: int) -> int:
    if looks not in LOOKS:
        fail(f"--looks must be one of {', '.join(map(str, LOOKS))}, got {looks}")
    return looks


def _recognizer(
    mode: str, calibration: Path | None, window: str | None = None, finder: str | None = None, looks: int = 1
) -> Recognizer:
    if mode not in ("shoe", "table"):
        fail(f"--mode must be 'shoe' or 'table', got {mode!r}")
    if finder is not None and finder not in FINDERS:
        fail(f"--finder must be one of {', '.join(FINDERS)}, got {finder!r}")
    cal = None
    if calibration is not None:
        try:
            cal = Calibration.load(calibration)
        except VisionError as exc:
            fail(str(exc))
    win = None
    if window:
        try:
            x, y, w, h = (int(v) for v in window.split(","))
            win = (x, y, w, h)
        except ValueError:
            fail(f"--window must be x,y,w,h in pixels, got {window!r}")
    try:
        return Recognizer(mode, calibration=cal, window=win, finder=finder, looks=_looks(looks))  # type: ignore[arg-type]
    except VisionError as exc:  # a window of no size, or off the frame's top-left
        fail(f"--window: {exc}")


@app.command()
def recognize(
    image: Annotated[Path, typer.Argument(help="Image file (PNG, JPEG…).")],
    mode: ModeOpt = "table",
    calibration: CalOpt = None,
    window: Annotated[str | None, typer.Option(help="Shoe window x,y,w,h in pixels.")] = None,
    finder: FinderOpt = None,
    annotated: Annotated[
        Path | None,
        typer.Option(
            "--annotate",
            help="Also write the image with every card found outlined and labelled (check a camera's view).",
        ),
    ] = None,
    looks: Annotated[
        int | None, typer.Option("--looks", help=LOOKS_HELP + " Default: 4 for a table, 1 for a shoe window.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Recognise the cards in one image (a table photo is read up to four ways unless --looks 1)."""
    rec = _recognizer(
        mode, calibration, window, finder, looks if looks is not None else (4 if mode == "table" else 1)
    )
    try:
        frame = read_image(image)
    except VisionError as exc:
        fail(str(exc))
    try:
        found = rec.recognize(frame)
    except VisionError as exc:
        fail(str(exc))
    if annotated is not None:
        try:
            write_image(annotated, annotate(frame, found))
        except VisionError as exc:
            fail(str(exc))
    if as_json:
        print_json([s.to_json() for s in found])
        return
    if not found:
        console.print("no cards found")
    for s in found:
        cx, cy = s.centre
        console.print(f"{s.card:>3}  confidence {s.confidence:.2f}  at ({cx:.0f}, {cy:.0f})")


@app.command()
def check(
    source: Annotated[str, typer.Argument(help="An image file, a camera index (0), a video file or a URL.")],
    mode: ModeOpt = "table",
    calibration: CalOpt = None,
    window: Annotated[str | None, typer.Option(help="Shoe window x,y,w,h in pixels.")] = None,
    settle: Annotated[
        int, typer.Option(min=1, help="From a camera or video, check its Nth frame (exposure settles first).")
    ] = 10,
    annotated: Annotated[
        Path | None, typer.Option("--annotate", help="Also write the frame with the cards drawn on it.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Check a camera's set-up: are the cards big enough, lit well and read surely? Plain advice."""
    rec = _recognizer(mode, calibration, window, None)
    try:
        frames = open_source(source, max_frames=settle)
        try:
            frame = None
            for frame in frames:  # noqa: B007 - the last of the first ``settle`` frames is checked
                continue
        finally:
            frames.close()
        if frame is None:
            fail(f"{source} gave no frame: is the camera connected and not in use by another program?")
        found = rec.recognize(frame.image)
        report = check_view(frame.image, found)
        if annotated is not None:
            write_image(annotated, annotate(frame.image, found))
    except VisionError as exc:
        fail(str(exc))
    if as_json:
        print_json({**report.to_json(), "seen": [s.to_json() for s in found]})
        return
    width = "no card" if report.card_width is None else f"cards about {report.card_width:.0f} px wide"
    console.print(f"frame {report.width}×{report.height}: {len(found)} seen, {width}")
    for s in found:
        console.print(f"  {s.card:>3}  confidence {s.confidence:.2f}")
    if report.ok:
        console.print("camera set up well: nothing to change")
    for a in report.advice:
        console.print(f"- {a.message}")


SHOWN_MISSES = 15  # frames read wrong listed by ``dealer vision eval`` without --json


def _miss_line(miss: dict[str, Any]) -> str:
    """One frame read wrong, as ``dealer vision eval`` lists it: a single card's file, what it is and
    what was read; a scene's file, the cards not read and those read that are not there."""
    if "truth" in miss:
        return f"{miss['file']}: {miss['truth']} read as {miss['read']}"
    parts = []
    if miss["missing"]:
        parts.append("not read " + " ".join(miss["missing"]))
    if miss["extra"]:
        parts.append("read but not there " + " ".join(miss["extra"]))
    return f"{miss['file']}: " + "; ".join(parts)


@app.command("eval")
def eval_(
    directory: Annotated[Path, typer.Argument(help="DIR/<CODE>/*.jpg, or DIR/images/ + DIR/labels.json.")],
    mode: Annotated[
        str | None,
        typer.Option(
            "--mode", help="shoe or table (default: shoe for single-card folders, table for scenes)."
        ),
    ] = None,
    calibration: CalOpt = None,
    limit: Annotated[int | None, typer.Option(help="Evaluate only the first N images.")] = None,
    finder: FinderOpt = None,
    looks: Annotated[int, typer.Option("--looks", help=LOOKS_HELP)] = 1,
    as_json: JsonOpt = False,
) -> None:
    """Score recognition on a labelled folder: accuracy, or precision/recall/F1, confusions, ms/frame."""
    from vision.evaluate import detect_layout

    try:
        layout = detect_layout(directory)
    except (VisionError, OSError) as exc:
        fail(str(exc))
    rec = _recognizer(
        mode or ("shoe" if layout == "single" else "table"), calibration, finder=finder, looks=looks
    )
    try:
        if as_json:
            report = evaluate(directory, rec, limit=limit)
        else:
            from rich.progress import Progress

            with Progress(console=console, transient=True) as bar:
                task = bar.add_task("evaluating", total=None)
                report = evaluate(
                    directory, rec, limit=limit, progress=lambda i, n: bar.update(task, completed=i, total=n)
                )
    except VisionError as exc:
        fail(str(exc))
    out = report.to_json()
    out["mode"] = rec.mode
    if as_json:
        print_json(out)
        return
    for k, v in out.items():
        if k not in ("confusions", "misses"):
            console.print(f"{k}: {v}")
    for c in out["confusions"][:15]:  # type: ignore[index]
        console.print(f"  {c['truth']} read as {c['read']}: {c['count']}")
    misses: list[dict[str, Any]] = out["misses"]  # type: ignore[assignment]
    for m in misses[:SHOWN_MISSES]:
        console.print(f"  {_miss_line(m)}", markup=False, highlight=False)
    if len(misses) > SHOWN_MISSES:
        console.print(f"  … and {len(misses) - SHOWN_MISSES} more frames read wrong (--json lists every one)")


@app.command("eval-all")
def eval_all(
    dev: Annotated[
        Path, typer.Option("--dev", help="Folder of labelled dev folders (default ../shared/vision/dev).")
    ] = Path("../shared/vision/dev"),
    synthetic: Annotated[
        list[Path] | None,
        typer.Option(
            "--synthetic",
            help="A synthetic scene folder (tools/vision/scenes.py --split held-out); may be repeated.",
        ),
    ] = None,
    finder: FinderOpt = None,
    limit: Annotated[int | None, typer.Option(help="Evaluate only the first N images of each.")] = None,
    looks: Annotated[int, typer.Option("--looks", help=LOOKS_HELP)] = 1,
    as_json: JsonOpt = False,
) -> None:
    """Score every dev folder and each synthetic benchmark folder, one line each."""
    from vision.evaluate import detect_layout

    folders = sorted(d for d in dev.iterdir() if d.is_dir()) if dev.is_dir() else []
    folders += list(synthetic or [])
    if not folders:
        fail(f"no labelled folders found: {dev} is missing or empty and no --synthetic folder was given")
    results: dict[str, Any] = {}
    for d in folders:
        try:
            layout = detect_layout(d)
        except (VisionError, OSError) as exc:
            results[d.name] = {"error": str(exc)}
            continue
        rec = _recognizer("shoe" if layout == "single" else "table", None, finder=finder, looks=looks)
        try:
            rep = evaluate(d, rec, limit=limit).to_json()
        except VisionError as exc:
            results[d.name] = {"error": str(exc)}
            continue
        keep = ("frames", "correct", "accuracy", "true_positives", "false_positives", "false_negatives")
        row = {k: rep[k] for k in (*keep, "precision", "recall", "f1", "ms_per_frame") if k in rep}
        row["finder"] = rec.finder
        row["misses"] = rep["misses"][:10]  # type: ignore[index]
        results[d.name] = row
        if not as_json:
            score = (
                f"{rep['correct']}/{rep['frames']} = {rep['accuracy']}"
                if layout == "single"
                else f"TP {rep['true_positives']} FP {rep['false_positives']} FN {rep['false_negatives']} "
                f"F1 {rep['f1']}"
            )
            console.print(f"{d.name}: {score}  ({rep['ms_per_frame']} ms/frame, finder {rec.finder})")
    if as_json:
        print_json(results)


def _calibration_items(source: str, order: str) -> list[tuple[str, Any]]:
    """(code, frame) pairs: a labelled folder (DIR/<CODE>/*) or a pass in the given order."""
    root = Path(source)
    if root.is_dir() and any(d.is_dir() and is_card_code(d.name) for d in root.iterdir()):
        items = []
        for d in sorted(root.iterdir()):
            if d.is_dir() and is_card_code(d.name) and d.name not in ("JK", "BK"):
                for f in sorted(d.iterdir()):
                    try:
                        items.append((d.name, read_image(f)))
                    except VisionError:
                        continue
        return items
    if order == "new-deck":
        codes = list(NEW_DECK_ORDER)
    elif Path(order).is_file():
        codes = Path(order).read_text().split()
        bad = [c for c in codes if not is_card_code(c)]
        if bad:
            fail(f"--order file {order} holds invalid codes {bad[:5]}: expected codes like AS 10H")
    else:
        fail(f"--order must be 'new-deck' or a file listing codes, got {order!r}")
    with open_source(source) as src:
        frames = [f.image for f in src]
    return list(zip(codes, _one_frame_per_card(frames), strict=False))


def _one_frame_per_card(frames: list[Any]) -> list[Any]:
    """From a stream of one card after another, the sharpest frame of each shoe pass."""
    rec = Recognizer("shoe")
    out: list[Any] = []
    tracker = ShoeTracker(confirm=2, clear=2)
    best: Any = None
    for image in frames:
        found = rec.recognize(image)
        if found:
            best = image if best is None else best
            tracker.update(found)
        else:
            if best is not None and tracker.emitted is not None:
                out.append(best)
            best = None if tracker.update([]) or tracker.emitted is None else best
    if best is not None:
        out.append(best)
    return out if len(out) >= 2 else frames


@app.command()
def calibrate(
    source: Annotated[
        str,
        typer.Option(
            "--source",
            help="Folder of labelled images (DIR/<CODE>/*), a folder "
            "of frames or a video of one pass of the deck.",
        ),
    ],
    out: Annotated[Path, typer.Option("--out", help="Calibration file to write (.npz).")] = Path("deck.npz"),
    order: Annotated[
        str,
        typer.Option(
            "--order", help="'new-deck' (A-K S, A-K D, K-A C, K-A H) or a file of codes in the order shown."
        ),
    ] = "new-deck",
    as_json: JsonOpt = False,
) -> None:
    """Learn the user's own deck from one pass of it; recognition uses the file with --calibration."""
    try:
        items = _calibration_items(source, order)
    except VisionError as exc:
        fail(str(exc))
    if not items:
        fail(f"no frames found in {source}")
    rec = Recognizer("shoe")
    cal = Calibration(deck=str(source))
    used = 0
    for code, image in items:
        from vision.detect import detect_cards

        det = detect_cards(image, work_width=rec.work_width, min_card_fraction=0.1)
        if not det.quads:
            continue
        quad = max(det.quads, key=lambda q: q.width * q.height)
        for k in (0, 2):
            patch, _ = cut_patch(image, quad.frame(k))
            g = segment_index(patch)
            if g is not None and g.suit is not None:
                cal.add(code, g.rank.features, g.suit.features)
                used += 1
    if used == 0:
        fail("no index corner could be read from the calibration frames")
    cal.save(out)
    result = {"file": str(out), "frames": len(items), "glyph_pairs": used}
    if as_json:
        print_json(result)
    else:
        console.print(f"calibration saved to {out}: {used} index corners from {len(items)} frames")


@app.command()
def watch(
    source: Annotated[str, typer.Option("--source", help="Camera index, video file, URL, image or folder.")],
    mode: ModeOpt = "table",
    calibration: CalOpt = None,
    window: Annotated[str | None, typer.Option(help="Shoe window x,y,w,h in pixels.")] = None,
    max_frames: Annotated[int | None, typer.Option(help="Stop after N frames.")] = None,
    confirm: Annotated[int, typer.Option(help="Frames a reading must hold before it is an event.")] = 3,
    as_json: JsonOpt = False,
) -> None:
    """Print card events live (one JSON object per line with --json). A table's frames are read only
    when the table changed since the last one read (as the table's own camera reads them)."""
    rec: Recognizer | LiveRecognizer = _recognizer(mode, calibration, window)
    if mode == "table":
        rec = LiveRecognizer(rec)
    tracker: ShoeTracker | TableTracker = (
        ShoeTracker(confirm=confirm) if mode == "shoe" else TableTracker(confirm=confirm)
    )
    try:
        src = open_source(source, max_frames=max_frames)
    except VisionError as exc:
        fail(str(exc))
    skips = ViewRecorder(source, mode)  # counts the frames skipped and says why once per reason
    with src:
        for frame in src:
            try:
                sightings = rec.recognize(frame.image)
            except FrameError as exc:
                if skips.skipped(str(exc)):
                    errors.print(f"frame {frame.index} skipped: {exc}", highlight=False)
                continue
            for ev in tracker.update(sightings):
                if as_json:
                    typer.echo(json.dumps(ev.to_json()))
                else:
                    extra = f" (was {ev.previous})" if ev.previous else ""
                    console.print(f"frame {ev.frame}: {ev.kind} {ev.card}{extra}")
