"""The scorekeeping page in a real browser (Debian's Chromium): a book opened with names, hearts and
cribbage entered by taps, undo and restore, the standings equal to the API's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from layout import layout_problems, screenshot
from serving import Server

BOXES = ["button", ".panel", ".sc-head", "select", ".score-side"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    server = Server(tmp_path / "table.db", env={"DEALER_TABLE__GAME": "none", "DEALER_DEVICES__SHOE": "none",
                                                "DEALER_DEVICES__CAMERA": "none"})
    yield server
    server.stop()


def totals(page: Any) -> dict[str, int]:
    return {a["side"]: int(a["total"]) for a in page.eval_on_selector_all(
        "#standings .score-side", "els => els.map(e => ({side: e.dataset.side, total: e.dataset.total}))")}


def tap(page: Any, field: str, value: str) -> None:
    page.click(f".field[data-field='{field}'] button[data-value='{value}']")


def more(page: Any, field: str, side: str, times: int) -> None:
    for _ in range(times):
        page.click(f".field[data-field='{field}'] button[data-side='{side}'][data-step=up]")


def test_score_page_keeps_a_book_by_taps(browser: Any, server: Server, shots: Path) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    page.goto(server.url + "/score")
    page.wait_for_selector("body[data-ready=yes]")
    page.fill("#book-name", "kitchen")
    for name in ("Ann", "Bob", "Cy", "Dee"):
        page.fill("#player-name", name)
        page.press("#player-name", "Enter")
    page.wait_for_selector("#new-players button[data-player=Dee]")
    page.click("#open-book")
    page.wait_for_selector("body[data-book=kitchen][data-ready=yes]")
    assert page.input_value("#game-select") == "hearts"
    page.click("#start-game")
    page.wait_for_selector("#entry-panel:not([hidden]) .field[data-field=hearts]")
    # RULES C4: a point a heart, 13 for the queen of spades
    more(page, "hearts", "Ann", 5)
    more(page, "hearts", "Bob", 8)
    tap(page, "queen", "Cy")
    page.click("#submit-entry")
    page.wait_for_selector("#entries li[data-entry='1']")
    book = server.get("/api/score/books/kitchen")
    assert totals(page) == book["games"][0]["totals"] == {"Ann": 5, "Bob": 8, "Cy": 13, "Dee": 0}
    assert layout_problems(page, BOXES) == []
    screenshot(page, shots, "score-390x844", full_page=True)
    page.click("#undo-last")
    page.wait_for_selector("#entries li[data-entry='1'][data-undone=yes]")
    assert totals(page) == {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 0}
    page.click("#entries li[data-entry='1'] button")  # restore
    page.wait_for_selector("#entries li[data-entry='1'][data-undone=no]")
    assert totals(page) == {"Ann": 5, "Bob": 8, "Cy": 13, "Dee": 0}
    audit = [a["action"] for a in server.get("/api/score/books/kitchen")["audit"]]
    assert audit[-3:] == ["enter", "undo", "restore"]
    page.click("#end-game")
    page.wait_for_selector("#start-panel:not([hidden])")
    # cribbage for two: Cy and Dee sit out; Bob's hand is counted from the cards tapped in
    page.select_option("#game-select", "cribbage")
    page.click("#seat-picker button[data-player=Cy]")
    page.click("#seat-picker button[data-player=Dee]")
    page.click("#start-game")
    page.wait_for_selector(".field[data-field=cards]")
    tap(page, "player", "Bob")
    for code in ("5H", "5D", "5S", "JC"):
        page.click(f".field[data-field=cards] .rank-pad button[data-rank='{code[:-1]}']")
        page.click(f".field[data-field=cards] .suit-pad button[data-suit='{code[-1]}']")
    page.click(".field[data-field=starter] .rank-pad button[data-rank='5']")
    page.click(".field[data-field=starter] .suit-pad button[data-suit='C']")
    page.click("#submit-entry")
    page.wait_for_selector("#standings .score-side[data-side=Bob][data-total='29']")  # RULES C3: the 29 hand
    assert server.get("/api/score/books/kitchen")["games"][1]["totals"] == {"Ann": 0, "Bob": 29}
    assert page.inner_text("#error") == "" and errors == []
    page.set_viewport_size({"width": 1280, "height": 800})
    assert layout_problems(page, BOXES) == []
    screenshot(page, shots, "score-1280x800", full_page=True)
    # the standings on the room's TV: the same totals, nothing to tap
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(server.url + "/score?book=kitchen&tv=1")
    page.wait_for_selector("body.tv-mode[data-ready=yes] .score-side[data-side=Bob][data-total='29']")
    assert not page.is_visible("#entry-panel") and not page.is_visible("#end-game")
    assert layout_problems(page, [".panel", ".score-side", ".sc-head"]) == []
    screenshot(page, shots, "score-tv-1920x1080")
    page.close()
