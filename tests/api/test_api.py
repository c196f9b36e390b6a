from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dealer.api import create_app
from dealer.config import load_settings
from dealer.store import EventStore, Role, rebuild_state
from dealer.table.host import TableHost
from vision import SourceError


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_health_and_state_on_a_fresh_table_and_after_restart(tmp_path: Path) -> None:
    settings = load_settings(None, table={"db": tmp_path / "t.db", "game": "none"},
                             devices={k: "none" for k in ("shoe", "shuffler", "reels", "camera")})
    with TestClient(create_app(lambda: TableHost.open(settings))) as client:
        health = client.get("/health").json()
        assert health["status"] == "ok" and health["events"] >= 2
        state = client.get("/state").json()
        shoe = state["shoe"]
        assert shoe["total"] == 312 and shoe["burned"] == 1 and 60 <= 312 - shoe["cut_index"] <= 75
    with TestClient(create_app(lambda: TableHost.open(settings))) as client:
        again = client.get("/state").json()
        assert again["shoe"]["cut_index"] == shoe["cut_index"]  # resumed, not reshuffled
        assert again["seq"] == state["seq"]


def test_a_table_that_fails_to_start_stops_its_simulated_shoe(tmp_path: Path) -> None:
    # the camera source is opened at start, after the shoe's simulator process is up
    settings = load_settings(None, table={"db": tmp_path / "t.db", "game": "blackjack", "pace_ms": 0},
                             devices={"shoe": "sim", "shuffler": "none", "reels": "none",
                                      "camera": str(tmp_path / "missing.avi")})
    simulators = []

    def open_host() -> TableHost:
        host = TableHost.open(settings)
        simulators.append(host.hardware.shoe.simulator)
        return host

    with pytest.raises(SourceError), TestClient(create_app(open_host)):
        pass
    (simulator,) = simulators
    assert not simulator.running and not Path(simulator.port).parent.exists()  # its fbsim- folder


def test_no_token_is_401_and_a_bad_token_too(secured: tuple[TestClient, dict[str, str]]) -> None:
    client, _ = secured
    assert client.get("/state").status_code == 401
    assert client.get("/state", headers=auth("nonsense")).status_code == 401


def test_viewer_gets_403_on_every_control_route(secured: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = secured
    paths = client.get("/openapi.json", headers=auth(tokens["viewer"])).json()["paths"]
    control = [(path, method) for path, item in paths.items() for method in item
               if method in ("post", "put", "patch", "delete")]
    assert len(control) >= 6
    for path, method in control:
        url = re.sub(r"\{[^}]+\}", "x", path)
        response = client.request(method.upper(), url, json={}, headers=auth(tokens["viewer"]))
        assert response.status_code == 403, (path, response.status_code, response.text)
    assert client.get("/state", headers=auth(tokens["viewer"])).status_code == 200


def test_dealer_cannot_move_chips_but_admin_can(secured: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = secured
    body = {"kind": "chips.transfer", "payload": {"source": "cage", "target": "seat-1", "amount": 50}}
    assert client.post("/api/operations", json=body, headers=auth(tokens["dealer"])).status_code == 403
    done = client.post("/api/operations", json=body, headers=auth(tokens["admin"]))
    assert done.status_code == 201
    state = client.get("/state", headers=auth(tokens["viewer"])).json()
    assert state["balances"]["seat-1"] == 50


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [({"kind": "no.such", "payload": {}}, 404, "unknown operation kind 'no.such'"),
     ({"kind": "chips.transfer", "payload": {"source": "seat-9", "target": "house", "amount": 5}}, 422,
      "seat-9 has 0 chips"),
     ({"kind": "chips.transfer", "payload": {"source": "cage", "target": "x", "amount": "lots"}}, 409,
      "expected a whole number"),
     ({"kind": "chips.transfer", "payload": {"source": "cage"}}, 409, "missing field"),
     ({"kind": "shoe.deal", "payload": {"card": "ZZ"}}, 422, "bad card code 'ZZ'")],
)
def test_bad_requests_name_what_was_wrong_and_change_nothing(
    secured: tuple[TestClient, dict[str, str]], body: dict[str, object], status: int, words: str
) -> None:
    client, tokens = secured
    before = client.get("/state", headers=auth(tokens["admin"])).json()
    response = client.post("/api/operations", json=body, headers=auth(tokens["admin"]))
    assert response.status_code == status, response.text
    assert words in response.json()["detail"]
    assert client.get("/state", headers=auth(tokens["admin"])).json() == before


def test_malformed_body_is_422(secured: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = secured
    response = client.post("/api/cards", json={"cards": "AS"}, headers=auth(tokens["dealer"]))
    assert response.status_code == 422 and "card" in response.text


def test_void_and_correct_are_checked_against_the_log(secured: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = secured
    admin = auth(tokens["admin"])
    # the table is in simulated mode with a known shoe: deal one card through the raw operation
    state = client.get("/state", headers=admin).json()
    seq = client.post("/api/operations", json={"kind": "shoe.deal", "payload": {"card": "AS"}},
                      headers=admin).json()["seq"]
    fixed = client.post("/api/cards/correct", json={"seq": seq, "card": "KD"}, headers=admin)
    assert fixed.status_code == 201, fixed.text
    after = client.get("/state", headers=admin).json()
    assert after["shoe"]["cards_out"] == state["shoe"]["cards_out"] + 1
    events = client.get("/api/events?last=5", headers=admin).json()
    assert [e["payload"] for e in events if e["kind"] == "table.correct-card"] == [
        {"seq": seq, "card": "KD", "reason": "corrected by the dealer"}]
    assert "dealt" not in after["shoe"]  # no card identities out of the shoe in the public state
    assert after["corrected"] == {str(seq): True}  # nor the card a correction made (no game shows it)
    # a record with no card cannot be corrected, and a missing record is named
    nothing = client.post("/api/cards/correct", json={"seq": 1, "card": "KD"}, headers=admin)
    assert nothing.status_code == 409
    assert nothing.json()["detail"] == "record 1 (shoe.load) carries no card to correct"
    missing = client.post("/api/void", json={"seq": 999, "reason": "x"}, headers=admin)
    assert missing.status_code == 409 and "no record 999" in missing.json()["detail"]
    voided = client.post("/api/void", json={"seq": seq, "reason": "dealt by mistake"}, headers=admin)
    assert voided.status_code == 201
    assert client.get("/state", headers=admin).json()["shoe"]["cards_out"] == state["shoe"]["cards_out"]


NO_DEVICES = {"shoe": "none", "shuffler": "none", "reels": "none", "camera": "none"}


@pytest.fixture
def live_blackjack(tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, str]]]:
    """A token-protected live blackjack table (cards typed by the dealer): seat 1 bet 10, the deal due."""
    settings = load_settings(None, table={"db": tmp_path / "t.db", "game": "blackjack", "mode": "live"},
                             devices=NO_DEVICES, server={"require_tokens": True})
    with TestClient(create_app(lambda: TableHost.open(settings))) as client:
        host: TableHost = client.app.state.host  # type: ignore[attr-defined]
        tokens = {role.name.lower(): host.tokens.create(role)[0] for role in Role}
        admin = auth(tokens["admin"])
        chips, bet = {"source": "cage", "target": "seat-1", "amount": 100}, {"seat": 1, "amount": 10}
        for path, body in (("/api/operations", {"kind": "chips.transfer", "payload": chips}),
                           ("/api/actions", {"option": "shuffle"}),
                           ("/api/operations", {"kind": "blackjack.bet", "payload": bet}),
                           ("/api/actions", {"option": "deal"})):
            done = client.post(path, json=body, headers=admin)
            assert done.status_code == 201, done.text
        yield client, tokens


def typed(client: TestClient, token: str, code: str) -> int:
    """The dealer types ``code``; the record that took it."""
    done = client.post("/api/cards", json={"card": code}, headers=auth(token))
    assert done.status_code == 201, done.text
    return int(done.json()["seq"])


def test_a_corrected_face_down_card_is_named_to_no_viewer_until_it_is_turned_up(
        live_blackjack: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = live_blackjack
    dealer, viewer = tokens["dealer"], auth(tokens["viewer"])
    for code in ("6S", "7D", "5D", "BK"):  # seat 1 has 11; the dealer shows 7D, the hole card face down
        typed(client, dealer, code)
    assert client.post("/api/actions", json={"option": "double"}, headers=auth(dealer)).status_code == 201
    double = typed(client, dealer, "9C")  # the double-down card, dealt face down: it was really the 8D
    with client.websocket_connect(f"/ws?token={tokens['viewer']}") as ws:
        assert ws.receive_json()["type"] == "hello"
        fixed = client.post("/api/cards/correct", json={"seq": double, "card": "8D"}, headers=auth(dealer))
        assert fixed.status_code == 201, fixed.text
        message = ws.receive_json()
    assert message["data"]["seq"] == fixed.json()["seq"]
    state = client.get("/state", headers=viewer).json()
    assert state["games"]["blackjack"]["seats"]["1"]["hands"][0]["cards"] == ["6S", "5D", "BK"]
    assert str(double) in state["corrected"]  # that a correction was made is public, not what the card is
    assert "8D" not in json.dumps(state) and "8D" not in json.dumps(message)
    # the hole card is turned up (KC: 17 stands), the round is settled and the double card shown
    typed(client, dealer, "KC")
    state = client.get("/state", headers=viewer).json()
    settled = state["games"]["blackjack"]["last_rounds"][-1]["seats"]["1"]["hands"][0]
    assert settled["cards"] == ["6S", "5D", "8D"] and settled["result"] == "win"  # 19 against 17
    assert "8D" in json.dumps(state["games"])
    # the admin's event log names the correction from the start (it shows face-down burns too)
    events = client.get("/api/events?last=10", headers=auth(tokens["admin"])).json()
    assert {"seq": double, "card": "8D", "reason": "corrected by the dealer"} in [
        e["payload"] for e in events if e["kind"] == "table.correct-card"]


def test_correcting_a_correction_corrects_the_dealt_card_again(
        tmp_path: Path, live_blackjack: tuple[TestClient, dict[str, str]]) -> None:
    """The control page lists a correction's card like any other: tapped, it is the dealt card that
    changes, to the newest correction, now and after a restart."""
    client, tokens = live_blackjack
    dealer = auth(tokens["dealer"])
    first = typed(client, tokens["dealer"], "6S")
    for code in ("7D", "5D", "BK"):
        typed(client, tokens["dealer"], code)
    fixed = client.post("/api/cards/correct", json={"seq": first, "card": "4S"}, headers=dealer)
    assert fixed.status_code == 201, fixed.text
    again = client.post("/api/cards/correct", json={"seq": fixed.json()["seq"], "card": "3S"}, headers=dealer)
    assert again.status_code == 201, again.text
    hand = client.get("/state", headers=dealer).json()["games"]["blackjack"]["seats"]["1"]["hands"][0]
    assert hand["cards"] == ["3S", "5D"] and hand["total"] == 8
    # a correction sent as a raw operation goes the same way: the game's card changes with it
    raw = client.post("/api/operations", headers=dealer, json={
        "kind": "table.correct-card", "payload": {"seq": again.json()["seq"], "card": "2S"}})
    assert raw.status_code == 201, raw.text
    state = client.get("/state", headers=dealer).json()
    assert state["games"]["blackjack"]["seats"]["1"]["hands"][0]["cards"] == ["2S", "5D"]
    assert state["corrected"] == {str(first): True}
    events = client.get("/api/events?last=3", headers=auth(tokens["admin"])).json()
    assert [e["payload"]["seq"] for e in events] == [first, first, first]
    store = EventStore.open(tmp_path / "t.db")  # the log replays to the same cards (a restart)
    try:
        game = rebuild_state(store).games["blackjack"].to_json()
    finally:
        store.close()
    assert game["seats"]["1"]["hands"][0]["cards"] == ["2S", "5D"]


def test_voiding_a_correction_puts_the_card_it_replaced_back(
        tmp_path: Path, live_blackjack: tuple[TestClient, dict[str, str]]) -> None:
    """A correction tapped by mistake is voided: the game shows the card as first read again (or the
    earlier correction, where there was one), now and after a restart."""
    client, tokens = live_blackjack
    dealer, admin = auth(tokens["dealer"]), auth(tokens["admin"])
    first = typed(client, tokens["dealer"], "6S")
    for code in ("7D", "5D", "BK"):
        typed(client, tokens["dealer"], code)

    def cards() -> list[str]:
        hand = client.get("/state", headers=dealer).json()["games"]["blackjack"]["seats"]["1"]["hands"][0]
        return list(hand["cards"])

    fixed = client.post("/api/cards/correct", json={"seq": first, "card": "4S"}, headers=dealer)
    assert fixed.status_code == 201, fixed.text
    again = client.post("/api/cards/correct", json={"seq": first, "card": "3S"}, headers=dealer)
    assert again.status_code == 201, again.text
    assert cards() == ["3S", "5D"]
    undone = client.post("/api/void", json={"seq": again.json()["seq"], "reason": "wrong tap"}, headers=admin)
    assert undone.status_code == 201, undone.text
    assert cards() == ["4S", "5D"]  # the earlier correction stands again
    undone = client.post("/api/void", json={"seq": fixed.json()["seq"], "reason": "right"}, headers=admin)
    assert undone.status_code == 201, undone.text
    assert cards() == ["6S", "5D"]  # the card as first read
    assert client.get("/state", headers=dealer).json()["corrected"] == {}
    store = EventStore.open(tmp_path / "t.db")  # a restart replays the log to the same cards
    try:
        game = rebuild_state(store).games["blackjack"].to_json()
    finally:
        store.close()
    assert game["seats"]["1"]["hands"][0]["cards"] == ["6S", "5D"]


def test_a_refused_camera_correction_of_the_hole_card_names_no_card_to_viewers(
        live_blackjack: tuple[TestClient, dict[str, str]], caplog: pytest.LogCaptureFixture) -> None:
    """The camera reads the face-down hole card again as a ten under the ace: the table refuses the
    correction (the peek would have ended the round the player is playing) and warns every viewer,
    naming neither reading; the server's log keeps both for the dealer."""
    client, tokens = live_blackjack
    host: TableHost = client.app.state.host  # type: ignore[attr-defined]
    dealer = tokens["dealer"]
    for code in ("6S", "AD", "5D"):
        typed(client, dealer, code)
    hole = typed(client, dealer, "9C")  # read by the shoe, dealt face down under the ace
    for option in ("decline", "hit"):
        assert client.post("/api/actions", json={"option": option}, headers=auth(dealer)).status_code == 201
    typed(client, dealer, "2H")  # seat 1 has 13 and is still to act: the hole card lies face down
    with client.websocket_connect(f"/ws?token={tokens['viewer']}") as ws:
        assert ws.receive_json()["type"] == "hello"
        with caplog.at_level(logging.WARNING, logger="dealer.table.host"):
            host.camera_correction("9C", "KC")  # what the camera watcher calls
        message = ws.receive_json()
    assert message["type"] == "warning"
    text = json.dumps(message)
    assert "9C" not in text and "KC" not in text
    assert message["data"]["seq"] == hole and f"record {hole}" in message["data"]["detail"]
    state = client.get("/state", headers=auth(tokens["viewer"])).json()
    assert state["games"]["blackjack"]["dealer"]["cards"] == ["AD", "BK"]  # nothing was corrected
    assert "9C" not in json.dumps(state) and "KC" not in json.dumps(state)
    assert any("9C -> KC" in r.getMessage() and f"record {hole}" in r.getMessage() for r in caplog.records)


def test_a_card_no_game_holds_is_named_to_no_viewer(
        live_blackjack: tuple[TestClient, dict[str, str]], caplog: pytest.LogCaptureFixture) -> None:
    """A card out of turn (here while the table asks for insurance; a card burnt by hand alike) is
    counted as dealt but lies in no hand, so no page shows it: nor does the warning about it."""
    client, tokens = live_blackjack
    dealer = tokens["dealer"]
    for code in ("6S", "AD", "5D", "9C"):
        typed(client, dealer, code)
    with client.websocket_connect(f"/ws?token={tokens['viewer']}") as ws:
        assert ws.receive_json()["type"] == "hello"
        with caplog.at_level(logging.WARNING, logger="dealer.table.host"):
            stray = typed(client, dealer, "3H")
        messages = [ws.receive_json(), ws.receive_json()]
    assert sorted(m["type"] for m in messages) == ["state", "warning"]
    assert "3H" not in json.dumps(messages)
    warning = next(m for m in messages if m["type"] == "warning")
    assert warning["data"]["seq"] == stray
    state = client.get("/state", headers=auth(tokens["viewer"])).json()
    assert state["shoe"]["cards_out"] == 5 and "3H" not in json.dumps(state)
    assert any(r.getMessage().startswith(f"3H came out of turn (record {stray})") for r in caplog.records)


def test_a_card_out_of_turn_at_a_game_that_counts_its_own_cards_is_counted_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Red dog counts the shoe itself: a card typed while it waits for the bets is refused by the
    game, yet it left the shoe, so the shoe counts it once; one deck, so twice would also name it a
    duplicate of itself."""
    settings = load_settings(None, table={"db": tmp_path / "t.db", "game": "red-dog", "rules": "decks=1",
                                          "mode": "live"}, devices=NO_DEVICES)
    with TestClient(create_app(lambda: TableHost.open(settings))) as client:
        before = client.get("/state").json()
        assert before["games"]["red-dog"]["prompt"]["step"] == "bet" and before["shoe"]["cards_out"] == 0
        with caplog.at_level(logging.WARNING, logger="dealer.table.host"):
            done = client.post("/api/cards", json={"card": "5H"})
        assert done.status_code == 201, done.text
        state = client.get("/state").json()
        assert state["shoe"]["cards_out"] == 1 and state["shoe"]["faults"] == []
        assert state["games"]["red-dog"]["prompt"]["step"] == "bet"  # no game took the card
    with EventStore.open(settings.table.db) as store:
        dealt = [(r.seq, r.data["card"]) for r in store.records() if r.kind == "shoe.deal"]
        assert rebuild_state(store).require_shoe().cards_out == 1  # the log replays to one card too
    assert dealt == [(done.json()["seq"], "5H")]
    assert any(r.getMessage().startswith(f"5H came out of turn (record {done.json()['seq']})")
               for r in caplog.records)


def test_a_shoe_fault_on_a_face_down_card_names_no_card_to_viewers(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """One deck: seat 1's double-down card is read as the 9C, already out as the hole card, which lies
    face down while seat 2 plays. The
    shoe faults it as a duplicate; viewers (and the TV page, which shows kind and detail) hear the
    kind and where in the shoe, not which card; the server's log names it for the dealer."""
    table = {"db": tmp_path / "t.db", "game": "blackjack", "rules": "decks=1", "mode": "live"}
    settings = load_settings(None, table=table, devices=NO_DEVICES, server={"require_tokens": True})
    with TestClient(create_app(lambda: TableHost.open(settings))) as client:
        host: TableHost = client.app.state.host  # type: ignore[attr-defined]
        tokens = {role.name.lower(): host.tokens.create(role)[0] for role in Role}
        admin, dealer, viewer = auth(tokens["admin"]), tokens["dealer"], auth(tokens["viewer"])
        assert client.post("/api/actions", json={"option": "shuffle"}, headers=admin).status_code == 201
        for seat in (1, 2):
            chips = {"source": "cage", "target": f"seat-{seat}", "amount": 100}
            for kind, payload in (("chips.transfer", chips), ("blackjack.bet", {"seat": seat, "amount": 10})):
                done = client.post("/api/operations", json={"kind": kind, "payload": payload}, headers=admin)
                assert done.status_code == 201, done.text
        assert client.post("/api/actions", json={"option": "deal"}, headers=admin).status_code == 201
        for code in ("6S", "8H", "7D", "5D", "2C", "9C"):  # seat 1 has 11; the hole card 9C lies face down
            typed(client, dealer, code)
        assert client.post("/api/actions", json={"option": "double"}, headers=auth(dealer)).status_code == 201
        with client.websocket_connect(f"/ws?token={tokens['viewer']}") as ws:
            assert ws.receive_json()["type"] == "hello"
            with caplog.at_level(logging.WARNING, logger="dealer.table.runtime"):
                double = typed(client, dealer, "9C")  # dealt face down: the same card again
            message = ws.receive_json()
        state = client.get("/state", headers=viewer).json()
        assert state["games"]["blackjack"]["dealer"]["cards"] == ["7D", "BK"]
        assert state["games"]["blackjack"]["seats"]["1"]["hands"][0]["cards"] == ["6S", "5D", "BK"]
        (fault,) = state["shoe"]["faults"]
        assert fault["kind"] == "duplicate" and "card 7 out of the shoe" in fault["detail"]
        assert "9C" not in json.dumps(state) and "9C" not in json.dumps(message)
        events = client.get("/api/events?last=3", headers=admin).json()  # the admin's log keeps the card
        assert [e["payload"]["card"] for e in events if e["seq"] == double] == ["9C"]
    assert any(f"record {double}" in r.getMessage() and "9C seen 2 times" in r.getMessage()
               for r in caplog.records)


def test_a_disputed_hole_card_is_named_to_no_viewer_and_the_dealer_settles_it(
        live_blackjack: tuple[TestClient, dict[str, str]]) -> None:
    """The shoe reads the hole card as the 9C, the camera as the KC: play waits for the dealer. The
    card will lie face down, so neither reading reaches a viewer (state, stream, the pause the TV page
    shows); the dealer asks for them on the dealer's own route and settles on one."""
    client, tokens = live_blackjack
    host: TableHost = client.app.state.host  # type: ignore[attr-defined]
    dealer, viewer = auth(tokens["dealer"]), auth(tokens["viewer"])
    for code in ("6S", "7D", "5D"):  # the next card is the dealer's hole card, dealt face down
        typed(client, tokens["dealer"], code)
    with client.websocket_connect(f"/ws?token={tokens['viewer']}") as ws:
        assert ws.receive_json()["type"] == "hello"
        host.report_card("9C", "KC")  # what the shoe and the camera report
        message = ws.receive_json()
    assert message["data"]["kind"] == "table.dispute"
    state = client.get("/state", headers=viewer).json()
    assert list(state["disputes"]) == ["1"] and "integrity" in state["paused"]
    for shown in (state, message):
        assert "9C" not in json.dumps(shown) and "KC" not in json.dumps(shown)
    assert client.get("/api/disputes", headers=viewer).status_code == 403
    readings = client.get("/api/disputes", headers=dealer)
    assert readings.status_code == 200, readings.text
    assert readings.json() == {"1": {"shoe": "9C", "camera": "KC",
                                     "detail": "the shoe read 9C, the camera saw KC"}}
    settled = client.post("/api/disputes/1", json={"card": "KC"}, headers=dealer)
    assert settled.status_code == 201, settled.text
    state = client.get("/state", headers=viewer).json()
    assert state["disputes"] == {} and state["paused"] == {}
    assert state["games"]["blackjack"]["dealer"]["cards"] == ["7D", "BK"]  # the hole card, face down
    assert "KC" not in json.dumps(state)
    assert client.get("/api/disputes", headers=dealer).json() == {}
    events = client.get("/api/events?last=3", headers=auth(tokens["admin"])).json()
    assert [e["payload"] for e in events if e["kind"] == "table.resolve"] == [{"issue": 1, "card": "KC"}]


def test_correcting_a_settled_dispute_corrects_the_card_it_dealt(
        live_blackjack: tuple[TestClient, dict[str, str]]) -> None:
    """The dealer settled a dispute on the wrong reading: correcting the settling record (it names the
    card) corrects the card the table dealt with it, as correcting that card itself would."""
    client, tokens = live_blackjack
    host: TableHost = client.app.state.host  # type: ignore[attr-defined]
    dealer = auth(tokens["dealer"])
    typed(client, tokens["dealer"], "6S")
    host.report_card("7D", "7C")  # the dealer's up card: the shoe read 7D, the camera 7C
    assert client.post("/api/disputes/1", json={"card": "7C"}, headers=dealer).status_code == 201
    events = client.get("/api/events?last=2", headers=auth(tokens["admin"])).json()
    resolve = next(e["seq"] for e in events if e["kind"] == "table.resolve")
    fixed = client.post("/api/cards/correct", json={"seq": resolve, "card": "7D"}, headers=dealer)
    assert fixed.status_code == 201, fixed.text
    game = client.get("/state", headers=dealer).json()["games"]["blackjack"]
    assert game["dealer"]["cards"] == ["7D"]
    dealt = next(e["seq"] for e in events if e["kind"] != "table.resolve")
    logged = client.get("/api/events?last=1", headers=auth(tokens["admin"])).json()[0]
    assert logged["kind"] == "table.correct-card" and logged["payload"]["seq"] == dealt


def test_websocket_sends_hello_then_each_event(secured: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = secured
    with client.websocket_connect(f"/ws?token={tokens['viewer']}") as ws:
        hello = ws.receive_json()
        assert hello["type"] == "hello" and "state" in hello["data"]
        client.post("/api/operations", headers=auth(tokens["admin"]),
                    json={"kind": "chips.transfer", "payload": {"source": "cage", "target": "seat-2",
                                                                "amount": 7}})
        event = ws.receive_json()
        assert event["type"] == "state" and event["data"]["kind"] == "chips.transfer"
        assert event["data"]["state"]["balances"]["seat-2"] == 7


def test_websocket_without_token_is_refused(secured: tuple[TestClient, dict[str, str]]) -> None:
    client, _ = secured
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws") as ws:
        ws.receive_json()


def test_metrics_and_pages(secured: tuple[TestClient, dict[str, str]]) -> None:
    client, _ = secured
    text = client.get("/metrics").text
    assert "dealer_event_log_records{table=" in text and "dealer_table_paused{table=" in text
    display = client.get("/display")  # the default table's TV view (the page itself: tests/display)
    assert display.status_code == 200 and display.headers["content-type"].startswith("text/html")
    assert client.get("/static/../app.py").status_code == 404
    assert client.get("/openapi.json").json()["info"]["title"] == "dealer-assistant"
