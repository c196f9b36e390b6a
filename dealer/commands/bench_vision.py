"""``dealer bench vision``: ms per shoe frame, 1920×1080 table frame and 24 MP photo (one core)."""

from __future__ import annotations

import platform
import statistics
import time
from typing import Annotated

import typer

from dealer.commands.groups import group
from dealer.commands.output import console, print_json


def _time(fn: object, frames: list[object], repeat: int) -> dict[str, float]:
    call = fn  # type: ignore[assignment]
    call(frames[0])  # type: ignore[operator]
    ms = []
    for _ in range(repeat):
        for f in frames:
            t0 = time.perf_counter()
            call(f)  # type: ignore[operator]
            ms.append((time.perf_counter() - t0) * 1000)
    return {
        "mean_ms": round(statistics.fmean(ms), 2),
        "median_ms": round(statistics.median(ms), 2),
        "p90_ms": round(sorted(ms)[int(0.9 * (len(ms) - 1))], 2),
        "frames": len(ms),
    }


def run_bench(repeat: int = 5, finder: str | None = None) -> dict[str, object]:
    import cv2

    from vision import Recognizer, SimulatedCamera

    cv2.setNumThreads(1)
    codes = ["AS", "10H", "QD", "7C", "6S", "9D", "KH", "4C", "JS", "2D", "BK", "8H"]
    cam = SimulatedCamera(size=(1920, 1080), background="felt", seed=11, card_width=170)
    table = [cam.frame_for(codes, layout="row").image, cam.frame_for(codes, layout="scatter").image]
    shoe_cam = SimulatedCamera(size=(640, 480), background="dark", seed=12)
    shoe = [shoe_cam.frame_for([c], layout="shoe").image for c in codes[:6]]
    # a 24-megapixel phone photo of a light table: five board cards and two hands
    big_cam = SimulatedCamera(size=(6000, 4000), background="light_wood", seed=13, card_width=520)
    photo = [big_cam.frame_for(codes[:9], layout="scatter").image]
    rec_t = Recognizer("table", finder=finder)  # type: ignore[arg-type]
    rec_s = Recognizer("shoe", finder=finder)  # type: ignore[arg-type]
    cards_found = [len(rec_t.recognize(f)) for f in table]
    return {
        "machine": f"{platform.machine()} {platform.processor() or ''} python {platform.python_version()} "
        f"opencv {cv2.__version__}".strip(),
        "threads": 1,
        "finder": {"table": rec_t.finder, "shoe": rec_s.finder},
        "shoe_frame_640x480": _time(rec_s.recognize, shoe, repeat),  # type: ignore[arg-type]
        "table_frame_1920x1080_12_cards": _time(rec_t.recognize, table, repeat),  # type: ignore[arg-type]
        "table_cards_found": cards_found,
        "photo_6000x4000_9_cards": _time(rec_t.recognize, photo, max(1, repeat // 3)),  # type: ignore[arg-type]
        "photo_cards_found": len(rec_t.recognize(photo[0])),
    }


def register(app: typer.Typer) -> None:
    bench = group(app, "bench")

    @bench.command("vision")
    def vision_bench(
        repeat: Annotated[int, typer.Option(help="Passes over the benchmark frames.")] = 5,
        finder: Annotated[
            str | None, typer.Option(help="learned, classic or both (default: the measured choice).")
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output only.")] = False,
    ) -> None:
        """Milliseconds per shoe frame, 1920×1080 table frame with 12 cards and 24 MP photo (one thread)."""
        result = run_bench(repeat, finder)
        if as_json:
            print_json(result)
        else:
            for k, v in result.items():
                console.print(f"{k}: {v}")
