"""API tokens with roles, kept (hashed) in the table's SQLite file.

The plain token is shown once, at creation; only its SHA-256 is stored, so reading the database
does not give anyone a working token.
"""

from __future__ import annotations

import enum
import hashlib
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dealer.store.errors import StoreClosed, StoreError


class Role(enum.IntEnum):
    """What a token may do; each role includes the ones below it."""

    VIEWER = 1  # read-only display
    DEALER = 2  # runs the game
    ADMIN = 3  # devices, meters, tokens

    @classmethod
    def parse(cls, name: str) -> Role:
        try:
            return cls[name.strip().upper()]
        except KeyError:
            raise StoreError(f"unknown role {name!r}: expected viewer, dealer or admin") from None


@dataclass(frozen=True, slots=True)
class TokenInfo:
    token_id: str
    role: Role
    label: str
    created: str


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class TokenStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                       timeout=30)
            self._db.execute("CREATE TABLE IF NOT EXISTS tokens (digest TEXT PRIMARY KEY, token_id TEXT, "
                             "role TEXT NOT NULL, label TEXT NOT NULL, created TEXT NOT NULL)")
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"cannot open token store {self.path}: {exc}") from exc
        self._lock = threading.Lock()  # one connection, many request threads, and a close
        self._closed = False

    def close(self) -> None:
        """Close once no request is inside; later calls do nothing."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._db.close()

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock:
            if self._closed:
                raise StoreClosed(f"the token store {self.path} is closed")
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"token store {self.path}: {exc}") from exc

    def create(self, role: Role, label: str = "") -> tuple[str, TokenInfo]:
        """A new token; returns the plain token (shown once) and its record."""
        token = secrets.token_urlsafe(24)
        info = TokenInfo(token[:6], role, label, datetime.now(UTC).isoformat(timespec="seconds"))
        self._query("INSERT INTO tokens VALUES (?, ?, ?, ?, ?)",
                    (_digest(token), info.token_id, role.name.lower(), label, info.created))
        return token, info

    def lookup(self, token: str) -> TokenInfo | None:
        rows = self._query("SELECT token_id, role, label, created FROM tokens WHERE digest = ?",
                           (_digest(token),))
        return None if not rows else TokenInfo(rows[0][0], Role.parse(rows[0][1]), rows[0][2], rows[0][3])

    def count(self) -> int:
        return int(self._query("SELECT count(*) FROM tokens")[0][0])
