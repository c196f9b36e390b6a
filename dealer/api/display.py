"""The pages: the night lobby, each table's TV view and phone control page, scorekeeping, the report.

Static files only; every page reads the API. ``/display`` and ``/dealer`` are the default table's
TV view and control page; ``/camera`` is its camera check.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, Response

STATIC = Path(__file__).with_name("static")
router = APIRouter(include_in_schema=False)


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, headers={"cache-control": "no-cache"})


@router.get("/")
async def lobby() -> FileResponse:
    return _page("lobby.html")


@router.get("/favicon.ico")
async def favicon() -> Response:
    return Response(status_code=204)


@router.get("/display")
async def display_page() -> FileResponse:
    return _page("tv.html")


@router.get("/dealer")
async def dealer_page() -> FileResponse:
    return _page("control.html")


@router.get("/tables/{table_id}/tv")
async def table_tv(table_id: str) -> FileResponse:
    return _page("tv.html")


@router.get("/tables/{table_id}/control")
async def table_control(table_id: str) -> FileResponse:
    return _page("control.html")


@router.get("/camera")
async def camera_page() -> FileResponse:
    return _page("camera.html")


@router.get("/tables/{table_id}/camera")
async def table_camera(table_id: str) -> FileResponse:
    return _page("camera.html")


@router.get("/score")
async def score_page() -> FileResponse:
    return _page("score.html")


@router.get("/report")
async def report_page() -> FileResponse:
    return _page("report.html")


@router.get("/static/{name}")
async def static_file(name: str) -> FileResponse:
    path = (STATIC / name).resolve()
    if path.parent != STATIC.resolve() or not path.is_file():
        raise HTTPException(404, detail=f"no static file {name!r}")
    return FileResponse(path, headers={"cache-control": "no-cache"})
