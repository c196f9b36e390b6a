"""Basic strategy for blackjack: the seed's hints, and a full table computed for the house rules.

The full table is computed from expected values with an infinite-deck model (every card value is
drawn with its share of a full pack, independent of the cards already out): the dealer's final
totals by upcard (conditioned on no natural when the dealer peeks), then the player's best play by
total. Splits are valued as two hands that each play on optimally (doubling only with DAS), without
further resplits — the usual approximation. The result matches the published multi-deck charts
for the same rules.

>>> from dealer.core.games.blackjack import BlackjackRules
>>> table = strategy_for(BlackjackRules.parse("s17,das,da"))
>>> table.cell("hard", 16, 10), table.cell("hard", 12, 4), table.cell("pair", 8, 10)
('H', 'S', 'P')
>>> table.cell("hard", 11, 6), table.cell("soft", 18, 3)
('D', 'Ds')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from dealer.core.cards import Card, Rank

if TYPE_CHECKING:
    from dealer.core.games.blackjack import Action, BlackjackRules

VALUES = tuple(range(1, 11))  # ace = 1 .. ten-card = 10
PROB = {v: (4 / 13 if v == 10 else 1 / 13) for v in VALUES}
UPCARDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)  # chart column order: 2..10, A
BUST = 22

# Cell codes (the usual chart notation):
#   H hit, S stand, P split, D double (else hit), Ds double (else stand),
#   Rh / Rs / Rp surrender (else hit / stand / split).
CODES = ("H", "S", "P", "D", "Ds", "Rh", "Rs", "Rp")


def _total(hard: int, ace: bool) -> tuple[int, bool]:
    if ace and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def dealer_outcomes(up: int, hit_soft_17: bool, *, no_natural: bool) -> dict[int, float]:
    """Probabilities of the dealer's final total (17..21, or 22 for a bust) given the upcard.

    With ``no_natural`` the hole card is conditioned on the dealer not holding a natural (the
    dealer peeked).
    """
    memo: dict[tuple[int, bool], dict[int, float]] = {}

    def play(hard: int, ace: bool) -> dict[int, float]:
        key = (hard, ace)
        if key in memo:
            return memo[key]
        total, soft = _total(hard, ace)
        if total > 21:
            out = {BUST: 1.0}
        elif total >= 17 and not (hit_soft_17 and total == 17 and soft):
            out = {total: 1.0}
        else:
            out = {}
            for v, p in PROB.items():
                for t, q in play(hard + v, ace or v == 1).items():
                    out[t] = out.get(t, 0.0) + p * q
        memo[key] = out
        return out

    hole = dict(PROB)
    if no_natural:
        if up == 1:
            del hole[10]
        elif up == 10:
            del hole[1]
        norm = sum(hole.values())
        hole = {v: p / norm for v, p in hole.items()}
    result: dict[int, float] = {}
    for v, p in hole.items():
        for t, q in play(up + v, up == 1 or v == 1).items():
            result[t] = result.get(t, 0.0) + p * q
    return result


def dealer_natural_chance(up: int) -> float:
    return PROB[10] if up == 1 else PROB[1] if up == 10 else 0.0


@dataclass(frozen=True)
class StrategyTable:
    """Basic strategy for one set of rules: chart cells plus hit/stand for any hand."""

    rules_spec: str
    hard: dict[tuple[int, int], str]  # (total 4..21, upcard) -> code for a first decision
    soft: dict[tuple[int, int], str]  # (total 13..21, upcard)
    pair: dict[tuple[int, int], str]  # (card value 1..10, upcard)
    hit_stand: dict[tuple[int, bool, int], str]  # (total, soft, upcard) -> "H" | "S" for later decisions
    edge: float  # the model's expected value per initial bet for this strategy (infinite deck)

    def cell(self, kind: str, key: int, up: int) -> str:
        up = 1 if up == 11 else up
        return {"hard": self.hard, "soft": self.soft, "pair": self.pair}[kind][(key, up)]

    def decide(self, cards: Sequence[Card], upcard: Card, legal: Sequence[Action], *,
               split_hand: bool = False) -> Action:
        """The basic-strategy action for ``cards`` against ``upcard``, among the ``legal`` ones."""
        from dealer.core.games.blackjack import Action, hand_value, points

        up = points(upcard)
        value = hand_value(cards)
        code = "H"
        if len(cards) == 2:
            a, b = (points(c) for c in cards)
            if Action.SPLIT in legal and a == b:
                code = self.pair[(a, up)]
            else:
                code = (self.soft if value.soft else self.hard)[(value.total, up)]
        else:
            code = self.hit_stand[(value.total, value.soft, up)]
        fallback = self.hit_stand[(value.total, value.soft, up)] if value.total >= 4 else "H"
        wanted: list[Action] = []
        if code == "P":
            wanted = [Action.SPLIT]
        elif code in ("D", "Ds"):
            wanted = [Action.DOUBLE]
        elif code.startswith("R"):
            wanted = [Action.SURRENDER] + ([Action.SPLIT] if code == "Rp" else [])
        for action in wanted:
            if action in legal:
                return action
        if code in ("S", "Ds", "Rs"):
            choice = Action.STAND
        elif code in ("H", "D", "Rh"):
            choice = Action.HIT
        else:  # a pair code whose split is not legal: play the total
            choice = Action.HIT if fallback == "H" else Action.STAND
        if choice is Action.HIT and Action.HIT not in legal:
            return Action.STAND
        return choice

    def rows(self) -> dict[str, list[tuple[str, list[str]]]]:
        """The chart, row by row (columns 2..10, A), for printing."""
        def label(kind: str, key: int) -> str:
            if kind == "pair":
                return "A,A" if key == 1 else f"{key},{key}"
            if kind == "soft":
                return f"A,{key - 11}" if key <= 20 else "A,10"
            return str(key)
        out: dict[str, list[tuple[str, list[str]]]] = {}
        for kind, table, keys in (("hard", self.hard, range(5, 21)), ("soft", self.soft, range(13, 21)),
                                  ("pair", self.pair, (2, 3, 4, 5, 6, 7, 8, 9, 10, 1))):
            out[kind] = [(label(kind, k), [table[(k, u)] for u in UPCARDS]) for k in keys]
        return out


def _build(rules: BlackjackRules) -> StrategyTable:
    hard_rows: dict[tuple[int, int], str] = {}
    soft_rows: dict[tuple[int, int], str] = {}
    pair_rows: dict[tuple[int, int], str] = {}
    hit_stand: dict[tuple[int, bool, int], str] = {}
    edge = 0.0
    for up in UPCARDS:
        edge += _upcard(rules, up, hard_rows, soft_rows, pair_rows, hit_stand)
    return StrategyTable(rules.spec(), hard_rows, soft_rows, pair_rows, hit_stand, edge)


def _upcard(rules: BlackjackRules, up: int, hard_rows: dict[tuple[int, int], str],
            soft_rows: dict[tuple[int, int], str], pair_rows: dict[tuple[int, int], str],
            hit_stand: dict[tuple[int, bool, int], str]) -> float:
    """Fill the chart columns for one upcard; return the model's EV share for that upcard."""
    peek = rules.peek
    bj_pays = rules.blackjack_pays.win / rules.blackjack_pays.stake
    dealer = dealer_outcomes(up, rules.hit_soft_17, no_natural=True)
    p_nat = 0.0 if peek else dealer_natural_chance(up)

    def stand(total: int) -> float:
        if total > 21:
            return -1.0
        return sum(q * (1.0 if t == BUST or t < total else -1.0 if t > total else 0.0)
                   for t, q in dealer.items())

    memo: dict[tuple[int, bool], float] = {}

    def best_hs(hard: int, ace: bool) -> float:
        key = (hard, ace)
        if key not in memo:
            total, _ = _total(hard, ace)
            if total > 21:
                memo[key] = -1.0
            else:
                s = stand_ev(total)
                h = sum(p * best_hs(hard + v, ace or v == 1) for v, p in PROB.items())
                memo[key] = max(s, h)
        return memo[key]

    def stand_ev(total: int) -> float:
        return stand(total)

    def hit_ev(hard: int, ace: bool) -> float:
        return sum(p * best_hs(hard + v, ace or v == 1) for v, p in PROB.items())

    def double_ev(hard: int, ace: bool) -> float:
        return 2 * sum(p * stand_ev(_total(hard + v, ace or v == 1)[0]) for v, p in PROB.items())

    def two_card(hard: int, ace: bool, *, can_double: bool, can_surrender: bool
                 ) -> tuple[dict[str, float], str]:
        total, _ = _total(hard, ace)
        evs = {"S": stand_ev(total), "H": hit_ev(hard, ace)}
        if can_double and rules.double_on.allows(total):
            evs["D"] = double_ev(hard, ace)
        if can_surrender:
            evs["R"] = -0.5
        return evs, max(evs, key=lambda k: evs[k])

    def split_ev(v: int) -> float:
        if v == 1:  # RULES A1: one card to each ace; ace + ten counts 21, not a natural
            return 2 * sum(p * stand_ev(_total(1 + c, True)[0]) for c, p in PROB.items())
        total = 0.0
        for c, p in PROB.items():
            evs, best = two_card(v + c, v == 1 or c == 1, can_double=rules.double_after_split,
                                 can_surrender=False)
            total += p * evs[best]
        return 2 * total

    def with_natural(evs: dict[str, float], stakes: dict[str, float]) -> dict[str, float]:
        if not p_nat:
            return evs
        out = {}
        for k, ev in evs.items():
            lost = 1.0 if rules.original_bets_only else stakes.get(k, 1.0)
            out[k] = (1 - p_nat) * ev - p_nat * lost
        return out

    stakes = {"D": 2.0, "P": 2.0}

    def code(evs: dict[str, float]) -> str:
        best = max(evs, key=lambda k: evs[k])
        fallback = "H" if evs["H"] >= evs["S"] else "S"
        if best == "D":
            return "D" if fallback == "H" else "Ds"
        if best == "R":
            if "P" in evs and evs["P"] >= max(evs["H"], evs["S"], evs.get("D", -9)):
                return "Rp"
            return "R" + fallback.lower()
        return best

    for hard in range(2, 22):
        for ace in (False, True):
            total, soft = _total(hard, ace)
            hit_stand[(total, soft, up)] = "H" if hit_ev(hard, ace) > stand_ev(total) else "S"
    for total in range(4, 22):
        evs, _ = two_card(total, False, can_double=True, can_surrender=rules.surrender)
        hard_rows[(total, up)] = code(with_natural(evs, stakes))
    for total in range(12, 22):
        evs, _ = two_card(total - 10, True, can_double=True, can_surrender=rules.surrender)
        soft_rows[(total, up)] = code(with_natural(evs, stakes))
    for v in VALUES:
        hard, ace = 2 * v, v == 1
        evs, _ = two_card(hard, ace, can_double=True, can_surrender=rules.surrender)
        evs["P"] = split_ev(v)
        pair_rows[(v, up)] = code(with_natural(evs, stakes))
    # the model's edge for this upcard: enumerate the player's first two cards
    up_p = PROB[up]
    dealer_nat = dealer_natural_chance(up)
    ev_up = 0.0
    for a, pa in PROB.items():
        for b, pb in PROB.items():
            if {a, b} == {1, 10}:
                ev_up += pa * pb * (dealer_nat * 0.0 + (1 - dealer_nat) * bj_pays)
                continue
            if a == b:
                evs, _ = two_card(2 * a, a == 1, can_double=True, can_surrender=rules.surrender)
                evs["P"] = split_ev(a)
            else:
                evs, _ = two_card(a + b, a == 1 or b == 1, can_double=True, can_surrender=rules.surrender)
            best = max(evs.values())
            if peek:
                ev_up += pa * pb * ((1 - dealer_nat) * best - dealer_nat)
            else:
                ev_up += pa * pb * max(with_natural(evs, stakes).values())
    return up_p * ev_up


@lru_cache(maxsize=32)
def strategy_for(rules: BlackjackRules) -> StrategyTable:
    """The basic-strategy table for ``rules`` (computed once per rule set)."""
    return _build(rules)


def seed_hint(cards: Sequence[Card], upcard: Card) -> str:
    """The seed's basic-strategy hints (RULES A1) as a chart code: H, S, D or P.

    >>> from dealer.core.cards import parse_cards
    >>> seed_hint(parse_cards("10S 6H"), Card.parse("7C")), seed_hint(parse_cards("8S 8H"), Card.parse("AC"))
    ('H', 'P')
    """
    from dealer.core.games.blackjack import hand_value, points

    up = points(upcard)
    value = hand_value(cards)
    if len(cards) == 2 and cards[0].rank == cards[1].rank:
        r = cards[0].rank
        if r in (Rank.ACE, Rank.EIGHT):
            return "P"
        if r in (Rank.TWO, Rank.THREE, Rank.SEVEN) and up not in (8, 9, 10, 1):
            return "P"
        if r is Rank.SIX and 2 <= up <= 6:
            return "P"
    if len(cards) == 2 and not value.soft:
        if value.total == 11:
            return "D"
        if value.total == 10 and up not in (10, 1):
            return "D"
        if value.total == 9 and 2 <= up <= 6:
            return "D"
    if value.soft:
        return "H" if value.total < 18 else "S"
    stop = 17 if up in (7, 8, 9, 10, 1) else 12 if 4 <= up <= 6 else 13
    return "H" if value.total < stop else "S"
