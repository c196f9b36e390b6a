"""The big-screen display and the dealer page, served as static files."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, RedirectResponse, Response

STATIC = Path(__file__).with_name("static")
router = APIRouter(include_in_schema=False)


@router.get("/")
async def index() -> RedirectResponse:
    return RedirectResponse("/display")


@router.get("/favicon.ico")
async def favicon() -> Response:
    return Response(status_code=204)


@router.get("/display")
async def display_page() -> FileResponse:
    return FileResponse(STATIC / "display.html")


@router.get("/dealer")
async def dealer_page() -> FileResponse:
    return FileResponse(STATIC / "dealer.html")


@router.get("/static/{name}")
async def static_file(name: str) -> FileResponse:
    path = (STATIC / name).resolve()
    if path.parent != STATIC.resolve() or not path.is_file():
        raise HTTPException(404, detail=f"no static file {name!r}")
    return FileResponse(path)
