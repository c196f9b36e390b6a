"""Shared command groups (``analyze``, ``bench``...) that several modules add commands to."""

from __future__ import annotations

import typer

_HELP = {
    "analyze": "Exact and simulated analysis of the games (house edge, probabilities).",
    "bench": "Benchmarks: measure speed and record it in BENCHMARKS.md.",
    "play": "Play simulated rounds and print a readable hand history.",
    "sim": "Run simulated devices.",
}


def group(app: typer.Typer, name: str) -> typer.Typer:
    """The sub-group ``name`` of ``app``, created on first use."""
    for info in app.registered_groups:
        if info.name == name and info.typer_instance is not None:
            return info.typer_instance
    sub = typer.Typer(help=_HELP.get(name), no_args_is_help=True)
    app.add_typer(sub, name=name)
    return sub
