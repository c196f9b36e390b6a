"""Routes of the casino night: the tables, a table's game and event stream, players, seats, the report.

The per-table copies of the single-table routes (``/api/tables/{table_id}/state`` ...) are built
in :mod:`dealer.api.routes`; this module has what only a night has.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, WebSocket
from fastapi.responses import PlainTextResponse
from starlette.concurrency import run_in_threadpool

from dealer.api.deps import DealerRole, NightDep, TableHostDep, ViewerRole, token_from
from dealer.api.models import ChipsIn, GameChangeIn, MoveIn, PlayerIn, SeatIn
from dealer.api.stream import forward, send_table_stream
from dealer.table.cage import UnknownName
from dealer.table.night import Night
from dealer.table.report import night_report, report_csv

router = APIRouter()


@router.get("/api/night", tags=["night"])
async def about(night: NightDep, role: ViewerRole) -> dict[str, Any]:
    """The night's name, its tables' ids, the usual buy-in, the largest and the chip values."""
    return night.about()


@router.get("/api/tables", tags=["night"])
async def tables(night: NightDep, role: ViewerRole) -> list[dict[str, Any]]:
    """Every table of the night: id, name, game, mode, paused, autoplay, seats and who sits there."""
    return await run_in_threadpool(night.tables_json)


@router.post("/api/tables/{table_id}/game", tags=["night"], status_code=201)
async def change_game(body: GameChangeIn, role: DealerRole, host: TableHostDep) -> dict[str, Any]:
    """Another game at this table, between rounds and between shoes (409 names what is in the
    way; ``end_shoe`` closes a shoe early). Logged in the table's log; players keep their seats."""
    record = await run_in_threadpool(host.change_game, body.game, body.rules, end_shoe=body.end_shoe)
    return {"seq": record.seq, "kind": record.kind, "time": record.time, "game": host.table.game_name}


@router.post("/api/tables/{table_id}/seats", tags=["night"], status_code=201)
async def sit(table_id: str, body: SeatIn, night: NightDep, role: DealerRole) -> dict[str, Any]:
    """A player sits at ``seat`` with ``chips`` from their stack."""
    return await run_in_threadpool(night.sit, table_id, body.player_id, body.seat, body.chips)


@router.delete("/api/tables/{table_id}/seats/{seat}", tags=["night"])
async def stand(table_id: str, seat: int, night: NightDep, role: DealerRole) -> dict[str, Any]:
    """The player stands; every chip of the seat goes back to their stack (``status: stood``).
    Mid-round they stand when the round is over (``status: leaving``)."""
    return await run_in_threadpool(night.stand, table_id, seat)


@router.get("/api/players", tags=["night"])
async def players(night: NightDep, role: ViewerRole) -> list[dict[str, Any]]:
    """The guest list: each player's chips at the cage (``cage_chips``), at a table, in all."""
    return await run_in_threadpool(night.players)


@router.post("/api/players", tags=["night"], status_code=201)
async def add_player(body: PlayerIn, night: NightDep, role: DealerRole) -> dict[str, Any]:
    return await run_in_threadpool(night.add_player, body.name)


@router.get("/api/players/{player_id}", tags=["night"])
async def player(player_id: str, night: NightDep, role: ViewerRole) -> dict[str, Any]:
    return await run_in_threadpool(night.player_json, player_id)


@router.post("/api/players/{player_id}/buy-in", tags=["night"], status_code=201)
async def buy_in(player_id: str, body: ChipsIn, night: NightDep, role: DealerRole) -> dict[str, Any]:
    """Cash in at the cage: ``amount`` chips into the player's stack."""
    return await run_in_threadpool(lambda: night.buy_in(player_id, body.amount))


@router.post("/api/players/{player_id}/rebuy", tags=["night"], status_code=201)
async def rebuy(player_id: str, body: ChipsIn, night: NightDep, role: DealerRole) -> dict[str, Any]:
    """More chips for a player who has bought in before."""
    return await run_in_threadpool(lambda: night.buy_in(player_id, body.amount, rebuy=True))


@router.post("/api/players/{player_id}/cash-out", tags=["night"], status_code=201)
async def cash_out(player_id: str, night: NightDep, role: DealerRole) -> dict[str, Any]:
    """Every chip of the player's stack back to the cage for cash (``paid``); stand up first."""
    return await run_in_threadpool(night.cash_out, player_id)


@router.post("/api/players/{player_id}/move", tags=["night"], status_code=201)
async def move(player_id: str, body: MoveIn, night: NightDep, role: DealerRole) -> dict[str, Any]:
    """Stand the player up and sit them at another table with their chips (409 mid-round: they
    are then marked leaving, and the move can be repeated once the round is over)."""
    return await run_in_threadpool(night.move, player_id, body.table, body.seat, body.chips)


@router.get("/api/cage/log", tags=["night"])
async def cage_log(night: NightDep, role: ViewerRole, player: str | None = None,
                   last: int = 200) -> list[dict[str, Any]]:
    """Every move of chips at the cage, newest last (``player`` = one player's; ``last`` up to 5000):
    seq, time, kind, payload, hash and the player's name."""
    return await run_in_threadpool(night.cage_log, player, last)


@router.get("/api/report", tags=["night"])
async def report(night: NightDep, role: ViewerRole) -> dict[str, Any]:
    """The night so far: per player (bought, cashed out, chips, result) and per table, and totals."""
    return await run_in_threadpool(night_report, night)


@router.get("/api/report.csv", tags=["night"], response_class=PlainTextResponse)
async def report_as_csv(night: NightDep, role: ViewerRole) -> str:
    return report_csv(await run_in_threadpool(night_report, night))


@router.websocket("/api/night/ws")
async def night_stream(websocket: WebSocket) -> None:
    """The cage's stream for the lobby: ``hello`` with the players and tables, then one ``cage``
    message per move (new guest, buy-in, rebuy, sit, stand, cash-out) with both again."""
    night: Night = websocket.app.state.night
    if night.default.role_for(token_from(websocket)) is None:
        await websocket.close(code=4401, reason="a valid token is required")
        return
    await websocket.accept()
    sub = night.hub.subscribe()
    try:
        hello = await run_in_threadpool(lambda: {"players": night.players(), "tables": night.tables_json()})
        await websocket.send_text(json.dumps({"id": 0, "type": "hello", "data": hello}))
        await forward(websocket, sub)
    finally:
        night.hub.unsubscribe(sub)


@router.websocket("/api/tables/{table_id}/ws")
async def table_stream(websocket: WebSocket, table_id: str) -> None:
    """One table's event stream: the same messages as ``/ws`` (``hello`` with the state, then one
    message per committed change)."""
    night: Night = websocket.app.state.night
    if night.default.role_for(token_from(websocket)) is None:
        await websocket.close(code=4401, reason="a valid token is required")
        return
    try:
        host = night.host(table_id)
    except UnknownName as exc:
        await websocket.close(code=4404, reason=str(exc)[:120])
        return
    await websocket.accept()
    await send_table_stream(websocket, host)
