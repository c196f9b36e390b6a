"""``dealer sim device``: run a simulated shoe, shuffler or reel display on a pseudo-terminal.

Prints the port path (a stable symlink to the pty) and serves until Ctrl-C. Type control commands on stdin
to inject faults (``fault drop 3``, ``vanish 0.5``, ``reset``, ``jam``, ``empty``, ``misread``,
``door open``, ``stats``...; see ``firmware_bridge.sim.engine``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Annotated

import typer

from dealer.commands.groups import group
from dealer.commands.output import fail

NAME = "sim"


def device(kind: Annotated[str, typer.Option(help="shoe, shuffler or reels")] = "shoe",
           decks: Annotated[int | None, typer.Option(min=1, max=12, help="Decks loaded.")] = None,
           seed: Annotated[int | None, typer.Option(help="Seed (replay and tests only).")] = None,
           link: Annotated[str | None, typer.Option(help="Path of the symlink to create.")] = None,
           baud: Annotated[int | None, typer.Option(help="Pace output like a UART at this rate.")] = None,
           ) -> None:
    """Run a simulated device on a pty; prints {"port": ..., "tty": ...} as the first line."""
    from firmware_bridge.sim.device import make_core
    from firmware_bridge.sim.engine import Engine
    from firmware_bridge.sim.faults import FaultInjector
    from firmware_bridge.sim.pty_runner import run

    options: dict[str, object] = {"seed": seed}
    if decks is not None:
        options["decks"] = decks
    try:
        core = make_core(kind, **options)
    except ValueError as exc:
        fail(str(exc))
    workdir = None if link else tempfile.mkdtemp(prefix="dealer-sim-")
    path = link or os.path.join(workdir or "", kind)
    try:
        run(Engine(core, FaultInjector(seed)), link=path, control=True, baud=baud)
    finally:
        if workdir is not None:
            shutil.rmtree(workdir, ignore_errors=True)


def register(app: typer.Typer) -> None:
    group(app, "sim").command("device")(device)
