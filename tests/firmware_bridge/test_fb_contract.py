"""One contract suite, run against every backend: in-memory pipe, pty simulator process, real hardware."""

from __future__ import annotations

import asyncio
import re
import time

import pytest
from fb_support import Opener, needs_sim

from firmware_bridge import (
    BadRequest,
    CardDealt,
    CutCardReached,
    DeckVerified,
    DeviceReset,
    DoorClosed,
    DoorOpen,
    DoorOpenError,
    HandDealt,
    Jam,
    JamCleared,
    JamError,
    LinkDown,
    LinkUp,
    NotHomedError,
    ReelDisplay,
    ReelHomeFailed,
    ReelStopped,
    Shoe,
    ShoeEmpty,
    ShoeEmptyError,
    Shuffler,
)

CARD = re.compile(r"^(A|[2-9]|10|J|Q|K)[CDHS]$")


def _shoe(open_kind: Opener, **options: object) -> Shoe:
    shoe = open_kind("shoe", **options)
    assert isinstance(shoe, Shoe)
    return shoe


def test_hello_describes_the_device(open_kind: Opener) -> None:
    shoe = _shoe(open_kind, decks=1, seed=1)
    info = shoe.info
    assert info.kind == "shoe" and info.proto_version == 1
    assert re.fullmatch(r"\d+\.\d+\.\d+", info.firmware)
    assert len(info.unique_id) == 16 and info.boot_id != 0
    assert shoe.ping() < 1.0
    assert shoe.status().state in ("idle", "busy")


def test_single_deck_deals_every_card_once_then_reports_empty(open_kind: Opener) -> None:
    # RULES H1: the shoe releases cards one at a time
    shoe = _shoe(open_kind, decks=1, seed=5, cut_from_bottom=0)
    needs_sim(shoe)
    with shoe.subscribe() as events:
        cards = [shoe.deal() for _ in range(52)]
        with pytest.raises(ShoeEmptyError) as info:
            shoe.deal()
        assert isinstance(info.value, LookupError) and "empty" in str(info.value)
        codes = [c.code for c in cards]
        assert all(code is not None and CARD.match(code) for code in codes)
        assert len(set(codes)) == 52
        assert [c.event_no for c in cards] == list(range(1, 53))
        time.sleep(0.05)
        got = events.drain()
    assert got[:52] == cards
    assert isinstance(got[52], ShoeEmpty)


def test_cut_card_event_when_cut_reached(open_kind: Opener) -> None:
    # RULES H2: the cut card leaves the last 60-75 cards undealt
    shoe = _shoe(open_kind, decks=4, seed=3, cut_from_bottom=70)
    needs_sim(shoe)
    with shoe.subscribe() as events:
        for _ in range(4 * 52 - 70):
            shoe.deal()
        time.sleep(0.05)
        cut = [e for e in events.drain() if isinstance(e, CutCardReached)]
    assert len(cut) == 1 and cut[0].cards_dealt == 4 * 52 - 70
    assert "cut_card_out" in shoe.status().flags


def test_events_reach_callbacks_and_async_iterators_once_in_order(open_kind: Opener) -> None:
    shoe = _shoe(open_kind, decks=1, seed=2)
    seen: list[object] = []
    shoe.on_event(seen.append)

    async def collect() -> list[object]:
        got = []
        async for event in shoe.events():
            got.append(event)
            if len(got) == 5:
                return got
        return got

    async def main() -> list[object]:
        task = asyncio.create_task(collect())
        await asyncio.sleep(0.01)
        for _ in range(5):
            await asyncio.to_thread(shoe.deal)
        return await asyncio.wait_for(task, 5)

    via_async = asyncio.run(main())
    time.sleep(0.05)
    cards = [e for e in seen if isinstance(e, CardDealt)]
    assert via_async == cards and len(cards) == 5


def test_meters_are_monotonic_and_count_deals(open_kind: Opener) -> None:
    shoe = _shoe(open_kind, decks=2, seed=4)
    before = shoe.meters()
    for _ in range(3):
        shoe.deal()
    after = shoe.meters()
    assert after["cards_dealt"] == before["cards_dealt"] + 3
    assert all(after[name] >= before[name] for name in before)


@pytest.mark.parametrize("fault", ["drop", "drop_in", "garbage", "bitflip", "duplicate", "split", "delay",
                                   "flip_in"])
def test_a_lost_or_damaged_frame_never_deals_twice(open_kind: Opener, fault: str) -> None:
    shoe = _shoe(open_kind, decks=1, seed=6)
    sim = needs_sim(shoe)
    with shoe.subscribe() as events:
        sim.inject(fault)
        card = shoe.deal()
        second = shoe.deal()
        time.sleep(0.15)  # let any resend or duplicate arrive
        delivered = [e for e in events.drain() if isinstance(e, CardDealt)]
    assert delivered == [card, second]
    stats = sim.stats()
    assert stats["device"]["executed"]["DEAL"] == 2
    assert stats["faults"]["injected"][fault] == 1
    log = [(no, vals["code"]) for _, no, name, vals in sim.event_log() if name == "CARD_DEALT"]
    assert log == [(card.event_no, card.code), (second.event_no, second.code)]


def test_lost_reply_is_replayed_not_re_executed(open_kind: Opener) -> None:
    shoe = _shoe(open_kind, decks=1, seed=7)
    sim = needs_sim(shoe)
    sim.inject("drop")  # the DEAL_REPLY is lost; the retry with the same SEQ gets the cached reply
    shoe.deal()
    stats = sim.stats()["device"]
    assert stats["executed"]["DEAL"] == 1 and stats["replays"] == 1
    assert shoe.link.stats.retries >= 1


def test_port_vanishes_and_comes_back(open_kind: Opener) -> None:
    shoe = _shoe(open_kind, decks=1, seed=8, heartbeat=0.1)
    sim = needs_sim(shoe)
    with shoe.subscribe() as events:
        first = shoe.deal()
        sim.vanish(0.3)
        time.sleep(0.05)
        second = shoe.deal()  # waits for the port to return, re-handshakes, sends
        deadline = time.monotonic() + 3
        got: list[object] = []
        while not any(isinstance(e, LinkUp) for e in got) and time.monotonic() < deadline:
            got += events.drain()
            time.sleep(0.02)
    kinds = [type(e) for e in got]
    assert LinkDown in kinds and LinkUp in kinds
    assert [e for e in got if isinstance(e, CardDealt)] == [first, second]
    assert shoe.link.stats.reconnects >= 1
    assert sim.stats()["device"]["executed"]["DEAL"] == 2


def test_device_reset_is_reported_and_numbering_restarts(open_kind: Opener) -> None:
    shoe = _shoe(open_kind, decks=1, seed=9)
    sim = needs_sim(shoe)
    old_boot = shoe.info.boot_id
    shoe.deal()
    resets_before = shoe.meters()["resets"]
    with shoe.subscribe() as events:
        new_boot = sim.reset("watchdog")
        time.sleep(0.05)
        card = shoe.deal()  # the link notices the new boot_id on re-handshake
        event = events.get(timeout=2)
        while not isinstance(event, DeviceReset):
            event = events.get(timeout=2)
    assert event.old_boot_id == old_boot and event.new_boot_id == new_boot == shoe.info.boot_id
    assert event.reset_cause == "watchdog"
    assert card.event_no == 1
    assert shoe.meters()["resets"] == resets_before + 1  # non-volatile meters survive the reset


def test_jam_and_door_refuse_dealing_and_are_reported(open_kind: Opener) -> None:
    shoe = _shoe(open_kind, decks=1, seed=10)
    sim = needs_sim(shoe)
    with shoe.subscribe() as events:
        sim.jam()
        with pytest.raises(JamError):
            shoe.deal()
        sim.clear_jam()
        shoe.deal()
        sim.door(True)
        with pytest.raises(DoorOpenError):
            shoe.deal()
        sim.door(False)
        shoe.deal()
        time.sleep(0.05)
        kinds = [type(e) for e in events.drain()]
    assert kinds == [Jam, JamCleared, CardDealt, DoorOpen, DoorClosed, CardDealt]


def test_misread_card_has_no_code(open_kind: Opener) -> None:
    shoe = _shoe(open_kind, decks=1, seed=11)
    sim = needs_sim(shoe)
    sim.misread(1)
    assert shoe.deal().code is None
    assert shoe.deal().code is not None
    assert shoe.meters()["cards_misread"] == 1


def test_device_goes_safe_without_heartbeat(open_kind: Opener) -> None:
    shoe = _shoe(open_kind, decks=1, seed=12, heartbeat=None)
    if shoe.simulator is None:
        pytest.skip("the device's heartbeat timeout is firmware-defined")
    shoe.simulator.command("stats")
    # the simulator's default heartbeat timeout is 2 s; memory and pty runners share it
    time.sleep(2.2)
    assert shoe.status().state == "safe"
    assert shoe.status().state == "idle"


def test_shuffler_shuffles_verifies_deals_hands_and_rolls(open_kind: Opener) -> None:
    # RULES H3: shuffles, deals seven hands of seven, RNG with the odds of three dice
    shuffler = open_kind("shuffler", decks=1, seed=13)
    assert isinstance(shuffler, Shuffler)
    assert shuffler.shuffle(1).count == 52
    verified = shuffler.verify_deck(52)
    assert isinstance(verified, DeckVerified) and verified.ok and verified.counted == 52
    assert not shuffler.verify_deck(53).ok
    hands = shuffler.deal_hands(7, 7)
    assert [h.hand for h in hands] == list(range(1, 8)) and all(isinstance(h, HandDealt) for h in hands)
    assert shuffler.status().cards == 52 - 49
    rolls = [shuffler.roll_dice() for _ in range(20)]
    assert all(len(r) == 3 and all(1 <= d <= 6 for d in r) for r in rolls)
    assert shuffler.meters()["dice_rolls"] >= 20


def test_reels_home_spin_and_refuse_bad_stops(open_kind: Opener) -> None:
    # RULES H7: three reels; the host chooses the stops
    reels = open_kind("reels", seed=14)
    assert isinstance(reels, ReelDisplay)
    if reels.simulator is not None:
        with pytest.raises(NotHomedError):
            reels.spin((1, 2, 3))
    homed = reels.home()
    assert [(r.reel, r.position) for r in homed] == [(0, 0), (1, 0), (2, 0)]
    stops = reels.spin((5, 10, 63))
    assert [s.position for s in stops] == [5, 10, 63] and all(isinstance(s, ReelStopped) for s in stops)
    with pytest.raises(BadRequest):
        reels.spin((0, 0, 64))
    reels.set_display("credits", 150)
    assert reels.meters()["spins"] >= 1


def test_stops_resent_by_a_rebooted_display_do_not_end_the_next_home_early(
    open_kind: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    # RULES H7: a display that rebooted mid-spin resends the stops the host had not acknowledged; they
    # arrive while the next command runs (here: delivered the moment HOME is acknowledged, before its
    # own stops) and are not its stops, so the reels are not taken for homed while they still turn
    reels = open_kind("reels", seed=16)
    assert isinstance(reels, ReelDisplay)
    reels.home()
    resent = [ReelStopped(event_no=None, reel=k, position=p) for k, p in enumerate((5, 6, 7))]
    command = reels._command

    def command_then_resent_stops(name: str, values: dict[str, object] | None = None) -> dict[str, object]:
        reply = command(name, values)
        if name == "HOME":
            for event in resent:
                reels._deliver(event)
        return reply

    monkeypatch.setattr(reels, "_command", command_then_resent_stops)
    homed = reels.home()
    assert [(r.reel, r.position) for r in homed] == [(0, 0), (1, 0), (2, 0)]
    assert [s.position for s in reels.spin((8, 9, 10))] == [8, 9, 10]


def test_reel_home_failure_and_reset_needs_rehome(open_kind: Opener) -> None:
    reels = open_kind("reels", seed=15)
    sim = needs_sim(reels)
    with reels.subscribe() as events:
        sim.home_fail(1)
        with pytest.raises(NotHomedError, match="reel 3"):
            reels.home()
        assert any(isinstance(e, ReelHomeFailed) for e in events.drain())
    reels.home()
    reels.spin((1, 1, 1))
    sim.reset("brown_out")
    time.sleep(0.05)
    with pytest.raises(NotHomedError):
        reels.spin((2, 2, 2))
    reels.home()
    assert [s.position for s in reels.spin((2, 2, 2))] == [2, 2, 2]
