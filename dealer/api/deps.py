"""Dependencies shared by the routes."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from dealer.table import Table


def get_table(request: Request) -> Table:
    table: Table = request.app.state.table
    return table


TableDep = Annotated[Table, Depends(get_table)]
