"""The one place where project errors become HTTP responses."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from dealer.core.errors import (
    CardCodeError,
    DealerError,
    IllegalOperation,
    MoneyError,
    ShoeEmpty,
    ShoeStateError,
    UnknownOperation,
)
from dealer.table import StoreError
from dealer.table.cage import UnknownName
from dealer.table.host import NoCamera

_STATUS: list[tuple[type[BaseException], int]] = [
    (PermissionError, 403),
    (UnknownName, 404),
    (NoCamera, 404),
    (CardCodeError, 422),
    (MoneyError, 422),
    (UnknownOperation, 404),
    (IllegalOperation, 409),
    (ShoeEmpty, 409),
    (ShoeStateError, 409),
    (StoreError, 503),
    (DealerError, 400),
    (ValueError, 422),
    (TypeError, 422),
]


def status_for(exc: BaseException) -> int:
    return next((status for kind, status in _STATUS if isinstance(exc, kind)), 500)


def install_error_handlers(app: FastAPI) -> None:
    async def handle(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse(status_code=status_for(exc),
                            content={"error": type(exc).__name__, "detail": str(exc)})

    for kind in (DealerError, PermissionError, ValueError, TypeError):
        app.add_exception_handler(kind, handle)
