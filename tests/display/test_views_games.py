"""Each game's big-screen view in a real browser (Debian's Chromium), drawing a live simulated table.

Every test starts ``dealer serve`` with ``DEALER_TABLE__GAME=<game>``, lets the table play itself,
stops autoplay and checks what the view draws against ``/state`` (read separately from the page).
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from control_page import take_over
from serving import Server

# the engine deals (no device simulators): the views, not the devices, are under test here
ENGINE = {"DEALER_DEVICES__SHOE": "none", "DEALER_DEVICES__SHUFFLER": "none", "DEALER_DEVICES__REELS": "none",
          "DEALER_DEVICES__CAMERA": "none", "DEALER_TABLE__PACE_MS": "5"}




def serve(tmp_path: Path, game: str, **env: str) -> Server:
    return Server(tmp_path / "table.db", env={**ENGINE, "DEALER_TABLE__GAME": game, **env})


def display(browser: Any, server: Server) -> Any:
    page = browser.new_page()
    page.goto(server.url + "/display")
    page.wait_for_selector("body[data-connected=yes]", timeout=20_000)
    return page


def freeze(page: Any, server: Server) -> dict[str, Any]:
    """Stop autoplay, wait for the page to show the last event, and return the table's state."""
    server.post("/api/autoplay", {"on": False})  # replies once the step in progress has finished
    state = server.get("/state")
    page.wait_for_function(f"Number(document.body.dataset.seq) === {state['seq']}", timeout=10_000)
    assert page.query_selector("pre.json") is None  # the game's view drew it (no fallback to raw JSON)
    return state


def attrs(page: Any, selector: str, *names: str) -> list[dict[str, str]]:
    script = f"els => els.map(e => Object.fromEntries({list(names)!r}.map(n => [n, e.getAttribute(n)])))"
    return page.eval_on_selector_all(selector, script)  # type: ignore[no-any-return]


def codes(page: Any, selector: str) -> list[str]:
    return [a["data-card"] for a in attrs(page, selector, "data-card")]


def operate(server: Server, kind: str, **payload: Any) -> None:
    server.post("/api/operations", {"kind": kind, "payload": payload})


def test_faro_casekeeper_counts_the_cards_seen(browser: Any, tmp_path: Path) -> None:
    server = serve(tmp_path, "faro")
    try:
        page = display(browser, server)
        page.wait_for_selector("#casekeeper[data-cards-out]", timeout=20_000)
        page.wait_for_function("Number(document.querySelector('#casekeeper').dataset.cardsOut) >= 9",
                               timeout=30_000)
        state = freeze(page, server)
        faro = state["games"]["faro"]
        seen = [faro["soda"], faro["hock"], *faro["losers"], *faro["winners"]]  # this deal, this turn too
        by_rank = Counter(code[:-1] for code in seen if code)
        spindles = attrs(page, "#casekeeper .spindle", "data-rank", "data-out", "data-left")
        assert [s["data-rank"] for s in spindles] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J",
                                                      "Q", "K"]
        for s in spindles:  # RULES A5: four counters a spindle, one moved per card of that rank seen
            assert int(s["data-out"]) == min(by_rank[s["data-rank"]], 4)
            assert int(s["data-left"]) == 4 - int(s["data-out"])
        beads = page.eval_on_selector_all("#casekeeper .bead.out", "els => els.length")
        assert beads == sum(min(n, 4) for n in by_rank.values())
        shown_turns = attrs(page, ".faro .turn", "data-turn", "data-loser", "data-winner")
        expected = [{"data-turn": str(t["turn"]), "data-loser": t["loser"], "data-winner": t["winner"]}
                    for t in faro["history"][-8:][::-1]]
        assert shown_turns == expected
    finally:
        server.stop()


def test_trente_et_quarante_rows_and_marqueur(browser: Any, tmp_path: Path) -> None:
    server = serve(tmp_path, "trente-et-quarante")
    try:
        page = display(browser, server)
        page.wait_for_function("document.querySelectorAll('.marqueur .coup').length >= 3", timeout=40_000)
        state = freeze(page, server)
        tq = state["games"]["trente-et-quarante"]
        rows = {r["data-row"]: int(r["data-total"]) for r in attrs(page, ".tq-row", "data-row", "data-total")}
        assert rows == {"noir": tq["noir"]["total"], "rouge": tq["rouge"]["total"]}
        coups = [h for h in tq["history"] if not h.get("void")][-30:]
        cells = attrs(page, ".marqueur .coup", "data-coup", "data-winner", "data-noir", "data-rouge")
        assert [(int(c["data-coup"]), int(c["data-noir"]), int(c["data-rouge"])) for c in cells] == [
            (h["coup"], h["noir"], h["rouge"]) for h in coups]
        for cell, coup in zip(cells, coups, strict=True):  # RULES A7: the lower row wins
            assert cell["data-winner"] == (coup["winner"] or "refait")
            if coup["noir"] == coup["rouge"]:  # equal rows: a refait (the coup is played again)
                assert cell["data-winner"] == "refait"
            else:
                assert cell["data-winner"] == ("noir" if coup["noir"] < coup["rouge"] else "rouge")
    finally:
        server.stop()


def test_red_dog_spread_and_hands(browser: Any, tmp_path: Path) -> None:
    server = serve(tmp_path, "red-dog")
    try:
        page = display(browser, server)
        page.wait_for_function("document.querySelectorAll('.rd-hand').length >= 3", timeout=40_000)
        state = freeze(page, server)
        game = state["games"]["red-dog"]
        assert page.get_attribute(".red-dog", "data-spread") == ("" if game["spread"] is None
                                                                 else str(game["spread"]))
        shown = attrs(page, ".rd-hand", "data-hand", "data-spread")
        assert shown == [{"data-hand": str(h["hand"]), "data-spread": str(h["spread"])}
                         for h in game["history"][-8:][::-1]]
        assert codes(page, ".red-dog-cards .card[data-card]") == game["cards"]
    finally:
        server.stop()


def test_pai_gow_dice_pick_the_first_seat(browser: Any, tmp_path: Path) -> None:
    server = serve(tmp_path, "pai-gow")
    try:
        page = display(browser, server)
        page.wait_for_selector(".pai-gow .dice[data-total]:not([data-total=''])", timeout=40_000)
        page.wait_for_selector(".pai-gow .position .pg-hand", timeout=40_000)
        state = freeze(page, server)
        game = state["games"]["pai-gow"]
        dice = game["dice"]
        assert dice is not None
        assert [int(a["data-value"]) for a in attrs(page, ".die", "data-value")] == dice["dice"]
        assert int(page.get_attribute(".dice", "data-total")) == sum(dice["dice"])
        # RULES A8: counting the dealer as 1, position ((total - 1) mod 7) + 1 takes the first hand
        first = attrs(page, ".position[data-first=yes]", "data-position", "data-seat")
        position = (sum(dice["dice"]) - 1) % 7 + 1
        assert first == [{"data-position": str(position),
                          "data-seat": "dealer" if position == 1 else f"seat-{position - 1}"}]
    finally:
        server.stop()


def test_slot_reels_meters_and_progressive(browser: Any, tmp_path: Path) -> None:
    server = serve(tmp_path, "slots")
    try:
        page = display(browser, server)
        page.wait_for_selector(".slot-machine .reel .symbol", timeout=40_000)
        page.wait_for_function("Number(document.querySelector('.slot-machine').dataset.gamesPlayed) >= 5",
                               timeout=40_000)
        state = freeze(page, server)
        floor = state["games"]["slots"]
        pools = attrs(page, ".progressive", "data-pool", "data-value-cents")
        assert pools and {p["data-pool"]: int(p["data-value-cents"]) for p in pools} == {
            name: p["value_cents"] for name, p in floor["pools"].items()}
        for machine, m in floor["machines"].items():
            box = f".slot-machine[data-machine='{machine}']"
            meters = {a["data-meter"]: int(a["data-value"]) for a in attrs(page, f"{box} [data-meter]",
                                                                            "data-meter", "data-value")}
            assert meters["credits"] == m["meters"]["credits"]
            assert meters["games_played"] == m["meters"]["games_played"]
            script = "rs => rs.map(r => [...r.querySelectorAll('.symbol')].map(s => s.textContent))"
            reels = page.eval_on_selector_all(f"{box} .reel", script)
            display_rows = m["last_spin"]["display"]  # rows top to bottom, one symbol per reel
            assert reels == [list(col) for col in zip(*display_rows, strict=True)]
    finally:
        server.stop()


@pytest.mark.parametrize("game", ["blackjack", "pontoon"])
def test_blackjack_view_shows_shoe_penetration(browser: Any, tmp_path: Path, game: str) -> None:
    server = serve(tmp_path, game)
    try:
        page = display(browser, server)
        page.wait_for_selector(".blackjack .hand[data-seat] .card", timeout=30_000)
        state = freeze(page, server)
        # the view rounds halves up (12.5 % shows as 13 %); Python's round() would give 12
        percent = math.floor(100 * state["shoe"]["penetration"] + 0.5)
        assert page.get_attribute("[data-penetration]", "data-penetration") == str(percent)
        dealer = state["games"][game]["dealer"]
        assert codes(page, "#dealer-hand .card") == [c or "BK" for c in dealer["cards"]]
    finally:
        server.stop()


def test_pot_game_and_scoreboard_views_draw_operations_entered_by_hand(browser: Any, tmp_path: Path) -> None:
    """A table with no configured game: the dealer opens in-between and a scorebook through the API."""
    server = serve(tmp_path, "none")
    try:
        page = display(browser, server)
        for seat in ("ann", "bob"):
            server.post("/api/operations", {"kind": "chips.transfer", "payload": {
                "source": "cage", "target": seat, "amount": 20, "reason": "buy-in"}})
        server.post("/api/operations", {"kind": "inbetween.new", "payload": {"players": ["ann", "bob"],
                                                                              "dealer": "bob"}})
        for code in ("3S", "QH"):
            server.post("/api/operations", {"kind": "inbetween.card", "payload": {"card": code}})
        page.wait_for_selector(".in-between .in-between-cards[data-spread=spread]", timeout=10_000)
        assert page.get_attribute(".in-between .pot", "data-pot") == "2"  # RULES A13: everyone antes one
        server.post("/api/operations", {"kind": "inbetween.bet", "payload": {"seat": "ann", "amount": 2}})
        server.post("/api/operations", {"kind": "inbetween.card", "payload": {"card": "7C"}})
        server.post("/api/operations", {"kind": "inbetween.settle", "payload": {}})
        page.wait_for_selector(".ib-turn[data-result=won]", timeout=10_000)
        state = server.get("/state")
        pot = state["balances"]["in-between-pot"]
        page.wait_for_selector(f".in-between .pot[data-pot='{pot}']", timeout=10_000)
        assert page.get_attribute(".player[data-player=ann]", "data-balance") == str(state["balances"]["ann"])

        operate(server, "score.open", book="fri", players=["ann", "bob", "cy"])
        operate(server, "score.start-game", book="fri", game="hearts")
        operate(server, "score.enter", book="fri", entry="hand",
                data={"hearts": {"ann": 5, "bob": 8, "cy": 0}, "queen": "cy"})
        page.wait_for_selector(".scoreboard[data-book=fri] .score-side[data-total='13']", timeout=10_000)
        book = server.get("/state")["games"]["scorebook:fri"]
        sides = {a["data-side"]: int(a["data-total"])
                 for a in attrs(page, ".score-side", "data-side", "data-total")}
        assert sides == book["games"][0]["totals"] == {"ann": 5, "bob": 8, "cy": 13}  # the queen is 13
    finally:
        server.stop()


def test_dealer_page_runs_a_faro_turn_by_hand(browser: Any, tmp_path: Path) -> None:
    """Take over a simulated faro table on the control page: a bet by taps (rank, chips), two cards
    from the card pad, and the settle button; the layout and the turn list follow."""
    server = serve(tmp_path, "faro")
    try:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(server.url + "/dealer")
        page.wait_for_selector("body[data-connected=yes]", timeout=20_000)
        page.wait_for_selector("#casekeeper", state="attached", timeout=20_000)
        take_over(page)
        state = server.get("/state")
        # finish the turn in progress (and the deal, when too few cards are left for a turn of ours)
        while (not state["games"]["faro"]["betting_open"]
               or state["games"]["faro"]["casekeeper"]["cards_left"] < 10):
            prompt = state["prompt"]
            if "settle" in prompt["options"]:
                server.post("/api/actions", {"option": "settle"})
            elif "new-deal" in prompt["options"]:
                server.post("/api/actions", {"option": "new-deal"})
            else:
                left = [s["rank"] for s in state["games"]["faro"]["casekeeper"]["spindles"] if s["left"]]
                server.post("/api/cards", {"card": f"{left[0]}S"})
            state = server.get("/state")
        # autoplay may have bet for seat 2 before the dealer took over: taken back first
        for b in [b for b in state["games"]["faro"]["bets"] if b["seat"] == "seat-2"]:
            back = {"seat": "seat-2", "rank": b["rank"], "coppered": b["coppered"], "amount": None}
            server.post("/api/operations", {"kind": "faro.withdraw", "payload": back})
        faro = state["games"]["faro"]
        live = [s["rank"] for s in faro["casekeeper"]["spindles"] if s["left"] >= 2]
        rank = live[0]
        page.wait_for_selector("#bet-panel:not([hidden])", timeout=10_000)
        page.click(".player-chip[data-seat='2']")
        page.click(f"#bet-choice button[data-choice='{rank}']")
        page.click("#bet-clear")
        page.click(".chip[data-chip='5']")
        page.click("#place-bet")
        page.wait_for_selector(f".layout-bet[data-seat=seat-2][data-rank='{rank}'][data-amount='5']",
                               state="attached", timeout=10_000)  # the phone's table view is a summary
        other = next(r for r in live if r != rank)
        cards = [f"{other}H"] if faro["next"] == "soda" else []  # RULES A5: the soda settles nothing
        cards += [f"{other}C", f"{rank}D"]  # a losing card, then our rank wins
        for code in cards:
            seq = int(page.get_attribute("body", "data-seq"))
            page.click(f"#rank-pad button[data-rank='{code[:-1]}']")
            page.click(f"#suit-pad button[data-suit='{code[-1]}']")
            page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}", timeout=10_000)
        page.click("button[data-option='settle']")
        page.wait_for_selector(f".turn[data-winner='{rank}D'] li[data-seat=seat-2][data-result=won]",
                               state="attached", timeout=10_000)
        assert page.inner_text("#error") == ""
        last = server.get("/state")["games"]["faro"]["history"][-1]
        assert {"seat": "seat-2", "bet": rank, "stake": 5, "result": "won", "net": 5} in last["results"]
    finally:
        server.stop()


def dealer_page_in_control(browser: Any, server: Server) -> Any:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.url + "/dealer")
    page.wait_for_selector("body[data-connected=yes] [data-game-view]", timeout=20_000)
    take_over(page)
    return page


def tap_and_wait(page: Any, server: Server, selector: str) -> dict[str, Any]:
    seq = server.get("/state")["seq"]
    page.click(selector)
    page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}", timeout=10_000)
    assert page.inner_text("#error") == ""
    return server.get("/state")


def test_dealer_page_takes_a_faro_bet_back_and_calls_the_turn(browser: Any, tmp_path: Path) -> None:
    """Faro's last turn by taps: a bet taken back, then the turn called (RULES A5)."""
    server = serve(tmp_path, "faro")
    try:
        page = dealer_page_in_control(browser, server)
        state = server.get("/state")
        for _ in range(300):  # deal by hand to the last turn, keeping the three last cards unlike
            options = state["prompt"]["options"]
            if "call" in options:
                break
            if "settle" in options or "new-deal" in options:
                server.post("/api/actions", {"option": "settle" if "settle" in options else "new-deal"})
            else:
                spindles = state["games"]["faro"]["casekeeper"]["spindles"]
                server.post("/api/cards", {"card": max(spindles, key=lambda s: s["left"])["rank"] + "S"})
            state = server.get("/state")
        assert "call" in state["prompt"]["options"]
        # autoplay may have bet for seat 2 before the dealer took over: taken back first
        for b in [b for b in state["games"]["faro"]["bets"] if b["seat"] == "seat-2"]:
            back = {"seat": "seat-2", "rank": b["rank"], "coppered": b["coppered"], "amount": None}
            server.post("/api/operations", {"kind": "faro.withdraw", "payload": back})
        spindles = state["games"]["faro"]["casekeeper"]["spindles"]
        left = sorted(s["rank"] for s in spindles for _ in range(s["left"]))
        server.post("/api/operations", {"kind": "faro.bet",
                                        "payload": {"seat": "seat-2", "rank": left[0], "amount": 10}})
        page.wait_for_selector(f".layout-bet[data-seat=seat-2][data-rank='{left[0]}']", state="attached",
                               timeout=10_000)
        page.click(".player-chip[data-seat='2']")
        page.click("button[data-option='withdraw']")
        assert page.get_attribute(f"#bet-choice button[data-choice='{left[0]}']", "aria-pressed") == "true"
        page.click("#bet-clear")  # no chips: all of it
        state = tap_and_wait(page, server, "#place-bet")
        assert not [b for b in state["games"]["faro"]["bets"] if b["seat"] == "seat-2"]
        page.click("button[data-option='call']")
        orders = [a["data-choice"] for a in attrs(page, "#bet-choice button", "data-choice")]
        assert sorted(orders[0].split("-")) == left and len(orders) == len(set(orders)) >= 3
        page.click(f"#bet-choice button[data-choice='{orders[-1]}']")
        page.click("#bet-clear")
        page.click(".chip[data-chip='5']")
        state = tap_and_wait(page, server, "#place-bet")
        call = {"seat": "seat-2", "order": orders[-1].split("-"), "amount": 5}
        assert call in state["games"]["faro"]["calls"]
    finally:
        server.stop()


def test_dealer_page_insures_and_takes_back_a_trente_et_quarante_bet(browser: Any, tmp_path: Path) -> None:
    """RULES A7: an insured bet (the house offers insurance) placed by taps, then taken back."""
    server = serve(tmp_path, "trente-et-quarante", DEALER_TABLE__RULES="insurance=yes")
    try:
        page = dealer_page_in_control(browser, server)
        state = server.get("/state")
        while "withdraw" not in state["prompt"]["options"]:  # to the next coup's betting
            options = state["prompt"]["options"]
            option = next((o for o in ("settle", "new-shoe", "void") if o in options), None)
            if option:
                server.post("/api/actions", {"option": option})
            else:
                server.post("/api/cards", {"card": "5S"})
            state = server.get("/state")
        # autoplay may have bet for seat 1 in this coup before the dealer took over: taken back first
        for b in [b for b in state["games"]["trente-et-quarante"]["bets"] if b["seat"] == "seat-1"]:
            withdraw = {"seat": "seat-1", "bet": b["bet"]}
            server.post("/api/operations", {"kind": "tq.withdraw", "payload": withdraw})
        page.click(".player-chip[data-seat='1']")
        page.click("button[data-option='bet']")
        page.click("#bet-choice button[data-choice='noir']")
        page.click("#bet-choice button[data-toggle='insured']")
        page.click("#bet-clear")
        page.click(".chip[data-chip='100']")
        state = tap_and_wait(page, server, "#place-bet")
        bets = state["games"]["trente-et-quarante"]["bets"]
        assert {"seat": "seat-1", "bet": "noir", "amount": 100, "insured": True} in bets
        page.click("button[data-option='withdraw']")
        assert page.is_hidden("#chip-buttons")  # a bet comes back whole
        page.click("#bet-choice button[data-choice='noir']")
        state = tap_and_wait(page, server, "#place-bet")
        assert not [b for b in state["games"]["trente-et-quarante"]["bets"] if b["seat"] == "seat-1"]
    finally:
        server.stop()


def test_dealer_page_spins_a_slot_machine_by_taps(browser: Any, tmp_path: Path) -> None:
    """Take over a slot floor on the control page: credits in by taps, then Spin on the seat's machine
    at a bet the dealer chose; the house draws the stops (RULES A14) and the meters follow."""
    server = serve(tmp_path, "slots")
    try:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(server.url + "/dealer")
        page.wait_for_selector("body[data-connected=yes] .slot-machine", timeout=20_000)
        take_over(page)
        state = server.get("/state")
        while state["prompt"]["step"] != "bet":  # a free spin or a pick in progress: the page's own buttons
            option = state["prompt"]["options"][0]
            page.click(f"button[data-option='{option}']")
            page.wait_for_function(f"Number(document.body.dataset.seq) > {state['seq']}", timeout=10_000)
            state = server.get("/state")
        machines = sorted(state["games"]["slots"]["machines"])
        page.click(".player-chip[data-seat='1']")
        page.click("button[data-option='insert']")
        page.click(f"#bet-choice button[data-choice='{machines[0]}']")
        page.click("#bet-clear")
        page.click(".chip[data-chip='25']")
        seq = server.get("/state")["seq"]
        page.click("#place-bet")
        page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}", timeout=10_000)
        before = server.get("/state")["games"]["slots"]["machines"][machines[0]]
        page.click("button[data-option='spin']")
        assert page.get_attribute("#bet-panel", "data-mode") == "spin"
        chosen = page.get_attribute(f"#bet-choice button[data-choice='{machines[0]}']", "aria-pressed")
        assert chosen == "true"  # seat 1 plays the first machine
        assert page.inner_text("#bet-amount") == f"{before['max_bet']} coins"  # the maximum bet by default
        page.click("#bet-clear")
        page.click(".chip[data-chip='1']")
        seq = server.get("/state")["seq"]
        page.click("#place-bet")
        page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}", timeout=10_000)
        assert page.inner_text("#error") == ""
        after = server.get("/state")["games"]["slots"]["machines"][machines[0]]
        assert after["meters"]["games_played"] == before["meters"]["games_played"] + 1
        assert after["meters"]["coin_in"] == before["meters"]["coin_in"] + 1  # one coin, as tapped
        assert after["last_spin"]["coins"] == 1
    finally:
        server.stop()


def test_baccarat_roads_draw_the_results_so_far(browser: Any, tmp_path: Path) -> None:
    server = serve(tmp_path, "baccarat")
    try:
        page = display(browser, server)
        page.wait_for_function("Number(document.querySelector('.roads')?.dataset.coups) >= 8", timeout=40_000)
        state = freeze(page, server)
        roads = state["games"]["baccarat"]["roads"]
        bead = attrs(page, ".road[data-road=bead_plate] .cell", "data-col", "data-row", "data-winner")
        # one bead per coup, filling six-row columns top to bottom
        cells = [(int(b["data-col"]), int(b["data-row"])) for b in bead]
        assert cells == [(i // 6, i % 6) for i in range(len(bead))]
        winners = [b["data-winner"] for b in bead]
        assert len(winners) == roads["coups"]
        recent = [c["winner"] for c in state["games"]["baccarat"]["last_coups"]][-len(winners):]
        assert winners[-len(recent):] == recent
        # the big road holds every Banker/Player coup in order; ties are marked on the coup before
        big = attrs(page, ".road[data-road=big_road] .cell", "data-winner", "data-ties")
        assert [b["data-winner"] for b in big] == [w for w in winners if w != "T"]
        leading = len(winners) - len("".join(winners).lstrip("T"))
        assert sum(int(b["data-ties"]) for b in big) == winners.count("T") - leading
        for name in ("big_eye_boy", "small_road", "cockroach_pig"):
            marks = attrs(page, f".road[data-road={name}] .cell", "data-colour")
            assert [m["data-colour"] for m in marks] == [c["colour"] for c in roads[name]["cells"]]
    finally:
        server.stop()


def test_chemin_de_fer_view_shows_the_bank_and_both_hands(browser: Any, tmp_path: Path) -> None:
    server = serve(tmp_path, "chemin-de-fer")
    try:
        page = display(browser, server)
        page.wait_for_selector(".chemin-de-fer .last-round[data-winner]", timeout=40_000)
        state = freeze(page, server)
        game = state["games"]["chemin-de-fer"]
        assert page.get_attribute(".chemin-de-fer [data-bank]", "data-bank") == str(game["bank"])
        # between coups the last coup's cards stay on the screen (.previous)
        assert codes(page, ".bac-player .cards:not(.previous) .card") == game["player"]["cards"]
        assert codes(page, ".bac-banker .cards:not(.previous) .card") == game["banker_hand"]["cards"]
        last = game["last_coups"][-1]["winner"]
        assert page.get_attribute(".chemin-de-fer .last-round", "data-winner") == last
    finally:
        server.stop()
