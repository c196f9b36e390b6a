"""``dealer audit verify``: check the event log's hash chain."""

from __future__ import annotations

from pathlib import Path

import typer

from dealer.commands.output import console, fail, print_json
from dealer.store import EventStore, StoreError

NAME = "audit"
app = typer.Typer(help="Check the integrity of a table's event log.", no_args_is_help=True)


@app.command("verify")
def verify(
    db: Path = typer.Option(..., "--db", help="The table's SQLite event log."),
    json_output: bool = typer.Option(False, "--json", help="Print machine-readable JSON only."),
) -> None:
    """Exit 0 when the hash chain is intact, 1 naming the first bad record."""
    if not db.is_file():
        fail(f"no event log at {db}")
    try:
        with EventStore.open(db) as store:
            result = store.verify()
    except StoreError as exc:
        fail(str(exc))
    if json_output:
        print_json(result.to_json())
    elif result.ok:
        console.print(f"[green]ok[/]: {result.records} records, hash chain intact")
    else:
        console.print(f"[red]BROKEN[/] at record {result.first_bad}: {result.reason} "
                      f"({result.records} records before it are intact)")
    raise typer.Exit(0 if result.ok else 1)
