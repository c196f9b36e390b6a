"""The cage of a casino night: named players, their chips, and every move of chips, in one log.

A player buys chips for cash at the cage (a buy-in, later rebuys), carries them to a table (sit:
the chips leave their stack for that table's seat), takes what is left back when they stand, and
cashes out at the end. The cage keeps its own hash-chained log (``<night dir>/cage.db``) of
frozen operations, each with ``verify`` (raises, changes nothing) and ``apply``; replaying the log
rebuilds the cage. The table half of a sit or a stand is a ``chips.transfer`` in that table's log
whose reason names the cage record (``night #12``), so the two logs can be checked against
each other, and a move interrupted by a crash is finished on the next start.

The invariant: every chip sold and not yet cashed is in a player's stack or at a table.
"""

from __future__ import annotations

import copy
import dataclasses
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from dealer.core.errors import IllegalOperation
from dealer.store import EventStore, Record

MOVE_TAG = "night #"  # a table's transfer for a sit or a stand names its cage record: "night #12"


class UnknownName(IllegalOperation, LookupError):
    """No such player or table (the API answers 404)."""


@dataclass(frozen=True)
class Seat:
    table: str
    seat: int


@dataclass
class Player:
    id: str
    name: str
    stack: int = 0  # chips in hand, at no table
    bought: int = 0  # cash paid in at the cage, all night
    cashed: int = 0  # cash paid out at the cage, all night
    seat: Seat | None = None
    brought: int = 0  # chips carried to the table where they sit now
    tables: list[str] = field(default_factory=list)  # every table they sat at, in order

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "cage_chips": self.stack, "bought": self.bought,
                "cashed_out": self.cashed,
                "at_table": None if self.seat is None else {"table": self.seat.table, "seat": self.seat.seat,
                                                            "brought": self.brought},
                "tables": list(self.tables)}


@dataclass
class CageState:
    players: dict[str, Player] = field(default_factory=dict)
    seats: dict[Seat, str] = field(default_factory=dict)  # who sits where
    to_tables: dict[str, int] = field(default_factory=dict)  # chips carried to each table
    leaving: set[Seat] = field(default_factory=set)  # asked to stand mid-round: they stand at its end
    from_tables: dict[str, int] = field(default_factory=dict)  # chips carried away from each table

    def player(self, player_id: str) -> Player:
        try:
            return self.players[player_id]
        except KeyError:
            known = ", ".join(f"{p.id} ({p.name})" for p in self.players.values()) or "nobody yet"
            raise UnknownName(f"no player {player_id!r}: the guest list has {known}") from None

    def by_name(self, name: str) -> Player | None:
        wanted = name.strip().casefold()
        return next((p for p in self.players.values() if p.name.casefold() == wanted), None)

    @property
    def sold(self) -> int:
        """Chips out of the cage: bought and not cashed."""
        return sum(p.bought - p.cashed for p in self.players.values())

    @property
    def in_stacks(self) -> int:
        return sum(p.stack for p in self.players.values())

    def at_tables(self) -> dict[str, int]:
        """Chips each table received and did not give back (its drop, less what left with players)."""
        tables = set(self.to_tables) | set(self.from_tables)
        return {t: self.to_tables.get(t, 0) - self.from_tables.get(t, 0) for t in sorted(tables)}

    def to_json(self) -> dict[str, Any]:
        """Every player, and where the chips sold tonight are: in stacks or at tables."""
        return {"players": [p.to_json() for p in self.players.values()], "sold": self.sold,
                "in_stacks": self.in_stacks, "at_tables": self.at_tables()}


def replay_cage(records: Iterable[Record]) -> CageState:
    """The cage rebuilt from its log; a record that cannot be applied is named."""
    state = CageState()
    for record in records:
        try:
            operation_from(record.kind, record.data).apply(state)
        except (IllegalOperation, TypeError) as exc:
            what = f"cage record {record.seq} ({record.kind})"
            raise IllegalOperation(f"{what} cannot be replayed: {exc}") from None
    return state


def is_cage_log(first: Record | None) -> bool:
    return first is not None and first.kind in _KINDS


# ---- operations ----------------------------------------------------------------------------------

_KINDS: dict[str, type[CageOperation]] = {}


def _register(cls: type[CageOperation]) -> type[CageOperation]:
    _KINDS[cls.kind] = cls
    return cls


@dataclass(frozen=True)
class CageOperation:
    kind: ClassVar[str] = ""

    def verify(self, state: CageState) -> None:
        raise NotImplementedError

    def do(self, state: CageState) -> None:
        raise NotImplementedError

    def can(self, state: CageState) -> bool:
        try:
            self.verify(state)
        except IllegalOperation:
            return False
        return True

    def apply(self, state: CageState) -> None:
        self.verify(state)
        self.do(state)

    def to_payload(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _amount(amount: int, what: str, *, zero: bool = False) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < (0 if zero else 1):
        least = "0" if zero else "1"
        raise IllegalOperation(f"{what} must be a whole number of chips, {least} or more, got {amount!r}")


@_register
@dataclass(frozen=True)
class AddPlayer(CageOperation):
    kind: ClassVar[str] = "night.player"
    player_id: str
    name: str

    def verify(self, state: CageState) -> None:
        name = self.name.strip()
        if not name or len(name) > 40:
            raise IllegalOperation(f"a player's name has 1 to 40 characters, got {self.name!r}")
        if self.player_id in state.players:
            raise IllegalOperation(f"player id {self.player_id!r} is taken")
        same = state.by_name(name)
        if same is not None:
            raise IllegalOperation(f"{same.name} is already on the guest list (player {same.id})")

    def do(self, state: CageState) -> None:
        state.players[self.player_id] = Player(self.player_id, self.name.strip())


@_register
@dataclass(frozen=True)
class BuyIn(CageOperation):
    """Cash in at the cage: chips into the player's stack (a rebuy is the same, logged as one)."""

    kind: ClassVar[str] = "night.buy-in"
    player_id: str
    amount: int

    def verify(self, state: CageState) -> None:
        state.player(self.player_id)
        _amount(self.amount, "a buy-in")

    def do(self, state: CageState) -> None:
        player = state.players[self.player_id]
        player.stack += self.amount
        player.bought += self.amount


@_register
@dataclass(frozen=True)
class Rebuy(BuyIn):
    kind: ClassVar[str] = "night.rebuy"

    def verify(self, state: CageState) -> None:
        super().verify(state)
        player = state.players[self.player_id]
        if player.bought == 0:
            raise IllegalOperation(f"{player.name} has not bought in yet: a first purchase is a buy-in")


@_register
@dataclass(frozen=True)
class Sit(CageOperation):
    """The player sits at ``table``/``seat`` with ``chips`` from their stack."""

    kind: ClassVar[str] = "night.sit"
    player_id: str
    table: str
    seat: int
    chips: int

    def verify(self, state: CageState) -> None:
        player = state.player(self.player_id)
        _amount(self.chips, "the chips brought to a table")
        if player.seat is not None:
            raise IllegalOperation(f"{player.name} already sits at {player.seat.table} seat "
                                   f"{player.seat.seat}: stand up first")
        taken = state.seats.get(Seat(self.table, self.seat))
        if taken is not None:
            raise IllegalOperation(f"seat {self.seat} at {self.table} is taken by "
                                   f"{state.players[taken].name}")
        if player.stack < self.chips:
            raise IllegalOperation(f"{player.name} has {player.stack} chips, cannot bring {self.chips}")

    def do(self, state: CageState) -> None:
        player = state.players[self.player_id]
        player.stack -= self.chips
        player.seat, player.brought = Seat(self.table, self.seat), self.chips
        if not player.tables or player.tables[-1] != self.table:
            player.tables.append(self.table)
        state.seats[player.seat] = player.id
        state.to_tables[self.table] = state.to_tables.get(self.table, 0) + self.chips


def _sitting(state: CageState, player_id: str, table: str, seat: int) -> None:
    player = state.player(player_id)
    if player.seat != Seat(table, seat):
        where = "no table" if player.seat is None else f"{player.seat.table} seat {player.seat.seat}"
        raise IllegalOperation(f"{player.name} sits at {where}, not {table} seat {seat}")


@_register
@dataclass(frozen=True)
class Leave(CageOperation):
    """The player asked to stand while a round is in play: they stand when it is over, even if the
    server restarts in between (the request is in the log)."""

    kind: ClassVar[str] = "night.leaving"
    player_id: str
    table: str
    seat: int

    def verify(self, state: CageState) -> None:
        _sitting(state, self.player_id, self.table, self.seat)

    def do(self, state: CageState) -> None:
        state.leaving.add(Seat(self.table, self.seat))


@_register
@dataclass(frozen=True)
class Stand(CageOperation):
    """The player leaves ``table``/``seat`` with ``chips`` (everything the seat held)."""

    kind: ClassVar[str] = "night.stand"
    player_id: str
    table: str
    seat: int
    chips: int

    def verify(self, state: CageState) -> None:
        _sitting(state, self.player_id, self.table, self.seat)
        _amount(self.chips, "the chips taken from a table", zero=True)

    def do(self, state: CageState) -> None:
        player = state.players[self.player_id]
        del state.seats[Seat(self.table, self.seat)]
        state.leaving.discard(Seat(self.table, self.seat))
        player.seat, player.brought = None, 0
        player.stack += self.chips
        state.from_tables[self.table] = state.from_tables.get(self.table, 0) + self.chips


@_register
@dataclass(frozen=True)
class CashOut(CageOperation):
    """Every chip in the player's stack back to the cage, for cash."""

    kind: ClassVar[str] = "night.cash-out"
    player_id: str
    chips: int

    def verify(self, state: CageState) -> None:
        player = state.player(self.player_id)
        if player.seat is not None:
            raise IllegalOperation(f"{player.name} still sits at {player.seat.table} seat "
                                   f"{player.seat.seat}: stand up first (the chips come back to the stack)")
        if self.chips != player.stack:
            raise IllegalOperation(f"{player.name} holds {player.stack} chips; a cash-out takes all of them, "
                                   f"not {self.chips}")

    def do(self, state: CageState) -> None:
        player = state.players[self.player_id]
        player.stack -= self.chips
        player.cashed += self.chips


def operation_from(kind: str, data: dict[str, Any]) -> CageOperation:
    try:
        return _KINDS[kind](**data)
    except KeyError:
        raise IllegalOperation(f"the cage log holds an unknown record kind {kind!r}") from None


# ---- the cage ------------------------------------------------------------------------------------

class Cage:
    """The cage's state and log, joined like a table's: verify on a copy, log, then apply."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._lock = threading.RLock()
        self.state = replay_cage(store.records())

    @classmethod
    def open(cls, path: str | Path) -> Cage:
        return cls(EventStore.open(path))

    def close(self) -> None:
        self.store.close()

    @property
    def lock(self) -> threading.RLock:
        return self._lock

    def submit(self, op: CageOperation) -> Record:
        with self._lock:
            trial = copy.deepcopy(self.state)
            op.apply(trial)
            record = self.store.append_raw(op.kind, op.to_payload())
            self.state = trial
            return record

    def next_player_id(self) -> str:
        numbers = [int(p.removeprefix("p")) for p in self.state.players if p.removeprefix("p").isdigit()]
        return f"p{max(numbers, default=0) + 1}"

    def records(self) -> list[Record]:
        return list(self.store.records())
