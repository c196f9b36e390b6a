"""Pusoy (piat-piat, pepito), RULES A9.

The dealer (the bank) and up to three players; the whole 52-card pack is dealt one card at a time
clockwise from the dealer's left, thirteen each (at home with fewer than four people only
thirteen each are dealt and the rest stay in the pack — our reading). Everybody splits his cards
into a back (5) ≥ middle (5) ≥ front (3); the front counts pairs and trips only, and A-2-3-4-5 is
the lowest straight. Each player is compared with the dealer position by position, **ties going to
the dealer**:

========================  ======================================
player wins 3 of 3        +2 bets ("pusoy")
player wins 2 of 3        +1 bet
player wins 1 of 3        −1 bet
player wins 0 of 3        −2 bets ("pusoy")
player fouls ("totyo")    −2 bets
dealer fouls              +2 bets to each player (standard reading; the seed is silent)
both foul                 push (each owes the other double — our reading)
========================  ======================================

House-rule variants (agreed before the session): **surrender** — a player may concede one bet
before setting his hands (cards unseen); the dealer may concede once every player has declared
(set or surrendered), paying one bet to each player still in; **royalties** — a player dealt a
straight flush, four of a kind or six pairs may show it before settlement and is paid one bet at
once (his round ends there; he may instead play on).

>>> from dealer.core.table_state import TableState, TransferChips, ShuffleShoe
>>> table = TableState()
>>> table.apply(NewPusoyGame(home_game=True, mode=ShoeMode.OBSERVED))
>>> table.apply(ShuffleShoe())
>>> table.apply(TransferChips("cage", "seat-1", 100, "buy-in"))
>>> table.apply(PusoyBet(1, 10))
>>> table.apply(PusoyDeal())
>>> mine = "AS AD KC KD QH QS 2C 3D 4H 5S 9C 9D 9H".split()
>>> dealer = "2D 3H 4S 6C 7D 8H 10C JD QC KH AC 5C 6D".split()
>>> for a, b in zip(mine, dealer):
...     table.apply(PusoyCard(Card.parse(a))); table.apply(PusoyCard(Card.parse(b)))
>>> table.apply(PusoySet(1, parse_cards("9C 9D 9H 2C 3D"), parse_cards("AS AD KC KD 4H"),
...                      parse_cards("QH QS 5S")))
>>> table.apply(PusoySet(0, parse_cards("AC KH QC JD 10C"), parse_cards("2D 3H 4S 5C 6D"),
...                      parse_cards("8H 7D 6C")))
>>> table.apply(PusoySettle())          # two straights beat trips and two pair; queens win in front
>>> table.games["pusoy"].results[0]["outcome"], table.ledger.balance("seat-1")
('lose', 90)
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar

from dealer.core.cards import Card, parse_cards
from dealer.core.errors import IllegalOperation
from dealer.core.evaluation.pusoy_setting import PusoySetting, best_setting
from dealer.core.games.base import Prompt, Step
from dealer.core.games.caribbean_stud import open_pack
from dealer.core.games.shoe_game import ShoeLink, move, seat_account
from dealer.core.ledger import HOUSE
from dealer.core.money import check_chips
from dealer.core.operations import Operation, ensure, register_operation
from dealer.core.shoe import ShoeMode
from dealer.core.table_state import TableState, game_of

__all__ = ["NewPusoyGame", "PusoyBet", "PusoyCard", "PusoyDeal", "PusoyGame", "PusoyRoyalty", "PusoyRules",
           "PusoySet", "PusoySettle", "PusoySurrender", "is_royalty", "outcome_of", "parse_cards"]

GAME = "pusoy"
STAKES = "pusoy:stakes"
HAND = 13
DEALER = 0
PAYMENT = {3: 2, 2: 1, 1: -1, 0: -2}  # positions won by the player -> bets won (RULES A9)
_OUTCOME = {3: "pusoy-win", 2: "win", 1: "lose", 0: "pusoy-lose"}


class Phase(enum.Enum):
    BETTING = "betting"
    DEALING = "dealing"
    SETTING = "setting"
    SETTLING = "settling"


@dataclass(frozen=True)
class PusoyRules:
    home_game: bool = False  # casino: exactly three players and the dealer; home: one to three players
    surrender: bool = False
    royalties: bool = False
    min_bet: int = 1
    max_bet: int | None = None

    def __post_init__(self) -> None:
        ensure(self.min_bet >= 1 and (self.max_bet is None or self.max_bet >= self.min_bet),
               f"bet limits need 1 <= min <= max, got {self.min_bet}..{self.max_bet}")

    def to_json(self) -> dict[str, Any]:
        return {"home_game": self.home_game, "surrender": self.surrender, "royalties": self.royalties,
                "min_bet": self.min_bet, "max_bet": self.max_bet}


def is_royalty(cards: list[Card] | tuple[Card, ...]) -> str | None:
    """RULES A9 royalties: a straight flush, four of a kind or six pairs among the 13 cards."""
    ranks = Counter(c.rank for c in cards)
    if any(n == 4 for n in ranks.values()):
        return "four-of-a-kind"
    if sum(n // 2 for n in ranks.values()) >= 6:
        return "six-pairs"
    for suit in {c.suit for c in cards}:
        highs = {c.rank.high for c in cards if c.suit == suit and c.rank is not None}
        if 14 in highs:
            highs.add(1)  # A-2-3-4-5 counts (the lowest straight flush)
        if any(all(low + i in highs for i in range(5)) for low in range(1, 11)):
            return "straight-flush"
    return None


def outcome_of(player: PusoySetting, dealer: PusoySetting) -> tuple[str, int]:
    """(outcome, bets won by the player) for one comparison (RULES A9; ties go to the dealer)."""
    if player.foul and dealer.foul:
        return "both-foul", 0
    if player.foul:
        return "player-foul", -2
    if dealer.foul:
        return "dealer-foul", 2
    wins = sum((player.back_value > dealer.back_value, player.middle_value > dealer.middle_value,
                player.front_value > dealer.front_value))
    return _OUTCOME[wins], PAYMENT[wins]


@dataclass
class Hand:
    bet: int
    cards: list[Card] = field(default_factory=list)
    setting: PusoySetting | None = None
    surrendered: bool = False
    royalty: str | None = None

    @property
    def declared(self) -> bool:
        return self.setting is not None or self.surrendered or self.royalty is not None


@dataclass
class PusoyGame:
    """A pusoy table (see the module docs); the dealer banks from ``banker`` ("house" or a seat)."""

    name: ClassVar[str] = GAME
    rules: PusoyRules = field(default_factory=PusoyRules)
    link: ShoeLink = field(default_factory=ShoeLink)
    banker: str = HOUSE
    phase: Phase = Phase.BETTING
    round: int = 1
    hands: dict[int, Hand] = field(default_factory=dict)  # 0 = the dealer
    results: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def table(self) -> TableState:
        ensure(self.link.table is not None, "this pusoy game is not attached to a table")
        assert self.link.table is not None
        return self.link.table

    def players(self) -> list[int]:
        return sorted(n for n in self.hands if n != DEALER)

    def _seen(self, exclude: int | None = None) -> set[Card]:
        seen = set()
        for n, h in self.hands.items():
            if n != exclude:
                seen |= {c for c in h.cards if not c.is_back}
                if h.setting is not None:
                    seen |= set(h.setting.cards)
        return seen

    # ---- bets and deal ---------------------------------------------------------------------------
    def verify_bet(self, seat: int, amount: int) -> None:
        ensure(self.phase is Phase.BETTING, "RULES A9: bets are placed before the deal")
        ensure(not self.link.shuffle_due, "shuffle the pack before the round")
        ensure(seat in (1, 2, 3), f"RULES A9: the players sit at seats 1..3, not {seat}")
        ensure(seat_account(seat) != self.banker, "the dealer does not bet against himself")
        ensure(seat not in self.hands, f"seat {seat} already has a bet this round")
        check_chips(amount, "bet")
        r = self.rules
        ensure(amount >= r.min_bet and (r.max_bet is None or amount <= r.max_bet),
               f"a bet is {r.min_bet} to {r.max_bet or 'no limit'} chips, not {amount}")
        have = self.table.ledger.balance(seat_account(seat))
        ensure(have >= 2 * amount, f"RULES A9: a pusoy or a foul costs double: a bet of {amount} needs "
                                   f"{2 * amount} chips; seat {seat} has {have}")

    def can_bet(self, seat: int, amount: int) -> bool:
        try:
            self.verify_bet(seat, amount)
        except IllegalOperation:
            return False
        return True

    def bet(self, seat: int, amount: int) -> None:
        self.verify_bet(seat, amount)
        move(self.table, seat_account(seat), STAKES, amount, f"pusoy bet, round {self.round}")
        self.hands[seat] = Hand(amount)

    def verify_deal(self) -> None:
        ensure(self.phase is Phase.BETTING and not self.link.shuffle_due,
               "deal a shuffled pack between rounds")
        count = len(self.hands)
        if self.rules.home_game:
            ensure(1 <= count <= 3, "RULES A9: two to four people play at home: one to three players bet")
        else:
            ensure(count == 3, f"RULES A9: the casino game needs exactly three players and the dealer "
                               f"({count} bet)")
        if self.banker != HOUSE:
            total = 2 * sum(h.bet for h in self.hands.values())
            have = self.table.ledger.balance(self.banker)
            ensure(have >= total, f"the dealer ({self.banker}) must cover double every bet: {total} chips, "
                                  f"has {have}")

    def deal(self) -> None:
        self.verify_deal()
        self.hands[DEALER] = Hand(0)
        self.phase = Phase.DEALING

    def card_target(self) -> int | None:
        """RULES A9: one at a time, clockwise from the dealer's left (seat 1), the dealer last."""
        if self.phase is not Phase.DEALING:
            return None
        order = self.players() + [DEALER]
        dealt = sum(len(h.cards) for h in self.hands.values())
        return order[dealt % len(order)]

    def verify_card(self, card: Card) -> None:
        ensure(self.card_target() is not None, "RULES A9: no card is due now")
        ensure(not card.is_joker, "RULES A9: a 52-card pack with no joker")
        ensure(card.is_back or card not in self._seen(), f"{card.code} was already dealt this round")

    def take_card(self, card: Card) -> None:
        self.verify_card(card)
        target = self.card_target()
        assert target is not None
        self.link.record_card(card)
        self.hands[target].cards.append(card)
        if all(len(h.cards) == HAND for h in self.hands.values()):
            self.phase = Phase.SETTING

    # ---- declaring: surrender, royalties, setting ------------------------------------------------
    def _faces(self, who: int, cards: tuple[Card, ...]) -> list[Card]:
        dealt = self.hands[who].cards
        known = Counter(c for c in dealt if not c.is_back)
        given = Counter(cards)
        ensure(all(not c.is_back for c in cards), "set hands show their faces")
        ensure(not known - given, f"the hands leave out {' '.join(c.code for c in known - given)}")
        extra = given - known
        unknown = sum(1 for c in dealt if c.is_back)
        ensure(sum(extra.values()) == unknown and all(v == 1 for v in given.values()),
               f"{'the dealer' if who == DEALER else f'seat {who}'} holds "
               f"{' '.join(c.code for c in dealt)}; the cards given do not match")
        clash = [c.code for c in extra if c in self._seen(exclude=who)]
        ensure(not clash, f"{' '.join(clash)} is in another hand")
        return list(cards)

    def _players_declared(self) -> bool:
        return all(self.hands[n].declared for n in self.players())

    def verify_set(self, who: int, setting: PusoySetting) -> None:
        ensure(self.phase is Phase.SETTING, "RULES A9: hands are set after the deal")
        ensure(who in self.hands, f"{who} has no hand this round")
        ensure(not self.hands[who].declared, f"RULES A9: {'the dealer' if who == DEALER else f'seat {who}'} "
                                             f"has already placed his hands (they may not be touched again)")
        if who == DEALER and self.rules.surrender:
            ensure(self._players_declared(), "RULES A9 (surrender): the dealer sets last, after every player "
                                             "has declared")
        self._faces(who, setting.cards)

    def set_hands(self, who: int, setting: PusoySetting) -> None:
        self.verify_set(who, setting)
        self.hands[who].setting = setting
        self._maybe_settling()

    def verify_surrender(self, who: int) -> None:
        ensure(self.rules.surrender, "RULES A9: surrender is a variant this table does not play")
        ensure(self.phase is Phase.SETTING, "RULES A9: surrender comes after the deal, before settlement")
        ensure(who in self.hands and not self.hands[who].declared,
               "RULES A9: once the hands are placed it is too late to surrender")
        if who == DEALER:
            ensure(self._players_declared(), "RULES A9: the dealer gives no sign until every player has "
                                             "declared")

    def surrender(self, who: int) -> None:
        self.verify_surrender(who)
        h = self.hands[who]
        h.surrendered = True
        if who == DEALER:
            # RULES A9: the dealer pays one bet to every player still in; nothing else is compared.
            for n in self.players():
                p = self.hands[n]
                if not p.surrendered and p.royalty is None:
                    move(self.table, STAKES, seat_account(n), p.bet, "pusoy: bet back, dealer surrenders")
                    move(self.table, self.banker, seat_account(n), p.bet, "pusoy: dealer surrenders")
                    self.results.append({"seat": n, "bet": p.bet, "outcome": "dealer-surrender",
                                         "net": p.bet})
            self.phase = Phase.SETTLING
        else:
            move(self.table, STAKES, self.banker, h.bet, "pusoy: player surrenders")
            self.results.append({"seat": who, "bet": h.bet, "outcome": "surrender", "net": -h.bet})
            self._maybe_settling()

    def verify_royalty(self, seat: int, cards: tuple[Card, ...]) -> str:
        ensure(self.rules.royalties, "RULES A9: royalties are a variant this table does not play")
        ensure(self.phase is Phase.SETTING and seat != DEALER and seat in self.hands,
               "RULES A9: a player shows royalties after the deal, before settlement")
        ensure(not self.hands[seat].declared, f"seat {seat} has already declared")
        faces = self._faces(seat, cards) if cards else self.hands[seat].cards
        ensure(all(not c.is_back for c in faces), "show all thirteen faces to claim royalties")
        kind = is_royalty(faces)
        ensure(kind is not None, "RULES A9: royalties need a straight flush, four of a kind or six pairs")
        assert kind is not None
        return kind

    def royalty(self, seat: int, cards: tuple[Card, ...]) -> None:
        kind = self.verify_royalty(seat, cards)
        h = self.hands[seat]
        if cards:
            h.cards[:] = list(cards)
        h.royalty = kind
        move(self.table, STAKES, seat_account(seat), h.bet, "pusoy: bet back (royalties)")
        move(self.table, self.banker, seat_account(seat), h.bet, f"pusoy royalties: {kind}")
        self.results.append({"seat": seat, "bet": h.bet, "outcome": "royalties", "royalty": kind,
                             "net": h.bet})
        self._maybe_settling()

    def _maybe_settling(self) -> None:
        if all(h.declared for h in self.hands.values()):
            self.phase = Phase.SETTLING
        elif self._players_active() == 0 and not self.hands[DEALER].declared:
            self.phase = Phase.SETTLING  # every player surrendered or took royalties

    def _players_active(self) -> int:
        return sum(1 for n in self.players()
                   if not self.hands[n].surrendered and self.hands[n].royalty is None)

    # ---- settlement ------------------------------------------------------------------------------
    def settle(self) -> None:
        ensure(self.phase is Phase.SETTLING, "RULES A9: settle once every hand is placed")
        table = self.table
        dealer = self.hands[DEALER]
        plan: list[tuple[int, str, int]] = []  # (seat, outcome, bets won)
        if not dealer.surrendered:
            for n in self.players():
                h = self.hands[n]
                if h.surrendered or h.royalty is not None:
                    continue
                assert h.setting is not None and dealer.setting is not None
                outcome, won = outcome_of(h.setting, dealer.setting)
                plan.append((n, outcome, won))
        # Losers pay the bank first, so a player-banker always has the chips to pay the winners.
        for n, outcome, won in sorted(plan, key=lambda p: p[2]):
            h, account = self.hands[n], seat_account(n)
            if won < 0:
                move(table, STAKES, self.banker, h.bet, f"pusoy: {outcome}")
                move(table, account, self.banker, h.bet * (-won - 1), f"pusoy: {outcome} pays double")
            else:
                move(table, STAKES, account, h.bet, "pusoy: bet back")
                move(table, self.banker, account, h.bet * won, f"pusoy: {outcome}")
            self.results.append({"seat": n, "bet": h.bet, "outcome": outcome, "net": h.bet * won})
        self.results.sort(key=lambda r: int(r["seat"]))
        self.history.append({"round": self.round, "results": self.results,
                             "hands": {str(n): h.setting.to_json()
                                       for n, h in self.hands.items() if h.setting}})
        self.link.mark_round_end(always_shuffle=True)
        self.round += 1
        self.phase = Phase.BETTING
        self.hands = {}

    # ---- Game protocol ---------------------------------------------------------------------------
    def next_to_declare(self) -> int | None:
        if self.phase is not Phase.SETTING:
            return None
        return next((n for n in self.players() + [DEALER] if not self.hands[n].declared), None)

    def prompt(self) -> Prompt:
        if self.phase is Phase.BETTING:
            if self.link.shuffle_due:
                return Prompt(Step.SHUFFLE, "dealer", text="shuffle the pack")
            return Prompt(Step.BET, "players", ("bet", "deal"), "place bets, then deal thirteen each")
        if self.phase is Phase.DEALING:
            target = self.card_target()
            who = "dealer" if target == DEALER else f"seat-{target}"
            return Prompt(Step.CARD, who, ("card",), f"deal a card face down to {who}")
        if self.phase is Phase.SETTING:
            declaring = self.next_to_declare()
            options = ["set"]
            if self.rules.surrender:
                options.append("surrender")
            if self.rules.royalties and declaring != DEALER:
                options.append("royalties")
            name = "dealer" if declaring == DEALER else f"seat-{declaring}"
            return Prompt(Step.DECIDE, name, tuple(options), f"{name}: set back, middle and front")
        return Prompt(Step.SETTLE, "dealer", ("settle",), "compare every player with the dealer")

    def card_operation(self, card: Card) -> Operation:
        return PusoyCard(card)

    def auto_operation(self) -> Operation | None:
        """Simulated mode: every hand set by the best-setting search; royalties taken and surrender
        conceded when they beat the setting's expectation."""
        if self.phase is Phase.SETTLING:
            return PusoySettle()
        who = self.next_to_declare()
        if who is None:
            return None
        h = self.hands[who]
        if any(c.is_back for c in h.cards):
            return None
        best = best_setting(h.cards, as_dealer=who == DEALER)
        if who != DEALER and self.rules.royalties and is_royalty(h.cards) and best.expected_value < 1:
            return PusoyRoyalty(who)
        if self.rules.surrender and best.expected_value < -1 and (who != DEALER or self._players_active()):
            return PusoySurrender(who)
        s = best.setting
        return PusoySet(who, s.back, s.middle, s.front)

    def to_json(self) -> dict[str, Any]:
        hands: dict[str, Any] = {}
        for n, h in sorted(self.hands.items()):
            row: dict[str, Any] = {"bet": h.bet, "cards": len(h.cards), "surrendered": h.surrendered,
                                   "royalty": h.royalty, "set": h.setting is not None}
            if self.phase is Phase.SETTLING and h.setting is not None:
                row["setting"] = h.setting.to_json()  # RULES A9: all hands are turned up to settle
            hands["dealer" if n == DEALER else str(n)] = row
        return {"game": GAME, "rules": self.rules.to_json(), "banker": self.banker, "round": self.round,
                "phase": self.phase.value, "hands": hands, "results": self.results,
                "history": self.history[-10:], "prompt": self.prompt().to_json()}


def _game(table: TableState) -> PusoyGame:
    return game_of(table, GAME, PusoyGame, "pusoy.new")


# ---- operations ----------------------------------------------------------------------------------
@register_operation
@dataclass(frozen=True)
class NewPusoyGame(Operation):
    """Open a pusoy table; ``banker`` is ``house`` or the seat account of a player-dealer (home game)."""

    kind: ClassVar[str] = "pusoy.new"
    home_game: bool = False
    surrender: bool = False
    royalties: bool = False
    min_bet: int = 1
    max_bet: int | None = None
    banker: str = HOUSE
    mode: ShoeMode = ShoeMode.KNOWN
    fresh_shoe: bool = False

    def apply(self, table: TableState) -> None:
        rules = PusoyRules(self.home_game, self.surrender, self.royalties, self.min_bet, self.max_bet)
        ensure(self.banker == HOUSE or (self.home_game and self.banker.startswith("seat-")),
               "the bank is the house, or a player's seat in the home game")
        open_pack(table, self.mode, self.fresh_shoe)
        table.games[GAME] = PusoyGame(rules=rules, link=ShoeLink(table), banker=self.banker)


@register_operation
@dataclass(frozen=True)
class PusoyBet(Operation):
    kind: ClassVar[str] = "pusoy.bet"
    seat: int
    amount: int

    def apply(self, table: TableState) -> None:
        _game(table).bet(self.seat, self.amount)


@register_operation
@dataclass(frozen=True)
class PusoyDeal(Operation):
    kind: ClassVar[str] = "pusoy.deal"

    def apply(self, table: TableState) -> None:
        _game(table).deal()


@register_operation
@dataclass(frozen=True)
class PusoyCard(Operation):
    """The next card of the deal (``BK`` when dealt face down unseen)."""

    kind: ClassVar[str] = "pusoy.card"
    card: Card

    def apply(self, table: TableState) -> None:
        _game(table).take_card(self.card)


@register_operation
@dataclass(frozen=True)
class PusoySet(Operation):
    """``seat`` (0 = the dealer) places back, middle and front (faces shown)."""

    kind: ClassVar[str] = "pusoy.set"
    seat: int
    back: tuple[Card, ...]
    middle: tuple[Card, ...]
    front: tuple[Card, ...]

    def apply(self, table: TableState) -> None:
        _game(table).set_hands(self.seat, PusoySetting.of(self.back, self.middle, self.front))


@register_operation
@dataclass(frozen=True)
class PusoySurrender(Operation):
    kind: ClassVar[str] = "pusoy.surrender"
    seat: int

    def apply(self, table: TableState) -> None:
        _game(table).surrender(self.seat)


@register_operation
@dataclass(frozen=True)
class PusoyRoyalty(Operation):
    """A player shows royalties (``cards``: all thirteen faces when they were dealt unseen)."""

    kind: ClassVar[str] = "pusoy.royalty"
    seat: int
    cards: tuple[Card, ...] = ()

    def apply(self, table: TableState) -> None:
        _game(table).royalty(self.seat, tuple(self.cards))


@register_operation
@dataclass(frozen=True)
class PusoySettle(Operation):
    kind: ClassVar[str] = "pusoy.settle"

    def apply(self, table: TableState) -> None:
        _game(table).settle()
