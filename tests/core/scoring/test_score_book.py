"""The scorebook: audited undo/restore/correct, sessions, totals, and surviving a restart (event log)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.core.cards import Card
from dealer.core.operations import Operation, operation_from_payload
from dealer.core.scoring.base import ScoreError
from dealer.core.scoring.book import Scorebook
from dealer.core.scoring.operations import (
    CorrectEntry,
    EndScoredGame,
    OpenScorebook,
    ReportCard,
    RestoreEntry,
    ScoreEntry,
    StartScoredGame,
    UndoEntry,
    book,
)
from dealer.core.table_state import TableState
from dealer.store import EventStore, rebuild_state


def test_undo_restore_and_correct_are_audited(make_book: Any) -> None:
    b = make_book("cribbage")
    b.enter("peg", {"player": "ann", "points": 2})
    b.enter("peg", {"player": "bob", "points": 5})
    b.undo(2, reason="bob pegged too far", by="host")
    assert b.current.scorer.totals == {"ann": 2, "bob": 0}
    b.restore(2, by="host")
    b.correct(2, {"player": "bob", "points": 3}, reason="miscount", by="host")
    assert b.current.scorer.totals == {"ann": 2, "bob": 3}
    assert [a.action for a in b.audit] == ["open", "start-game", "enter", "enter", "undo", "restore",
                                           "correct"]
    correct = b.audit[-1]
    assert correct.before["data"]["points"] == 5 and correct.after["data"]["points"] == 3
    assert correct.reason == "miscount" and correct.by == "host"
    assert b.entries[2].revision == 3  # undone, restored, corrected


def test_running_totals_follow_corrections(make_book: Any) -> None:
    b = make_book("cribbage")
    for pts in (2, 3, 4):
        b.enter("peg", {"player": "ann", "points": pts})
    b.correct(1, {"player": "ann", "points": 10})
    assert [b.entries[i].totals["ann"] for i in (1, 2, 3)] == [10, 13, 17]


def test_a_correction_that_invalidates_a_later_entry_is_refused(make_book: Any) -> None:
    b = make_book("cribbage")
    b.enter("deal", {"dealer": "bob"})
    b.enter("hand", {"player": "ann", "cards": "2H 3D 10S KC", "starter": "5C"})
    before = b.to_json()
    # moving the deal to ann makes ann's entry the dealer's hand, counted before the pone: refused
    with pytest.raises(ScoreError, match="refused: entry 2"):
        b.correct(1, {"dealer": "ann"})
    assert b.to_json() == before


def test_entries_after_the_game_ends_are_refused_until_a_new_game(make_book: Any) -> None:
    b = make_book("cribbage", rules={"target": 61})
    for _ in range(3):
        b.enter("peg", {"player": "ann", "points": 29})
    assert b.current.result is not None
    with pytest.raises(ScoreError, match="over"):
        b.enter("peg", {"player": "bob", "points": 1})
    b.start_game("cribbage", {"target": 61})
    assert len(b.games) == 2 and b.current.scorer.totals == {"ann": 0, "bob": 0}


def test_undo_that_would_reopen_a_finished_game_is_refused_once_the_next_started(make_book: Any) -> None:
    b = make_book("cribbage", rules={"target": 61})
    for _ in range(3):
        b.enter("peg", {"player": "ann", "points": 29})
    b.start_game("cribbage")
    with pytest.raises(ScoreError, match="no longer be over"):
        b.undo(3)


def test_cannot_start_a_game_while_one_is_in_play_but_can_end_it(make_book: Any) -> None:
    b = make_book("cribbage")
    b.enter("peg", {"player": "bob", "points": 7})
    with pytest.raises(ScoreError, match="still in play"):
        b.start_game("cribbage")
    result = b.end_game("evening over")
    assert result.winners == ("bob",) and result.label == "closed"
    b.start_game("cribbage")


def test_session_totals_for_players_and_partnerships() -> None:
    b = Scorebook("s", ("ann", "bob"))
    b.start_game("cribbage", {"target": 61})
    for _ in range(3):
        b.enter("peg", {"player": "ann", "points": 29})  # lurch: bob at 0
    b.start_game("cribbage", {"target": 61})
    b.enter("peg", {"player": "bob", "points": 20})
    b.end_game()
    session = b.session()["players"]
    assert session["ann"] == {"games_won": 1, "game_value": 2, "points": 87, "games_played": 2}
    assert session["bob"] == {"games_won": 1, "game_value": 1, "points": 20, "games_played": 2}


def test_bad_input_names_what_was_expected(make_book: Any) -> None:
    b = make_book("cribbage")
    with pytest.raises(ScoreError, match="no entry 'bid'"):
        b.enter("bid", {})
    with pytest.raises(ScoreError, match="'carl' is not a side or player"):
        b.enter("peg", {"player": "carl", "points": 2})
    with pytest.raises(ScoreError, match="unexpected field"):
        b.enter("peg", {"player": "ann", "points": 2, "pts": 3})
    with pytest.raises(ScoreError, match="bad card code"):
        b.enter("hand", {"player": "ann", "cards": "5X 5D 5S JC", "starter": "5C"})
    with pytest.raises(ScoreError, match="unknown house rule"):
        Scorebook("x", ("a", "b")).start_game("cribbage", {"targte": 61})
    with pytest.raises(ScoreError, match="no scored game"):
        Scorebook("x", ("a", "b")).start_game("crib")
    assert [a.action for a in b.audit] == ["open", "start-game"]  # nothing was recorded


def test_cards_reported_by_the_camera_feed_the_next_entry() -> None:
    table = TableState()
    table.apply(OpenScorebook("k", ("ann", "bob")))
    table.apply(StartScoredGame("k", "cribbage"))
    sb = book(table, "k")
    for code in ("5H", "5D", "5S", "JC"):
        table.apply(sb.card_operation(Card.parse(code)))
    table.apply(ScoreEntry("k", "hand", {"player": "ann", "cards": "$cards", "starter": "5C"}))
    assert sb.current.scorer.totals["ann"] == 29
    assert sb.pending == []


SESSION: list[Operation] = [
    OpenScorebook("kitchen", ("ann", "bob"), "Friday"),
    StartScoredGame("kitchen", "cribbage", {"game-value": "skunk"}),
    ScoreEntry("kitchen", "deal", {"dealer": "bob"}),
    ScoreEntry("kitchen", "starter", {"card": "JD"}),
    ScoreEntry("kitchen", "pegging", {"plays": ["ann:KC", "bob:QD", "ann:9S", "bob:AH", "ann:5C", "bob:3H",
                                                  "ann:4D", "bob:6S"]}),
    ScoreEntry("kitchen", "hand", {"player": "ann", "cards": "KC 9S 5C 4D"}, by="ann"),
    ScoreEntry("kitchen", "hand", {"player": "bob", "cards": "QD AH 3H 6S"}),
    UndoEntry("kitchen", 5, "bob's hand was entered as the dealer's twice", "host"),
    RestoreEntry("kitchen", 5, "it was right", "host"),
    CorrectEntry("kitchen", 4, {"player": "ann", "cards": "KC 9S 5C 4D", "claimed": 3}, "note claim", "host"),
    ReportCard("kitchen", Card.parse("2C")),
]


def test_operations_round_trip_through_payloads() -> None:
    for op in SESSION:
        assert operation_from_payload(op.kind, op.to_payload()) == op


def test_scorebook_survives_a_restart_with_its_undo_history(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite"
    table = TableState()
    with EventStore.open(path) as store:
        for op in SESSION:
            table.apply(op)
            store.append(op)
    before = table.to_json()
    with EventStore.open(path) as store:
        assert store.verify().ok
        rebuilt = rebuild_state(store)
        kinds = [r.kind for r in store.records()]
    assert rebuilt.to_json() == before
    audit = book(rebuilt, "kitchen").audit
    assert [a.action for a in audit][-3:] == ["undo", "restore", "correct"]
    assert "score.undo" in kinds and "score.correct" in kinds
    assert book(rebuilt, "kitchen").pending == [Card.parse("2C")]


_points = st.integers(min_value=1, max_value=29)
_actions = st.lists(st.one_of(
    st.tuples(st.just("peg"), st.sampled_from(["ann", "bob"]), _points),
    st.tuples(st.just("undo"), st.integers(1, 30), st.just(0)),
    st.tuples(st.just("correct"), st.integers(1, 30), _points),
), max_size=25)


@settings(max_examples=60, deadline=None)
@given(_actions)
def test_replaying_the_log_gives_the_same_book(actions: list[tuple[str, Any, int]]) -> None:
    table = TableState()
    log: list[Operation] = [OpenScorebook("p", ("ann", "bob")), StartScoredGame("p", "cribbage")]
    for op in log:
        table.apply(op)
    for what, who, pts in actions:
        if what == "peg":
            op: Operation = ScoreEntry("p", "peg", {"player": who, "points": pts})
        elif what == "undo":
            op = UndoEntry("p", who)
        else:
            op = CorrectEntry("p", who, {"player": "ann", "points": pts})
        try:
            table.apply(op)
        except ScoreError:
            continue  # refused: nothing changed and nothing is logged
        log.append(op)
    replayed = TableState()
    for op in log:
        replayed.apply(operation_from_payload(op.kind, op.to_payload()))
    assert replayed.to_json()["games"] == table.to_json()["games"]
    sb = book(table, "p")
    live = [e for e in sb.entries.values() if not e.undone and e.scored is not None]
    for side in ("ann", "bob"):  # totals are exactly the entries in force (capped by the game's end)
        assert sb.current.scorer.totals[side] == sum(e.scored.points().get(side, 0) for e in live)
    _ = EndScoredGame
