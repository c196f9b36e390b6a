"""Slot features with memory (RULES A14): the rules for each meter, as small pure step functions.

A feature owns named meters (plain integers kept by the machine and logged with every spin) and one
``step(meters, spin)`` that applies the seed's rule after the reels stop. The machine asks
``pending(meters)`` before each spin: a free, re-spin or cashed-in spin is played instead of a paid
one while any feature has one pending. The same step functions drive the engine and the simulator
in :mod:`dealer.core.slots.analysis`, so the simulated returns check the very code the table runs.

>>> bank = PiggyBank()
>>> meters = bank.initial_meters()
>>> bank.step(meters, Spin(coins=3, max_bet=True, payline=("-", "-", "-"), line_pay=0))
StepResult(multiplier=1, awards=(), jackpot=False)
>>> meters
{'piggy_bank': 153}
>>> bank.step(meters, Spin(3, True, ("PIG", "PIG", "PIG"), 0)).awards
(Award(feature='piggy_bank', credits=153, text='three Piggies win the Piggy Bank'),)
>>> meters
{'piggy_bank': 150}
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from dealer.core.errors import DealerError

__all__ = [
    "Award",
    "DragonRespins",
    "Feature",
    "FreeSpins",
    "LightSpeedMeter",
    "LossMeter",
    "PickBonus",
    "PiggyBank",
    "Progressive",
    "SafeCracker",
    "Snowman",
    "Spin",
    "SpinKind",
    "StepResult",
    "feature_from_mapping",
    "progressive_from_mapping",
]


class FeatureError(DealerError, ValueError):
    """A feature definition in a title is wrong."""


class SpinKind(enum.Enum):
    PAID = "paid"
    FREE = "free"  # Bonkers! free spins: guaranteed winning, no wager
    RESPIN = "respin"  # Crazy Dragon re-spins: no wager
    CASH_IN = "cash-in"  # It's Good to be Bad banked free winning spin: guaranteed winning


@dataclass(frozen=True, slots=True)
class Spin:
    """What a feature sees of one spin once the reels have stopped."""

    coins: int  # total coins bet (the triggering bet for free spins)
    max_bet: bool
    payline: tuple[str, ...]  # the symbols on the centre payline, reels 1..3
    line_pay: int  # credits from the paytable on all played lines, before meter multipliers
    kind: SpinKind = SpinKind.PAID
    draw: int = 0  # a uniform random integer for random awards (resolved before logging)
    wilds: Mapping[str, frozenset[str]] = field(default_factory=dict)  # wild -> symbols it may not replace

    def count(self, symbol: str) -> int:
        return sum(1 for s in self.payline if s == symbol)

    def three(self, symbol: str) -> bool:
        """Three ``symbol`` on the payline, a wild standing in where the title allows it."""
        return all(s == symbol or (s in self.wilds and symbol not in self.wilds[s]) for s in self.payline)


@dataclass(frozen=True, slots=True)
class Award:
    feature: str
    credits: int
    text: str


@dataclass(frozen=True, slots=True)
class StepResult:
    multiplier: int = 1  # applied to this spin's line pay (0 when the line pay is replaced)
    awards: tuple[Award, ...] = ()
    jackpot: bool = False  # the title's progressive is won on this spin


NOTHING = StepResult()


@dataclass(frozen=True)
class Feature:
    """Base of every feature: meters, qualification and one step per spin."""

    kind: ClassVar[str] = ""
    progressive: ClassVar[bool] = False
    min_coins: int = 1  # the bet that qualifies (RULES A14: several features need the max bet)

    def initial_meters(self) -> dict[str, int]:
        return {}

    def symbols(self) -> tuple[str, ...]:
        return ()

    def pending(self, meters: Mapping[str, int]) -> SpinKind | None:
        return None

    def pending_coins(self, meters: Mapping[str, int]) -> int:
        return 0

    def qualifies(self, spin: Spin) -> bool:
        return spin.coins >= self.min_coins

    def step(self, meters: dict[str, int], spin: Spin) -> StepResult:
        raise NotImplementedError


@dataclass(frozen=True)
class PiggyBank(Feature):
    """Bank On It!: three blanks put the bet in the bank; three Piggies win it; it restarts at 150."""

    kind: ClassVar[str] = "piggy_bank"
    symbol: str = "PIG"
    start: int = 150

    def initial_meters(self) -> dict[str, int]:
        return {"piggy_bank": self.start}

    def symbols(self) -> tuple[str, ...]:
        return (self.symbol,)

    def step(self, meters: dict[str, int], spin: Spin) -> StepResult:
        if spin.kind is not SpinKind.PAID or not self.qualifies(spin):
            return NOTHING
        if all(s == "-" for s in spin.payline):
            meters["piggy_bank"] += spin.coins
            return NOTHING
        if spin.three(self.symbol):
            won = meters["piggy_bank"]
            meters["piggy_bank"] = self.start
            return StepResult(awards=(Award(self.kind, won, "three Piggies win the Piggy Bank"),))
        return NOTHING


@dataclass(frozen=True)
class SafeCracker(Feature):
    """The Big Heist: one click per safe dial; 50 clicks crack the safe, three dials on one spin
    crack it for ten times the secret bonus. The secret bonus is drawn from a list per coins bet."""

    kind: ClassVar[str] = "safe"
    symbol: str = "SAFE"
    clicks: int = 50
    three_multiplier: int = 10
    bonus: Mapping[int, tuple[int, ...]] = field(default_factory=dict)  # coins -> secret bonus amounts

    def initial_meters(self) -> dict[str, int]:
        return {"safe_clicks": 0}

    def symbols(self) -> tuple[str, ...]:
        return (self.symbol,)

    def secret_bonus(self, coins: int, draw: int) -> int:
        amounts = self.bonus[coins]
        return amounts[draw % len(amounts)]

    def step(self, meters: dict[str, int], spin: Spin) -> StepResult:
        if spin.kind is not SpinKind.PAID or not self.qualifies(spin):
            return NOTHING
        dials = spin.count(self.symbol)
        if dials == 3:
            meters["safe_clicks"] = 0
            won = self.three_multiplier * self.secret_bonus(spin.coins, spin.draw)
            return StepResult(awards=(Award(self.kind, won, "three safe dials crack the safe: 10 x bonus"),))
        meters["safe_clicks"] += dials
        if meters["safe_clicks"] >= self.clicks:
            meters["safe_clicks"] = 0
            won = self.secret_bonus(spin.coins, spin.draw)
            return StepResult(awards=(Award(self.kind, won, f"{self.clicks} clicks crack the safe"),))
        return NOTHING


@dataclass(frozen=True)
class FreeSpins(Feature):
    """Bonkers!: 2 or 3 symbols give 3 or 10 guaranteed winning free spins; no retrigger;
    three red 7s during free spins pay and end them."""

    kind: ClassVar[str] = "free_spins"
    symbol: str = "BONKERS"
    awards: Mapping[int, int] = field(default_factory=lambda: {2: 3, 3: 10})
    end_line: tuple[str, ...] = ("7R", "7R", "7R")

    def initial_meters(self) -> dict[str, int]:
        return {"free_spins": 0, "free_spins_coins": 0}

    def symbols(self) -> tuple[str, ...]:
        return (self.symbol, *self.end_line)

    def pending(self, meters: Mapping[str, int]) -> SpinKind | None:
        return SpinKind.FREE if meters["free_spins"] > 0 else None

    def pending_coins(self, meters: Mapping[str, int]) -> int:
        return meters["free_spins_coins"]

    def step(self, meters: dict[str, int], spin: Spin) -> StepResult:
        if spin.kind is SpinKind.FREE:
            meters["free_spins"] -= 1
            if spin.payline == self.end_line:
                meters["free_spins"] = 0
            if meters["free_spins"] == 0:
                meters["free_spins_coins"] = 0
            return NOTHING
        if spin.kind is SpinKind.PAID and self.qualifies(spin):
            granted = self.awards.get(spin.count(self.symbol), 0)
            if granted:
                meters["free_spins"] = granted
                meters["free_spins_coins"] = spin.coins
        return NOTHING


@dataclass(frozen=True)
class DragonRespins(Feature):
    """Crazy Dragon: dragon parts in order from the left give 2, 5 or 20 re-spins (max bet); re-spins
    won during the bonus are added; reaching 100 re-spins in one bonus wins the progressive, after
    which the banked re-spins are played out and no more are added."""

    kind: ClassVar[str] = "respins"
    progressive: ClassVar[bool] = True
    parts: tuple[str, ...] = ("HEAD", "BODY", "TAIL")
    awards: tuple[int, ...] = (2, 5, 20)
    jackpot_total: int = 100

    def initial_meters(self) -> dict[str, int]:
        return {"respins": 0, "respins_total": 0, "respins_coins": 0}

    def symbols(self) -> tuple[str, ...]:
        return self.parts

    def pending(self, meters: Mapping[str, int]) -> SpinKind | None:
        return SpinKind.RESPIN if meters["respins"] > 0 else None

    def pending_coins(self, meters: Mapping[str, int]) -> int:
        return meters["respins_coins"]

    def dragon(self, payline: tuple[str, ...]) -> int:
        """How much of the dragon shows, counted in order from the left reel."""
        n = 0
        for symbol, part in zip(payline, self.parts, strict=True):
            if symbol != part:
                break
            n += 1
        return n

    def step(self, meters: dict[str, int], spin: Spin) -> StepResult:
        parts = self.dragon(spin.payline)
        granted = self.awards[parts - 1] if parts else 0
        if spin.kind is SpinKind.RESPIN:
            meters["respins"] -= 1
            jackpot = False
            if granted and meters["respins_total"] < self.jackpot_total:
                meters["respins"] += granted
                meters["respins_total"] += granted
                jackpot = meters["respins_total"] >= self.jackpot_total
            if meters["respins"] == 0:
                meters["respins_total"] = meters["respins_coins"] = 0
            return StepResult(jackpot=jackpot)
        if spin.kind is SpinKind.PAID and self.qualifies(spin) and granted:
            meters.update(respins=granted, respins_total=granted, respins_coins=spin.coins)
        return NOTHING


@dataclass(frozen=True)
class PickBonus(Feature):
    """El Toro: a matador and a bull on one max-bet spin start the Bullfight pick; the right pick
    pays ``win`` credits, the wrong one ``lose``. The fight's winner is drawn by the RNG."""

    kind: ClassVar[str] = "pick"
    pair: tuple[str, ...] = ("MATADOR", "BULL")
    choices: tuple[str, ...] = ("matador", "bull")
    win: int = 200
    lose: int = 10

    def initial_meters(self) -> dict[str, int]:
        return {"pick_pending": 0}

    def symbols(self) -> tuple[str, ...]:
        return self.pair

    def triggered(self, payline: tuple[str, ...]) -> bool:
        return all(s in payline for s in self.pair)

    def step(self, meters: dict[str, int], spin: Spin) -> StepResult:
        if spin.kind is SpinKind.PAID and self.qualifies(spin) and self.triggered(spin.payline):
            meters["pick_pending"] = 1
        return NOTHING

    def resolve(self, meters: dict[str, int], choice: str, winner: str) -> Award:
        meters["pick_pending"] = 0
        if choice == winner:
            return Award(self.kind, self.win, f"Bullfight: the {winner} wins, right pick")
        return Award(self.kind, self.lose, f"Bullfight: the {winner} wins, wrong pick")


@dataclass(frozen=True)
class Snowman(Feature):
    """Frozen Assets: each snowflake (max coins) adds one to the snowman number; each sun takes one
    off it and adds one credit to the snowman bonus; at ``target`` the bonus is paid and both restart
    (number 0, bonus ``bonus_reset``)."""

    kind: ClassVar[str] = "snowman"
    add: str = "SNOWFLAKE"
    sub: str = "SUN"
    target: int = 200
    bonus_reset: int = 500

    def initial_meters(self) -> dict[str, int]:
        return {"snowman": 0, "snowman_bonus": self.bonus_reset}

    def symbols(self) -> tuple[str, ...]:
        return (self.add, self.sub)

    def step(self, meters: dict[str, int], spin: Spin) -> StepResult:
        if spin.kind is not SpinKind.PAID or not self.qualifies(spin):
            return NOTHING
        meters["snowman"] += spin.count(self.add)
        for _ in range(spin.count(self.sub)):
            if meters["snowman"] > 0:
                meters["snowman"] -= 1
                meters["snowman_bonus"] += 1
        if meters["snowman"] >= self.target:
            won = meters["snowman_bonus"]
            meters.update(snowman=0, snowman_bonus=self.bonus_reset)
            return StepResult(awards=(Award(self.kind, won, f"the snowman reaches {self.target}"),))
        return NOTHING


@dataclass(frozen=True)
class LossMeter(Feature):
    """It's Good to be Bad: consecutive losing max-bet spins build the Loss Meter; every
    ``per_free`` losses bank one guaranteed free winning spin (up to ``max_free``); ``jackpot_losses``
    in a row win the progressive; any win resets both meters and banked spins are lost unless cashed
    in first with "Cash In!"."""

    kind: ClassVar[str] = "loss_meter"
    progressive: ClassVar[bool] = True
    per_free: int = 4
    max_free: int = 7
    jackpot_losses: int = 29

    def initial_meters(self) -> dict[str, int]:
        return {"loss_meter": 0, "free_winning_spins": 0, "cash_in_spins": 0}

    def pending(self, meters: Mapping[str, int]) -> SpinKind | None:
        return SpinKind.CASH_IN if meters["cash_in_spins"] > 0 else None

    def pending_coins(self, meters: Mapping[str, int]) -> int:
        return self.min_coins

    def banked_after(self, losses: int) -> int:
        return min(self.max_free, losses // self.per_free)

    def cash_in(self, meters: dict[str, int]) -> int:
        spins = meters["free_winning_spins"]
        meters.update(loss_meter=0, free_winning_spins=0, cash_in_spins=spins)
        return spins

    def step(self, meters: dict[str, int], spin: Spin) -> StepResult:
        if spin.kind is SpinKind.CASH_IN:
            meters["cash_in_spins"] -= 1
            return NOTHING
        if spin.kind is not SpinKind.PAID or not self.qualifies(spin):
            return NOTHING
        if spin.line_pay > 0:
            meters.update(loss_meter=0, free_winning_spins=0)
            return NOTHING
        meters["loss_meter"] += 1
        if meters["loss_meter"] >= self.jackpot_losses:
            meters.update(loss_meter=0, free_winning_spins=0)
            return StepResult(jackpot=True)
        meters["free_winning_spins"] = self.banked_after(meters["loss_meter"])
        return NOTHING


@dataclass(frozen=True)
class LightSpeedMeter(Feature):
    """Light Speed: each Light Speed icon (max bet) raises the meter, up to ``max_level``; a win pays
    the line times the level and sets the meter back to 1; three laser guns at the top level win the
    progressive in place of the line pay."""

    kind: ClassVar[str] = "light_speed"
    progressive: ClassVar[bool] = True
    symbol: str = "LIGHTSPEED"
    max_level: int = 7
    jackpot_line: tuple[str, ...] = ("LASER", "LASER", "LASER")

    def initial_meters(self) -> dict[str, int]:
        return {"light_speed": 1}

    def symbols(self) -> tuple[str, ...]:
        return (self.symbol, *self.jackpot_line)

    def step(self, meters: dict[str, int], spin: Spin) -> StepResult:
        if spin.kind is not SpinKind.PAID or not self.qualifies(spin):
            return NOTHING
        before = meters["light_speed"]
        level = min(self.max_level, before + spin.count(self.symbol))
        if before == self.max_level and spin.payline == self.jackpot_line:
            meters["light_speed"] = 1
            return StepResult(multiplier=0, jackpot=True)
        if spin.line_pay > 0:
            meters["light_speed"] = 1
            return StepResult(multiplier=level)
        meters["light_speed"] = level
        return NOTHING


@dataclass(frozen=True)
class Progressive:
    """A system-wide progressive pool: reset value in cents, share of each qualifying bet added."""

    pool: str
    reset_cents: int
    contribution: Fraction = Fraction(1, 100)
    min_coins: int = 3


FEATURES: dict[str, type[Feature]] = {
    cls.kind: cls
    for cls in (
        PiggyBank,
        SafeCracker,
        FreeSpins,
        DragonRespins,
        PickBonus,
        Snowman,
        LossMeter,
        LightSpeedMeter,
    )
}


def _words(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(value.split())
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise FeatureError(f"{where}: expected symbols as text or a list, got {value!r}")


def _int(value: Any, where: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise FeatureError(f"{where}: expected a whole number >= {low}, got {value!r}")
    return value


def feature_from_mapping(raw: Mapping[str, Any], where: str, max_bet: int) -> Feature:
    """Build a feature from its ``[[features]]`` table; ``type`` names it."""
    kind = raw.get("type")
    if kind not in FEATURES:
        raise FeatureError(f"{where}.type: expected one of {', '.join(sorted(FEATURES))}, got {kind!r}")
    kwargs: dict[str, Any] = {
        "min_coins": _int(
            raw.get("min_coins", 1 if kind in ("piggy_bank", "safe", "free_spins") else max_bet),
            f"{where}.min_coins",
            1,
        )
    }
    for key, value in raw.items():
        at = f"{where}.{key}"
        if key in ("type", "min_coins", "note"):
            continue
        if key in ("symbol", "add", "sub"):
            kwargs[key] = str(value)
        elif key in ("parts", "pair", "end_line", "jackpot_line", "choices"):
            kwargs[key] = _words(value, at)
        elif key in (
            "start",
            "clicks",
            "three_multiplier",
            "jackpot_total",
            "win",
            "lose",
            "target",
            "bonus_reset",
            "per_free",
            "max_free",
            "jackpot_losses",
            "max_level",
        ):
            kwargs[key] = _int(value, at)
        elif key == "awards" and kind == "free_spins":
            if not isinstance(value, Mapping):
                raise FeatureError(f"{at}: expected a table such as {{ 2 = 3, 3 = 10 }}")
            kwargs[key] = {_int(int(k), at, 1): _int(v, at, 1) for k, v in value.items()}
        elif key == "awards":
            if not isinstance(value, list):
                raise FeatureError(f"{at}: expected a list of whole numbers")
            kwargs[key] = tuple(_int(v, at, 1) for v in value)
        elif key == "bonus":
            if not isinstance(value, Mapping):
                raise FeatureError(f"{at}: expected a table coins -> list of amounts")
            bonus = {}
            for k, v in value.items():
                if not isinstance(v, list) or not v:
                    raise FeatureError(f"{at}.{k}: expected a non-empty list of credit amounts")
                bonus[_int(int(k), at, 1)] = tuple(_int(x, f"{at}.{k}", 1) for x in v)
            missing = set(range(1, max_bet + 1)) - set(bonus)
            if missing:
                raise FeatureError(
                    f"{at}: expected amounts for every bet 1..{max_bet}, missing {sorted(missing)}"
                )
            kwargs[key] = bonus
        else:
            allowed = sorted(f.name for f in FEATURES[kind].__dataclass_fields__.values())
            raise FeatureError(f"{at}: unknown key for a {kind} feature; expected one of {allowed}")
    feature = FEATURES[kind](**kwargs)
    if isinstance(feature, DragonRespins) and len(feature.parts) != len(feature.awards):
        raise FeatureError(f"{where}.awards: expected one award per dragon part ({len(feature.parts)})")
    if isinstance(feature, SafeCracker) and not feature.bonus:
        raise FeatureError(f"{where}.bonus: expected secret safe bonus amounts per coins bet")
    return feature


def progressive_from_mapping(raw: Mapping[str, Any], where: str, max_bet: int) -> Progressive:
    pool = raw.get("pool")
    if not isinstance(pool, str) or not pool:
        raise FeatureError(f"{where}.pool: expected the pool's name")
    reset = _int(raw.get("reset_cents"), f"{where}.reset_cents", 1)
    try:
        contribution = Fraction(str(raw.get("contribution", "1/100")))
    except (ValueError, ZeroDivisionError):
        raise FeatureError(f"{where}.contribution: expected a fraction such as '1/100'") from None
    if not 0 <= contribution < 1:
        raise FeatureError(f"{where}.contribution: expected a share of the bet below 1, got {contribution}")
    return Progressive(
        pool, reset, contribution, _int(raw.get("min_coins", max_bet), f"{where}.min_coins", 1)
    )
