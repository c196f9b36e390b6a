"""Printing helpers shared by commands: JSON for machines, rich text for people."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer
from rich.console import Console

console = Console(stderr=False)
errors = Console(stderr=True)


def print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2, sort_keys=True, default=str) + "\n")


def fail(message: str, code: int = 2) -> NoReturn:
    errors.print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code)
