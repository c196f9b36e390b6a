"""A casino night's pages in a real browser (Debian's Chromium): each table's TV view at TV sizes,
the phone control page, the lobby and the report. One night server for the module.

Screenshots are left in DEALER_SCREENSHOTS (or a temporary folder) for a person to look at."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from control_page import take_over
from layout import WATCH, layout_problems, screenshot
from nightserver import NightServer

# blackjack deals from a simulated card shoe on a pseudo-terminal, so the dealer can also type cards in
TABLES = [{"id": "bj", "name": "Blackjack", "game": "blackjack", "devices": "sim"},
          {"id": "bac", "name": "Baccarat", "game": "baccarat"},
          {"id": "faro", "name": "Faro", "game": "faro", "seats": 4},
          {"id": "pg", "name": "Pai gow", "game": "pai-gow", "seats": 6},
          {"id": "slots", "name": "Slots", "game": "slots", "seats": 3,
           "rules": "titles=diamond-mine;triple-7-inferno;crazy-dragon"}]
GUESTS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
SEATING = {"Ann": ("bj", 1), "Bob": ("bj", 2), "Cy": ("bj", 3), "Dee": ("bac", 1), "Eve": ("bac", 2),
           "Fay": ("faro", 1), "Gus": ("pg", 1), "Hal": ("slots", 1)}
TV_SIZES = [(1920, 1080), (1280, 720)]
# the boxes of a TV layout that must neither overlap nor leave the screen
TV_BOXES = [".seat-spot", ".dealer-spot", ".position", ".bac-top > *", ".road-box", ".rail > section",
            ".slot-machine", ".progressive", ".faro-left", ".faro-right", ".faro-turn > .hand", ".spindle",
            ".dice", ".tv-head > *"]
ACCOUNTS = re.compile(r"\w+:stakes|\bhouse\s*[-+]?\d|\bcage\b|\bseat-\d")  # ledger rows, account names


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NightServer]:
    server = NightServer(tmp_path_factory.mktemp("night"), TABLES, GUESTS)
    try:
        for p in server.get("/api/players"):
            server.post(f"/api/players/{p['id']}/buy-in", {"amount": 500})
            table, seat = SEATING[p["name"]]
            server.post(f"/api/tables/{table}/seats", {"player_id": p["id"], "seat": seat, "chips": 400})
        yield server
    finally:
        server.stop()


def wait_for_play(night: NightServer, table: str, ready: Any, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        state = night.get(f"/api/tables/{table}/state")
        if ready(state) or time.monotonic() > deadline:
            return state
        time.sleep(0.3)


READY = {
    "bj": lambda s: s["games"]["blackjack"]["round"] >= 3 and any(
        seat.get("hands") for seat in s["games"]["blackjack"]["seats"].values()),
    "bac": lambda s: s["games"]["baccarat"]["roads"]["coups"] >= 12,
    "faro": lambda s: s["games"]["faro"]["casekeeper"]["cards_out"] >= 12,
    "pg": lambda s: any(isinstance(h, dict) and h.get("back")
                        for h in s["games"]["pai-gow"]["hands"].values()),
    "slots": lambda s: any(m["meters"]["games_played"] >= 3
                           for m in s["games"]["slots"]["machines"].values()),
}


@pytest.mark.parametrize("table", [t["id"] for t in TABLES])
def test_tv_view_fills_the_screen_readably(browser: Any, night: NightServer, shots: Path, table: str) -> None:
    wait_for_play(night, table, READY[table])
    names = [p["name"] for p in night.get(f"/api/tables/{table}/state")["players"]]
    errors: list[str] = []
    for width, height in TV_SIZES:
        page = browser.new_page(viewport={"width": width, "height": height})
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{night.url}/tables/{table}/tv")
        page.wait_for_selector("body[data-connected=yes] [data-game-view]", timeout=20_000)
        if table in ("bj", "bac", "faro"):  # wait for cards on the layout: each must be a tenth of the screen
            page.wait_for_function("document.querySelectorAll('#game .card:not(.history .card)').length > 0",
                                   timeout=30_000)
        time.sleep(0.3)
        problems = layout_problems(page, TV_BOXES, min_card=0.10, fit_height=True)
        screenshot(page, shots, f"tv-{table}-{width}x{height}")
        assert problems == [], problems
        text = page.inner_text("body")
        for name in names:  # players by name, never an account
            assert name in text
        shown = page.inner_text("#game") + page.inner_text(".rail")
        assert ACCOUNTS.search(shown) is None, ACCOUNTS.search(shown)
        assert page.query_selector("pre.json") is None
        assert errors == []
        page.close()


@pytest.mark.parametrize("table", [t["id"] for t in TABLES])
def test_tv_view_on_a_phone_is_one_column_that_scrolls_down(browser: Any, night: NightServer, shots: Path,
                                                            table: str) -> None:
    """A guest follows the table on a phone held upright: nothing overlaps or runs off the side (the
    page scrolls down instead), the cards are big enough to read and the players are listed."""
    wait_for_play(night, table, READY[table])
    names = [p["name"] for p in night.get(f"/api/tables/{table}/state")["players"]]
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{night.url}/tables/{table}/tv")
    page.wait_for_selector("body[data-connected=yes] [data-game-view]", timeout=20_000)
    time.sleep(0.3)
    problems = layout_problems(page, TV_BOXES, fit_height=False)
    screenshot(page, shots, f"tv-{table}-390x844", full_page=True)
    assert problems == [], problems
    if table in ("bj", "bac", "faro"):  # cards on the layout are at least 15 % of the phone's width
        page.wait_for_function("[...document.querySelectorAll('#game .card:not(.history .card)')]"
                               ".some((c) => c.getBoundingClientRect().width >= 0.15 * 390)", timeout=30_000)
    assert page.is_visible(".rail"), "the players are listed under the table"
    rail = page.inner_text(".rail")
    assert all(name in rail for name in names), (names, rail)
    assert errors == []
    page.close()


def test_tv_never_shows_a_face_down_card(browser: Any, night: NightServer) -> None:
    """Whatever the TV draws as a face is a card the API shows to a viewer (a hole card is a back)."""
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{night.url}/tables/bj/tv")
    page.wait_for_selector("body[data-connected=yes] #dealer-hand", timeout=20_000)
    for _ in range(20):
        seq = int(page.get_attribute("body", "data-seq"))
        shown = page.eval_on_selector_all("#dealer-hand .card", "els => els.map(e => e.dataset.card)")
        state = night.get("/api/tables/bj/state")
        if state["seq"] == seq:
            dealer = state["games"]["blackjack"]["dealer"]["cards"]
            assert shown == [c or "BK" for c in dealer]
        time.sleep(0.15)
    page.close()


PHONE_BOXES = ["button", ".panel", ".ctl-head", "select"]
# every visible button, by a selector that survives the page redrawing it (each has an id or a data-* key)
BUTTONS = """
() => [...document.querySelectorAll("button")].filter((b) => b.offsetParent !== null).map((b) => {
  if (b.id) return "#" + b.id;
  const key = ["option", "seat", "chip", "rank", "suit", "seq", "resume", "dispute", "reading", "choice",
               "toggle"]
    .find((k) => b.dataset[k] != null);
  if (!key) throw new Error("a button with no id or data key: " + b.outerHTML);
  const scope = b.closest("[id]");
  return `${scope ? "#" + scope.id + " " : ""}button[data-${key}='${b.dataset[key]}']`;
})
"""


@pytest.mark.parametrize("size", [(390, 844), (820, 1180), (1920, 1080)])
def test_control_page_every_button_does_something(browser: Any, night: NightServer, shots: Path,
                                                  size: tuple[int, int]) -> None:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]}, has_touch=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{night.url}/tables/bj/control")
    page.wait_for_selector("body[data-connected=yes] [data-game-view]", timeout=20_000)
    page.wait_for_selector("#recent-cards .recent", timeout=30_000)  # cards seen while autoplay ran
    assert layout_problems(page, PHONE_BOXES) == []
    assert "{" not in page.inner_text("body")  # no JSON anywhere
    screenshot(page, shots, f"control-bj-{size[0]}x{size[1]}", full_page=True)
    take_over(page)  # a still table: the sweep below taps every button once
    page.evaluate(WATCH)
    tapped = []
    # "Autoplay" sets the table playing again, and every tap after it would race the game's own moves
    # (an option redrawn under the finger): it is tapped last, once the sweep is over
    for selector in [s for s in page.evaluate(BUTTONS) if s != "#autoplay-on"]:
        if not page.is_visible(selector) or not page.is_enabled(selector):
            continue  # gone or disabled after an earlier tap (a suit needs a rank first)
        before_seq = int(page.get_attribute("body", "data-seq"))
        before = page.evaluate("window.__mutations")
        page.click(selector, timeout=5_000)
        changed = f"window.__mutations > {before} || Number(document.body.dataset.seq) > {before_seq}"
        page.wait_for_function(changed, timeout=5_000)
        page.wait_for_function("document.body.dataset.busy !== 'yes'", timeout=10_000)  # its request is over
        tapped.append(selector)
    page.click("#autoplay-on")
    page.wait_for_function("document.getElementById('autoplay-state').textContent === 'autoplay on'")
    assert len(tapped) >= 20 and errors == []
    page.close()


def test_take_over_stays_put_while_autoplay_plays(browser: Any, night: NightServer) -> None:
    # a tap on "Take over" lands where the button was a moment before: cards dealt, bets placed and
    # cards read must not move it (below them it moved with every event, and a tap missed it)
    page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
    page.goto(f"{night.url}/tables/bj/control")
    page.wait_for_selector("body[data-connected=yes] [data-game-view]", timeout=20_000)
    where = "(() => { const r = document.getElementById('autoplay-off').getBoundingClientRect();" \
            " return [Math.round(r.left), Math.round(r.top + scrollY), Math.round(r.width)]; })()"
    seen = {tuple(page.evaluate(where))}
    for _ in range(12):  # twelve events of autoplay, each drawn
        seq = int(page.get_attribute("body", "data-seq"))
        page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}", timeout=30_000)
        seen.add(tuple(page.evaluate(where)))
    page.close()
    assert len(seen) == 1, seen


def test_control_page_runs_a_blackjack_round_by_taps(browser: Any, night: NightServer) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
    page.goto(f"{night.url}/tables/bj/control")
    page.wait_for_selector("body[data-connected=yes] [data-game-view]", timeout=20_000)
    take_over(page)
    for _ in range(60):  # the round in progress ends by taps: stand, decline, or a card from the pad
        state = night.get("/api/tables/bj/state")
        if state["prompt"]["step"] == "bet":
            break
        tap_one_step(page, state)
    # Bob bets 15 by taps: his chip, then +10 +5, then place (autoplay may have bet for him already)
    bob = next(p for p in state["players"] if p["name"] == "Bob")
    page.click(f".player-chip[data-seat='{bob['seat']}']")
    page.click("#bet-clear")
    page.click(".chip[data-chip='10']")
    page.click(".chip[data-chip='5']")
    assert page.inner_text("#bet-amount") == "15"
    seq = night.get("/api/tables/bj/state")["seq"]
    page.click("#place-bet")
    page.wait_for_function(f"Number(document.body.dataset.seq) > {seq} "
                           "|| document.getElementById('error').textContent !== ''", timeout=10_000)
    refused = page.inner_text("#error")
    assert refused in ("", f"seat {bob['seat']} has already bet"), refused
    state = night.get("/api/tables/bj/state")
    stake = state["games"]["blackjack"]["seats"][str(bob["seat"])]["bet"]
    if not refused:
        assert stake == 15
    ours = state["games"]["blackjack"]["round"] + 1  # the deal numbers it
    page.click("button[data-option='deal']")
    wait_event(page, state["seq"])
    for _ in range(60):  # our round, played by taps to its end
        state = night.get("/api/tables/bj/state")
        rounds = state["games"]["blackjack"]["last_rounds"]
        if rounds and rounds[-1]["round"] >= ours:
            break
        tap_one_step(page, state)
    last = night.get("/api/tables/bj/state")["games"]["blackjack"]["last_rounds"][-1]
    assert last["round"] == ours
    assert last["seats"][str(bob["seat"])]["hands"][0]["stake"] == stake
    assert page.inner_text("#error") == ""
    page.click("#autoplay-on")
    page.close()


def tap_one_step(page: Any, state: dict[str, Any]) -> None:
    prompt = state["prompt"]
    if prompt["step"] == "card":
        page.click("#rank-pad button[data-rank='7']")
        page.click("#suit-pad button[data-suit='H']")
    elif prompt["step"] == "shuffle" and not prompt["options"]:  # the cut card came out
        page.click("button[data-option='shuffle']")
    else:
        options = [o for o in prompt["options"] if o not in ("bet", "insure")]
        assert options, prompt
        choice = "stand" if "stand" in options else "decline" if "decline" in options else options[0]
        page.click(f"button[data-option='{choice}']")
    wait_event(page, state["seq"])


def wait_event(page: Any, seq: int) -> None:
    """The page shows an event after ``seq`` (or the test says what the page said instead)."""
    try:
        page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}"
                               " || document.getElementById('error').textContent !== ''", timeout=10_000)
    except Exception as exc:
        shown, busy = page.get_attribute("body", "data-seq"), page.get_attribute("body", "data-busy")
        raise AssertionError(f"no event after #{seq}; the page shows #{shown}, busy={busy}") from exc
    assert page.inner_text("#error") == "", page.inner_text("#error")


NEWEST = "Number(document.querySelector('#recent-cards .recent')?.dataset.seq || 0)"  # the newest card listed


def to_a_face_up_card(page: Any, night: NightServer) -> dict[str, Any]:
    """The blackjack table's control page taken over and played by taps to the next card the dealer
    enters face up for a player; the state there."""
    page.goto(f"{night.url}/tables/bj/control")
    page.wait_for_selector("body[data-connected=yes] [data-game-view]", timeout=20_000)
    take_over(page)
    for _ in range(60):
        state = night.get("/api/tables/bj/state")
        if face_up_card_due(state):
            return state
        if state["prompt"]["step"] == "bet":
            page.click(".player-chip:first-child")  # a bet by taps (autoplay may have bet already)
            page.click("#bet-clear")
            page.click(".chip[data-chip='5']")
            page.click("#place-bet")
            page.wait_for_function(f"Number(document.body.dataset.seq) > {state['seq']} "
                                   "|| document.getElementById('error').textContent !== ''", timeout=10_000)
            state = night.get("/api/tables/bj/state")
            page.click("button[data-option='deal']")
            wait_event(page, state["seq"])
        else:
            tap_one_step(page, state)
    raise AssertionError("no face-up card for a player in 60 steps")


def test_a_misread_card_is_corrected_by_taps(browser: Any, night: NightServer) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
    state = to_a_face_up_card(page, night)
    page.click("#rank-pad button[data-rank='9']")
    page.click("#suit-pad button[data-suit='C']")
    wait_event(page, state["seq"])
    newest = NEWEST
    page.wait_for_function(f"{newest} > {state['seq']}", timeout=10_000)
    seq = page.evaluate(newest)  # the record that brought the card just typed
    assert page.get_attribute(f"#recent-cards .recent[data-seq='{seq}'] .card", "data-card") == "9C"
    page.click(f"#recent-cards .recent[data-seq='{seq}']")
    assert page.get_attribute("#card-panel", "data-mode") == "correct"
    page.click("#rank-pad button[data-rank='8']")
    page.click("#suit-pad button[data-suit='D']")
    page.wait_for_function("document.getElementById('card-panel').dataset.mode === 'enter'", timeout=10_000)
    state = night.get("/api/tables/bj/state")
    assert str(seq) in state["voided"] or str(seq) in state["corrected"]
    codes = str(state["games"]["blackjack"])
    assert "8D" in codes
    assert page.inner_text("#error") == ""
    page.click("#autoplay-on")
    page.close()


def test_a_correction_begun_before_the_entry_is_answered_is_kept(browser: Any, night: NightServer) -> None:
    # the card's record reaches the page by the stream before the server's answer to the entry does;
    # the dealer, seeing it misread, taps it and a rank: the late answer must not clear that (it did:
    # the suit pad went dead under the finger). The answer is held until the taps are made
    page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
    state = to_a_face_up_card(page, night)
    held: list[tuple[Any, Any]] = []

    def hold_the_first(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))  # the server has the card; the page waits for its answer

    page.route(lambda url: url.split("?")[0].endswith("/cards"), hold_the_first)
    page.click("#rank-pad button[data-rank='9']")
    page.click("#suit-pad button[data-suit='C']")
    page.wait_for_function(f"{NEWEST} > {state['seq']}", timeout=10_000)
    seq = page.evaluate(NEWEST)
    page.click(f"#recent-cards .recent[data-seq='{seq}']")
    page.click("#rank-pad button[data-rank='8']")
    assert held, "the entry was answered before the correction began"
    route, answer = held[0]
    with page.expect_response(lambda r: r.url.split("?")[0].endswith("/cards")):
        route.fulfill(response=answer)
    page.wait_for_function("document.body.dataset.busy !== 'yes'", timeout=10_000)
    assert page.get_attribute("#card-panel", "data-mode") == "correct"
    assert page.get_attribute("#rank-pad button[data-rank='8']", "aria-pressed") == "true"
    page.click("#suit-pad button[data-suit='D']")
    page.wait_for_function("document.getElementById('card-panel').dataset.mode === 'enter'", timeout=10_000)
    state = night.get("/api/tables/bj/state")
    assert str(seq) in state["voided"] or str(seq) in state["corrected"]
    assert "8D" in str(state["games"]["blackjack"])
    assert page.inner_text("#error") == ""
    page.click("#autoplay-on")
    page.close()


def face_up_card_due(state: dict[str, Any]) -> bool:
    """The next card goes to a player face up: not the dealer's (the hole card is a back), not a burn,
    not a double-down card (face down until the round is settled)."""
    prompt, game = state["prompt"], state["games"]["blackjack"]
    if prompt["step"] != "card" or not str(prompt.get("who")).startswith("seat-"):
        return False
    turn = game["turn"]
    return turn is None or not game["seats"][str(turn["seat"])]["hands"][turn["hand"]]["doubled"]


@pytest.fixture(scope="module")
def still_night(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NightServer]:
    """A blackjack table where nothing happens but the dealer's taps: Ann at seat 1, no autoplay."""
    table = {"id": "bj", "name": "Blackjack", "game": "blackjack"}  # the engine's shoe: no device deals
    server = NightServer(tmp_path_factory.mktemp("still"), [table], ["Ann"])
    try:
        server.post("/api/tables/bj/autoplay", {"on": False})  # before anyone sits: not one step is played
        ann = server.get("/api/players")[0]
        server.post(f"/api/players/{ann['id']}/buy-in", {"amount": 500})
        server.post("/api/tables/bj/seats", {"player_id": ann["id"], "seat": 1, "chips": 400})
        yield server
    finally:
        server.stop()


def type_card(page: Any, night: NightServer, code: str) -> int:
    """The dealer enters ``code`` on the card pad; the record that took it (the newest: nothing else
    moves at this table)."""
    seq = night.get("/api/tables/bj/state")["seq"]
    page.click(f"#rank-pad button[data-rank='{code[:-1]}']")
    page.click(f"#suit-pad button[data-suit='{code[-1]}']")
    wait_event(page, seq)
    return int(night.get("/api/tables/bj/state")["seq"])


def bet_ten_and_deal(page: Any, night: NightServer) -> None:
    """Ann (seat 1) bets 10 and the round is dealt, by taps on the control page."""
    page.click(".player-chip[data-seat='1']")
    page.click("#bet-clear")
    page.click(".chip[data-chip='10']")
    for button in ("#place-bet", "button[data-option='deal']"):
        seq = night.get("/api/tables/bj/state")["seq"]
        page.click(button)
        wait_event(page, seq)


def test_recent_cards_name_the_card_each_record_brought(browser: Any, still_night: NightServer) -> None:
    """The card of a double goes face down, and the same record turns the dealer's hole card up:
    the list of cards to correct must not offer that record as the hole card (a correction of it
    would change Ann's card). Each card is typed, so the round is the same every time."""
    night = still_night
    page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
    page.goto(f"{night.url}/tables/bj/control")
    page.wait_for_selector("body[data-connected=yes] [data-game-view]", timeout=20_000)
    seq = night.get("/api/tables/bj/state")["seq"]
    page.click("button[data-option='shuffle']")
    wait_event(page, seq)
    bet_ten_and_deal(page, night)
    brought = {type_card(page, night, code): code for code in ("6S", "6D", "5D", "10C")}  # Ann 11, dealer 16
    seq = night.get("/api/tables/bj/state")["seq"]
    page.click("button[data-option='double']")
    wait_event(page, seq)
    double = type_card(page, night, "9C")  # face down; Ann's turn is over, so the hole card turns up
    state = night.get("/api/tables/bj/state")["games"]["blackjack"]
    assert state["dealer"]["cards"] == ["6D", "10C"] and state["seats"]["1"]["hands"][0]["cards"][-1] == "BK"
    last = type_card(page, night, "5S")  # the dealer draws to 21: the round is settled
    brought |= {double: "9C", last: "5S"}
    shown = page.eval_on_selector_all("#recent-cards .recent", "els => els.map(e => "
                                      "[Number(e.dataset.seq), e.querySelector('.card').dataset.card])")
    assert shown and all(brought.get(seq) == card for seq, card in shown), (shown, brought)
    assert [card for _, card in shown] == ["5S", "5D", "6D", "6S"]  # the hole card and the double: backs
    # the dealer's last card was a 4, not a 5: by taps, and the round is settled again on the right card
    page.click(f"#recent-cards .recent[data-seq='{last}']")
    page.click("#rank-pad button[data-rank='4']")
    page.click("#suit-pad button[data-suit='S']")
    page.wait_for_function("document.getElementById('card-panel').dataset.mode === 'enter'", timeout=10_000)
    assert page.inner_text("#error") == ""
    state = night.get("/api/tables/bj/state")
    assert state["corrected"] == {str(last): True}
    game = state["games"]["blackjack"]
    assert game["dealer"]["cards"] == ["6D", "10C", "4S"]
    assert game["seats"]["1"]["hands"][0]["cards"] == ["6S", "5D", "9C"]
    assert game["seats"]["1"]["hands"][0]["result"] == "push"  # 20 against 20
    page.close()


def test_a_corrected_card_is_corrected_again_by_taps(browser: Any, still_night: NightServer) -> None:
    """A card corrected to the wrong card is corrected again: the page lists the dealt record with the
    card of its newest correction, and a tap on it changes the card in the game once more."""
    night = still_night
    page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
    page.goto(f"{night.url}/tables/bj/control")
    page.wait_for_selector("body[data-connected=yes] [data-game-view]", timeout=20_000)
    state = night.get("/api/tables/bj/state")
    if state["prompt"]["step"] == "shuffle":  # a fresh table (this test alone): the shoe first
        page.click("button[data-option='shuffle']")
        wait_event(page, state["seq"])
    bet_ten_and_deal(page, night)
    first = type_card(page, night, "6S")  # Ann's first card, face up
    type_card(page, night, "6D")
    type_card(page, night, "5D")
    for tap, code in ((f"#recent-cards .recent[data-seq='{first}']", "7S"),  # it was not a 6S...
                      ("#recent-cards .recent:has(.card[data-card='7S'])", "4S")):  # ...nor a 7S: a 4S
        page.wait_for_selector(tap, timeout=10_000)
        page.click(tap)
        assert page.get_attribute("#card-panel", "data-mode") == "correct"
        page.click(f"#rank-pad button[data-rank='{code[:-1]}']")
        page.click(f"#suit-pad button[data-suit='{code[-1]}']")
        page.wait_for_function("document.getElementById('card-panel').dataset.mode === 'enter'",
                               timeout=10_000)
        assert page.inner_text("#error") == ""
    state = night.get("/api/tables/bj/state")
    assert state["games"]["blackjack"]["seats"]["1"]["hands"][0]["cards"] == ["4S", "5D"]
    assert [seq for seq in state["corrected"] if int(seq) >= first] == [str(first)]
    page.wait_for_selector(f"#recent-cards .recent[data-seq='{first}'] .card[data-card='4S']", timeout=10_000)
    shown = page.eval_on_selector_all("#recent-cards .recent", "els => els.map(e => "
                                      "[Number(e.dataset.seq), e.querySelector('.card').dataset.card])")
    assert shown == [[first + 2, "5D"], [first + 1, "6D"], [first, "4S"]], shown
    page.close()


def test_a_disputed_hole_card_is_settled_by_a_tap_and_named_on_no_tv(browser: Any,
                                                                     still_night: NightServer) -> None:
    """The shoe and the camera disagree about the dealer's hole card (the table logs the dispute as
    the host does when its witnesses disagree). The TV says play waits for the dealer, naming neither
    reading (the card will lie face down); the control page names both, from the dealer's own route,
    and a tap on the right one settles it."""
    night = still_night
    page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
    page.goto(f"{night.url}/tables/bj/control")
    page.wait_for_selector("body[data-connected=yes] [data-game-view]", timeout=20_000)
    for _ in range(30):  # any round left by an earlier test ends by taps
        state = night.get("/api/tables/bj/state")
        if state["prompt"]["step"] == "bet":
            break
        tap_one_step(page, state)
    bet_ten_and_deal(page, night)
    for code in ("6S", "7D", "5D"):  # Ann 11, the dealer shows 7D: the hole card is next
        type_card(page, night, code)
    night.post("/api/tables/bj/operations", {"kind": "table.dispute",
                                             "payload": {"issue": 1, "shoe": "QH", "camera": "JS"}})
    tv = browser.new_page(viewport={"width": 1280, "height": 720})
    tv.goto(f"{night.url}/tables/bj/tv")
    tv.wait_for_selector("body[data-connected=yes] #paused.on", timeout=20_000)
    shown = tv.inner_text("body")
    assert "integrity" in tv.inner_text("#paused")
    assert "QH" not in shown and "JS" not in shown, shown
    drawn = tv.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")
    assert "QH" not in drawn and "JS" not in drawn, drawn
    tv.close()
    settle = "#pause-actions button[data-reading='1-camera']"
    page.wait_for_selector(settle, timeout=10_000)
    assert page.inner_text(settle) == "JS (the camera)"
    assert page.inner_text("#pause-actions button[data-reading='1-shoe']") == "QH (the shoe)"
    assert "the shoe read QH, the camera saw JS" in page.inner_text("#pause-actions button[data-dispute='1']")
    seq = night.get("/api/tables/bj/state")["seq"]
    page.click(settle)
    wait_event(page, seq)
    page.wait_for_function("!document.querySelector('#pause-actions button[data-dispute]')", timeout=10_000)
    state = night.get("/api/tables/bj/state")
    assert state["disputes"] == {} and state["paused"] == {}
    assert state["games"]["blackjack"]["dealer"]["cards"] == ["7D", "BK"]
    seq = state["seq"]
    page.click("button[data-option='stand']")  # the hole card turns up: the card the dealer tapped
    wait_event(page, seq)
    last = night.get("/api/tables/bj/state")["games"]["blackjack"]["last_rounds"][-1]
    assert last["dealer"][:2] == ["7D", "JS"], last
    assert page.inner_text("#error") == ""
    page.close()


def test_lobby_and_report(browser: Any, night: NightServer, shots: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(night.url + "/")
    page.wait_for_selector("body[data-ready=yes] .table-card", timeout=20_000)
    cards = page.eval_on_selector_all(".table-card", "els => els.map(e => e.dataset.table)")
    assert cards == [t["id"] for t in TABLES]
    assert page.query_selector_all("a.camera-link") == []  # no table here has a camera (test_camera_page)
    # a new guest by name, a buy-in of 200 by taps, then a seat at the faro table
    page.fill("#new-player", "Ivy")
    page.click("#add-player button")
    page.wait_for_selector("#players tr:has(td.who:text-is('Ivy'))", timeout=10_000)
    ivy = next(p for p in night.get("/api/players") if p["name"] == "Ivy")
    page.click(".choice[data-amount='200']")
    page.click(f"#players tr[data-player='{ivy['id']}'] button[data-action='buy-in']")
    row = f"document.querySelector(\"#players tr[data-player='{ivy['id']}']\")"
    page.wait_for_function(f"{row}.dataset.chips === '200'", timeout=10_000)
    card = ".table-card[data-table='faro']"
    page.select_option(f"{card} .sit-player", ivy["id"])
    page.click(f"{card} .sit")
    page.wait_for_selector(f"{card} li[data-player='{ivy['id']}']", timeout=10_000)
    seat = night.get("/api/players/" + ivy["id"])["at_table"]
    assert seat["table"] == "faro" and seat["brought"] == 200
    assert layout_problems(page, [".table-card", ".panel", "button"]) == []
    screenshot(page, shots, "lobby-1280x800", full_page=True)
    # she stands up (after the turn if one is under way) and cashes out what she has
    page.click(f"{card} li[data-player='{ivy['id']}'] button[data-stand]")
    deadline = time.monotonic() + 30
    while night.get("/api/players/" + ivy["id"])["at_table"] and time.monotonic() < deadline:
        time.sleep(0.3)
    page.wait_for_selector(f"#players tr[data-player='{ivy['id']}'] button[data-action='cash-out']:enabled",
                           timeout=10_000)
    page.click(f"#players tr[data-player='{ivy['id']}'] button[data-action='cash-out']")
    page.wait_for_function(f"{row}.dataset.chips === '0'", timeout=10_000)
    # the report page shows what the report API says, and that every chip is accounted for
    page.goto(night.url + "/report")
    page.wait_for_selector("body[data-ready=yes]", timeout=10_000)
    report = night.get("/api/report")
    shown = {r["data-player"]: int(r["data-result"]) for r in page.eval_on_selector_all(
        "#players tr[data-player]", "els => els.map(e => ({...e.dataset, 'data-player': e.dataset.player, "
        "'data-result': e.dataset.result}))")}
    expected = {p["id"]: p["result"] for p in report["players"]}
    assert set(shown) == set(expected)
    assert shown[ivy["id"]] == expected[ivy["id"]]
    balanced = "yes" if report["totals"]["balanced"] else "no"
    assert page.get_attribute("[data-balanced]", "data-balanced") == balanced
    screenshot(page, shots, "report-1280x800", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(night.url + "/")
    page.wait_for_selector("body[data-ready=yes] .table-card", timeout=20_000)
    assert layout_problems(page, [".table-card", ".panel", "button"]) == []
    screenshot(page, shots, "lobby-390x844", full_page=True)
    page.close()
