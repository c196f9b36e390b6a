"""The camera check page in a real browser (Debian's Chromium): the simulated camera's annotated
frame, the verdict on its set-up and what it reads (the same as GET /api/camera), Freeze and Live,
and the pages of a table without a camera, of a caller without a token and of a server gone away.

Screenshots are left in DEALER_SCREENSHOTS (or a temporary folder) for a person to look at."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from layout import layout_problems, screenshot
from serving import Server, wait_for

from dealer.store import TokenStore
from dealer.store.tokens import Role

# the page's boxes that must neither overlap nor leave the screen
BOXES = [".cam-head h1", ".cam-links a", "#notice", ".panel", "#frame", ".frame-line", "#freeze", ".legend",
         ".verdict", ".advice li", ".seen-card", ".cam-stats dt", ".cam-stats dd"]
SIZES = {"phone": (390, 844), "tv": (1920, 1080)}
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A simulated table whose simulated camera sees each card the shoe deals (a frame or two a second
    at the table's usual pace, so the page's refresh and a frame rarely cross)."""
    server = Server(tmp_path_factory.mktemp("camera") / "table.db", env={"DEALER_TABLE__PACE_MS": "400"})
    yield server
    server.stop()


def open_page(browser: Any, url: str, size: str) -> tuple[Any, list[str]]:
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page, errors


def body(page: Any, name: str) -> str:
    return str(page.get_attribute("body", f"data-{name}"))


def shown_cards(page: Any) -> list[dict[str, Any]]:
    return page.eval_on_selector_all(  # type: ignore[no-any-return]
        "#seen .seen-card",
        "els => els.map(e => ({card: e.dataset.card, confidence: Number(e.dataset.confidence),"
        " text: e.querySelector('.code').textContent, red: e.classList.contains('red'),"
        " unsure: e.classList.contains('unsure')}))")


def freeze_on_api_frame(page: Any, server: Server, api: str) -> dict[str, Any]:
    """Freeze the page just after it drew a new frame and read the API at once: the two are compared
    only when they are on the same frame (the camera may have read another one in between)."""
    for _ in range(10):
        if body(page, "state") == "frozen":
            page.click("#freeze")  # Live
        page.wait_for_selector("body[data-state=live]", timeout=10_000)
        before = body(page, "frame")
        page.wait_for_function(f"document.body.dataset.frame !== '{before}'", timeout=20_000)
        page.click("#freeze")
        page.wait_for_selector("body[data-state=frozen]", timeout=5_000)
        report: dict[str, Any] = server.get(api)
        if report["frame"] and str(report["frame"]["number"]) == body(page, "frame"):
            return report
    pytest.fail("the page and /api/camera were never on the same frame")


@pytest.mark.parametrize("size", ["phone", "tv"])
def test_camera_page_shows_what_the_camera_reads(browser: Any, server: Server, shots: Path,
                                                 size: str) -> None:
    """The host's view of the camera, at a phone's and a TV's size: the picture, the verdict, the cards
    it reads and its numbers, all as GET /api/camera reports them. The TV opens the table's own route."""
    path, api = ("/camera", "/api/camera") if size == "phone" else \
        ("/tables/table-1/camera", "/api/tables/table-1/camera")
    page, errors = open_page(browser, server.url + path, size)
    page.wait_for_selector("body[data-state=live]", timeout=30_000)
    report = freeze_on_api_frame(page, server, api)
    width, _ = SIZES[size]

    # the picture: a real image, scaled to fit the screen's width
    image = page.eval_on_selector(
        "#frame", "i => { const r = i.getBoundingClientRect();"
                  " return {w: i.naturalWidth, h: i.naturalHeight, left: r.left, right: r.right}; }")
    assert image["w"] > 0 and image["h"] > 0
    assert report["check"]["frame"] == [image["w"], image["h"]]  # the frame is under 960 px: not shrunk
    assert image["left"] >= 0 and image["right"] <= width and image["right"] - image["left"] > width / 2

    # the verdict (or what to change), the cards read and the numbers are the API's
    check = report["check"]
    assert page.is_visible("#verdict")
    if check["ok"]:
        assert page.inner_text("#verdict") == "Camera set up well"
    else:
        codes = page.eval_on_selector_all("#advice li", "els => els.map(e => e.dataset.code)")
        assert codes == [a["code"] for a in check["advice"]] and page.is_visible("#advice li")
    assert report["seen"], "the simulated camera sees the card just dealt"
    cards = shown_cards(page)
    assert [(c["card"], c["confidence"], c["unsure"]) for c in cards] == [
        (s["card"], s["confidence"], s["unsure"]) for s in report["seen"]]  # amber where the API says
    for c in cards:
        if c["card"] not in ("BK", "JK"):
            suit = c["card"][-1]
            assert c["text"] == c["card"][:-1] + SUITS[suit] and c["red"] == (suit in "HD")
    stats = dict(page.eval_on_selector_all("#stats dd",
                                           "els => els.map(e => [e.dataset.stat, e.textContent])"))
    assert stats["frame-size"] == f"{check['frame'][0]} × {check['frame'][1]} px"
    assert abs(float(stats["card-width"].removesuffix(" px")) - check["card_width"]) <= 0.5  # rounded
    assert stats["bad-frames"] == str(report["bad_frames"])
    # the simulated camera reads every frame it is shown (a real table camera only those after a change)
    assert stats["frames"] == str(report["frames"]) and report["frames_read"] == report["frames"]
    assert stats["frames-read"] == f"every frame ({report['frames_read']})"
    assert "frame" in page.inner_text("#frame-text") and page.inner_text("#freeze") == "Live"

    # the way back: the dealer page and the TV view of the same table
    dealer, tv = page.get_attribute("#dealer-link", "href"), page.get_attribute("#tv-link", "href")
    assert (dealer, tv) == (("/dealer", "/display") if size == "phone" else
                            ("/tables/table-1/control", "/tables/table-1/tv"))
    assert page.inner_text(".cam-head h1") == "table-1 camera check"

    assert layout_problems(page, BOXES) == []
    screenshot(page, shots, f"camera-{size}", full_page=size == "phone")
    assert errors == []
    page.close()


def test_an_unsure_reading_is_listed_amber_and_a_back_as_face_down(browser: Any, server: Server,
                                                                   shots: Path) -> None:
    """The simulated camera reads every card surely, so the page's report is the server's own with its
    readings replaced by an unsure card, a sure one and a back (as ``dealer.table`` reports them)."""
    real: dict[str, Any] = wait_for("a frame read", lambda: (r := server.get("/api/camera"))["frame"] and r)
    seen = [{"card": "9C", "confidence": 0.55, "unsure": True},
            {"card": "QH", "confidence": 0.99, "unsure": False},
            {"card": "BK", "confidence": 0.5, "unsure": False}]
    page, errors = open_page(browser, "about:blank", "phone")  # the route is set before the page asks
    page.route(re.compile(r"/api/camera(\?|$)"), lambda route: route.fulfill(json={**real, "seen": seen}))
    page.goto(server.url + "/camera")
    page.wait_for_selector("#seen .seen-card[data-card=BK]", timeout=30_000)
    cards = shown_cards(page)
    assert [(c["card"], c["unsure"], c["red"]) for c in cards] == [("9C", True, False), ("QH", False, True),
                                                                  ("BK", False, False)]
    conf = page.eval_on_selector_all("#seen .seen-card .conf", "els => els.map(e => e.textContent)")
    assert conf == ["55 % · unsure", "99 % sure", "face down"]
    colours = page.eval_on_selector_all("#seen .seen-card",
                                        "els => els.map(e => getComputedStyle(e).borderLeftColor)")
    assert colours[0] == "rgb(255, 170, 0)"  # the legend's amber (camera.css --unsure)
    assert colours[1] != colours[0]
    assert layout_problems(page, BOXES) == []
    screenshot(page, shots, "camera-unsure-phone", full_page=True)
    assert errors == []
    page.close()


def test_the_lobby_links_a_table_with_a_camera_to_its_camera_page(browser: Any, server: Server) -> None:
    page, errors = open_page(browser, server.url + "/", "phone")
    page.wait_for_selector("body[data-ready=yes] .table-card", timeout=20_000)
    page.click(".table-card[data-table='table-1'] a.camera-link")
    page.wait_for_url("**/tables/table-1/camera")
    page.wait_for_selector("body[data-state=live]", timeout=30_000)
    assert errors == []
    page.close()


def test_freeze_holds_a_frame_while_the_table_deals(browser: Any, server: Server) -> None:
    """From the dealer page's link: Freeze keeps the frame on the screen while new ones arrive at the
    server; Live follows the camera again."""
    page, errors = open_page(browser, server.url + "/dealer", "phone")
    page.click("#camera-link")
    page.wait_for_url("**/camera")
    page.wait_for_selector("body[data-state=live]", timeout=30_000)
    page.click("#freeze")
    page.wait_for_selector("body[data-state=frozen]")
    held = int(body(page, "frame"))
    picture = page.get_attribute("#frame", "src")
    assert page.inner_text("#freeze") == "Live" and "Frozen" in page.inner_text("#frame-text")
    wait_for("the camera to read two more frames",
             lambda: server.get("/api/camera")["frame"]["number"] > held + 1, timeout=20)
    time.sleep(1.6)  # longer than a refresh
    assert int(body(page, "frame")) == held and page.get_attribute("#frame", "src") == picture
    page.click("#freeze")  # Live
    page.wait_for_function(f"Number(document.body.dataset.frame) > {held + 1}", timeout=10_000)
    assert body(page, "state") == "live" and page.inner_text("#freeze") == "Freeze"
    assert page.get_attribute("#frame", "src") != picture
    assert errors == []
    page.close()


def test_table_without_a_camera_or_a_token(browser: Any, tmp_path: Path, shots: Path) -> None:
    """A table served with devices.camera = none and tokens required: without an admin token the
    page says how to open it with one; with one it says how to set the camera; when the server stops
    it says it keeps trying."""
    db = tmp_path / "table.db"
    store = TokenStore(db)
    admin, _ = store.create(Role.ADMIN, "host")
    viewer, _ = store.create(Role.VIEWER, "tv")
    store.close()
    server = Server(db, env={"DEALER_DEVICES__CAMERA": "none", "DEALER_SERVER__REQUIRE_TOKENS": "true"})
    try:
        for query in ("", f"?token={viewer}"):
            page, errors = open_page(browser, server.url + "/camera" + query, "phone")
            page.wait_for_selector("body[data-state=no-token]", timeout=10_000)
            assert "?token=" in page.inner_text("#notice") and "admin" in page.inner_text("#notice")
            assert not page.is_visible("#frame-panel") and errors == []
            if not query:
                screenshot(page, shots, "camera-token-phone")
            page.close()
        page, errors = open_page(browser, server.url + f"/camera?token={admin}", "phone")
        page.wait_for_selector("body[data-state=no-camera]", timeout=10_000)
        notice = page.inner_text("#notice")
        assert "no camera" in notice and "devices.camera" in notice
        assert not page.is_visible("#frame-panel") and not page.is_visible("#freeze")
        assert page.get_attribute("#dealer-link", "href") == f"/dealer?token={admin}"
        assert layout_problems(page, BOXES) == []
        screenshot(page, shots, "camera-none-phone")
    finally:
        server.stop()
    page.wait_for_selector("body[data-state=offline]", timeout=15_000)
    assert "Trying again" in page.inner_text("#notice")
    assert errors == []
    page.close()
