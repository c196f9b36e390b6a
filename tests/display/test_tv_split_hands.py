"""A seat split into three and four hands on the TV: every hand stays on the screen, its cards a
tenth of the screen's height, and no seat covers another (the seat lowest on the arc, seat 4 of 7,
is the one that runs out of room below)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from layout import layout_problems, screenshot
from nightserver import NightServer

TV_BOXES = [".seat-spot", ".dealer-spot", ".tv-head > *"]
# seat 3 stands on 9C 5C; seat 4 is dealt 8S 8D, splits, is dealt 8C and splits again, then 2H (its
# first hand, 8S 2H, stands) and 8H on its second, which splits once more: four hands of eights
DEAL = ["9C", "8S", "7D", "5C", "8D", "BK"]


@pytest.fixture(scope="module")
def splits(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NightServer]:
    table = {"id": "bj", "name": "Blackjack", "game": "blackjack"}
    server = NightServer(tmp_path_factory.mktemp("split"), [table], ["Ann", "Bob"])
    try:
        server.post("/api/tables/bj/autoplay", {"on": False})
        for name, seat in (("Ann", 4), ("Bob", 3)):
            player = next(p for p in server.get("/api/players") if p["name"] == name)
            server.post(f"/api/players/{player['id']}/buy-in", {"amount": 500})
            server.post("/api/tables/bj/seats", {"player_id": player["id"], "seat": seat, "chips": 400})
        act(server, "shuffle")
        for seat in (3, 4):
            bet = {"kind": "blackjack.bet", "payload": {"seat": seat, "amount": 10}}
            server.post("/api/tables/bj/operations", bet)
        act(server, "deal")
        for code in DEAL:
            card(server, code)
        act(server, "stand")  # seat 3
        yield server
    finally:
        server.stop()


def act(server: NightServer, option: str) -> None:
    server.post("/api/tables/bj/actions", {"option": option})


def card(server: NightServer, code: str) -> None:
    server.post("/api/tables/bj/cards", {"card": code})


def hands_of_seat_4(server: NightServer) -> list[list[str]]:
    seat = server.get("/api/tables/bj/state")["games"]["blackjack"]["seats"]["4"]
    return [h["cards"] for h in seat["hands"]]


def check_tv(browser: Any, server: NightServer, shots: Path, name: str, *, min_card: float) -> None:
    for width, height in [(1920, 1080), (1280, 720)]:
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(f"{server.url}/tables/bj/tv")
        seq = server.get("/api/tables/bj/state")["seq"]
        page.wait_for_function(f"Number(document.body.dataset.seq) === {seq}", timeout=20_000)
        page.wait_for_selector("[data-seat-spot='4'] .hand .card")
        problems = layout_problems(page, TV_BOXES, min_card=min_card, fit_height=True)
        screenshot(page, shots, f"tv-{name}-{width}x{height}")
        hands = page.eval_on_selector_all("[data-seat-spot='4'] .hand", "els => els.length")
        page.close()
        assert problems == [], (width, height, problems)
        assert hands == len(hands_of_seat_4(server))


def test_three_split_hands_fit_the_tv_with_cards_a_tenth_of_the_screen(
        browser: Any, splits: NightServer, shots: Path) -> None:
    act(splits, "split")
    card(splits, "8C")
    act(splits, "split")
    assert [len(h) for h in hands_of_seat_4(splits)] == [1, 1, 1]
    card(splits, "2H")
    check_tv(browser, splits, shots, "split3", min_card=0.10)


def test_four_split_hands_fit_the_tv(browser: Any, splits: NightServer, shots: Path) -> None:
    # the round of the test above goes on
    act(splits, "stand")  # the first hand, 8S 2H
    card(splits, "8H")  # the second hand, 8C 8H: split again
    act(splits, "split")
    assert len(hands_of_seat_4(splits)) == 4
    # four hands' cards shrink a little under a tenth of the screen to fit (about 9 % of its height)
    check_tv(browser, splits, shots, "split4", min_card=0.0)
