"""Chemin de fer (RULES A4): players bet against the player who holds the bank.

The banker puts up a bank; a player may call "Banco!" for all of it (priority to the caller nearest
the croupier's right, i.e. the lowest seat number), otherwise several players cover parts of it and
the one who staked most plays the hand. The uncovered part ("reliquat") sits out the coup. The
house takes 5 % of every winning bank hand at once. The bank passes to the left when it loses.

Drawing follows the Punto Banco tableau with three option cells, as the seed says (its chart is
lost): the player's draw-or-stand on 5 (the only one the seed names) and two banker options [STD]:
Banker 3 against a player third card of 9, and Banker 5 against a 4. The variation where both sides
draw at their own judgment is the ``free_drawing`` house rule.

>>> from dealer.core.table_state import TableState, ShuffleShoe, TransferChips
>>> from dealer.core.cards import parse_cards
>>> table = TableState()
>>> table.apply(NewCheminDeFer(players=4))
>>> for s in (1, 2, 3, 4):
...     table.apply(TransferChips("cage", f"seat-{s}", 1000))
>>> table.apply(ShuffleShoe(seed=2))
>>> game = table.games["chemin-de-fer"]
>>> table.apply(PutUpBank(100)); table.apply(Banco(3)); table.apply(Banco(2)); table.apply(CloseBets())
>>> game.opponent   # both called: the one nearer the croupier's right plays
2
>>> for card in parse_cards("4S 2H 5D 6C"):   # Player 9 natural against Banker 8
...     table.apply(game.card_operation(card))
>>> table.ledger.balance("seat-2"), game.banker    # the bank lost and passes to the left
(1100, 2)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from dealer.core.cards import Card
from dealer.core.errors import IllegalOperation
from dealer.core.games.baccarat import banker_draws, points, total
from dealer.core.games.base import Prompt, Step
from dealer.core.games.roads import CoupResult, roads
from dealer.core.games.shoe_game import ReshuffleDiscards, ShoeLink, move, seat_account
from dealer.core.ledger import HOUSE
from dealer.core.money import Ratio, Rounding, check_chips, commission
from dealer.core.operations import Operation, can, ensure, register_operation
from dealer.core.shoe import CutRule, Shoe, ShoeMode, ShoeRules
from dealer.core.table_state import game_of

if TYPE_CHECKING:
    from dealer.core.table_state import TableState

GAME = "chemin-de-fer"
BANQUE = "chemin:banque"
STAKES = "chemin:stakes"


@dataclass(frozen=True)
class CheminRules:
    players: int = 8  # RULES A4: 2-8, some games 9 or 12
    decks: int = 8
    commission_percent: int = 5
    commission_rounding: Rounding = Rounding.UP
    player_option_on_5: bool = True  # RULES A4: the player may draw or stand on 5
    banker_options: tuple[tuple[int, int], ...] = ((3, 9), (5, 4))  # [STD] (banker total, player third)
    free_drawing: bool = False  # RULES A4 variation: both sides draw at their own judgment
    auto_player_draws_on_5: bool = False  # the simulated player's choice on 5
    cut_behind: int = 8  # RULES A4: reshuffled only when a few cards are left

    def __post_init__(self) -> None:
        ensure(2 <= self.players <= 12, f"RULES A4: 2 to 12 players, not {self.players}")


class Phase(enum.Enum):
    BANK = "bank"  # the banker announces his bank
    BETTING = "betting"  # banco calls and part stakes
    DEALING = "dealing"
    PLAYER_OPTION = "player-option"
    BANKER_OPTION = "banker-option"


@dataclass
class CheminGame:
    name: ClassVar[str] = GAME
    rules: CheminRules = field(default_factory=CheminRules)
    link: ShoeLink = field(default_factory=ShoeLink)
    phase: Phase = Phase.BANK
    banker: int = 1  # RULES A4: the player to the croupier's right banks first
    bank: int = 0  # chips in the Banque
    coup: int = 0
    banco_calls: list[int] = field(default_factory=list)
    stakes: dict[int, int] = field(default_factory=dict)
    opponent: int | None = None
    player: list[Card] = field(default_factory=list)
    banker_cards: list[Card] = field(default_factory=list)
    player_stood: bool = False
    banker_stood: bool = False
    forced_draw: str | None = None  # an option to draw was taken: the next card goes to that side
    history: list[dict[str, Any]] = field(default_factory=list)
    results: list[CoupResult] = field(default_factory=list)  # this shoe's coups, for the roads
    results_shoe: int = -1  # the shoe (shuffle count) the results belong to

    @property
    def table(self) -> TableState:
        if self.link.table is None:
            raise IllegalOperation("this chemin de fer game is not attached to a table")
        return self.link.table

    def _seats(self) -> range:
        return range(1, self.rules.players + 1)

    @property
    def covered(self) -> int:
        return sum(self.stakes.values())

    @property
    def reliquat(self) -> int:
        """The part of the bank nobody covered this coup."""
        return self.bank - self.covered if self.phase is not Phase.BANK else 0

    # ---- the bank and bets ------------------------------------------------------------------------
    def verify_put_up(self, amount: int) -> None:
        check_chips(amount, "bank")
        ensure(self.phase is Phase.BANK, "RULES A4: the bank is announced before the bets")
        ensure(amount > 0, "a bank must be at least one chip")
        balance = self.table.ledger.balance(seat_account(self.banker))
        ensure(balance >= amount, f"seat {self.banker} has {balance} chips, cannot bank {amount}")

    def put_up(self, amount: int) -> None:
        """The banker puts ``amount`` more into the Banque (a new bank, or adding to one kept)."""
        self.verify_put_up(amount)
        move(self.table, seat_account(self.banker), BANQUE, amount, f"bank of seat {self.banker}")
        self.bank += amount
        self.phase = Phase.BETTING

    def verify_keep_bank(self) -> None:
        ensure(self.phase is Phase.BANK and self.bank > 0, "there is no bank to keep")

    def keep_bank(self) -> None:
        """The banker who won keeps the whole bank in play (RULES A4)."""
        self.verify_keep_bank()
        self.phase = Phase.BETTING

    def verify_withdraw(self) -> None:
        ensure(self.phase in (Phase.BANK, Phase.BETTING) and not self.stakes and not self.banco_calls,
               "the banker may pass the bank only between coups")

    def withdraw(self) -> None:
        """The banker takes his bank back and the bank passes to the left."""
        self.verify_withdraw()
        move(self.table, BANQUE, seat_account(self.banker), self.bank, f"bank returned to seat {self.banker}")
        self._pass_bank()

    def _pass_bank(self) -> None:
        self.bank = 0
        self.banker = self.banker % self.rules.players + 1  # RULES A4: the player to his left
        self.phase = Phase.BANK

    def verify_banco(self, seat: int) -> None:
        ensure(self.phase is Phase.BETTING, "RULES A4: banco is called after the bank is announced")
        ensure(seat in self._seats() and seat != self.banker, f"seat {seat} cannot call banco")
        ensure(seat not in self.banco_calls, f"seat {seat} already called banco")
        balance = self.table.ledger.balance(seat_account(seat))
        ensure(balance >= self.bank,
               f"RULES A4: banco matches the whole bank ({self.bank}); seat {seat} has {balance}")

    def banco(self, seat: int) -> None:
        self.verify_banco(seat)
        self.banco_calls.append(seat)

    def verify_stake(self, seat: int, amount: int) -> None:
        check_chips(amount, "stake")
        ensure(self.phase is Phase.BETTING, "bets are placed after the bank is announced")
        ensure(seat in self._seats() and seat != self.banker, f"seat {seat} cannot bet against its own bank")
        ensure(amount > 0, "a stake is at least one chip")
        ensure(self.covered + amount <= self.bank,
               f"RULES A4: stakes cover at most the bank ({self.bank - self.covered} left uncovered)")
        balance = self.table.ledger.balance(seat_account(seat))
        ensure(balance >= amount, f"seat {seat} has {balance} chips, cannot stake {amount}")

    def stake(self, seat: int, amount: int) -> None:
        """Cover part of the bank (when nobody calls banco)."""
        self.verify_stake(seat, amount)
        move(self.table, seat_account(seat), STAKES, amount, f"stake seat {seat}")
        self.stakes[seat] = self.stakes.get(seat, 0) + amount

    def verify_close(self) -> None:
        ensure(self.phase is Phase.BETTING, "no bets are open")
        ensure(bool(self.banco_calls or self.stakes), "nobody has bet against the bank")
        ensure(not self.link.shuffle_due, "shuffle the shoe first")
        ensure(not self.link.burn_due, "burn first")

    def can_close(self) -> bool:
        return can(self.verify_close)

    def close(self) -> None:
        """Bets are closed: decide who plays the hand against the bank, then deal."""
        self.verify_close()
        if self.banco_calls:
            # RULES A4: banco has priority; among callers, the one nearest the croupier's right.
            caller = min(self.banco_calls)
            for seat, amount in self.stakes.items():
                move(self.table, STAKES, seat_account(seat), amount, f"stake returned seat {seat} (banco)")
            self.stakes = {caller: self.bank}
            move(self.table, seat_account(caller), STAKES, self.bank, f"banco seat {caller}")
            self.opponent = caller
        else:
            top = max(self.stakes.values())  # RULES A4: the one who puts up most plays the hand
            self.opponent = min(s for s, a in self.stakes.items() if a == top)
        shoe = self.link.require_shoe()
        if self.results_shoe != shoe.shuffles:
            self.results, self.results_shoe = [], shoe.shuffles  # a new shoe starts new roads
        self.coup += 1
        self.player, self.banker_cards = [], []
        self.player_stood = self.banker_stood = False
        self.phase = Phase.DEALING

    # ---- cards and options ------------------------------------------------------------------------
    def card_target(self) -> str | None:
        if self.phase is Phase.BETTING and self.link.burn_due:
            return "burn"
        if self.phase is not Phase.DEALING:
            return None
        p, b = len(self.player), len(self.banker_cards)
        if p + b < 4:
            return "player" if p == b else "banker"
        if self.forced_draw is not None:
            return self.forced_draw
        pt, bt = total(self.player), total(self.banker_cards)
        if pt >= 8 or bt >= 8:
            return None
        if p == 2 and not self.player_stood:
            if self._player_free(pt):
                return None
            if self._player_must_draw(pt):
                return "player"
        if b == 2 and not self.banker_stood:
            third = points(self.player[2]) if p == 3 else None
            return "banker" if self._banker_must_draw(bt, third) else None
        return None

    def _player_free(self, pt: int) -> bool:
        return self.rules.free_drawing and pt <= 7 or (self.rules.player_option_on_5 and pt == 5)

    def _player_must_draw(self, pt: int) -> bool:
        return not self._player_free(pt) and pt <= 5

    def _banker_free(self, bt: int, third: int | None) -> bool:
        if self.rules.free_drawing:
            return bt <= 7
        return third is not None and (bt, third) in self.rules.banker_options

    def _banker_must_draw(self, bt: int, third: int | None) -> bool:
        return not self._banker_free(bt, third) and banker_draws(bt, third)

    def verify_card(self, card: Card) -> None:
        ensure(self.card_target() is not None, f"no card is due now ({self.prompt().text})")
        ensure(not card.is_joker and not card.is_back or self.card_target() == "burn",
               "RULES A4: report the card's face (every third card is dealt face up)")

    def take_card(self, card: Card) -> None:
        self.verify_card(card)
        target = self.card_target()
        if target == "burn":
            self.link.record_burn(card)
            return
        self.link.record_card(card)
        self.forced_draw = None
        if target == "player":
            self.player.append(card)
            if len(self.player) == 3:
                self.player_stood = True
        else:
            self.banker_cards.append(card)
            if len(self.banker_cards) == 3:
                self.banker_stood = True
        self._next()

    def _next(self) -> None:
        if self.card_target() is not None:
            return
        p, b = len(self.player), len(self.banker_cards)
        if p + b < 4:
            return
        pt, bt = total(self.player), total(self.banker_cards)
        natural = p == 2 and b == 2 and (pt >= 8 or bt >= 8)
        if not natural and p == 2 and not self.player_stood and self._player_free(pt):
            self.phase = Phase.PLAYER_OPTION
            return
        third = points(self.player[2]) if p == 3 else None
        if not natural and b == 2 and not self.banker_stood and self._banker_free(bt, third):
            self.phase = Phase.BANKER_OPTION
            return
        self._settle()

    def verify_choice(self, side: str) -> None:
        expected = Phase.PLAYER_OPTION if side == "player" else Phase.BANKER_OPTION
        ensure(self.phase is expected, f"RULES A4: the {side} has no option now")

    def choose(self, side: str, draw: bool) -> None:
        """An option cell decided: "Carte" (draw) or stand."""
        self.verify_choice(side)
        self.phase = Phase.DEALING
        if draw:
            self.forced_draw = side  # the next card goes to that side
            return
        if side == "player":
            self.player_stood = True
        else:
            self.banker_stood = True
        self._next()

    # ---- settlement -------------------------------------------------------------------------------
    def _settle(self) -> None:
        pt, bt = total(self.player), total(self.banker_cards)
        winner = "P" if pt > bt else "B" if bt > pt else "T"
        natural = len(self.player) == 2 and len(self.banker_cards) == 2 and (pt >= 8 or bt >= 8)
        self.results.append(CoupResult(winner, pt, bt, natural, self.player[0].rank == self.player[1].rank,
                                       self.banker_cards[0].rank == self.banker_cards[1].rank))
        table = self.table
        won = 0
        for seat, amount in self.stakes.items():
            if winner == "T":  # RULES A4: a stand-off; bets withdrawn
                move(table, STAKES, seat_account(seat), amount, f"stand-off seat {seat}")
            elif winner == "B":
                move(table, STAKES, BANQUE, amount, f"bank wins seat {seat}")
                won += amount
            else:
                move(table, STAKES, seat_account(seat), amount, f"stake back seat {seat}")
                move(table, BANQUE, seat_account(seat), amount, f"bank pays seat {seat}")
        self.bank += won if winner == "B" else -self.covered if winner == "P" else 0
        fee = 0
        if won:  # RULES A4: 5 % of every winning bank hand, taken at once
            rate = Ratio(self.rules.commission_percent, 100)
            fee = commission(won, rate, self.rules.commission_rounding).amount
            move(table, BANQUE, HOUSE, fee, "chemin de fer commission")
            self.bank -= fee
        self.history.append({"coup": self.coup, "banker": self.banker, "opponent": self.opponent,
                             "player_cards": [c.code for c in self.player],
                             "banker_cards": [c.code for c in self.banker_cards],
                             "player_total": pt, "banker_total": bt, "winner": winner,
                             "stakes": {str(s): a for s, a in self.stakes.items()}, "commission": fee})
        del self.history[:-20]
        self.stakes, self.banco_calls, self.opponent = {}, [], None
        self.forced_draw = None
        self.link.mark_round_end()
        if winner == "P":  # RULES A4: the bank passes to the left when it loses
            move(table, BANQUE, seat_account(self.banker), self.bank, f"reliquat to seat {self.banker}")
            self._pass_bank()
        else:
            self.phase = Phase.BANK  # the banker keeps the bank (keep or add to it, or withdraw)

    # ---- Game protocol ------------------------------------------------------------------------------
    def prompt(self) -> Prompt:
        if self.phase is Phase.BANK:
            if self.bank:
                return Prompt(Step.DECIDE, seat_account(self.banker), ("keep", "add", "withdraw"),
                              text=f"seat {self.banker} keeps the bank of {self.bank}, adds to it or passes")
            return Prompt(Step.BET, seat_account(self.banker), ("bank",),
                          text=f"seat {self.banker} announces the bank")
        if self.link.shuffle_due and self.phase is Phase.BETTING:
            return Prompt(Step.SHUFFLE, "dealer", text="shuffle the eight packs")
        target = self.card_target()
        if target == "burn":
            return Prompt(Step.CARD, "burn", text="burn")
        if self.phase is Phase.BETTING:
            return Prompt(Step.BET, None, ("banco", "stake", "close"),
                          text=f"bank {self.bank}: banco or stakes")
        if self.phase is Phase.PLAYER_OPTION:
            return Prompt(Step.DECIDE, seat_account(self.opponent or 0), ("carte", "stand"),
                          text="the player has 5: carte or stand")
        if self.phase is Phase.BANKER_OPTION:
            return Prompt(Step.DECIDE, seat_account(self.banker), ("carte", "stand"),
                          text="the banker's option: carte or stand")
        if self.link.empty:
            return Prompt(Step.DECIDE, "dealer", ("reshuffle",), text="the shoe is empty: reshuffle")
        return Prompt(Step.CARD, target, text=f"card to the {target}")

    def card_operation(self, card: Card) -> Operation:
        return CheminCard(card)

    def auto_operation(self) -> Operation | None:
        if self.phase is Phase.DEALING and self.link.empty:
            return ReshuffleDiscards(GAME)
        if self.phase is Phase.PLAYER_OPTION:
            pt = total(self.player)
            draw = pt <= 4 or (pt == 5 and self.rules.auto_player_draws_on_5)
            return CheminChoice("player", draw)
        if self.phase is Phase.BANKER_OPTION:
            third = points(self.player[2]) if len(self.player) == 3 else None
            return CheminChoice("banker", banker_draws(total(self.banker_cards), third))
        return None

    def cards_in_play(self) -> list[Card]:
        return list(self.player + self.banker_cards) if self.phase in (
            Phase.DEALING, Phase.PLAYER_OPTION, Phase.BANKER_OPTION) else []

    def to_json(self) -> dict[str, Any]:
        shoe = self.link.shoe
        results = self.results if shoe is not None and self.results_shoe == shoe.shuffles else []
        return {"game": GAME, "phase": self.phase.value, "banker": self.banker, "bank": self.bank,
                "reliquat": self.reliquat, "coup": self.coup, "prompt": self.prompt().to_json(),
                "banco_calls": list(self.banco_calls), "stakes": {str(s): a for s, a in self.stakes.items()},
                "opponent": self.opponent,
                "player": {"cards": [c.code for c in self.player], "total": total(self.player)},
                "banker_hand": {"cards": [c.code for c in self.banker_cards],
                                "total": total(self.banker_cards)},
                "roads": roads(results),  # the same scoreboards as baccarat (RULES A3/A4 values)
                "last_coups": self.history[-5:]}



def _game(table: TableState) -> CheminGame:
    return game_of(table, GAME, CheminGame, "chemin.new")


@register_operation
@dataclass(frozen=True)
class NewCheminDeFer(Operation):
    """Open chemin de fer. ``options`` lists banker option cells as "3v9,5v4" ("" for none);
    ``free_drawing`` is the seed's own-judgment variation."""

    kind: ClassVar[str] = "chemin.new"
    players: int = 8
    options: str = "3v9,5v4"
    player_option_on_5: bool = True
    free_drawing: bool = False
    mode: ShoeMode = ShoeMode.KNOWN
    rules: str = ""

    def apply(self, table: TableState) -> None:
        cells: list[tuple[int, int]] = []
        for token in filter(None, (t.strip() for t in self.options.split(","))):
            b, _, t = token.partition("v")
            ensure(b.isdigit() and t.isdigit() and int(b) <= 7 and int(t) <= 9,
                   f"bad option cell {token!r}: expected BANKERvTHIRD such as 3v9")
            cells.append((int(b), int(t)))
        rules = CheminRules(players=self.players, banker_options=tuple(cells),
                            player_option_on_5=self.player_option_on_5, free_drawing=self.free_drawing)
        table.shoe = Shoe(ShoeRules(rules.decks, "standard-52", CutRule(rules.cut_behind, rules.cut_behind)),
                          self.mode)
        table.games[GAME] = CheminGame(rules=rules, link=ShoeLink(table))


@register_operation
@dataclass(frozen=True)
class PutUpBank(Operation):
    kind: ClassVar[str] = "chemin.bank"
    amount: int

    def apply(self, table: TableState) -> None:
        _game(table).put_up(self.amount)


@register_operation
@dataclass(frozen=True)
class KeepBank(Operation):
    kind: ClassVar[str] = "chemin.keep-bank"

    def apply(self, table: TableState) -> None:
        _game(table).keep_bank()


@register_operation
@dataclass(frozen=True)
class WithdrawBank(Operation):
    kind: ClassVar[str] = "chemin.withdraw"

    def apply(self, table: TableState) -> None:
        _game(table).withdraw()


@register_operation
@dataclass(frozen=True)
class Banco(Operation):
    kind: ClassVar[str] = "chemin.banco"
    seat: int

    def apply(self, table: TableState) -> None:
        _game(table).banco(self.seat)


@register_operation
@dataclass(frozen=True)
class CheminStake(Operation):
    kind: ClassVar[str] = "chemin.stake"
    seat: int
    amount: int

    def apply(self, table: TableState) -> None:
        _game(table).stake(self.seat, self.amount)


@register_operation
@dataclass(frozen=True)
class CloseBets(Operation):
    kind: ClassVar[str] = "chemin.close"

    def apply(self, table: TableState) -> None:
        _game(table).close()


@register_operation
@dataclass(frozen=True)
class CheminCard(Operation):
    kind: ClassVar[str] = "chemin.card"
    card: Card

    def apply(self, table: TableState) -> None:
        _game(table).take_card(self.card)


@register_operation
@dataclass(frozen=True)
class CheminChoice(Operation):
    """An option cell decided: ``side`` "player" or "banker"; ``draw`` True for "Carte"."""

    kind: ClassVar[str] = "chemin.choice"
    side: str
    draw: bool

    def apply(self, table: TableState) -> None:
        _game(table).choose(self.side, self.draw)
