"""Simulated players for a simulated table: they buy in, bet and start the round.

The games decide everything a rule decides (``auto_operation``); betting is a person's choice, so a
simulated table needs someone to make it. Each game that can be simulated has a bettor here: it
is asked whenever the game has nothing automatic to do, and returns the next thing a player does
(a buy-in, a bet, a call) or None when the players are done and the dealer may go on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dealer.core.cards import Rank
from dealer.core.games.base import Step
from dealer.core.operations import Operation
from dealer.core.rng import Rng
from dealer.core.table_state import TableState, TransferChips

BUY_IN = 500
TOP_UP = 20  # pot-game seats buy in again below this, so an ante never finds them empty


@dataclass(frozen=True)
class Seating:
    """Which seats play. A lone simulated table plays seats 1..n and they fetch chips from the cage
    when short; at a casino night only the seats with a named player play, with the chips they
    brought (``buy_in=False``): a seat that cannot cover a bet sits the round out."""

    seats: tuple[int, ...]
    buy_in: bool = True

    @classmethod
    def of(cls, players: int | Seating) -> Seating:
        return players if isinstance(players, Seating) else cls(tuple(range(1, players + 1)))

    def numbers(self, most: int | None = None) -> list[int]:
        return sorted(s for s in self.seats if most is None or s <= most)


Players = int | Seating
Bettor = Callable[[Any, TableState, Any, Any, Rng], Operation | None]
# bettors that take a Seating (the others are given a seat count and never play at a night table)
SEATED = frozenset({"blackjack", "baccarat", "faro", "trente-et-quarante", "red-dog", "pai-gow", "slots",
                    "caribbean-stud", "let-it-ride", "pusoy"})


def _buy_in_or(table: TableState, account: str, needed: int, then: Operation,
               seating: Seating | None = None) -> Operation | None:
    """``then`` when ``account`` holds ``needed`` chips; else a buy-in, or None (sit this one out)
    where players bring their own chips."""
    if table.ledger.balance(account) < needed:
        if seating is not None and not seating.buy_in:
            return None
        return TransferChips("cage", account, max(BUY_IN, needed), "simulated player buys in")
    return then


def _stake(rng: Rng, minimum: int, maximum: int | None = None) -> int:
    amount = minimum * rng.choice((1, 1, 2, 5))
    return amount if maximum is None else min(amount, maximum)


def blackjack_bettor(module: Any, table: TableState, game: Any, players: Players,
                     rng: Rng) -> Operation | None:
    if game.prompt().step is not Step.BET:
        return None
    rules = game.rules
    seating = Seating.of(players)
    for seat in seating.numbers(rules.seats):
        current = game.seats.get(seat)
        if current is not None and current.bet:
            continue
        amount = min(rules.max_bet, rules.min_bet * rng.choice((1, 1, 2, 5)))
        op = _buy_in_or(table, f"seat-{seat}", amount, module.PlaceBet(seat, amount), seating)
        if op is not None and (isinstance(op, TransferChips) or game.can_bet(seat, amount)):
            return op
    return module.StartRound() if game.can_start() else None


def faro_bettor(module: Any, table: TableState, game: Any, players: Players, rng: Rng) -> Operation | None:
    """Between turns each seat keeps one bet on the layout: a live rank, now and then coppered;
    with three cards left the first seat calls the turn."""
    if not game.betting_open:
        return None
    live = [rank for rank in Rank if game.casekeeper.left(rank) > 0]
    if not live:
        return None
    seating = Seating.of(players)
    for i in seating.numbers():
        seat = f"seat-{i}"
        if any(s == seat for (s, _, _) in game.bets):
            continue
        rank, coppered = rng.choice(live), rng.randbelow(4) == 0
        amount = _stake(rng, max(game.rules.min_bet, 1), game.rules.max_bet)
        if not game.can_bet(seat, rank, amount, coppered):
            continue
        op = _buy_in_or(table, seat, amount, module.PlaceBet(seat, rank.code, amount, coppered), seating)
        if op is not None:
            return op
    if game.call_offered() and not game.calls and seating.seats:
        caller = f"seat-{seating.numbers()[0]}"
        left = [rank for rank in Rank for _ in range(game.casekeeper.left(rank))]
        order = rng.shuffled(left)
        amount = max(game.rules.min_bet, 1)
        return _buy_in_or(table, caller, amount,
                          module.CallTheTurn(caller, tuple(r.code for r in order), amount), seating)
    return None


def tq_bettor(module: Any, table: TableState, game: Any, players: Players, rng: Rng) -> Operation | None:
    """Before each coup every seat puts one bet on rouge, noir, couleur or inverse."""
    if not game.betting_open:
        return None
    seating = Seating.of(players)
    for i in seating.numbers():
        seat = f"seat-{i}"
        if any(s == seat for (s, _) in game.bets):
            continue
        amount = _stake(rng, max(game.rules.min_bet, 1), game.rules.max_bet)
        bet = rng.choice(("rouge", "noir", "couleur", "inverse"))
        op = _buy_in_or(table, seat, amount, module.PlaceTqBet(seat, bet, amount), seating)
        if op is not None:
            return op
    return None


def red_dog_bettor(module: Any, table: TableState, game: Any, players: Players, rng: Rng) -> Operation | None:
    """Every seat bets before the two cards; the raise is the game's own (optimal) decision."""
    if game.cards:
        return None
    seating = Seating.of(players)
    for i in seating.numbers():
        seat = f"seat-{i}"
        if seat in game.bets:
            continue
        amount = _stake(rng, max(game.rules.min_bet, 1), game.rules.max_bet)
        # room for the raise as well: a raise may double the bet
        op = _buy_in_or(table, seat, 2 * amount, module.RedDogBet(seat, amount), seating)
        if op is not None:
            return op
    return None


def _top_up(table: TableState, seats: tuple[str, ...]) -> Operation | None:
    for seat in seats:
        if table.ledger.balance(seat) < TOP_UP:
            return TransferChips("cage", seat, BUY_IN, "simulated player buys in again")
    return None


def in_between_bettor(module: Any, table: TableState, game: Any, players: int,
                      rng: Rng) -> Operation | None:
    """Bet the pot on a wide spread, the minimum on a narrow one (RULES A13)."""
    top_up = _top_up(table, game.players)
    if top_up is not None:
        return top_up
    prompt = game.prompt()
    if prompt.step is not Step.DECIDE or "bet" not in prompt.options:
        return None
    lo, hi = sorted(c.rank.high for c in game.cards[:2])
    between = hi - lo - 1
    pot = table.ledger.balance(module.POT)
    amount = pot if between >= 9 else max(pot // 2, 1) if between >= 7 else game.rules.min_bet
    amount = max(min(amount, pot, table.ledger.balance(game.player)), game.rules.min_bet)
    return module.InBetweenBet(game.player, amount)


def pool_bettor(module: Any, table: TableState, game: Any, players: int, rng: Rng) -> Operation | None:
    """Bet on a hand with high cards in several suits, else forfeit the chip (RULES A12)."""
    top_up = _top_up(table, game.players)
    if top_up is not None:
        return top_up
    prompt = game.prompt()
    seat = prompt.who
    if prompt.step is not Step.DECIDE or "bet" not in prompt.options or seat is None:
        return None
    hand = game.hands.get(seat, [])
    strength = sum(1 for c in hand if c.rank is not None and c.rank.high >= 11)
    suits = len({c.suit for c in hand})
    pot = table.ledger.balance(module.POOL_POT)
    if strength == 0 and suits < 4:
        return module.PoolForfeit(seat)
    amount = max(1, min(pot, table.ledger.balance(seat), pot * strength // 4 or 1))
    return module.PoolBet(seat, amount)


HEARTS = 13


def scorebook_bettor(module: Any, table: TableState, game: Any, players: int,
                     rng: Rng) -> Operation | None:
    """A simulated evening of hearts (the default scored game): each deal, the 13 hearts and the
    queen of spades fall to random players; a new game starts when one ends."""
    from dealer.core.scoring import operations as ops

    if not game.games:
        return None
    current = game.current
    if current.result is not None:
        return ops.StartScoredGame(game.book, current.scorer.name, rules=dict(current.rules or {}))
    if current.scorer.name not in ("hearts", "hearts-without-lady"):
        return None  # other scored games are entered by the host
    hearts = {p: 0 for p in game.players}
    for _ in range(HEARTS):
        hearts[rng.choice(list(game.players))] += 1
    data: dict[str, Any] = {"hearts": hearts}
    if current.scorer.name == "hearts":
        data["queen"] = rng.choice(list(game.players))
    return ops.ScoreEntry(game.book, "hand", data)


BETTORS: dict[str, Bettor] = {
    "blackjack": blackjack_bettor,
    "faro": faro_bettor,
    "trente-et-quarante": tq_bettor,
    "red-dog": red_dog_bettor,
    "in-between": in_between_bettor,
    "high-card-pool": pool_bettor,
    "scorebook": scorebook_bettor,
}


def pai_gow_bettor(module: Any, table: TableState, game: Any, players: Players,
                   rng: Rng) -> Operation | None:
    """Each seat bets before the dice (RULES A8); the game throws the dice once they have."""
    if game.phase.value != "betting" or game.dice is not None or game.cards_dealt:
        return None
    seating = Seating.of(players)
    for i in seating.numbers(6):
        seat = f"seat-{i}"
        if seat in game.bets or seat == game.banker:
            continue
        # at least 20 chips: a smaller winning bet pays nothing after the rounded-up commission
        amount = _stake(rng, max(game.rules.min_bet, 20), game.rules.max_bet)
        op = _buy_in_or(table, seat, amount, module.PlaceBet(seat, amount), seating)
        if op is not None:
            return op
    return None


SLOT_PLAYER = "seat-{}"


def slots_bettor(module: Any, table: TableState, game: Any, players: Players, rng: Rng) -> Operation | None:
    """One player per machine (seat n plays the n-th machine): credits in when they run low, then
    a full-coin paid spin. A night's player feeds the machine from the chips they brought."""
    seating = Seating.of(players)
    playing = set(seating.seats)
    ready = []
    for i, (name, machine) in enumerate(sorted(game.machines.items()), 1):
        if i not in playing or machine.pending() is not None or machine.pick_pending():
            continue
        seat = SLOT_PLAYER.format(i)
        coins = machine.title.max_bet
        if machine.meters["credits"] < coins:
            cents = 20 * coins * machine.denomination
            if not seating.buy_in:  # what the player has, in whole credits
                cents = min(cents, table.ledger.balance(seat) // machine.denomination * machine.denomination)
                if cents < coins * machine.denomination:
                    continue
            op = _buy_in_or(table, seat, cents, module.InsertCredits(name, seat, cents), seating)
            if op is not None:
                return op
            continue
        ready.append(name)
    if not ready:
        return None
    name = rng.choice(ready)
    machine = game.machines[name]
    spin: Operation = module.spin_operation(game, name, machine.title.max_bet, rng)
    return spin


BETTORS["pai-gow"] = pai_gow_bettor
BETTORS["slots"] = slots_bettor


def _stud_bettor(bet: str, deal: str, verify: str, placed: str, minimum: str, cover: int) -> Bettor:
    """Seats post their bets (buying in to ``cover`` times the stake), then the dealer deals."""
    def bettor(module: Any, table: TableState, game: Any, players: Players, rng: Rng) -> Operation | None:
        if game.prompt().step is not Step.BET:
            return None
        seating = Seating.of(players)
        for seat in seating.numbers():
            if seat in getattr(game, placed):
                continue
            amount = _stake(rng, max(getattr(game.rules, minimum), 5))
            account = f"seat-{seat}"
            if table.ledger.balance(account) < cover * amount:
                if not seating.buy_in:
                    continue
                return TransferChips("cage", account, max(BUY_IN, cover * amount), "simulated player buys in")
            try:
                getattr(game, verify)(seat, amount)
            except ValueError:
                continue  # a seat the game does not offer (pusoy seats three)
            op: Operation = getattr(module, bet)(seat, amount)
            return op
        if not getattr(game, placed):
            return None
        verify_deal = getattr(game, "verify_deal", None)
        try:
            if verify_deal is not None:
                verify_deal()
        except ValueError:
            return None
        deal_op: Operation = getattr(module, deal)()
        return deal_op
    return bettor


BETTORS["caribbean-stud"] = _stud_bettor("CaribbeanAnte", "CaribbeanDeal", "verify_ante", "seats", "min_ante",
                                         3)
BETTORS["let-it-ride"] = _stud_bettor("LetItRideBet", "LetItRideDeal", "verify_bet", "seats", "min_bet", 3)
BETTORS["pusoy"] = _stud_bettor("PusoyBet", "PusoyDeal", "verify_bet", "hands", "min_bet", 2)


def baccarat_bettor(module: Any, table: TableState, game: Any, players: Players,
                    rng: Rng) -> Operation | None:
    """Each seat backs Banker or Player (now and then the Tie), then the coup is dealt."""
    if game.prompt().step is not Step.BET:
        return None
    seating = Seating.of(players)
    for seat in seating.numbers(game.rules.seats):
        if any(b.seat == seat for b in game.bets):
            continue
        side = module.Side(rng.choice(("banker", "banker", "player", "player", "tie")))
        amount = _stake(rng, max(game.rules.min_bet, 5), game.rules.max_bet)
        account = f"seat-{seat}"
        if table.ledger.balance(account) - game.owed(seat) < amount:
            if not seating.buy_in:
                continue
            return TransferChips("cage", account, BUY_IN, "simulated player buys in")
        return module.BaccaratBet(seat, side, amount)
    return module.StartCoup() if game.can_start() else None


BETTORS["baccarat"] = baccarat_bettor


def pontoon_bettor(module: Any, table: TableState, game: Any, players: int, rng: Rng) -> Operation | None:
    """RULES A2: a player banks; the others bet, then the banker deals."""
    if game.prompt().step is not Step.BET:
        return None
    banker = f"seat-{game.banker}"
    if table.ledger.balance(banker) < BUY_IN // 2:  # the bank must be able to pay
        return TransferChips("cage", banker, BUY_IN, "simulated banker buys in")
    for seat in game.order()[:players]:
        if seat in game.bets:
            continue
        amount = _stake(rng, max(game.rules.min_bet, 2), game.rules.max_bet)
        op = _buy_in_or(table, f"seat-{seat}", 4 * amount, module.PontoonBet(seat, amount))
        if isinstance(op, TransferChips) or game.can_bet(seat, amount):
            return op
    return module.PontoonStart() if game.can_start() else None


BETTORS["pontoon"] = pontoon_bettor


def chemin_bettor(module: Any, table: TableState, game: Any, players: int, rng: Rng) -> Operation | None:
    """RULES A4: the banker puts up (or keeps) the bank; the players stake against it in turn."""
    prompt = game.prompt()
    if game.phase.value == "bank":
        banker = f"seat-{game.banker}"
        if prompt.step is Step.DECIDE:
            return module.KeepBank() if _ok(game.verify_keep_bank) else module.WithdrawBank()
        amount = 20
        if table.ledger.balance(banker) < amount:
            return TransferChips("cage", banker, BUY_IN, "simulated banker buys in")
        return module.PutUpBank(amount) if _ok(game.verify_put_up, amount) else None
    if prompt.step is not Step.BET:
        return None
    for seat in game._seats():
        if seat == game.banker or str(seat) in {str(s) for s in game.stakes}:
            continue
        amount = max(1, min(game.bank // 3 or 1, 10 * rng.choice((1, 1, 2))))
        if table.ledger.balance(f"seat-{seat}") < amount:
            return TransferChips("cage", f"seat-{seat}", BUY_IN, "simulated player buys in")
        if _ok(game.verify_stake, seat, amount):
            return module.CheminStake(seat, amount)
    return module.CloseBets() if game.can_close() else None


def _ok(verify: Callable[..., None], *args: Any) -> bool:
    try:
        verify(*args)
    except ValueError:
        return False
    return True


BETTORS["chemin-de-fer"] = chemin_bettor
