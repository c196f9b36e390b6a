"""What the shoe games (blackjack, pontoon, baccarat, chemin de fer) share: the link to the table's
shoe, when a shuffle or a burn is due, and chip moves through the ledger.

A game state keeps a reference to the :class:`~dealer.core.table_state.TableState` it lives in, so
that :meth:`prompt` can tell a runtime that the cut card came out without being handed the table.
Every card a game operation receives is recorded in the shoe by that same operation: a runtime logs
the game's card operation *instead of* a bare ``shoe.deal``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from dealer.core.cards import BACK, Card
from dealer.core.errors import IllegalOperation
from dealer.core.money import Chips
from dealer.core.operations import Operation, ensure, register_operation
from dealer.core.rng import Rng
from dealer.core.shoe import BurnRule, IntegrityFault, Shoe, ShoeMode

if TYPE_CHECKING:
    from dealer.core.table_state import TableState


@dataclass
class ShoeLink:
    """Tracks the table's shoe for one game: whether a shuffle or a burn is due."""

    table: TableState | None = field(default=None, repr=False, compare=False)
    shuffle_due_at: int | None = None  # the shoe's shuffle count that must be replaced

    @property
    def shoe(self) -> Shoe | None:
        return None if self.table is None else self.table.shoe

    def require_shoe(self) -> Shoe:
        shoe = self.shoe
        if shoe is None:
            raise IllegalOperation("no shoe is loaded at this table (load one first)")
        return shoe

    @property
    def shuffle_due(self) -> bool:
        shoe = self.shoe
        if shoe is None or not shoe.is_shuffled:
            return True
        return self.shuffle_due_at == shoe.shuffles

    @property
    def empty(self) -> bool:
        """No card left to deal (a known shoe ran out, or every card of an observed one was seen)."""
        shoe = self.shoe
        return shoe is not None and shoe.is_shuffled and shoe.cards_left == 0

    def mark_round_end(self, *, always_shuffle: bool = False) -> None:
        """After a round: if the cut card came out (or the house shuffles every round), a shuffle
        is due before the next one."""
        shoe = self.shoe
        if shoe is not None and (always_shuffle or shoe.round_finished() or shoe.cards_left == 0):
            self.shuffle_due_at = shoe.shuffles

    @property
    def burn_due(self) -> bool:
        shoe = self.shoe
        return shoe is not None and shoe.is_shuffled and not self.shuffle_due and shoe.burns_due > 0

    @property
    def shown_burn(self) -> Card | None:
        """The card shown face up by the baccarat burn rule, if any."""
        shoe = self.shoe
        if shoe is None or not shoe.burned or shoe.rules.burn is not BurnRule.FIRST_CARD_VALUE:
            return None
        first = shoe.burned[0]
        return None if first.is_back else first

    def record_burn(self, card: Card) -> None:
        shoe = self.require_shoe()
        if not self.burn_due:
            raise IllegalOperation("no burn card is due now")
        if shoe.rules.burn is BurnRule.FIRST_CARD_VALUE and not shoe.burned and card.is_back:
            raise IllegalOperation("RULES A3: the first card of the shoe is shown face up, not BK")
        shoe.record(card, burn=True)

    def record_card(self, card: Card) -> None:
        """The card left the shoe: record it (known mode conditions the order on it)."""
        shoe = self.require_shoe()
        if self.shuffle_due:
            raise IllegalOperation("the shoe must be shuffled before more cards are dealt")
        if self.burn_due:
            raise IllegalOperation("the burn card must come out before the deal")
        shoe.record(card)

    def identify(self, card: Card) -> tuple[IntegrityFault, ...]:
        """A card that came out face down and was recorded as ``BK`` is turned up as ``card``.

        Live mode (an observed shoe) names it in the shoe, so that the remaining composition and the
        duplicate check count it from now on. A simulated (known-order) shoe recorded the real card
        when it was dealt — the game only showed it as ``BK`` — so nothing is recorded twice.
        """
        shoe = self.require_shoe()
        if shoe.mode is not ShoeMode.OBSERVED or BACK not in shoe.dealt:
            return ()
        return shoe.identify(card)

    def reshuffle_discards(self, in_play: list[Card], rng: Rng, cut_behind: int | None) -> None:
        """The shoe ran out mid-round: everything but the cards on the layout is shuffled again.

        The layout cards are recorded straight away so that they cannot come out a second time;
        a face-down one (``BK``, observed shoes only) is recorded face down and named when it is
        turned up."""
        shoe = self.require_shoe()
        shoe.shuffle(rng, cut_behind)
        for card in in_play:
            if card.is_back and shoe.mode is not ShoeMode.OBSERVED:
                continue
            shoe.record(card)
        self.shuffle_due_at = None


def move(table: TableState, source: str, target: str, amount: Chips, reason: str) -> None:
    """One ledger transfer (skipped when the amount is zero)."""
    if amount:
        table.ledger.transfer(source, target, amount, reason)


def seat_account(seat: int) -> str:
    return f"seat-{seat}"


@register_operation
@dataclass(frozen=True)
class ReshuffleDiscards(Operation):
    """The shoe ran out in the middle of a round: shuffle the discards and carry on. The cards
    on the layout stay out (they are recorded as dealt again at once)."""

    kind: ClassVar[str] = "shoe.reshuffle-discards"
    game: str
    seed: int | None = None
    cut_behind: int | None = None

    def apply(self, table: TableState) -> None:
        game = table.games.get(self.game)
        if game is None or not hasattr(game, "cards_in_play"):
            raise IllegalOperation(f"no shoe game {self.game!r} at this table")
        link: ShoeLink = game.link
        ensure(link.empty, "the shoe still holds cards: no reshuffle of the discards is needed")
        rng = Rng.from_seed(self.seed) if self.seed is not None else Rng.system()
        link.reshuffle_discards(game.cards_in_play(), rng, self.cut_behind)
