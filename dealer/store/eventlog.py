"""The hash-chained, append-only SQLite event log.

One row per operation. Each row's hash covers its predecessor's hash, so editing, deleting or
reordering any row breaks the chain from that row on::

    hash[n] = SHA-256( JSON[ hash[n-1], seq, time, kind, payload ] )     hash[0] = 64 × "0"

The JSON is canonical (sorted keys, no spaces, UTF-8). The database runs in WAL mode with
``synchronous=FULL``: :meth:`EventStore.append` returns only after the row is durable, so an
acknowledged event survives a crash or ``SIGKILL`` of the writer. A write happens in a single
transaction: the log is never left half-written.

One connection is shared by every thread, so every use of it, reads included, holds the store's lock,
and :meth:`EventStore.close` takes the same lock: a close waits for the write or read under way and
anything after it gets :class:`~dealer.store.errors.StoreClosed`, never a raw ``sqlite3`` error.
Iterating :meth:`EventStore.records` reads in batches, so no cursor is left open across a ``yield``.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dealer.core.operations import Operation, operation_from_payload
from dealer.store.errors import ChainBroken, StoreClosed, StoreError

GENESIS = "0" * 64
SCHEMA_VERSION = 1
_BATCH = 500  # records read per lock hold while iterating

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY,
    time TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);
"""


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain_hash(prev_hash: str, seq: int, time: str, kind: str, payload: str) -> str:
    material = canonical_json([prev_hash, seq, time, kind, payload]).encode()
    return hashlib.sha256(material).hexdigest()


@dataclass(frozen=True, slots=True)
class Record:
    seq: int
    time: str
    kind: str
    payload: str  # canonical JSON text, exactly as hashed
    prev_hash: str
    hash: str

    @property
    def data(self) -> dict[str, Any]:
        value = json.loads(self.payload)
        if not isinstance(value, dict):
            raise StoreError(f"record {self.seq}: payload is not a JSON object")
        return value

    def operation(self) -> Operation:
        return operation_from_payload(self.kind, self.data)

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "time": self.time, "kind": self.kind, "payload": self.data,
                "hash": self.hash}


@dataclass(frozen=True, slots=True)
class VerifyResult:
    ok: bool
    records: int
    first_bad: int | None = None
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "records": self.records, "first_bad": self.first_bad,
                "reason": self.reason}


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


class EventStore:
    """Append operations; read them back in order; verify the chain. Thread-safe."""

    def __init__(self, path: Path, connection: sqlite3.Connection,
                 clock: Callable[[], str] = _utc_now) -> None:
        self.path = path
        self._db = connection
        self._clock = clock
        self._lock = threading.Lock()
        self._closed = False
        row = self._db.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        self._last_seq: int = row[0] if row else 0
        self._last_hash: str = row[1] if row else GENESIS

    @classmethod
    def open(cls, path: str | Path, *, clock: Callable[[], str] = _utc_now) -> EventStore:
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(_SCHEMA)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"cannot open event log {path}: {exc}") from exc
        return cls(path, db, clock)

    def close(self) -> None:
        """Close once no thread is inside; later calls do nothing."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._db.close()

    def _open_db(self) -> sqlite3.Connection:
        """The connection, for a caller holding the lock; StoreClosed once the store is closed."""
        if self._closed:
            raise StoreClosed(f"the event log {self.path} is closed")
        return self._db

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def last_seq(self) -> int:
        return self._last_seq

    def append(self, op: Operation) -> Record:
        """Log ``op``; returns once the record is durable."""
        return self.append_raw(op.kind, op.to_payload())

    def append_raw(self, kind: str, payload: dict[str, Any]) -> Record:
        text = canonical_json(payload)
        with self._lock:
            db = self._open_db()
            seq = self._last_seq + 1
            time = self._clock()
            digest = chain_hash(self._last_hash, seq, time, kind, text)
            record = Record(seq, time, kind, text, self._last_hash, digest)
            try:
                db.execute("BEGIN IMMEDIATE")
                db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                           (seq, time, kind, text, record.prev_hash, digest))
                db.execute("COMMIT")
            except sqlite3.Error as exc:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise StoreError(f"cannot append {kind} to {self.path}: {exc}") from exc
            self._last_seq, self._last_hash = seq, digest
            return record

    def records(self, after: int = 0) -> Iterator[Record]:
        """Records with ``seq > after`` in order."""
        while True:
            rows = self._read("SELECT seq, time, kind, payload, prev_hash, hash FROM events WHERE seq > ? "
                              "ORDER BY seq LIMIT ?", (after, _BATCH))
            for row in rows:
                yield Record(*row)
            if len(rows) < _BATCH:
                return
            after = rows[-1][0]

    def tail(self, count: int) -> list[Record]:
        rows = self._read("SELECT seq, time, kind, payload, prev_hash, hash FROM events ORDER BY seq DESC "
                          "LIMIT ?", (count,))
        return [Record(*row) for row in reversed(rows)]

    def _read(self, sql: str, args: tuple[Any, ...]) -> list[Any]:
        with self._lock:
            try:
                return self._open_db().execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"cannot read the event log {self.path}: {exc}") from exc

    def verify(self) -> VerifyResult:
        """Walk the whole chain; report the first record that does not check out."""
        expected_prev, expected_seq, count = GENESIS, 1, 0
        for record in self.records():
            problem = _check(record, expected_prev, expected_seq)
            if problem:
                return VerifyResult(False, count, record.seq, problem)
            expected_prev, expected_seq, count = record.hash, record.seq + 1, count + 1
        return VerifyResult(True, count)

    def verify_or_raise(self) -> int:
        result = self.verify()
        if not result.ok:
            raise ChainBroken(result.first_bad or 0, result.reason)
        return result.records


def _check(record: Record, expected_prev: str, expected_seq: int) -> str:
    if record.seq != expected_seq:
        return f"sequence jumps from {expected_seq - 1} to {record.seq} (a record was removed)"
    if record.prev_hash != expected_prev:
        return "previous-hash link does not match the record before it"
    actual = chain_hash(record.prev_hash, record.seq, record.time, record.kind, record.payload)
    if actual != record.hash:
        return "contents do not match the record's hash (the record was edited)"
    return ""
