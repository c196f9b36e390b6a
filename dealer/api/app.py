"""``create_app()``: the FastAPI application; its lifespan owns the table host and its devices."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, Response
from starlette.concurrency import run_in_threadpool

from dealer import __version__
from dealer.api import display, metrics, routes, score_routes, stream
from dealer.api.errors import install_error_handlers
from dealer.table.host import TableHost

HostFactory = Callable[[], TableHost]


def create_app(host_factory: HostFactory) -> FastAPI:
    """Build the app. ``host_factory`` opens the table when the app starts; it stops at exit."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        host = await run_in_threadpool(host_factory)
        host.metrics = metrics.TableMetrics()
        app.state.host = host
        await run_in_threadpool(host.start)
        try:
            yield
        finally:
            await run_in_threadpool(host.stop)

    app = FastAPI(title="dealer-assistant", version=__version__, lifespan=lifespan,
                  description="Local API of one card table: state, game control, cards, devices, "
                              "event stream. No route exposes an undealt card.")
    install_error_handlers(app)
    for module in (routes, stream, metrics, display, score_routes):
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
