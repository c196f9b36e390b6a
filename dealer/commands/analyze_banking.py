"""``dealer analyze faro | trente-et-quarante | red-dog``: exact analysis of the banking games.

Each analyzer states the rule set it assumes in its output (``rules``) and in
``docs/games/<game>.md``. ``--json`` prints only JSON; otherwise a short table.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import typer
from rich.progress import Progress

from dealer.commands.groups import group
from dealer.commands.output import console, fail, print_json
from dealer.core.analysis import faro_analysis, red_dog_analysis, trente_et_quarante_analysis
from dealer.core.errors import MoneyError
from dealer.core.money import Ratio

_JSON = typer.Option(False, "--json", help="Print machine-readable JSON only.")


def register(app: typer.Typer) -> None:
    analyze = group(app, "analyze")
    analyze.command("faro")(analyze_faro)
    analyze.command("trente-et-quarante")(analyze_trente_et_quarante)
    analyze.command("red-dog")(analyze_red_dog)


def jsonable(value: Any) -> Any:
    """Fractions become {"exact": "p/q", "value": float}; containers are walked."""
    if isinstance(value, Fraction):
        return {"exact": str(value), "value": float(value)}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def _ratio(text: str, option: str) -> Ratio:
    try:
        return Ratio.parse(text)
    except MoneyError as exc:
        fail(f"{option}: {exc}")


def _pct(value: Any) -> str:
    number = value["value"] if isinstance(value, dict) else float(value)
    return f"{100 * number:.4f}%"


def analyze_faro(
    variant: str = typer.Option("both", "--variant", help="faro, stuss or both."),
    cards_left: int | None = typer.Option(None, "--cards-left",
                                          help="Box size when the flat bet is placed (default: earliest)."),
    call: str = typer.Option("4:1", "--call", help="Calling-the-turn payout."),
    cat_hop: str = typer.Option("2:1", "--cat-hop", help="Cat-hop payout."),
    json_output: bool = _JSON,
) -> None:
    """Faro and stuss, exact: split chance per turn, flat-bet edges with 4/3/2 of a rank left, calls."""
    variants = {"both": ("faro", "stuss"), "faro": ("faro",), "stuss": ("stuss",)}.get(variant)
    if variants is None:
        fail(f"--variant must be faro, stuss or both, not {variant!r}")
    call_ratio, cat_ratio = _ratio(call, "--call"), _ratio(cat_hop, "--cat-hop")
    try:
        result = {v: faro_analysis.analyze(v, call=call_ratio, cat_hop=cat_ratio, cards_left=cards_left)
                  for v in variants}
    except ValueError as exc:
        fail(str(exc))
    if json_output:
        print_json(result)
        return
    for name, r in result.items():
        console.print(f"[bold]{name}[/] (split take {r['rules']['split_take']}, "
                      f"{r['rules']['turns_per_deal']} turns a deal)")
        console.print(f"  split on a turn: {_pct(r['split_probability_per_turn'])}")
        for row in r["flat_bet"]:
            console.print(f"  flat bet, {row['cards_of_rank_left']} of the rank among {row['cards_left']}: "
                          f"edge {_pct(row['edge'])} (split {_pct(row['split'])})")
        ct = r["calling_the_turn"]
        console.print(f"  calling the turn: edge {_pct(ct['edge'])}; cat-hop {_pct(ct['cat_hop_edge'])}"
                      + ("" if ct["offered"] else "  (not offered in stuss)"))


def analyze_trente_et_quarante(
    decks: int = typer.Option(6, "--decks", help="Packs in the shoe (RULES A7: six)."),
    json_output: bool = _JSON,
) -> None:
    """Trente et quarante, exact: a row of exactly 31, the 31-31 refait, the even bets' edge."""
    if not 1 <= decks <= 16:
        fail(f"--decks must be 1 to 16, not {decks}")
    if json_output:
        print_json(trente_et_quarante_analysis.analyze(decks))
        return
    with Progress(console=console, transient=True) as bar:
        bar.add_task(f"enumerating rows from {decks} decks", total=None)
        result = trente_et_quarante_analysis.analyze(decks)
    console.print(f"[bold]trente et quarante, {decks} decks[/]")
    console.print(f"  a row totals exactly 31: {_pct(result['row_exactly_31'])}")
    console.print(f"  31-31 refait: {_pct(result['refait_31_probability'])} "
                  f"(1 coup in {result['coups_per_refait_31']:.1f})")
    console.print(f"  house edge, each even bet: {_pct(result['house_edge']['rouge'])}; "
                  f"insured: {_pct(result['house_edge_insured'])}")


def analyze_red_dog(
    decks: int = typer.Option(8, "--decks", help="Decks in the shoe."),
    json_output: bool = _JSON,
) -> None:
    """Casino red dog, exact house edge with the optimal raise."""
    if not 1 <= decks <= 16:
        fail(f"--decks must be 1 to 16, not {decks}")
    result = jsonable(red_dog_analysis.analyze(decks))
    result["rules"] = {"aces": "high", "consecutive": "push", "pair": "third card; 11:1 on three of a kind",
                       "spread_payouts": {"1": "5:1", "2": "4:1", "3": "2:1", "4-11": "1:1"},
                       "raise": "up to the original bet, taken when it gains (optimal)"}
    if json_output:
        print_json(result)
        return
    console.print(f"[bold]red dog, {decks} decks[/]: house edge {_pct(result['house_edge'])}, "
                  f"element of risk {_pct(result['element_of_risk'])}, "
                  f"raise on a spread of {result['raise_from_spread']} or more")
