"""``dealer analyze poker`` and ``dealer bench evaluator``: the poker evaluator's counts and speed."""

from __future__ import annotations

import platform
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import numpy as np
import typer
from rich.progress import Progress

from dealer.commands.groups import group
from dealer.commands.output import console, fail, print_json
from dealer.core.analysis.poker_enumeration import category_table
from dealer.core.errors import DealerError
from dealer.core.evaluation import Ranking, evaluate_batch
from dealer.core.evaluation.paigow_optimal import optimal_setting, simulate_house_way
from dealer.core.evaluation.paigow_way import HOUSE_WAYS, house_way
from dealer.core.evaluation.scalar import _value_of_ids

_JSON = typer.Option(False, "--json", help="Print machine-readable JSON only.")


def register(app: typer.Typer) -> None:
    analyze = group(app, "analyze")
    bench = group(app, "bench")
    analyze.command("poker")(analyze_poker)
    analyze.command("pai-gow")(analyze_pai_gow)
    bench.command("evaluator")(bench_evaluator)
    group(app, "paigow").command("set")(paigow_set)


def _house_way(name: str) -> Any:
    if name not in HOUSE_WAYS:
        fail(f"unknown house way {name!r}: expected one of {', '.join(sorted(HOUSE_WAYS))}")
    return HOUSE_WAYS[name]


def paigow_set(
    cards: str = typer.Argument(..., help='Seven cards, e.g. "JK 4S 5D 5C 6H 7S 7D" (JK = the joker).'),
    way: str = typer.Option("casino", "--house-way", help="House-way rule set."),
    commission: float = typer.Option(0.05, "--commission", help="Commission on wins (0 = home game)."),
    json_output: bool = _JSON,
) -> None:
    """The house-way setting and the best setting against a house-way banker (RULES A8)."""
    rules = _house_way(way)
    try:
        house = house_way(cards, rules)
        best = optimal_setting(cards, rules, commission)
    except DealerError as exc:
        fail(str(exc))
    result = {"cards": cards.split(), "house_way": house.to_json(), "optimal": best.to_json(),
              "house_way_name": way, "commission": commission,
              "optimal_method": "max EV against a sampled house-way banker (card removal ignored)"}
    if json_output:
        print_json(result)
        return
    for label, s in (("house way", house), ("optimal", best.setting)):
        console.print(f"{label:>9}: back {' '.join(c.code for c in s.back)} ({s.back_value}) | "
                      f"front {' '.join(c.code for c in s.front)} ({s.front_value})")
    console.print(f"optimal EV {best.expected_value:+.4f} per unit")


def analyze_pai_gow(
    hands: int = typer.Option(1_000_000, "--hands", min=1000, help="Rounds to simulate."),
    player: str = typer.Option("house-way", "--player", help="Player strategy: house-way or optimal."),
    way: str = typer.Option("casino", "--house-way", help="House-way rule set (banker and player)."),
    commission: float = typer.Option(0.05, "--commission", help="Commission on wins (0 = home game)."),
    seed: int | None = typer.Option(None, "--seed", help="Seed for a replayable run (default: CSPRNG)."),
    json_output: bool = _JSON,
) -> None:
    """Win / push / loss and house edge by simulation, with a 95 % confidence interval."""
    if player not in ("house-way", "optimal"):
        fail(f"--player is house-way or optimal, not {player!r}")
    from dealer.core.rng import Rng
    rng = Rng.from_seed(seed).numpy() if seed is not None else Rng.system().numpy()
    started = time.perf_counter()
    result = simulate_house_way(hands, rng, _house_way(way), commission, player).to_json()
    seconds = time.perf_counter() - started
    result |= {"player": player, "banker": "house-way", "house_way": way, "commission": commission,
               "seed": seed, "seconds": round(seconds, 2),
               "hands_per_second": round(hands / seconds)}
    if json_output:
        print_json(result)
        return
    console.print(f"{hands:,} rounds ({player} player vs house-way banker): win {result['win']:.4f}, "
                  f"push {result['push']:.4f}, lose {result['lose']:.4f}; house edge "
                  f"{result['house_edge']:.4%} (95 % CI {result['house_edge_ci95'][0]:.4%} .. "
                  f"{result['house_edge_ci95'][1]:.4%})")


def analyze_poker(
    cards: int = typer.Option(5, "--cards", help="5 (2,598,960 hands) or 7 (133,784,560 hands)."),
    json_output: bool = _JSON,
) -> None:
    """Hand categories by full enumeration of every 5- or 7-card hand (RULES B2)."""
    if cards not in (5, 7):
        fail(f"--cards must be 5 or 7, got {cards}")
    if json_output:
        print_json(category_table(cards))
        return
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task(f"enumerating {cards}-card hands", total=1)
        result = category_table(cards, lambda done, total: bar.update(task, completed=done, total=total))
    console.print(f"[bold]{result['hands']:,} {cards}-card hands[/] (full enumeration)")
    categories: dict[str, dict[str, Any]] = result["categories"]  # type: ignore[assignment]
    for name, row in categories.items():
        console.print(f"  {name:<16} {row['ways']:>12,}   1 in {row['one_in']:,}")


def random_hands(count: int, seed: int) -> np.ndarray:
    """``count`` random 7-card deals from one 52-card pack (ids), drawn without replacement."""
    rng = np.random.default_rng(seed)
    out = np.empty((count, 7), dtype=np.uint8)
    step = 100_000
    for start in range(0, count, step):
        n = min(step, count - start)
        out[start:start + n] = np.argpartition(rng.random((n, 52)), 7, axis=1)[:, :7]
    return out


def _rate(count: int, run: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return count / best


def _competitors(hands: np.ndarray) -> dict[str, dict[str, float]]:
    """eval7 / treys on the same hands, if installed (dev-only extras)."""
    names = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    out: dict[str, dict[str, float]] = {}
    try:
        import eval7  # type: ignore[import-not-found]
    except ImportError:
        pass
    else:
        deck = [eval7.Card(n) for n in names]
        for k in (5, 7):
            rows = [[deck[i] for i in h[:k]] for h in hands.tolist()]
            out.setdefault("eval7", {})[f"{k}-card"] = _rate(len(rows), lambda r=rows: [eval7.evaluate(x)
                                                                                         for x in r], 1)
    try:
        from treys import Card as TreysCard  # type: ignore[import-not-found]
        from treys import Evaluator
    except ImportError:
        pass
    else:
        ev = Evaluator()
        deck_t = [TreysCard.new(n) for n in names]
        for k in (5, 7):
            rows_t = [[deck_t[i] for i in h[:k]] for h in hands.tolist()]
            out.setdefault("treys", {})[f"{k}-card"] = _rate(
                len(rows_t), lambda r=rows_t: [ev.evaluate(x[:2], x[2:]) for x in r], 1)
    return out


def bench_evaluator(
    hands: int = typer.Option(1_000_000, "--hands", min=1000, help="Random hands per measurement."),
    others: int = typer.Option(200_000, "--others", min=0,
                               help="Hands for the pure-Python scalar path and eval7/treys (0 = skip)."),
    seed: int = typer.Option(1, "--seed", help="Seed for the random hands (replayable benchmark)."),
    json_output: bool = _JSON,
) -> None:
    """Evaluations per second: batch and scalar, 5 and 7 cards, on the same random hands."""
    deals = random_hands(hands, seed)
    evaluate_batch(deals[:10])
    result: dict[str, Any] = {
        "machine": f"{platform.machine()}, {platform.system()}, Python {platform.python_version()}",
        "date": datetime.now(UTC).date().isoformat(), "hands": hands, "seed": seed,
        "batch_per_second": {}, "scalar_per_second": {},
    }
    with Progress(console=console, transient=True, disable=json_output) as bar:
        task = bar.add_task("benchmarking", total=4)
        for k in (5, 7):
            sub = np.ascontiguousarray(deals[:, :k])
            rate = _rate(hands, lambda s=sub: evaluate_batch(s, check=False))
            result["batch_per_second"][f"{k}-card"] = rate
            bar.advance(task)
        few = deals[:others] if others else deals[:1000]
        for k in (5, 7):
            rows = [h[:k] for h in few.tolist()]
            result["scalar_per_second"][f"{k}-card"] = _rate(
                len(rows), lambda r=rows: [_value_of_ids(x, False) for x in r], 1)
            bar.advance(task)
        if others:
            result["others_per_second"] = _competitors(few)
            result["others_hands"] = len(few)
    batch7 = result["batch_per_second"]["7-card"]
    result["target_batch_7_card"] = {"per_second": 10_000_000, "met": batch7 >= 10_000_000}
    result["ranking"] = Ranking.STANDARD.value
    if json_output:
        print_json(result)
        return
    for label in ("batch_per_second", "scalar_per_second"):
        for k, rate in result[label].items():
            console.print(f"{label.split('_')[0]:>7} {k}: {rate / 1e6:8.2f} M/s")
    for name, rates in result.get("others_per_second", {}).items():
        for k, rate in rates.items():
            console.print(f"{name:>7} {k}: {rate / 1e6:8.2f} M/s")
