"""Cribbage (RULES C3, 0.1 item 10): counting hands and crib from cards, pegging, his heels, game end.

Counting a hand with its starter (the 29 hand: three fives and the jack of the starter's suit, with a
five turned):

>>> count_hand(parse_cards("5H 5D 5S JC"), Card.parse("5C")).total
29
>>> count_hand(parse_cards("8C 7D 7S 6H"), Card.parse("2D")).total  # RULES C3 worked example
16
>>> count_hand(parse_cards("2H 4H 6H 9H"), Card.parse("KS"), crib=True).total  # no flush in a crib
4

Pegging scores each card as it is played (9-6 is fifteen, 9-6-8-7 a run of four, then last card);
a card that would pass 31 starts a new series after a Go:

>>> [p.points for p in peg_sequence([("a", "9H"), ("b", "6C"), ("a", "8D"), ("b", "7S")])]
[0, 2, 0, 4, 1]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar

from dealer.core.cards import Card, Rank, parse_cards
from dealer.core.scoring.base import Data, GameResult, Item, Scored, ScoreError, ScoreGame, rule

__all__ = ["Cribbage", "CribbageRules", "HandCount", "PegPoint", "count_hand", "card_value", "peg_sequence"]


def card_value(card: Card) -> int:
    """Pip value for fifteens and the 31 count: K Q J count 10, the ace 1."""
    assert card.rank is not None
    return min(int(card.rank), 10)


@dataclass(frozen=True)
class Combo:
    kind: str  # fifteen, pair, run, flush, nobs
    cards: tuple[Card, ...]
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": [c.code for c in self.cards], "points": self.points}


@dataclass(frozen=True)
class HandCount:
    """A counted hand: every scoring combination, each counted separately (RULES C3)."""

    cards: tuple[Card, ...]
    starter: Card
    crib: bool
    combos: tuple[Combo, ...]

    @property
    def total(self) -> int:
        return sum(c.points for c in self.combos)

    def by_kind(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.combos:
            out[c.kind] = out.get(c.kind, 0) + c.points
        return out

    def to_json(self) -> dict[str, Any]:
        return {"cards": [c.code for c in self.cards], "starter": self.starter.code, "crib": self.crib,
                "total": self.total, "by_kind": self.by_kind(),
                "combinations": [c.to_json() for c in self.combos]}


def _check_cards(hand: Sequence[Card], starter: Card, what: str) -> None:
    for card in (*hand, starter):
        if card.rank is None:
            raise ScoreError(f"{what}: cribbage uses a 52-card pack without jokers, got {card.code}")
    if len(hand) != 4:
        raise ScoreError(f"{what}: a cribbage hand or crib has 4 cards (plus the starter), got {len(hand)}")
    codes = [c.code for c in (*hand, starter)]
    if len(set(codes)) != len(codes):
        raise ScoreError(f"{what}: a card appears twice in {' '.join(codes)} (one 52-card pack)")


def count_hand(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> HandCount:
    """Count a four-card hand (or the crib, ``crib=True``) with the starter. RULES C3."""
    _check_cards(hand, starter, "crib" if crib else "hand")
    five = (*hand, starter)
    combos: list[Combo] = []
    for size in range(2, 6):
        for subset in combinations(five, size):
            if sum(card_value(c) for c in subset) == 15:
                combos.append(Combo("fifteen", subset, 2))
    for a, b in combinations(five, 2):
        if a.rank == b.rank:
            combos.append(Combo("pair", (a, b), 2))
    for size in (5, 4, 3):
        runs = [s for s in combinations(five, size) if _is_run(s)]
        if runs:
            combos.extend(Combo("run", tuple(sorted(s, key=_rank)), size) for s in runs)
            break
    suits = {c.suit for c in hand}
    if len(suits) == 1:
        if starter.suit in suits:
            combos.append(Combo("flush", tuple(five), 5))
        elif not crib:
            combos.append(Combo("flush", tuple(hand), 4))
    for card in hand:
        if card.rank is Rank.JACK and card.suit == starter.suit:
            combos.append(Combo("nobs", (card,), 1))
    return HandCount(tuple(hand), starter, crib, tuple(combos))


def _rank(card: Card) -> int:
    assert card.rank is not None
    return int(card.rank)


def _is_run(cards: Iterable[Card]) -> bool:
    ranks = sorted(_rank(c) for c in cards)
    return all(b - a == 1 for a, b in zip(ranks, ranks[1:], strict=False))


@dataclass(frozen=True)
class PegPoint:
    """What one played card (or the end of a series) pegged for its player."""

    player: str
    card: Card | None  # None for a go / last-card point that ends a series
    count: int
    points: int
    reasons: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "card": None if self.card is None else self.card.code,
                "count": self.count, "points": self.points, "reasons": list(self.reasons)}


@dataclass
class PeggingState:
    """The play in progress: the current series, who said Go, and every card played this hand."""

    count: int = 0
    series: list[tuple[str, Card]] = field(default_factory=list)
    gone: set[str] = field(default_factory=set)
    played: dict[str, list[Card]] = field(default_factory=dict)

    def close_series(self) -> list[PegPoint]:
        """End the series: the last card pegs 1 for Go unless the count is exactly 31."""
        points = []
        if self.series and self.count != 31:
            points.append(PegPoint(self.series[-1][0], None, self.count, 1, ("go",)))
        self.count, self.series, self.gone = 0, [], set()
        return points

    def play(self, player: str, card: Card) -> list[PegPoint]:
        if card.rank is None:
            raise ScoreError(f"pegging: {card.code} is not a cribbage card")
        for cards in self.played.values():
            if card in cards:
                raise ScoreError(f"pegging: {card.code} was already played this hand")
        out: list[PegPoint] = []
        if self.count + card_value(card) > 31:
            # RULES C3: nobody could play without passing 31, so this card starts a new series after a Go.
            if player in self.gone:
                raise ScoreError(f"pegging: {player} said Go; {card.code} would pass 31")
            out.extend(self.close_series())
        if player in self.gone:
            raise ScoreError(f"pegging: {player} said Go and cannot play again until the count restarts")
        self.series.append((player, card))
        self.played.setdefault(player, []).append(card)
        self.count += card_value(card)
        reasons: list[str] = []
        points = 0
        if self.count == 15:
            reasons.append("fifteen")
            points += 2
        if self.count == 31:
            reasons.append("thirty-one")
            points += 2
        same = 1
        for _, earlier in reversed(self.series[:-1]):
            if earlier.rank != card.rank:
                break
            same += 1
        if same >= 2:
            value = {2: 2, 3: 6, 4: 12}[same]
            reasons.append({2: "pair", 3: "pair royal", 4: "double pair royal"}[same])
            points += value
        best_run = 0
        cards = [c for _, c in self.series]
        for length in range(len(cards), 2, -1):
            if _is_run(cards[-length:]) and len({_rank(c) for c in cards[-length:]}) == length:
                best_run = length
                break
        if best_run:
            reasons.append(f"run of {best_run}")
            points += best_run
        out.append(PegPoint(player, card, self.count, points, tuple(reasons)))
        if self.count == 31:
            self.close_series()
        return out

    def go(self, player: str, players: Sequence[str]) -> list[PegPoint]:
        if not self.series:
            raise ScoreError("pegging: nothing has been played in this series; a Go needs a count")
        self.gone.add(player)
        if set(players) <= self.gone:
            return self.close_series()
        return []


def peg_sequence(plays: Iterable[tuple[str, str | Card]], *, final: bool = True) -> list[PegPoint]:
    """Peg a whole play: ``(player, card code)`` in order, or ``(player, "go")``.

    A card that would pass 31 means every player had said Go, so the series restarts before it.
    With ``final`` the last card of the hand pegs 1 (RULES C3: last card)."""
    state = PeggingState()
    out: list[PegPoint] = []
    players: list[str] = []
    for player, what in plays:
        if player not in players:
            players.append(player)
        if isinstance(what, str) and what.lower() == "go":
            out.extend(state.go(player, players))
        else:
            card = what if isinstance(what, Card) else parse_cards(what)[0]
            out.extend(state.play(player, card))
    if final:
        out.extend(state.close_series())
    return out


def check_go_rule(plays: Sequence[tuple[str, Card]], hand_size: int) -> None:
    """With every card of the play known, a series may end only when nobody can play (RULES C3 Go)."""
    remaining: dict[str, list[Card]] = {}
    for player, card in plays:
        remaining.setdefault(player, []).append(card)
    if any(len(cards) != hand_size for cards in remaining.values()):
        return  # a partial play: hands are not known, nothing to check
    count = 0
    previous = ""
    for player, card in plays:
        if previous == player and count + card_value(card) <= 31 and count:
            for other, cards in remaining.items():
                fits = [c.code for c in cards if count + card_value(c) <= 31]
                if other != player and fits:
                    raise ScoreError(f"pegging: at a count of {count} it was {other}'s turn and {other} held "
                                     f"{', '.join(fits)} (RULES C3: players alternate until a Go)")
        if count + card_value(card) > 31:
            for other, cards in remaining.items():
                fits = [c.code for c in cards if count + card_value(c) <= 31]
                if fits:
                    raise ScoreError(f"pegging: at a count of {count} {other} still held {', '.join(fits)} "
                                     f"and had to play (RULES C3: Go only when no card fits under 31)")
            count = 0
        count += card_value(card)
        remaining[player].remove(card)
        previous = player
        if count == 31:
            count, previous = 0, ""


@dataclass(frozen=True)
class CribbageRules:
    target: int = rule(121, "game length: 121 (twice around) or 61 (once around)", choices=(121, 61),
                       section="C3")
    game_value: str = rule("lurch", "extra game value for the winner: 'lurch' (loser short of half "
                           "way: 2 games), 'skunk' (121 only: loser under 91 double, under 61 quadruple) or "
                           "'none'; "
                           "never both (RULES C3 note)", choices=("lurch", "skunk", "none"), section="C3")
    muggins: bool = rule(False, "an opponent takes the points a player misses when claiming a count",
                         section="C3")
    check_order: bool = rule(True, "count non-dealer, then dealer, then crib, and refuse another order",
                             section="C3 / 0.1 item 10")
    hand_size: int = rule(4, "cards each player keeps for the play (6 dealt, 2 to the crib)", section="C3")


class Cribbage(ScoreGame):
    """Two-player cribbage: the board's pegs as entries; the game ends the moment the target is reached."""

    name: ClassVar[str] = "cribbage"
    title: ClassVar[str] = "Cribbage"
    section: ClassVar[str] = "C3"
    rules_class: ClassVar[type[Any]] = CribbageRules
    side_count: ClassVar[tuple[int, int]] = (2, 2)
    partnership_sizes: ClassVar[tuple[int, ...]] = (1, 2)
    ends_mid_entry: ClassVar[bool] = True
    entry_kinds: ClassVar[dict[str, str]] = {
        "deal": "{dealer} — a new deal; the dealer owns the crib",
        "starter": "{card} — the turned starter; a jack pegs 2 for the dealer (his heels)",
        "play": "{player, card} — one card of the play, pegged automatically (15, 31, pairs, runs, go)",
        "go": "{player} — the player cannot play; when both have, the last card pegs 1",
        "pegging": "{plays: ['ann:5H', 'bob:10C', 'ann:go', ...]} — a whole play pegged at once",
        "peg": "{player, points, reason?} — points pegged by hand (a board move)",
        "hand": "{player, cards, starter?, claimed?} — count a 4-card hand with the starter",
        "crib": "{cards, starter?, claimed?} — count the dealer's crib (flush only with all five)",
        "show": "{hands: {player: cards}, crib, starter?} — count non-dealer, dealer, crib in order",
    }

    def setup(self) -> None:
        if self.rules.game_value == "skunk" and self.rules.target != 121:
            raise ScoreError("cribbage: skunks apply only to a 121 game (RULES C3); use game-value lurch")
        self.dealer: str | None = None
        self.starter: Card | None = None
        self.counted: list[str] = []  # what has been counted this deal: "pone", "dealer", "crib"
        self.pegging = PeggingState()

    def state_json(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "starter": None if self.starter is None else self.starter.code,
                "counted": list(self.counted), "play_count": self.pegging.count,
                "target": self.rules.target}

    def _pone(self) -> str:
        assert self.dealer is not None
        return self.others(self.dealer)[0]

    def _need_dealer(self, data: Data) -> str:
        if self.dealer is None:
            raise data.error("enter the deal first ({'dealer': name}) so the crib has an owner")
        return self.dealer

    def entry_deal(self, data: Data) -> Scored:
        self.dealer = data.side("dealer")
        self.starter = None
        self.counted = []
        self.pegging = PeggingState()
        self.hands += 1
        return Scored(notes=(f"{self.dealer} deals; {self._pone()} counts first",))

    def entry_starter(self, data: Data) -> Scored:
        dealer = self._need_dealer(data)
        if self.starter is not None:
            raise data.error(f"the starter of this deal is already {self.starter.code}")
        card = data.card("card")
        if card.rank is None:
            raise data.error("the starter must be a 52-card pack card")
        self.starter = card
        if card.rank is Rank.JACK:
            return Scored((Item(dealer, "his heels", 2),))  # RULES C3: starter jack pegs 2 for the dealer
        return Scored()

    def _peg_items(self, points: Iterable[PegPoint]) -> Scored:
        items = []
        for p in points:
            if p.points:
                label = " + ".join(p.reasons) + (f" ({p.card.code} at {p.count})" if p.card else "")
                items.append(Item(p.player, label, p.points))
        return Scored(tuple(items), extra=(("play", [p.to_json() for p in points]),))

    def entry_play(self, data: Data) -> Scored:
        player = data.side("player")
        card = data.card("card")
        if len(self.pegging.played.get(player, [])) >= self.rules.hand_size:
            raise data.error(f"{player} has already played all {self.rules.hand_size} cards")
        points = self.pegging.play(player, card)
        if sum(len(v) for v in self.pegging.played.values()) == self.rules.hand_size * len(self.sides):
            points.extend(self.pegging.close_series())  # RULES C3: last card
        return self._peg_items(points)

    def entry_go(self, data: Data) -> Scored:
        return self._peg_items(self.pegging.go(data.side("player"), self.names))

    def entry_pegging(self, data: Data) -> Scored:
        raw = data._get("plays", None)
        if not isinstance(raw, list | tuple) or not raw:
            raise data.error("'plays' must be a list like ['ann:5H', 'bob:10C', 'ann:go']")
        plays: list[tuple[str, str | Card]] = []
        for item in raw:
            if not isinstance(item, str) or ":" not in item:
                raise data.error(f"each play is 'player:card' or 'player:go', got {item!r}")
            who, what = item.rsplit(":", 1)
            side = self.side_of(who.strip(), data.where)
            plays.append((side, what.strip() if what.strip().lower() == "go" else parse_cards(what)[0]))
        cards = [(p, c) for p, c in plays if isinstance(c, Card)]
        for side in self.names:
            n = sum(1 for p, _ in cards if p == side)
            if n > self.rules.hand_size:
                raise data.error(f"{side} played {n} cards; a hand has {self.rules.hand_size}")
        check_go_rule(cards, self.rules.hand_size)
        complete = len(cards) == self.rules.hand_size * len(self.sides)
        return self._peg_items(peg_sequence(plays, final=complete))

    def entry_peg(self, data: Data) -> Scored:
        player = data.side("player")
        points = data.num("points", lo=1, hi=29)
        return Scored((Item(player, data.text("reason", "pegged"), points),))

    def _starter(self, data: Data) -> Card:
        if data.has("starter"):
            card = data.card("starter")
            if self.starter is not None and card != self.starter:
                raise data.error(f"the starter of this deal is {self.starter.code}, not {card.code}")
            return card
        data._get("starter", "")
        if self.starter is None:
            raise data.error("no starter: give 'starter' or enter the starter first")
        return self.starter

    def _count(self, data: Data, who: str, cards: Sequence[Card], crib: bool, stage: str) -> Scored:
        starter = self._starter(data)
        counted = count_hand(cards, starter, crib=crib)
        label = "crib" if crib else "hand"
        items = [Item(who, f"{label}: {kind}", pts) for kind, pts in counted.by_kind().items()]
        notes: list[str] = []
        if data.has("claimed"):
            claimed = data.num("claimed", lo=0, hi=29)
            if claimed < counted.total and self.rules.muggins:
                items = [Item(who, f"{label} (claimed)", claimed),
                         Item(self.others(who)[0], "muggins", counted.total - claimed)]
            elif claimed != counted.total:
                notes.append(f"claimed {claimed}, the cards count {counted.total}")
        else:
            data._get("claimed", 0)
        if self.rules.check_order and self.dealer is not None:
            order = ["pone", "dealer", "crib"]
            expected = order[len(self.counted)] if len(self.counted) < 3 else None
            if stage != expected:
                raise data.error(f"count the {expected or 'next deal'} now, not the {stage} "
                                 "(RULES C3: non-dealer, then dealer, then crib)")
        if self.dealer is not None:
            self.counted.append(stage)
        return Scored(tuple(items), tuple(notes), (("count", counted.to_json()),))

    def entry_hand(self, data: Data) -> Scored:
        player = data.side("player")
        stage = "dealer" if player == self.dealer else "pone"
        return self._count(data, player, data.cards("cards"), False, stage)

    def entry_crib(self, data: Data) -> Scored:
        dealer = self._need_dealer(data)
        return self._count(data, dealer, data.cards("cards"), True, "crib")

    def entry_show(self, data: Data) -> Scored:
        dealer = self._need_dealer(data)
        hands = data._get("hands", None)
        if not isinstance(hands, dict) or len(hands) != 2:
            raise data.error("'hands' must give both players' four cards, like {'ann': '5H 5D 5S JC', ...}")
        by_side = {self.side_of(k, data.where): v for k, v in hands.items()}
        starter = self._starter(data)
        items: list[Item] = []
        counts = []
        for who, crib, cards in ((self._pone(), False, by_side.get(self._pone())),
                                 (dealer, False, by_side.get(dealer)),
                                 (dealer, True, data.raw.get("crib"))):
            if cards is None:
                raise data.error("give both hands and the crib")
            counted = count_hand(Data({"c": cards}, self, data.where).cards("c"), starter, crib=crib)
            counts.append(counted.to_json())
            label = "crib" if crib else "hand"
            items.extend(Item(who, f"{label}: {kind}", pts) for kind, pts in counted.by_kind().items())
        data._get("crib", None)
        self.counted = ["pone", "dealer", "crib"]
        return Scored(tuple(items), extra=(("counts", counts),))

    def check_end(self) -> GameResult | None:
        target = self.rules.target
        for side, total in self.totals.items():
            if total >= target:
                loser = self.others(side)[0]
                lost = self.totals[loser]
                value, label = 1, "game"
                if self.rules.game_value == "lurch" and lost < target // 2 + 1:
                    value, label = 2, "lurch"
                elif self.rules.game_value == "skunk" and lost < 61:
                    value, label = 4, "double skunk"
                elif self.rules.game_value == "skunk" and lost < 91:
                    value, label = 2, "skunk"
                return GameResult((side,), value, label, (loser,))
        return None
