"""The end-of-night report: per player and per table, and whether every chip is accounted for.

Per player: cash paid in (buy-ins and rebuys), cash paid out, chips still held (in hand and at a
table), and the result ``cashed_out + chips - bought``. Per table: chips players brought (the
drop), chips they took away, chips on its seats now, and the table's result for the house
``brought - taken - on_seats`` (chips still on the layout mid-round count for the house until the
round settles). The night balances when every table's own ledger agrees with the cage about the
chips players brought and took away (``agrees``: two logs, two counts) and the chips sold and not
cashed equal the chips players hold plus what the tables won.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from dealer.table.cage import MOVE_TAG
from dealer.table.night import Night, seat_chips


def ledger_moves(ledger: Any) -> int:
    """Chips players brought to a table less chips they took away, by the table's own ledger."""
    return sum(t.amount if t.source == "cage" else -t.amount for t in ledger.transfers
               if t.reason.startswith(MOVE_TAG) and "cage" in (t.source, t.target))


def night_report(night: Night) -> dict[str, Any]:
    cage = night.cage.state
    players: list[dict[str, Any]] = []
    for player in cage.players.values():
        at_table = 0
        if player.seat is not None and player.seat.table in night.tables:
            host = night.tables[player.seat.table].host
            at_table = seat_chips(host, host.table.state, player.seat.seat)
        chips = player.stack + at_table
        players.append({"id": player.id, "name": player.name, "bought": player.bought,
                        "cashed_out": player.cashed, "in_hand": player.stack, "at_table": at_table,
                        "chips": chips, "result": player.cashed + chips - player.bought,
                        "tables": list(player.tables),
                        "seat": None if player.seat is None else {"table": player.seat.table,
                                                                  "seat": player.seat.seat}})
    tables: list[dict[str, Any]] = []
    for table in night.tables.values():
        host = table.host
        state = host.table.state
        on_seats = sum(seat_chips(host, state, seat.seat) for seat in cage.seats if seat.table == table.id)
        brought, taken = cage.to_tables.get(table.id, 0), cage.from_tables.get(table.id, 0)
        games = sorted(state.games)
        tables.append({"id": table.id, "name": table.name, "game": host.table.game_name, "games": games,
                       "brought": brought, "taken": taken, "on_seats": on_seats,
                       "agrees": ledger_moves(state.ledger) == brought - taken,
                       "result": brought - taken - on_seats, "records": host.table.store.last_seq,
                       "players": sorted({cage.players[pid].name for seat, pid in cage.seats.items()
                                          if seat.table == table.id})})
    bought = sum(p["bought"] for p in players)
    cashed = sum(p["cashed_out"] for p in players)
    held = sum(p["chips"] for p in players)
    house = sum(t["result"] for t in tables)
    return {"night": night.name, "players": players, "tables": tables,
            "totals": {"bought": bought, "cashed_out": cashed, "chips_held": held, "house_result": house,
                       "balanced": bought - cashed == held + house and all(t["agrees"] for t in tables)}}


CSV_COLUMNS = ("section", "id", "name", "bought", "cashed_out", "chips", "result", "brought", "taken",
               "on_seats", "tables")


def report_csv(report: dict[str, Any]) -> str:
    """One CSV: a row per player, a row per table, a totals row."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for p in report["players"]:
        writer.writerow(["player", p["id"], p["name"], p["bought"], p["cashed_out"], p["chips"], p["result"],
                         "", "", "", ";".join(p["tables"])])
    for t in report["tables"]:
        writer.writerow(["table", t["id"], t["name"], "", "", "", t["result"], t["brought"], t["taken"],
                         t["on_seats"], t["game"] or ""])
    totals = report["totals"]
    writer.writerow(["totals", "", report["night"], totals["bought"], totals["cashed_out"],
                     totals["chips_held"], totals["house_result"], "", "", "",
                     "balanced" if totals["balanced"] else "UNBALANCED"])
    return out.getvalue()
