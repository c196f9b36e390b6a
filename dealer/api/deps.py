"""Dependencies shared by the routes: the table host and the caller's role."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, HTTPException, Path, Request, WebSocket

from dealer.table import Role
from dealer.table.host import TableHost
from dealer.table.night import Night


def get_host(request: Request) -> TableHost:
    """The default (first) table: the one the single-table routes serve."""
    host: TableHost = request.app.state.host
    return host


def get_night(request: Request) -> Night:
    night: Night = request.app.state.night
    return night


TableId = Annotated[str, Path(min_length=1, max_length=32, examples=["table-1"],
                              description="a table's id from GET /api/tables")]


def get_table_host(request: Request, table_id: TableId) -> TableHost:
    night: Night = request.app.state.night
    return night.host(table_id)


HostDep = Annotated[TableHost, Depends(get_host)]
NightDep = Annotated[Night, Depends(get_night)]
TableHostDep = Annotated[TableHost, Depends(get_table_host)]


def token_from(request: Request | WebSocket) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.query_params.get("token")


def require(role: Role) -> Callable[[Request], Role]:
    """A dependency that admits callers holding at least ``role`` (401 without a token, 403 below)."""

    def check(request: Request) -> Role:
        host: TableHost = request.app.state.host
        have = host.role_for(token_from(request))
        if have is None:
            raise HTTPException(401, detail="a valid token is required (Authorization: Bearer …)")
        if have < role:
            raise HTTPException(403, detail=f"this needs the {role.name.lower()} role; "
                                            f"the token is {have.name.lower()}")
        return have

    return check


ViewerRole = Annotated[Role, Depends(require(Role.VIEWER))]
DealerRole = Annotated[Role, Depends(require(Role.DEALER))]
AdminRole = Annotated[Role, Depends(require(Role.ADMIN))]
