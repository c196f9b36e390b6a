"""The All Fours family (RULES C11 Auction Pitch, C12 Cinch, C13 Seven-Up, C14 California Jack): the
points High, Low, Jack and Game (and Cinch's pedros), counted in the rules' order so the first to
reach the target wins the moment he reaches it.

>>> from dealer.core.cards import parse_cards
>>> game_points(parse_cards("10H AS KD QC JH 9S"))  # ten 10, ace 4, king 3, queen 2, jack 1
20
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from dealer.core.cards import Card, Rank
from dealer.core.scoring.base import Data, GameResult, Item, Scored, ScoreGame, rule

__all__ = ["AuctionPitch", "CaliforniaJack", "Cinch", "SevenUp", "game_points"]

GAME_VALUES = {Rank.TEN: 10, Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}


def game_points(cards: Sequence[Card]) -> int:
    """Card points for the Game point: ten 10, ace 4, king 3, queen 2, jack 1 (RULES C11, C13, C14)."""
    return sum(GAME_VALUES.get(c.rank, 0) for c in cards if c.rank is not None)


def _game_winner(data: Data, key: str = "game", *, tie_to: str | None = None) -> str | None:
    """Who takes Game: named directly, or counted from ``game_cards`` (a tie: nobody, or ``tie_to``)."""
    if data.has("game_cards"):
        raw = data._get("game_cards", None)
        if not isinstance(raw, dict):
            raise data.error("'game_cards' maps each player to the cards he took in tricks")
        counts = {}
        for k, v in raw.items():
            cards = Data({"c": v}, data.game, data.where).cards("c")
            counts[data.game.side_of(k, data.where)] = game_points(cards)
        best = max(counts.values())
        top = [s for s, v in counts.items() if v == best]
        data._get(key, None)
        return top[0] if len(top) == 1 else tie_to
    data._get("game_cards", None)
    return data.optional_side(key)


class PointsGame(ScoreGame):
    ends_mid_entry: ClassVar[bool] = True

    @property
    def target(self) -> int:
        return int(self.rules.target)

    def check_end(self) -> GameResult | None:
        for side, total in self.totals.items():
            if total >= self.target:
                return GameResult((side,), 1, f"first to {self.target}", self.others(side))
        return None


@dataclass(frozen=True)
class PitchRules:
    variant: str = rule("auction", "'auction' (seed), 'smudge' (any player taking all 4 points wins at "
                        "once), 'joker' (53 cards, a Joker point, game 10) or 'sellout' (the player on the "
                        "dealer's left sells the contract or pitches himself; game 7)",
                        choices=("auction", "smudge", "joker", "sellout"), section="C11")
    target: int = rule(7, "game (10 with the joker variant)", section="C11")
    smudge_in_hole: bool = rule(True, "a smudger in the hole just scores the 4 (seed)", section="C11")
    scoring: str = rule("up", "'up': count up from 0 to the target; 'countdown' (Pitch): start at the "
                        "target, subtract points won, add the bid when set back, first to 0 wins",
                        choices=("up", "countdown"), section="C11 pitch")
    setback_chips: bool = rule(False, "chip settlement: 1 more chip for each time the payer was set back",
                               section="C11 settlement")


class AuctionPitch(PointsGame):
    """Auction Pitch: everyone scores what he made; the pitcher only if he made his bid, else he is set
    back; the pitcher's points count first, then High, Low, Jack (Joker), Game. Countdown scoring,
    the sellout variant and the revoke penalties of RULES C11."""

    name: ClassVar[str] = "auction-pitch"
    title: ClassVar[str] = "Auction Pitch"
    section: ClassVar[str] = "C11"
    rules_class: ClassVar[type[Any]] = PitchRules
    side_count: ClassVar[tuple[int, int]] = (2, 7)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{pitcher, bid: 2-4, high, low, jack?, joker?, game? or game_cards: {player: cards won}, "
                "sellout?: {seller, sold: bool, high_bidder?}} — each point names who won it "
                "(absent: nobody)",
        "revoke": "{revoker, ...the hand's fields} — a revoke stands and play goes on: the revoker scores "
                  "nothing and is set back the bid; the others score what they made (RULES C11)",
    }

    def setup(self) -> None:
        self.smudged: str | None = None
        self.setbacks: dict[str, int] = {s: 0 for s in self.names}
        self.sign = -1 if self.rules.scoring == "countdown" else 1
        if self.sign < 0:
            self.lowest_wins = True  # type: ignore[misc]
            self.totals = {s: self.target for s in self.names}  # RULES C11: everyone starts at 7

    @property
    def target(self) -> int:
        if self.rules.variant == "joker" and self.rules.target == 7:
            return 10  # RULES C11: the joker game is to 10
        return int(self.rules.target)

    def made(self, side: str) -> int:
        """Points made so far, whichever way the sheet counts (countdown: the target less what is left)."""
        return self.totals[side] if self.sign > 0 else self.target - self.totals[side]

    def _item(self, side: str, label: str, points: int) -> Item:
        return Item(side, label, self.sign * points)

    def _sellout(self, data: Data, pitcher: str, bid: int) -> list[Item]:
        """RULES C11 sellout: the seller scores the bid at once if he sold; if he pitches himself, the high
        bidder does. Nobody may bid enough to put a selling seller out; he must sell if refusing would put
        the high bidder out."""
        if self.rules.variant != "sellout":
            if data.has("sellout"):
                raise data.error("'sellout' belongs to the sellout variant (house rule variant)")
            return []
        raw = data._get("sellout", None)
        if not isinstance(raw, dict):
            raise data.error("sellout: give {seller, sold: true/false, high_bidder?}")
        d = Data(raw, self, f"{data.where} sellout")
        seller = d.side("seller")
        sold = d.flag("sold")
        high = d.optional_side("high_bidder")
        d.done()
        if sold:
            if high not in (None, pitcher) or pitcher == seller:
                raise data.error("a sold contract makes the high bidder (another player) the pitcher")
            if self.made(seller) + bid >= self.target:
                raise data.error(f"nobody may bid enough to put the seller out ({seller} has "
                                 f"{self.made(seller)}, bid {bid})")
            return [self._item(seller, f"sold the contract for {bid}", bid)]
        if pitcher != seller:
            raise data.error("the seller who does not sell is the pitcher")
        if high is None:
            if bid != 4:
                raise data.error("without a high bidder the seller took the contract at 4")
            return []
        if high == seller:
            raise data.error("the high bidder is another player than the seller")
        if self.made(high) + bid >= self.target:
            raise data.error(f"the seller must sell: refusing would put {high} out "
                             f"({self.made(high)} + {bid})")
        return [self._item(high, f"high bid {bid} refused", bid)]

    def _hand(self, data: Data, revoker: str | None) -> Scored:
        pitcher = data.side("pitcher")
        bid = data.num("bid", lo=2, hi=5 if self.rules.variant == "joker" else 4)
        items = self._sellout(data, pitcher, bid)
        names = ["high", "low", "jack"] + (["joker"] if self.rules.variant == "joker" else [])
        won = {n: data.optional_side(n) for n in names}
        won["game"] = _game_winner(data)
        if won["high"] is None or won["low"] is None:
            raise data.error("High and Low are always in play: say who won them")
        self.hands += 1
        made = sum(1 for who in won.values() if who == pitcher)
        notes: list[str] = []
        if revoker is not None:
            notes.append(f"{revoker} revoked: scores nothing and is set back {bid}")
            won = {point: (None if who == revoker else who) for point, who in won.items()}
        if revoker == pitcher or (revoker is None and made < bid):
            items.append(self._item(pitcher, f"set back (bid {bid}, made {made})", -bid))
            self.setbacks[pitcher] += 1
        else:  # RULES C11: another player's revoke lets the pitcher score what he made, even if short
            items += [self._item(pitcher, point, 1) for point, who in won.items() if who == pitcher]
        if revoker is not None and revoker != pitcher:
            items.append(self._item(revoker, f"revoke (bid {bid})", -bid))
            self.setbacks[revoker] += 1
        items += [self._item(who, point, 1) for point, who in won.items()
                  if who is not None and who != pitcher]
        all_four = [who for who in self.names if sum(1 for w in won.values() if w == who) == len(won)]
        if all_four and revoker is None:
            who = all_four[0]
            smudge = self.rules.variant == "smudge" or (bid == 4 and who == pitcher)
            if smudge and (self.made(who) >= 0 or not self.rules.smudge_in_hole):
                self.smudged = who
        return Scored(tuple(items), tuple(notes) + (("smudge",) if self.smudged else ()))

    def entry_hand(self, data: Data) -> Scored:
        return self._hand(data, None)

    def entry_revoke(self, data: Data) -> Scored:
        return self._hand(data, data.side("revoker"))

    def check_end(self) -> GameResult | None:
        if self.smudged:
            return GameResult((self.smudged,), 1, "smudge", self.others(self.smudged))
        for side in self.names:
            if self.made(side) >= self.target:
                label = "first to 0" if self.sign < 0 else f"first to {self.target}"
                return GameResult((side,), 1, label, self.others(side))
        return None

    def state_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"scoring": self.rules.scoring, "set_backs": dict(self.setbacks),
                               "in_the_hole": [s for s in self.names if self.made(s) < 0]}
        if self.result is None or not self.result.winners:
            return out
        winner = self.result.winners[0]
        pay = {p: (1 if self.made(p) >= 1 else 2) + (self.setbacks[p] if self.rules.setback_chips else 0)
               for p in self.others(winner)}
        return {**out, "settlement": {"winner": winner, "chips_from_each": pay}}  # RULES C11 settlement


@dataclass(frozen=True)
class CinchRules:
    target: int = rule(51, "game", section="C12")


class Cinch(ScoreGame):
    """Cinch (Double Pedro): 14 points a deal; if the bidders make it, the side with more scores the
    difference; if not, the opponents score 14 plus the shortfall (seed example: bid 8, made 7 → 15)."""

    name: ClassVar[str] = "cinch"
    title: ClassVar[str] = "Cinch (Double Pedro)"
    section: ClassVar[str] = "C12"
    rules_class: ClassVar[type[Any]] = CinchRules
    side_count: ClassVar[tuple[int, int]] = (2, 2)
    partnership_sizes: ClassVar[tuple[int, ...]] = (1, 2)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{bidder: side or player, bid: 1-14, points: {side: points} (14 in all) or high/low/jack/"
                "game/right_pedro/left_pedro: the side that won each}",
        "revoke": "{revoker, ...the hand's fields} — play went on; the offending side scores nothing, and "
                  "if it was the bidder's opponents, the bidder cannot be set (RULES C12)",
    }
    CARDS: ClassVar[dict[str, int]] = {"high": 1, "low": 1, "jack": 1, "game": 1, "right_pedro": 5,
                                       "left_pedro": 5}

    def _hand(self, data: Data, revoker: str | None) -> Scored:
        bidder = data.side("bidder")
        bid = data.num("bid", lo=1, hi=14)
        if data.has("points"):
            points = data.per_side("points", lo=0, hi=14)
        else:
            points = {s: 0 for s in self.names}
            for card, value in self.CARDS.items():
                points[data.side(card)] += value
        if sum(points.values()) != 14:
            raise data.error(f"the points in play add up to 14, got {sum(points.values())}")
        other = self.others(bidder)[0]
        self.hands += 1
        notes: tuple[str, ...] = ()
        if revoker is not None:
            notes = (f"{revoker} revoked: scores nothing this hand",)
        made = points[bidder] >= bid or revoker == other  # RULES C12: an opponent's revoke: no set
        if made:
            diff = points[bidder] - points[other]
            winner = bidder if diff > 0 else other
            if diff == 0:
                return Scored(notes=notes + ("equal counts: nobody scores",))
            if winner == revoker:
                return Scored(notes=notes)
            return Scored((Item(winner, "difference", abs(diff)),), notes)
        if other == revoker:
            return Scored(notes=notes)
        return Scored((Item(other, f"bidders set ({points[bidder]} of {bid})", 14 + bid - points[bidder]),),
                      notes)

    def entry_hand(self, data: Data) -> Scored:
        return self._hand(data, None)

    def entry_revoke(self, data: Data) -> Scored:
        return self._hand(data, data.side("revoker"))

    def check_end(self) -> GameResult | None:
        return self.final_result() if any(v >= self.rules.target for v in self.totals.values()) else None


@dataclass(frozen=True)
class SevenUpRules:
    target: int = rule(7, "game: 7, or 10 as some play", choices=(7, 10), section="C13")


class SevenUp(PointsGame):
    """Seven-Up: turned jack (dealer) and gift (beggar) first, then High, Low, Jack, Game in that order."""

    name: ClassVar[str] = "seven-up"
    title: ClassVar[str] = "Seven-Up (All Fours)"
    section: ClassVar[str] = "C13"
    rules_class: ClassVar[type[Any]] = SevenUpRules
    side_count: ClassVar[tuple[int, int]] = (2, 3)
    partnership_sizes: ClassVar[tuple[int, ...]] = (1, 2)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{dealer, turned_jacks?: n, gift?: the beggar, high, low, jack?, game? or game_cards}",
        "revoke": "{revoker, ...the hand's fields} — the revoker cannot score Jack or Game; each opponent "
                  "scores 1, or 2 if the jack was in play (RULES C13)",
    }

    def _hand(self, data: Data, revoker: str | None) -> Scored:
        dealer = data.side("dealer")
        items = [Item(dealer, "turned jack", 1)] * data.num("turned_jacks", 0, lo=0, hi=4)
        gift = data.optional_side("gift")
        if gift is not None:
            items.append(Item(gift, "gift", 1))
        tie_to = self.others(dealer)[0] if len(self.sides) == 2 else None  # RULES C13: non-dealer in 2-hand
        won = {"high": data.optional_side("high"), "low": data.optional_side("low"),
               "jack": data.optional_side("jack"), "game": _game_winner(data, tie_to=tie_to)}
        self.hands += 1
        jack_in_play = won["jack"] is not None
        notes: tuple[str, ...] = ()
        if revoker is not None:
            for point in ("jack", "game"):
                if won[point] == revoker:
                    won[point] = None
            notes = (f"{revoker} revoked: no Jack or Game for him; penalty counted after Game",)
        items += [Item(who, point, 1) for point, who in won.items() if who is not None]
        if revoker is not None:
            penalty = 2 if jack_in_play else 1
            items += [Item(o, f"revoke by {revoker}", penalty) for o in self.others(revoker)]
        return Scored(tuple(items), notes)

    def entry_hand(self, data: Data) -> Scored:
        return self._hand(data, None)

    def entry_revoke(self, data: Data) -> Scored:
        return self._hand(data, data.side("revoker"))

    def state_json(self) -> dict[str, Any]:
        """RULES C13 with chips: each starts with 7 (or 10) and pays one into the pot per point."""
        return {"chips_left": {s: max(0, self.target - v) for s, v in self.totals.items()}}


@dataclass(frozen=True)
class CaliforniaJackRules:
    target: int = rule(10, "game", section="C14")


class CaliforniaJack(PointsGame):
    """California Jack and Shasta Sam: High, Low, Jack, Game (counted in that order), game 10."""

    name: ClassVar[str] = "california-jack"
    title: ClassVar[str] = "California Jack / Shasta Sam"
    section: ClassVar[str] = "C14"
    rules_class: ClassVar[type[Any]] = CaliforniaJackRules
    side_count: ClassVar[tuple[int, int]] = (2, 2)
    entry_kinds: ClassVar[dict[str, str]] = {
        "hand": "{high, low, jack, game? or game_cards} — who won each"}

    def entry_hand(self, data: Data) -> Scored:
        won = {"high": data.side("high"), "low": data.side("low"), "jack": data.side("jack"),
               "game": _game_winner(data)}
        self.hands += 1
        return Scored(tuple(Item(who, point, 1) for point, who in won.items() if who is not None))
