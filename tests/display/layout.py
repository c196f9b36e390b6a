"""Layout checks run inside the page: boxes inside the screen, no two boxes overlapping, cards big
enough, no text cut off in a button. Each returns a list of problems (empty when the page is right)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

_CHECK = (Path(__file__).parent / "layout_check.js").read_text()  # a function of (boxes, options)


def layout_problems(page: Any, boxes: list[str], *, min_card: float = 0.0,
                    fit_height: bool = False) -> list[str]:
    options = {"minCard": min_card, "fitHeight": fit_height}
    return page.evaluate(_CHECK, [boxes, options])  # type: ignore[no-any-return]


def screenshot(page: Any, shots: Path, name: str, *, full_page: bool = False) -> Path:
    path = shots / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


# Every visible button changes something: the page (DOM), the table (a new event) or says why not.
WATCH = """
() => { window.__mutations = 0; new MutationObserver((m) => { window.__mutations += m.length; })
  .observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true }); }
"""
