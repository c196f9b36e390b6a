"""A casino night: several tables in one server, named players and the cage between them.

Each table is a :class:`~dealer.table.host.TableHost` with its own log, devices, pause and event
stream. The :class:`~dealer.table.cage.Cage` keeps the guest list and every move of chips. A sit
or a stand is two records: the cage's first (the move), then the table's ``chips.transfer``
naming it (``night #12``); a crash between the two is finished when the night opens again.

At a night's table only the seated players play (autoplay bets for them, with the chips they
brought); a player who stands mid-round leaves when the round is over. ``dealer serve`` without a
night file runs a night of one table, so the single-table routes and the night's routes agree.
"""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealer.config import ConfigError, NightSettings
from dealer.core.errors import DealerError, IllegalOperation
from dealer.core.table_state import TransferChips
from dealer.store import Record
from dealer.table.cage import (
    MOVE_TAG,
    AddPlayer,
    BuyIn,
    Cage,
    CashOut,
    Leave,
    Rebuy,
    Seat,
    Sit,
    Stand,
    UnknownName,
)
from dealer.table.games import game_entry
from dealer.table.host import TableHost, chips_in_play
from dealer.table.hub import EventHub
from dealer.table.players import Seating
from dealer.table.setup import GAME_SOURCE

log = logging.getLogger(__name__)
WATCH_EVERY = 0.5  # seconds: a table without autoplay is checked this often for players leaving
_TAG = re.compile(re.escape(MOVE_TAG) + r"(\d+)")


@dataclass
class NightTable:
    id: str
    name: str
    host: TableHost


class Night:
    """Every table of the night and the cage. Thread-safe: moves of chips are serialised."""

    def __init__(self, tables: list[NightTable], cage: Cage, *, name: str = "Casino night",
                 settings: NightSettings | None = None, own_seats_only: bool = True) -> None:
        self.tables = {t.id: t for t in tables}
        self.cage = cage
        self.name = name
        self.settings = settings
        self.own_seats_only = own_seats_only  # False: a lone table's simulated seats play while empty
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        self.hub = EventHub()  # the cage's stream: one message per move of chips, for the lobby
        for table in tables:
            self._attach(table)

    # ---- opening and closing ---------------------------------------------------------------------
    @classmethod
    def open(cls, settings: NightSettings, *, devices: bool = True) -> Night:
        """Open every table of a night file (resuming each from its log) and the cage."""
        check_games(settings)
        settings.night.dir.mkdir(parents=True, exist_ok=True)
        cage = Cage.open(settings.cage_db)
        tables: list[NightTable] = []
        try:
            for spec in settings.tables:
                host = TableHost.open(settings.table_settings(spec), devices=devices)
                host.autoplay_on_start = spec.autoplay
                tables.append(NightTable(spec.id, spec.name or spec.id, host))
        except DealerError:
            for table in tables:
                table.host.stop()
            cage.close()
            raise
        except Exception as exc:  # a device that does not answer, a port that does not open...
            for table in tables:
                table.host.stop()
            cage.close()
            raise DealerError(f"table {spec.id!r} ({spec.game}) did not open: {exc}") from exc
        except BaseException:
            for table in tables:
                table.host.stop()
            cage.close()
            raise
        night = cls(tables, cage, name=settings.night.name, settings=settings)
        try:
            for guest in settings.night.guests:
                if cage.state.by_name(guest) is None:
                    night.add_player(guest)
            night.recover()
        except BaseException:
            night.stop()
            raise
        return night

    @classmethod
    def around(cls, host: TableHost) -> Night:
        """A night of the one table ``dealer serve`` runs without a night file."""
        db = Path(host.settings.table.db)
        cage = Cage.open(db.with_name(f"{db.stem}-cage{db.suffix or '.db'}"))
        name = host.settings.table.name
        night = cls([NightTable(name, name, host)], cage, name=name, own_seats_only=False)
        night.recover()
        return night

    def start(self) -> None:
        for table in self.tables.values():
            table.host.start()
        self._stop.clear()
        self._watcher = threading.Thread(target=self._watch, name="night-seats", daemon=True)
        self._watcher.start()

    def stop(self) -> None:
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join(timeout=5)
        for table in self.tables.values():
            try:
                table.host.stop()
            except Exception as exc:  # one table's device failing to close must not keep the others open
                log.warning("closing table %s: %s", table.id, exc)
        self.cage.close()

    @property
    def default(self) -> TableHost:
        return next(iter(self.tables.values())).host

    def table(self, table_id: str) -> NightTable:
        try:
            return self.tables[table_id]
        except KeyError:
            raise UnknownName(f"no table {table_id!r}: this night has {', '.join(self.tables)}") from None

    def host(self, table_id: str) -> TableHost:
        return self.table(table_id).host

    def _attach(self, table: NightTable) -> None:
        host = table.host
        host.seating = lambda: self._seating(table.id)
        host.before_step = lambda: self._let_players_leave(table.id)
        if self.own_seats_only:  # nobody seated: the table waits (it deals no coup to an empty layout)
            host.idle = lambda: not self._seated(table.id)
        host.table.extras = lambda state: {"table_id": table.id, "table_name": table.name,
                                           "players": self._players_at(table.id, host, state)}

    def _announce(self, record: Record) -> None:
        """Tell the night's stream (the lobby) about a move, once both its logs have it."""
        if self.hub.subscribers:
            self.hub.publish("cage", {"seq": record.seq, "kind": record.kind, "record": record.data,
                                      "players": self.players(), "tables": self.tables_json()})

    # ---- who plays -------------------------------------------------------------------------------
    def _seated(self, table_id: str) -> dict[int, str]:
        return {seat.seat: pid for seat, pid in self.cage.state.seats.items() if seat.table == table_id}

    def _seating(self, table_id: str) -> Seating | None:
        seated = self._seated(table_id)
        if not seated and not self.own_seats_only:
            return None  # a lone simulated table: its simulated seats play
        playing = sorted(n for n in seated if Seat(table_id, n) not in self.cage.state.leaving)
        return Seating(tuple(playing), buy_in=False)

    def _players_at(self, table_id: str, host: TableHost, state: Any) -> list[dict[str, Any]]:
        players = self.cage.state.players
        return [{"seat": n, "player_id": pid, "name": players[pid].name, "chips": seat_chips(host, state, n),
                 "leaving": Seat(table_id, n) in self.cage.state.leaving}
                for n, pid in sorted(self._seated(table_id).items())]

    # ---- the cage --------------------------------------------------------------------------------
    def players(self) -> list[dict[str, Any]]:
        return [self.player_json(pid) for pid in self.cage.state.players]

    def player_json(self, player_id: str) -> dict[str, Any]:
        player = self.cage.state.player(player_id)
        out = player.to_json()
        chips = None
        if player.seat is not None and player.seat.table in self.tables:
            host = self.tables[player.seat.table].host
            chips = seat_chips(host, host.table.state, player.seat.seat)
            out["at_table"]["chips"] = chips
        out["chips"] = player.stack + (chips or 0)
        return out

    def add_player(self, name: str) -> dict[str, Any]:
        with self._lock:
            record = self.cage.submit(AddPlayer(self.cage.next_player_id(), name))
            self._announce(record)
            return self.player_json(str(record.data["player_id"]))

    def buy_in(self, player_id: str, amount: int, *, rebuy: bool = False) -> dict[str, Any]:
        self._check_amount(amount)
        with self._lock:
            self._announce(self.cage.submit((Rebuy if rebuy else BuyIn)(player_id, amount)))
            return self.player_json(player_id)

    def cash_out(self, player_id: str) -> dict[str, Any]:
        with self._lock:
            player = self.cage.state.player(player_id)
            self._announce(self.cage.submit(CashOut(player_id, player.stack)))
            return {**self.player_json(player_id), "paid": player.stack}

    def cage_log(self, player_id: str | None = None, last: int = 200) -> list[dict[str, Any]]:
        """The newest records of the cage's log (one player's, when ``player_id`` is given), with
        player names, oldest first."""
        if player_id is not None:
            self.cage.state.player(player_id)
        names = {pid: p.name for pid, p in self.cage.state.players.items()}
        rows = [{**r.to_json(), "name": names.get(str(r.data.get("player_id")), "")}
                for r in self.cage.records() if player_id is None or r.data.get("player_id") == player_id]
        return rows[-max(1, min(last, 5000)):]

    def _check_amount(self, amount: int) -> None:
        most = None if self.settings is None else self.settings.night.max_buy_in
        if most is not None and amount > most:
            raise IllegalOperation(f"{amount} chips is more than this night's largest buy-in ({most}); "
                                   "check the amount or raise night.max_buy_in")

    # ---- seats -----------------------------------------------------------------------------------
    def sit(self, table_id: str, player_id: str, seat: int, chips: int) -> dict[str, Any]:
        """``player_id`` sits at ``seat`` with ``chips`` from their stack."""
        table = self.table(table_id)
        host = table.host
        with self._lock, host.step_lock, host.table.lock:
            player = self.cage.state.player(player_id)
            most = seat_count(host)
            if not 1 <= seat <= most:
                raise IllegalOperation(f"{table.name} has seats 1 to {most}, not {seat}")
            left = host.table.state.ledger.balance(f"seat-{seat}")
            if left and Seat(table_id, seat) not in self.cage.state.seats:
                raise IllegalOperation(f"seat {seat} at {table.name} still holds {left} chips of an earlier "
                                       "(simulated) player: choose another seat")
            op = Sit(player_id, table_id, seat, chips)
            op.verify(self.cage.state)
            record = self.cage.submit(op)
            host.table.submit(TransferChips("cage", f"seat-{seat}", chips,
                                            f"{MOVE_TAG}{record.seq}: {player.name} sits"))
            self._announce(record)
            return {"table": table_id, "seat": seat, "player": self.player_json(player_id)}

    def stand(self, table_id: str, seat: int) -> dict[str, Any]:
        """The player at ``seat`` stands with every chip the seat holds; mid-round they leave when
        the round is over (``status: leaving``)."""
        table = self.table(table_id)
        host = table.host
        with self._lock, host.step_lock, host.table.lock:
            where = Seat(table_id, seat)
            player_id = self.cage.state.seats.get(where)
            if player_id is None:
                raise IllegalOperation(f"nobody sits at seat {seat} of {table.name}")
            if self._stand_now(table, where):
                return {"status": "stood", "table": table_id, "seat": seat,
                        "player": self.player_json(player_id)}
            if where not in self.cage.state.leaving:
                self.cage.submit(Leave(player_id, table_id, seat))
            in_play = chips_in_play(host.table.state)
            return {"status": "leaving", "table": table_id, "seat": seat, "in_play": in_play,
                    "player": self.player_json(player_id),
                    "detail": f"a round is in play ({in_play} chips on the layout): "
                              f"{self.cage.state.players[player_id].name} stands when it is over"}

    def move(self, player_id: str, table_id: str, seat: int, chips: int | None = None) -> dict[str, Any]:
        """Stand the player up where they sit and sit them at ``table_id``/``seat`` with ``chips``
        (default: every chip they have). Mid-round they are marked leaving and the move is refused."""
        self.table(table_id)
        with self._lock:
            player = self.cage.state.player(player_id)
            if player.seat is not None:
                if player.seat == Seat(table_id, seat):
                    raise IllegalOperation(f"{player.name} already sits at {table_id} seat {seat}")
                stood = self.stand(player.seat.table, player.seat.seat)
                if stood["status"] != "stood":
                    raise IllegalOperation(f"{stood['detail']}; move them then")
            stack = self.cage.state.player(player_id).stack
            return self.sit(table_id, player_id, seat, stack if chips is None else chips)

    def _stand_now(self, table: NightTable, where: Seat) -> bool:
        """Stand the player at ``where`` if no round is in play; False when one is."""
        host = table.host
        if not self._seat_free(host, where.seat):
            return False
        player_id = self.cage.state.seats[where]
        game: Any = host.table.game
        if host.table.game_name == "slots" and game is not None:
            machine = machine_for(game, where.seat)
            if machine is not None and game.machines[machine].meters["credits"]:
                from dealer.core.games.slots import CashOut as MachineCashOut

                host.table.submit(MachineCashOut(machine, f"seat-{where.seat}"))
        chips = host.table.state.ledger.balance(f"seat-{where.seat}")
        record = self.cage.submit(Stand(player_id, where.table, where.seat, chips))
        name = self.cage.state.players[player_id].name
        if chips:
            host.table.submit(TransferChips(f"seat-{where.seat}", "cage", chips,
                                            f"{MOVE_TAG}{record.seq}: {name} stands"))
        else:
            host.table.hub.publish("state", {"seq": host.table.store.last_seq, "kind": "night.stand",
                                             "state": host.table.public_state()})
        self._announce(record)
        return True

    def _seat_free(self, host: TableHost, seat: int) -> bool:
        """No chips of this seat are in play. At faro, bets lie on the layout from turn to turn:
        the leaving player's bets are taken back between turns, whatever the others have down."""
        game: Any = host.table.game
        if host.table.game_name != "faro" or game is None:
            return not chips_in_play(host.table.state)
        account = f"seat-{seat}"
        if any(who == account for who, _ in game.calls):
            return False
        mine = [(rank, coppered) for (who, rank, coppered) in game.bets if who == account]
        if mine and not game.betting_open:
            return False
        from dealer.core.games.faro import WithdrawBet

        for rank, coppered in mine:
            host.table.submit(WithdrawBet(account, rank.code, coppered))
        return True

    def _let_players_leave(self, table_id: str) -> None:
        """Before each step of play (and now and then): players waiting for the round's end leave."""
        table = self.tables[table_id]
        leaving = sorted((w for w in self.cage.state.leaving if w.table == table_id), key=lambda w: w.seat)
        for where in leaving:
            with table.host.table.lock:
                try:
                    self._stand_now(table, where)
                except DealerError as exc:
                    log.warning("%s seat %s could not leave: %s", table_id, where.seat, exc)

    def _watch(self) -> None:
        while not self._stop.wait(WATCH_EVERY):
            for table in self.tables.values():
                waiting = any(w.table == table.id for w in self.cage.state.leaving)
                if waiting and table.host.step_lock.acquire(timeout=0.1):
                    try:
                        self._let_players_leave(table.id)
                    finally:
                        table.host.step_lock.release()

    # ---- games -----------------------------------------------------------------------------------
    def change_game(self, table_id: str, game: str, rules: str = "", *, end_shoe: bool = False) -> Record:
        return self.host(table_id).change_game(game, rules, end_shoe=end_shoe)

    def about(self) -> dict[str, Any]:
        """The night's name and cage settings (the usual buy-in and the chip values, for the pages)."""
        cage = None if self.settings is None else self.settings.night
        return {"name": self.name, "tables": list(self.tables),
                "buy_in": 500 if cage is None else cage.buy_in,
                "max_buy_in": None if cage is None else cage.max_buy_in,
                "denominations": [1, 5, 25, 100, 500] if cage is None else list(cage.denominations)}

    def tables_json(self) -> list[dict[str, Any]]:
        out = []
        for table in self.tables.values():
            host = table.host
            out.append({"id": table.id, "name": table.name, "game": host.table.game_name,
                        "mode": host.settings.table.mode, "paused": host.table.paused,
                        "autoplay": host.autoplay, "seats": seat_count(host), "camera": host.has_camera,
                        "players": self._players_at(table.id, host, host.table.state)})
        return out

    # ---- recovery --------------------------------------------------------------------------------
    def recover(self) -> None:
        """Finish what a crash interrupted: a move logged at the cage but not yet at its table, a
        change of game logged as begun but not finished."""
        done: dict[str, set[int]] = {t: set() for t in self.tables}
        for table_id, table in self.tables.items():
            for record in table.host.table.store.records():
                if record.kind == TransferChips.kind:
                    match = _TAG.match(str(record.data.get("reason", "")))
                    if match:
                        done[table_id].add(int(match.group(1)))
        for record in self.cage.records():
            if record.kind not in (Sit.kind, Stand.kind):
                continue
            data = record.data
            table_id, seat, chips = str(data["table"]), int(data["seat"]), int(data["chips"])
            if table_id not in self.tables or record.seq in done[table_id] or not chips:
                continue
            runtime = self.tables[table_id].host.table
            name = self.cage.state.players[str(data["player_id"])].name
            if record.kind == Sit.kind:
                op = TransferChips("cage", f"seat-{seat}", chips, f"{MOVE_TAG}{record.seq}: {name} sits")
            else:
                held = runtime.state.ledger.balance(f"seat-{seat}")
                op = TransferChips(f"seat-{seat}", "cage", min(chips, held),
                                   f"{MOVE_TAG}{record.seq}: {name} stands")
            log.warning("finishing %s of cage record %d at %s after a restart", record.kind, record.seq,
                        table_id)
            runtime.submit(op)
        for table in self.tables.values():
            if GAME_SOURCE in table.host.table.state.paused:
                table.host.finish_game_change()


def check_games(settings: NightSettings) -> None:
    """Every table's game and house rules exist (a ConfigError naming the table otherwise)."""
    for i, spec in enumerate(settings.tables):
        if spec.game != "none":
            try:
                game_entry(spec.game).opening(spec.rules, spec.game)
            except DealerError as exc:
                raise ConfigError(f"tables.{i} (id {spec.id!r}): key 'game' / 'rules': {exc}") from None


def seat_count(host: TableHost) -> int:
    game: Any = host.table.game
    if host.table.game_name == "slots" and game is not None:
        return len(game.machines)  # one player per machine
    return host.settings.table.seats


def machine_for(game: Any, seat: int) -> str | None:
    machines = sorted(game.machines)
    return machines[seat - 1] if 1 <= seat <= len(machines) else None


def seat_chips(host: TableHost, state: Any, seat: int) -> int:
    """The chips a seat holds: its account, plus the credits on its slot machine."""
    chips = int(state.ledger.balance(f"seat-{seat}"))
    game = state.games.get("slots") if host.table.game_name == "slots" else None
    if game is not None:
        machine = machine_for(game, seat)
        if machine is not None:
            m = game.machines[machine]
            chips += int(m.meters["credits"]) * int(m.denomination)
    return chips

