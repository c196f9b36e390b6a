"""Errors of the event store."""

from __future__ import annotations

from dealer.core.errors import DealerError


class StoreError(DealerError, RuntimeError):
    """The event log could not be opened, read or written."""


class StoreClosed(StoreError):
    """The store was closed (the table is shutting down) while, or before, it was used."""


class ChainBroken(StoreError):
    """A record's hash does not match its contents or its predecessor (the log was edited)."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"record {seq}: {reason}")
        self.seq = seq
        self.reason = reason
