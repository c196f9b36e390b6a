"""The ``dealer`` command line.

Sub-command groups live in :mod:`dealer.commands`, one module each, and are registered below.
Every command that prints results takes ``--json`` for machine-readable output only.
"""

from __future__ import annotations

import importlib

import typer

from dealer import __version__

app = typer.Typer(
    name="dealer",
    help="Dealer assistant: run a card table on real or simulated hardware.",
    no_args_is_help=True,
    add_completion=False,
)

# (module under dealer.commands, attribute) for each sub-command group or single command.
# A module exposes either `app` (a typer.Typer group, added under its `NAME`) or `register(app)`.
COMMAND_MODULES: list[str] = [
    "poker",
    "poker_tables",
    "serve",
    "audit",
    "replay",
    "token",
    "bench_api",
    "score",
    "vision",
    "bench_vision",
    "hw",
    "sim",
    "bench_hw",
    "analyze_banking",
    "shoe_games",
    "slots",
]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"dealer-assistant {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Dealer assistant."""


def _register() -> None:
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"dealer.commands.{name}")
        if hasattr(module, "register"):
            module.register(app)
        else:
            app.add_typer(module.app, name=module.NAME)


_register()


def main() -> None:
    app()
