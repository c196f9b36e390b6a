"""Pontoon: blackjack with a changing bank, the home game (RULES A2).

A player is the banker and pays or collects every bet from his own chips: ties pay the dealer,
naturals are paid double, bonus hands (five-card charlie and more, three sevens, 8-7-6) are paid at
once, and the dealer may draw or stand on any total. The bank passes to a player who is dealt a
natural when the dealer has none. A single pack; its top card is burned face up to the bottom after
each shuffle, and when the deal reaches it the discards are shuffled again.

>>> from dealer.core.table_state import TableState, ShuffleShoe, TransferChips
>>> from dealer.core.cards import parse_cards
>>> table = TableState()
>>> table.apply(NewPontoonGame(players=3, first_banker=1))
>>> for s in (1, 2, 3):
...     table.apply(TransferChips("cage", f"seat-{s}", 50))
>>> table.apply(ShuffleShoe(seed=1))
>>> game = table.games["pontoon"]
>>> table.apply(game.card_operation(Card.parse("2C")))  # the burn card, shown and put at the bottom
>>> table.apply(PontoonBet(2, 5)); table.apply(PontoonBet(3, 5)); table.apply(PontoonStart())
>>> for card in parse_cards("AS 9C 8D KH 4D 9H"):   # seats 2, 3, banker; then again
...     table.apply(game.card_operation(card))
>>> table.ledger.balance("seat-2"), game.banker   # natural paid double; the bank passes after the deal
(60, 1)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from dealer.core.cards import Card, Rank, Suit
from dealer.core.errors import IllegalOperation
from dealer.core.games.base import Prompt, Step
from dealer.core.games.blackjack import DoubleOn, HandValue, hand_value, is_natural, points
from dealer.core.games.shoe_game import ReshuffleDiscards, ShoeLink, move, seat_account
from dealer.core.money import check_chips
from dealer.core.operations import Operation, can, ensure, register_operation
from dealer.core.shoe import Shoe, ShoeMode, ShoeRules
from dealer.core.table_state import game_of

if TYPE_CHECKING:
    from dealer.core.table_state import TableState

GAME = "pontoon"
STAKES = "pontoon:stakes"


@dataclass(frozen=True)
class PontoonRules:
    """House rules (RULES A2 defaults)."""

    players: int = 5  # 2-14, banker included
    min_bet: int = 1
    max_bet: int = 5
    natural_multiple: int = 2  # "pays double": the winner receives 2x the stake
    charlie_cards: int = 5
    charlie_multiple: int = 2  # five cards 2x, six 4x, each further card doubles again
    three_sevens_multiple: int = 3
    eight_seven_six_multiple: int = 2
    double_on: DoubleOn = DoubleOn.NINE_TO_ELEVEN  # "as in the casino game"
    max_hands: int = 4
    dealer_hits_below: int = 17  # the simulated banker's own habit; the rules leave him free

    def __post_init__(self) -> None:
        ensure(2 <= self.players <= 14, f"RULES A2: 2 to 14 players, not {self.players}")
        ensure(1 <= self.min_bet <= self.max_bet, "bet limits need 1 <= min <= max")


class Phase(enum.Enum):
    FIRST_BANKER = "first-banker"  # dealing face up until a black jack falls
    BETTING = "betting"
    DEALING = "dealing"
    PLAYING = "playing"
    DEALER = "dealer"


class Result(enum.Enum):
    NATURAL = "natural"
    BONUS = "bonus"
    WIN = "win"
    LOSE = "lose"
    BUST = "bust"


@dataclass
class PHand:
    cards: list[Card] = field(default_factory=list)
    stake: int = 0
    doubled: bool = False
    from_split: bool = False
    wants_card: bool = False
    done: bool = False
    result: Result | None = None
    net: int = 0
    bonus: str | None = None

    @property
    def value(self) -> HandValue:
        return hand_value(self.cards)


def bonus_multiple(cards: list[Card], rules: PontoonRules) -> tuple[str, int] | None:
    """RULES A2 bonus hands (the multiple is of the hand's stake), or None."""
    value = hand_value(cards)
    if value.bust:
        return None
    if len(cards) >= rules.charlie_cards:
        return (f"{len(cards)}-card charlie",
                rules.charlie_multiple * 2 ** (len(cards) - rules.charlie_cards))
    if len(cards) == 3 and value.total == 21:
        ranks = sorted(int(c.rank or 0) for c in cards)
        if ranks == [7, 7, 7]:
            return ("three sevens", rules.three_sevens_multiple)
        if ranks == [6, 7, 8]:
            return ("8-7-6", rules.eight_seven_six_multiple)
    return None


@dataclass
class PontoonGame:
    name: ClassVar[str] = GAME
    rules: PontoonRules = field(default_factory=PontoonRules)
    link: ShoeLink = field(default_factory=ShoeLink)
    phase: Phase = Phase.FIRST_BANKER
    banker: int = 0  # seat of the banker (0 until chosen)
    burned_on: int = -1  # the shuffle whose burn card is out
    burn_card: Card | None = None
    round: int = 0
    bets: dict[int, int] = field(default_factory=dict)
    hands: dict[int, list[PHand]] = field(default_factory=dict)
    dealer: list[Card] = field(default_factory=list)
    plan: list[int] = field(default_factory=list)
    turn: tuple[int, int] | None = None
    first_banker_cards: list[tuple[int, str]] = field(default_factory=list)
    next_bank: int | None = None
    shortfall: int = 0  # chips the bank could not pay (it ran out)
    dealer_wants_card: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def table(self) -> TableState:
        if self.link.table is None:
            raise IllegalOperation("this pontoon game is not attached to a table")
        return self.link.table

    def order(self) -> list[int]:
        """Players in rotation from the banker's left."""
        n = self.rules.players
        return [(self.banker + i - 1) % n + 1 for i in range(1, n)]

    @property
    def burn_due(self) -> bool:
        shoe = self.link.shoe
        return shoe is not None and shoe.is_shuffled and not self.link.shuffle_due and \
            self.burned_on != shoe.shuffles and self.phase is not Phase.FIRST_BANKER

    # ---- cards ----------------------------------------------------------------------------------
    def card_target(self) -> str | None:
        if self.link.shuffle_due:
            return None
        if self.phase is Phase.FIRST_BANKER:
            return seat_account(len(self.first_banker_cards) % self.rules.players + 1)
        if self.burn_due:
            return "burn"
        if self.phase is Phase.DEALING:
            if not self.plan:
                return None  # live mode: face-down first cards must be turned up first
            return "dealer" if self.plan[0] == 0 else seat_account(self.plan[0])
        if self.phase is Phase.PLAYING and self.turn is not None:
            hand = self.hands[self.turn[0]][self.turn[1]]
            return seat_account(self.turn[0]) if hand.wants_card else None
        if self.phase is Phase.DEALER and self.dealer_wants_card:
            return "dealer"
        return None

    def verify_card(self, card: Card) -> None:
        ensure(self.card_target() is not None, f"no card is due now ({self.prompt().text})")
        ensure(not card.is_joker, "RULES A2: a single 52-card pack, no jokers")
        ensure(not card.is_back or self._first_round(),
               "RULES A2: only the first round of the deal is face down (BK); report the card's face")

    def _first_round(self) -> bool:
        if self.phase is not Phase.DEALING or not self.plan:
            return False
        n = self.plan[0]
        return not (self.dealer if n == 0 else self.hands[n][0].cards)

    def take_card(self, card: Card) -> None:
        self.verify_card(card)
        target = self.card_target()
        if target == "burn":  # RULES A2: the top card is shown and put face up at the bottom
            self.link.require_shoe().record(card, burn=True)
            self.burned_on = self.link.require_shoe().shuffles
            self.burn_card = card
            return
        self.link.record_card(card)
        if self.phase is Phase.FIRST_BANKER:
            seat = len(self.first_banker_cards) % self.rules.players + 1
            self.first_banker_cards.append((seat, card.code))
            if card.rank is Rank.JACK and card.suit in (Suit.SPADES, Suit.CLUBS):
                self.banker = seat  # RULES A2: the first black jack deals first
                self.phase = Phase.BETTING
                self.link.shuffle_due_at = self.link.require_shoe().shuffles  # shuffle, then play
            return
        if self.phase is Phase.DEALING:
            n = self.plan.pop(0)
            (self.dealer if n == 0 else self.hands[n][0].cards).append(card)
            if not self.plan and self.face_down() is None:
                self._after_deal()
            return
        if self.phase is Phase.PLAYING:
            assert self.turn is not None
            seat, index = self.turn
            hand = self.hands[seat][index]
            hand.cards.append(card)
            hand.wants_card = False
            if hand.value.bust:
                self._lose(seat, hand, Result.BUST)
            elif hand.doubled or hand.value.total == 21:
                self._stop(seat, hand)
            self._advance()
            return
        self.dealer.append(card)
        self.dealer_wants_card = False
        if hand_value(self.dealer).total >= 21:
            self._settle()

    def cards_in_play(self) -> list[Card]:
        """The cards on the layout this round; a face-down card not yet turned up is ``BK``."""
        cards = list(self.dealer)
        for hands in self.hands.values():
            for hand in hands:
                cards += hand.cards
        return cards if self.phase in (Phase.DEALING, Phase.PLAYING, Phase.DEALER) else []

    # ---- face-down first cards (live mode) ---------------------------------------------------------
    def face_down(self) -> int | None:
        """The seat (0 = the dealer) whose face-down first card must be turned up next, or None.

        Live mode may report the first round as ``BK``. Naturals are settled as soon as the deal is
        complete (RULES A2), and a natural can hide under any face-down card, so every one is
        turned up (shown to the camera or typed by the dealer) before play goes on. The public state
        keeps showing it as ``BK`` until the hand is finished.
        """
        if self.phase is not Phase.DEALING or self.plan:
            return None
        for seat in self.order():
            if seat in self.hands and any(c.is_back for c in self.hands[seat][0].cards):
                return seat
        return 0 if any(c.is_back for c in self.dealer) else None

    def verify_reveal(self, seat: int, card: Card) -> None:
        ensure(self.phase is Phase.DEALING and not self.plan,
               "RULES A2: face-down first cards are turned up once the deal is complete")
        ensure(not card.is_back and not card.is_joker, f"a turned-up card shows its face, not {card.code}")
        cards = self.dealer if seat == 0 else self.hands[seat][0].cards if seat in self.hands else []
        who = "the dealer" if seat == 0 else f"seat {seat}"
        ensure(any(c.is_back for c in cards), f"{who} has no face-down card to turn up")

    def can_reveal(self, seat: int, card: Card) -> bool:
        return can(self.verify_reveal, seat, card)

    def reveal(self, seat: int, card: Card) -> None:
        """Live mode: the face-down first card of ``seat`` (0 = the dealer) was ``card``."""
        self.verify_reveal(seat, card)
        cards = self.dealer if seat == 0 else self.hands[seat][0].cards
        cards[next(i for i, c in enumerate(cards) if c.is_back)] = card
        self.link.identify(card)  # the shoe counts the card it recorded as BK from now on
        if self.face_down() is None:
            self._after_deal()

    # ---- bets and the deal ------------------------------------------------------------------------
    def verify_bet(self, seat: int, amount: int) -> None:
        check_chips(amount, "bet")
        ensure(self.phase is Phase.BETTING, "bets are placed before the deal")
        ensure(seat in self.order(), f"seat {seat} is not a player (the banker is seat {self.banker})")
        ensure(seat not in self.bets, f"seat {seat} has already bet")
        ensure(self.rules.min_bet <= amount <= self.rules.max_bet,
               f"RULES A2: a bet is {self.rules.min_bet} to {self.rules.max_bet} chips, not {amount}")
        ensure(self.table.ledger.balance(seat_account(seat)) >= amount, f"seat {seat} cannot cover {amount}")

    def can_bet(self, seat: int, amount: int) -> bool:
        return can(self.verify_bet, seat, amount)

    def bet(self, seat: int, amount: int) -> None:
        self.verify_bet(seat, amount)
        if not self.bets:
            self.hands, self.dealer = {}, []
        move(self.table, seat_account(seat), STAKES, amount, f"pontoon bet seat {seat}")
        self.bets[seat] = amount

    def verify_start(self) -> None:
        ensure(self.phase is Phase.BETTING, "a round is already under way" if self.phase is not
               Phase.FIRST_BANKER else "RULES A2: deal for the first banker first")
        ensure(bool(self.bets), "at least one bet before the deal")
        ensure(not self.link.shuffle_due, "shuffle and cut before the deal")
        ensure(not self.burn_due, "RULES A2: burn the top card first")

    def can_start(self) -> bool:
        return can(self.verify_start)

    def start(self) -> None:
        self.verify_start()
        self.round += 1
        players = [s for s in self.order() if s in self.bets]
        self.hands = {s: [PHand(stake=self.bets[s])] for s in players}
        self.dealer = []
        self.plan = players + [0] + players + [0]  # RULES A2: first round face down, second face up
        self.next_bank = None
        self.phase = Phase.DEALING

    def _after_deal(self) -> None:
        dealer_natural = is_natural(self.dealer)
        if dealer_natural:
            # RULES A2: every player pays double, except a player with a natural, who pays the bet.
            for seat, hands in self.hands.items():
                hand = hands[0]
                extra = 0 if is_natural(hand.cards) else hand.stake * (self.rules.natural_multiple - 1)
                self._lose(seat, hand, Result.LOSE, extra=extra)
            self._end()
            return
        for seat in self.order():
            if seat in self.hands and is_natural(self.hands[seat][0].cards):
                hand = self.hands[seat][0]
                self._win(seat, hand, self.rules.natural_multiple, Result.NATURAL)
                if self.next_bank is None:
                    self.next_bank = seat  # RULES A2: nearest the dealer's left takes the bank
        self.phase = Phase.PLAYING
        self._advance()

    # ---- player decisions ------------------------------------------------------------------------
    def legal(self) -> tuple[str, ...]:
        if self.phase is not Phase.PLAYING or self.turn is None:
            return ()
        return tuple(a for a in ("hit", "stand", "double", "split") if can(self.verify_act, a))

    def verify_act(self, action: str) -> None:
        ensure(self.phase is Phase.PLAYING and self.turn is not None, "no player is to act now")
        assert self.turn is not None
        seat, index = self.turn
        hand = self.hands[seat][index]
        ensure(not hand.wants_card, f"seat {seat} is waiting for a card")
        ensure(action in ("hit", "stand", "double", "split"),
               f"unknown action {action!r}: expected hit, stand, double or split")
        two = len(hand.cards) == 2
        if action == "double":
            ensure(two and self.rules.double_on.allows(hand.value.total),
                   "RULES A2 (as A1): double only on the first two cards totalling "
                   f"{self.rules.double_on.value}")
            ensure(self.table.ledger.balance(seat_account(seat)) >= hand.stake, "not enough chips to double")
        if action == "split":
            ensure(two and hand.cards[0].rank == hand.cards[1].rank, "RULES A2 (as A1): split a pair only")
            ensure(len(self.hands[seat]) < self.rules.max_hands, "no more splits")
            ensure(self.table.ledger.balance(seat_account(seat)) >= hand.stake, "not enough chips to split")

    def act(self, action: str) -> None:
        self.verify_act(action)
        assert self.turn is not None
        seat, index = self.turn
        hand = self.hands[seat][index]
        if action == "stand":
            self._stop(seat, hand)
        elif action == "hit":
            hand.wants_card = True
        elif action == "double":
            move(self.table, seat_account(seat), STAKES, hand.stake, f"pontoon double seat {seat}")
            hand.stake *= 2
            hand.doubled = hand.wants_card = True
        else:
            move(self.table, seat_account(seat), STAKES, hand.stake, f"pontoon split seat {seat}")
            second = PHand(cards=[hand.cards.pop()], stake=hand.stake, from_split=True)
            hand.from_split = hand.wants_card = True
            self.hands[seat].insert(index + 1, second)
        self._advance()

    def _stop(self, seat: int, hand: PHand) -> None:
        hand.done = True
        bonus = bonus_multiple(hand.cards, self.rules)
        if bonus is not None:  # RULES A2: bonus hands are paid at once and can no longer lose
            hand.bonus = bonus[0]
            self._win(seat, hand, bonus[1], Result.BONUS)

    def _advance(self) -> None:
        for seat in self.order():
            for index, hand in enumerate(self.hands.get(seat, [])):
                if hand.done or hand.result is not None:
                    continue
                if len(hand.cards) < 2:
                    hand.wants_card = True
                self.turn = (seat, index)
                return
        self.turn = None
        self.phase = Phase.DEALER
        if not any(h.result is None for hands in self.hands.values() for h in hands):
            self._settle()

    # ---- the dealer ---------------------------------------------------------------------------------
    def verify_dealer(self, action: str) -> None:
        ensure(self.phase is Phase.DEALER and not self.dealer_wants_card, "the dealer is not to act now")
        ensure(action in ("hit", "stand"), f"the dealer hits or stands, not {action!r}")

    def dealer_act(self, action: str) -> None:
        """RULES A2: the dealer may draw or stand at any total."""
        self.verify_dealer(action)
        if action == "hit":
            self.dealer_wants_card = True
        else:
            self._settle()

    def _settle(self) -> None:
        dealer = hand_value(self.dealer)
        for seat, hands in self.hands.items():
            for hand in hands:
                if hand.result is not None:
                    continue
                if dealer.bust or hand.value.total > dealer.total:
                    self._win(seat, hand, 1, Result.WIN)
                else:  # RULES A2: lower or equal totals pay the dealer
                    self._lose(seat, hand, Result.LOSE)
        self._end()

    def _win(self, seat: int, hand: PHand, multiple: int, result: Result) -> None:
        want = hand.stake * multiple
        bank = seat_account(self.banker)
        paid = min(want, self.table.ledger.balance(bank))
        self.shortfall += want - paid
        move(self.table, bank, seat_account(seat), paid, f"pontoon {result.value} seat {seat}")
        move(self.table, STAKES, seat_account(seat), hand.stake, f"stake back seat {seat}")
        hand.result, hand.net, hand.done = result, paid, True

    def _lose(self, seat: int, hand: PHand, result: Result, extra: int = 0) -> None:
        bank = seat_account(self.banker)
        move(self.table, STAKES, bank, hand.stake, f"pontoon {result.value} seat {seat}")
        extra = min(extra, self.table.ledger.balance(seat_account(seat)))
        move(self.table, seat_account(seat), bank, extra, f"pontoon pays double seat {seat}")
        hand.result, hand.net, hand.done = result, -(hand.stake + extra), True

    def _end(self) -> None:
        self.history.append(self._round_json(reveal=True))
        del self.history[:-20]
        self.phase = Phase.BETTING
        self.turn = None
        self.bets = {}
        self.dealer_wants_card = False
        if self.next_bank is not None:  # RULES A2: the bank passes after the deal is settled
            self.banker = self.next_bank
        self.next_bank = None
        self.link.mark_round_end()

    def verify_pass_bank(self, seat: int) -> None:
        ensure(self.phase is Phase.BETTING and not self.bets, "the bank changes hands between rounds only")
        ensure(1 <= seat <= self.rules.players and seat != self.banker, f"seat {seat} cannot take the bank")

    def pass_bank(self, seat: int) -> None:
        """RULES A2: the banker may give (or sell) the right to deal."""
        self.verify_pass_bank(seat)
        self.banker = seat

    # ---- Game protocol -------------------------------------------------------------------------------
    def prompt(self) -> Prompt:
        target = self.card_target()
        if self.link.shuffle_due:
            return Prompt(Step.SHUFFLE, "dealer", text="shuffle and cut the pack")
        if target == "burn":
            return Prompt(Step.CARD, "burn", text="turn up the top card and put it at the bottom")
        if target is not None and self.phase is not Phase.FIRST_BANKER and self.link.empty:
            return Prompt(Step.DECIDE, "dealer", ("reshuffle",),
                          text="the burned card is reached: shuffle the discards and cut")
        if self.phase is Phase.FIRST_BANKER:
            return Prompt(Step.CARD, target, text="deal face up until a black jack falls")
        if self.phase is Phase.BETTING:
            return Prompt(Step.BET, None, ("bet", "deal"), text=f"seat {self.banker} banks: place bets")
        hidden = self.face_down()
        if hidden is not None:
            who = "dealer" if hidden == 0 else seat_account(hidden)
            return Prompt(Step.DECIDE, who, ("reveal",),
                          text=f"{'the dealer' if hidden == 0 else f'seat {hidden}'}: "
                               "turn up the face-down card")
        if target is not None:
            return Prompt(Step.CARD, target, text=f"card to {target.replace('-', ' ')}")
        if self.phase is Phase.PLAYING and self.turn is not None:
            return Prompt(Step.DECIDE, seat_account(self.turn[0]), self.legal(),
                          text=f"seat {self.turn[0]} to act")
        return Prompt(Step.DECIDE, "dealer", ("hit", "stand"), text="the banker draws or stands")

    def card_operation(self, card: Card) -> Operation:
        return PontoonCard(card)

    def auto_operation(self) -> Operation | None:
        target = self.card_target()
        if target not in (None, "burn") and self.link.empty and self.phase is not Phase.FIRST_BANKER:
            return ReshuffleDiscards(GAME)
        if self.phase is Phase.PLAYING and self.turn is not None:
            from dealer.core.analysis.blackjack_strategy import seed_hint

            hand = self.hands[self.turn[0]][self.turn[1]]
            legal = self.legal()
            if not legal:
                return None
            # The seed's hints against an unseen dealer hand: play as against a 7-or-better upcard.
            code = seed_hint(hand.cards, Card.of(Rank.TEN, Suit.SPADES))
            choice = {"P": "split", "D": "double", "H": "hit", "S": "stand"}[code]
            if choice not in legal:
                choice = "hit" if code in ("P", "D") and "hit" in legal else "stand"
            if choice == "hit" and len(hand.cards) >= self.rules.charlie_cards:
                choice = "stand"  # take the charlie
            return PontoonAct(choice)
        if self.phase is Phase.DEALER and not self.dealer_wants_card:
            total = hand_value(self.dealer).total
            return PontoonDealer("hit" if total < self.rules.dealer_hits_below else "stand")
        return None

    def _round_json(self, *, reveal: bool) -> dict[str, Any]:
        def cards(cs: list[Card], done: bool) -> list[str]:
            codes = [c.code for c in cs]
            if codes and not (reveal or done):
                codes[0] = "BK"  # the first round is dealt face down
            return codes

        dealer_open = reveal or self.phase is Phase.DEALER
        return {
            "round": self.round, "banker": self.banker,
            "dealer": {"cards": cards(self.dealer, dealer_open),
                       "total": hand_value(self.dealer).total if dealer_open else None},
            "seats": {str(s): [{"cards": cards(h.cards, h.result is not None), "stake": h.stake,
                                "total": h.value.total if (reveal or h.result is not None) else None,
                                "result": None if h.result is None else h.result.value, "bonus": h.bonus,
                                "net": h.net} for h in hands]
                      for s, hands in self.hands.items()},
        }

    def to_json(self) -> dict[str, Any]:
        shoe = self.link.shoe
        return {"game": GAME, "phase": self.phase.value, "banker": self.banker, "round": self.round,
                "prompt": self.prompt().to_json(), "bets": {str(s): a for s, a in self.bets.items()},
                "burn_card": None if self.burn_card is None else self.burn_card.code,
                "first_banker_cards": [{"seat": s, "card": c} for s, c in self.first_banker_cards],
                "turn": None if self.turn is None else {"seat": self.turn[0], "hand": self.turn[1]},
                **self._round_json(reveal=False), "bank_shortfall": self.shortfall,
                "cards_left": None if shoe is None else shoe.cards_left, "last_rounds": self.history[-5:]}



def _game(table: TableState) -> PontoonGame:
    return game_of(table, GAME, PontoonGame, "pontoon.new")


@register_operation
@dataclass(frozen=True)
class NewPontoonGame(Operation):
    """Open pontoon for ``players`` seats (banker included). ``first_banker`` 0 deals for it
    (RULES A2: the first black jack); otherwise that seat banks. Loads a single pack."""

    kind: ClassVar[str] = "pontoon.new"
    players: int = 5
    first_banker: int = 0
    min_bet: int = 1
    max_bet: int = 5
    mode: ShoeMode = ShoeMode.KNOWN
    rules: str = ""

    def apply(self, table: TableState) -> None:
        ensure(0 <= self.first_banker <= self.players, f"first banker must be a seat 1..{self.players} or 0")
        ensure(self.rules in ("", "std"), f"pontoon takes no rules spec, got {self.rules!r}")
        rules = PontoonRules(players=self.players, min_bet=self.min_bet, max_bet=self.max_bet)
        table.shoe = Shoe(ShoeRules(1), self.mode)  # RULES A2: always a single pack
        game = PontoonGame(rules=rules, link=ShoeLink(table))
        if self.first_banker:
            game.banker, game.phase = self.first_banker, Phase.BETTING
        table.games[GAME] = game


@register_operation
@dataclass(frozen=True)
class PontoonBet(Operation):
    kind: ClassVar[str] = "pontoon.bet"
    seat: int
    amount: int

    def apply(self, table: TableState) -> None:
        _game(table).bet(self.seat, self.amount)


@register_operation
@dataclass(frozen=True)
class PontoonStart(Operation):
    kind: ClassVar[str] = "pontoon.deal"

    def apply(self, table: TableState) -> None:
        _game(table).start()


@register_operation
@dataclass(frozen=True)
class PontoonCard(Operation):
    kind: ClassVar[str] = "pontoon.card"
    card: Card

    def apply(self, table: TableState) -> None:
        _game(table).take_card(self.card)


@register_operation
@dataclass(frozen=True)
class PontoonReveal(Operation):
    """Live mode: a face-down first card is turned up (``seat`` 0 = the dealer)."""

    kind: ClassVar[str] = "pontoon.reveal"
    seat: int
    card: Card

    def apply(self, table: TableState) -> None:
        _game(table).reveal(self.seat, self.card)


@register_operation
@dataclass(frozen=True)
class PontoonAct(Operation):
    kind: ClassVar[str] = "pontoon.act"
    action: str

    def apply(self, table: TableState) -> None:
        _game(table).act(self.action)


@register_operation
@dataclass(frozen=True)
class PontoonDealer(Operation):
    kind: ClassVar[str] = "pontoon.dealer"
    action: str

    def apply(self, table: TableState) -> None:
        _game(table).dealer_act(self.action)


@register_operation
@dataclass(frozen=True)
class PassBank(Operation):
    kind: ClassVar[str] = "pontoon.pass-bank"
    seat: int

    def apply(self, table: TableState) -> None:
        _game(table).pass_bank(self.seat)


__all__ = ["GAME", "STAKES", "NewPontoonGame", "PassBank", "PontoonAct", "PontoonBet", "PontoonCard",
           "PontoonDealer", "PontoonGame", "PontoonReveal", "PontoonRules", "PontoonStart", "bonus_multiple",
           "points"]
