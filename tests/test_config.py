from __future__ import annotations

from pathlib import Path

import pytest

from dealer.config import ConfigError, load_settings

REPO = Path(__file__).resolve().parents[1]


def test_shipped_config_loads() -> None:
    settings = load_settings(REPO / "config" / "dealer.toml")
    assert settings.server.host == "127.0.0.1"
    assert (settings.shoe.cut_min, settings.shoe.cut_max) == (60, 75)  # RULES A1: last 60-75 unused


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "dealer.toml"
    path.write_text(text)
    return path


def test_unknown_key_names_file_and_key(tmp_path: Path) -> None:
    path = write(tmp_path, "[shoe]\ndeks = 6\n")
    with pytest.raises(ConfigError) as info:
        load_settings(path)
    assert str(path) in str(info.value) and "shoe.deks" in str(info.value)


def test_bad_value_names_what_was_expected(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"shoe\.decks.*less than or equal to 16.*40"):
        load_settings(write(tmp_path, "[shoe]\ndecks = 40\n"))
    with pytest.raises(ConfigError, match="cut_min"):
        load_settings(write(tmp_path, "[shoe]\ncut_min = 80\ncut_max = 70\n"))


def test_broken_toml_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(write(tmp_path, "[shoe\n"))
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "absent.toml")


def test_environment_overrides_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "[server]\nport = 8100\n")
    monkeypatch.setenv("DEALER_SERVER__PORT", "9100")
    assert load_settings(path).server.port == 9100
    monkeypatch.setenv("DEALER_SERVER__PORT", "many")
    with pytest.raises(ConfigError, match="environment variable DEALER_SERVER__PORT"):
        load_settings(path)
