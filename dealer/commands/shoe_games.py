"""``dealer analyze baccarat|blackjack|blackjack-strategy`` and ``dealer play blackjack|baccarat``.

``--json`` prints only JSON on stdout; otherwise a readable summary (with a progress bar for the
simulation). Bad input is reported on stderr with a non-zero exit.
"""

from __future__ import annotations

import time
from typing import Any

import typer

from dealer.commands.groups import group
from dealer.commands.output import console, fail, print_json
from dealer.core.errors import DealerError

_JSON = typer.Option(False, "--json", help="Print machine-readable JSON only.")


def register(app: typer.Typer) -> None:
    analyze = group(app, "analyze")
    analyze.command("baccarat")(analyze_baccarat)
    analyze.command("blackjack")(analyze_blackjack)
    analyze.command("blackjack-strategy")(blackjack_strategy)
    play = group(app, "play")
    play.command("blackjack")(play_blackjack)
    play.command("baccarat")(play_baccarat)


# ---- analyze baccarat ------------------------------------------------------------------------------
def analyze_baccarat(
    decks: int = typer.Option(8, "--decks", help="Packs in the shoe (1..64)."),
    commission: int = typer.Option(5, "--commission", help="Banker commission in per cent."),
    tie_pays: int = typer.Option(8, "--tie-pays", help="Tie payout N (N:1)."),
    json_output: bool = _JSON,
) -> None:
    """Exact banker/player/tie counts over every ordered six-card deal, and the house edges."""
    from fractions import Fraction

    from dealer.core.analysis.baccarat_analysis import baccarat_counts

    if not 1 <= decks <= 64:
        fail(f"--decks must be 1..64, not {decks}")
    if not 0 <= commission <= 100:
        fail(f"--commission is a percentage 0..100, not {commission}")
    if tie_pays < 0:
        fail(f"--tie-pays must not be negative, not {tie_pays}")
    started = time.perf_counter()
    counts = baccarat_counts(decks)
    result = counts.to_json(Fraction(commission, 100), tie_pays)
    result["seconds"] = round(time.perf_counter() - started, 4)
    if json_output:
        print_json(result)
        return
    console.print(f"[bold]Baccarat, {decks} decks[/] — {result['method']} ({result['seconds']} s)")
    for side in ("banker", "player", "tie"):
        console.print(f"  {side:<7} {result[side]:>26,}  p = {result['probability'][side]:.6f}  "
                      f"house edge {100 * result['house_edge'][side]:.4f}%")
    console.print(f"  total   {result['total']:>26,}")


# ---- analyze blackjack -----------------------------------------------------------------------------
def analyze_blackjack(
    decks: int = typer.Option(6, "--decks", help="Packs in the shoe."),
    rules: str = typer.Option("s17,das,3:2,peek", "--rules", help="House rules, e.g. s17,das,3:2,peek."),
    rounds: int = typer.Option(1_000_000, "--rounds", help="Rounds to simulate for each shuffle method."),
    shuffle: str = typer.Option("both", "--shuffle", help="cut (cut-card shoe), csm (continuous) or both."),
    seed: int | None = typer.Option(None, "--seed", help="Replayable seed (default: the CSPRNG)."),
    lanes: int = typer.Option(0, "--lanes", help="Parallel shoes in the vectorised simulation (0 = auto)."),
    json_output: bool = _JSON,
) -> None:
    """House edge of basic strategy with a 95 % confidence interval (vectorised simulation)."""
    from dealer.core.analysis.blackjack_sim import simulate
    from dealer.core.games.blackjack import BlackjackRules

    methods = {"both": ("cut", "csm"), "cut": ("cut",), "csm": ("csm",)}.get(shuffle)
    if methods is None:
        fail(f"--shuffle must be cut, csm or both, not {shuffle!r}")
    if rounds <= 0:
        fail(f"--rounds must be positive, not {rounds}")
    try:
        parsed = BlackjackRules.parse(f"{rules},decks={decks}")
    except DealerError as exc:
        fail(str(exc))
    results: dict[str, Any] = {"rules": parsed.spec(), "decks": decks, "rounds": rounds}
    for method in methods:
        if json_output:
            results[method] = simulate(parsed, rounds, continuous=method == "csm", seed=seed,
                                       lanes=lanes or None).to_json()
            continue
        from rich.progress import Progress

        with Progress(console=console, transient=True) as progress:
            task = progress.add_task(f"{method}: simulating", total=rounds)
            result = simulate(parsed, rounds, continuous=method == "csm", seed=seed, lanes=lanes or None,
                              progress=lambda done, task=task: progress.update(task, completed=done))
        results[method] = result.to_json()
    if json_output:
        print_json(results)
        return
    console.print(f"[bold]Blackjack[/] {parsed.spec()}")
    for method in methods:
        r = results[method]
        label = "cut-card shoe" if method == "cut" else "continuous shuffle"
        console.print(f"  {label:<19} house edge {100 * r['house_edge']:.3f}% "
                      f"(95% CI {100 * r['ci95'][0]:.3f}% .. {100 * r['ci95'][1]:.3f}%)  "
                      f"{r['rounds']:,} rounds at {r['rounds_per_second']:,.0f}/s")


def blackjack_strategy(
    rules: str = typer.Option("s17,das,3:2,peek", "--rules", help="House rules."),
    json_output: bool = _JSON,
) -> None:
    """The full basic-strategy chart computed for the house rules."""
    from dealer.core.analysis.blackjack_strategy import strategy_for
    from dealer.core.games.blackjack import BlackjackRules

    try:
        parsed = BlackjackRules.parse(rules)
    except DealerError as exc:
        fail(str(exc))
    table = strategy_for(parsed)
    rows = table.rows()
    if json_output:
        print_json({"rules": parsed.spec(), "columns": ["2", "3", "4", "5", "6", "7", "8", "9", "10", "A"],
                    "rows": {k: {label: cells for label, cells in v} for k, v in rows.items()},
                    "model_edge": -table.edge})
        return
    console.print(f"[bold]Basic strategy[/] for {parsed.spec()}")
    console.print("codes: H hit, S stand, P split, D double else hit, Ds double else stand, "
                  "Rh/Rs/Rp surrender else hit/stand/split")
    header = "        " + " ".join(f"{c:>3}" for c in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A"))
    for kind, body in rows.items():
        console.print(f"[bold]{kind}[/]")
        console.print(header, highlight=False)
        for label, cells in body:
            console.print(f"  {label:>5} " + " ".join(f"{c:>3}" for c in cells), highlight=False)


# ---- play ------------------------------------------------------------------------------------------
def play_blackjack(
    rounds: int = typer.Option(10, "--rounds", help="Rounds to play."),
    seed: int | None = typer.Option(None, "--seed", help="Replayable seed (default: the CSPRNG)."),
    rules: str = typer.Option("", "--rules", help="House rules spec (see dealer analyze blackjack)."),
    seats: int = typer.Option(3, "--seats", help="Players at the table (1..7)."),
    bet: int = typer.Option(10, "--bet", help="Each player's bet."),
    json_output: bool = _JSON,
) -> None:
    """Simulated blackjack rounds, dealt and played by the engine, as a readable hand history."""
    from dealer.core.analysis.hand_history import play_blackjack_rounds

    try:
        history = play_blackjack_rounds(rounds, seed, rules, seats, bet)
    except DealerError as exc:
        fail(str(exc))
    _print_history(history, json_output)


def play_baccarat(
    rounds: int = typer.Option(10, "--rounds", help="Coups to play."),
    seed: int | None = typer.Option(None, "--seed", help="Replayable seed (default: the CSPRNG)."),
    rules: str = typer.Option("", "--rules", help="House rules spec, e.g. decks=8,immediate."),
    seats: int = typer.Option(3, "--seats", help="Players at the table (1..12)."),
    bet: int = typer.Option(10, "--bet", help="Each player's bet."),
    json_output: bool = _JSON,
) -> None:
    """Simulated baccarat coups with the tableau, commissions and roads, as a readable history."""
    from dealer.core.analysis.hand_history import play_baccarat_coups

    try:
        history = play_baccarat_coups(rounds, seed, rules, seats, bet)
    except DealerError as exc:
        fail(str(exc))
    _print_history(history, json_output)


def _print_history(history: dict[str, Any], json_output: bool) -> None:
    if json_output:
        print_json(history)
        return
    for line in history["lines"]:
        console.print(line, highlight=False)
