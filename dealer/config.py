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


def _describe(exc: ValidationError, file: Path | None, example: str = "config/dealer.toml") -> str:
    lines = []
    errors = exc.errors()
    deeper = [e["loc"] for e in errors]
    for error in errors:
        loc = error["loc"]
        if any(len(other) > len(loc) and other[:len(loc)] == loc for other in deeper):
            continue  # a list that failed because an item in it failed: the item's error says it
        key = ".".join(str(part) for part in loc)
        env_name = "DEALER_" + "__".join(str(part) for part in error["loc"]).upper()
        where = (f"environment variable {env_name}" if env_name in os.environ
                 else str(file) if file is not None else "settings")
        if error["type"] == "extra_forbidden":
            lines.append(f"{where}: unknown key '{key}' (check the spelling; see {example})")
        else:
            lines.append(f"{where}: key '{key}': {error['msg']}, got {error.get('input')!r}")
    return "\n".join(lines)


# ---- a casino night: several tables and a cage in one server --------------------------------------

class CageSettings(_Section):
    """The guest list and the cage: who is expected and what a buy-in usually is."""

    name: str = Field("Casino night", min_length=1, max_length=80)
    dir: Path = Path("var/night")  # each table's log is <dir>/<table id>.db, the cage's <dir>/cage.db
    guests: tuple[str, ...] = ()  # named players created when the night first starts
    buy_in: int = Field(500, ge=1)  # the usual buy-in, offered first on the control page
    max_buy_in: int = Field(100_000, ge=1)  # a buy-in or rebuy above this is refused (a typo guard)
    denominations: tuple[int, ...] = (1, 5, 25, 100, 500)


class NightTableSettings(_Section):
    """One table of the night. ``devices`` is ``sim``, ``none``, a shoe port / pyserial URL, or a
    ``[tables.devices]`` table with one entry per device as in a single table's ``[devices]``."""

    id: str = Field(min_length=1, max_length=32, pattern=r"^[a-z0-9][a-z0-9_-]*$")
    name: str = Field("", max_length=64)
    game: str = "blackjack"
    rules: str = ""
    mode: Literal["simulated", "live"] = "simulated"
    autoplay: bool | None = None  # default: on for a simulated table; the seated players bet
    seats: int = Field(7, ge=1, le=14)
    pace_ms: int = Field(1200, ge=0, le=60_000)
    shoe: ShoeSettings = ShoeSettings()
    devices: str | DeviceSettings = "none"
    camera: str | None = None  # shorthand for devices.camera

    def device_settings(self) -> DeviceSettings:
        if isinstance(self.devices, DeviceSettings):
            base = self.devices
        elif self.devices in ("sim", "none"):
            base = DeviceSettings(shoe=self.devices, shuffler=self.devices, reels=self.devices, camera="none")
        else:  # a port or a pyserial URL (rfc2217://pi-table2:4000, socket://host:port): the shoe
            base = DeviceSettings(shoe=self.devices, shuffler="none", reels="none", camera="none")
        return base if self.camera is None else base.model_copy(update={"camera": self.camera})


class NightSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    server: ServerSettings = ServerSettings()
    night: CageSettings = CageSettings()
    tables: tuple[NightTableSettings, ...] = Field(min_length=1)

    def table_settings(self, table: NightTableSettings) -> Settings:
        """The settings of one table, as ``dealer serve`` would take them for a single table."""
        section = TableSettings(name=table.id, game=table.game, rules=table.rules, mode=table.mode,
                                db=self.night.dir / f"{table.id}.db", seats=table.seats,
                                pace_ms=table.pace_ms)
        return Settings.model_construct(server=self.server, table=section, shoe=table.shoe,
                                        devices=table.device_settings())

    @property
    def cage_db(self) -> Path:
        return self.night.dir / "cage.db"


def is_night_file(path: str | Path) -> bool:
    """A night file has ``[[tables]]`` (or a ``[night]`` section); anything else is one table."""
    data = _read_toml(Path(path))
    return "tables" in data or "night" in data


def load_night(path: str | Path, **overrides: Any) -> NightSettings:
    """Read a night file (see ``config/night.example.toml``); errors name the file and the key."""
    file = Path(path)
    data = _read_toml(file)
    for section, values in overrides.items():
        data.setdefault(section, {}).update(values)
    if "tables" not in data:
        raise ConfigError(f"{file}: a night needs at least one [[tables]] entry (id, game, devices...)")
    try:
        night = NightSettings(**data)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, file, "config/night.example.toml")) from None
    ids = [t.id for t in night.tables]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ConfigError(f"{file}: key 'tables.id': every table needs its own id, "
                          f"{', '.join(repr(i) for i in twice)} is used twice")
    for i, table in enumerate(night.tables):
        if table.shoe.cut_min > table.shoe.cut_max:
            raise ConfigError(f"{file}: key 'tables.{i}.shoe.cut_min' ({table.shoe.cut_min}) must not "
                              f"exceed 'tables.{i}.shoe.cut_max' ({table.shoe.cut_max})")
    bad = [d for d in night.night.denominations if d < 1]
    if bad:
        raise ConfigError(f"{file}: key 'night.denominations': expected whole chip values of 1 or more, "
                          f"got {bad}")
    return night
