"""Scorebooks for the API: the same audited scorebook operations ``dealer score`` logs, kept in a
hash-chained event log of their own (``dealer score show --db <that file> --book <name>`` reads it).

Every change is applied to a copy of the books first (a refused entry changes nothing), written
durably to the log, then made current; on open the books are rebuilt by replaying the log.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dealer.core.operations import Operation
from dealer.core.scoring.base import ScoreError
from dealer.core.scoring.book import Scorebook
from dealer.core.scoring.operations import (
    CorrectEntry,
    EndScoredGame,
    OpenScorebook,
    RestoreEntry,
    ScoreEntry,
    StartScoredGame,
    UndoEntry,
    book,
    book_key,
)
from dealer.core.scoring.registry import describe_games
from dealer.core.table_state import TableState
from dealer.store import EventStore, Record, rebuild_state

__all__ = ["Scorebooks"]


class Scorebooks:
    """Every scorebook of a night in one event log. Thread-safe."""

    def __init__(self, store: EventStore, state: TableState) -> None:
        self.store = store
        self._state = state
        self._lock = threading.Lock()

    @classmethod
    def open(cls, path: str | Path) -> Scorebooks:
        store = EventStore.open(path)
        return cls(store, rebuild_state(store))

    def close(self) -> None:
        self.store.close()

    # -- reading ------------------------------------------------------------------------------------
    @staticmethod
    def games() -> list[dict[str, Any]]:
        """Every scored game: its entries, sides and house rules with defaults."""
        return describe_games()

    def books(self) -> list[dict[str, Any]]:
        """A line per book: players, games played, the game in progress and who leads it."""
        out = []
        with self._lock:
            for key, found in sorted(self._state.games.items()):
                if not key.startswith("scorebook:") or not isinstance(found, Scorebook):
                    continue
                current = found.current if found.games else None
                out.append({"book": found.book, "title": found.title, "players": list(found.players),
                            "games": len(found.games),
                            "current": None if current is None else {
                                "index": current.index, "game": current.name, "title": current.scorer.title,
                                "totals": dict(current.scorer.totals),
                                "over": current.result is not None}})
        return out

    def book(self, name: str) -> dict[str, Any]:
        with self._lock:
            return copy.deepcopy(book(self._state, name).to_json())

    # -- changing (each an operation of dealer.core.scoring.operations) -----------------------------
    def open_book(self, name: str, players: Sequence[str], title: str = "", by: str = "") -> dict[str, Any]:
        names = tuple(p.strip() for p in players)
        if len(set(names)) != len(names):
            raise ScoreError(f"each player needs a different name, got {list(names)!r}")
        return self._commit(OpenScorebook(name.strip(), names, title, by), name.strip())

    def start_game(self, name: str, game: str, rules: Mapping[str, Any] | None = None,
                   partnerships: Mapping[str, Sequence[str]] | None = None, players: Sequence[str] = (),
                   by: str = "") -> dict[str, Any]:
        teams = None if not partnerships else {k: list(v) for k, v in partnerships.items()}
        return self._commit(StartScoredGame(name, game, dict(rules or {}), teams, tuple(players), by), name)

    def enter(self, name: str, kind: str, data: Mapping[str, Any], by: str = "") -> dict[str, Any]:
        return self._commit(ScoreEntry(name, kind, dict(data), by), name)

    def undo(self, name: str, entry: int | None = None, reason: str = "", by: str = "") -> dict[str, Any]:
        """Take ``entry`` out of the score; without one, the last entry in force of the current game."""
        if entry is None:
            with self._lock:
                entry = _last_in_force(book(self._state, name))
        return self._commit(UndoEntry(name, entry, reason, by), name)

    def restore(self, name: str, entry: int, reason: str = "", by: str = "") -> dict[str, Any]:
        return self._commit(RestoreEntry(name, entry, reason, by), name)

    def correct(self, name: str, entry: int, data: Mapping[str, Any], reason: str = "",
                by: str = "") -> dict[str, Any]:
        return self._commit(CorrectEntry(name, entry, dict(data), reason, by), name)

    def end_game(self, name: str, reason: str = "", by: str = "") -> dict[str, Any]:
        return self._commit(EndScoredGame(name, reason, by), name)

    def _commit(self, op: Operation, name: str) -> dict[str, Any]:
        with self._lock:
            trial = copy.deepcopy(self._state)
            trial.apply(op)  # a refused operation raises here, before anything is logged
            record: Record = self.store.append(op)
            self._state = trial
            found = trial.games[book_key(name)]
            assert isinstance(found, Scorebook)
            return {"seq": record.seq, "kind": record.kind, "book": copy.deepcopy(found.to_json())}


def _last_in_force(found: Scorebook) -> int:
    if not found.games:
        raise ScoreError(f"scorebook {found.book!r} has no game yet; start one first")
    for entry_id in reversed(found.current.entry_ids):
        if not found.entries[entry_id].undone:
            return entry_id
    raise ScoreError("nothing to undo in the current game")
