"""``dealer score``: scorekeeping — the games and their house rules, counting helpers, and scorebooks
kept in a table's event log (``--db``), with audited undo and correction."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from dealer.commands.output import console, fail, print_json
from dealer.core.cards import parse_cards
from dealer.core.errors import DealerError
from dealer.core.operations import Operation
from dealer.core.scoring import all_fours, canasta, cribbage, five_hundred, pinochle
from dealer.core.scoring.operations import (
    CorrectEntry,
    EndScoredGame,
    OpenScorebook,
    RestoreEntry,
    ScoreEntry,
    StartScoredGame,
    UndoEntry,
    book,
)
from dealer.core.scoring.registry import describe_games
from dealer.core.table_state import TableState

NAME = "score"
app = typer.Typer(help="Scorekeeping: supported games, counting from cards, audited scorebooks.",
                  no_args_is_help=True)

_JSON = typer.Option(False, "--json", help="Print machine-readable JSON only.")
_DB = typer.Option(..., "--db", help="The table's SQLite event log.")
_BOOK = typer.Option("main", "--book", help="Scorebook name.")
_BY = typer.Option("", "--by", help="Who made this change (for the audit trail).")


def _show(value: dict[str, Any], json_output: bool, text: str) -> None:
    if json_output:
        print_json(value)
    else:
        console.print(text)


def _cards(text: str, what: str) -> Any:
    try:
        return parse_cards(text)
    except DealerError as exc:
        fail(f"{what}: {exc}")


@app.command("games")
def games(json_output: bool = _JSON) -> None:
    """The supported games, their entries and house-rule options with defaults."""
    described = describe_games()
    if json_output:
        print_json(described)
        return
    for game in described:
        console.print(f"[bold]{game['name']}[/] — {game['title']} (RULES {game['rules_section']}, "
                      f"{game['units']})")
        for rule in game["house_rules"]:
            choices = f" [{'|'.join(map(str, rule['choices']))}]" if rule["choices"] else ""
            console.print(escape(f"    {rule['name']} = {rule['default']!r}{choices}: {rule['help']}"),
                          highlight=False)


@app.command("cribbage-hand")
def cribbage_hand(
    cards: str = typer.Argument(..., help="The four cards of the hand or crib, e.g. '5H 5D 5S JC'."),
    starter: str = typer.Option(..., "--starter", help="The starter card, e.g. 5C."),
    crib: bool = typer.Option(False, "--crib", help="Count as the crib (a flush needs all five cards)."),
    json_output: bool = _JSON,
) -> None:
    """Count a cribbage hand or crib with its starter (RULES C3)."""
    try:
        counted = cribbage.count_hand(_cards(cards, "cards"), _cards(starter, "--starter")[0], crib=crib)
    except DealerError as exc:
        fail(str(exc))
    lines = [f"{c.kind:8} {' '.join(x.code for x in c.cards):16} {c.points}" for c in counted.combos]
    _show(counted.to_json(), json_output, "\n".join([*lines, f"total {counted.total}"]))


@app.command("cribbage-pegging")
def cribbage_pegging(
    plays: str = typer.Argument(..., help="Plays in order: 'ann:5H bob:10C ann:go ...'."),
    partial: bool = typer.Option(False, "--partial", help="The play is not over (no last-card point)."),
    json_output: bool = _JSON,
) -> None:
    """Peg a cribbage play card by card: fifteens, 31, pairs, runs, go and last card (RULES C3)."""
    try:
        seq = []
        for item in plays.split():
            who, _, what = item.rpartition(":")
            if not who:
                fail(f"each play is 'player:card' or 'player:go', got {item!r}")
            seq.append((who, what))
        points = cribbage.peg_sequence(seq, final=not partial)
    except DealerError as exc:
        fail(str(exc))
    totals: dict[str, int] = {}
    for p in points:
        totals[p.player] = totals.get(p.player, 0) + p.points
    value = {"plays": [p.to_json() for p in points], "totals": totals}
    lines = [f"{p.player:8} {p.card.code if p.card else '':4} {p.count:3} +{p.points} {' '.join(p.reasons)}"
             for p in points if p.points]
    _show(value, json_output, "\n".join([*lines, f"totals {totals}"]))


@app.command("pinochle-meld")
def pinochle_meld(
    cards: str = typer.Argument(..., help="A hand or the cards of one meld, e.g. 'QS QS JD JD'."),
    trump: str = typer.Option(..., "--trump", help="Trump suit (S H D C) or the turned card."),
    pack: int = typer.Option(48, "--pack", help="48 or 64 (the dix is the 9 or the 7)."),
    one: bool = typer.Option(False, "--one", help="The cards form exactly one meld: name it."),
    double_pinochle: int = typer.Option(300, "--double-pinochle", help="300 (seed) or 80."),
    json_output: bool = _JSON,
) -> None:
    """Meld in a pinochle hand by class (RULES C1): every meld it holds, or --one meld named."""
    try:
        suit = pinochle.parse_trump(trump)
        parsed = _cards(cards, "cards")
        if pack not in (48, 64):
            fail(f"--pack is 48 or 64, got {pack}")
        melds = ([pinochle.classify_meld(parsed, suit, pack, double_pinochle)] if one
                 else pinochle.find_melds(parsed, suit, pack, double_pinochle))
    except DealerError as exc:
        fail(str(exc))
    value = {"trump": suit.value, "melds": [m.to_json() for m in melds], "total": sum(m.value for m in melds)}
    lines = [f"{m.cls} {m.name:16} {' '.join(c.code for c in m.cards):16} {m.value}" for m in melds]
    _show(value, json_output, "\n".join([*lines, f"total {value['total']}"]))


_COUNTERS: dict[str, tuple[str, Any]] = {
    "five-hundred": ("RULES C6 option: ace 1, faces and tens 10, pips, joker 0", five_hundred.card_points),
    "pitch": ("RULES C11/C13/C14 Game: ten 10, ace 4, king 3, queen 2, jack 1", all_fours.game_points),
    "pinochle": ("RULES C1: A 11, 10 10, K 4, Q 3, J 2; counted to tens, 7 or more up",
                 pinochle.trick_points),
}


@app.command("card-points")
def card_points(
    game: str = typer.Argument(..., help="five-hundred, pitch (also seven-up, california jack) or pinochle."),
    cards: str = typer.Argument(..., help="The cards taken in tricks, e.g. '10H AS KD'."),
    last_trick: bool = typer.Option(False, "--last-trick", help="Pinochle: they include the last trick."),
    json_output: bool = _JSON,
) -> None:
    """Card points taken in tricks, for the games whose score counts them."""
    if game not in _COUNTERS:
        fail(f"card-points counts {', '.join(_COUNTERS)}; got {game!r}")
    if last_trick and game != "pinochle":
        fail("--last-trick is pinochle's 10 for the last trick")
    rule, counter = _COUNTERS[game]
    parsed = _cards(cards, "cards")
    points = int(counter(parsed)) + (pinochle.LAST_TRICK if last_trick else 0)
    value: dict[str, Any] = {"game": game, "cards": [c.code for c in parsed], "points": points, "rule": rule}
    if game == "pinochle":
        value["counted"] = pinochle.round_trick_points(points)
    text = f"{points} ({rule})" + (f"; counts {value['counted']}" if game == "pinochle" else "")
    _show(value, json_output, text)


@app.command("canasta-meld")
def canasta_meld(
    melds: list[str] = typer.Argument(..., help="One or more melds, each quoted: '7H 7D 7S 2C'."),
    score: int = typer.Option(0, "--score", help="The side's score at the start of the deal."),
    going_out: bool = typer.Option(False, "--going-out", help="Melding while going out (black threes)."),
    json_output: bool = _JSON,
) -> None:
    """Count canasta melds and check a first meld against the minimum for the score (RULES C2)."""
    try:
        counted = [canasta.check_meld(_cards(m, "meld"), going_out=going_out) for m in melds]
    except DealerError as exc:
        fail(str(exc))
    total = sum(m.points for m in counted)
    need = canasta.minimum_first_meld(score)
    value = {"melds": [m.to_json() for m in counted], "count": total, "minimum_first_meld": need,
             "meets_minimum": total >= need}
    lines = [f"{' '.join(c.code for c in m.cards):28} {m.points:4} {m.canasta or ''}" for m in counted]
    _show(value, json_output, "\n".join([*lines, f"count {total}; first-meld minimum at {score}: {need}"]))


# -- scorebooks in an event log ---------------------------------------------------------------------

def _load(db: Path) -> Any:
    from dealer.store import EventStore, rebuild_state

    try:
        store = EventStore.open(db)
        return store, rebuild_state(store)
    except DealerError as exc:
        fail(str(exc))


def _commit(db: Path, op: Operation, name: str, json_output: bool) -> None:
    store, table = _load(db)
    with store:
        try:
            table.apply(op)  # refused operations raise before anything is logged
        except DealerError as exc:
            fail(str(exc))
        record = store.append(op)
    _report(table, name, json_output, f"logged #{record.seq} {op.kind}")


def _report(table: TableState, name: str, json_output: bool, headline: str) -> None:
    try:
        sb = book(table, name)
    except DealerError as exc:
        fail(str(exc))
    if json_output:
        print_json(sb.to_json())
        return
    console.print(headline)
    if sb.games:
        game = sb.current
        result = game.result
        over = f" — over: {', '.join(result.winners)} ({result.label}, {result.value})" if result else ""
        console.print(f"game {game.index}: {game.scorer.title} — totals {game.scorer.totals}{over}")


def _json_arg(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{what} must be JSON, e.g. '{{\"player\": \"ann\", \"points\": 2}}': {exc}")


@app.command("open")
def open_book(players: str = typer.Argument(..., help="Players, comma separated."), db: Path = _DB,
              name: str = _BOOK, title: str = typer.Option("", "--title"), by: str = _BY,
              json_output: bool = _JSON) -> None:
    """Open a scorebook for these players."""
    names = tuple(p.strip() for p in players.split(",") if p.strip())
    _commit(db, OpenScorebook(name, names, title, by), name, json_output)


@app.command("start")
def start(game: str = typer.Argument(..., help="Game name (see 'dealer score games')."), db: Path = _DB,
          name: str = _BOOK,
          rule: list[str] = typer.Option([], "--rule", help="House rule NAME=JSON-VALUE, repeatable."),
          team: list[str] = typer.Option([], "--team", help="Partnership NAME=ann,cy, repeatable."),
          players: str = typer.Option("", "--players", help="Only these players take part (comma list)."),
          by: str = _BY, json_output: bool = _JSON) -> None:
    """Start a game in the scorebook."""
    rules: dict[str, Any] = {}
    for item in rule:
        key, sep, value = item.partition("=")
        if not sep:
            fail(f"--rule takes NAME=VALUE, got {item!r}")
        try:
            rules[key] = json.loads(value)
        except json.JSONDecodeError:
            rules[key] = value
    teams = {}
    for item in team:
        key, sep, members = item.partition("=")
        if not sep:
            fail(f"--team takes NAME=player,player, got {item!r}")
        teams[key] = [m.strip() for m in members.split(",") if m.strip()]
    seated = tuple(p.strip() for p in players.split(",") if p.strip())
    _commit(db, StartScoredGame(name, game, rules, teams or None, seated, by), name, json_output)


@app.command("enter")
def enter(kind: str = typer.Argument(..., help="Entry kind (see 'dealer score games')."),
          data: str = typer.Argument("{}", help="Entry fields as JSON."), db: Path = _DB, name: str = _BOOK,
          by: str = _BY, json_output: bool = _JSON) -> None:
    """Enter what happened at the table."""
    _commit(db, ScoreEntry(name, kind, _json_arg(data, "the entry"), by), name, json_output)


@app.command("undo")
def undo(entry: int = typer.Argument(...), reason: str = typer.Option("", "--reason"), db: Path = _DB,
         name: str = _BOOK, by: str = _BY, json_output: bool = _JSON) -> None:
    """Take an entry out of the score (audited)."""
    _commit(db, UndoEntry(name, entry, reason, by), name, json_output)


@app.command("restore")
def restore(entry: int = typer.Argument(...), reason: str = typer.Option("", "--reason"), db: Path = _DB,
            name: str = _BOOK, by: str = _BY, json_output: bool = _JSON) -> None:
    """Put an undone entry back (audited)."""
    _commit(db, RestoreEntry(name, entry, reason, by), name, json_output)


@app.command("correct")
def correct(entry: int = typer.Argument(...),
            data: str = typer.Argument(..., help="Corrected fields (JSON)."),
            reason: str = typer.Option("", "--reason"), db: Path = _DB, name: str = _BOOK, by: str = _BY,
            json_output: bool = _JSON) -> None:
    """Replace an entry's fields; the game is re-scored (audited)."""
    _commit(db, CorrectEntry(name, entry, _json_arg(data, "the correction"), reason, by), name, json_output)


@app.command("end")
def end(reason: str = typer.Option("", "--reason"), db: Path = _DB, name: str = _BOOK, by: str = _BY,
        json_output: bool = _JSON) -> None:
    """End the current game now (best total wins)."""
    _commit(db, EndScoredGame(name, reason, by), name, json_output)


@app.command("show")
def show(db: Path = _DB, name: str = _BOOK, json_output: bool = _JSON) -> None:
    """The scorebook: games, entries with running totals, session totals and the audit trail."""
    if not db.is_file():
        fail(f"no event log at {db}")
    store, table = _load(db)
    store.close()
    _report(table, name, json_output, f"scorebook {name}")
