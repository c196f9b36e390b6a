"""One running table: the only place where the rules core, devices and vision meet."""

from dealer.table.runtime import Table

__all__ = ["Table"]
