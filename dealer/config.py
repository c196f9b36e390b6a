"""Settings from ``config/dealer.toml`` and ``DEALER_…`` environment variables.

Precedence: explicit arguments, then environment (``DEALER_SERVER__PORT=9000``), then the TOML
file, then the defaults below. A bad file or value raises :class:`ConfigError` whose message names
the file, the key, what was expected and what was found.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from dealer.core.errors import DealerError

DEFAULT_CONFIG = Path("config/dealer.toml")


class ConfigError(DealerError, ValueError):
    """A configuration file or variable is invalid."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ServerSettings(_Section):
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    require_tokens: bool = False  # forced on when binding to a non-loopback address


class TableSettings(_Section):
    name: str = Field("table-1", min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")
    game: str = "blackjack"
    rules: str = ""  # the game's house rules as a spec, e.g. "h17,das,6:5" (see docs/games/)
    mode: Literal["simulated", "live"] = "simulated"
    db: Path = Path("var/dealer.db")
    seats: int = Field(7, ge=1, le=14)
    pace_ms: int = Field(400, ge=0, le=60_000)  # simulated play: pause between steps, to watch it


class ShoeSettings(_Section):
    decks: int = Field(6, ge=1, le=16)
    pack: str = "standard-52"
    cut_min: int = Field(60, ge=0)
    cut_max: int = Field(75, ge=0)
    burn: Literal["none", "one", "first-card-value"] = "one"


class DeviceSettings(_Section):
    """Each device: ``sim`` (a simulator on a pty), ``none``, or a pyserial URL / port path."""

    shoe: str = "sim"
    shuffler: str = "sim"
    reels: str = "sim"
    camera: str = "sim"  # "sim", a camera index ("0"), a video file or a stream URL
    camera_mode: Literal["shoe", "table"] = "shoe"  # a shoe window (one card at a time) or the layout
    camera_window: tuple[int, int, int, int] | None = None  # x, y, width, height of the shoe window
    calibration: Path | None = None  # a deck calibration from `dealer vision calibrate`


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DEALER_", env_nested_delimiter="__", extra="forbid",
                                      frozen=True)

    server: ServerSettings = ServerSettings()
    table: TableSettings = TableSettings()
    shoe: ShoeSettings = ShoeSettings()
    devices: DeviceSettings = DeviceSettings()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings)


def load_settings(path: str | Path | None = None, **overrides: Any) -> Settings:
    """Read settings; ``path`` defaults to ``config/dealer.toml`` when that file exists."""
    file = Path(path) if path is not None else (DEFAULT_CONFIG if DEFAULT_CONFIG.exists() else None)
    data: dict[str, Any] = {}
    if file is not None:
        data = _read_toml(file)
    for section, values in overrides.items():
        data.setdefault(section, {}).update(values)
    try:
        settings = _with_env(data)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, file)) from None
    if settings.shoe.cut_min > settings.shoe.cut_max:
        raise ConfigError(f"{file or 'settings'}: key 'shoe.cut_min' ({settings.shoe.cut_min}) "
                          f"must not exceed 'shoe.cut_max' ({settings.shoe.cut_max})")
    return settings


def _with_env(data: dict[str, Any]) -> Settings:
    # Environment beats the file: drop file keys that a DEALER_SECTION__KEY variable sets.
    for name in os.environ:
        if name.startswith("DEALER_") and "__" in name:
            section, _, key = name[len("DEALER_"):].lower().partition("__")
            if isinstance(data.get(section), dict):
                data[section].pop(key, None)
    return Settings(**data)


def _read_toml(file: Path) -> dict[str, Any]:
    try:
        with file.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError(f"{file}: config file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{file}: not valid TOML: {exc}") from None


def _describe(exc: ValidationError, file: Path | None) -> str:
    lines = []
    for error in exc.errors():
        key = ".".join(str(part) for part in error["loc"])
        env_name = "DEALER_" + "__".join(str(part) for part in error["loc"]).upper()
        where = (f"environment variable {env_name}" if env_name in os.environ
                 else str(file) if file is not None else "settings")
        if error["type"] == "extra_forbidden":
            lines.append(f"{where}: unknown key '{key}' (check the spelling; see config/dealer.toml)")
        else:
            lines.append(f"{where}: key '{key}': {error['msg']}, got {error.get('input')!r}")
    return "\n".join(lines)
