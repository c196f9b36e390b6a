"""Everything one running table owns: the table runtime, its devices, camera, tokens and automation.

``dealer serve`` builds one :class:`TableHost` from the settings; the API's lifespan starts it and
stops it. In simulated mode the host runs the game by itself (the engine deals and decides); in live
mode it waits for cards from the shoe, the camera or the dealer.
"""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import firmware_bridge as fb
from dealer.config import Settings
from dealer.core.cards import parse_card
from dealer.core.errors import DealerError, IllegalOperation
from dealer.core.games.base import Step
from dealer.core.operations import Operation, operation_from_payload
from dealer.core.rng import Rng
from dealer.core.shoe import BurnRule, CutRule, ShoeMode
from dealer.core.table_state import (
    DealCard,
    DisputeCard,
    LoadShoe,
    ObserveShoe,
    PauseTable,
    ResolveDispute,
    ResumeTable,
    ShuffleShoe,
)
from dealer.store import Record, Role, TokenInfo, TokenStore, load_operation_modules
from dealer.table.autoplay import next_operation
from dealer.table.games import find_entry, game_entry, open_game
from dealer.table.intake import CardIntake, Decision, Verdict
from dealer.table.players import Seating
from dealer.table.runtime import Table
from dealer.table.setup import GAME_CHANGE, GAME_SOURCE, burn_after_shuffle, logged_game

if TYPE_CHECKING:  # vision (and OpenCV) load only with a camera
    from dealer.table.camera_view import ViewRecorder

log = logging.getLogger(__name__)

# Operation kinds a dealer may submit through the API; anything else needs an admin.
ADMIN_ONLY_KINDS = ("chips.", "shoe.load", "shoe.observe", "table.void")
CARD_WAIT = 5.0  # seconds simulated play waits for a dealt card to come back from the devices
# accounts that hold no bet: the cage, the house, the seats, slot machines' credits and their pools
NOT_IN_PLAY = ("cage", "house", "seat-", "slot:", "progressive:")
BETWEEN_ROUNDS = (Step.BET, Step.SHUFFLE, Step.DONE)


class NoCamera(DealerError, LookupError):
    """The table has no camera to show (the API answers 404)."""


def chips_in_play(state: Any) -> int:
    """Chips on the layout (bets, stakes) right now: 0 between rounds."""
    return sum(amount for account, amount in state.ledger.balances().items()
               if not account.startswith(NOT_IN_PLAY))


@dataclass
class TableHost:
    settings: Settings
    table: Table
    tokens: TokenStore
    hardware: Any = None  # dealer.table.hardware.TableHardware when devices are configured
    camera: Any = None  # dealer.table.camera.CameraWatcher for a real camera
    autoplay: bool = True
    metrics: Any = None  # the API's metrics registry, set by create_app
    intake: CardIntake = field(default_factory=CardIntake)
    rng: Rng = field(default_factory=Rng.system)
    # a casino night says which seats play (its seated players); None: simulated seats 1-3
    seating: Callable[[], Seating | None] | None = None
    autoplay_on_start: bool | None = None  # None: on for a simulated table
    before_step: Callable[[], None] | None = None  # a night's seat changes wait for a round's end here
    idle: Callable[[], bool] | None = None  # a night's table with nobody seated waits for its players
    _step_lock: threading.RLock = field(default_factory=threading.RLock)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _card_lock: threading.Lock = field(default_factory=threading.Lock)
    _cards_reported: int = 0  # cards from the devices fully handled (simulated play waits on it)
    _card_handled: threading.Condition = field(init=False)

    def __post_init__(self) -> None:
        self._card_handled = threading.Condition(self._card_lock)

    @classmethod
    def open(cls, settings: Settings, *, devices: bool = True) -> TableHost:
        from dealer.table.setup import open_table

        table = open_table(settings)
        host = cls(settings, table, TokenStore(Path(settings.table.db)))
        try:
            if devices and any(getattr(settings.devices, k) != "none" for k in ("shoe", "shuffler", "reels")):
                host._open_hardware()
            if devices and settings.devices.camera not in ("sim", "none"):
                host._open_camera()
        except BaseException:  # e.g. a device shoe that refuses the game's shoe: close what is open
            host.stop()
            raise
        return host

    def _open_camera(self) -> None:
        """A real camera (index, file or URL) is a second witness for every card."""
        from dealer.table.camera import CameraWatcher

        config = self.settings.devices
        self.camera = CameraWatcher(config.camera, self.camera_card, self.camera_correction,
                                    mode=config.camera_mode, window=config.camera_window,
                                    calibration=config.calibration)
        shoe_device = self.hardware is not None and self.hardware.shoe is not None
        self.intake = CardIntake(has_shoe=shoe_device, has_camera=True)

    def _open_hardware(self) -> None:
        from dealer.table.hardware import TableHardware

        self.hardware = TableHardware(self.settings, self._device_operation, self.report_card)
        try:
            self.hardware.open()
        except Exception:
            self.hardware.close()
            raise
        entry, game, shoe = find_entry(self.table.game_name), self.table.game, self.table.state.shoe
        wanted = None if entry is None or game is None else entry.shoe_rules(game)
        pack = wanted.pack if wanted is not None else None if shoe is None else shoe.rules.pack
        if self.hardware.shoe is not None and pack != "standard-52":
            # the shoe device holds standard packs only (pai gow's joker, pinochle...): the engine deals
            self.hardware.release("shoe")
        self._load_game_shoe()
        self.intake = CardIntake(has_shoe=self.hardware.shoe is not None,
                                 has_camera=self.hardware.camera is not None)
        if "reels" in self.hardware.devices:
            self.table.subscribe(self._mirror_reels)
        shoe = self.table.state.shoe
        if self.hardware.shoe is None or shoe is None:
            return
        if shoe.mode is ShoeMode.KNOWN:
            self.table.submit(ObserveShoe())  # the cards now come out of the device
            shoe = self.table.state.require_shoe()
        if self.settings.devices.shoe == "sim" or not shoe.is_shuffled:
            # a new simulator process is a new physical shoe: load it so the counts start clean
            self._shuffle_device_shoe()

    def _mirror_reels(self, record: Record, state: Any) -> None:
        if record.kind == "slots.spin" and self.hardware is not None:
            self.hardware.show_spin(tuple(record.data["stops"]))

    def _load_game_shoe(self) -> None:
        """A game dealt from its own shoe (one pack for faro...): load it, observed, for the device."""
        entry, game, shoe = find_entry(self.table.game_name), self.table.game, self.table.state.shoe
        wanted = None if entry is None or game is None else entry.shoe_rules(game)
        if self.hardware.shoe is None or wanted is None or (shoe is not None and shoe.rules == wanted):
            return
        self.table.submit(LoadShoe(decks=wanted.decks, pack=wanted.pack, cut_min=wanted.cut.min_behind,
                                   cut_max=wanted.cut.max_behind, burn=wanted.burn, mode=ShoeMode.OBSERVED))

    @property
    def require_tokens(self) -> bool:
        return self.settings.server.require_tokens

    def start(self) -> None:
        self._stop.clear()
        if self.camera is not None:
            self.camera.start()
        self.autoplay = (self.settings.table.mode == "simulated" if self.autoplay_on_start is None
                         else self.autoplay_on_start)
        self._thread = threading.Thread(target=self._run, name="autoplay", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self.camera is not None:
            self.camera.stop()
        if self.hardware is not None:
            self.hardware.close()
        self.tokens.close()
        self.table.close()

    def set_autoplay(self, on: bool) -> None:
        """Simulated play on or off. Off returns once the step in progress has finished, and no
        other step starts after it: the dealer takes over a table that has stopped moving."""
        if not on:
            # first, so that a step loop re-taking the (unfair) lock at once cannot keep the dealer
            # waiting: every later step sees it under the lock and does nothing
            self.autoplay = False
        with self._step_lock:  # the step in progress, if any, finishes first
            self.autoplay = on
        self.table.hub.publish("autoplay", {"on": on})

    # ---- simulated play --------------------------------------------------------------------------
    def _run(self) -> None:
        pace = self.settings.table.pace_ms / 1000
        while not self._stop.is_set():
            acted = False
            if self.autoplay:
                try:
                    acted = self._autoplay_step()
                except DealerError as exc:  # the game refused its own move: show it and hand over
                    log.warning("autoplay stopped: %s", exc)
                    self.table.hub.publish("error", {"detail": str(exc)})
                    self.autoplay = False
                except Exception as exc:  # a device failure: keep serving, retry after a pause
                    log.warning("autoplay step failed: %s", exc)
                    self.table.hub.publish("error", {"detail": f"device: {exc}"})
                    self._stop.wait(1.0)
            self._stop.wait(pace if acted else max(pace, 0.05))

    @property
    def step_lock(self) -> threading.RLock:
        """Held for each step of simulated play: hold it to change seats between two steps."""
        return self._step_lock

    def step(self) -> bool:
        """One step of simulated play; False when there is nothing to do right now."""
        with self._step_lock:
            return self._step()

    def _autoplay_step(self) -> bool:
        with self._step_lock:  # autoplay may have been turned off while this thread waited here
            return self.autoplay and self._step()

    def _step(self) -> bool:
        if self.before_step is not None:
            self.before_step()
        if self.idle is not None and self.idle():
            return False
        prompt = self.table.prompt()
        device = None if self.hardware is None else self.hardware.shoe
        if prompt is None or self.table.paused:
            return False
        if device is not None and prompt.step is Step.CARD:
            before = self._cards_reported
            try:
                device.deal()
            except fb.ShoeEmptyError:  # the game wants more cards than the device holds: reload it
                self._shuffle_device_shoe()
                return True
            with self._card_handled:  # until the card has gone all the way to the game
                self._card_handled.wait_for(lambda: self._cards_reported > before, CARD_WAIT)
            return True
        shoe = self.table.state.shoe
        if device is not None and prompt.step is Step.SHUFFLE and (
                shoe is None or not shoe.is_shuffled or shoe.cards_out):
            self._shuffle_device_shoe()
            return True  # a game that deals itself anew (faro...) answers the fresh shoe next step
        seating = None if self.seating is None else self.seating()
        op = next_operation(self.table, self.rng, 3 if seating is None else seating)
        if op is None:
            return False
        self.table.submit(op)
        return True

    def _shuffle_device_shoe(self) -> None:
        shoe = self.table.state.require_shoe()
        cut = shoe.rules.cut.choose(self.rng)
        self.table.submit(ShuffleShoe(cut_behind=cut))
        assert self.hardware is not None and self.hardware.shoe is not None
        self.hardware.shoe.load(shoe.rules.decks, cut_from_bottom=cut)

    # ---- another game between shoes -------------------------------------------------------------
    def change_game(self, game: str, rules: str = "", *, end_shoe: bool = False) -> Record:
        """Play ``game`` from now on. Between rounds only, and between shoes unless ``end_shoe``
        closes the current shoe early; logged as a pause of the table while the game changes."""
        entry = game_entry(game)  # an unknown game is refused with the list of games
        with self._step_lock, self.table.lock:
            old = self.table.game_name or "none"
            if game == old:
                raise IllegalOperation(f"{self.table.name} already plays {game}")
            self.verify_between_shoes(end_shoe=end_shoe)
            if game not in self.table.state.games:  # bad house rules are refused before anything is logged
                trial = copy.deepcopy(self.table.state)
                for op in entry.opening(rules, game):
                    trial.apply(op)
            self._cash_out_machines()
            record = self.table.submit(PauseTable(GAME_SOURCE, f"{GAME_CHANGE}{old} -> {game}"))
            self.finish_game_change(rules)
            return record

    def verify_between_shoes(self, *, end_shoe: bool = False) -> None:
        game, state = self.table.game, self.table.state
        if game is None:
            return
        in_play = chips_in_play(state)
        if in_play:
            raise IllegalOperation(f"a round is in play at {self.table.name} ({in_play} chips on the "
                                   "layout): change the game between rounds")
        prompt = game.prompt()
        entry = find_entry(self.table.game_name)
        # a game dealt card by card with bets between the cards (faro...) is between rounds whenever
        # no chips lie on its layout
        own_count = entry is not None and entry.counts_own_cards and prompt.step is Step.CARD
        if prompt.step not in BETWEEN_ROUNDS and not (own_count and end_shoe):
            raise IllegalOperation(f"a round is in play at {self.table.name} (it waits for "
                                   f"{prompt.step.value}): change the game between rounds")
        shoe = state.shoe
        if shoe is not None and shoe.dealt and prompt.step is not Step.SHUFFLE and not end_shoe:
            raise IllegalOperation(f"the shoe at {self.table.name} is under way ({len(shoe.dealt)} cards "
                                   "dealt): change the game when it is finished, or end it now (end_shoe)")

    def _cash_out_machines(self) -> None:
        """Leaving the slot machines: every credit back to the seat that plays the machine."""
        game: Any = self.table.game
        if self.table.game_name != "slots" or game is None:
            return
        from dealer.core.games.slots import CashOut

        for seat, name in enumerate(sorted(game.machines), 1):
            if game.machines[name].meters["credits"]:
                self.table.submit(CashOut(name, f"seat-{seat}"))

    def finish_game_change(self, rules: str = "") -> None:
        """Open the logged new game, load it a fresh shoe and resume (also after a crash mid-change)."""
        with self._step_lock, self.table.lock:
            name = logged_game(self.table.store) or self.table.game_name or "none"
            self.table.switch_game(name)
            open_game(self.table, name, rules)
            self._fresh_shoe()
            if GAME_SOURCE in self.table.state.paused:
                self.table.submit(ResumeTable(GAME_SOURCE))

    def _fresh_shoe(self) -> None:
        config = self.settings.shoe
        device = self.hardware is not None and self.hardware.shoe is not None
        mode = ShoeMode.KNOWN if self.settings.table.mode == "simulated" and not device else ShoeMode.OBSERVED
        self.table.submit(LoadShoe(decks=config.decks, pack=config.pack, cut_min=config.cut_min,
                                   cut_max=config.cut_max, burn=BurnRule(config.burn), mode=mode))
        if device:
            self._load_game_shoe()
            self._shuffle_device_shoe()
        elif mode is ShoeMode.KNOWN:
            cut = CutRule(config.cut_min, config.cut_max).choose(self.rng)
            self.table.submit(ShuffleShoe(cut_behind=cut))
            burn_after_shuffle(self.table)

    # ---- cards from the devices ------------------------------------------------------------------
    def _device_operation(self, op: Operation) -> None:
        if isinstance(op, ResumeTable) and op.source not in self.table.state.paused:
            return  # a clearing event for a fault that never paused the table
        self.table.submit(op)

    def report_card(self, shoe_code: str | None, camera_code: str | None) -> None:
        """A card left the device shoe; the simulated camera's reading comes with it."""
        with self._card_lock:
            decisions: list[Decision | None] = []
            if self.intake.has_camera and camera_code is not None:
                decisions.append(self.intake.camera_card(camera_code))
            decisions.append(self.intake.shoe_card(shoe_code))
            if self.intake.has_camera and camera_code is None:
                decisions.append(self.intake.camera_missed())
            try:
                for decision in decisions:
                    if decision is not None:
                        self._decide(decision)
            finally:
                self._cards_reported += 1
                self._card_handled.notify_all()

    def camera_card(self, code: str) -> None:
        """A real camera saw a new card (debounced by its tracker)."""
        with self._card_lock:
            try:
                self._decide(self.intake.camera_card(code))
            finally:
                self._cards_reported += 1
                self._card_handled.notify_all()

    def camera_correction(self, was: str, really: str) -> None:
        """The camera's reading of the last card changed: correct that record if it holds the card.

        A correction the table refuses is a warning. Every viewer hears it, and the card may lie
        face down (a hole card, a double-down card, a burn): which record lies face up is known
        only to the game, so the warning names the record, not the cards (nor the refusal, which
        may name them); the server's log keeps the readings for the dealer and the admin."""
        with self._card_lock:
            for record in reversed(self.table.store.tail(20)):
                if record.data.get("card") == was:
                    try:
                        self.table.correct(record.seq, parse_card(really), "the camera corrected its reading")
                    except IllegalOperation as exc:
                        log.warning("camera correction %s -> %s of record %d refused: %s",
                                    was, really, record.seq, exc)
                        detail = (f"the camera saw a different card at record {record.seq}; the record "
                                  "stands until the dealer corrects it")
                        self.table.hub.publish("warning", {"detail": detail, "seq": record.seq})
                    return

    def _decide(self, decision: Decision) -> None:
        if decision.verdict is Verdict.ACCEPT and decision.card is not None:
            self._deal(decision.card)
        elif decision.verdict is Verdict.DISPUTE and decision.issue is not None:
            self.table.submit(DisputeCard(decision.issue, decision.shoe, decision.camera))

    def _deal(self, code: str) -> Record:
        card = parse_card(code)
        game = self.table.game
        if game is not None:
            entry = find_entry(self.table.game_name)
            counted: Record | None = None
            if entry is not None and entry.counts_own_cards:  # the game does not record the shoe
                counted = self.table.submit(DealCard(card))
            try:
                return self.table.submit(game.card_operation(card))
            except IllegalOperation as exc:
                # no game holds the card, so none shows it: it may be a card burnt by hand, face
                # down. Viewers hear that a card came out, the server's log which one. It left the
                # shoe either way: count it, once (a game that counts its own cards counted it above)
                record = counted if counted is not None else self.table.submit(DealCard(card))
                log.warning("%s came out of turn (record %d): %s", code, record.seq, exc)
                detail = f"a card came out of turn (record {record.seq}): it counts as dealt"
                self.table.hub.publish("warning", {"detail": detail, "seq": record.seq})
                return record
        return self.table.submit(DealCard(card))

    # ---- what the API may ask --------------------------------------------------------------------
    def role_for(self, token: str | None) -> Role | None:
        """The role a request has: ADMIN on a token-less loopback table, else the token's role."""
        if not self.require_tokens:
            return Role.ADMIN
        if not token:
            return None
        info: TokenInfo | None = self.tokens.lookup(token)
        return None if info is None else info.role

    def submit(self, kind: str, payload: dict[str, Any], role: Role) -> Record:
        load_operation_modules()
        if kind.startswith(ADMIN_ONLY_KINDS) and role < Role.ADMIN:
            raise PermissionError(f"{kind} needs the admin role")
        op: Operation = operation_from_payload(kind, payload)
        return self.table.submit(op)

    def act(self, option: str, target: str | None = None, amount: int | None = None) -> Record:
        """The dealer picks one of the prompt's options (hit, stand, draw...), or ``shuffle`` when
        the table waits for one (a physical shoe: the cut card's place is reported by the shoe).
        ``target`` and ``amount`` name what a button acts on where the game needs it (a slot
        machine and its coins)."""
        prompt = self.table.prompt()
        if option == "shuffle" and prompt is not None and prompt.step is Step.SHUFFLE:
            shoe = self.table.state.require_shoe()
            cut = None if shoe.mode is ShoeMode.OBSERVED else shoe.rules.cut.choose(self.rng)
            return self.table.submit(ShuffleShoe(cut_behind=cut))
        if prompt is None or option not in prompt.options:
            offered = ", ".join(prompt.options) if prompt and prompt.options else "nothing"
            raise IllegalOperation(f"{option!r} is not an option now (the table offers {offered})")
        entry = game_entry(self.table.game_name or "")
        return self.table.submit(entry.action(option, prompt, self.table.game, target, amount, self.rng))

    def resolve(self, issue: int, code: str) -> Record:
        """The dealer settles an integrity issue: the card was ``code``."""
        card = parse_card(code)
        with self._card_lock:
            self.table.submit(ResolveDispute(issue, card))
            return self._deal(card.code)

    def resume(self, source: str) -> Record:
        return self.table.submit(ResumeTable(source))

    def correct_card(self, seq: int, code: str) -> Record:
        return self.table.correct(seq, parse_card(code), "corrected by the dealer")

    def enter_card(self, code: str) -> Record:
        """A card typed by the dealer: it goes where the rules send the next card, or, when the
        table waits for a face-down card to be turned up, it names that card."""
        card = parse_card(code)
        game = self.table.game
        if game is None:
            raise IllegalOperation("no game is running at this table")
        prompt = game.prompt()
        if prompt.step is Step.DECIDE and "reveal" in prompt.options:
            entry = game_entry(self.table.game_name or "")
            return self.table.submit(entry.reveal_operation(game, card))
        with self._card_lock:
            return self._deal(code)

    def _camera_view(self) -> ViewRecorder | None:
        if self.camera is not None:
            view: ViewRecorder = self.camera.view  # the camera is typed Any: vision loads only with one
            return view
        if self.hardware is not None and self.hardware.camera is not None:
            return self.hardware.camera.view
        return None

    @property
    def has_camera(self) -> bool:
        """Whether the table has a camera (a real one, or the simulated table's) to show."""
        return self._camera_view() is not None

    def camera_view(self) -> ViewRecorder:
        """What the table's camera saw last (a real camera's, or the simulated table's), for the
        camera page. ``NoCamera`` when the table has none."""
        view = self._camera_view()
        if view is None:
            raise NoCamera('this table has no camera: set devices.camera to a camera index, a video file '
                           'or a stream URL (or "sim" with the simulated shoe)')
        return view

    def meters(self) -> dict[str, Any]:
        """Non-volatile device meters and the game's own meters (slot machines, pools)."""
        out: dict[str, Any] = {"devices": {}, "game": None}
        if self.hardware is not None:
            for kind, device in self.hardware.devices.items():
                try:
                    out["devices"][kind] = device.meters()
                except fb.FirmwareBridgeError as exc:
                    out["devices"][kind] = {"error": str(exc)}
        game = self.table.game
        if game is not None:
            out["game"] = _game_meters(game)
        return out

    def device_command(self, kind: str, command: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run a device command (shuffle, deal, spin, home, meters, status)."""
        if self.hardware is None or kind not in self.hardware.devices:
            raise IllegalOperation(f"no {kind} device is attached to this table")
        device = self.hardware.devices[kind]
        allowed = DEVICE_COMMANDS.get(kind, ())
        if command not in allowed:
            raise IllegalOperation(f"a {kind} takes {', '.join(allowed)}, not {command!r}")
        result = getattr(device, command)(**args)
        return {"device": kind, "command": command, "result": _plain(result)}


def _game_meters(game: Any) -> Any:
    view = game.to_json()
    if "machines" in view:  # a slot floor: each machine's meters and the shared pools
        return {"machines": {name: m.get("meters", {}) for name, m in view["machines"].items()},
                "pools": view.get("pools", {})}
    return view.get("meters")


DEVICE_COMMANDS = {
    "shoe": ("deal", "status", "meters", "ping"),
    "shuffler": ("shuffle", "verify_deck", "roll_dice", "status", "meters", "ping"),
    "reels": ("spin", "home", "status", "meters", "ping"),
}


def _plain(value: Any) -> Any:
    if hasattr(value, "__dataclass_fields__"):
        return {k: _plain(getattr(value, k)) for k in value.__dataclass_fields__}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(value)
    return value
