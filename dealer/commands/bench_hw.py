"""``dealer bench hw``: command round trip over a pty and sustained event throughput vs 115200 baud."""

from __future__ import annotations

import platform
from datetime import date
from typing import Annotated

import typer

from dealer.commands.groups import group
from dealer.commands.output import console, print_json


def bench_hw(count: Annotated[int, typer.Option(min=10, help="Round trips to time.")] = 1000,
             events: Annotated[int, typer.Option(min=100, help="Events to stream.")] = 3000,
             json: Annotated[bool, typer.Option("--json", help="Machine-readable output only.")] = False,
             ) -> None:
    """Round trip p50/p99 to a pty simulator (target p50 ≤ 2 ms) and event throughput."""
    from firmware_bridge.bench import run_bench

    result = run_bench(count, events)
    result["machine"] = f"{platform.machine()}, Python {platform.python_version()}"
    result["date"] = date.today().isoformat()
    if json:
        print_json(result)
        return
    ping, deal = result["round_trip_ping"], result["round_trip_deal"]
    paced, free = result["throughput_paced_115200"], result["throughput_unpaced"]
    console.print(f"PING round trip: p50 {ping['p50_ms']} ms, p99 {ping['p99_ms']} ms ({count} over a pty)")
    console.print(f"DEAL round trip: p50 {deal['p50_ms']} ms, p99 {deal['p99_ms']} ms")
    console.print(f"events at 115200 baud: {paced['events_per_s']}/s = "
                  f"{paced['share_of_115200_line_rate']:.0%} of line rate")
    console.print(f"events unpaced: {free['events_per_s']}/s = "
                  f"{free['share_of_115200_line_rate']:.1f}× line rate")


def register(app: typer.Typer) -> None:
    group(app, "bench").command("hw")(bench_hw)
