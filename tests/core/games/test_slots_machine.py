"""Slot machine meters, money, logging and restart (RULES H7: persistent meters and controls)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.core.cards import Card
from dealer.core.errors import IllegalOperation
from dealer.core.games.base import Game, Step
from dealer.core.games.slots import (
    CashOut,
    InsertCredits,
    InstallMachine,
    ResetMeter,
    SlotFloor,
    SpinReels,
    pick_operation,
    spin_operation,
)
from dealer.core.operations import Operation, operation_from_payload
from dealer.core.rng import Rng
from dealer.core.slots.machine import ACCOUNTING_METERS
from dealer.core.table_state import TableState
from dealer.slots_config import available_titles, load_title_data

SLUGS = sorted(available_titles())


class Log:
    """A table plus the operations applied to it, in order (what the event store would hold)."""

    def __init__(self) -> None:
        self.table = TableState()
        self.ops: list[Operation] = []

    def apply(self, op: Operation) -> None:
        self.table.apply(op)
        self.ops.append(op)

    @property
    def floor(self) -> SlotFloor:
        floor: SlotFloor = self.table.games["slots"]
        return floor


def install(log: Log, slug: str, machine: str = "m1", credits: int = 5_000) -> int:
    title, data = load_title_data(slug)
    denom = title.denominations[-1]
    log.apply(InstallMachine(machine, data, denom, digest=title.digest()))
    log.apply(InsertCredits(machine, "cage", credits * denom))
    return denom


def play(log: Log, machine: str, coins: int, rng: Rng, spins: int) -> None:
    """Paid spins, each followed by whatever the machine plays itself (and random picks)."""
    for _ in range(spins):
        m = log.floor.machines[machine]
        if m.meters["credits"] < coins:
            break
        log.apply(spin_operation(log.floor, machine, coins, rng))
        while True:
            if m.pick_pending():
                log.apply(pick_operation(log.floor, machine, None, rng))
                continue
            pending = m.pending()
            if pending is None:
                break
            log.apply(spin_operation(log.floor, machine, pending[1], rng))


def replayed(ops: list[Operation]) -> TableState:
    table = TableState()
    for op in ops:
        table.apply(operation_from_payload(op.kind, op.to_payload()))
    return table


def test_the_floor_is_a_game_the_runtime_can_drive() -> None:
    log = Log()
    install(log, "bonkers")
    assert isinstance(log.floor, Game)
    assert log.floor.prompt().step is Step.BET
    assert log.floor.auto_operation() is None  # a paid spin is the player's
    log.apply(SpinReels("m1", 3, (0, 0, 2)))  # BONKERS BONKERS - : three free spins
    assert log.floor.prompt().step is Step.DECIDE
    auto = log.floor.auto_operation()
    assert isinstance(auto, SpinReels) and auto.coins == 3
    with pytest.raises(IllegalOperation, match="no cards"):
        log.floor.card_operation(Card.parse("AS"))


def test_spin_operation_uses_the_csprng_unless_a_replay_seed_is_given() -> None:
    log = Log()
    install(log, "diamond-mine")
    assert log.floor.rng.seed is None
    a = [spin_operation(log.floor, "m1", 3, Rng.from_seed(8)).stops for _ in range(2)]
    assert a[0] == a[1]  # a seed replays the same stops
    stops = {spin_operation(log.floor, "m1", 3).stops for _ in range(40)}
    assert len(stops) > 30  # the system CSPRNG varies


def test_spin_result_tells_the_reel_display_where_to_stop() -> None:
    # RULES H7: the outcome is chosen first, then the reels are told where to stop
    log = Log()
    install(log, "high-rollers")
    op = spin_operation(log.floor, "m1", 5, Rng.from_seed(3))
    log.apply(op)
    result = log.floor.machines["m1"].last
    assert result is not None and result.stops == op.stops
    title = log.floor.machines["m1"].title
    for k, (reel, stop) in enumerate(zip(title.reels, op.stops, strict=True)):
        assert [row[k] for row in result.window] == [reel.symbol_at(stop, d) for d in (-1, 0, 1)]
    body = log.floor.to_json()["machines"]["m1"]["last_spin"]
    assert body["stops"] == list(op.stops)


def test_bad_stops_are_refused_and_change_nothing() -> None:
    log = Log()
    install(log, "diamond-mine")
    before = log.floor.to_json()
    for stops in ((0, 0), (0, 0, 99), (-1, 0, 0)):
        with pytest.raises(IllegalOperation, match="stops|reel"):
            log.table.apply(SpinReels("m1", 3, stops))
    with pytest.raises(IllegalOperation, match="no slot machine"):
        log.table.apply(SpinReels("nope", 3, (0, 0, 0)))
    assert log.floor.to_json() == before


@pytest.mark.parametrize("slug", SLUGS)
def test_meters_balance_and_chips_are_conserved(slug: str) -> None:
    # RULES H7: credits, coin-in, coin-out and games played agree with each other and with the ledger
    log = Log()
    denom = install(log, slug)
    title = log.floor.machines["m1"].title
    play(log, "m1", title.max_bet, Rng.from_seed(hash(slug) % 1000), 150)
    m = log.floor.machines["m1"]
    meters = m.meters
    assert meters["credits"] == meters["credits_in"] - meters["coin_in"] + meters["coin_out"]
    assert meters["coin_in"] == meters["games_played"] * title.max_bet
    assert log.table.ledger.total() == 0
    assert log.table.ledger.balance("slot:m1") == meters["credits"] * denom
    for name, pool in log.floor.pools.items():
        assert log.table.ledger.balance(f"progressive:{name}") == pool.value_cents
    log.apply(CashOut("m1", "seat-1"))
    assert log.table.ledger.balance("seat-1") == meters["credits_out"] * denom
    assert m.meters["credits"] == 0


@settings(max_examples=25, deadline=None)
@given(slug=st.sampled_from(SLUGS), seed=st.integers(0, 10_000), spins=st.integers(1, 40))
def test_replaying_the_log_gives_the_same_machine(slug: str, seed: int, spins: int) -> None:
    log = Log()
    install(log, slug)
    title = log.floor.machines["m1"].title
    rng = Rng.from_seed(seed)
    play(log, "m1", rng.randint(1, title.max_bet) if title.lines == 1 else title.lines, rng, spins)
    assert replayed(log.ops).to_json() == log.table.to_json()
    meters = log.floor.machines["m1"].meters
    assert log.table.ledger.total() == 0  # chips conserved
    assert meters["credits"] == meters["credits_in"] - meters["coin_in"] + meters["coin_out"]


def test_meter_reset_is_audited_never_silent() -> None:
    # RULES H7: meters are never cleared silently
    log = Log()
    install(log, "bank-on-it")
    play(log, "m1", 3, Rng.from_seed(2), 30)
    m = log.floor.machines["m1"]
    coin_in, bank = m.meters["coin_in"], m.feature_meters["piggy_bank"]
    with pytest.raises(IllegalOperation, match="reason"):
        log.apply(ResetMeter("m1", "coin_in", reason="", by="tech"))
    with pytest.raises(IllegalOperation, match="never reset"):
        log.apply(ResetMeter("m1", "credits", reason="cleanup", by="tech"))
    with pytest.raises(IllegalOperation, match="no meter"):
        log.apply(ResetMeter("m1", "mystery", reason="x", by="tech"))
    log.apply(ResetMeter("m1", "coin_in", reason="RAM clear after board swap", by="tech-7"))
    log.apply(ResetMeter("m1", "piggy_bank", reason="bank restored after fault", by="tech-7", value=400))
    assert m.meters["coin_in"] == 0 and m.feature_meters["piggy_bank"] == 400
    assert [(a["meter"], a["old"], a["new"], a["by"]) for a in m.audit] == [
        ("coin_in", coin_in, 0, "tech-7"), ("piggy_bank", bank, 400, "tech-7")]
    assert log.floor.to_json()["machines"]["m1"]["audit"][0]["reason"] == "RAM clear after board swap"


def test_progressive_pool_reset_returns_the_pool_to_the_house_and_reseeds() -> None:
    log = Log()
    install(log, "light-speed")
    play(log, "m1", 3, Rng.from_seed(1), 200)
    pool = log.floor.pools["light-speed"]
    assert pool.value_cents > 70_000
    log.apply(ResetMeter("m1", "progressive:light-speed", reason="controller replaced", by="tech-2"))
    assert pool.value_cents == 70_000
    assert log.table.ledger.balance("progressive:light-speed") == 70_000
    assert log.table.ledger.total() == 0


def test_progressive_pool_is_shared_by_machines_of_the_title() -> None:
    # RULES A14: system-wide progressive
    log = Log()
    install(log, "crazy-dragon", "a")
    install(log, "crazy-dragon", "b")
    assert list(log.floor.pools) == ["crazy-dragon"]
    log.apply(SpinReels("a", 3, (1, 1, 1)))
    log.apply(SpinReels("b", 3, (1, 1, 1)))
    log.apply(SpinReels("b", 1, (1, 1, 1)))  # 1 coin does not qualify
    assert log.floor.pools["crazy-dragon"].value_cents == 200_000 + 3 + 3


def test_install_checks_the_logged_title_data() -> None:
    title, data = load_title_data("toy")
    with pytest.raises(IllegalOperation, match="digest"):
        TableState().apply(InstallMachine("m", data, 100, digest="0" * 16))
    broken = {**data, "reels": data["reels"][:2]}
    with pytest.raises(IllegalOperation, match="reels"):
        TableState().apply(InstallMachine("m", broken, 100))
    table = TableState()
    table.apply(InstallMachine("m", data, 100, digest=title.digest()))
    with pytest.raises(IllegalOperation, match="already installed"):
        table.apply(InstallMachine("m", data, 100))


def test_meters_survive_a_restart_through_the_sqlite_event_log(tmp_path: Path) -> None:
    # RULES H7: persistent meters per machine survive a restart
    store_mod = pytest.importorskip("dealer.store")
    log = Log()
    install(log, "its-good-to-be-bad", "gtbb")
    install(log, "frozen-assets", "frozen")
    install(log, "el-toro", "toro")
    rng = Rng.from_seed(12)
    for machine in ("gtbb", "frozen", "toro"):
        play(log, machine, 3, rng, 120)
    log.apply(ResetMeter("frozen", "games_won", reason="test", by="tech"))
    db = tmp_path / "slots.db"
    with store_mod.EventStore.open(db) as store:
        for op in log.ops:
            store.append(op)
    # a new process: open the same file and rebuild
    with store_mod.EventStore.open(db) as store:
        rebuilt = store_mod.rebuild_state(store)
    assert rebuilt.to_json() == log.table.to_json()
    floor = rebuilt.games["slots"]
    for machine in ("gtbb", "frozen", "toro"):
        before = log.floor.machines[machine]
        after = floor.machines[machine]
        assert after.meters == before.meters and after.feature_meters == before.feature_meters
        for name in ACCOUNTING_METERS:
            assert name in after.meters
    assert floor.machines["frozen"].audit == log.floor.machines["frozen"].audit
    assert floor.pools["its-good-to-be-bad"].value_cents == log.floor.pools["its-good-to-be-bad"].value_cents
    # and the restarted machine plays on from the same meters
    m = floor.machines["frozen"]
    played = m.meters["games_played"]
    rebuilt.apply(spin_operation(floor, "frozen", 3, Rng.from_seed(1)))
    assert m.meters["games_played"] == played + 1
