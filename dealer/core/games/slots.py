"""Slot machines at the table (RULES A14, H7): the operations a table runtime logs and applies.

Every change to a machine is a frozen operation in the event log, so its meters (credits, coin-in,
coin-out, games played, jackpots, progressive pools, feature meters) are rebuilt exactly on restart.
Randomness is resolved *before* logging: :func:`spin_operation` asks the RNG (the CSPRNG unless a
replay seed is given) for the stop of each reel, and the logged :class:`SpinReels` carries those
stops; applying it evaluates them, and :attr:`SpinResult.stops` tells the reel display where to stop.

>>> from dealer.core.table_state import TableState
>>> from dealer.core.rng import Rng
>>> from dealer.core.slots.title import title_from_mapping
>>> toy = {"title": {"name": "Toy", "slug": "toy", "max_coins": 1, "denominations": [100]},
...        "reels": [{"stops": "A - - - - - - - - -"}] * 3,
...        "paytables": [{"name": "Standard", "pays": [{"line": "A A A", "pays": [1000]}]}]}
>>> table = TableState()
>>> table.apply(InstallMachine("m1", toy, denomination=100))
>>> table.apply(InsertCredits("m1", "cage", 500))
>>> table.apply(SpinReels("m1", coins=1, stops=(0, 0, 0)))
>>> floor = table.games["slots"]
>>> floor.machines["m1"].last.win, floor.machines["m1"].meters["credits"]
(1000, 1004)
>>> op = spin_operation(floor, "m1", 1, Rng.from_seed(5))
>>> len(op.stops), all(0 <= s < 10 for s in op.stops)
(3, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from dealer.core.cards import Card
from dealer.core.errors import IllegalOperation
from dealer.core.games.base import Prompt, Step
from dealer.core.operations import Operation, ensure, register_operation
from dealer.core.rng import Rng
from dealer.core.slots.features import SpinKind
from dealer.core.slots.machine import Pool, SlotMachine, pool_for
from dealer.core.slots.title import Title, title_from_mapping
from dealer.core.table_state import TableState

__all__ = [
    "CashInFreeSpins",
    "CashOut",
    "InsertCredits",
    "InstallMachine",
    "PickBonus",
    "ResetMeter",
    "SelectPaytable",
    "SlotFloor",
    "SpinReels",
    "button_operation",
    "pick_operation",
    "spin_operation",
]

DRAW_RANGE = 1 << 30  # the extra uniform draw each spin carries for random awards


@dataclass
class SlotFloor:
    """All slot machines of one table and the progressive pools they share."""

    name: ClassVar[str] = "slots"
    machines: dict[str, SlotMachine] = field(default_factory=dict)
    pools: dict[str, Pool] = field(default_factory=dict)
    rng: Rng = field(default_factory=Rng.system, repr=False, compare=False)

    def machine(self, machine: str) -> SlotMachine:
        if machine not in self.machines:
            known = ", ".join(sorted(self.machines)) or "none installed"
            raise IllegalOperation(f"no slot machine {machine!r} (machines: {known})")
        return self.machines[machine]

    # --- the Game protocol ---------------------------------------------------------------------

    def prompt(self) -> Prompt:
        for m in self.machines.values():
            if m.pick_pending():
                feature = m.pick_feature()
                options = feature.choices if feature is not None else ()
                return Prompt(Step.DECIDE, m.machine, options, "Bullfight: pick the bull or the matador")
            pending = m.pending()
            if pending is not None:
                return Prompt(Step.DECIDE, m.machine, ("spin",), f"{pending[0].value} spin to play")
        return Prompt(Step.BET, None, ("spin", "insert", "cash-out"), "insert credits and spin")

    def card_operation(self, card: Card) -> Operation:
        raise IllegalOperation(f"slot machines use no cards (got {card.code})")

    def auto_operation(self) -> Operation | None:
        """The spins the machine plays by itself (free spins, re-spins, cashed-in spins), and in
        simulated mode a random Bullfight pick; a paid spin is always the player's."""
        for m in self.machines.values():
            if m.pick_pending():
                return pick_operation(self, m.machine, None, self.rng)
            pending = m.pending()
            if pending is not None:
                return spin_operation(self, m.machine, pending[1], self.rng)
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "machines": {k: m.to_json() for k, m in sorted(self.machines.items())},
            "pools": {k: p.to_json() for k, p in sorted(self.pools.items())},
        }


def floor_of(table: TableState) -> SlotFloor:
    floor = table.games.get("slots")
    if floor is None:
        floor = table.games["slots"] = SlotFloor()
    if not isinstance(floor, SlotFloor):
        raise IllegalOperation("table.games['slots'] is not a slot floor")
    return floor


def draw_stops(machine: SlotMachine, rng: Rng) -> tuple[int, ...]:
    """One stop per reel: a uniform virtual position mapped to its physical stop."""
    return tuple(reel.stop_for(rng.randbelow(reel.total_weight)) for reel in machine.title.reels)


def spin_operation(
    floor: SlotFloor, machine: str, coins: int, rng: Rng | None = None, *, max_tries: int = 100_000
) -> SpinReels:
    """The RNG decides the outcome now; the logged operation carries the stops.

    A guaranteed winning spin (free spins, cashed-in spins) redraws until the stops win, which gives
    exactly the distribution of winning outcomes.
    """
    rng = rng or floor.rng
    m = floor.machine(machine)
    kind = m.spin_kind(coins)
    for _ in range(max_tries):
        stops = draw_stops(m, rng)
        if kind not in (SpinKind.FREE, SpinKind.CASH_IN) or m.can_spin(coins, stops):
            return SpinReels(machine, coins, stops, rng.randbelow(DRAW_RANGE))
    raise IllegalOperation(f"{m.title.name}: no winning stops found for a guaranteed spin")


def pick_operation(floor: SlotFloor, machine: str, choice: str | None, rng: Rng | None = None) -> PickBonus:
    """The player's Bullfight pick (random in simulated mode) with the fight's winner drawn now."""
    rng = rng or floor.rng
    feature = floor.machine(machine).pick_feature()
    ensure(feature is not None, "RULES A14: this title has no pick bonus")
    assert feature is not None
    return PickBonus(
        machine, choice if choice is not None else rng.choice(feature.choices), rng.choice(feature.choices)
    )


@register_operation
@dataclass(frozen=True)
class InstallMachine(Operation):
    """Put a machine on the floor. The title's full data is logged, so a replay never depends on
    the config files; ``digest`` (if given) must match the data."""

    kind: ClassVar[str] = "slots.install"
    machine: str
    title: dict[str, Any]
    denomination: int
    paytable: str | None = None
    digest: str | None = None

    def build(self) -> Title:
        try:
            return title_from_mapping(self.title)
        except ValueError as exc:
            raise IllegalOperation(f"slots.install {self.machine}: {exc}") from None

    def apply(self, table: TableState) -> None:
        floor = floor_of(table)
        ensure(
            bool(self.machine) and self.machine not in floor.machines,
            f"machine id {self.machine!r} is empty or already installed",
        )
        title = self.build()
        ensure(
            self.digest is None or self.digest == title.digest(),
            f"title data does not match its digest {self.digest}",
        )
        ensure(
            self.denomination in title.denominations,
            f"RULES A14: {title.name} plays {', '.join(map(str, title.denominations))} cents, "
            f"not {self.denomination}",
        )
        paytable = title.paytable(self.paytable).name
        if title.progressive is not None and title.progressive.pool not in floor.pools:
            pool = pool_for(title.progressive)
            pool.seed(table.ledger)
            floor.pools[pool.name] = pool
        floor.machines[self.machine] = SlotMachine(self.machine, title, self.denomination, paytable)


def button_operation(
    floor: SlotFloor, option: str, machine: str | None, coins: int | None = None, rng: Rng | None = None
) -> SpinReels | PickBonus:
    """A button pressed on ``machine``: ``spin`` (the free or re-spin it owes, else a paid spin of
    ``coins``, the title's maximum bet by default) or one of its pick bonus's choices.

    >>> floor = SlotFloor()
    >>> button_operation(floor, "spin", None)
    Traceback (most recent call last):
    ...
    dealer.core.errors.IllegalOperation: which machine? (machines: none installed)
    """
    if machine is None:
        known = ", ".join(sorted(floor.machines)) or "none installed"
        raise IllegalOperation(f"which machine? (machines: {known})")
    m = floor.machine(machine)
    if m.pick_pending():
        feature = m.pick_feature()
        choices = feature.choices if feature is not None else ()
        ensure(option in choices, f"RULES A14: {m.title.name} waits for a pick: one of {', '.join(choices)}")
        return pick_operation(floor, machine, option, rng)
    ensure(option == "spin", f"{option!r} is not a slot machine's button now (expected spin)")
    pending = m.pending()
    if pending is not None:
        coins = pending[1] if coins is None else coins
    return spin_operation(floor, machine, m.title.max_bet if coins is None else coins, rng)


@register_operation
@dataclass(frozen=True)
class InsertCredits(Operation):
    """Money in: ``cents`` from ``source`` (a seat or the cage) become credits on the machine."""

    kind: ClassVar[str] = "slots.insert"
    machine: str
    source: str
    cents: int

    def apply(self, table: TableState) -> None:
        floor_of(table).machine(self.machine).insert(self.cents, self.source, table.ledger)


@register_operation
@dataclass(frozen=True)
class SpinReels(Operation):
    """One spin with its outcome already chosen: the stop of each reel and a draw for random awards."""

    kind: ClassVar[str] = "slots.spin"
    machine: str
    coins: int
    stops: tuple[int, ...]
    draw: int = 0

    def apply(self, table: TableState) -> None:
        floor = floor_of(table)
        floor.machine(self.machine).spin(self.coins, tuple(self.stops), self.draw, table.ledger, floor.pools)


@register_operation
@dataclass(frozen=True)
class PickBonus(Operation):
    """El Toro's Bullfight: the player's pick and the fight's winner (drawn before logging)."""

    kind: ClassVar[str] = "slots.pick"
    machine: str
    choice: str
    winner: str

    def apply(self, table: TableState) -> None:
        floor_of(table).machine(self.machine).pick(self.choice, self.winner, table.ledger)


@register_operation
@dataclass(frozen=True)
class CashInFreeSpins(Operation):
    """The gold "Cash In!" button: play every banked free winning spin now."""

    kind: ClassVar[str] = "slots.cash-in"
    machine: str

    def apply(self, table: TableState) -> None:
        floor_of(table).machine(self.machine).cash_in()


@register_operation
@dataclass(frozen=True)
class CashOut(Operation):
    """The red "Cash Out" button: every credit leaves the machine to ``target``."""

    kind: ClassVar[str] = "slots.cash-out"
    machine: str
    target: str

    def apply(self, table: TableState) -> None:
        floor_of(table).machine(self.machine).cash_out(self.target, table.ledger)


@register_operation
@dataclass(frozen=True)
class SelectPaytable(Operation):
    """ "Next Paytable" (Operation M.Y.O.W.): play under another of the title's paytables."""

    kind: ClassVar[str] = "slots.paytable"
    machine: str
    paytable: str

    def apply(self, table: TableState) -> None:
        floor_of(table).machine(self.machine).select_paytable(self.paytable)


@register_operation
@dataclass(frozen=True)
class ResetMeter(Operation):
    """An attendant's audited meter reset (``progressive:<pool>`` reseeds a pool); never silent."""

    kind: ClassVar[str] = "slots.meter-reset"
    machine: str
    meter: str
    reason: str
    by: str
    value: int | None = None

    def apply(self, table: TableState) -> None:
        floor = floor_of(table)
        floor.machine(self.machine).reset_meter(
            self.meter, self.value, self.reason, self.by, floor.pools, table.ledger
        )
