"""The new scoring paths survive a restart (real SQLite event log) and chip settlements conserve chips."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.core.operations import Operation
from dealer.core.scoring.book import Scorebook
from dealer.core.scoring.operations import OpenScorebook, ScoreEntry, StartScoredGame, UndoEntry, book
from dealer.core.table_state import TableState
from dealer.store import EventStore, rebuild_state

PLAYERS = ("ann", "bob", "cy", "di")

SESSION: list[Operation] = [
    OpenScorebook("night", PLAYERS),
    # RULES C11 countdown: everyone starts at 7
    StartScoredGame("night", "auction-pitch", {"scoring": "countdown"}),
    ScoreEntry("night", "hand", {"pitcher": "ann", "bid": 2, "high": "ann", "low": "bob", "jack": "ann",
                                 "game": "cy"}, by="host"),
    ScoreEntry("night", "revoke", {"revoker": "di", "pitcher": "bob", "bid": 3, "high": "bob", "low": "bob",
                                   "game": "cy"}, by="host"),
    UndoEntry("night", 1, reason="misheard", by="host"),
]


def test_countdown_pitch_with_a_revoke_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite"
    table = TableState()
    with EventStore.open(path) as store:
        for op in SESSION:
            table.apply(op)
            store.append(op)
    before = table.to_json()
    with EventStore.open(path) as store:
        rebuilt = rebuild_state(store)
    assert rebuilt.to_json() == before
    scorer = book(rebuilt, "night").current.scorer
    # RULES C11: after the undo only the revoke counts: bob 2 made, di set back 3, cy 1
    assert scorer.totals == {"ann": 7, "bob": 5, "cy": 6, "di": 10}
    assert [a.action for a in book(rebuilt, "night").audit][-1] == "undo"


_deal = st.tuples(st.lists(st.integers(0, 3), min_size=4, max_size=4).filter(lambda h: sum(h) <= 13),
                  st.integers(0, 3), st.booleans())


# RULES C4 chip settlements: the players' net chips plus the pot are always zero
@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["pot", "sweepstakes"]), st.lists(_deal, min_size=1, max_size=8))
def test_hearts_chip_settlements_conserve_chips(settlement: str,
                                                deals: list[tuple[list[int], int, bool]]) -> None:
    sb = Scorebook("chips", PLAYERS)
    sb.start_game("hearts", {"settlement": settlement})
    for hearts, queen, revoke in deals:
        if revoke:
            sb.enter("revoke", {"player": PLAYERS[queen]})
            continue
        counts = dict(zip(PLAYERS, hearts, strict=True))
        counts[PLAYERS[-1]] += 13 - sum(hearts)
        sb.enter("hand", {"hearts": counts, "queen": PLAYERS[queen]})
        scorer = sb.current.scorer
        assert sum(scorer.totals.values()) + scorer.pot == 0
    scorer = sb.current.scorer
    assert sum(scorer.totals.values()) + scorer.pot == 0 and scorer.pot >= 0
