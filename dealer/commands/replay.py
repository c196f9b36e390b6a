"""``dealer replay``: rebuild a table's state (or a night's cage) from its event log and print it."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.progress import Progress

from dealer.commands.output import console, fail, print_json
from dealer.core.errors import DealerError
from dealer.core.table_state import TableState
from dealer.store import EventStore, load_operation_modules
from dealer.table.cage import is_cage_log, replay_cage


def register(app: typer.Typer) -> None:
    @app.command("replay")
    def replay(
        db: Path = typer.Option(..., "--db", help="A table's SQLite event log, or a night's cage.db."),
        json_output: bool = typer.Option(False, "--json", help="Print machine-readable JSON only."),
    ) -> None:
        """Rebuild the table state (or the cage of a night) by replaying every logged operation."""
        if not db.is_file():
            fail(f"no event log at {db}")
        load_operation_modules()
        state = TableState()
        try:
            with EventStore.open(db) as store:
                if is_cage_log(next(store.records(), None)):
                    _print_cage(store, json_output)
                    return
                total = store.last_seq
                with Progress(console=console, disable=json_output or total < 1000) as progress:
                    task = progress.add_task("replaying", total=total)
                    for record in store.records():
                        try:
                            state.apply(record.operation())
                        except DealerError as exc:
                            fail(f"record {record.seq} ({record.kind}) cannot be replayed: {exc}", 1)
                        progress.advance(task)
        except DealerError as exc:
            fail(str(exc))
        if json_output:
            print_json(state.to_json())
        else:
            console.print_json(data=state.to_json())


def _print_cage(store: EventStore, json_output: bool) -> None:
    try:
        cage = replay_cage(store.records()).to_json()
    except DealerError as exc:
        fail(str(exc), 1)
    if json_output:
        print_json(cage)
    else:
        console.print_json(data=cage)
