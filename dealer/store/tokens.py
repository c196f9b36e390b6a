"""API tokens with roles, kept (hashed) in the table's SQLite file.

The plain token is shown once, at creation; only its SHA-256 is stored, so reading the database
does not give anyone a working token.
"""

from __future__ import annotations

import enum
import hashlib
import secrets
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from dealer.store.errors import StoreError


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

    def close(self) -> None:
        self._db.close()

    def create(self, role: Role, label: str = "") -> tuple[str, TokenInfo]:
        """A new token; returns the plain token (shown once) and its record."""
        token = secrets.token_urlsafe(24)
        info = TokenInfo(token[:6], role, label, datetime.now(UTC).isoformat(timespec="seconds"))
        self._db.execute("INSERT INTO tokens VALUES (?, ?, ?, ?, ?)",
                         (_digest(token), info.token_id, role.name.lower(), label, info.created))
        return token, info

    def lookup(self, token: str) -> TokenInfo | None:
        row = self._db.execute("SELECT token_id, role, label, created FROM tokens WHERE digest = ?",
                               (_digest(token),)).fetchone()
        return None if row is None else TokenInfo(row[0], Role.parse(row[1]), row[2], row[3])

    def count(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM tokens").fetchone()[0])
