"""The WebSocket event stream: every committed change, as it happens."""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from dealer.api.deps import token_from
from dealer.table.host import TableHost
from dealer.table.hub import Subscription

router = APIRouter()


@router.websocket("/ws")
async def stream(websocket: WebSocket) -> None:
    """Sends ``{"type": "hello", "data": state}`` first, then one message per table event.

    Viewers and up may listen (``?token=`` when tokens are required).
    """
    host: TableHost = websocket.app.state.host
    if host.role_for(token_from(websocket)) is None:
        await websocket.close(code=4401, reason="a valid token is required")
        return
    await websocket.accept()
    await send_table_stream(websocket, host)


async def send_table_stream(websocket: WebSocket, host: TableHost) -> None:
    """To an accepted ``websocket``: the table's state as ``hello``, then every message of its hub."""
    sub = host.table.hub.subscribe()
    try:
        hello = await run_in_threadpool(host.table.public_state)
        await websocket.send_text(json.dumps({"id": 0, "type": "hello", "data": {"state": hello}}))
        await forward(websocket, sub)
    finally:
        host.table.hub.unsubscribe(sub)


async def forward(websocket: WebSocket, sub: Subscription) -> None:
    """Every message of ``sub`` to the client until it goes away."""
    try:
        receiver = asyncio.create_task(_drain(websocket))
        while not receiver.done():
            getter = asyncio.create_task(sub.get())
            done, _ = await asyncio.wait({getter, receiver}, return_when=asyncio.FIRST_COMPLETED)
            if getter in done:
                await websocket.send_text(getter.result())
            else:
                getter.cancel()
    except WebSocketDisconnect:
        pass


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends, so a disconnect is noticed."""
    try:
        while True:
            await websocket.receive_text()
    except WebSocketDisconnect:
        return
