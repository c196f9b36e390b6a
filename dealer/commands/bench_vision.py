"""``dealer bench vision``: milliseconds per shoe frame and per 1920×1080 table frame (one core)."""

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


def run_bench(repeat: int = 5) -> dict[str, object]:
    import cv2

    from vision import Recognizer, SimulatedCamera

    cv2.setNumThreads(1)
    codes = ["AS", "10H", "QD", "7C", "6S", "9D", "KH", "4C", "JS", "2D", "BK", "8H"]
    cam = SimulatedCamera(size=(1920, 1080), background="felt", seed=11, card_width=170)
    table = [cam.frame_for(codes, layout="row").image, cam.frame_for(codes, layout="scatter").image]
    shoe_cam = SimulatedCamera(size=(640, 480), background="dark", seed=12)
    shoe = [shoe_cam.frame_for([c], layout="shoe").image for c in codes[:6]]
    rec_t = Recognizer("table")
    rec_s = Recognizer("shoe")
    cards_found = [len(rec_t.recognize(f)) for f in table]
    return {
        "machine": f"{platform.machine()} {platform.processor() or ''} python {platform.python_version()} "
        f"opencv {cv2.__version__}".strip(),
        "threads": 1,
        "shoe_frame_640x480": _time(rec_s.recognize, shoe, repeat),  # type: ignore[arg-type]
        "table_frame_1920x1080_12_cards": _time(rec_t.recognize, table, repeat),  # type: ignore[arg-type]
        "table_cards_found": cards_found,
    }


def register(app: typer.Typer) -> None:
    bench = group(app, "bench")

    @bench.command("vision")
    def vision_bench(
        repeat: Annotated[int, typer.Option(help="Passes over the benchmark frames.")] = 5,
        as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output only.")] = False,
    ) -> None:
        """Milliseconds per shoe frame and per 1920×1080 table frame with 12 cards (one thread)."""
        result = run_bench(repeat)
        if as_json:
            print_json(result)
        else:
            for k, v in result.items():
                console.print(f"{k}: {v}")
