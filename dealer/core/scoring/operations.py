"""Scorebook operations: what a runtime logs to the event store and applies to a table.

Every scorebook lives in ``table.games["scorebook:<book>"]``. Undo, restore and correct are
operations like any other, so the event log *is* the audit log and a replay rebuilds the same
book, audit trail included.

>>> from dealer.core.table_state import TableState
>>> table = TableState()
>>> for op in (OpenScorebook("k", ("ann", "bob")), StartScoredGame("k", "cribbage"),
...            ScoreEntry("k", "hand", {"player": "bob", "cards": "5H 5D 5S JC", "starter": "5C"}),
...            UndoEntry("k", 1, reason="wrong player")):
...     table.apply(op)
>>> book(table, "k").current.scorer.totals
{'ann': 0, 'bob': 0}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from dealer.core.cards import Card
from dealer.core.operations import Operation, ensure, register_operation
from dealer.core.scoring.base import ScoreError
from dealer.core.scoring.book import Scorebook
from dealer.core.table_state import TableState

__all__ = ["CorrectEntry", "EndScoredGame", "OpenScorebook", "ReportCard", "RestoreEntry", "ScoreEntry",
           "StartScoredGame", "UndoEntry", "book", "book_key"]


def book_key(name: str) -> str:
    return f"scorebook:{name}"


def book(table: TableState, name: str) -> Scorebook:
    found = table.games.get(book_key(name))
    if not isinstance(found, Scorebook):
        raise ScoreError(f"no scorebook {name!r} at this table; open it first")
    return found


@register_operation
@dataclass(frozen=True)
class OpenScorebook(Operation):
    """Open a scorebook (a session) for these players."""

    kind: ClassVar[str] = "score.open"
    book: str
    players: tuple[str, ...]
    title: str = ""
    by: str = ""

    def apply(self, table: TableState) -> None:
        ensure(book_key(self.book) not in table.games, f"scorebook {self.book!r} is already open")
        table.games[book_key(self.book)] = Scorebook(self.book, self.players, self.title, self.by)


@register_operation
@dataclass(frozen=True)
class StartScoredGame(Operation):
    """Start a game in the book: its house rules, partnerships (``{"we": [...], "they": [...]}``)
    and, if not everyone plays, the players taking part."""

    kind: ClassVar[str] = "score.start-game"
    book: str
    game: str
    rules: dict[str, Any] = field(default_factory=dict)
    partnerships: dict[str, Any] | None = None
    players: tuple[str, ...] = ()
    by: str = ""

    def apply(self, table: TableState) -> None:
        book(table, self.book).start_game(self.game, self.rules, self.partnerships, self.players or None,
                                          self.by)


@register_operation
@dataclass(frozen=True)
class ScoreEntry(Operation):
    """One entry of the current game, in the game's own terms (see ``dealer score games``)."""

    kind: ClassVar[str] = "score.enter"
    book: str
    entry: str
    data: dict[str, Any] = field(default_factory=dict)
    by: str = ""

    def apply(self, table: TableState) -> None:
        book(table, self.book).enter(self.entry, self.data, self.by)


@register_operation
@dataclass(frozen=True)
class UndoEntry(Operation):
    """Take an entry out of the score (it stays in the book, marked undone)."""

    kind: ClassVar[str] = "score.undo"
    book: str
    entry: int
    reason: str = ""
    by: str = ""

    def apply(self, table: TableState) -> None:
        book(table, self.book).undo(self.entry, self.reason, self.by)


@register_operation
@dataclass(frozen=True)
class RestoreEntry(Operation):
    """Put an undone entry back in force."""

    kind: ClassVar[str] = "score.restore"
    book: str
    entry: int
    reason: str = ""
    by: str = ""

    def apply(self, table: TableState) -> None:
        book(table, self.book).restore(self.entry, self.reason, self.by)


@register_operation
@dataclass(frozen=True)
class CorrectEntry(Operation):
    """Replace an entry's data; the game is re-scored from its first entry."""

    kind: ClassVar[str] = "score.correct"
    book: str
    entry: int
    data: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    by: str = ""

    def apply(self, table: TableState) -> None:
        book(table, self.book).correct(self.entry, self.data, self.reason, self.by)


@register_operation
@dataclass(frozen=True)
class EndScoredGame(Operation):
    """End the current game now (one-deal games, games with no target, an evening that ends)."""

    kind: ClassVar[str] = "score.end-game"
    book: str
    reason: str = ""
    by: str = ""

    def apply(self, table: TableState) -> None:
        book(table, self.book).end_game(self.reason, self.by)


@register_operation
@dataclass(frozen=True)
class ReportCard(Operation):
    """A card seen by the camera (or typed) for the next entry whose field is ``"$cards"``."""

    kind: ClassVar[str] = "score.card"
    book: str
    card: Card

    def apply(self, table: TableState) -> None:
        book(table, self.book).report_card(self.card)
