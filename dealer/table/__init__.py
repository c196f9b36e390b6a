"""One running table: the only place where the rules core, devices and vision meet."""

from dealer.store import Record, Role, StoreError
from dealer.table.runtime import Table

__all__ = ["Record", "Role", "StoreError", "Table"]
