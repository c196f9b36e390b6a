"""Casino blackjack with a permanent bank (RULES A1).

The round is a state machine over frozen operations. In **live** mode the dealer deals real cards
and the runtime feeds each one through :meth:`BlackjackGame.card_operation`; the game decides whose
card it is, checks it against the rules and says what must happen next. In **simulated** mode the
engine deals from a known-order shoe and :meth:`BlackjackGame.auto_operation` plays basic strategy
for the seats.

>>> from dealer.core.table_state import TableState, ShuffleShoe, TransferChips
>>> table = TableState()
>>> table.apply(NewBlackjackGame(rules="decks=1"))
>>> table.apply(ShuffleShoe(seed=1, cut_behind=20))
>>> table.apply(TransferChips("cage", "seat-1", 100))
>>> game = table.games["blackjack"]
>>> table.apply(PlaceBet(seat=1, amount=10))
>>> table.apply(StartRound())
>>> game.prompt().text
'deal a card to seat 1'
>>> while game.phase is not Phase.BETTING:
...     op = game.auto_operation() or game.card_operation(table.next_deal().card)
...     table.apply(op)
>>> table.ledger.total()  # chips are only ever moved, never made
0
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, ClassVar

from dealer.core.cards import Card, Rank
from dealer.core.errors import IllegalOperation
from dealer.core.games.base import Prompt, Step
from dealer.core.games.shoe_game import ReshuffleDiscards, ShoeLink, move, seat_account
from dealer.core.ledger import HOUSE
from dealer.core.money import THREE_TO_TWO, TWO_TO_ONE, Ratio, Rounding, check_chips, pay
from dealer.core.operations import Operation, can, ensure, register_operation
from dealer.core.shoe import BLACKJACK_CUT, BurnRule, CutRule, ShoeMode, ShoeRules
from dealer.core.table_state import game_of

if TYPE_CHECKING:
    from dealer.core.table_state import TableState

GAME = "blackjack"
STAKES = "blackjack:stakes"  # chips on the layout: bets, doubles, splits, insurance


# ---- rules ---------------------------------------------------------------------------------------
class DoubleOn(enum.Enum):
    """Which first-two-card totals may be doubled."""

    NINE_TO_ELEVEN = "9-11"  # RULES A1 (the seed)
    TEN_OR_ELEVEN = "10-11"
    ANY_TWO = "any"

    def allows(self, total: int) -> bool:
        if self is DoubleOn.ANY_TWO:
            return True
        return total in ((9, 10, 11) if self is DoubleOn.NINE_TO_ELEVEN else (10, 11))


@dataclass(frozen=True)
class BlackjackRules:
    """House rules. Defaults follow RULES A1; every point the seed leaves open is an option.

    A rules spec is a comma list of tokens (the ``--rules`` of ``dealer analyze blackjack``):

    >>> rules = BlackjackRules.parse("h17,das,6:5,nopeek,decks=2")
    >>> rules.hit_soft_17, rules.double_after_split, str(rules.blackjack_pays), rules.decks
    (True, True, '6:5', 2)
    >>> BlackjackRules.parse(rules.spec()) == rules
    True
    """

    decks: int = 6
    seats: int = 7
    min_bet: int = 2
    max_bet: int = 500
    blackjack_pays: Ratio = THREE_TO_TWO
    rounding: Rounding = Rounding.DOWN  # odd bets at 3:2: the house rounds the half chip down
    hit_soft_17: bool = False  # RULES A1: the dealer stands on soft 17
    peek: bool = True  # RULES A1: the dealer checks for a natural under an ace or ten-card
    insurance: bool = True
    original_bets_only: bool = False  # no-peek games: a dealer natural takes only the original bet
    double_on: DoubleOn = DoubleOn.NINE_TO_ELEVEN
    double_after_split: bool = False  # seed silent
    max_hands: int = 4  # seed silent: split to at most four hands
    resplit_aces: bool = False
    split_ten_values: bool = False  # K+Q may be split (seed: identical ranks only)
    surrender: bool = False  # late surrender, off by default
    burn: bool = False  # burn one card after each shuffle (seed silent)
    continuous_shuffle: bool = False  # every round's cards go straight back (shuffle each round)
    cut_min: int = -1  # -1: RULES A1's 60-75 cards behind the cut card, or a quarter of a small shoe
    cut_max: int = -1

    def __post_init__(self) -> None:
        ensure(1 <= self.decks <= 16, f"a blackjack shoe holds 1 to 16 decks, not {self.decks}")
        ensure(1 <= self.seats <= 7, f"RULES A1: up to seven players, not {self.seats}")
        ensure(1 <= self.min_bet <= self.max_bet, f"bet limits need 1 <= min <= max, got "
               f"{self.min_bet}..{self.max_bet}")
        ensure(1 <= self.max_hands <= 8, f"max_hands must be 1..8, not {self.max_hands}")
        cut = self.cut_rule()
        ensure(0 <= cut.min_behind <= cut.max_behind < 52 * self.decks,
               f"cut card must leave 0..{52 * self.decks - 1} cards behind, "
               f"not {self.cut_min}..{self.cut_max}")

    def cut_rule(self) -> CutRule:
        if self.cut_min >= 0 and self.cut_max >= 0:
            return CutRule(self.cut_min, self.cut_max) if self.cut_min <= self.cut_max else CutRule(0, 0)
        if 52 * self.decks >= 4 * BLACKJACK_CUT.max_behind:
            return BLACKJACK_CUT
        quarter = 13 * self.decks
        return CutRule(quarter - quarter // 5, quarter)

    # -- spec strings ------------------------------------------------------------------------------
    _FLAGS: ClassVar[dict[str, tuple[str, Any]]] = {
        "s17": ("hit_soft_17", False), "h17": ("hit_soft_17", True),
        "peek": ("peek", True), "nopeek": ("peek", False),
        "ins": ("insurance", True), "noins": ("insurance", False),
        "obo": ("original_bets_only", True), "noobo": ("original_bets_only", False),
        "das": ("double_after_split", True), "nodas": ("double_after_split", False),
        "rsa": ("resplit_aces", True), "norsa": ("resplit_aces", False),
        "split10": ("split_ten_values", True), "nosplit10": ("split_ten_values", False),
        "ls": ("surrender", True), "nols": ("surrender", False),
        "burn": ("burn", True), "noburn": ("burn", False),
        "csm": ("continuous_shuffle", True), "nocsm": ("continuous_shuffle", False),
        "d9": ("double_on", DoubleOn.NINE_TO_ELEVEN), "d10": ("double_on", DoubleOn.TEN_OR_ELEVEN),
        "da": ("double_on", DoubleOn.ANY_TWO),
    }
    _NUMBERS: ClassVar[dict[str, str]] = {
        "decks": "decks", "seats": "seats", "min": "min_bet", "max": "max_bet", "hands": "max_hands",
        "cutmin": "cut_min", "cutmax": "cut_max",
    }

    @classmethod
    def parse(cls, spec: str, base: BlackjackRules | None = None) -> BlackjackRules:
        """Rules from ``spec`` on top of ``base`` (the defaults). Unknown tokens are an error."""
        changes: dict[str, Any] = {}
        for raw in spec.split(","):
            token = raw.strip().lower()
            if not token:
                continue
            if token in cls._FLAGS:
                name, value = cls._FLAGS[token]
                changes[name] = value
            elif ":" in token and "=" not in token:
                changes["blackjack_pays"] = Ratio.parse(token)
            elif "=" in token:
                key, _, value = token.partition("=")
                if key in cls._NUMBERS and (value.isdigit() or (key.startswith("cut") and value == "-1")):
                    changes[cls._NUMBERS[key]] = int(value)
                elif key == "round" and value in {r.value for r in Rounding}:
                    changes["rounding"] = Rounding(value)
                elif key == "pays":
                    changes["blackjack_pays"] = Ratio.parse(value)
                else:
                    raise IllegalOperation(f"bad blackjack rule {raw.strip()!r}: expected one of "
                                           f"{', '.join(k + '=N' for k in cls._NUMBERS)}, round=down|up|"
                                           "half-up|exact, pays=W:S")
            else:
                raise IllegalOperation(
                    f"unknown blackjack rule {raw.strip()!r}: expected a payout like 3:2 or one of "
                    f"{', '.join(sorted(cls._FLAGS))}, or NAME=N")
        return replace(base or cls(), **changes)

    def spec(self) -> str:
        """The canonical spec that :meth:`parse` turns back into these rules."""
        d = self.double_on
        parts = [
            "h17" if self.hit_soft_17 else "s17", str(self.blackjack_pays),
            "peek" if self.peek else "nopeek", "ins" if self.insurance else "noins",
            "obo" if self.original_bets_only else "noobo",
            {DoubleOn.NINE_TO_ELEVEN: "d9", DoubleOn.TEN_OR_ELEVEN: "d10", DoubleOn.ANY_TWO: "da"}[d],
            "das" if self.double_after_split else "nodas", "rsa" if self.resplit_aces else "norsa",
            "split10" if self.split_ten_values else "nosplit10", "ls" if self.surrender else "nols",
            "burn" if self.burn else "noburn", "csm" if self.continuous_shuffle else "nocsm",
            f"round={self.rounding.value}",
        ]
        parts += [f"{key}={getattr(self, name)}" for key, name in self._NUMBERS.items()]
        return ",".join(parts)

    def shoe_rules(self) -> ShoeRules:
        return ShoeRules(self.decks, "standard-52", self.cut_rule(),
                         BurnRule.ONE if self.burn else BurnRule.NONE)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, enum.Enum) else (
                str(value) if isinstance(value, Ratio) else value)
        return out


# ---- hand values ---------------------------------------------------------------------------------
def points(card: Card) -> int:
    """RULES A1: ace 1 (or 11, see :func:`hand_value`), faces 10, others their pips."""
    if card.rank is None:
        raise IllegalOperation(f"blackjack needs a rank-and-suit card, not {card.code}")
    return min(int(card.rank), 10)


@dataclass(frozen=True, slots=True)
class HandValue:
    total: int
    soft: bool  # an ace counts 11

    @property
    def bust(self) -> bool:
        return self.total > 21


def hand_value(cards: Iterable[Card]) -> HandValue:
    """Best total: one ace counts 11 when that does not bust (RULES A1: soft hands).

    >>> from dealer.core.cards import parse_cards
    >>> hand_value(parse_cards("AS 6H")), hand_value(parse_cards("AS 6H 9C"))
    (HandValue(total=17, soft=True), HandValue(total=16, soft=False))
    """
    hard = 0
    ace = False
    for card in cards:
        value = points(card)
        hard += value
        ace = ace or value == 1
    if ace and hard + 10 <= 21:
        return HandValue(hard + 10, True)
    return HandValue(hard, False)


def is_natural(cards: Sequence[Card]) -> bool:
    """Ace plus a ten-card as the first two cards."""
    return len(cards) == 2 and hand_value(cards).total == 21


def dealer_must_draw(cards: Sequence[Card], hit_soft_17: bool) -> bool:
    """RULES A1: draw on 16 or less, stand on 17 or more; a soft 17 stands unless H17."""
    value = hand_value(cards)
    return value.total < 17 or (hit_soft_17 and value.total == 17 and value.soft)


# ---- state ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class UndoMark:
    """The last card and where it went, with the shoe and ledger as they were just after it."""

    card: Card
    where: str  # "deal", "hand" (a seat's hand awaiting its decision) or "dealer" (a draw)
    seat: int
    index: int
    shuffles: int
    cards_out: int
    transfers: int


class Phase(enum.Enum):
    BETTING = "betting"
    DEALING = "dealing"
    INSURANCE = "insurance"
    PEEK = "peek"  # live mode, hole card face down and unknown: the dealer reports the peek
    PLAYING = "playing"
    DEALER = "dealer"


class Action(enum.Enum):
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"


class Result(enum.Enum):
    BLACKJACK = "blackjack"
    WIN = "win"
    PUSH = "push"
    LOSE = "lose"
    BUST = "bust"
    SURRENDER = "surrender"


@dataclass
class Hand:
    cards: list[Card] = field(default_factory=list)
    stake: int = 0
    doubled: bool = False
    from_split: bool = False
    split_aces: bool = False
    wants_card: bool = False  # a card is due to this hand (after a split, hit or double)
    done: bool = False
    result: Result | None = None
    net: int = 0  # chips won (+) or lost (-) on this hand when settled

    @property
    def value(self) -> HandValue:
        return hand_value(c for c in self.cards if not c.is_back)

    @property
    def natural(self) -> bool:
        return not self.from_split and is_natural(self.cards)

    @property
    def settled(self) -> bool:
        return self.result is not None

    def to_json(self, *, hide_double: bool) -> dict[str, Any]:
        cards = [c.code for c in self.cards]
        hidden = hide_double and self.doubled and self.result is None
        if hidden and cards:
            cards[-1] = "BK"
        shown = self.cards[:-1] if hidden else self.cards
        value = hand_value(c for c in shown if not c.is_back)
        return {"cards": cards, "total": value.total, "soft": value.soft, "stake": self.stake,
                "doubled": self.doubled, "split": self.from_split, "done": self.done,
                "result": None if self.result is None else self.result.value, "net": self.net}


@dataclass
class Seat:
    number: int
    bet: int = 0
    hands: list[Hand] = field(default_factory=list)
    insurance: int | None = None  # None until decided this round
    insurance_net: int = 0

    @property
    def account(self) -> str:
        return seat_account(self.number)


@dataclass
class BlackjackGame:
    """One blackjack table's game state (``table.games["blackjack"]``)."""

    name: ClassVar[str] = GAME
    rules: BlackjackRules = field(default_factory=BlackjackRules)
    link: ShoeLink = field(default_factory=ShoeLink)
    phase: Phase = Phase.BETTING
    round: int = 0
    seats: dict[int, Seat] = field(default_factory=dict)
    dealer: list[Card] = field(default_factory=list)
    hole_revealed: bool = False
    peeked_clear: bool = False
    deal_plan: list[int] = field(default_factory=list)  # seat numbers, 0 = dealer
    turn: tuple[int, int] | None = None  # (seat, hand index) to act
    history: list[dict[str, Any]] = field(default_factory=list)  # settled rounds (public)
    undoable: UndoMark | None = None  # the last card, while it can still be taken back

    # ---- helpers ---------------------------------------------------------------------------------
    @property
    def table(self) -> TableState:
        if self.link.table is None:
            raise IllegalOperation("this blackjack game is not attached to a table")
        return self.link.table

    @property
    def upcard(self) -> Card | None:
        return self.dealer[0] if self.dealer else None

    @property
    def hole(self) -> Card | None:
        return self.dealer[1] if len(self.dealer) > 1 else None

    def _in_play(self) -> list[Seat]:
        return [self.seats[n] for n in sorted(self.seats) if self.seats[n].hands]

    def current_hand(self) -> Hand | None:
        if self.turn is None:
            return None
        seat, index = self.turn
        return self.seats[seat].hands[index]

    def _upcard_points(self) -> int:
        up = self.upcard
        return 0 if up is None else points(up)

    def _peek_applies(self) -> bool:
        return self._upcard_points() in (1, 10)

    def _dealer_natural(self) -> bool:
        return is_natural(self.dealer) and not any(c.is_back for c in self.dealer)

    # ---- bets ------------------------------------------------------------------------------------
    def verify_bet(self, seat: int, amount: int) -> None:
        check_chips(amount, "bet")
        ensure(self.phase is Phase.BETTING, "RULES A1: bets are placed before the deal")
        ensure(1 <= seat <= self.rules.seats, f"RULES A1: seats are 1..{self.rules.seats}, not {seat}")
        ensure(self.rules.min_bet <= amount <= self.rules.max_bet,
               f"RULES A1: a bet must be within the table limits {self.rules.min_bet}..{self.rules.max_bet}, "
               f"not {amount}")
        ensure(seat not in self.seats or self.seats[seat].bet == 0, f"seat {seat} has already bet")
        ensure(self.table.ledger.balance(seat_account(seat)) >= amount,
               f"seat {seat} has {self.table.ledger.balance(seat_account(seat))} chips, cannot bet {amount}")

    def can_bet(self, seat: int, amount: int) -> bool:
        return can(self.verify_bet, seat, amount)

    def bet(self, seat: int, amount: int) -> None:
        self.verify_bet(seat, amount)
        if not any(s.bet for s in self.seats.values()):
            self._clear_round()
        move(self.table, seat_account(seat), STAKES, amount, f"blackjack bet seat {seat}")
        self.seats[seat] = Seat(seat, bet=amount)

    def verify_start(self) -> None:
        ensure(self.phase is Phase.BETTING, "a round is already under way")
        ensure(any(s.bet for s in self.seats.values()), "RULES A1: at least one bet before the deal")
        ensure(not self.link.shuffle_due, "RULES A1: the cut card came out; shuffle before the next round")
        ensure(not self.link.burn_due, "the burn card must come out before the deal")

    def can_start(self) -> bool:
        return can(self.verify_start)

    def start(self) -> None:
        self.verify_start()
        self.round += 1
        players = sorted(n for n, s in self.seats.items() if s.bet)
        for n in players:
            self.seats[n].hands = [Hand(stake=self.seats[n].bet)]
        # RULES A1: clockwise from the dealer's left, one card each, dealer's upcard, then again.
        self.deal_plan = players + [0] + players + [0]
        self.phase = Phase.DEALING

    def _clear_round(self) -> None:
        self.seats = {}
        self.dealer = []
        self.hole_revealed = False
        self.peeked_clear = False
        self.turn = None

    # ---- cards -----------------------------------------------------------------------------------
    def card_target(self) -> str | None:
        """Who the next card out of the shoe goes to, or None when no card is due."""
        if self.link.burn_due and self.phase is Phase.BETTING:
            return "burn"
        if self.phase is Phase.DEALING:
            n = self.deal_plan[0]
            return "dealer" if n == 0 else f"seat-{n}"
        if self.phase is Phase.PLAYING:
            hand = self.current_hand()
            if hand is not None and hand.wants_card and self.turn is not None:
                return f"seat-{self.turn[0]}"
        if self.phase is Phase.DEALER and self._dealer_draws():
            return "dealer"
        return None

    def verify_card(self, card: Card) -> None:
        target = self.card_target()
        ensure(target is not None, f"no card is due now ({self.prompt().text})")
        ensure(not card.is_joker, "RULES A1: standard 52-card packs have no jokers")
        if card.is_back:
            ensure(self._face_down_allowed(), "only the dealer's hole card and a double-down card may be "
                   "dealt face down (BK); every other card is dealt face up")

    def _face_down_allowed(self) -> bool:
        if self.phase is Phase.DEALING:
            return self.deal_plan == [0]  # the hole card is the last card of the deal
        if self.phase is Phase.PLAYING:
            hand = self.current_hand()
            return hand is not None and hand.doubled
        return self.card_target() == "burn"

    def can_card(self, card: Card) -> bool:
        return can(self.verify_card, card)

    def take_card(self, card: Card) -> None:
        self.verify_card(card)
        target = self.card_target()
        if target == "burn":
            self.link.record_burn(card)
            return
        self.link.record_card(card)
        self.undoable = None
        if self.phase is Phase.DEALING:
            n = self.deal_plan.pop(0)
            if n == 0:
                self.dealer.append(card)
            else:
                self.seats[n].hands[0].cards.append(card)
            if not self.deal_plan:
                self._after_deal()
            elif not card.is_back:
                self._mark_undo(card, "deal", n, 0)
        elif self.phase is Phase.PLAYING:
            hand = self.current_hand()
            assert hand is not None and self.turn is not None
            where = self.turn
            hand.cards.append(card)
            hand.wants_card = False
            self._after_player_card(hand)
            if self._awaits_decision(*where):
                self._mark_undo(card, "hand", *where)
        else:
            self.dealer.append(card)
            self._dealer_continue()
            if self.phase is Phase.DEALER:
                self._mark_undo(card, "dealer", 0, 0)

    # ---- taking back a mis-entered card (live mode) ---------------------------------------------------
    def _awaits_decision(self, seat: int, index: int) -> bool:
        hand = self.current_hand()
        return self.phase is Phase.PLAYING and self.turn == (seat, index) and hand is not None \
            and not (hand.done or hand.settled or hand.wants_card)

    def _mark_undo(self, card: Card, where: str, seat: int, index: int) -> None:
        shoe = self.link.require_shoe()
        self.undoable = UndoMark(card, where, seat, index, shoe.shuffles, shoe.cards_out,
                                 len(self.table.ledger.transfers))

    def verify_undo_card(self, card: Card) -> None:
        mark = self.undoable
        rule = ("only the last card can be taken back, before any decision, chip or other card "
                "follows it and while it did not end the deal, a hand or the round (otherwise correct "
                "the record with table.correct-card)")
        ensure(mark is not None, f"nothing to take back: {rule}")
        assert mark is not None
        ensure(mark.card == card, f"the last card was {mark.card.code}, not {card.code}: {rule}")
        shoe = self.link.require_shoe()
        ensure((shoe.shuffles, shoe.cards_out, len(self.table.ledger.transfers)) ==
               (mark.shuffles, mark.cards_out, mark.transfers), f"too late to take back {card.code}: {rule}")
        if mark.where == "deal":
            ensure(self.phase is Phase.DEALING, f"too late to take back {card.code}: {rule}")
        elif mark.where == "hand":
            ensure(self._awaits_decision(mark.seat, mark.index), f"a decision followed {card.code}: {rule}")
        else:
            ensure(self.phase is Phase.DEALER, f"too late to take back {card.code}: {rule}")
        shoe.verify_undo(card)

    def can_undo_card(self, card: Card) -> bool:
        return can(self.verify_undo_card, card)

    def undo_card(self, card: Card) -> None:
        """Take back the last card entered (a misread): the game and the shoe want that card again."""
        self.verify_undo_card(card)
        mark = self.undoable
        assert mark is not None
        self.link.require_shoe().undo(card)
        if mark.where == "deal":
            (self.dealer if mark.seat == 0 else self.seats[mark.seat].hands[0].cards).pop()
            self.deal_plan.insert(0, mark.seat)
        elif mark.where == "hand":
            hand = self.seats[mark.seat].hands[mark.index]
            hand.cards.pop()
            hand.wants_card = True
        else:
            self.dealer.pop()
        self.undoable = None

    def verify_reveal(self, seat: int, hand: int, card: Card) -> None:
        ensure(not card.is_back and not card.is_joker, f"a revealed card must show its face, not {card.code}")
        if seat == 0:
            ensure(self.hole is not None and self.hole.is_back, "the dealer has no face-down hole card")
        else:
            ensure(seat in self.seats and 0 <= hand < len(self.seats[seat].hands),
                   f"seat {seat} has no hand {hand}")
            target = self.seats[seat].hands[hand]
            ensure(bool(target.cards) and target.cards[-1].is_back,
                   f"seat {seat} hand {hand} has no face-down card")

    def reveal(self, seat: int, hand: int, card: Card) -> None:
        """Live mode: a face-down card (hole card or double-down card) is turned up."""
        self.verify_reveal(seat, hand, card)
        self.link.identify(card)  # the shoe counts the card it recorded as BK from now on
        if seat == 0:
            self.dealer[1] = card
            self.hole_revealed = True
            if self.phase is Phase.PEEK:
                self._resolve_peek()
            elif self.phase is Phase.DEALER:
                self._dealer_continue()
        else:
            target = self.seats[seat].hands[hand]
            target.cards[-1] = card
            if target.value.bust:
                self._settle_hand(self.seats[seat], target, Result.BUST)
            if self.phase is Phase.DEALER:
                self._dealer_continue()

    # ---- deal finished: insurance, peek, naturals -------------------------------------------------
    def _after_deal(self) -> None:
        if self.rules.insurance and self._upcard_points() == 1:
            self.phase = Phase.INSURANCE
            for seat in self._in_play():
                seat.insurance = None
            return
        self._peek()

    def verify_insurance(self, seat: int, amount: int) -> None:
        check_chips(amount, "insurance")
        ensure(self.phase is Phase.INSURANCE,
               "RULES A1: insurance is offered only when the upcard is an ace, before the dealer looks")
        ensure(seat in self.seats and bool(self.seats[seat].hands), f"seat {seat} has no bet this round")
        ensure(self.seats[seat].insurance is None, f"seat {seat} already decided on insurance")
        ensure(amount <= self.seats[seat].bet // 2,
               f"RULES A1: insurance is up to half the bet ({self.seats[seat].bet // 2}), not {amount}")
        balance = self.table.ledger.balance(seat_account(seat))
        ensure(balance >= amount, f"seat {seat} has {balance} chips, cannot insure for {amount}")

    def can_insure(self, seat: int, amount: int) -> bool:
        return can(self.verify_insurance, seat, amount)

    def insure(self, seat: int, amount: int) -> None:
        """Take insurance of ``amount`` (0 declines)."""
        self.verify_insurance(seat, amount)
        move(self.table, seat_account(seat), STAKES, amount, f"insurance seat {seat}")
        self.seats[seat].insurance = amount
        if all(s.insurance is not None for s in self._in_play()):
            self._peek()

    def _peek(self) -> None:
        if not (self.rules.peek and self._peek_applies()):
            self._begin_play()
            return
        hole = self.hole
        if hole is not None and hole.is_back:
            self.phase = Phase.PEEK
            return
        self._resolve_peek()

    def verify_peek_clear(self) -> None:
        ensure(self.phase is Phase.PEEK, "no peek is due: the dealer peeks only under an ace or ten-card")

    def peek_clear(self) -> None:
        """Live mode: the dealer peeked at the face-down hole card and has no natural."""
        self.verify_peek_clear()
        self.peeked_clear = True
        self._settle_insurance(dealer_natural=False)
        self._begin_play()

    def _resolve_peek(self) -> None:
        # RULES A1: dealer natural: every player without one loses the original bet; both: stand-off.
        if self._dealer_natural():
            self.hole_revealed = True
            self._settle_insurance(dealer_natural=True)
            for seat in self._in_play():
                hand = seat.hands[0]
                self._settle_hand(seat, hand, Result.PUSH if hand.natural else Result.LOSE)
            self._end_round()
            return
        self.peeked_clear = True
        self._settle_insurance(dealer_natural=False)
        self._begin_play()

    def _settle_insurance(self, *, dealer_natural: bool) -> None:
        for seat in self._in_play():
            if not seat.insurance:
                continue
            if dealer_natural:
                won = pay(seat.insurance, TWO_TO_ONE).amount  # RULES A1: insurance pays 2:1
                move(self.table, HOUSE, seat.account, won, f"insurance win seat {seat.number}")
                move(self.table, STAKES, seat.account, seat.insurance, f"insurance stake seat {seat.number}")
                seat.insurance_net = won
            else:
                move(self.table, STAKES, HOUSE, seat.insurance, f"insurance lost seat {seat.number}")
                seat.insurance_net = -seat.insurance

    def _begin_play(self) -> None:
        natural_final = not self._peek_applies() or (self.rules.peek and self.peeked_clear)
        for seat in self._in_play():
            hand = seat.hands[0]
            if hand.natural:
                hand.done = True
                if natural_final:  # RULES A1: a player natural is paid at once at 3:2
                    self._settle_hand(seat, hand, Result.BLACKJACK)
        self.phase = Phase.PLAYING
        self.turn = None
        self._advance()

    # ---- player decisions -------------------------------------------------------------------------
    def legal_actions(self) -> tuple[Action, ...]:
        hand = self.current_hand()
        if self.phase is not Phase.PLAYING or hand is None or hand.wants_card or hand.done:
            return ()
        return tuple(a for a in Action if self.can_act(a))

    def verify_act(self, action: Action) -> None:
        hand = self.current_hand()
        ensure(self.phase is Phase.PLAYING and hand is not None, "no player is to act now")
        assert hand is not None and self.turn is not None
        ensure(not hand.wants_card, f"seat {self.turn[0]} is waiting for a card")
        seat = self.seats[self.turn[0]]
        two = len(hand.cards) == 2
        if action is Action.DOUBLE:
            ensure(two, "RULES A1: double down only on the first two cards")
            ensure(not hand.from_split or self.rules.double_after_split,
                   "RULES A1: no doubling after a split at this table (house rule)")
            ensure(self.rules.double_on.allows(hand.value.total),
                   f"RULES A1: double down only on {self.rules.double_on.value} "
                   f"(this hand totals {hand.value.total})")
            self._ensure_funds(seat, hand.stake)
        elif action is Action.SPLIT:
            ensure(two and self._same_denomination(hand.cards),
                   "RULES A1: split only two cards of the same rank" +
                   (" or two ten-cards" if self.rules.split_ten_values else ""))
            ensure(len(seat.hands) < self.rules.max_hands,
                   f"house rule: split to at most {self.rules.max_hands} hands")
            ensure(not hand.split_aces or self.rules.resplit_aces,
                   "RULES A1: split aces get one card each and cannot be split again")
            self._ensure_funds(seat, hand.stake)
        elif action is Action.SURRENDER:
            ensure(self.rules.surrender, "surrender is not offered at this table")
            ensure(two and not hand.from_split and len(seat.hands) == 1,
                   "late surrender only as the first decision on the first two cards")
        elif action is Action.HIT:
            ensure(not hand.split_aces, "RULES A1: split aces get exactly one card each")
        ensure(not hand.done, "this hand is finished")

    def _same_denomination(self, cards: Sequence[Card]) -> bool:
        a, b = cards
        if a.rank == b.rank:
            return True
        return self.rules.split_ten_values and points(a) == 10 and points(b) == 10

    def _ensure_funds(self, seat: Seat, amount: int) -> None:
        balance = self.table.ledger.balance(seat.account)
        ensure(balance >= amount, f"seat {seat.number} has {balance} chips; this needs {amount} more")

    def can_act(self, action: Action) -> bool:
        return can(self.verify_act, action)

    def act(self, action: Action) -> None:
        self.verify_act(action)
        assert self.turn is not None
        seat = self.seats[self.turn[0]]
        hand = seat.hands[self.turn[1]]
        if action is Action.STAND:
            hand.done = True
        elif action is Action.HIT:
            hand.wants_card = True
        elif action is Action.DOUBLE:
            move(self.table, seat.account, STAKES, hand.stake, f"double seat {seat.number}")
            hand.stake *= 2
            hand.doubled = True
            hand.wants_card = True  # RULES A1: exactly one card, face down
        elif action is Action.SPLIT:
            move(self.table, seat.account, STAKES, hand.stake, f"split seat {seat.number}")
            aces = hand.cards[0].rank is Rank.ACE
            second = Hand(cards=[hand.cards.pop()], stake=hand.stake, from_split=True, split_aces=aces)
            hand.from_split = True
            hand.split_aces = aces
            hand.wants_card = True
            seat.hands.insert(self.turn[1] + 1, second)
        elif action is Action.SURRENDER:
            self._settle_hand(seat, hand, Result.SURRENDER)
        self._advance()

    def _after_player_card(self, hand: Hand) -> None:
        assert self.turn is not None
        seat = self.seats[self.turn[0]]
        value = hand.value
        if value.bust:  # RULES A1: a bust is collected at once
            self._settle_hand(seat, hand, Result.BUST)
        elif hand.doubled or hand.split_aces or value.total == 21:
            hand.done = True  # one card after a double or on a split ace; 21 stands
        if hand.split_aces and len(hand.cards) == 2 and self._same_denomination(hand.cards) \
                and self.rules.resplit_aces and len(seat.hands) < self.rules.max_hands:
            hand.done = False
        self._advance()

    def _advance(self) -> None:
        """Move the turn to the next hand that needs a card or a decision (left hand first)."""
        for seat in self._in_play():
            for index, hand in enumerate(seat.hands):
                if hand.settled or hand.done:
                    continue
                if len(hand.cards) < 2 and not hand.wants_card:
                    hand.wants_card = True  # the split hand's second card
                self.turn = (seat.number, index)
                return
        self.turn = None
        self._start_dealer()

    # ---- dealer ------------------------------------------------------------------------------------
    def _start_dealer(self) -> None:
        self.phase = Phase.DEALER
        self._dealer_continue()

    def _dealer_needed(self) -> bool:
        return any(not h.settled for s in self._in_play() for h in s.hands)

    def _dealer_draws(self) -> bool:
        if self.phase is not Phase.DEALER or self.hole is None or self.hole.is_back:
            return False
        if self._dealer_natural() or not self._dealer_needed():
            return False
        if all(h.natural for s in self._in_play() for h in s.hands if not h.settled):
            return False
        return dealer_must_draw(self.dealer, self.rules.hit_soft_17)

    def _unrevealed_doubles(self) -> bool:
        return any(h.cards and h.cards[-1].is_back for s in self._in_play() for h in s.hands)

    def _dealer_continue(self) -> None:
        hole = self.hole
        if hole is None or hole.is_back:
            return  # live mode: the hole card must be turned up (reveal) first
        self.hole_revealed = True
        if self._dealer_draws() or self._unrevealed_doubles():
            return
        self._settle_all()

    def _settle_all(self) -> None:
        dealer = hand_value(self.dealer)
        dealer_natural = self._dealer_natural()
        if dealer_natural and not (self.rules.peek and self._peek_applies()):
            self._settle_insurance(dealer_natural=True)
        elif not self.peeked_clear and self._upcard_points() == 1:
            self._settle_insurance(dealer_natural=False)
        for seat in self._in_play():
            for hand in seat.hands:
                if hand.settled:
                    continue
                if dealer_natural:
                    # No peek: a dealer natural found at the end takes every bet on the hand, or only
                    # the original bet under the "original bets only" house rule.
                    lost = None
                    if self.rules.original_bets_only:
                        lost = min(hand.stake, seat.bet) if hand is seat.hands[0] else 0
                    self._settle_hand(seat, hand, Result.PUSH if hand.natural else Result.LOSE, lost=lost)
                elif hand.natural:
                    self._settle_hand(seat, hand, Result.BLACKJACK)
                elif dealer.bust or hand.value.total > dealer.total:
                    self._settle_hand(seat, hand, Result.WIN)
                elif hand.value.total == dealer.total:
                    self._settle_hand(seat, hand, Result.PUSH)
                else:
                    self._settle_hand(seat, hand, Result.LOSE)
        self._end_round()

    def _settle_hand(self, seat: Seat, hand: Hand, result: Result, *, lost: int | None = None) -> None:
        """Move the chips for one hand. A paid or collected bet is final (RULES A1)."""
        table, who = self.table, f"seat {seat.number}"
        stake = hand.stake
        hand.result, hand.done, hand.wants_card = result, True, False
        if result is Result.BLACKJACK:
            payout = pay(stake, self.rules.blackjack_pays, self.rules.rounding)
            move(table, HOUSE, seat.account, payout.amount, f"blackjack {who}")
            move(table, STAKES, seat.account, stake, f"stake back {who}")
            hand.net = payout.amount
        elif result is Result.WIN:
            move(table, HOUSE, seat.account, stake, f"win {who}")
            move(table, STAKES, seat.account, stake, f"stake back {who}")
            hand.net = stake
        elif result is Result.PUSH:
            move(table, STAKES, seat.account, stake, f"stand-off {who}")
            hand.net = 0
        elif result is Result.SURRENDER:
            half = stake // 2
            move(table, STAKES, HOUSE, half, f"surrender {who}")
            move(table, STAKES, seat.account, stake - half, f"surrender half back {who}")
            hand.net = -half
        else:
            lost = stake if lost is None else lost
            move(table, STAKES, HOUSE, lost, f"{result.value} {who}")
            move(table, STAKES, seat.account, stake - lost, f"extra bets back {who}")
            hand.net = -lost

    def _end_round(self) -> None:
        self.history.append(self._round_json())
        del self.history[:-20]
        self.phase = Phase.BETTING
        self.turn = None
        for seat in self.seats.values():
            seat.bet = 0
        self.link.mark_round_end(always_shuffle=self.rules.continuous_shuffle)

    # ---- Game protocol ------------------------------------------------------------------------------
    def prompt(self) -> Prompt:
        target = self.card_target()
        if self.phase is Phase.BETTING:
            if self.link.shuffle_due:
                return Prompt(Step.SHUFFLE, "dealer", text="shuffle the shoe and place the cut card")
            if target == "burn":
                return Prompt(Step.CARD, "burn", text="burn one card")
            return Prompt(Step.BET, None, ("bet", "deal"), text="place bets, then deal")
        if self.phase is Phase.INSURANCE:
            seat = next(s for s in self._in_play() if s.insurance is None)
            return Prompt(Step.DECIDE, seat.account, ("insure", "decline"),
                          text=f"seat {seat.number}: insurance?")
        if self.phase is Phase.PEEK:
            return Prompt(Step.DECIDE, "dealer", ("peek-clear", "reveal"),
                          text="dealer peeks for a natural")
        if target is not None and target != "burn" and self.link.empty:
            return Prompt(Step.DECIDE, "dealer", ("reshuffle",),
                          text="the shoe is empty: shuffle the discards and carry on")
        if target is not None:
            who = target.replace("-", " ")
            return Prompt(Step.CARD, target, text=f"deal a card to {who}" if target != "dealer"
                          else "dealer draws")
        if self.phase is Phase.PLAYING and self.turn is not None:
            options = tuple(a.value for a in self.legal_actions())
            return Prompt(Step.DECIDE, f"seat-{self.turn[0]}", options,
                          text=f"seat {self.turn[0]} to act")
        return Prompt(Step.DECIDE, "dealer", ("reveal",), text="turn up the face-down cards")

    def card_operation(self, card: Card) -> Operation:
        return BlackjackCard(card)

    def auto_operation(self) -> Operation | None:
        """Simulated mode: decline insurance and play basic strategy for the configured rules."""
        if self.phase is not Phase.BETTING and self.card_target() is not None and self.link.empty:
            return ReshuffleDiscards(GAME)
        if self.phase is Phase.INSURANCE:
            seat = next(s for s in self._in_play() if s.insurance is None)
            return Insure(seat.number, 0)
        if self.phase is Phase.PLAYING and self.legal_actions():
            from dealer.core.analysis.blackjack_strategy import strategy_for

            hand = self.current_hand()
            up = self.upcard
            assert hand is not None and up is not None and self.turn is not None
            seat = self.seats[self.turn[0]]
            return Act(strategy_for(self.rules).decide(hand.cards, up, self.legal_actions(),
                                                       split_hand=hand.from_split or len(seat.hands) > 1))
        return None

    def cards_in_play(self) -> list[Card]:
        """Every card on the layout this round (they must not come out of a reshuffled shoe);
        a face-down card not yet turned up is ``BK``."""
        cards = list(self.dealer)
        for seat in self.seats.values():
            for hand in seat.hands:
                cards += hand.cards
        return cards if self.phase is not Phase.BETTING else []

    def _round_json(self) -> dict[str, Any]:
        return {"round": self.round, "dealer": [c.code for c in self.dealer],
                "dealer_total": hand_value(c for c in self.dealer if not c.is_back).total,
                "seats": {str(n): {"hands": [h.to_json(hide_double=False) for h in s.hands],
                                   "insurance": s.insurance or 0, "insurance_net": s.insurance_net}
                          for n, s in sorted(self.seats.items()) if s.hands}}

    def to_json(self) -> dict[str, Any]:
        """Public state: the hole card and a double-down card stay "BK" until they are turned up."""
        dealer = [c.code for c in self.dealer]
        visible = list(self.dealer)
        if len(dealer) > 1 and not self.hole_revealed:
            dealer[1] = "BK"
            visible = visible[:1]
        value = hand_value(c for c in visible if not c.is_back)
        shoe = self.link.shoe
        return {
            "game": GAME, "rules": self.rules.to_json(), "phase": self.phase.value, "round": self.round,
            "prompt": self.prompt().to_json(),
            "dealer": {"cards": dealer, "total": value.total, "soft": value.soft},
            "turn": None if self.turn is None else {"seat": self.turn[0], "hand": self.turn[1]},
            "seats": {str(n): {"bet": s.bet or sum(h.stake for h in s.hands[:1]),
                               "insurance": s.insurance, "insurance_net": s.insurance_net,
                               "hands": [h.to_json(hide_double=True)
                                         for h in s.hands]}
                      for n, s in sorted(self.seats.items())},
            "shoe": None if shoe is None else {"penetration": round(shoe.penetration, 4),
                                                "cards_left": shoe.cards_left,
                                                "cut_card_out": shoe.cut_card_reached,
                                                "shuffle_due": self.link.shuffle_due},
            "last_rounds": self.history[-5:],
        }



def _game(table: TableState) -> BlackjackGame:
    return game_of(table, GAME, BlackjackGame, "blackjack.new")


# ---- operations ----------------------------------------------------------------------------------
@register_operation
@dataclass(frozen=True)
class NewBlackjackGame(Operation):
    """Open a blackjack game with house rules ``rules`` (a spec, see :class:`BlackjackRules`).

    When the table has no shoe yet (or ``fresh_shoe``), one is loaded for the rules (decks, cut
    card, burn) in ``mode``: known order for simulation, observed for a physical shoe. A table's
    existing shoe is otherwise kept. Shuffle it next."""

    kind: ClassVar[str] = "blackjack.new"
    rules: str = ""
    mode: ShoeMode = ShoeMode.KNOWN
    fresh_shoe: bool = False

    def apply(self, table: TableState) -> None:
        from dealer.core.shoe import Shoe

        rules = BlackjackRules.parse(self.rules)
        if table.shoe is None or self.fresh_shoe:
            table.shoe = Shoe(rules.shoe_rules(), self.mode)
        table.games[GAME] = BlackjackGame(rules=rules, link=ShoeLink(table))


@register_operation
@dataclass(frozen=True)
class PlaceBet(Operation):
    kind: ClassVar[str] = "blackjack.bet"
    seat: int
    amount: int

    def apply(self, table: TableState) -> None:
        _game(table).bet(self.seat, self.amount)


@register_operation
@dataclass(frozen=True)
class StartRound(Operation):
    """Bets are closed: the deal begins."""

    kind: ClassVar[str] = "blackjack.deal"

    def apply(self, table: TableState) -> None:
        _game(table).start()


@register_operation
@dataclass(frozen=True)
class BlackjackCard(Operation):
    """A card out of the shoe (recorded in the shoe too), given to whoever the rules say."""

    kind: ClassVar[str] = "blackjack.card"
    card: Card

    def apply(self, table: TableState) -> None:
        _game(table).take_card(self.card)


@register_operation
@dataclass(frozen=True)
class Insure(Operation):
    kind: ClassVar[str] = "blackjack.insure"
    seat: int
    amount: int = 0

    def apply(self, table: TableState) -> None:
        _game(table).insure(self.seat, self.amount)


@register_operation
@dataclass(frozen=True)
class PeekClear(Operation):
    """Live mode: the dealer peeked under an ace or ten-card and has no natural."""

    kind: ClassVar[str] = "blackjack.peek-clear"

    def apply(self, table: TableState) -> None:
        _game(table).peek_clear()


@register_operation
@dataclass(frozen=True)
class Act(Operation):
    """The player to act hits, stands, doubles, splits or surrenders."""

    kind: ClassVar[str] = "blackjack.act"
    action: Action

    def apply(self, table: TableState) -> None:
        _game(table).act(self.action)


@register_operation
@dataclass(frozen=True)
class UndoCard(Operation):
    """Live mode: take back the last card entered (a misread), before anything followed it; the same
    place then wants a card again. See :meth:`BlackjackGame.verify_undo_card` for when it applies."""

    kind: ClassVar[str] = "blackjack.undo-card"
    card: Card

    def apply(self, table: TableState) -> None:
        _game(table).undo_card(self.card)


@register_operation
@dataclass(frozen=True)
class Reveal(Operation):
    """Live mode: a face-down card is turned up (``seat`` 0 = the dealer's hole card)."""

    kind: ClassVar[str] = "blackjack.reveal"
    seat: int
    card: Card
    hand: int = 0

    def apply(self, table: TableState) -> None:
        _game(table).reveal(self.seat, self.hand, self.card)
