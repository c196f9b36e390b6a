"""Benchmarks over a real pty: command round trip and sustained event throughput.

Line rate at 115200 baud 8N1 is 11 520 bytes/s (10 bits per byte). A pty has no baud rate, so throughput is
measured twice: with the simulator pacing its output like a 115200-baud UART (the share of line rate the
protocol sustains), and unpaced (how much faster than the line the host can go).
"""

from __future__ import annotations

import statistics
import threading
import time
from typing import Any

from firmware_bridge.events import DeviceEvent
from firmware_bridge.link import Link
from firmware_bridge.protocol.frame import Frame, encode_frame
from firmware_bridge.protocol.messages import by_name, encode_payload
from firmware_bridge.sim.process import start_simulator
from firmware_bridge.transport import BAUDRATE


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def round_trips(port: str, count: int = 1000, command: str = "PING") -> dict[str, Any]:
    """Time ``count`` commands on ``port``; milliseconds p50/p99/mean/max."""
    with Link(port, heartbeat=None) as link:
        for _ in range(min(50, count)):  # warm up
            link.request(command)
        times = []
        for _ in range(count):
            start = time.perf_counter()
            link.request(command)
            times.append((time.perf_counter() - start) * 1000)
        retries = link.stats.retries
    return {"command": command, "count": count, "p50_ms": round(_percentile(times, 0.5), 3),
            "p99_ms": round(_percentile(times, 0.99), 3), "mean_ms": round(statistics.fmean(times), 3),
            "max_ms": round(max(times), 3), "retries": retries}


def event_throughput(events: int = 3000, *, baud: int | None = BAUDRATE) -> dict[str, Any]:
    """Stream ``events`` CARD_DEALT events from a pty simulator to the host, each acked and delivered."""
    spec = by_name("CARD_DEALT")
    frame_bytes = len(encode_frame(Frame(type=spec.type, payload=encode_payload(
        spec.type, {"event_no": 1000, "code": "10H"}))))
    done = threading.Event()
    count = 0
    first = last = 0.0

    def sink(event: DeviceEvent) -> None:
        nonlocal count, first, last
        if event.event_no is None:
            return
        count += 1
        if count == 1:
            first = time.perf_counter()
        last = time.perf_counter()
        if count >= events:
            done.set()

    with start_simulator("shoe", decks=1, seed=1, keep_log=False, baud=baud) as sim, \
            Link(sim.port, sink=sink, heartbeat=None) as link:
        sim.command(f"burst {events}")
        done.wait(events / 100 + 30)
        resends = sim.stats()["device"]["event_resends"]
        stats = link.stats
    seconds = max(last - first, 1e-9)
    rate = (count - 1) / seconds
    line_events = BAUDRATE / 10 / frame_bytes
    return {"events": count, "paced_baud": baud, "frame_bytes": frame_bytes, "seconds": round(seconds, 3),
            "events_per_s": round(rate, 1), "line_rate_events_per_s": round(line_events, 1),
            "share_of_115200_line_rate": round(rate / line_events, 3),
            "duplicates": stats.events_duplicate, "device_resends": resends}


def run_bench(count: int = 1000, events: int = 3000) -> dict[str, Any]:
    with start_simulator("shoe", decks=8, seed=1, keep_log=False) as sim:
        ping = round_trips(sim.port, count, "PING")
        deal = round_trips(sim.port, min(count, 400), "DEAL")
    return {"round_trip_ping": ping, "round_trip_deal": deal,
            "throughput_paced_115200": event_throughput(events, baud=BAUDRATE),
            "throughput_unpaced": event_throughput(events, baud=None)}
