"""Slot math: exact return by enumeration, Markov chains for meters, and checking simulation.

Definitions used everywhere (a PAR sheet's conventions):

* **rtp** — long-run credits paid / credits wagered at a constant bet of ``coins``. Free spins,
  re-spins and cashed-in spins are part of the paid game that earned them. A progressive counts its
  reset value when hit plus its contribution share (every contributed cent is paid out eventually).
* **hit_frequency** — share of paid games that return anything (their free spins included).
* **sd** — standard deviation of one paid game's return, in units of the total bet.

Methods, reported with every result:

* ``exact`` — every stop combination enumerated (numpy), weights exact; memoryless bonuses (El Toro's
  pick) folded in by expectation. The rtp is an exact fraction.
* ``markov`` — features with memory as a finite Markov chain: stationary distribution for persistent
  meters (safe clicks, snowman number, Light Speed level, Loss Meter), an absorbing chain for bonus
  sessions (free spins, dragon re-spins), a closed-form geometric chain for the Piggy Bank. The
  base-game classes feeding the chain come from the exact enumeration.
* ``simulated`` — the real feature step functions driven by RNG-drawn stops; the interval is the
  99.9 % interval from batch means (robust to the meters' memory).

>>> from dealer.core.slots.title import title_from_mapping
>>> toy = title_from_mapping({"title": {"name": "Toy", "max_coins": 1},
...     "reels": [{"stops": "A - - - - - - - - -"}] * 3,
...     "paytables": [{"name": "P", "pays": [{"line": "A A A", "pays": [1000]}]}]})
>>> r = analyse(toy, 1)
>>> r.method, r.rtp_exact, r.hit_frequency
('exact', Fraction(1, 1), 0.001)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from dealer.core.rng import Rng
from dealer.core.slots.evaluate import Enumeration, Evaluator
from dealer.core.slots.features import (
    DragonRespins,
    Feature,
    FreeSpins,
    LightSpeedMeter,
    LossMeter,
    PickBonus,
    PiggyBank,
    SafeCracker,
    Snowman,
    Spin,
    SpinKind,
)
from dealer.core.slots.title import BLANK, Title

__all__ = ["ClassStats", "RtpReport", "analyse", "par_sheet", "simulate"]

FloatArray = npt.NDArray[np.float64]
Z_999 = 3.2905  # two-sided 99.9 %


@dataclass(frozen=True)
class RtpReport:
    title: str
    coins: int
    denomination: int
    paytable: str
    rtp: float
    hit_frequency: float
    sd: float
    method: str  # exact | markov | simulated
    rtp_exact: Fraction | None = None
    interval: tuple[float, float] | None = None
    games: int | None = None  # simulated paid games
    parts: dict[str, float] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "coins": self.coins,
            "denomination_cents": self.denomination,
            "paytable": self.paytable,
            "rtp": self.rtp,
            "hit_frequency": self.hit_frequency,
            "sd": self.sd,
            "method": self.method,
            "rtp_exact": None if self.rtp_exact is None else str(self.rtp_exact),
            "interval": None if self.interval is None else list(self.interval),
            "games": self.games,
            "parts": dict(self.parts),
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class ClassStats:
    """Base-game outcomes grouped by a feature event: probability and pay moments within the class."""

    p: float
    m1: float  # E[pay | class]
    m2: float  # E[pay^2 | class]
    hit: float  # P(pay > 0 | class)


def _classes(en: Enumeration, key: npt.NDArray[np.int64]) -> dict[int, ClassStats]:
    key = np.broadcast_to(key, en.pay.shape)
    p = en.weight / en.total_weight
    pay = en.pay.astype(np.float64)
    out = {}
    for k in np.unique(key):
        mask = key == k
        pk = float(p[mask].sum())
        if pk == 0:
            continue
        out[int(k)] = ClassStats(
            pk,
            float((p * pay)[mask].sum()) / pk,
            float((p * pay * pay)[mask].sum()) / pk,
            float(p[mask & (en.pay > 0)].sum()) / pk,
        )
    return out


class _Context:
    """What every analysis of one title, bet and paytable shares."""

    def __init__(self, title: Title, coins: int, denomination: int | None, paytable: str | None) -> None:
        self.title = title
        self.coins = coins
        self.per_line, self.lines = title.bet_shape(coins)
        self.denomination = denomination if denomination is not None else title.denominations[0]
        self.ev = Evaluator(title, paytable)
        self.en = self.ev.enumerate(self.per_line, self.lines)
        self.sym = self.ev.payline_symbols()
        self.max_bet = coins == title.max_bet

    def index(self, symbol: str) -> int:
        return self.ev.index.get(symbol, -1)

    def count(self, symbol: str) -> npt.NDArray[np.int64]:
        i = self.index(symbol)
        total: npt.NDArray[np.int64] = (
            (self.sym[0] == i).astype(np.int64) + (self.sym[1] == i) + (self.sym[2] == i)
        ).astype(np.int64)
        return total.astype(
            np.int64
        )

    def line_is(self, symbols: tuple[str, ...]) -> npt.NDArray[np.int64]:
        out = np.ones((1, 1, 1), dtype=np.int64)
        for k, s in enumerate(symbols):
            out = out * (self.sym[k] == self.index(s))
        return out

    def three_with_wild(self, symbol: str) -> npt.NDArray[np.int64]:
        ok = [self.index(symbol)] + [
            self.index(w.symbol) for w in self.title.wilds if symbol not in w.excludes
        ]
        out = np.ones((1, 1, 1), dtype=np.int64)
        for k in range(3):
            out = out * np.isin(self.sym[k], ok)
        return out

    def jackpot_credits(self) -> float:
        prog = self.title.progressive
        return 0.0 if prog is None else prog.reset_cents / self.denomination

    def contribution(self) -> float:
        prog = self.title.progressive
        if prog is None or self.coins < prog.min_coins:
            return 0.0
        return float(prog.contribution)


def _moments_report(
    ctx: _Context,
    mean: float,
    second: float,
    hit: float,
    method: str,
    parts: dict[str, float],
    notes: tuple[str, ...] = (),
    exact: Fraction | None = None,
) -> RtpReport:
    bet = ctx.coins
    var = max(second - mean * mean, 0.0)
    contribution = ctx.contribution()
    rtp = mean / bet + contribution
    if contribution:
        parts = {**parts, "progressive contribution": contribution}
    if exact is not None and contribution:
        exact += Fraction(ctx.title.progressive.contribution) if ctx.title.progressive else 0
    return RtpReport(
        ctx.title.name,
        ctx.coins,
        ctx.denomination,
        ctx.ev.table.name,
        rtp,
        hit,
        math.sqrt(var) / bet,
        method,
        exact,
        parts=parts,
        notes=notes,
    )


def _base_parts(ctx: _Context) -> dict[str, float]:
    return {"line pays": float((ctx.en.pay * ctx.en.weight).sum()) / ctx.en.total_weight / ctx.coins}


# --- exact ----------------------------------------------------------------------------------------


def _exact(ctx: _Context, pick: PickBonus | None) -> RtpReport:
    en = ctx.en
    total = int((en.pay * en.weight).sum())
    second = float((en.pay.astype(np.float64) ** 2 * en.weight).sum()) / en.total_weight
    mean_f = Fraction(total, en.total_weight)
    hits = en.pay > 0
    parts = _base_parts(ctx)
    if pick is not None and ctx.coins >= pick.min_coins:
        trig = np.ones((1, 1, 1), dtype=np.int64)
        for symbol in pick.pair:
            i = ctx.index(symbol)
            trig = trig * ((ctx.sym[0] == i) | (ctx.sym[1] == i) | (ctx.sym[2] == i))
        trig = np.broadcast_to(trig, en.pay.shape)
        w_trig = int(en.weight[trig == 1].sum())
        p_trig = Fraction(w_trig, en.total_weight)
        b1 = Fraction(pick.win + pick.lose, 2)
        b2 = (pick.win**2 + pick.lose**2) / 2
        pay_trig = float((en.pay * en.weight)[trig == 1].sum()) / en.total_weight
        mean_f += p_trig * b1
        second += 2 * pay_trig * float(b1) + float(p_trig) * b2
        hits = hits | (trig == 1)
        parts["Bullfight bonus"] = float(p_trig * b1) / ctx.coins
    hit = float(en.weight[hits].sum()) / en.total_weight
    mean = float(mean_f)
    return _moments_report(ctx, mean, second, hit, "exact", parts, exact=mean_f / ctx.coins)


# --- Markov chains --------------------------------------------------------------------------------


def _stationary(transition: FloatArray) -> FloatArray:
    n = transition.shape[0]
    a = transition.T - np.eye(n)
    a[-1, :] = 1.0
    b = np.zeros(n)
    b[-1] = 1.0
    pi = np.asarray(np.linalg.solve(a, b), dtype=np.float64)
    return pi


@dataclass
class _Chain:
    """A finite chain whose every step is one paid game: transitions and reward moments per state."""

    n: int
    transition: FloatArray = field(init=False)
    m1: FloatArray = field(init=False)
    m2: FloatArray = field(init=False)
    hit: FloatArray = field(init=False)
    extra: dict[str, FloatArray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.transition = np.zeros((self.n, self.n))
        self.m1 = np.zeros(self.n)
        self.m2 = np.zeros(self.n)
        self.hit = np.zeros(self.n)

    def add(
        self,
        s: int,
        to: int,
        c: ClassStats,
        reward: float = 0.0,
        reward2: float | None = None,
        hit: bool = False,
        multiplier: float = 1.0,
        **extra: float,
    ) -> None:
        """Class ``c`` taken from state ``s``: the line pay times ``multiplier`` plus an independent
        ``reward`` (mean; ``reward2`` its second moment, default ``reward**2``)."""
        r2 = reward * reward if reward2 is None else reward2
        self.transition[s, to] += c.p
        self.m1[s] += c.p * (multiplier * c.m1 + reward)
        self.m2[s] += c.p * (multiplier**2 * c.m2 + 2 * multiplier * c.m1 * reward + r2)
        self.hit[s] += c.p * (1.0 if hit else c.hit)
        for k, v in extra.items():
            self.extra.setdefault(k, np.zeros(self.n))[s] += c.p * v

    def solve(self) -> tuple[FloatArray, float, float, float]:
        pi = _stationary(self.transition)
        return pi, float(pi @ self.m1), float(pi @ self.m2), float(pi @ self.hit)


def _piggy(ctx: _Context, f: PiggyBank) -> RtpReport:
    blank = ctx.line_is((BLANK, BLANK, BLANK))
    pig = ctx.three_with_wild(f.symbol)
    cls = _classes(ctx.en, blank + 2 * pig)
    zero = ClassStats(0, 0, 0, 0)
    pb, pp = cls.get(1, zero).p, cls.get(2, zero).p
    r = pb / (pb + pp)
    ek = r / (1 - r)
    ek2 = r / (1 - r) ** 2 + ek * ek
    n = ctx.coins
    bank1 = f.start + n * ek
    bank2 = f.start**2 + 2 * f.start * n * ek + n * n * ek2
    mean = sum(c.p * c.m1 for c in cls.values()) + pp * bank1
    second = sum(c.p * c.m2 for c in cls.values()) + pp * (2 * cls.get(2, zero).m1 * bank1 + bank2)
    hit = sum(c.p * c.hit for k, c in cls.items() if k != 2) + pp
    parts = _base_parts(ctx)
    parts["Piggy Bank"] = pp * bank1 / n
    return _moments_report(
        ctx,
        mean,
        second,
        hit,
        "markov",
        parts,
        (f"Piggy Bank: geometric stationary chain, mean bank when won {bank1:.1f} credits",),
    )


def _safe(ctx: _Context, f: SafeCracker) -> RtpReport:
    cls = _classes(ctx.en, ctx.count(f.symbol))
    amounts = f.bonus[ctx.coins]
    b1 = sum(amounts) / len(amounts)
    b2 = sum(a * a for a in amounts) / len(amounts)
    chain = _Chain(f.clicks)
    for s in range(f.clicks):
        for dials, c in cls.items():
            if dials == 3:
                chain.add(s, 0, c, f.three_multiplier * b1, f.three_multiplier**2 * b2, hit=True, bonus=1)
            elif s + dials >= f.clicks:
                chain.add(s, 0, c, b1, b2, hit=True, bonus=1)
            else:
                chain.add(s, s + dials, c)
    pi, mean, second, hit = chain.solve()
    parts = _base_parts(ctx)
    parts["safe bonus"] = (mean - sum(c.p * c.m1 for c in cls.values())) / ctx.coins
    cracks = float(pi @ chain.extra["bonus"])
    return _moments_report(
        ctx,
        mean,
        second,
        hit,
        "markov",
        parts,
        (f"safe: {f.clicks}-state stationary chain, cracked once every {1 / cracks:.0f} games",),
    )


def _free_spins(ctx: _Context, f: FreeSpins) -> RtpReport:
    en = ctx.en
    p = en.weight / en.total_weight
    win = en.pay > 0
    end = np.broadcast_to(ctx.line_is(f.end_line), en.pay.shape) == 1
    pw = float(p[win].sum())
    pay = en.pay.astype(np.float64)
    ey = float((p * pay)[win].sum()) / pw
    ey2 = float((p * pay * pay)[win].sum()) / pw
    cont = win & ~end
    q_cont = float(p[cont].sum()) / pw
    ey_cont = float((p * pay)[cont].sum()) / pw  # E[Y; continue]
    longest = max(f.awards.values())
    m = [0.0] * (longest + 1)
    q = [0.0] * (longest + 1)
    for k in range(1, longest + 1):
        m[k] = ey + q_cont * m[k - 1]
        q[k] = ey2 + 2 * ey_cont * m[k - 1] + q_cont * q[k - 1]
    cls = _classes(en, ctx.count(f.symbol))
    mean = second = hit = 0.0
    bonus = 0.0
    for n_sym, c in cls.items():
        spins = f.awards.get(n_sym, 0) if ctx.coins >= f.min_coins else 0
        mean += c.p * (c.m1 + m[spins])
        second += c.p * (c.m2 + 2 * c.m1 * m[spins] + q[spins])
        hit += c.p * (1.0 if spins else c.hit)
        bonus += c.p * m[spins]
    parts = _base_parts(ctx)
    parts["free spins"] = bonus / ctx.coins
    return _moments_report(
        ctx,
        mean,
        second,
        hit,
        "markov",
        parts,
        (
            f"free spins: absorbing chain; a free spin pays {ey:.2f} credits on average and ends the feature "
            f"with probability {1 - q_cont:.4f}",
        ),
    )


def _respins(ctx: _Context, f: DragonRespins) -> RtpReport:
    en = ctx.en
    prefix = np.zeros((1, 1, 1), dtype=np.int64)
    run = np.ones((1, 1, 1), dtype=np.int64)
    for k, part in enumerate(f.parts):
        run = run * (ctx.sym[k] == ctx.index(part))
        prefix = prefix + run
    cls = _classes(en, prefix)
    jv = ctx.jackpot_credits()
    mu = sum(c.p * c.m1 for c in cls.values())
    e2 = sum(c.p * c.m2 for c in cls.values())
    top = f.jackpot_total

    def played_out(r: int) -> tuple[float, float]:  # r re-spins with no more awards
        return r * mu, r * (e2 - mu * mu) + (r * mu) ** 2

    v1: dict[tuple[int, int], float] = {}
    v2: dict[tuple[int, int], float] = {}
    vj: dict[tuple[int, int], float] = {}
    vz: dict[tuple[int, int], float] = {}  # probability the rest of the session pays nothing
    for t in range(top - 1, 0, -1):
        for r in range(1, t + 1):
            a1 = a2 = aj = az = 0.0
            for parts, c in cls.items():
                award = f.awards[parts - 1] if parts else 0
                r2, t2 = r - 1 + award, t + award
                if t2 >= top:
                    n1, n2 = played_out(r2)
                    n1, n2, nj, nz = n1 + jv, n2 + 2 * jv * n1 + jv * jv, 1.0, 0.0
                elif r2 == 0:
                    n1 = n2 = nj = 0.0
                    nz = 1.0
                else:
                    n1, n2, nj, nz = v1[(r2, t2)], v2[(r2, t2)], vj[(r2, t2)], vz[(r2, t2)]
                a1 += c.p * (c.m1 + n1)
                a2 += c.p * (c.m2 + 2 * c.m1 * n1 + n2)
                aj += c.p * nj
                az += c.p * (1 - c.hit) * nz
            v1[(r, t)], v2[(r, t)], vj[(r, t)], vz[(r, t)] = a1, a2, aj, az
    mean = second = hit = bonus = p_jack = 0.0
    qualifies = ctx.coins >= f.min_coins
    for parts, c in cls.items():
        award = f.awards[parts - 1] if parts and qualifies else 0
        if award:
            s1, s2, sj, sz = v1[(award, award)], v2[(award, award)], vj[(award, award)], vz[(award, award)]
        else:
            s1, s2, sj, sz = 0.0, 0.0, 0.0, 1.0
        mean += c.p * (c.m1 + s1)
        second += c.p * (c.m2 + 2 * c.m1 * s1 + s2)
        hit += c.p * (1 - (1 - c.hit) * sz)
        bonus += c.p * s1
        p_jack += c.p * sj
    parts_ = _base_parts(ctx)
    parts_["re-spins (line pays)"] = (bonus - p_jack * jv) / ctx.coins
    parts_["progressive at reset"] = p_jack * jv / ctx.coins
    return _moments_report(
        ctx,
        mean,
        second,
        hit,
        "markov",
        parts_,
        (
            f"re-spins: absorbing chain over (re-spins left, re-spins won); progressive won once every "
            f"{1 / p_jack:,.0f} games"
            if p_jack
            else "re-spins need the max bet",
        ),
    )


def _snowman(ctx: _Context, f: Snowman) -> RtpReport:
    cls = _classes(ctx.en, ctx.count(f.add) + 4 * ctx.count(f.sub))
    if not ctx.coins >= f.min_coins:
        return _exact(ctx, None)
    chain = _Chain(f.target)
    for s in range(f.target):
        for key, c in cls.items():
            flakes, suns = key % 4, key // 4
            up = s + flakes
            eff = min(suns, up)
            after = up - eff
            if after >= f.target:
                chain.add(s, 0, c, 0.0, hit=True, wins=1, suns=eff)
            else:
                chain.add(s, after, c, suns=eff)
    pi, base_mean, _, _ = chain.solve()
    wins = float(pi @ chain.extra["wins"])
    sun_rate = float(pi @ chain.extra["suns"])
    bonus_at_win = f.bonus_reset + sun_rate / wins
    # second pass with the bonus at its long-run mean value when won
    chain2 = _Chain(f.target)
    for s in range(f.target):
        for key, c in cls.items():
            flakes, suns_ = key % 4, key // 4
            up = s + flakes
            after = up - min(suns_, up)
            if after >= f.target:
                chain2.add(s, 0, c, bonus_at_win, hit=True)
            else:
                chain2.add(s, after, c)
    _, mean, second, hit = chain2.solve()
    parts = _base_parts(ctx)
    parts["snowman bonus"] = wins * bonus_at_win / ctx.coins
    return _moments_report(
        ctx,
        mean,
        second,
        hit,
        "markov",
        parts,
        (
            f"snowman: {f.target}-state stationary chain with renewal reward; bonus won once every "
            f"{1 / wins:,.0f} games at {bonus_at_win:.1f} credits on average",
            "sd takes the snowman bonus at its mean value when won",
        ),
    )


def _loss_meter(ctx: _Context, f: LossMeter, threshold: int | None) -> tuple[float, float, float, float]:
    en = ctx.en
    p = en.weight / en.total_weight
    win = en.pay > 0
    pay = en.pay.astype(np.float64)
    pw = float(p[win].sum())
    c_win = ClassStats(pw, float((p * pay)[win].sum()) / pw, float((p * pay * pay)[win].sum()) / pw, 1.0)
    c_lose = ClassStats(1 - pw, 0.0, 0.0, 0.0)
    jv = ctx.jackpot_credits()
    chain = _Chain(f.jackpot_losses)
    for s in range(f.jackpot_losses):
        chain.add(s, 0, c_win)
        nxt = s + 1
        if nxt >= f.jackpot_losses:
            chain.add(s, 0, c_lose, jv, hit=True, jackpot=1)
            continue
        banked = f.banked_after(nxt)
        if threshold is not None and nxt >= threshold and banked:
            r1 = banked * c_win.m1
            r2 = banked * c_win.m2 + banked * (banked - 1) * c_win.m1**2
            chain.add(s, 0, c_lose, r1, r2, hit=True, cash=r1)
        else:
            chain.add(s, nxt, c_lose)
    pi, mean, second, hit = chain.solve()
    jack = float(pi @ chain.extra.get("jackpot", np.zeros(chain.n)))
    return mean, second, hit, jack


def _loss(ctx: _Context, f: LossMeter, threshold: int | None) -> RtpReport:
    if ctx.coins < f.min_coins:
        return _exact(ctx, None)
    options = [None, *range(f.per_free, f.jackpot_losses)]
    results = {t: _loss_meter(ctx, f, t) for t in options}
    best = max(options, key=lambda t: results[t][0])
    chosen = best if threshold is None else threshold
    mean, second, hit, jack = results[chosen]
    never = results[None][0] / ctx.coins + ctx.contribution()
    parts = _base_parts(ctx)
    jv = ctx.jackpot_credits()
    parts["progressive at reset"] = jack * jv / ctx.coins
    parts["free winning spins"] = (mean - jack * jv) / ctx.coins - parts["line pays"]
    return _moments_report(
        ctx,
        mean,
        second,
        hit,
        "markov",
        parts,
        (
            f"loss meter: {f.jackpot_losses}-state stationary chain; player cashes in at "
            f"{chosen} losses ({'the best point' if threshold is None else 'as asked'}); "
            f"never cashing in returns {never:.4%}",
            f"progressive won once every {1 / jack:,.0f} games" if jack else "progressive never won",
        ),
    )


def _light_speed(ctx: _Context, f: LightSpeedMeter) -> RtpReport:
    if ctx.coins < f.min_coins:
        return _exact(ctx, None)
    icons = ctx.count(f.symbol)
    laser = ctx.line_is(f.jackpot_line)
    won = (ctx.en.pay > 0).astype(np.int64)
    cls = _classes(ctx.en, icons + 4 * laser + 8 * won)
    jv = ctx.jackpot_credits()
    top = f.max_level
    chain = _Chain(top)  # state s = level - 1
    for s in range(top):
        level = s + 1
        for key, c in cls.items():
            n, is_laser, is_win = key % 4, (key // 4) % 2, key // 8
            after = min(top, level + n)
            if level == top and is_laser:
                chain.add(s, 0, c, jv, hit=True, multiplier=0.0, jackpot=1)
            elif is_win:
                chain.add(s, 0, c, multiplier=float(after))
            else:
                chain.add(s, after - 1, c)
    pi, mean, second, hit = chain.solve()
    jack = float(pi @ chain.extra.get("jackpot", np.zeros(top)))
    parts = _base_parts(ctx)
    parts["progressive at reset"] = jack * jv / ctx.coins
    parts["Light Speed multiplier"] = mean / ctx.coins - parts["line pays"] - parts["progressive at reset"]
    return _moments_report(
        ctx,
        mean,
        second,
        hit,
        "markov",
        parts,
        (
            f"Light Speed: {top}-state stationary chain; mean level "
            f"{float(pi @ np.arange(1, top + 1)):.2f}; progressive won once every "
            f"{1 / jack:,.0f} games"
            if jack
            else "progressive never won",
        ),
    )


def analyse(
    title: Title,
    coins: int,
    *,
    denomination: int | None = None,
    paytable: str | None = None,
    cash_in_at: int | None = None,
) -> RtpReport:
    """The return of ``title`` at ``coins`` by the best method its features allow."""
    ctx = _Context(title, coins, denomination, paytable)
    memory = [f for f in title.features if not isinstance(f, PickBonus)]
    if not memory:
        pick = next((f for f in title.features if isinstance(f, PickBonus)), None)
        return _exact(ctx, pick)
    if len(memory) > 1:
        raise ValueError(f"{title.name}: the analyser handles one feature with memory per title")
    f = memory[0]
    if isinstance(f, PiggyBank):
        return _piggy(ctx, f)
    if isinstance(f, SafeCracker):
        return _safe(ctx, f)
    if isinstance(f, FreeSpins):
        return _free_spins(ctx, f)
    if isinstance(f, DragonRespins):
        return _respins(ctx, f)
    if isinstance(f, Snowman):
        return _snowman(ctx, f)
    if isinstance(f, LossMeter):
        return _loss(ctx, f, cash_in_at)
    if isinstance(f, LightSpeedMeter):
        return _light_speed(ctx, f)
    raise ValueError(f"{title.name}: no analysis for feature {f.kind}")


def best_cash_in(title: Title, coins: int, denomination: int | None = None) -> int | None:
    """The Loss Meter level at which cashing in the banked spins returns the most (None = never)."""
    ctx = _Context(title, coins, denomination, None)
    f = next(f for f in title.features if isinstance(f, LossMeter))
    options: list[int | None] = [None, *range(f.per_free, f.jackpot_losses)]
    best: int | None = max(options, key=lambda t: _loss_meter(ctx, f, t)[0])
    return best


# --- simulation -----------------------------------------------------------------------------------


class _Sampler:
    """Draws stop combinations by weight, optionally only winning ones, as flat indices."""

    def __init__(self, en: Enumeration, gen: np.random.Generator) -> None:
        self.gen = gen
        flat_w = en.weight.ravel().astype(np.float64)
        self.cum = np.cumsum(flat_w)
        wins = np.flatnonzero(en.pay.ravel() > 0)
        self.win_idx = wins
        self.win_cum = np.cumsum(flat_w[wins])
        self.buffer: list[int] = []
        self.win_buffer: list[int] = []

    def draw(self) -> int:
        if not self.buffer:
            u = self.gen.random(65536) * self.cum[-1]
            self.buffer = np.searchsorted(self.cum, u, side="right").tolist()
        return self.buffer.pop()

    def draw_win(self) -> int:
        if not self.win_buffer:
            u = self.gen.random(4096) * self.win_cum[-1]
            self.win_buffer = self.win_idx[np.searchsorted(self.win_cum, u, side="right")].tolist()
        return self.win_buffer.pop()


def simulate(
    title: Title,
    coins: int,
    games: int,
    rng: Rng | None = None,
    *,
    denomination: int | None = None,
    paytable: str | None = None,
    cash_in_at: int | None = None,
    batches: int = 50,
    progress: Callable[[int], None] | None = None,
) -> RtpReport:
    """Play ``games`` paid games through the features' own step functions.

    Progressives pay their reset value; the pool's contribution share is added as its exact rate.
    ``cash_in_at``: the Loss Meter level at which the simulated player presses "Cash In!" (default:
    the best level, as in :func:`analyse`).
    """
    rng = rng or Rng.system()
    ctx = _Context(title, coins, denomination, paytable)
    gen = rng.numpy()
    sampler = _Sampler(ctx.en, gen)
    shape = ctx.en.pay.shape
    pay_flat = ctx.en.pay.ravel().tolist()
    strips = [reel.stops for reel in title.reels]
    wilds = {w.symbol: w.excludes for w in title.wilds}
    features: tuple[Feature, ...] = title.features
    meters: dict[str, int] = {}
    for f in features:
        meters.update(f.initial_meters())
    loss = next((f for f in features if isinstance(f, LossMeter)), None)
    if loss is not None and cash_in_at is None and coins >= loss.min_coins:
        cash_in_at = best_cash_in(title, coins, denomination)
    pick = next((f for f in features if isinstance(f, PickBonus)), None)
    jv = ctx.jackpot_credits()
    max_bet = coins == title.max_bet
    n2, n3 = shape[1], shape[2]

    def play(flat: int, kind: SpinKind, draw: int) -> float:
        a, rest = divmod(flat, n2 * n3)
        b, c = divmod(rest, n3)
        line_pay = pay_flat[flat]
        spin = Spin(coins, max_bet, (strips[0][a], strips[1][b], strips[2][c]), line_pay, kind, draw, wilds)
        total = 0.0
        mult = 1
        for f in features:
            step = f.step(meters, spin)
            mult *= step.multiplier
            total += sum(x.credits for x in step.awards)
            if step.jackpot:
                total += jv
        return total + line_pay * mult

    results = np.zeros(games)
    draws = gen.integers(0, 1 << 30, size=games).tolist()
    for g in range(games):
        won = play(sampler.draw(), SpinKind.PAID, draws[g])
        if pick is not None and meters.get("pick_pending"):
            right = gen.random() < 0.5
            won += pick.resolve(meters, pick.choices[0], pick.choices[0 if right else 1]).credits
        if (
            loss is not None
            and cash_in_at is not None
            and meters["loss_meter"] >= cash_in_at
            and meters["free_winning_spins"]
        ):
            loss.cash_in(meters)
        pending = _pending(features, meters)
        while pending is not None:
            flat = sampler.draw_win() if pending in (SpinKind.FREE, SpinKind.CASH_IN) else sampler.draw()
            won += play(flat, pending, int(gen.integers(0, 1 << 30)))
            pending = _pending(features, meters)
        results[g] = won
        if progress is not None and g % 10000 == 0:
            progress(g)
    bet = coins
    mean = float(results.mean()) / bet + ctx.contribution()
    sd = float(results.std()) / bet
    k = max(2, min(batches, games // 100 or 2))
    batch_means = results[: games - games % k].reshape(k, -1).mean(axis=1) / bet
    se = float(batch_means.std(ddof=1)) / math.sqrt(k)
    se = max(se, sd / math.sqrt(games))
    hit = float((results > 0).mean())
    return RtpReport(
        title.name,
        coins,
        ctx.denomination,
        ctx.ev.table.name,
        mean,
        hit,
        sd,
        "simulated",
        interval=(mean - Z_999 * se, mean + Z_999 * se),
        games=games,
        notes=("99.9 % interval from batch means; progressives paid at their reset value",),
    )


def _pending(features: tuple[Feature, ...], meters: dict[str, int]) -> SpinKind | None:
    for f in features:
        kind = f.pending(meters)
        if kind is not None:
            return kind
    return None


# --- PAR sheet ------------------------------------------------------------------------------------


def par_sheet(title: Title, *, denomination: int | None = None) -> dict[str, Any]:
    """A PAR-sheet style report: strips, symbol counts, paytables with each line's hits and share of
    the return at every bet, and the return, hit frequency and volatility by bet."""
    reels = []
    for i, reel in enumerate(title.reels):
        counts: dict[str, int] = {}
        for stop in range(reel.size):
            counts[reel.stops[stop]] = counts.get(reel.stops[stop], 0) + reel.weight(stop)
        reels.append(
            {
                "reel": i + 1,
                "stops": reel.size,
                "total_weight": reel.total_weight,
                "strip": list(reel.stops),
                "weights": None if reel.weights is None else list(reel.weights),
                "symbol_weights": dict(sorted(counts.items())),
            }
        )
    bets = sorted(
        {
            title.bet_shape(c)[0] * title.bet_shape(c)[1]
            for c in range(1, title.max_bet + 1)
            if _legal(title, c)
        }
    )
    tables = []
    for table in title.paytables:
        rows = []
        by_bet = []
        for coins in bets:
            per_line, lines = title.bet_shape(coins)
            en = Evaluator(title, table.name).enumerate(per_line, lines)
            report = analyse(title, coins, denomination=denomination, paytable=table.name)
            by_bet.append({**report.to_json(), "volatility_index_90": 1.645 * report.sd})
            rows.append(
                [
                    (
                        int(en.rule_weight[r + 1]) / en.total_weight / lines,
                        int(en.rule_pay[r + 1]) / en.total_weight / coins,
                    )
                    for r in range(len(table.rules))
                ]
            )
        lines_out = []
        for r, rule in enumerate(table.rules):
            lines_out.append(
                {
                    "combination": rule.label,
                    "pays": list(rule.pays),
                    "probability_per_line": rows[-1][r][0],
                    "cycle": (1 / rows[-1][r][0]) if rows[-1][r][0] else None,
                    "return_by_bet": {str(b): rows[i][r][1] for i, b in enumerate(bets)},
                }
            )
        tables.append({"paytable": table.name, "colour": table.colour, "lines": lines_out, "by_bet": by_bet})
    return {
        "title": title.name,
        "slug": title.slug,
        "digest": title.digest(),
        "target_rtp": title.target_rtp,
        "paylines": [list(p) for p in title.paylines],
        "max_coins_per_line": title.max_coins,
        "denominations_cents": list(title.denominations),
        "notes": list(title.notes),
        "wilds": [
            {
                "symbol": w.symbol,
                "excludes": sorted(w.excludes),
                "multiplier": w.multiplier,
                "morph": list(w.morph),
            }
            for w in title.wilds
        ],
        "features": [{"type": f.kind, "min_coins": f.min_coins} for f in title.features],
        "progressive": None
        if title.progressive is None
        else {
            "pool": title.progressive.pool,
            "reset_cents": title.progressive.reset_cents,
            "contribution": str(title.progressive.contribution),
            "min_coins": title.progressive.min_coins,
        },
        "reels": reels,
        "paytables": tables,
    }


def _legal(title: Title, coins: int) -> bool:
    try:
        title.bet_shape(coins)
    except ValueError:
        return False
    return True
