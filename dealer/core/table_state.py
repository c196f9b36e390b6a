"""The state of one table, rebuilt by applying operations in log order.

Games keep their own state objects in :attr:`TableState.games`; the shoe and the chip ledger are
shared by every game at the table. Each table operation is frozen and applies itself through the
verified actions of the state it touches, so an illegal operation raises before anything changes.

>>> state = TableState()
>>> state.apply(LoadShoe(decks=1))
>>> state.apply(ShuffleShoe(seed=3, cut_behind=0))
>>> deal = state.next_deal()
>>> state.apply(deal)
>>> state.shoe.cards_out
1
>>> state.apply(TransferChips("cage", "seat-1", 100, "buy-in"))
>>> state.ledger.balance("seat-1")
100
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from dealer.core.cards import Card
from dealer.core.errors import IllegalOperation
from dealer.core.ledger import Ledger
from dealer.core.operations import Operation, ensure, register_operation
from dealer.core.rng import Rng
from dealer.core.shoe import (
    BurnRule,
    CutRule,
    IntegrityFault,
    Shoe,
    ShoeMode,
    ShoeRules,
)


@dataclass
class TableState:
    """Everything a table knows; built only by :meth:`apply`."""

    shoe: Shoe | None = None
    ledger: Ledger = field(default_factory=Ledger)
    games: dict[str, Any] = field(default_factory=dict)
    paused: dict[str, str] = field(default_factory=dict)  # source -> reason, while a fault is open
    voided: dict[int, str] = field(default_factory=dict)  # record seq -> reason
    corrected: dict[int, str] = field(default_factory=dict)  # record seq -> the card it really was
    disputes: dict[int, Dispute] = field(default_factory=dict)  # open integrity issues by number
    applied: int = 0  # how many operations have been applied

    def apply(self, op: Operation) -> None:
        apply = getattr(op, "apply", None)
        if apply is None:
            raise IllegalOperation(f"{op.kind} does not change a table")
        apply(self)
        self.applied += 1

    def require_shoe(self) -> Shoe:
        if self.shoe is None:
            raise IllegalOperation("no shoe is loaded at this table (load one first)")
        return self.shoe

    def next_deal(self) -> DealCard:
        """The operation a known-order shoe performs next (not yet applied): a house burn while
        one is due after a shuffle, otherwise a deal."""
        shoe = self.require_shoe()
        return DealCard(shoe.next_card(), burn=shoe.burns_due > 0)

    @property
    def faults(self) -> list[IntegrityFault]:
        return [] if self.shoe is None else list(self.shoe.faults)

    def to_json(self, *, public: bool = False) -> dict[str, Any]:
        """The whole state; ``public`` is what any viewer may see (no identities of cards out of
        the shoe beyond what each game shows: a corrected card is named only by its game, which
        keeps a face-down one a back until it is turned up; a disputed card by none)."""
        return {
            "applied": self.applied,
            "shoe": None if self.shoe is None else self.shoe.to_json(public=public),
            "balances": self.ledger.balances(),
            "games": {name: _game_json(game) for name, game in self.games.items()},
            "paused": dict(self.paused),
            "voided": {str(seq): reason for seq, reason in self.voided.items()},
            "corrected": {str(seq): True if public else card for seq, card in self.corrected.items()},
            "disputes": {str(n): d.public_detail if public else d.detail for n, d in self.disputes.items()},
        }


@dataclass(frozen=True)
class Dispute:
    """An open integrity issue: what the shoe's reader and the camera read (None: nothing)."""

    shoe: str | None = None
    camera: str | None = None

    @property
    def detail(self) -> str:
        return f"the shoe read {self.shoe or 'nothing'}, the camera saw {self.camera or 'nothing'}"

    @property
    def public_detail(self) -> str:
        """What a viewer may hear: no reading, for the card may lie face down (a hole card, a
        double-down card); the dealer settles it from the readings."""
        if self.shoe and self.camera:
            return "the shoe and the camera read the card differently"
        if self.shoe or self.camera:
            return f"only the {'shoe' if self.shoe else 'camera'} read the card"
        return self.detail  # nothing was read: it names no card

    def to_json(self) -> dict[str, Any]:
        return {"shoe": self.shoe, "camera": self.camera, "detail": self.detail}


GameT = TypeVar("GameT")


def game_of(table: TableState, key: str, kind: type[GameT], opener: str) -> GameT:
    """The game kept under ``key``, or an error saying which operation opens one."""
    game = table.games.get(key)
    if not isinstance(game, kind):
        raise IllegalOperation(f"no {key} game at this table (start one with {opener})")
    return game


def _game_json(game: Any) -> Any:
    to_json = getattr(game, "to_json", None)
    return to_json() if to_json is not None else repr(game)


@register_operation
@dataclass(frozen=True)
class LoadShoe(Operation):
    """Put a new shoe on the table (replacing any earlier one)."""

    kind: ClassVar[str] = "shoe.load"
    decks: int = 6
    pack: str = "standard-52"
    cut_min: int = 0
    cut_max: int = 0
    burn: BurnRule = BurnRule.NONE
    mode: ShoeMode = ShoeMode.KNOWN

    def apply(self, table: TableState) -> None:
        ensure(1 <= self.decks <= 16, f"a shoe holds 1 to 16 decks, not {self.decks}")
        rules = ShoeRules(self.decks, self.pack, CutRule(self.cut_min, self.cut_max), self.burn)
        table.shoe = Shoe(rules, self.mode)


@register_operation
@dataclass(frozen=True)
class ObserveShoe(Operation):
    """The cards come from a physical (or device-simulated) shoe: keep the rules, forget any order."""

    kind: ClassVar[str] = "shoe.observe"

    def apply(self, table: TableState) -> None:
        shoe = table.require_shoe()
        table.shoe = Shoe(shoe.rules, ShoeMode.OBSERVED)


@register_operation
@dataclass(frozen=True)
class ShuffleShoe(Operation):
    """All cards back in the shoe, shuffled. ``cut_behind`` is resolved before logging so a
    replay places the cut card identically; ``seed`` is set only for replayable test shoes."""

    kind: ClassVar[str] = "shoe.shuffle"
    seed: int | None = None
    cut_behind: int | None = None

    def apply(self, table: TableState) -> None:
        rng = Rng.from_seed(self.seed) if self.seed is not None else Rng.system()
        table.require_shoe().shuffle(rng, self.cut_behind)


@register_operation
@dataclass(frozen=True)
class DealCard(Operation):
    """A card left the shoe and was seen as ``card`` (``BK`` if face down and unknown)."""

    kind: ClassVar[str] = "shoe.deal"
    card: Card
    burn: bool = False

    def apply(self, table: TableState) -> None:
        table.require_shoe().record(self.card, burn=self.burn)


@register_operation
@dataclass(frozen=True)
class CutCardOut(Operation):
    """The cut card came out of a physical shoe after ``cards_out`` cards."""

    kind: ClassVar[str] = "shoe.cut-card"
    cards_out: int

    def apply(self, table: TableState) -> None:
        table.require_shoe().place_cut_card(self.cards_out)


@register_operation
@dataclass(frozen=True)
class DeviceCount(Operation):
    """The shoe device's own counter of cards dealt since the shuffle."""

    kind: ClassVar[str] = "shoe.device-count"
    count: int

    def apply(self, table: TableState) -> None:
        ensure(self.count >= 0, f"a device count is not negative, got {self.count}")
        table.require_shoe().reconcile(self.count)


@register_operation
@dataclass(frozen=True)
class CloseShoe(Operation):
    """End of the shoe; ``emptied`` when every card came out (unseen cards are then missing)."""

    kind: ClassVar[str] = "shoe.close"
    emptied: bool = False

    def apply(self, table: TableState) -> None:
        table.require_shoe().close(emptied=self.emptied)


@register_operation
@dataclass(frozen=True)
class TransferChips(Operation):
    """Move chips between accounts (``cage`` for buy-ins and cash-outs)."""

    kind: ClassVar[str] = "chips.transfer"
    source: str
    target: str
    amount: int
    reason: str = ""

    def apply(self, table: TableState) -> None:
        table.ledger.transfer(self.source, self.target, self.amount, self.reason)


@register_operation
@dataclass(frozen=True)
class PauseTable(Operation):
    """A device fault or the dealer stops play until ``source`` is cleared."""

    kind: ClassVar[str] = "table.pause"
    source: str
    reason: str

    def apply(self, table: TableState) -> None:
        ensure(bool(self.source), "a pause names its source (a device or 'dealer')")
        table.paused[self.source] = self.reason


@register_operation
@dataclass(frozen=True)
class ResumeTable(Operation):
    """The fault from ``source`` is cleared."""

    kind: ClassVar[str] = "table.resume"
    source: str

    def apply(self, table: TableState) -> None:
        ensure(self.source in table.paused, f"the table is not paused by {self.source!r}")
        del table.paused[self.source]


@register_operation
@dataclass(frozen=True)
class VoidRecord(Operation):
    """Cancel an earlier record (a mis-entered card, a wrong bet). The record stays in the log;
    replay skips it. The runtime only accepts a void when replay without it still succeeds."""

    kind: ClassVar[str] = "table.void"
    seq: int
    reason: str

    def apply(self, table: TableState) -> None:
        ensure(self.seq >= 1, f"no record {self.seq} to void")
        table.voided[self.seq] = self.reason


@register_operation
@dataclass(frozen=True)
class CorrectCard(Operation):
    """Record ``seq`` dealt a card that was mis-read: it was really ``card``. Replay applies that
    record with the right card, in its place; the runtime checks the rest of the log still holds."""

    kind: ClassVar[str] = "table.correct-card"
    seq: int
    card: Card
    reason: str = ""

    def apply(self, table: TableState) -> None:
        ensure(self.seq >= 1, f"no record {self.seq} to correct")
        table.corrected[self.seq] = self.card.code


@register_operation
@dataclass(frozen=True)
class DisputeCard(Operation):
    """The shoe's reader and the camera disagree about a card: play waits for the dealer."""

    kind: ClassVar[str] = "table.dispute"
    issue: int
    shoe: str | None = None
    camera: str | None = None

    def apply(self, table: TableState) -> None:
        ensure(self.issue not in table.disputes, f"integrity issue {self.issue} is already open")
        table.disputes[self.issue] = dispute = Dispute(self.shoe, self.camera)
        # every viewer sees why play waits: never the readings of a card that may lie face down
        table.paused["integrity"] = "a card needs the dealer: " + dispute.public_detail


@register_operation
@dataclass(frozen=True)
class ResolveDispute(Operation):
    """The dealer says which card it was (the card itself is then dealt by the game's operation)."""

    kind: ClassVar[str] = "table.resolve"
    issue: int
    card: Card

    def apply(self, table: TableState) -> None:
        ensure(self.issue in table.disputes, f"there is no open integrity issue {self.issue}")
        del table.disputes[self.issue]
        if not table.disputes:
            table.paused.pop("integrity", None)
