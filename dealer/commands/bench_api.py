"""``dealer bench api``: latency from a card event to every connected viewer."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer
from rich.progress import Progress

from dealer.commands.groups import group
from dealer.commands.output import console, print_json

CARDS = [r + s for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]


def register(app: typer.Typer) -> None:
    bench = group(app, "bench")

    @bench.command("api")
    def bench_api(
        viewers: int = typer.Option(50, "--viewers", min=1, max=500, help="WebSocket viewers connected."),
        events: int = typer.Option(200, "--events", min=10, max=10_000, help="Card events to send."),
        json_output: bool = typer.Option(False, "--json", help="Print machine-readable JSON only."),
    ) -> None:
        """Serve a live table, connect VIEWERS WebSocket clients, deal cards through the API and
        measure, for every viewer, the time from the event's commit to its arrival."""
        result = asyncio.run(_measure(viewers, events, quiet=json_output))
        if json_output:
            print_json(result)
        else:
            console.print(f"{viewers} viewers, {events} card events: latency p50 {result['p50_ms']:.2f} ms, "
                          f"p99 {result['p99_ms']:.2f} ms, max {result['max_ms']:.2f} ms")


async def _measure(viewers: int, events: int, *, quiet: bool) -> dict[str, Any]:
    import websockets

    with tempfile.TemporaryDirectory() as tmp, _server(Path(tmp)) as base:
        latencies: list[float] = []
        clients = [await websockets.connect(f"ws://{base}/ws", max_size=None) for _ in range(viewers)]
        for ws in clients:
            json.loads(await ws.recv())  # hello

        async def listen(ws: Any, expected: int) -> None:
            for _ in range(expected):
                message = json.loads(await ws.recv())
                latencies.append((time.time() - message["time"]) * 1000)

        listeners = [asyncio.create_task(listen(ws, events)) for ws in clients]
        with Progress(console=console, disable=quiet) as progress:
            task = progress.add_task("dealing", total=events)
            for i in range(events):
                body = json.dumps({"kind": "shoe.deal", "payload": {"card": CARDS[i % 52]}}).encode()
                request = urllib.request.Request(f"http://{base}/api/operations", data=body, method="POST",
                                                 headers={"content-type": "application/json"})
                await asyncio.to_thread(urllib.request.urlopen, request, timeout=10)
                progress.advance(task)
        await asyncio.wait_for(asyncio.gather(*listeners), timeout=120)
        for ws in clients:
            await ws.close()
    ordered = sorted(latencies)
    return {"viewers": viewers, "events": events, "deliveries": len(ordered),
            "p50_ms": round(statistics.median(ordered), 3),
            "p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))], 3),
            "max_ms": round(ordered[-1], 3), "mean_ms": round(statistics.fmean(ordered), 3),
            "measured": "hub publish (after the event is durable in the log) to receipt by each viewer; "
                        "server and viewers in separate processes"}


@contextlib.contextmanager
def _server(tmp: Path) -> Iterator[str]:
    """``dealer serve`` in its own process: a live table with an 8-deck shoe and no devices."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "DEALER_TABLE__GAME": "none", "DEALER_TABLE__MODE": "live",
           "DEALER_SHOE__DECKS": "8",
           **{f"DEALER_DEVICES__{k}": "none" for k in ("SHOE", "SHUFFLER", "REELS", "CAMERA")}}
    proc = subprocess.Popen([sys.executable, "-m", "dealer", "serve", "--port", str(port), "--db",
                             str(tmp / "bench.db")], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the benchmark server did not start") from None
                time.sleep(0.1)
        yield f"127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=15)
