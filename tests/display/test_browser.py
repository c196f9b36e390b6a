"""The big-screen display and the dealer page in a real browser (Debian's Chromium, headless)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from control_page import take_over
from serving import Server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    server = Server(tmp_path / "table.db")
    yield server
    server.stop()


def test_display_shows_simulated_rounds_live(browser: object, server: Server) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    page.goto(server.url + "/display")
    page.wait_for_selector("body[data-connected=yes]", timeout=20_000)
    page.wait_for_selector("#dealer-hand .card[data-card]", timeout=30_000)
    first = int(page.get_attribute("body", "data-seq"))
    # the round goes on: new events arrive and cards appear in the seats, with results
    page.wait_for_function(f"Number(document.body.dataset.seq) > {first + 10}", timeout=30_000)
    page.wait_for_selector(".hand[data-seat] .card[data-card]", timeout=30_000)
    # a settled round stays on the screen with each seat's result, as the API reports it
    page.wait_for_selector(".last-round", timeout=90_000)
    shown_round = page.get_attribute(".last-round", "data-round")
    history = {str(r["round"]): r for r in server.get("/api/history")}
    assert shown_round in history
    text = page.get_attribute(".last-round", "data-text")
    for number, seat in history[shown_round]["game"]["seats"].items():
        assert f"seat {number} " + "/".join(h["result"] for h in seat["hands"]) in text
    seen = page.wait_for_function(  # the cards on the layout right now (between rounds there are none)
        "() => { const c = [...document.querySelectorAll('.card[data-card]')].map(e => e.dataset.card);"
        " return c.length ? c : null; }", timeout=30_000).json_value()
    assert seen and all(c == "BK" or len(c) in (2, 3) for c in seen)
    # what the page shows is what the API says
    state = server.get("/state")
    shown = int(page.get_attribute("body", "data-seq"))
    assert abs(state["seq"] - shown) < 50


def test_dealer_page_takes_over_and_plays(browser: object, server: Server) -> None:
    """/dealer is the default table's control page: take over, bet by taps, deal, play the round."""
    page = browser.new_page(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    page.goto(server.url + "/dealer")
    page.wait_for_selector("body[data-connected=yes]", timeout=20_000)
    take_over(page)
    frozen = server.get("/state")["seq"]  # the reply came after the step in progress had finished
    time.sleep(1.0)
    assert server.get("/state")["seq"] == frozen  # and nothing moved after it
    while server.get("/state")["prompt"]["step"] != "bet":  # let the round in progress finish
        run_one_step(page, server)
    page.click(".player-chip[data-seat='2']")
    page.click("#bet-clear")
    page.click(".chip[data-chip='10']")
    seq = server.get("/state")["seq"]
    page.click("#place-bet")
    wait_seq(page, seq)
    seats = server.get("/state")["games"]["blackjack"]["seats"]
    assert seats["2"]["bet"] == 10
    seq = server.get("/state")["seq"]
    page.click("button[data-option='deal']")
    wait_seq(page, seq)
    for _ in range(40):
        if server.get("/state")["prompt"]["step"] == "bet":
            break
        run_one_step(page, server)
    last = server.get("/state")["games"]["blackjack"]["last_rounds"][-1]
    assert "2" in last["seats"] and last["seats"]["2"]["hands"][0]["result"]
    assert page.inner_text("#error") == ""


def wait_seq(page: object, seq: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}", timeout=10_000)  # type: ignore[attr-defined]


def run_one_step(page: object, server: Server) -> None:
    state = server.get("/state")
    prompt = state["prompt"]
    if prompt["step"] == "card":
        page.click("#rank-pad button[data-rank='7']")  # type: ignore[attr-defined]
        page.click("#suit-pad button[data-suit='H']")  # type: ignore[attr-defined]
    elif prompt["step"] == "shuffle" and not prompt["options"]:  # the cut card came out
        page.click("button[data-option='shuffle']")  # type: ignore[attr-defined]
    else:
        options = [o for o in prompt["options"] if o not in ("bet", "insure")]
        choice = "stand" if "stand" in options else "decline" if "decline" in options else options[0]
        page.click(f"button[data-option='{choice}']")  # type: ignore[attr-defined]
    wait_seq(page, state["seq"])
