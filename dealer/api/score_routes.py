"""Scorekeeping routes: the night's scorebooks (open a book, start a game, enter hands, undo, standings).

The books live in their own hash-chained log next to the default table's (``scorebooks.db``), written
with the same operations as ``dealer score``, so the CLI reads and audits them too.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from dealer.api.deps import DealerRole, ViewerRole
from dealer.table import Role
from dealer.table.scorebooks import Scorebooks

router = APIRouter(prefix="/api/score", tags=["score"])
_opening = threading.Lock()


def scorebooks_path(request: Request) -> Path:
    """``app.state.scorebooks_path`` when set, else ``scorebooks.db`` beside the default table's log."""
    path = getattr(request.app.state, "scorebooks_path", None)
    if path is not None:
        return Path(path)
    return Path(request.app.state.host.table.store.path).with_name("scorebooks.db")


def get_books(request: Request) -> Scorebooks:
    books: Scorebooks | None = getattr(request.app.state, "scorebooks", None)
    if books is None:
        with _opening:
            books = getattr(request.app.state, "scorebooks", None)
            if books is None:
                books = Scorebooks.open(scorebooks_path(request))
                request.app.state.scorebooks = books
    return books


BooksDep = Annotated[Scorebooks, Depends(get_books)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")
    by: str = Field("", max_length=64, description="who made the change (audit trail)")


class BookIn(_Body):
    book: str = Field(min_length=1, max_length=40, examples=["kitchen"])
    players: list[str] = Field(min_length=1, max_length=12, examples=[["ann", "bob", "cy", "dee"]])
    title: str = Field("", max_length=80)


class GameIn(_Body):
    game: str = Field(min_length=1, max_length=40, examples=["hearts"])
    rules: dict[str, Any] = Field(default_factory=dict, examples=[{"target": 50}])
    partnerships: dict[str, list[str]] | None = Field(
        None, examples=[{"we": ["ann", "cy"], "they": ["bob", "dee"]}])
    players: list[str] = Field(default_factory=list, description="only these players take part (default all)")


class EntryIn(_Body):
    kind: str = Field(min_length=1, max_length=40, examples=["hand"])
    data: dict[str, Any] = Field(default_factory=dict, examples=[{"hearts": {"ann": 5, "bob": 8, "cy": 0},
                                                                  "queen": "cy"}])


class UndoIn(_Body):
    entry: int | None = Field(None, ge=1, description="the entry to take out (default: the last in force)")
    reason: str = Field("", max_length=200)


class RestoreIn(_Body):
    entry: int = Field(ge=1)
    reason: str = Field("", max_length=200)


class CorrectEntryIn(_Body):
    data: dict[str, Any]
    reason: str = Field("", max_length=200)


class EndIn(_Body):
    reason: str = Field("", max_length=200)


def _by(body: _Body, role: Role) -> str:
    return body.by or role.name.lower()


@router.get("/games")
async def score_games(role: ViewerRole) -> list[dict[str, Any]]:
    """Every scored game: entry kinds and their fields, sides, partnership sizes, house rules."""
    return Scorebooks.games()


@router.get("/books")
async def list_books(books: BooksDep, role: ViewerRole) -> list[dict[str, Any]]:
    return await run_in_threadpool(books.books)


@router.post("/books", status_code=201)
async def open_book(body: BookIn, books: BooksDep, role: DealerRole) -> dict[str, Any]:
    """Open a scorebook (a session) for these players."""
    return await run_in_threadpool(books.open_book, body.book, body.players, body.title, _by(body, role))


@router.get("/books/{name}")
async def show_book(name: str, books: BooksDep, role: ViewerRole) -> dict[str, Any]:
    """The book: games with every entry and running totals, session standings, the audit trail."""
    return await run_in_threadpool(books.book, name)


@router.post("/books/{name}/games", status_code=201)
async def start_game(name: str, body: GameIn, books: BooksDep, role: DealerRole) -> dict[str, Any]:
    return await run_in_threadpool(books.start_game, name, body.game, body.rules, body.partnerships,
                                   body.players, _by(body, role))


@router.post("/books/{name}/entries", status_code=201)
async def enter(name: str, body: EntryIn, books: BooksDep, role: DealerRole) -> dict[str, Any]:
    """One entry of the current game in the game's own terms (409 says what was expected)."""
    return await run_in_threadpool(books.enter, name, body.kind, body.data, _by(body, role))


@router.post("/books/{name}/undo", status_code=201)
async def undo(name: str, body: UndoIn, books: BooksDep, role: DealerRole) -> dict[str, Any]:
    return await run_in_threadpool(books.undo, name, body.entry, body.reason, _by(body, role))


@router.post("/books/{name}/restore", status_code=201)
async def restore(name: str, body: RestoreIn, books: BooksDep, role: DealerRole) -> dict[str, Any]:
    return await run_in_threadpool(books.restore, name, body.entry, body.reason, _by(body, role))


@router.post("/books/{name}/entries/{entry}/correct", status_code=201)
async def correct(name: str, entry: int, body: CorrectEntryIn, books: BooksDep,
                  role: DealerRole) -> dict[str, Any]:
    return await run_in_threadpool(books.correct, name, entry, body.data, body.reason, _by(body, role))


@router.post("/books/{name}/end", status_code=201)
async def end_game(name: str, body: EndIn, books: BooksDep, role: DealerRole) -> dict[str, Any]:
    """End the current game now (best total wins)."""
    return await run_in_threadpool(books.end_game, name, body.reason, _by(body, role))
