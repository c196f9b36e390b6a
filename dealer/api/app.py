"""``create_app()``: the FastAPI application; its lifespan owns the tables, their devices and the cage."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, Response
from starlette.concurrency import run_in_threadpool

from dealer import __version__
from dealer.api import display, metrics, night_routes, routes, score_routes, stream
from dealer.api.errors import install_error_handlers
from dealer.table.host import TableHost
from dealer.table.night import Night

HostFactory = Callable[[], TableHost | Night]


def create_app(host_factory: HostFactory) -> FastAPI:
    """Build the app. ``host_factory`` opens the table (or a whole night of tables) when the app
    starts; everything stops at exit. A lone table becomes a night of one table."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        opened = await run_in_threadpool(host_factory)
        try:
            night = opened if isinstance(opened, Night) else await run_in_threadpool(Night.around, opened)
        except BaseException:
            if isinstance(opened, TableHost):
                await run_in_threadpool(opened.stop)
            raise
        registry = metrics.TableMetrics()
        for table in night.tables.values():
            table.host.metrics = registry
        app.state.night = night
        app.state.host = night.default
        try:
            await run_in_threadpool(night.start)  # a camera that does not open fails here
            yield
        finally:
            books = getattr(app.state, "scorebooks", None)  # opened on first use by the score routes
            if books is not None:
                await run_in_threadpool(books.close)
            await run_in_threadpool(night.stop)

    app = FastAPI(title="dealer-assistant", version=__version__, lifespan=lifespan,
                  description="Local API of a casino night: its tables (state, game control, cards, "
                              "devices, event streams), players and the cage. The single-table routes "
                              "serve the first table. No route exposes an undealt card.")
    install_error_handlers(app)
    for module in (routes, night_routes, stream, metrics, display, score_routes):
        app.include_router(module.router)

    @app.middleware("http")
    async def count_requests(request: Request, call_next: Callable[[Request], Awaitable[Response]],
                             ) -> Response:
        response = await call_next(request)
        host = getattr(request.app.state, "host", None)
        route = request.scope.get("route")
        if host is not None and route is not None:
            host.metrics.requests.labels(getattr(route, "path", "?"), str(response.status_code)).inc()
        return response

    return app
