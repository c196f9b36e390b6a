"""One slot machine: its title, denomination, persistent meters, and the verified actions on it.

The RNG chooses the outcome first (stop positions, resolved before the spin is logged); the machine
then evaluates those stops, moves credits through the ledger and updates the meters. The reel
display is told the same stops (:attr:`SpinResult.stops`). Money is kept twice, on purpose: the
machine's meters count credits like a real machine's, and every credit movement is mirrored in the
table ledger in cents (credits x denomination), so chips are conserved by construction.

Ledger accounts: ``slot:<id>`` holds the machine's credits, ``house`` takes bets and pays wins,
``progressive:<pool>`` holds a progressive pool (seeded from the house with its reset value,
fed by a share of each qualifying bet, paid to the machine that wins it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dealer.core.errors import IllegalOperation
from dealer.core.ledger import HOUSE, Ledger
from dealer.core.operations import ensure
from dealer.core.slots.evaluate import Evaluator, LineWin
from dealer.core.slots.features import (
    Award,
    Feature,
    LossMeter,
    PickBonus,
    Progressive,
    Spin,
    SpinKind,
)
from dealer.core.slots.title import ANY, Title

__all__ = ["ACCOUNTING_METERS", "Pool", "SlotMachine", "SpinResult", "machine_account", "pool_account"]

ACCOUNTING_METERS = (
    "credits",
    "coin_in",
    "coin_out",
    "games_played",
    "games_won",
    "free_games",
    "jackpots",
    "jackpot_out",
    "bonus_out",
    "credits_in",
    "credits_out",
)


def machine_account(machine: str) -> str:
    return f"slot:{machine}"


def pool_account(pool: str) -> str:
    return f"progressive:{pool}"


@dataclass
class Pool:
    """A progressive jackpot pool in cents, with the fraction of a cent carried between bets."""

    name: str
    reset_cents: int
    contribution: Fraction
    value_cents: int = 0
    carry: Fraction = Fraction(0)
    wins: int = 0

    def seed(self, ledger: Ledger) -> None:
        ledger.transfer(HOUSE, pool_account(self.name), self.reset_cents, f"{self.name} reset value")
        self.value_cents += self.reset_cents

    def contribute(self, bet_cents: int, ledger: Ledger) -> None:
        share = bet_cents * self.contribution + self.carry
        whole = int(share)
        self.carry = share - whole
        if whole:
            ledger.transfer(HOUSE, pool_account(self.name), whole, f"{self.name} contribution")
            self.value_cents += whole

    def win(self, denomination: int, target: str, ledger: Ledger) -> int:
        """Pay the pool in whole credits to ``target``, reseed it; the odd cents stay in the pool."""
        credits = self.value_cents // denomination
        ledger.transfer(pool_account(self.name), target, credits * denomination, f"{self.name} jackpot")
        self.value_cents -= credits * denomination
        self.wins += 1
        self.seed(ledger)
        return credits

    def to_json(self) -> dict[str, Any]:
        return {
            "pool": self.name,
            "value_cents": self.value_cents,
            "reset_cents": self.reset_cents,
            "contribution": str(self.contribution),
            "wins": self.wins,
        }


@dataclass(frozen=True)
class SpinResult:
    """Everything one spin did; ``stops`` is what the reel display is told."""

    machine: str
    kind: SpinKind
    coins: int
    lines: int
    stops: tuple[int, ...]
    window: tuple[tuple[str, ...], ...]  # rows top, centre, bottom; one symbol per reel
    display: tuple[tuple[str, ...], ...]  # the window after morphing wilds
    line_wins: tuple[LineWin, ...]
    line_pay: int
    multiplier: int
    awards: tuple[Award, ...]
    jackpot: int  # credits from the progressive
    win: int
    meters: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "machine": self.machine,
            "kind": self.kind.value,
            "coins": self.coins,
            "lines": self.lines,
            "stops": list(self.stops),
            "window": [list(r) for r in self.window],
            "display": [list(r) for r in self.display],
            "line_wins": [
                {
                    "line": w.line + 1,
                    "symbols": list(w.symbols),
                    "pay": w.pay,
                    "combination": w.label,
                    "multiplier": w.multiplier,
                }
                for w in self.line_wins
                if w.pay
            ],
            "line_pay": self.line_pay,
            "meter_multiplier": self.multiplier,
            "awards": [{"feature": a.feature, "credits": a.credits, "text": a.text} for a in self.awards],
            "jackpot": self.jackpot,
            "win": self.win,
            "meters": dict(self.meters),
        }


@dataclass
class SlotMachine:
    """The state of one machine; built and changed only through operations."""

    machine: str
    title: Title
    denomination: int  # cents per credit
    paytable: str
    meters: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ACCOUNTING_METERS, 0))
    feature_meters: dict[str, int] = field(default_factory=dict)
    audit: list[dict[str, Any]] = field(default_factory=list)
    last: SpinResult | None = None
    _evaluators: dict[str, Evaluator] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for f in self.title.features:
            self.feature_meters.update(f.initial_meters())

    @property
    def account(self) -> str:
        return machine_account(self.machine)

    @property
    def evaluator(self) -> Evaluator:
        if self.paytable not in self._evaluators:
            self._evaluators[self.paytable] = Evaluator(self.title, self.paytable)
        return self._evaluators[self.paytable]

    # --- what comes next -------------------------------------------------------------------------

    def pending(self) -> tuple[SpinKind, int] | None:
        """A free / re-spin / cashed-in spin that must be played next, with its coins."""
        for f in self.title.features:
            kind = f.pending(self.feature_meters)
            if kind is not None:
                return kind, f.pending_coins(self.feature_meters)
        return None

    def pick_feature(self) -> PickBonus | None:
        for f in self.title.features:
            if isinstance(f, PickBonus):
                return f
        return None

    def pick_pending(self) -> bool:
        return self.feature_meters.get("pick_pending", 0) == 1

    def busy(self) -> str | None:
        """Why the machine cannot take a paid spin or a setting change now, if it cannot."""
        if self.pick_pending():
            return "RULES A14: the Bullfight bonus is waiting for the player's pick"
        pending = self.pending()
        if pending is not None:
            return f"RULES A14: {pending[0].value} spins are still to be played"
        return None

    # --- credits ---------------------------------------------------------------------------------

    def verify_insert(self, cents: int) -> None:
        ensure(cents > 0, f"insert a positive amount, not {cents}")
        ensure(
            cents % self.denomination == 0,
            f"{cents} cents is not a whole number of {self.denomination}-cent credits",
        )

    def insert(self, cents: int, source: str, ledger: Ledger) -> None:
        self.verify_insert(cents)
        ledger.transfer(source, self.account, cents, f"credits into {self.machine}")
        credits = cents // self.denomination
        self.meters["credits"] += credits
        self.meters["credits_in"] += credits

    def cash_out(self, target: str, ledger: Ledger) -> int:
        ensure(self.busy() is None, self.busy() or "")
        credits = self.meters["credits"]
        ledger.transfer(self.account, target, credits * self.denomination, f"cash out of {self.machine}")
        self.meters["credits"] = 0
        self.meters["credits_out"] += credits
        return credits

    # --- spinning --------------------------------------------------------------------------------

    def spin_kind(self, coins: int) -> SpinKind:
        """The kind of the next spin; raises unless ``coins`` is a legal bet for it."""
        ensure(not self.pick_pending(), "RULES A14: the Bullfight bonus is waiting for the player's pick")
        pending = self.pending()
        if pending is not None:
            kind, owed = pending
            ensure(
                coins == owed,
                f"RULES A14: {kind.value} spins play the triggering bet of {owed} coins, not {coins}",
            )
            return kind
        try:
            self.title.bet_shape(coins)
        except ValueError as exc:
            raise IllegalOperation(f"RULES A14: {exc}") from None
        ensure(
            self.meters["credits"] >= coins,
            f"{self.machine} has {self.meters['credits']} credits and cannot bet {coins}: insert credits",
        )
        return SpinKind.PAID

    def verify_spin(self, coins: int, stops: tuple[int, ...]) -> SpinKind:
        kind = self.spin_kind(coins)
        ensure(
            len(stops) == len(self.title.reels),
            f"a spin needs {len(self.title.reels)} stops, got {len(stops)}",
        )
        for i, (stop, reel) in enumerate(zip(stops, self.title.reels, strict=True)):
            ensure(0 <= stop < reel.size, f"reel {i + 1} has stops 0..{reel.size - 1}, not {stop}")
        if kind in (SpinKind.FREE, SpinKind.CASH_IN):
            per_line, lines = self.title.bet_shape(coins)
            ensure(
                sum(w.pay for w in self.evaluator.window_pays(stops, per_line, lines)) > 0,
                "RULES A14: a guaranteed free winning spin must win; these stops pay nothing",
            )
        return kind

    def can_spin(self, coins: int, stops: tuple[int, ...]) -> bool:
        try:
            self.verify_spin(coins, stops)
        except IllegalOperation:
            return False
        return True

    def spin(
        self, coins: int, stops: tuple[int, ...], draw: int, ledger: Ledger, pools: dict[str, Pool]
    ) -> SpinResult:
        kind = self.verify_spin(coins, stops)
        per_line, lines = self.title.bet_shape(coins)
        progressive = self.title.progressive
        if kind is SpinKind.PAID:
            ledger.transfer(self.account, HOUSE, coins * self.denomination, f"{self.machine} bet")
            self.meters["credits"] -= coins
            self.meters["coin_in"] += coins
            self.meters["games_played"] += 1
            if progressive is not None and coins >= progressive.min_coins:
                pools[progressive.pool].contribute(coins * self.denomination, ledger)
        else:
            self.meters["free_games"] += 1

        wins = tuple(self.evaluator.window_pays(stops, per_line, lines))
        line_pay = sum(w.pay for w in wins)
        spin = Spin(
            coins=coins,
            max_bet=coins == self.title.max_bet,
            payline=wins[0].symbols,
            line_pay=line_pay,
            kind=kind,
            draw=draw,
            wilds={w.symbol: w.excludes for w in self.title.wilds},
        )
        multiplier, jackpot_won = 1, False
        awards: list[Award] = []
        for f in self.title.features:
            step = f.step(self.feature_meters, spin)
            multiplier *= step.multiplier
            awards.extend(step.awards)
            jackpot_won = jackpot_won or step.jackpot
        paid = line_pay * multiplier + sum(a.credits for a in awards)
        ledger.transfer(HOUSE, self.account, paid * self.denomination, f"{self.machine} win")
        jackpot = 0
        if jackpot_won and progressive is not None:
            jackpot = pools[progressive.pool].win(self.denomination, self.account, ledger)
            self.meters["jackpots"] += 1
            self.meters["jackpot_out"] += jackpot
        win = paid + jackpot
        self.meters["credits"] += win
        self.meters["coin_out"] += win
        self.meters["bonus_out"] += sum(a.credits for a in awards)
        if win:
            self.meters["games_won"] += 1
        self.last = SpinResult(
            machine=self.machine,
            kind=kind,
            coins=coins,
            lines=lines,
            stops=stops,
            window=self._window(stops),
            display=self._display(stops, wins),
            line_wins=wins,
            line_pay=line_pay,
            multiplier=multiplier,
            awards=tuple(awards),
            jackpot=jackpot,
            win=win,
            meters={**self.meters, **self.feature_meters},
        )
        return self.last

    def _window(self, stops: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
        return tuple(
            tuple(reel.symbol_at(stop, row) for reel, stop in zip(self.title.reels, stops, strict=True))
            for row in (-1, 0, 1)
        )

    def _display(self, stops: tuple[int, ...], wins: tuple[LineWin, ...]) -> tuple[tuple[str, ...], ...]:
        """The window with morphing wilds turned into the symbol they completed (RULES A14)."""
        rows = [list(r) for r in self._window(stops)]
        for win in wins:
            if not win.pay or not win.wild_positions:
                continue
            rule = self.evaluator.table.rules[win.rule]
            pattern = getattr(rule, "pattern", ())
            for reel in win.wild_positions:
                wild = self.title.wild(win.symbols[reel])
                if wild is None or not wild.morph or not pattern:
                    continue
                target = self._morph_target(pattern[reel], win.symbols)
                if target is not None and (wild.morph == (ANY,) or target in wild.morph):
                    rows[self.title.paylines[win.line][reel] + 1][reel] = target
        return tuple(tuple(r) for r in rows)

    def _morph_target(self, matcher: str, symbols: tuple[str, ...]) -> str | None:
        members = self.title.groups.get(matcher)
        if members is None:
            return matcher
        return next((s for s in symbols if s in members), None)

    # --- bonuses and settings -----------------------------------------------------------------

    def verify_pick(self, choice: str, winner: str) -> PickBonus:
        feature = self.pick_feature()
        ensure(feature is not None and self.pick_pending(), "RULES A14: no Bullfight bonus is waiting")
        assert feature is not None
        ensure(choice in feature.choices, f"pick one of {', '.join(feature.choices)}, not {choice!r}")
        ensure(winner in feature.choices, f"the fight is won by one of {', '.join(feature.choices)}")
        return feature

    def pick(self, choice: str, winner: str, ledger: Ledger) -> Award:
        feature = self.verify_pick(choice, winner)
        award = feature.resolve(self.feature_meters, choice, winner)
        ledger.transfer(HOUSE, self.account, award.credits * self.denomination, f"{self.machine} bonus")
        self.meters["credits"] += award.credits
        self.meters["coin_out"] += award.credits
        self.meters["bonus_out"] += award.credits
        return award

    def loss_meter(self) -> LossMeter | None:
        return next((f for f in self.title.features if isinstance(f, LossMeter)), None)

    def verify_cash_in(self) -> LossMeter:
        feature = self.loss_meter()
        ensure(feature is not None, f"{self.title.name} has no Free Winning Spins meter to cash in")
        assert feature is not None
        ensure(self.feature_meters["free_winning_spins"] > 0, "RULES A14: no free winning spins are banked")
        ensure(self.pending() is None, "RULES A14: cashed-in spins are still being played")
        return feature

    def cash_in(self) -> int:
        return self.verify_cash_in().cash_in(self.feature_meters)

    def select_paytable(self, name: str) -> None:
        ensure(self.busy() is None, self.busy() or "")
        try:
            self.paytable = self.title.paytable(name).name
        except ValueError as exc:
            raise IllegalOperation(str(exc)) from None

    def reset_meter(
        self, meter: str, value: int | None, reason: str, by: str, pools: dict[str, Pool], ledger: Ledger
    ) -> dict[str, Any]:
        """An attendant's audited meter reset; credits are never reset (cash them out instead)."""
        ensure(bool(reason.strip()) and bool(by.strip()), "a meter reset needs a reason and who did it")
        ensure(meter != "credits", "credits are never reset: cash them out")
        if meter.startswith("progressive:"):
            name = meter.split(":", 1)[1]
            ensure(name in pools, f"no progressive pool {name!r}")
            pool = pools[name]
            old = pool.value_cents
            ledger.transfer(pool_account(name), HOUSE, old, f"{name} reset by {by}")
            pool.value_cents, pool.carry = 0, Fraction(0)
            pool.seed(ledger)
            new = pool.value_cents
        elif meter in self.meters:
            ensure(value is None or value == 0, "accounting meters reset to zero only")
            old, new = self.meters[meter], 0
            self.meters[meter] = 0
        elif meter in self.feature_meters:
            initial = _initial(self.title.features, meter)
            ensure(self.busy() is None, self.busy() or "")
            new = initial if value is None else value
            ensure(new >= 0, "a meter value is not negative")
            old = self.feature_meters[meter]
            self.feature_meters[meter] = new
        else:
            known = sorted([*self.meters, *self.feature_meters, *(f"progressive:{p}" for p in pools)])
            raise IllegalOperation(f"{self.machine} has no meter {meter!r}; meters: {', '.join(known)}")
        entry = {
            "meter": meter,
            "old": old,
            "new": new,
            "reason": reason,
            "by": by,
            "games_played": self.meters["games_played"],
        }
        self.audit.append(entry)
        return entry

    def to_json(self) -> dict[str, Any]:
        pending = self.pending()
        return {
            "machine": self.machine,
            "title": self.title.name,
            "slug": self.title.slug,
            "digest": self.title.digest(),
            "denomination_cents": self.denomination,
            "paytable": self.paytable,
            "max_bet": self.title.max_bet,
            "lines": self.title.lines,
            "meters": dict(self.meters),
            "feature_meters": dict(self.feature_meters),
            "pending": None if pending is None else {"kind": pending[0].value, "coins": pending[1]},
            "pick_pending": self.pick_pending(),
            "audit": list(self.audit),
            "last_spin": None if self.last is None else self.last.to_json(),
        }


def _initial(features: tuple[Feature, ...], meter: str) -> int:
    for f in features:
        initial = f.initial_meters()
        if meter in initial:
            return initial[meter]
    raise KeyError(meter)


def pool_for(progressive: Progressive) -> Pool:
    return Pool(progressive.pool, progressive.reset_cents, progressive.contribution)
