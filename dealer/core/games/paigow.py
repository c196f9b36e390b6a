"""Pai gow poker with its dice (RULES A8, and 0.1 item 1).

A round: players bet; the 53-card pack (52 + the joker as the bug) is dealt as **seven hands of
seven in a line**, card *i* to pile *i mod 7* (the last four cards are not dealt); **three dice**
(or an RNG with the same distribution, logged as dice) pick the position that takes the first pile,
counting the dealer as position 1 and going counter-clockwise: position = ((total − 1) mod 7) + 1.
The other piles follow in order; piles at vacant positions are discarded face down. Each hand is
set into a five-card back and a two-card front (the banker's by the house way when the house
banks); then every player is settled against the banker: win both → paid 1:1 less commission (5 %
[STD], none in the home game), lose both or foul → lost, otherwise a push; copies go to the banker.

Positions: 1 is the dealer's spot; seat account ``seat-k`` sits at position k + 1 (``seat-1`` is the
first seat to the dealer's right). The banker is ``house`` (position 1) or a player (that seat's
position), who must cover every wager.

Live mode (the dealer reports cards, dice and settings) with a stacked pack:

>>> from dealer.core.table_state import TableState, TransferChips
>>> from dealer.core.cards import parse_cards
>>> table = TableState()
>>> table.apply(NewPaiGowGame())
>>> table.apply(TransferChips("cage", "seat-1", 100, "buy-in"))
>>> table.apply(PlaceBet("seat-1", 20))
>>> table.apply(RollDice((1, 3, 4)))          # total 8 -> the first pile goes to position 1 (dealer)
>>> hands = ["AS KS QS JS 10S 2D 3C", "4C 4D 9H 9S JC 5H 6D"] + ["BK"] * 5
>>> for i in range(49):
...     table.apply(PaiGowCard(Card.parse(hands[i % 7].split()[i // 7] if i % 7 < 2 else "BK")))
>>> game = table.games["pai-gow"]
>>> game.hand_at(1)[:3], game.hand_at(2)[:2]
(('AS', 'KS', 'QS'), ('4C', '4D'))
>>> table.apply(game.auto_operation())         # the dealer's hand by the house way
>>> table.apply(SetHand(2, parse_cards("4C 4D JC 5H 6D"), parse_cards("9H 9S")))
>>> game.settings[2].foul
True
>>> table.apply(Settle())
>>> table.ledger.balance("seat-1"), table.ledger.balance("house")
(80, 20)
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from dealer.core.cards import BACK, Card
from dealer.core.errors import IllegalOperation
from dealer.core.evaluation.paigow_optimal import optimal_setting
from dealer.core.evaluation.paigow_way import HOUSE_WAYS, HouseWay, Setting, house_way
from dealer.core.games.base import Prompt, Step
from dealer.core.ledger import HOUSE
from dealer.core.money import Ratio, Rounding, commission
from dealer.core.operations import Operation, ensure, register_operation
from dealer.core.rng import Rng
from dealer.core.table_state import TableState

__all__ = ["NewPaiGowGame", "PaiGowCard", "PaiGowGame", "PaiGowRules", "PassBank", "PlaceBet", "RollDice",
           "SetHand", "Settle", "NewRound", "first_position", "pile_positions"]

GAME_KEY = "pai-gow"
BETS = "pai-gow-bets"  # ledger account holding the wagers of the round
POSITIONS = 7
HAND = 7
DEALT = POSITIONS * HAND  # 49; four cards stay behind


def first_position(total: int) -> int:
    """RULES A8: the position (dealer = 1, counter-clockwise) that takes the first hand for a dice total.

    >>> [first_position(t) for t in (1, 8, 15, 2, 9, 16, 7, 14)]
    [1, 1, 1, 2, 2, 2, 7, 7]
    """
    if not 1 <= total <= 18:
        raise IllegalOperation(f"RULES A8: a three-dice total is 3 to 18 (1..18 from an RNG), got {total}")
    return (total - 1) % POSITIONS + 1


def pile_positions(total: int) -> tuple[int, ...]:
    """Position receiving pile 0, 1, ... 6 (piles in dealing order)."""
    first = first_position(total)
    return tuple((first - 1 + k) % POSITIONS + 1 for k in range(POSITIONS))


def seat_of(position: int) -> str:
    return f"seat-{position - 1}"


def position_of(account: str) -> int:
    if account == HOUSE:
        return 1
    if account.startswith("seat-") and account[5:].isdigit() and 1 <= int(account[5:]) <= POSITIONS - 1:
        return int(account[5:]) + 1
    raise IllegalOperation(f"a pai gow seat is 'seat-1' .. 'seat-6' (or 'house'), not {account!r}")


class Phase(enum.Enum):
    BETTING = "betting"
    DEALING = "dealing"
    SETTING = "setting"
    SETTLING = "settling"
    OVER = "over"


@dataclass(frozen=True)
class PaiGowRules:
    """House rules; every [STD] choice is a field (RULES A8)."""

    commission: Ratio | None = Ratio(5, 100)  # [STD] 5 %; None = the home game's no commission
    commission_rounding: Rounding = Rounding.UP
    house_way: str = "casino"
    home_game: bool = False  # players bank in turn; no commission
    deals_per_bank: int = 2  # home game: deals before the bank passes to the right
    min_bet: int = 1
    max_bet: int | None = None
    banker_pays_commission: bool = True  # a player-banker pays commission on his net win to the house

    def __post_init__(self) -> None:
        if self.house_way not in HOUSE_WAYS:
            raise IllegalOperation(
                f"unknown house way {self.house_way!r}: expected one of {sorted(HOUSE_WAYS)}")
        if self.min_bet < 1 or (self.max_bet is not None and self.max_bet < self.min_bet):
            raise IllegalOperation(f"bet limits need 1 <= min <= max, got {self.min_bet}..{self.max_bet}")

    @property
    def way(self) -> HouseWay:
        return HOUSE_WAYS[self.house_way]

    @property
    def rate(self) -> Ratio | None:
        return None if self.home_game else self.commission

    def to_json(self) -> dict[str, Any]:
        return {"commission": None if self.rate is None else str(self.rate), "house_way": self.house_way,
                "home_game": self.home_game, "deals_per_bank": self.deals_per_bank,
                "min_bet": self.min_bet, "max_bet": self.max_bet,
                "commission_rounding": self.commission_rounding.value}


@dataclass
class PaiGowGame:
    """The state of a pai gow table (see the module docs)."""

    name: ClassVar[str] = GAME_KEY
    rules: PaiGowRules = field(default_factory=PaiGowRules)
    banker: str = HOUSE
    table: TableState | None = field(default=None, repr=False, compare=False)
    phase: Phase = Phase.BETTING
    round: int = 1
    deals_by_banker: int = 0
    bets: dict[str, int] = field(default_factory=dict)
    dice: tuple[int, ...] | None = None
    dice_source: str = ""
    piles: list[list[Card]] = field(default_factory=lambda: [[] for _ in range(POSITIONS)])
    settings: dict[int, Setting] = field(default_factory=dict)
    results: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    remainders: Fraction = Fraction(0)

    # ---- positions and hands -----------------------------------------------------------------------
    @property
    def banker_position(self) -> int:
        return position_of(self.banker)

    @property
    def cards_dealt(self) -> int:
        return sum(len(p) for p in self.piles)

    def active_positions(self) -> list[int]:
        """Positions whose hands are played: the banker's and every position with a bet."""
        active = {self.banker_position} | {position_of(s) for s in self.bets}
        return sorted(active)

    def hand_at(self, position: int) -> tuple[str, ...]:
        """The cards at ``position`` (after dice and deal), as codes; unknown cards are ``BK``."""
        cards = self._cards_at(position)
        return tuple(c.code for c in cards)

    def _cards_at(self, position: int) -> list[Card]:
        ensure(self.dice is not None and self.cards_dealt == DEALT,
               "RULES A8: hands are assigned once all 49 cards are dealt and the dice are thrown")
        assert self.dice is not None
        pile = pile_positions(sum(self.dice)).index(position)
        return self.piles[pile]

    # ---- bets ------------------------------------------------------------------------------------------
    def verify_bet(self, table: TableState, seat: str, amount: int) -> None:
        ensure(self.phase is Phase.BETTING and self.cards_dealt == 0 and self.dice is None,
               "bets are placed before the dice and the deal")
        position_of(seat)
        ensure(seat != self.banker, "the banker does not bet against himself")
        ensure(seat not in self.bets, f"{seat} already has a bet this round")
        ensure(amount >= self.rules.min_bet and (self.rules.max_bet is None or amount <= self.rules.max_bet),
               f"a bet is {self.rules.min_bet} to {self.rules.max_bet or 'no limit'} chips, not {amount}")
        ensure(table.ledger.balance(seat) >= amount, f"{seat} has {table.ledger.balance(seat)} chips, "
                                                     f"not {amount}")
        if self.banker != HOUSE:
            covered = sum(self.bets.values()) + amount
            ensure(table.ledger.balance(self.banker) >= covered,
                   f"RULES A8: the banker {self.banker} must cover every wager: has "
                   f"{table.ledger.balance(self.banker)}, wagers would total {covered}")

    def place_bet(self, table: TableState, seat: str, amount: int) -> None:
        self.verify_bet(table, seat, amount)
        table.ledger.transfer(seat, BETS, amount, f"pai gow bet, round {self.round}")
        self.bets[seat] = amount

    # ---- dice and cards ------------------------------------------------------------------------------
    def verify_dice(self, dice: tuple[int, ...], source: str) -> None:
        ensure(self.phase in (Phase.BETTING, Phase.DEALING) and self.dice is None,
               "the dice are thrown once per round, before the hands are set")
        ensure(source in ("dice", "rng"), f"dice source is 'dice' or 'rng', not {source!r}")
        ensure(len(dice) == 3 and all(1 <= d <= 6 for d in dice),
               f"RULES A8: three dice showing 1..6 each, got {list(dice)}")

    def roll_dice(self, dice: tuple[int, ...], source: str) -> None:
        self.verify_dice(dice, source)
        ensure(bool(self.bets) or self.banker != HOUSE, "no bets: nothing to deal for")
        self.dice, self.dice_source = tuple(dice), source
        self.phase = Phase.DEALING
        self._maybe_setting()

    def verify_card(self, card: Card) -> None:
        ensure(self.phase in (Phase.BETTING, Phase.DEALING) and self.cards_dealt < DEALT,
               "RULES A8: seven hands of seven: no card is dealt now")
        if not card.is_back:
            seen = [c for p in self.piles for c in p]
            ensure(card not in seen, f"{card.code} was already dealt this round")

    def deal_card(self, table: TableState, card: Card) -> None:
        self.verify_card(card)
        ensure(bool(self.bets) or self.banker != HOUSE, "no bets: nothing to deal for")
        if table.shoe is not None:
            table.shoe.record(card)
        self.piles[self.cards_dealt % POSITIONS].append(card)
        self.phase = Phase.DEALING
        self._maybe_setting()

    def _maybe_setting(self) -> None:
        if self.dice is not None and self.cards_dealt == DEALT:
            self.phase = Phase.SETTING

    # ---- setting ------------------------------------------------------------------------------------
    def verify_set(self, position: int, setting: Setting) -> None:
        ensure(self.phase is Phase.SETTING, "hands are set after the deal and the dice")
        ensure(position in self.active_positions(),
               f"position {position} has no bet: its hand was discarded face down (RULES A8)")
        ensure(position not in self.settings, f"RULES A8: position {position}'s hand is already set")
        dealt = self._cards_at(position)
        cards = list(setting.back) + list(setting.front)
        known = Counter(c for c in dealt if not c.is_back)
        given = Counter(cards)
        ensure(all(not c.is_back for c in cards), "a set hand shows all seven faces")
        ensure(not known - given, f"the setting leaves out {' '.join(c.code for c in known - given)} dealt "
                                  f"to position {position}")
        unknown = sum(1 for c in dealt if c.is_back)
        extra = given - known
        ensure(sum(extra.values()) == unknown and all(v == 1 for v in given.values()),
               f"position {position} holds {' '.join(c.code for c in dealt)}; the setting does not match")
        elsewhere = {c for p in self.piles for c in p if not c.is_back} - set(dealt)
        elsewhere |= {c for pos, s in self.settings.items() for c in s.back + s.front}
        clash = [c.code for c in extra if c in elsewhere]
        ensure(not clash, f"{' '.join(clash)} is already in another hand")
        if position == self.banker_position and self.banker == HOUSE:
            way = house_way(cards, self.rules.way)
            ensure((way.back_value, way.front_value) == (setting.back_value, setting.front_value),
                   f"RULES A8: the dealer sets his hand by the house way: back "
                   f"{' '.join(c.code for c in way.back)}, front {' '.join(c.code for c in way.front)}")

    def can_set(self, position: int, setting: Setting) -> bool:
        try:
            self.verify_set(position, setting)
        except IllegalOperation:
            return False
        return True

    def set_hand(self, position: int, setting: Setting) -> None:
        self.verify_set(position, setting)
        self.settings[position] = setting
        if all(p in self.settings for p in self.active_positions()):
            self.phase = Phase.SETTLING

    # ---- settlement -----------------------------------------------------------------------------------
    def verify_settle(self) -> None:
        ensure(self.phase is Phase.SETTLING, "settle once every hand in play is set")

    def settle(self, table: TableState) -> None:
        self.verify_settle()
        banker = self.settings[self.banker_position]
        rate = self.rules.rate
        banker_net = 0
        results = []
        # RULES A8: settle starting with the player to the dealer's right (counter-clockwise order).
        for seat in sorted(self.bets, key=position_of):
            stake = self.bets[seat]
            mine = self.settings[position_of(seat)]
            outcome = compare(mine, banker)
            row: dict[str, Any] = {"seat": seat, "bet": stake, "outcome": outcome, "won": 0, "commission": 0}
            if outcome == "win":
                fee = commission(stake, rate, self.rules.commission_rounding) if rate else None
                fee_amount = fee.amount if fee else 0
                if fee:
                    self.remainders += fee.remainder
                table.ledger.transfer(BETS, seat, stake, "pai gow bet returned")
                table.ledger.transfer(self.banker, seat, stake, "pai gow win")
                table.ledger.transfer(seat, HOUSE, fee_amount, "pai gow commission")
                row["won"], row["commission"] = stake - fee_amount, fee_amount
                banker_net -= stake
            elif outcome == "lose":
                table.ledger.transfer(BETS, self.banker, stake, "pai gow loss")
                row["won"] = -stake
                banker_net += stake
            else:
                table.ledger.transfer(BETS, seat, stake, "pai gow push")
            results.append(row)
        if self.banker != HOUSE and rate and self.rules.banker_pays_commission and banker_net > 0:
            fee = commission(banker_net, rate, self.rules.commission_rounding)
            self.remainders += fee.remainder
            table.ledger.transfer(self.banker, HOUSE, fee.amount, "pai gow banker commission")
        self.results = results
        self.history.append({"round": self.round, "dice": list(self.dice or ()), "banker": self.banker,
                             "results": results})
        self.phase = Phase.OVER

    # ---- next round and the bank -------------------------------------------------------------------
    def verify_new_round(self, banker: str | None) -> None:
        ensure(self.phase is Phase.OVER, "a new round starts after settlement")
        if banker is not None:
            position_of(banker)

    def new_round(self, table: TableState, banker: str | None) -> None:
        self.verify_new_round(banker)
        self.deals_by_banker += 1
        if banker is not None and banker != self.banker:
            self.banker, self.deals_by_banker = banker, 0
        elif self.rules.home_game and self.deals_by_banker >= self.rules.deals_per_bank:
            self._pass_bank(table)
        self.round += 1
        self.phase = Phase.BETTING
        self.bets, self.dice, self.dice_source, self.settings, self.results = {}, None, "", {}, []
        self.piles = [[] for _ in range(POSITIONS)]

    def _pass_bank(self, table: TableState) -> None:
        """RULES A8 (home game): the bank passes to the player on the dealer's right."""
        start = self.banker_position
        order = [seat_of((start - 2 + k) % (POSITIONS - 1) + 2) for k in range(1, POSITIONS)]
        seated = [s for s in order if s != self.banker and table.ledger.balance(s) > 0]
        if seated:
            self.banker, self.deals_by_banker = seated[0], 0

    # ---- Game protocol -----------------------------------------------------------------------------
    def prompt(self) -> Prompt:
        if self.phase is Phase.BETTING:
            return Prompt(Step.BET, "players", ("bet", "dice", "card"),
                          "place bets, then throw the dice and deal")
        if self.phase is Phase.DEALING:
            if self.dice is None:
                return Prompt(Step.DECIDE, "dealer", ("dice", "card"), "throw the three dice")
            pile = self.cards_dealt % POSITIONS + 1
            return Prompt(Step.CARD, f"pile-{pile}", ("card",), f"deal card {self.cards_dealt + 1} of 49")
        if self.phase is Phase.SETTING:
            waiting = [p for p in self.active_positions() if p not in self.settings]
            who = "banker" if waiting[0] == self.banker_position else seat_of(waiting[0])
            return Prompt(Step.DECIDE, who, ("set",), f"set the hand at position {waiting[0]}")
        if self.phase is Phase.SETTLING:
            return Prompt(Step.SETTLE, "dealer", ("settle",), "compare every hand with the banker's")
        return Prompt(Step.BET, "dealer", ("new-round",), "start the next round")

    def card_operation(self, card: Card) -> Operation:
        return PaiGowCard(card)

    def auto_operation(self) -> Operation | None:
        """Simulated mode: dice by RNG (three dice), house way for the banker, optimal setting for players."""
        in_play = bool(self.bets) or self.banker != HOUSE
        if self.phase in (Phase.BETTING, Phase.DEALING) and self.dice is None and in_play:
            return RollDice(Rng.system().dice(3), source="rng")
        if self.phase is Phase.SETTING:
            position = next(p for p in self.active_positions() if p not in self.settings)
            cards = self._cards_at(position)
            if any(c.is_back for c in cards):
                return None  # live mode: the faces must be reported with the setting
            if position == self.banker_position:
                s = house_way(cards, self.rules.way)
            else:
                s = optimal_setting(cards, self.rules.way, self.rules.rate.fraction if self.rules.rate else 0
                                    ).setting
            return SetHand(position, s.back, s.front)
        if self.phase is Phase.SETTLING:
            return Settle()
        if self.phase is Phase.OVER:
            return NewRound()
        return None

    def to_json(self) -> dict[str, Any]:
        hands: dict[str, Any] = {}
        if self.phase in (Phase.SETTING, Phase.SETTLING, Phase.OVER):
            for p in self.active_positions():
                s = self.settings.get(p)
                hands[str(p)] = s.to_json() if s else {"cards": len(self._cards_at(p)), "set": False}
        return {
            "game": GAME_KEY, "rules": self.rules.to_json(), "round": self.round, "phase": self.phase.value,
            "banker": self.banker, "banker_position": self.banker_position,
            "bets": dict(sorted(self.bets.items())),
            "dice": None if self.dice is None else {"dice": list(self.dice), "total": sum(self.dice),
                                                    "source": self.dice_source,
                                                    "first_position": first_position(sum(self.dice))},
            "cards_dealt": self.cards_dealt, "hands": hands, "results": self.results,
            "history": self.history[-10:], "rounding_to_house": str(self.remainders),
            "prompt": self.prompt().to_json(),
        }


def compare(player: Setting, banker: Setting) -> str:
    """RULES A8: 'win' (both hands higher), 'lose' (a foul, or neither higher: copies go to the
    banker), else 'push'.

    A fouled banker's hand (possible only for a player-banker) loses to every unfouled hand.
    """
    if player.foul:
        return "lose"
    if banker.foul:
        return "win"
    back = player.back_value > banker.back_value
    front = player.front_value > banker.front_value
    if back and front:
        return "win"
    if not back and not front:
        return "lose"
    return "push"


def pai_gow(table: TableState) -> PaiGowGame:
    game = table.games.get(GAME_KEY)
    ensure(isinstance(game, PaiGowGame), "no pai gow game at this table (start one with pai-gow.new)")
    assert isinstance(game, PaiGowGame)
    return game


# ---- operations ---------------------------------------------------------------------------------


@register_operation
@dataclass(frozen=True)
class NewPaiGowGame(Operation):
    """Open a pai gow table. ``commission`` is ``"5:100"`` style text, ``""`` for none."""

    kind: ClassVar[str] = "pai-gow.new"
    commission: str = "5:100"
    house_way: str = "casino"
    home_game: bool = False
    deals_per_bank: int = 2
    min_bet: int = 1
    max_bet: int | None = None
    banker: str = HOUSE

    def rules(self) -> PaiGowRules:
        rate = Ratio.parse(self.commission) if self.commission else None
        return PaiGowRules(commission=rate, house_way=self.house_way, home_game=self.home_game,
                           deals_per_bank=self.deals_per_bank, min_bet=self.min_bet, max_bet=self.max_bet)

    def apply(self, table: TableState) -> None:
        position_of(self.banker)
        ensure(not (self.banker == HOUSE and self.home_game), "RULES A8: in the home game a player banks")
        table.games[GAME_KEY] = PaiGowGame(self.rules(), banker=self.banker, table=table)


@register_operation
@dataclass(frozen=True)
class PlaceBet(Operation):
    kind: ClassVar[str] = "pai-gow.bet"
    seat: str
    amount: int

    def apply(self, table: TableState) -> None:
        pai_gow(table).place_bet(table, self.seat, self.amount)


@register_operation
@dataclass(frozen=True)
class RollDice(Operation):
    """The three dice (``source="dice"``: read off the table) or an RNG's three dice (``"rng"``)."""

    kind: ClassVar[str] = "pai-gow.dice"
    dice: tuple[int, ...]
    source: str = "dice"

    def apply(self, table: TableState) -> None:
        pai_gow(table).roll_dice(tuple(self.dice), self.source)


@register_operation
@dataclass(frozen=True)
class PaiGowCard(Operation):
    """The next card of the deal in a line (``BK`` when dealt face down unseen)."""

    kind: ClassVar[str] = "pai-gow.card"
    card: Card = BACK

    def apply(self, table: TableState) -> None:
        pai_gow(table).deal_card(table, self.card)


@register_operation
@dataclass(frozen=True)
class SetHand(Operation):
    """The hand at ``position`` set as five cards in back and two in front (faces revealed)."""

    kind: ClassVar[str] = "pai-gow.set"
    position: int
    back: tuple[Card, ...]
    front: tuple[Card, ...]

    def apply(self, table: TableState) -> None:
        pai_gow(table).set_hand(self.position, Setting(tuple(self.back), tuple(self.front)))


@register_operation
@dataclass(frozen=True)
class Settle(Operation):
    kind: ClassVar[str] = "pai-gow.settle"

    def apply(self, table: TableState) -> None:
        pai_gow(table).settle(table)


@register_operation
@dataclass(frozen=True)
class NewRound(Operation):
    """Next round; ``banker`` hands the bank to a player (who must cover every wager) or back to the house."""

    kind: ClassVar[str] = "pai-gow.new-round"
    banker: str | None = None

    def apply(self, table: TableState) -> None:
        pai_gow(table).new_round(table, self.banker)


@register_operation
@dataclass(frozen=True)
class PassBank(Operation):
    """Home game: the bank passes now to the player on the dealer's right."""

    kind: ClassVar[str] = "pai-gow.pass-bank"

    def apply(self, table: TableState) -> None:
        game = pai_gow(table)
        ensure(game.phase is Phase.OVER or (game.phase is Phase.BETTING and not game.bets),
               "the bank passes between rounds")
        game._pass_bank(table)
