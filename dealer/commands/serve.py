"""``dealer serve``: run a table and its local API (simulated hardware unless configured)."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import typer

from dealer.commands.output import console, fail
from dealer.config import ConfigError, Settings, load_settings


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        config: Path | None = typer.Option(None, "--config", help="Settings file (TOML)."),
        host: str | None = typer.Option(None, "--host", help="Address to bind (default 127.0.0.1)."),
        port: int | None = typer.Option(None, "--port", help="Port (default 8000)."),
        db: Path | None = typer.Option(None, "--db", help="Event log file (default from config)."),
    ) -> None:
        """Start the table and its API. With no devices configured everything is simulated."""
        import uvicorn

        from dealer.api import create_app
        from dealer.table.host import TableHost

        overrides: dict[str, dict[str, object]] = {}
        if host is not None or port is not None:
            overrides["server"] = {k: v for k, v in (("host", host), ("port", port)) if v is not None}
        if db is not None:
            overrides["table"] = {"db": db}
        try:
            settings: Settings = load_settings(config, **overrides)
        except ConfigError as exc:
            fail(str(exc))
        camera = settings.devices.camera
        if camera not in ("sim", "none") and not camera.isdigit() and "://" not in camera \
                and not Path(camera).exists():
            fail(f"devices.camera: {camera!r} is not 'sim', 'none', a camera index, a URL or an existing "
                 "video file")
        if not _is_loopback(settings.server.host) and not settings.server.require_tokens:
            fail(f"binding to {settings.server.host} exposes the table to the network: "
                 "set server.require_tokens = true (and create tokens) or bind 127.0.0.1")
        console.print(f"table [bold]{settings.table.name}[/] ({settings.table.game}, "
                      f"{settings.table.mode}) on http://{settings.server.host}:{settings.server.port}"
                      f"  log: {settings.table.db}")
        uvicorn.run(create_app(lambda: TableHost.open(settings)), host=settings.server.host,
                    port=settings.server.port, log_level="info")
