"""``dealer serve``: run a table, or a whole casino night of tables, and the local API (simulated
hardware unless configured)."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import typer

from dealer.commands.output import console, fail
from dealer.config import (
    ConfigError,
    NightSettings,
    ServerSettings,
    Settings,
    is_night_file,
    load_night,
    load_settings,
)


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
        """Start the table and its API. With no devices configured everything is simulated.

        A night file (``[[tables]]``, see config/night.example.toml) starts every table of the night,
        the players and the cage."""
        import uvicorn

        from dealer.api import create_app
        from dealer.table.host import TableHost

        overrides: dict[str, dict[str, object]] = {}
        if host is not None or port is not None:
            overrides["server"] = {k: v for k, v in (("host", host), ("port", port)) if v is not None}
        try:
            night_file = config is not None and is_night_file(config)
        except ConfigError as exc:
            fail(str(exc))
        if night_file:
            assert config is not None
            if db is not None:
                fail("--db names one table's log; a night keeps its logs in [night] dir")
            _serve_night(config, overrides)
            return
        if db is not None:
            overrides["table"] = {"db": db}
        try:
            settings: Settings = load_settings(config, **overrides)
        except ConfigError as exc:
            fail(str(exc))
        _check_camera("devices.camera", settings.devices.camera)
        _check_binding(settings.server)
        console.print(f"table [bold]{settings.table.name}[/] ({settings.table.game}, "
                      f"{settings.table.mode}) on http://{settings.server.host}:{settings.server.port}"
                      f"  log: {settings.table.db}")
        uvicorn.run(create_app(lambda: TableHost.open(settings)), host=settings.server.host,
                    port=settings.server.port, log_level="info")


def _check_camera(where: str, camera: str) -> None:
    if camera not in ("sim", "none") and not camera.isdigit() and "://" not in camera \
            and not Path(camera).exists():
        fail(f"{where}: {camera!r} is not 'sim', 'none', a camera index, a URL or an existing video file")


def _check_binding(server: ServerSettings) -> None:
    host = server.host
    if not _is_loopback(host) and not server.require_tokens:
        fail(f"binding to {host} exposes the table to the network: "
             "set server.require_tokens = true (and create tokens) or bind 127.0.0.1")


def _serve_night(config: Path, overrides: dict[str, dict[str, object]]) -> None:
    import uvicorn

    from dealer.api import create_app
    from dealer.table.night import Night, check_games

    try:
        night: NightSettings = load_night(config, **overrides)
    except ConfigError as exc:
        fail(str(exc))
    for i, table in enumerate(night.tables):
        _check_camera(f"{config}: tables.{i}.camera", table.device_settings().camera)
    _check_binding(night.server)
    server = night.server
    console.print(f"[bold]{night.night.name}[/]: {len(night.tables)} tables on "
                  f"http://{server.host}:{server.port}  logs: {night.night.dir}")
    for table in night.tables:
        console.print(f"  {table.id}: {table.game} ({table.mode})  /tables/{table.id}/tv  "
                      f"/tables/{table.id}/control")

    try:
        check_games(night)
    except ConfigError as exc:
        fail(f"{config}: {exc}")
    uvicorn.run(create_app(lambda: Night.open(night)), host=server.host, port=server.port, log_level="info")
