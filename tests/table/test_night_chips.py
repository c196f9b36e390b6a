"""Chips are conserved across a whole night (property test over random evenings).

Random sequences of buy-ins, rebuys, sits, rounds of play, stands, moves and cash-outs at three tables
(blackjack, baccarat, slot machines).
After every step the cage's books and the tables' own ledgers must agree, and every chip sold and
not cashed must be in a player's stack or at a table. Refused moves are fine; they change nothing.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer.config import NightSettings
from dealer.core.errors import IllegalOperation
from dealer.table.night import Night
from dealer.table.report import night_report

TABLES = ("bj", "bac", "sl")
PLAYERS = ("p1", "p2", "p3")

amounts = st.sampled_from((1, 7, 50, 100, 250, 1000))
action = st.one_of(
    st.tuples(st.just("buy"), st.sampled_from(PLAYERS), amounts),
    st.tuples(st.just("rebuy"), st.sampled_from(PLAYERS), amounts),
    st.tuples(st.just("sit"), st.sampled_from(PLAYERS), st.sampled_from(TABLES), st.integers(1, 3),
              st.sampled_from((1, 2, 3))),  # bring a third, half or all of the stack
    st.tuples(st.just("play"), st.sampled_from(TABLES), st.integers(1, 25)),
    st.tuples(st.just("stand"), st.sampled_from(TABLES), st.integers(1, 3)),
    st.tuples(st.just("cash"), st.sampled_from(PLAYERS)),
    st.tuples(st.just("move"), st.sampled_from(PLAYERS), st.sampled_from(TABLES), st.integers(1, 3)),
)


def check_books(night: Night) -> None:
    cage = night.cage.state
    at_tables = 0
    for table_id, table in night.tables.items():
        ledger = table.host.table.state.ledger
        assert ledger.total() == 0  # a table never makes or loses a chip
        held = -ledger.balance("cage")  # what this table's log says players brought and did not take
        assert held == cage.to_tables.get(table_id, 0) - cage.from_tables.get(table_id, 0)
        at_tables += held
    sold = sum(p.bought - p.cashed for p in cage.players.values())
    assert sold == sum(p.stack for p in cage.players.values()) + at_tables
    assert all(p.stack >= 0 for p in cage.players.values())
    assert night_report(night)["totals"]["balanced"]


def do(night: Night, step: tuple) -> None:  # type: ignore[type-arg]
    kind = step[0]
    if kind == "buy":
        night.buy_in(step[1], step[2])
    elif kind == "rebuy":
        night.buy_in(step[1], step[2], rebuy=True)
    elif kind == "sit":
        _, player, table, seat, share = step
        stack = night.cage.state.players[player].stack
        night.sit(table, player, seat, max(1, stack * share // 3))
    elif kind == "play":
        host = night.host(step[1])
        for _ in range(step[2]):
            host.step()
    elif kind == "stand":
        night.stand(step[1], step[2])
    elif kind == "move":
        night.move(step[1], step[2], step[3])
    else:
        night.cash_out(step[1])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(action, min_size=3, max_size=14))
def test_chips_are_conserved_across_the_night(steps: list[tuple]) -> None:  # type: ignore[type-arg]
    folder = Path(tempfile.mkdtemp(prefix="night-"))
    night = Night.open(NightSettings(
        night={"dir": folder, "guests": ("Ann", "Bob", "Cy")},
        tables=[{"id": "bj", "game": "blackjack", "pace_ms": 0},
                {"id": "bac", "game": "baccarat", "pace_ms": 0},
                {"id": "sl", "game": "slots", "pace_ms": 0}]))
    try:
        for step in steps:
            with contextlib.suppress(IllegalOperation):  # a refusal changes nothing: the books hold
                do(night, step)
            check_books(night)
        # the end of the night: everyone stands (after their round) and cashes out
        for table_id, table in night.tables.items():
            for seat in list(s.seat for s in night.cage.state.seats if s.table == table_id):
                night.stand(table_id, seat)
            for _ in range(300):
                if not any(s.table == table_id for s in night.cage.state.seats):
                    break
                table.host.step()
        for player in PLAYERS:
            night.cash_out(player)
        check_books(night)
        cage = night.cage.state
        assert not cage.seats and all(p.stack == 0 for p in cage.players.values())
        won = sum(-t.host.table.state.ledger.balance("cage") for t in night.tables.values())
        bought, cashed = (sum(getattr(p, k) for p in cage.players.values()) for k in ("bought", "cashed"))
        assert bought - cashed == won
    finally:
        night.stop()
        shutil.rmtree(folder, ignore_errors=True)
