"""``dealer token create``: API tokens for viewers, dealers and admins."""

from __future__ import annotations

from pathlib import Path

import typer

from dealer.commands.output import console, fail, print_json
from dealer.config import ConfigError, load_settings
from dealer.store import StoreError, TokenStore
from dealer.store.tokens import Role

NAME = "token"
app = typer.Typer(help="API tokens (needed when the table is served beyond this computer).",
                  no_args_is_help=True)


@app.command("create")
def create(
    role: str = typer.Option(..., "--role", help="viewer | dealer | admin"),
    label: str = typer.Option("", "--label", help="Who or what the token is for."),
    db: Path | None = typer.Option(None, "--db", help="The table's database (default from config)."),
    config: Path | None = typer.Option(None, "--config", help="Settings file (TOML)."),
    json_output: bool = typer.Option(False, "--json", help="Print machine-readable JSON only."),
) -> None:
    """Create a token; it is shown once and stored only as a hash."""
    try:
        path = db or load_settings(config).table.db
        store = TokenStore(path)
        token, info = store.create(Role.parse(role), label)
        store.close()
    except (ConfigError, StoreError) as exc:
        fail(str(exc))
    if json_output:
        print_json({"token": token, "id": info.token_id, "role": info.role.name.lower(), "label": label})
    else:
        console.print(f"{info.role.name.lower()} token (shown once): [bold]{token}[/]")
