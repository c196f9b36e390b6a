"""``dealer slots``: list the titles, their exact return, a test spin, and PAR sheets."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from dealer.core.games.slots import InsertCredits, InstallMachine, SlotFloor, pick_operation, spin_operation
from dealer.core.rng import Rng
from dealer.core.slots.analysis import RtpReport, analyse, par_sheet, simulate
from dealer.core.slots.title import Title
from dealer.core.table_state import TableState
from dealer.slots_config import TitleFileError, available_titles, load_title, load_title_data

NAME = "slots"
app = typer.Typer(
    help="Three-reel slot titles: list, exact return, test spins, PAR sheets.", no_args_is_help=True
)
err = Console(stderr=True)
out = Console()

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON only.")]
CoinsOpt = Annotated[int | None, typer.Option("--coins", "-c", help="Total coins bet (default: max bet).")]
DenomOpt = Annotated[
    int | None, typer.Option("--denomination", "-d", help="Cents per credit (default: lowest).")
]


def _fail(message: str) -> typer.Exit:
    err.print(f"[red]error:[/red] {message}")
    return typer.Exit(2)


def _title(name: str) -> Title:
    try:
        return load_title(name)
    except TitleFileError as exc:
        raise _fail(str(exc)) from None


def _coins(title: Title, coins: int | None) -> int:
    coins = title.max_bet if coins is None else coins
    try:
        title.bet_shape(coins)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    return coins


def _denomination(title: Title, denomination: int | None) -> int:
    if denomination is None:
        return title.denominations[0]
    if denomination not in title.denominations:
        raise _fail(
            f"{title.name} plays {', '.join(map(str, title.denominations))} cents, not {denomination}"
        )
    return denomination


@app.command("list")
def list_titles(as_json: JsonOpt = False) -> None:
    """Every title in config/slots with its lines, bets, features and return at the max bet."""
    rows = []
    for slug in available_titles():
        title = load_title(slug)
        report = analyse(title, title.max_bet, denomination=title.denominations[-1])
        rows.append(
            {
                "slug": slug,
                "name": title.name,
                "lines": title.lines,
                "max_bet": title.max_bet,
                "denominations_cents": list(title.denominations),
                "paytables": [t.name for t in title.paytables],
                "features": [f.kind for f in title.features] + (["progressive"] if title.progressive else []),
                "target_rtp": title.target_rtp,
                "rtp_max_bet": report.rtp,
                "method": report.method,
            }
        )
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    table = Table(title="Slot titles")
    for col in ("slug", "name", "lines", "max bet", "denominations ¢", "features", "target", "rtp @ max"):
        table.add_column(col)
    for r in rows:
        table.add_row(
            r["slug"],
            r["name"],
            str(r["lines"]),
            str(r["max_bet"]),
            " ".join(map(str, r["denominations_cents"])),
            ", ".join(r["features"]) or "-",
            r["target_rtp"],
            f"{r['rtp_max_bet']:.2%} ({r['method']})",
        )
    out.print(table)


@app.command("rtp")
def rtp(
    title_name: Annotated[str, typer.Argument(metavar="TITLE", help="Slug, name or path to a .toml file.")],
    coins: CoinsOpt = None,
    denomination: DenomOpt = None,
    paytable: Annotated[str | None, typer.Option(help="Paytable name (Operation M.Y.O.W.).")] = None,
    simulated: Annotated[bool, typer.Option("--simulate", help="Simulate instead of computing.")] = False,
    games: Annotated[int, typer.Option(help="Paid games to simulate.")] = 1_000_000,
    seed: Annotated[int | None, typer.Option(help="Replay seed for the simulation.")] = None,
    cash_in_at: Annotated[int | None, typer.Option(help="Loss Meter level to press Cash In! at.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Return to player, hit frequency and SD per paid game, with the method that produced them."""
    title = _title(title_name)
    coins = _coins(title, coins)
    denom = _denomination(title, denomination)
    try:
        if simulated:
            if games < 200:
                raise _fail(f"simulate at least 200 games, not {games}")
            rng = Rng.from_seed(seed) if seed is not None else Rng.system()
            if as_json:
                report = simulate(
                    title, coins, games, rng, denomination=denom, paytable=paytable, cash_in_at=cash_in_at
                )
            else:
                with Progress(console=err, transient=True) as bar:
                    task = bar.add_task(f"simulating {title.name}", total=games)
                    report = simulate(
                        title,
                        coins,
                        games,
                        rng,
                        denomination=denom,
                        paytable=paytable,
                        cash_in_at=cash_in_at,
                        progress=lambda g: bar.update(task, completed=g),
                    )
        else:
            report = analyse(title, coins, denomination=denom, paytable=paytable, cash_in_at=cash_in_at)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2))
        return
    _print_report(report)


def _print_report(r: RtpReport) -> None:
    out.print(f"[bold]{r.title}[/bold]  {r.coins} coins at {r.denomination}¢, paytable {r.paytable}")
    exact = f"  (= {r.rtp_exact})" if r.rtp_exact is not None and r.rtp_exact.denominator < 10**12 else ""
    out.print(f"  rtp            {r.rtp:.6%}{exact}")
    if r.interval is not None:
        out.print(f"  99.9 % interval [{r.interval[0]:.4%}, {r.interval[1]:.4%}] over {r.games:,} games")
    out.print(
        f"  hit frequency  {r.hit_frequency:.4%}  (1 in {1 / r.hit_frequency:.2f})"
        if r.hit_frequency
        else "  hit frequency  0"
    )
    out.print(f"  sd per game    {r.sd:.3f} x bet   volatility index (90 %) {1.645 * r.sd:.2f}")
    out.print(f"  method         {r.method}")
    for name, value in r.parts.items():
        out.print(f"    {name:28s} {value:.4%}")
    for note in r.notes:
        out.print(f"  note: {note}")


@app.command("spin")
def spin(
    title_name: Annotated[str, typer.Argument(metavar="TITLE")],
    coins: CoinsOpt = None,
    seed: Annotated[int | None, typer.Option(help="Replay seed (default: the system CSPRNG).")] = None,
    spins: Annotated[int, typer.Option(help="Paid spins to play.")] = 1,
    denomination: DenomOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play spins on a fresh machine: the stops the reel display is told, the window and the wins."""
    try:
        title, data = load_title_data(title_name)
    except TitleFileError as exc:
        raise _fail(str(exc)) from None
    coins = _coins(title, coins)
    denom = _denomination(title, denomination)
    rng = Rng.from_seed(seed) if seed is not None else Rng.system()
    table = TableState()
    table.apply(InstallMachine("m1", data, denom, digest=title.digest()))
    table.apply(InsertCredits("m1", "cage", coins * spins * denom))
    floor: SlotFloor = table.games["slots"]
    floor.rng = rng
    results: list[dict[str, Any]] = []
    for _ in range(spins):
        table.apply(spin_operation(floor, "m1", coins, rng))
        results.append(floor.machines["m1"].last.to_json())  # type: ignore[union-attr]
        while True:  # the machine's own spins and, here, a random Bullfight pick
            m = floor.machines["m1"]
            if m.pick_pending():
                pick = pick_operation(floor, "m1", None, rng)
                table.apply(pick)
                results[-1].setdefault("picks", []).append({"choice": pick.choice, "winner": pick.winner})
                continue
            auto = floor.auto_operation()
            if auto is None:
                break
            table.apply(auto)
            results.append(floor.machines["m1"].last.to_json())  # type: ignore[union-attr]
    machine = floor.machines["m1"].to_json()
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "spins": results,
                    "meters": machine["meters"],
                    "feature_meters": machine["feature_meters"],
                    "pools": {k: p.to_json() for k, p in floor.pools.items()},
                },
                indent=2,
            )
        )
        return
    for r in results:
        out.print(f"[bold]{r['kind']}[/bold] {r['coins']} coins  stops {r['stops']}")
        for row in r["display"]:
            out.print("   " + "  ".join(f"{s:>10s}" for s in row))
        for w in r["line_wins"]:
            out.print(
                f"   line {w['line']}: {w['combination']} pays {w['pay']}"
                + (f" (x{w['multiplier']} wild)" if w["multiplier"] > 1 else "")
            )
        for a in r["awards"]:
            out.print(f"   {a['feature']}: {a['text']} — {a['credits']} credits")
        if r["meter_multiplier"] != 1:
            out.print(f"   meter multiplier x{r['meter_multiplier']}")
        if r["jackpot"]:
            out.print(f"   PROGRESSIVE JACKPOT {r['jackpot']} credits")
        out.print(f"   win {r['win']}")
    out.print(f"meters: {machine['meters']}")
    if machine["feature_meters"]:
        out.print(f"feature meters: {machine['feature_meters']}")


@app.command("par")
def par(
    title_name: Annotated[str, typer.Argument(metavar="TITLE")],
    denomination: DenomOpt = None,
    html_path: Annotated[
        Path | None, typer.Option("--html", help="Also write an HTML PAR sheet here.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """PAR sheet: strips, symbol weights, each pay line's probability and share of the return."""
    title = _title(title_name)
    sheet = par_sheet(title, denomination=_denomination(title, denomination))
    if html_path is not None:
        html_path.write_text(render_html(sheet), encoding="utf-8")
    if as_json:
        typer.echo(json.dumps(sheet, indent=2))
        return
    out.print(
        f"[bold]PAR sheet: {sheet['title']}[/bold]  digest {sheet['digest']}  target {sheet['target_rtp']}"
    )
    for note in sheet["notes"]:
        out.print(f"  {note}")
    reels = Table(title="Reels (symbol weights)")
    reels.add_column("symbol")
    for r in sheet["reels"]:
        reels.add_column(f"reel {r['reel']} ({r['stops']} stops / {r['total_weight']})")
    symbols = sorted({s for r in sheet["reels"] for s in r["symbol_weights"]})
    for s in symbols:
        reels.add_row(s, *(str(r["symbol_weights"].get(s, 0)) for r in sheet["reels"]))
    out.print(reels)
    for t in sheet["paytables"]:
        bets = [b["coins"] for b in t["by_bet"]]
        pt = Table(title=f"Paytable {t['paytable']}" + (f" ({t['colour']})" if t["colour"] else ""))
        for col in ("combination", "pays", "probability", "cycle", *(f"return @{b}" for b in bets)):
            pt.add_column(col)
        for line in t["lines"]:
            pt.add_row(
                line["combination"],
                "/".join(map(str, line["pays"])),
                f"{line['probability_per_line']:.3e}",
                f"{line['cycle']:,.0f}" if line["cycle"] else "-",
                *(f"{line['return_by_bet'][str(b)]:.4%}" for b in bets),
            )
        out.print(pt)
        summary = Table(title="By bet")
        for col in ("coins", "rtp", "hit frequency", "sd", "VI 90 %", "method"):
            summary.add_column(col)
        for b in t["by_bet"]:
            summary.add_row(
                str(b["coins"]),
                f"{b['rtp']:.4%}",
                f"{b['hit_frequency']:.4%}",
                f"{b['sd']:.3f}",
                f"{b['volatility_index_90']:.2f}",
                b["method"],
            )
        out.print(summary)


def render_html(sheet: dict[str, Any]) -> str:
    """A self-contained HTML PAR sheet."""
    e = html.escape
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>PAR sheet: {e(sheet['title'])}</title>",
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #999;padding:2px 8px;text-align:right}th{background:#eee}"
        "td:first-child{text-align:left}</style></head><body>",
        f"<h1>PAR sheet: {e(sheet['title'])}</h1>",
        f"<p>digest {e(sheet['digest'])} · target {e(sheet['target_rtp'])} · paylines "
        f"{len(sheet['paylines'])} · max coins per line {sheet['max_coins_per_line']}</p>",
    ]
    parts += [f"<p>{e(n)}</p>" for n in sheet["notes"]]
    symbols = sorted({s for r in sheet["reels"] for s in r["symbol_weights"]})
    parts.append(
        "<h2>Reels</h2><table><tr><th>symbol</th>"
        + "".join(f"<th>reel {r['reel']}</th>" for r in sheet["reels"])
        + "</tr>"
    )
    for s in symbols:
        parts.append(
            f"<tr><td>{e(s)}</td>"
            + "".join(f"<td>{r['symbol_weights'].get(s, 0)}</td>" for r in sheet["reels"])
            + "</tr>"
        )
    parts.append(
        "<tr><td>total</td>"
        + "".join(f"<td>{r['total_weight']}</td>" for r in sheet["reels"])
        + "</tr></table>"
    )
    for r in sheet["reels"]:
        parts.append(f"<p>reel {r['reel']} strip: {e(' '.join(r['strip']))}</p>")
    for t in sheet["paytables"]:
        bets = [b["coins"] for b in t["by_bet"]]
        parts.append(
            f"<h2>Paytable {e(t['paytable'])}</h2><table><tr><th>combination</th><th>pays</th>"
            "<th>probability</th><th>cycle</th>" + "".join(f"<th>return @{b}</th>" for b in bets) + "</tr>"
        )
        for line in t["lines"]:
            cycle = f"{line['cycle']:,.0f}" if line["cycle"] else "-"
            parts.append(
                f"<tr><td>{e(line['combination'])}</td><td>{'/'.join(map(str, line['pays']))}</td>"
                f"<td>{line['probability_per_line']:.3e}</td><td>{cycle}</td>"
                + "".join(f"<td>{line['return_by_bet'][str(b)]:.4%}</td>" for b in bets)
                + "</tr>"
            )
        parts.append(
            "</table><table><tr><th>coins</th><th>rtp</th><th>hit frequency</th><th>sd</th>"
            "<th>VI 90 %</th><th>method</th></tr>"
        )
        for b in t["by_bet"]:
            parts.append(
                f"<tr><td>{b['coins']}</td><td>{b['rtp']:.4%}</td><td>{b['hit_frequency']:.4%}</td>"
                f"<td>{b['sd']:.3f}</td><td>{b['volatility_index_90']:.2f}</td><td>{e(b['method'])}</td></tr>"
            )
        parts.append("</table>")
        for b in t["by_bet"]:
            for note in b["notes"]:
                parts.append(f"<p>{b['coins']} coins: {e(note)}</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


BENCH_CYCLE = "7R - BAR - CH - BAR2 - 7B - BAR3 - W - BAR - CH - BAR2 - 7R - BAR - X2 - BAR3 - CH - BAR -"


def bench_title() -> Title:
    """A 3 x 64-stop title (no virtual weights) with wilds, multipliers and groups: the benchmark load."""
    from dealer.core.slots.title import title_from_mapping

    cycle = BENCH_CYCLE.split()
    reels = [{"stops": " ".join((cycle * 3)[k : k + 64])} for k in (0, 2, 4)]
    pays = [
        ("W W W", 2000),
        ("7R 7R 7R", 300),
        ("7B 7B 7B", 150),
        ("ANY7 ANY7 ANY7", 40),
        ("BAR3 BAR3 BAR3", 80),
        ("BAR2 BAR2 BAR2", 40),
        ("BAR BAR BAR", 15),
        ("ANYBAR ANYBAR ANYBAR", 4),
        ("CH CH CH", 30),
        ("CH CH *", 5),
        ("CH * *", 2),
        ("- - -", 1),
    ]
    return title_from_mapping(
        {
            "title": {"name": "Bench 64", "max_coins": 3},
            "groups": {"ANY7": "7R 7B", "ANYBAR": "BAR BAR2 BAR3"},
            "reels": reels,
            "wilds": [{"symbol": "W"}, {"symbol": "X2", "multiplier": 2}],
            "paytables": [
                {"name": "P", "pays": [{"line": line, "pays": [p, 2 * p, 3 * p]} for line, p in pays]}
            ],
        }
    )


@app.command("bench")
def bench(
    repeat: Annotated[int, typer.Option(help="Timed repetitions (the best is reported).")] = 20,
    as_json: JsonOpt = False,
) -> None:
    """Time the exact enumeration (3 x 64 stops), analysis of each title, engine spins and simulation."""
    import time

    from dealer.core.slots.evaluate import Evaluator

    def best_of(fn: Any, n: int) -> float:
        times = []
        for _ in range(n):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        return min(times)

    title = bench_title()
    ev = Evaluator(title)
    results: dict[str, Any] = {
        "enumerate_3x64_ms": 1000 * best_of(lambda: ev.enumerate(3), repeat),
        "analyse_3x64_ms": 1000 * best_of(lambda: analyse(title, 3), repeat),
        "combinations": 64**3,
    }
    stops = [(i % 64, (7 * i) % 64, (13 * i) % 64) for i in range(2000)]
    t = best_of(lambda: [ev.window_pays(s, 3) for s in stops], 3)
    results["engine_evaluate_us_per_spin"] = 1e6 * t / len(stops)
    titles = {}
    for slug in available_titles():
        t_title = load_title(slug)
        titles[slug] = 1000 * best_of(
            lambda t_title=t_title: analyse(t_title, t_title.max_bet, denomination=t_title.denominations[-1]),
            max(1, repeat // 4),
        )
    results["analyse_title_ms"] = titles
    sim_title = load_title("its-good-to-be-bad")
    games = 100_000
    t = best_of(lambda: simulate(sim_title, 3, games, Rng.from_seed(1), denomination=100), 1)
    results["simulate_games_per_s_its_good_to_be_bad"] = games / t
    if as_json:
        typer.echo(json.dumps(results, indent=2))
        return
    out.print(
        f"exact enumeration 3 x 64 stops ({64**3:,} combinations): {results['enumerate_3x64_ms']:.1f} ms"
    )
    out.print(f"full analysis of the 3 x 64 title: {results['analyse_3x64_ms']:.1f} ms")
    out.print(f"engine: {results['engine_evaluate_us_per_spin']:.0f} µs to evaluate one spin")
    out.print(
        f"simulation: {results['simulate_games_per_s_its_good_to_be_bad']:,.0f} games/s (It's Good to be Bad)"
    )
    for slug, ms in titles.items():
        out.print(f"  analyse {slug:22s} {ms:8.1f} ms")
