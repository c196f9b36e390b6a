"""The scorebook: a session of scored games with audited undo and correction.

A scorebook has players; each game in it has sides (players alone or partnerships), house rules
and entries. Every entry is kept forever: *undo* marks it undone, *restore* brings it back and
*correct* replaces its data. Each of these is re-scored from the game's first entry, so the totals
are always those of the entries in force, and each leaves a line in the audit trail saying what
changed, when (the log's order), by whom and why. An action that would make a later entry invalid
is refused and changes nothing.

>>> book = Scorebook("kitchen", ("ann", "bob"))
>>> _ = book.start_game("cribbage")
>>> book.enter("peg", {"player": "ann", "points": 2}).scored.points()
{'ann': 2}
>>> book.enter("peg", {"player": "bob", "points": 5}).id
2
>>> book.correct(2, {"player": "bob", "points": 3}, reason="miscounted")
>>> book.current.scorer.totals
{'ann': 2, 'bob': 3}
>>> [a.action for a in book.audit]
['open', 'start-game', 'enter', 'enter', 'correct']
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from dealer.core.cards import Card
from dealer.core.games.base import Prompt, Step
from dealer.core.operations import Operation
from dealer.core.scoring.base import GameResult, Scored, ScoreError, ScoreGame, sides_for
from dealer.core.scoring.registry import game_class

__all__ = ["AuditRecord", "EntryRecord", "GameRecord", "Scorebook"]

PENDING = "$cards"  # an entry field with this value takes the cards reported since the last entry


@dataclass
class EntryRecord:
    id: int
    game: int
    kind: str
    data: dict[str, Any]
    by: str = ""
    undone: bool = False
    scored: Scored | None = None
    totals: dict[str, int] = field(default_factory=dict)  # running totals after this entry
    revision: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "kind": self.kind, "data": self.data, "by": self.by,
                "undone": self.undone, "revision": self.revision,
                "scored": None if self.scored is None else self.scored.to_json(),
                "totals": dict(self.totals)}


@dataclass(frozen=True)
class AuditRecord:
    seq: int
    action: str  # open, start-game, enter, undo, restore, correct, end-game, card
    by: str = ""
    reason: str = ""
    entry: int | None = None
    game: int | None = None
    before: Any = None
    after: Any = None

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "action": self.action, "by": self.by, "reason": self.reason,
                "entry": self.entry, "game": self.game, "before": self.before, "after": self.after}


@dataclass
class GameRecord:
    index: int
    name: str
    rules: dict[str, Any]
    partnerships: dict[str, list[str]] | None
    scorer: ScoreGame
    players: tuple[str, ...] = ()
    entry_ids: list[int] = field(default_factory=list)
    closed: GameResult | None = None  # set when the host ends a game that has no natural end
    close_reason: str = ""

    @property
    def result(self) -> GameResult | None:
        return self.scorer.result or self.closed

    def to_json(self, entries: Mapping[int, EntryRecord]) -> dict[str, Any]:
        return {"index": self.index, **self.scorer.to_json(), "players": list(self.players),
                "result": None if self.result is None else self.result.to_json(),
                "closed_by_host": self.closed is not None, "close_reason": self.close_reason,
                "entries": [entries[i].to_json() for i in self.entry_ids]}


class Scorebook:
    """A scoring session: its players, its games in order, every entry and the audit trail."""

    name: ClassVar[str] = "scorebook"

    def __init__(self, book: str, players: Sequence[str], title: str = "", by: str = "") -> None:
        self.verify_open(book, players)
        self.book = book
        self.title = title or book
        self.players = tuple(players)
        self.games: list[GameRecord] = []
        self.entries: dict[int, EntryRecord] = {}
        self.audit: list[AuditRecord] = []
        self.pending: list[Card] = []
        self._log("open", by, after={"players": list(self.players), "title": self.title})

    @staticmethod
    def verify_open(book: str, players: Sequence[str]) -> None:
        if not book or not isinstance(book, str):
            raise ScoreError("a scorebook needs a name")
        if not players or any(not isinstance(p, str) or not p.strip() for p in players):
            raise ScoreError(f"a scorebook needs named players, got {list(players)!r}")
        if len(set(players)) != len(players):
            raise ScoreError(f"player names must differ, got {list(players)!r}")

    def _log(self, action: str, by: str = "", reason: str = "", entry: int | None = None,
             game: int | None = None, before: Any = None, after: Any = None) -> None:
        self.audit.append(AuditRecord(len(self.audit) + 1, action, by, reason, entry, game,
                                      copy.deepcopy(before), copy.deepcopy(after)))

    # -- games ------------------------------------------------------------------------------------
    @property
    def current(self) -> GameRecord:
        if not self.games:
            raise ScoreError(f"scorebook {self.book!r} has no game yet: start one")
        return self.games[-1]

    def _new_scorer(self, name: str, rules: Mapping[str, Any],
                    partnerships: Mapping[str, Sequence[str]] | None,
                    players: Sequence[str] | None = None) -> ScoreGame:
        cls = game_class(name)
        return cls(cls.make_rules(rules), sides_for(players or self.players, partnerships))

    def verify_start_game(self, name: str, rules: Mapping[str, Any] | None = None,
                          partnerships: Mapping[str, Sequence[str]] | None = None,
                          players: Sequence[str] | None = None) -> ScoreGame:
        if self.games and self.current.result is None:
            raise ScoreError(f"game {self.current.index} ({self.current.scorer.title}) is still in play: "
                             "end it before starting another")
        if players:
            unknown = [p for p in players if p not in self.players]
            if unknown:
                raise ScoreError(f"{', '.join(unknown)} not in this scorebook "
                                 f"(players: {', '.join(self.players)})")
        return self._new_scorer(name, rules or {}, partnerships, players)

    def start_game(self, name: str, rules: Mapping[str, Any] | None = None,
                   partnerships: Mapping[str, Sequence[str]] | None = None,
                   players: Sequence[str] | None = None, by: str = "") -> GameRecord:
        scorer = self.verify_start_game(name, rules, partnerships, players)
        record = GameRecord(len(self.games) + 1, name, dict(rules or {}),
                            None if not partnerships else {k: list(v) for k, v in partnerships.items()},
                            scorer, tuple(players or self.players))
        self.games.append(record)
        self._log("start-game", by, game=record.index,
                  after={"game": name, "rules": record.rules, "partnerships": record.partnerships,
                         "players": list(players or self.players)})
        return record

    def end_game(self, reason: str = "", by: str = "") -> GameResult:
        game = self.current
        if game.result is not None:
            raise ScoreError(f"game {game.index} is already over")
        game.closed = game.scorer.final_result()
        game.close_reason = reason
        self._log("end-game", by, reason, game=game.index, after=game.closed.to_json())
        return game.closed

    # -- entries ----------------------------------------------------------------------------------
    def _resolve(self, data: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
        out = dict(data)
        used = False
        for key, value in out.items():
            if value == PENDING:
                if not self.pending:
                    raise ScoreError(f"{key!r} asks for the reported cards, but none were reported")
                out[key] = " ".join(c.code for c in self.pending)
                used = True
        return out, used

    def enter(self, kind: str, data: Mapping[str, Any], by: str = "") -> EntryRecord:
        game = self.current
        if game.result is not None:
            raise ScoreError(f"game {game.index} ({game.scorer.title}) is over: start a new game")
        resolved, used = self._resolve(data)
        trial = copy.deepcopy(game.scorer)
        scored = trial.enter(kind, resolved)
        record = EntryRecord(len(self.entries) + 1, game.index, kind, resolved, by, scored=scored,
                             totals=dict(trial.totals))
        game.scorer = trial
        self.entries[record.id] = record
        game.entry_ids.append(record.id)
        if used:
            self.pending = []
        self._log("enter", by, entry=record.id, game=game.index, after={"kind": kind, "data": resolved})
        return record

    def _entry(self, entry: int) -> tuple[EntryRecord, GameRecord]:
        record = self.entries.get(entry)
        if record is None:
            raise ScoreError(f"scorebook {self.book!r} has no entry {entry} "
                             f"(entries 1 to {len(self.entries)})")
        return record, self.games[record.game - 1]

    def _rescore(self, game: GameRecord, changes: Mapping[int, tuple[bool, dict[str, Any]]]) -> None:
        """Re-score ``game`` from scratch with ``changes`` (entry id → undone, data); all or nothing."""
        scorer = self._new_scorer(game.name, game.rules, game.partnerships, game.players)
        results: dict[int, tuple[Scored | None, dict[str, int]]] = {}
        for entry_id in game.entry_ids:
            record = self.entries[entry_id]
            undone, data = changes.get(entry_id, (record.undone, record.data))
            if undone:
                results[entry_id] = (None, dict(scorer.totals))
                continue
            try:
                scored: Scored | None = scorer.enter(record.kind, data)
            except ScoreError as exc:
                raise ScoreError(f"refused: entry {entry_id} ({record.kind}) would no longer be valid: "
                                 f"{exc}") from None
            results[entry_id] = (scored, dict(scorer.totals))
        if game.index < len(self.games) and scorer.result is None and game.closed is None:
            raise ScoreError(f"refused: game {game.index} would no longer be over, but game "
                             f"{game.index + 1} has started")
        if game.closed is not None and scorer.result is not None:
            game.closed = None  # the change ended the game by its own rules
        elif game.closed is not None:
            game.closed = scorer.final_result()
        game.scorer = scorer
        for entry_id, (scored, totals) in results.items():
            record = self.entries[entry_id]
            if entry_id in changes:
                record.undone, record.data = changes[entry_id]
                record.revision += 1
            record.scored, record.totals = scored, totals

    def undo(self, entry: int, reason: str = "", by: str = "") -> None:
        record, game = self._entry(entry)
        if record.undone:
            raise ScoreError(f"entry {entry} is already undone")
        self._rescore(game, {entry: (True, record.data)})
        self._log("undo", by, reason, entry, game.index, before={"kind": record.kind, "data": record.data})

    def restore(self, entry: int, reason: str = "", by: str = "") -> None:
        record, game = self._entry(entry)
        if not record.undone:
            raise ScoreError(f"entry {entry} is in force; only an undone entry can be restored")
        self._rescore(game, {entry: (False, record.data)})
        self._log("restore", by, reason, entry, game.index, after={"kind": record.kind, "data": record.data})

    def correct(self, entry: int, data: Mapping[str, Any], reason: str = "", by: str = "") -> None:
        record, game = self._entry(entry)
        if record.undone:
            raise ScoreError(f"entry {entry} is undone; restore it before correcting it")
        before = dict(record.data)
        resolved, used = self._resolve(data)
        self._rescore(game, {entry: (False, resolved)})
        if used:
            self.pending = []
        self._log("correct", by, reason, entry, game.index, before={"kind": record.kind, "data": before},
                  after={"kind": record.kind, "data": resolved})

    def undo_last(self, reason: str = "", by: str = "") -> int:
        for entry_id in reversed(self.current.entry_ids):
            if not self.entries[entry_id].undone:
                self.undo(entry_id, reason, by)
                return entry_id
        raise ScoreError("nothing to undo in the current game")

    def report_card(self, card: Card) -> None:
        """A card the camera or the host reported, kept for the next entry that asks for ``$cards``."""
        if card.is_back:
            raise ScoreError("a face-down card (BK) cannot be scored; turn it face up")
        self.pending.append(card)

    # -- totals -----------------------------------------------------------------------------------
    def session(self) -> dict[str, Any]:
        """Player and partnership totals over every game of the session."""
        players = {p: {"games_won": 0, "game_value": 0, "points": 0, "games_played": 0} for p in self.players}
        partnerships: dict[str, dict[str, Any]] = {}
        for game in self.games:
            result = game.result
            for side in game.scorer.sides:
                total = game.scorer.totals[side.name]
                won = result is not None and side.name in result.winners
                for member in side.members:
                    players[member]["points"] += total
                    players[member]["games_played"] += 1
                    if won:
                        assert result is not None
                        players[member]["games_won"] += 1
                        players[member]["game_value"] += result.value
                if len(side.members) > 1:
                    key = " & ".join(sorted(side.members))
                    entry = partnerships.setdefault(key, {"members": sorted(side.members), "games_won": 0,
                                                          "game_value": 0, "points": 0, "games_played": 0})
                    entry["points"] += total
                    entry["games_played"] += 1
                    if won:
                        assert result is not None
                        entry["games_won"] += 1
                        entry["game_value"] += result.value
        return {"players": players, "partnerships": partnerships, "rubbers": self.rubbers()}

    def rubbers(self) -> list[dict[str, Any]]:
        """Euchre rubbers (RULES C5) among the finished euchre games played with rubber points."""
        from dealer.core.scoring.euchre import Euchre, rubbers

        played = [(g.index, g.scorer.sides, g.result) for g in self.games
                  if isinstance(g.scorer, Euchre) and g.scorer.rules.rubber_points and g.result is not None
                  and len(g.scorer.sides) == 2]
        return rubbers(played)

    # -- the table runtime's view (dealer.core.games.base.Game) --------------------------------------
    def prompt(self) -> Prompt:
        if not self.games or self.current.result is not None:
            return Prompt(Step.BET, None, ("start-game",), "start a game")
        scorer = self.current.scorer
        return Prompt(Step.DECIDE, None, tuple(scorer.entry_kinds), f"{scorer.title}: enter what happened")

    def card_operation(self, card: Card) -> Operation:
        from dealer.core.scoring.operations import ReportCard

        return ReportCard(self.book, card)

    def auto_operation(self) -> Operation | None:
        return None  # the host enters what happened; nothing is decided by the engine

    def to_json(self) -> dict[str, Any]:
        current = None if not self.games else self.current
        return {"book": self.book, "title": self.title, "players": list(self.players),
                "current_game": None if current is None else current.index,
                "games": [g.to_json(self.entries) for g in self.games],
                "session": self.session(), "pending_cards": [c.code for c in self.pending],
                "audit": [a.to_json() for a in self.audit], "prompt": self.prompt().to_json()}
