"""The runtime of one table: its state, its event log, and the rule that joins them.

Every change goes through :meth:`Table.submit`: the operation is first applied to a copy of the
state (so a broken rule raises before anything is logged or changed), then appended to the log,
and only once the log has it does the copy become the table's state. A crash at any point leaves
either the old state with no record, or a durable record that replay will apply.
"""

from __future__ import annotations

import copy
import json
import logging
import re
import threading
from collections import Counter, deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dealer.core.cards import Card
from dealer.core.errors import DealerError, IllegalOperation
from dealer.core.games.base import Game, Prompt
from dealer.core.operations import Operation
from dealer.core.table_state import CorrectCard, ResolveDispute, TableState, VoidRecord
from dealer.store import EventStore, Record, replay
from dealer.table.hub import EventHub

log = logging.getLogger(__name__)

Listener = Callable[[Record, TableState], None]
HISTORY_SIZE = 10
# Where games keep their settled rounds in their public state, newest last.
ROUND_KEYS = ("last_rounds", "last_coups", "history", "rounds")
CARD_CODE = re.compile(r"(10|[2-9AJQKT])[SHDC]")  # a card face as the public state shows it ("BK": a back)


def shown_cards(value: Any, out: Counter[str] | None = None) -> Counter[str]:
    """How many times each card face appears in a public view (as the pages count them)."""
    out = Counter() if out is None else out
    if isinstance(value, str):
        if CARD_CODE.fullmatch(value):
            out[value] += 1
    elif isinstance(value, dict | list | tuple):
        for item in value.values() if isinstance(value, dict) else value:
            shown_cards(item, out)
    return out


class RoundRecall:
    """The last settled rounds of one game, for recall: each new one the game reports, once."""

    def __init__(self, game_name: str | None) -> None:
        self.game_name = game_name
        self.rounds: deque[dict[str, Any]] = deque(maxlen=HISTORY_SIZE)
        self._last: str | None = None

    def track(self, record: Record, state: TableState) -> None:
        if self.game_name is None or self.game_name not in state.games:
            return
        view = state.games[self.game_name].to_json()
        rounds = next((view[k] for k in ROUND_KEYS if isinstance(view.get(k), list) and view[k]), None)
        if rounds is not None:  # the game keeps its settled rounds: the newest is the candidate
            summary = rounds[-1]
        elif view.get("settled") or view.get("result"):
            summary = view
        else:
            return
        key = json.dumps(summary, sort_keys=True, default=str)
        if key != self._last:
            self._last = key
            number = summary.get("round", summary.get("coup")) if isinstance(summary, dict) else None
            self.rounds.append({"seq": record.seq, "time": record.time, "round": number or record.seq,
                                "game": summary})


class Table:
    """One table's state and log. Thread-safe; listeners hear every committed record."""

    def __init__(self, name: str, store: EventStore, *, game: str | None = None,
                 hub: EventHub | None = None) -> None:
        self.name = name
        self.store = store
        self.game_name = game
        self.hub = hub or EventHub()
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        # what a casino night adds to the public state (who sits where), read under the table's lock
        self.extras: Callable[[TableState], dict[str, Any]] | None = None
        self.state, self._recall = self._rebuild()
        self._shown = shown_cards(self.public_state()["games"])  # the card faces viewers have seen

    @classmethod
    def open(cls, name: str, db: str | Path, *, game: str | None = None) -> Table:
        return cls(name, EventStore.open(db), game=game)

    def close(self) -> None:
        self.store.close()

    @property
    def lock(self) -> threading.RLock:
        """Held while a change is verified, logged and applied; hold it to make several one."""
        return self._lock

    # ---- state ---------------------------------------------------------------------------------
    def _rebuild(self, skip: set[int] | None = None,
                 correct: dict[int, Card] | None = None) -> tuple[TableState, RoundRecall]:
        """The state (and round recall) the log gives, with ``skip``/``correct`` tried on top.
        Touches nothing of the table's own, so a failed try leaves it as it was."""
        recall = RoundRecall(self.game_name)
        state = replay(list(self.store.records()), skip=skip, correct=correct, after_apply=recall.track)
        return state, recall

    @property
    def history(self) -> deque[dict[str, Any]]:
        """The last settled rounds, oldest first."""
        return self._recall.rounds

    @property
    def game(self) -> Game | None:
        if self.game_name is None:
            return None
        game = self.state.games.get(self.game_name)
        return game if isinstance(game, Game) else None

    def prompt(self) -> Prompt | None:
        game = self.game
        return None if game is None else game.prompt()

    def switch_game(self, name: str | None) -> None:
        """The table now plays ``name`` (its opening is logged by the caller); recall starts afresh."""
        with self._lock:
            self.game_name = name
            self._recall = RoundRecall(name)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    # ---- changes -------------------------------------------------------------------------------
    def submit(self, op: Operation) -> Record:
        """Verify ``op`` against the rules, log it durably, then apply it. A void or a correction
        (sent as an operation) changes records already applied: it goes through :meth:`void` or
        :meth:`correct`, which replay the log with it."""
        if isinstance(op, VoidRecord):
            return self.void(op.seq, op.reason)
        if isinstance(op, CorrectCard):
            return self.correct(op.seq, op.card, op.reason)
        with self._lock:
            faults = len(self.state.faults)
            trial = copy.deepcopy(self.state)
            trial.apply(op)
            record = self.store.append(op)
            self.state = trial
            for fault in trial.faults[faults:]:  # viewers hear the kind only (a card may lie face down)
                log.warning("shoe fault at record %d: %s: %s", record.seq, fault.kind.value, fault.detail)
            self._recall.track(record, trial)
            self._announce(record)
        return record

    def void(self, seq: int, reason: str) -> Record:
        """Cancel record ``seq`` if the table's history still makes sense without it."""
        with self._lock:
            self._check_target(seq)
            return self._rewrite(VoidRecord(seq, reason), skip={seq}, what="void")

    def correct(self, seq: int, card: Card, reason: str = "") -> Record:
        """Record ``seq`` dealt ``card``, not what was read: replay it with the right card.

        ``seq`` may also name an earlier correction (the card a page lists after one): the dealt
        record it corrected is corrected again, and the newest correction is the card."""
        with self._lock:
            seq = self._dealt_record(seq)
            return self._rewrite(CorrectCard(seq, card, reason), correct={seq: card}, what="correct")

    def _check_target(self, seq: int) -> None:
        if not 1 <= seq <= self.store.last_seq:
            raise IllegalOperation(f"there is no record {seq} (the last is {self.store.last_seq})")
        if seq in self.state.voided:
            raise IllegalOperation(f"record {seq} is void")

    def _dealt_record(self, seq: int) -> int:
        """The record whose card ``seq`` names: ``seq`` itself, or the one a correction corrected."""
        while True:
            self._check_target(seq)
            record = next(self.store.records(after=seq - 1))
            if record.kind != CorrectCard.kind:
                break
            target = int(record.data["seq"])
            if not target < seq:  # a correction logged raw, of itself or of a later record
                raise IllegalOperation(f"record {seq} corrects record {target}, not an earlier one")
            seq = target
        if not isinstance(record.data.get("card"), str):
            raise IllegalOperation(f"record {seq} ({record.kind}) carries no card to correct")
        if record.kind == ResolveDispute.kind:
            return self._dealt_after(record)
        return seq

    def _dealt_after(self, resolve: Record) -> int:
        """The record that dealt the card a settled dispute named: the next record carrying a card."""
        for record in self.store.records(after=resolve.seq):
            card = record.data.get("card")
            if isinstance(card, str) and record.kind != CorrectCard.kind:
                if card != resolve.data["card"] or record.seq in self.state.voided:
                    break
                return record.seq
        raise IllegalOperation(f"record {resolve.seq} ({resolve.kind}) settled a dispute but dealt no card "
                               "after it: correct the record that dealt the card")

    def _rewrite(self, op: Operation, *, what: str, skip: set[int] | None = None,
                 correct: dict[int, Card] | None = None) -> Record:
        seq = op.seq  # type: ignore[attr-defined]
        try:
            trial, recall = self._rebuild(skip=skip, correct=correct)
        except DealerError as exc:  # a later record no longer applies (a rule, chips it lacked...)
            raise IllegalOperation(f"cannot {what} record {seq}: the records after it no longer hold "
                                   f"({exc})") from exc
        trial.apply(op)
        record = self.store.append(op)
        self.state, self._recall = trial, recall
        self._announce(record)
        return record

    def _announce(self, record: Record) -> None:
        for listener in list(self._listeners):
            listener(record, self.state)
        state = self.public_state()
        message = {"seq": record.seq, "kind": record.kind, "state": state}
        # the card this record brought, once it lies face up: not a card the same record turned up
        # (a hole card), and never a face-down one (a double-down card, a burn)
        shown, card = shown_cards(state["games"]), record.data.get("card")
        if isinstance(card, str) and shown[card] > self._shown[card]:
            message["card"] = card
            if record.kind == CorrectCard.kind:  # the card is the corrected record's, not this one's
                message["corrects"] = record.data["seq"]
        self._shown = shown
        self.hub.publish("state", message)

    # ---- views ---------------------------------------------------------------------------------
    def public_state(self) -> dict[str, Any]:
        """What any viewer may see: never an undealt card."""
        with self._lock:
            prompt = self.prompt()
            extras = {} if self.extras is None else self.extras(self.state)
            return {"table": self.name, "game": self.game_name, "seq": self.store.last_seq,
                    "prompt": None if prompt is None else prompt.to_json(), **self.state.to_json(public=True),
                    **extras}

    def disputes(self) -> dict[str, dict[str, Any]]:
        """The open integrity issues with both readings: for the dealer who settles them, never a
        viewer (the public state says only that the witnesses disagree)."""
        with self._lock:
            return {str(n): dispute.to_json() for n, dispute in self.state.disputes.items()}

    @property
    def paused(self) -> bool:
        return bool(self.state.paused)
