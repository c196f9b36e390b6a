"""``create_app()``: the FastAPI application; its lifespan owns the table and its devices."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from dealer import __version__
from dealer.api.deps import TableDep
from dealer.api.errors import install_error_handlers
from dealer.table import Table

TableFactory = Callable[[], Table]


def create_app(table_factory: TableFactory) -> FastAPI:
    """Build the app. ``table_factory`` opens the table when the app starts; it is closed at exit."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        table = await run_in_threadpool(table_factory)
        app.state.table = table
        try:
            yield
        finally:
            await run_in_threadpool(table.close)

    app = FastAPI(title="dealer-assistant", version=__version__, lifespan=lifespan)
    install_error_handlers(app)

    @app.get("/health")
    async def health(table: TableDep) -> dict[str, Any]:
        return {"status": "ok", "version": __version__, "table": table.name,
                "events": table.store.last_seq}

    @app.get("/state")
    async def state(table: TableDep) -> dict[str, Any]:
        return await run_in_threadpool(table.snapshot)

    return app
