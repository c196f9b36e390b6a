"""``dealer hw``: talk to a shoe, shuffler or reel display over the firmware_bridge protocol.

* ``dealer hw ping --port URL --count N --json``   round-trip times (p50, p99)
* ``dealer hw info --port URL --json``             the device's HELLO_REPLY fields
* ``dealer hw soak --kind shoe --faults N --json`` fault soak against a pty simulator
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from dealer.commands.output import console, fail, print_json

NAME = "hw"
app = typer.Typer(help="Serial devices (shoe, shuffler, reels): ping, info, fault soak.",
                  no_args_is_help=True)

PortOpt = Annotated[str, typer.Option("--port", help="Device path or pyserial URL (/dev/ttyUSB0, socket://…)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output only.")]


@app.command()
def ping(port: PortOpt, count: Annotated[int, typer.Option(min=1, help="Number of pings.")] = 100,
         json: JsonOpt = False) -> None:
    """Round-trip time of PING/STATUS exchanges."""
    from firmware_bridge import FirmwareBridgeError
    from firmware_bridge.bench import round_trips

    try:
        result = round_trips(port, count, "PING")
    except FirmwareBridgeError as exc:
        fail(str(exc))
    result["port"] = port
    if json:
        print_json(result)
    else:
        console.print(f"{count} pings to {port}: p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms, "
                      f"max {result['max_ms']} ms, retries {result['retries']}")


@app.command()
def info(port: PortOpt, json: JsonOpt = False) -> None:
    """What the device reports in HELLO_REPLY (kind, firmware, unique id, boot_id, event numbers...)."""
    from firmware_bridge import FirmwareBridgeError, Link

    try:
        with Link(port, heartbeat=None) as link:
            assert link.info is not None
            result: dict[str, Any] = link.info.to_dict()
    except FirmwareBridgeError as exc:
        fail(str(exc))
    if json:
        print_json(result)
    else:
        for key, value in result.items():
            console.print(f"{key:>15}: {value}")


@app.command()
def soak(kind: Annotated[str, typer.Option(help="shoe, shuffler or reels")] = "shoe",
         faults: Annotated[int, typer.Option(min=1, help="Link faults to inject.")] = 1000,
         rate: Annotated[float, typer.Option(min=0.01, max=1.0, help="Chance a frame is faulted.")] = 0.3,
         seed: Annotated[int | None, typer.Option(help="Seed for the simulator and faults.")] = None,
         json: JsonOpt = False) -> None:
    """Drive a pty simulator while it injects faults; report lost/duplicated events and double execution."""
    from firmware_bridge.soak import run_soak

    if kind not in ("shoe", "shuffler", "reels"):
        fail(f"unknown device kind {kind!r}; expected shoe, shuffler or reels")
    if json:
        result = run_soak(kind, faults, seed=seed, rate=rate)
    else:
        with Progress(TextColumn("soak"), BarColumn(), TextColumn("{task.completed}/{task.total} faults"),
                      TimeElapsedColumn(), console=console) as bar:
            task = bar.add_task("soak", total=faults)
            result = run_soak(kind, faults, seed=seed, rate=rate,
                              progress=lambda done, total: bar.update(task, completed=done))
    ok = result["lost"] == 0 and result["duplicated"] == 0 and result["double_executed"] == 0 \
        and result["corrupted"] == 0 and result["crashed"] == 0
    if json:
        print_json(result)
    else:
        console.print(f"{result['faults_total']} faults in {result['seconds']} s; "
                      f"{result['commands_sent']} commands, {result['events_received']}/"
                      f"{result['events_expected']} events; lost {result['lost']}, duplicated "
                      f"{result['duplicated']}, double-executed {result['double_executed']}, "
                      f"crashed {result['crashed']}, reconnects {result['reconnects']}")
    if not ok:
        raise typer.Exit(1)
