"""Simulated rounds of blackjack and baccarat, played through the same operations a table runtime
uses (prompt → operation → apply), written out as a readable hand history.

>>> history = play_baccarat_coups(3, seed=7)
>>> len(history["coups"]), history["lines"][0].startswith("Baccarat")
(3, True)
"""

from __future__ import annotations

from typing import Any

from dealer.core.games.base import Step
from dealer.core.operations import Operation
from dealer.core.rng import Rng
from dealer.core.table_state import ShuffleShoe, TableState, TransferChips

BUY_IN = 10_000


def _drive(table: TableState, game: Any, rng: Rng, place: list[Operation], log: list[str]) -> None:
    """Play one round: bets in ``place``, then cards, shuffles and automatic decisions."""
    for op in place:
        table.apply(op)
    steps = 0
    while True:
        steps += 1
        if steps > 10_000:
            raise RuntimeError(f"the round did not finish: {game.prompt()}")
        prompt = game.prompt()
        if prompt.step in (Step.BET, Step.SHUFFLE):
            return
        if prompt.step is Step.CARD:
            table.apply(game.card_operation(table.require_shoe().next_card()))
            continue
        op = game.auto_operation()
        if op is None:
            raise RuntimeError(f"no automatic operation for {prompt.text}")
        if op.kind == "blackjack.act":
            who = prompt.who or ""
            hand = game.current_hand()
            soft = " soft" if hand.value.soft else ""
            log.append(f"    {who.replace('-', ' ')}: {' '.join(c.code for c in hand.cards)} "
                       f"({hand.value.total}{soft}) -> {op.to_payload()['action']}")
        table.apply(op)


def _prepare(table: TableState, game: Any, rng: Rng, log: list[str]) -> None:
    """Shuffle (and burn) whenever the game asks for it before a round."""
    while True:
        prompt = game.prompt()
        if prompt.step is Step.SHUFFLE:
            shoe = table.require_shoe()
            cut = shoe.rules.cut.choose(rng)
            table.apply(ShuffleShoe(seed=rng.randbelow(2**31), cut_behind=cut))
            log.append(f"-- shuffle: {shoe.total} cards, cut card {cut} from the end --")
        elif prompt.step is Step.CARD and prompt.who == "burn":
            card = table.require_shoe().next_card()
            table.apply(game.card_operation(card))
            shown = table.require_shoe().burned[:1] == [card] and prompt.text.startswith("show")
            log.append(f"-- burn {card.code if shown else 'face down'} --")
        else:
            return


def play_blackjack_rounds(rounds: int, seed: int | None = None, rules: str = "", seats: int = 3,
                          bet: int = 10) -> dict[str, Any]:
    from dealer.core.games.blackjack import NewBlackjackGame, PlaceBet, StartRound

    if rounds <= 0:
        raise ValueError(f"rounds must be positive, not {rounds}")
    rng = Rng.from_seed(seed) if seed is not None else Rng.system()
    table = TableState()
    table.apply(NewBlackjackGame(rules=rules))
    game = table.games["blackjack"]
    if not 1 <= seats <= game.rules.seats:
        raise ValueError(f"seats must be 1..{game.rules.seats}, not {seats}")
    for s in range(1, seats + 1):
        table.apply(TransferChips("cage", f"seat-{s}", BUY_IN, "buy-in"))
    lines = [f"Blackjack — {game.rules.spec()} — {seats} seat(s), bet {bet}"]
    played: list[dict[str, Any]] = []
    for _ in range(rounds):
        _prepare(table, game, rng, lines)
        lines.append(f"Round {game.round + 1}")
        decisions: list[str] = []
        _drive(table, game, rng, [PlaceBet(s, bet) for s in range(1, seats + 1)] + [StartRound()], decisions)
        last = game.history[-1]
        lines.append(f"  dealer {' '.join(last['dealer'])} ({last['dealer_total']})")
        lines.extend(decisions)
        for number, seat in last["seats"].items():
            for i, hand in enumerate(seat["hands"]):
                name = f"seat {number}" + (f".{i + 1}" if len(seat["hands"]) > 1 else "")
                extra = " doubled" if hand["doubled"] else ""
                lines.append(f"  {name}: {' '.join(hand['cards'])} ({hand['total']}){extra} -> "
                             f"{hand['result']} {hand['net']:+d}")
            if seat["insurance"]:
                lines.append(f"  seat {number}: insurance {seat['insurance']} -> {seat['insurance_net']:+d}")
        played.append(last)
    balances = {f"seat-{s}": table.ledger.balance(f"seat-{s}") - BUY_IN for s in range(1, seats + 1)}
    balances["house"] = table.ledger.balance("house")
    lines.append("Net: " + ", ".join(f"{k} {v:+d}" for k, v in balances.items()))
    return {"game": "blackjack", "rules": game.rules.spec(), "seed": seed, "rounds": played, "net": balances,
            "lines": lines}


def play_baccarat_coups(rounds: int, seed: int | None = None, rules: str = "", seats: int = 3,
                        bet: int = 10) -> dict[str, Any]:
    from dealer.core.games.baccarat import BaccaratBet, NewBaccaratGame, Side, StartCoup

    if rounds <= 0:
        raise ValueError(f"rounds must be positive, not {rounds}")
    rng = Rng.from_seed(seed) if seed is not None else Rng.system()
    table = TableState()
    table.apply(NewBaccaratGame(rules=rules))
    game = table.games["baccarat"]
    if not 1 <= seats <= game.rules.seats:
        raise ValueError(f"seats must be 1..{game.rules.seats}, not {seats}")
    for s in range(1, seats + 1):
        table.apply(TransferChips("cage", f"seat-{s}", BUY_IN, "buy-in"))
    lines = [f"Baccarat — {game.rules.spec()} — {seats} seat(s), bet {bet}"]
    sides = (Side.BANKER, Side.PLAYER, Side.TIE)
    played: list[dict[str, Any]] = []
    for _ in range(rounds):
        _prepare(table, game, rng, lines)
        bets: list[Operation] = [BaccaratBet(s, sides[(s - 1) % 2] if s % 5 else Side.TIE, bet)
                                 for s in range(1, seats + 1)]
        _drive(table, game, rng, bets + [StartCoup()], lines)
        last = game.history[-1]
        name = {"B": "Banker wins", "P": "Player wins", "T": "Tie"}[last["winner"]]
        lines.append(f"Coup {last['coup']}: Player {' '.join(last['player_cards'])} = "
                     f"{last['player_total']}, "
                     f"Banker {' '.join(last['banker_cards'])} = {last['banker_total']} — {name}"
                     f"{' (natural)' if last['natural'] else ''}")
        for b in last["bets"]:
            lines.append(f"  seat {b['seat']} {b['side']} {b['amount']} -> {b['result']} {b['net']:+d}")
        played.append(last)
    road = game.to_json()["roads"]
    lines.append("Big road: " + " | ".join("".join(e["winner"] + ("t" * e["ties"]) for e in col)
                                          for col in road["big_road"]["columns"]))
    for name in ("big_eye_boy", "small_road", "cockroach_pig"):
        marks = "".join("R" if m == "red" else "B" for m in road[name]["marks"])
        lines.append(f"{name.replace('_', ' ')}: {marks}")
    boxes = game.to_json()["commission_boxes"]
    if boxes:
        lines.append("Commission owed: " + ", ".join(f"seat {s} {v['owed']}" for s, v in boxes.items()))
    balances = {f"seat-{s}": table.ledger.balance(f"seat-{s}") - BUY_IN for s in range(1, seats + 1)}
    balances["house"] = table.ledger.balance("house")
    lines.append("Net: " + ", ".join(f"{k} {v:+d}" for k, v in balances.items()))
    return {"game": "baccarat", "rules": game.rules.spec(), "seed": seed, "coups": played, "roads": road,
            "commission_boxes": boxes, "net": balances, "lines": lines}
