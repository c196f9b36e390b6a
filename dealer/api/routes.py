"""REST routes: reading the table, running the game, correcting cards, tokens.

Every table route exists twice: for the default (first) table at its historic path (``/state``,
``/api/actions``...) and for any table of a night under ``/api/tables/{table_id}/...``. One
factory builds both sets around the dependency that finds the table. (No postponed annotations
here: the dependency is a local of the factory, and FastAPI reads the annotations as objects.)
"""

import csv
import io
import json
from typing import Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse, Response
from starlette.concurrency import run_in_threadpool

from dealer import __version__
from dealer.api.deps import AdminRole, DealerRole, HostDep, NightDep, TableHostDep, ViewerRole
from dealer.api.models import (
    ActionIn,
    AutoplayIn,
    CardIn,
    CorrectIn,
    DeviceCommandIn,
    OperationIn,
    ResumeIn,
    TokenIn,
    VoidIn,
)
from dealer.table import Record, Role
from dealer.table.games import GAMES
from dealer.table.host import NoCamera


def _record(record: Record) -> dict[str, Any]:
    return {"seq": record.seq, "kind": record.kind, "time": record.time}


router = APIRouter()


@router.get("/health", tags=["read"])
async def health(host: HostDep, night: NightDep) -> dict[str, Any]:
    """Liveness: version, the first table's name and event count, and every table of the night
    (name, events, paused, autoplay)."""
    tables = {tid: {"name": t.name, "events": t.host.table.store.last_seq, "paused": t.host.table.paused,
                    "autoplay": t.host.autoplay} for tid, t in night.tables.items()}
    return {"status": "ok", "version": __version__, "table": host.table.name,
            "events": host.table.store.last_seq, "paused": host.table.paused, "tables": tables}


def table_routes(Host: Any, state_path: str, api: str) -> APIRouter:  # noqa: N803 - a type
    """The routes of one table: ``Host`` finds it; ``state_path`` and ``api`` place its routes.
    The role comes first in each signature so that a caller without it gets 401/403, not 404."""
    router = APIRouter()

    @router.get(state_path, tags=["read"])
    async def state(role: ViewerRole, host: Host) -> dict[str, Any]:
        """The whole public table state: game, shoe counts, balances, prompt. Never an undealt card."""
        return await run_in_threadpool(host.table.public_state)

    @router.get(api + "/games", tags=["read"])
    async def games(role: ViewerRole, host: Host) -> dict[str, str]:
        """The games this table can play (``POST .../game`` changes to one between shoes)."""
        return {name: entry.description for name, entry in GAMES.items()}

    @router.get(api + "/history", tags=["read"])
    async def history(role: ViewerRole, host: Host) -> list[dict[str, Any]]:
        """The last rounds (up to 10), oldest first."""
        return list(host.table.history)

    @router.get(api + "/history.csv", tags=["read"], response_class=PlainTextResponse)
    async def history_csv(role: ViewerRole, host: Host) -> str:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["round", "seq", "time", "game"])
        for row in host.table.history:
            writer.writerow([row["round"], row["seq"], row["time"], json.dumps(row["game"], sort_keys=True)])
        return out.getvalue()

    @router.get(api + "/events", tags=["read"])
    async def events(role: AdminRole, host: Host, last: int = 50) -> list[dict[str, Any]]:
        """The newest records of the log (admin: payloads include face-down burn cards)."""
        records = await run_in_threadpool(host.table.store.tail, max(1, min(last, 1000)))
        return [r.to_json() for r in records]

    @router.post(api + "/operations", tags=["control"], status_code=201)
    async def submit(body: OperationIn, role: DealerRole, host: Host) -> dict[str, Any]:
        """Submit any game operation by kind (validated by the game's own rules: 409 names the rule)."""
        record = await run_in_threadpool(host.submit, body.kind, body.payload, role)
        return _record(record)

    @router.post(api + "/actions", tags=["control"], status_code=201)
    async def take_action(body: ActionIn, role: DealerRole, host: Host) -> dict[str, Any]:
        """Pick one of the prompt's options (what the dealer page's buttons do)."""
        return _record(await run_in_threadpool(host.act, body.option, body.target, body.amount))

    @router.post(api + "/cards", tags=["control"], status_code=201)
    async def enter_card(body: CardIn, role: DealerRole, host: Host) -> dict[str, Any]:
        """Manual card entry: the card goes where the game's rules send the next card."""
        return _record(await run_in_threadpool(host.enter_card, body.card))

    @router.post(api + "/void", tags=["control"], status_code=201)
    async def void(body: VoidIn, role: AdminRole, host: Host) -> dict[str, Any]:
        """Cancel a record (it stays in the log; replay skips it) if later play does not depend on it."""
        return _record(await run_in_threadpool(host.table.void, body.seq, body.reason))

    @router.post(api + "/cards/correct", tags=["control"], status_code=201)
    async def correct(body: CorrectIn, role: DealerRole, host: Host) -> dict[str, Any]:
        """Replace a mis-read card: void its record and enter the right card in its place."""
        return _record(await run_in_threadpool(host.correct_card, body.seq, body.card))

    @router.get(api + "/disputes", tags=["control"])
    async def disputes(role: DealerRole, host: Host) -> dict[str, dict[str, Any]]:
        """The open integrity issues with what the shoe and the camera read, for the dealer to
        settle (the state names no reading: the card may lie face down)."""
        return await run_in_threadpool(host.table.disputes)

    @router.post(api + "/disputes/{issue}", tags=["control"], status_code=201)
    async def resolve_dispute(issue: int, body: CardIn, role: DealerRole, host: Host) -> dict[str, Any]:
        """Settle an integrity issue (shoe and camera disagreed): the card was ``card``."""
        return _record(await run_in_threadpool(host.resolve, issue, body.card))

    @router.post(api + "/resume", tags=["control"], status_code=201)
    async def resume(body: ResumeIn, role: DealerRole, host: Host) -> dict[str, Any]:
        """Clear a pause once the fault is dealt with (a device reset needs this)."""
        return _record(await run_in_threadpool(host.resume, body.source))

    @router.get(api + "/meters", tags=["read"])
    async def meters(role: ViewerRole, host: Host) -> dict[str, Any]:
        """Device meters (cards dealt, shuffles, spins...) and the game's meters (slot machines, pools)."""
        return await run_in_threadpool(host.meters)

    @router.get(api + "/devices", tags=["read"])
    async def devices(role: ViewerRole, host: Host) -> dict[str, Any]:
        return {} if host.hardware is None else host.hardware.status()

    @router.post(api + "/devices/{kind}/{command}", tags=["admin"])
    async def device_command(kind: str, command: str, body: DeviceCommandIn, role: AdminRole,
                             host: Host) -> dict[str, Any]:
        """Drive a device directly: shoe deal/status/meters, shuffler shuffle/roll_dice, reels spin/home."""
        return await run_in_threadpool(host.device_command, kind, command, body.args)

    @router.get(api + "/camera", tags=["admin"])
    async def camera(role: AdminRole, host: Host) -> dict[str, Any]:
        """The table camera's latest frame: what it read, how fast recognition keeps up, and advice
        on the camera's set-up (admin only: a shoe camera sees a card before it is turned up)."""
        return await run_in_threadpool(lambda: host.camera_view().report())

    @router.get(api + "/camera.jpg", tags=["admin"], response_class=Response,
                responses={200: {"content": {"image/jpeg": {}}}})
    async def camera_jpeg(role: AdminRole, host: Host) -> Response:
        """The table camera's latest frame, at most 960 px wide, with each reading drawn on it; its
        number (as in ``/camera``) in the ``X-Frame-Number`` header."""
        picture = await run_in_threadpool(lambda: host.camera_view().jpeg())
        if picture is None:
            raise NoCamera("the camera has not read a frame yet")
        number, data = picture
        return Response(data, media_type="image/jpeg",
                        headers={"cache-control": "no-store", "x-frame-number": str(number)})

    @router.post(api + "/autoplay", tags=["control"])
    async def autoplay(body: AutoplayIn, role: DealerRole, host: Host) -> dict[str, bool]:
        """Simulated play on or off: off hands the table to the dealer page once the step in
        progress has finished."""
        await run_in_threadpool(host.set_autoplay, body.on)
        return {"autoplay": host.autoplay}

    return router


router.include_router(table_routes(HostDep, "/state", "/api"))
router.include_router(table_routes(TableHostDep, "/api/tables/{table_id}/state", "/api/tables/{table_id}"))


@router.post("/api/tokens", tags=["admin"], status_code=201)
async def create_token(body: TokenIn, host: HostDep, role: AdminRole) -> dict[str, str]:
    token, info = await run_in_threadpool(host.tokens.create, Role.parse(body.role), body.label)
    return {"token": token, "id": info.token_id, "role": body.role}
