"""Slot titles from ``config/slots/<title>.toml`` (file I/O kept out of the pure core).

>>> sorted(available_titles())[:2]
['7s-and-stripes', 'bank-on-it']
>>> load_title("toy").name
'Toy'
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from dealer.core.errors import DealerError
from dealer.core.slots.title import Title, title_from_mapping

__all__ = ["CONFIG_DIR", "TitleFileError", "available_titles", "load_title", "read_title_file"]

CONFIG_DIR = Path(__file__).resolve().parent.parent / "config" / "slots"


class TitleFileError(DealerError, ValueError):
    """A title file is missing or wrong; the message names the file, the key and what was expected."""


def read_title_file(path: Path) -> tuple[Title, dict[str, object]]:
    """Parse one title file; returns the title and the raw mapping (what the event log keeps)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise TitleFileError(f"{path}: cannot read the title file ({exc.strerror})") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise TitleFileError(f"{path}: not valid TOML: {exc}") from None
    try:
        return title_from_mapping(data), data
    except ValueError as exc:
        raise TitleFileError(f"{path}: {exc}") from None


def available_titles(directory: Path = CONFIG_DIR) -> dict[str, Path]:
    """Slug (the file name without ``.toml``) to path, for every title file in ``directory``."""
    return {p.stem: p for p in sorted(directory.glob("*.toml"))}


def load_title(name: str, directory: Path = CONFIG_DIR) -> Title:
    """A title by slug, by display name (any case), or by path to a ``.toml`` file."""
    return load_title_data(name, directory)[0]


def load_title_data(name: str, directory: Path = CONFIG_DIR) -> tuple[Title, dict[str, object]]:
    path = Path(name)
    if path.suffix == ".toml" or path.exists():
        return read_title_file(path)
    titles = available_titles(directory)
    if name in titles:
        return read_title_file(titles[name])
    wanted = _fold(name)
    for slug, p in titles.items():
        title, data = read_title_file(p)
        if _fold(title.name) == wanted or _fold(slug) == wanted:
            return title, data
    raise TitleFileError(
        f"no slot title {name!r} in {directory}; expected one of: {', '.join(titles)} "
        f"or a path to a .toml file"
    )


def _fold(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())
