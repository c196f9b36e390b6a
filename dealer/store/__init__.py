"""The hash-chained SQLite event log and replay."""

from dealer.store.errors import ChainBroken, StoreClosed, StoreError
from dealer.store.eventlog import EventStore, Record, VerifyResult
from dealer.store.replay import load_operation_modules, rebuild_state, replay
from dealer.store.tokens import Role, TokenInfo, TokenStore

__all__ = ["ChainBroken", "EventStore", "Record", "Role", "StoreClosed", "StoreError", "TokenInfo",
           "TokenStore", "VerifyResult", "load_operation_modules", "rebuild_state", "replay"]
