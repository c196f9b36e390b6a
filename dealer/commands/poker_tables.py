"""``dealer analyze caribbean-stud|let-it-ride``, ``dealer pusoy set`` and ``dealer bench pusoy-setting``."""

from __future__ import annotations

import platform
import time
from typing import Any

import typer
from rich.progress import Progress

from dealer.commands.groups import group
from dealer.commands.output import console, fail, print_json
from dealer.core.errors import DealerError

_JSON = typer.Option(False, "--json", help="Print machine-readable JSON only.")


def register(app: typer.Typer) -> None:
    analyze = group(app, "analyze")
    analyze.command("caribbean-stud")(analyze_caribbean_stud)
    analyze.command("let-it-ride")(analyze_let_it_ride)
    group(app, "pusoy").command("set")(pusoy_set)
    group(app, "bench").command("pusoy-setting")(bench_pusoy_setting)


def analyze_caribbean_stud(
    call_multiple: int = typer.Option(2, "--call-multiple",
                                      help="Call bet in antes ([STD] 2; the seed says 1)."),
    paytable: str = typer.Option("", "--paytable", help='Override lines, e.g. "royal-flush=250:1".'),
    json_output: bool = _JSON,
) -> None:
    """Exact house edge with the optimal fold/call decision (RULES A10); about a minute."""
    from dealer.core.analysis.caribbean_analysis import analyze
    from dealer.core.analysis.caribbean_paytable import Paytable
    if call_multiple < 1:
        fail(f"--call-multiple is a whole number of antes, at least 1, not {call_multiple}")
    try:
        table = Paytable.parse(paytable)
    except DealerError as exc:
        fail(str(exc))
    started = time.perf_counter()
    if json_output:
        result = analyze(call_multiple, table)
    else:
        with Progress(console=console, transient=True) as bar:
            task = bar.add_task("dealer up cards", total=13)
            result = analyze(call_multiple, table, lambda done, total: bar.update(task, completed=done))
    result["seconds"] = round(time.perf_counter() - started, 1)
    if json_output:
        print_json(result)
        return
    console.print(f"caribbean stud, call {call_multiple}x ante, optimal play ({result['method']}):")
    console.print(f"  house edge {result['house_edge']:.4%} of the ante; element of risk "
                  f"{result['element_of_risk']:.4%}; calls {result['call_probability']:.2%} of hands")


def analyze_let_it_ride(
    paytable: str = typer.Option("", "--paytable", help='Override lines, e.g. "royal-flush=500:1".'),
    json_output: bool = _JSON,
) -> None:
    """Exact house edge with the optimal pull/ride strategy, by full enumeration (RULES A11)."""
    from dealer.core.analysis.let_it_ride_analysis import Paytable, analyze
    try:
        table = Paytable.parse(paytable)
    except DealerError as exc:
        fail(str(exc))
    started = time.perf_counter()
    result = analyze(table)
    result["seconds"] = round(time.perf_counter() - started, 1)
    if json_output:
        print_json(result)
        return
    console.print(f"let it ride, optimal play ({result['method']}):")
    console.print(f"  house edge {result['house_edge']:.4%} per unit; element of risk "
                  f"{result['element_of_risk']:.4%}; bet 1 ridden {result['ride_probability']['bet1']:.2%}, "
                  f"bet 2 {result['ride_probability']['bet2']:.2%}")


def pusoy_set(
    cards: str = typer.Argument(..., help='Thirteen cards, e.g. "AS AD KC KD 7H 7S 2C 3D 9H 10S JC QD 5H".'),
    dealer: bool = typer.Option(False, "--dealer", help="Set as the dealer (ties win)."),
    json_output: bool = _JSON,
) -> None:
    """The best pusoy setting (back / middle / front) of 13 cards, and the naive one (RULES A9)."""
    from dealer.core.evaluation.pusoy_setting import best_setting, naive_setting
    try:
        best = best_setting(cards, as_dealer=dealer)
        naive = naive_setting(cards)
    except DealerError as exc:
        fail(str(exc))
    result: dict[str, Any] = {"cards": cards.split(), "as_dealer": dealer, "best": best.to_json(),
                              "naive": naive.to_json(),
                              "method": "max expected payment over all 72,072 arrangements against the "
                                        "opponent model (positions independent, card removal ignored)"}
    if json_output:
        print_json(result)
        return
    for label, s in (("best", best.setting), ("naive", naive)):
        console.print(f"{label:>5}: back {' '.join(c.code for c in s.back)} ({s.back_value}) | middle "
                      f"{' '.join(c.code for c in s.middle)} ({s.middle_value}) | front "
                      f"{' '.join(c.code for c in s.front)} ({s.front_value})")
    console.print(f"best setting expects {best.expected_value:+.3f} bets")


def bench_pusoy_setting(
    hands: int = typer.Option(1000, "--hands", min=10, help="Random hands to set."),
    seed: int = typer.Option(1, "--seed", help="Seed for the random hands."),
    json_output: bool = _JSON,
) -> None:
    """Milliseconds per best-setting search over all 72,072 arrangements (target <= 5 ms)."""
    import numpy as np

    from dealer.core.evaluation.pusoy_setting import best_setting
    from dealer.core.packs import standard_52
    pack = [c.code for c in standard_52().cards]
    rng = np.random.default_rng(seed)
    deals = [[pack[i] for i in rng.permutation(52)[:13]] for _ in range(hands)]
    started = time.perf_counter()
    best_setting(deals[0])  # tables and the opponent model are built on first use
    warm = time.perf_counter() - started
    started = time.perf_counter()
    for hand in deals:
        best_setting(hand)
    seconds = time.perf_counter() - started
    result = {"hands": hands, "seed": seed, "first_use_seconds": round(warm, 2),
              "ms_per_hand": round(1000 * seconds / hands, 3), "target_ms": 5.0,
              "python": platform.python_version(), "machine": platform.machine()}
    if json_output:
        print_json(result)
        return
    console.print(f"pusoy best setting: {result['ms_per_hand']} ms per hand over {hands} hands "
                  f"(target 5 ms); first use {result['first_use_seconds']} s")
