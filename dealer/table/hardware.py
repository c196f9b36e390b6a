"""The table's devices and camera, wired to the table runtime.

Devices come from ``[devices]`` in the settings: ``sim`` starts a simulator in its own process on a
pseudo-terminal and opens it through the real driver (exactly as a USB adapter would be opened),
``none`` leaves the device out, anything else is a serial port or pyserial URL.

Device events become table operations: a card out of the shoe goes through :class:`CardIntake`
with the camera's sighting; jams, an open door, a lost link or a device reset pause the game until
cleared; the cut card and an empty shoe are logged.

A lost link (cable kicked out, device without power) pauses the table under its own source,
``"<kind> link"``, with the reason, and resumes it by itself once the link is back: the link delivers
every event the device queued meanwhile exactly once. A device that rebooted and lost what it had not
sent yet also pauses the table, until the dealer has recounted and resumes. Simulated devices keep
non-volatile memory, as a shoe that survives a power cut does.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import firmware_bridge as fb
import vision
from dealer.config import Settings
from dealer.core.operations import Operation
from dealer.core.table_state import CloseShoe, CutCardOut, PauseTable, ResumeTable
from dealer.table.camera_view import ViewRecorder

log = logging.getLogger(__name__)

# Faults that stop play, and the events that clear them (a reset needs the dealer to resume).
PAUSING: dict[type[fb.DeviceEvent], str] = {
    fb.Jam: "jam", fb.DoorOpen: "door open",
    fb.DeviceReset: "device reset: recount the cards and resume", fb.ReelHomeFailed: "reel home failure",
    fb.QueueOverflow: "device event queue overflowed: check the last cards",
}
CLEARING: dict[type[fb.DeviceEvent], str] = {fb.JamCleared: "jam", fb.DoorClosed: "door open"}
# A busy reel display (still turning or homing) is asked again this often, this many times.
REEL_RETRY_S = 0.25
REEL_ATTEMPTS = 40


def link_source(kind: str) -> str:
    """The pause source of a device's link, apart from the device's own faults (a jam stays a jam)."""
    return f"{kind} link"


def link_down_reason(kind: str, event: fb.LinkDown) -> str:
    return (f"the {kind} is not answering ({event.reason}); check its cable and power. "
            "Play resumes by itself when it is back")


def _open_simulated(kind: str, decks: int) -> fb.Device:
    """A simulator process on a pty with non-volatile memory, opened through the real driver."""
    process = fb.start_simulator(kind, decks=None if kind == "reels" else decks, persist=True)
    driver = {"shoe": fb.Shoe, "shuffler": fb.Shuffler, "reels": fb.ReelDisplay}[kind]
    return driver(process.port, simulator=process, on_close=process.stop)


@dataclass
class SimulatedCamera:
    """The simulated table's eyes: renders the card the simulated shoe released and reads it back
    through the real recognition path."""

    # 800×450 with 200-px cards: 416 of 416 renders read right (640×360 confused ♣ and ♠ on 3 of 156)
    camera: vision.SimulatedCamera = field(default_factory=lambda: vision.SimulatedCamera(
        size=(800, 450), background="felt", seed=1, card_width=200))
    recognizer: vision.Recognizer = field(default_factory=lambda: vision.Recognizer("table"))
    view: ViewRecorder = field(default_factory=lambda: ViewRecorder("sim", "table"))
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def look_at(self, code: str) -> str | None:
        """What the camera reads for a frame showing ``code``; None when it cannot read it."""
        with self._lock:
            frame = self.camera.frame_for([code], layout="row")
            started = time.perf_counter()
            sightings = self.recognizer.recognize(frame.image)
            self.view.record(frame.image, sightings, 1000 * (time.perf_counter() - started))
        best = max(sightings, key=lambda s: s.confidence, default=None)
        return None if best is None else best.card


@dataclass
class TableHardware:
    """Opens, watches and closes the devices named in the settings."""

    settings: Settings
    submit: Callable[[Operation], Any]  # log-and-apply on the table
    on_card: Callable[[str | None, str | None], None]  # (shoe reading, camera reading)
    devices: dict[str, fb.Device] = field(default_factory=dict)
    camera: SimulatedCamera | None = None
    _unsubscribe: list[Callable[[], None]] = field(default_factory=list)
    _reels_wake: threading.Condition = field(default_factory=threading.Condition)
    _reels_next: tuple[int, int, int] | None = None
    _reels_worker: threading.Thread | None = None
    _closing: bool = False

    def open(self) -> None:
        decks = self.settings.shoe.decks
        for kind in ("shoe", "shuffler", "reels"):
            target = getattr(self.settings.devices, kind)
            if target == "none":
                continue
            device = _open_simulated(kind, decks) if target == "sim" else fb.open_device(kind, target)
            self.devices[kind] = device
            self._unsubscribe.append(device.on_event(lambda event, kind=kind: self._event(kind, event)))
        if self.settings.devices.camera == "sim" and "shoe" in self.devices:
            self.camera = SimulatedCamera()

    def close(self) -> None:
        with self._reels_wake:
            self._closing = True
            self._reels_wake.notify()
        if self._reels_worker is not None:
            self._reels_worker.join(timeout=15)
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        for device in self.devices.values():
            try:
                device.close()
            except fb.FirmwareBridgeError as exc:  # closing a dead link must not stop the shutdown
                log.warning("closing %s: %s", device.url, exc)
        self.devices.clear()

    def release(self, kind: str) -> None:
        """Stop using a device (e.g. a shoe whose packs cannot hold this game's cards)."""
        device = self.devices.pop(kind, None)
        if device is not None:
            device.close()
        if kind == "shoe":
            self.camera = None

    def show_spin(self, stops: tuple[int, ...]) -> None:
        """Turn the reel display to a spin's stops, off the caller's thread (the spin is already
        decided and logged; the display only shows it). One worker shows the spins in order; when
        several wait, only the newest is shown. A display that lost its home is re-homed."""
        if not isinstance(self.devices.get("reels"), fb.ReelDisplay) or len(stops) != 3:
            return
        with self._reels_wake:
            self._reels_next = (stops[0], stops[1], stops[2])
            self._reels_wake.notify()
            if self._reels_worker is None:
                self._reels_worker = threading.Thread(target=self._turn_reels, name="reels", daemon=True)
                self._reels_worker.start()

    def _turn_reels(self) -> None:
        while True:
            with self._reels_wake:
                self._reels_wake.wait_for(lambda: self._reels_next is not None or self._closing)
                if self._closing:
                    return
                stops, self._reels_next = self._reels_next, None
            reels = self.devices.get("reels")
            if not isinstance(reels, fb.ReelDisplay) or stops is None:
                return
            self._show_stops(reels, stops)

    def _show_stops(self, reels: fb.ReelDisplay, stops: tuple[int, int, int]) -> None:
        """Show one spin on the display. A display still turning or homing (busy), or one that reset
        while the spin was in flight, is asked again after a short wait, until it shows the spin, a
        newer spin is waiting or the table closes: the display must end on the last logged spin."""
        for _ in range(REEL_ATTEMPTS):
            try:
                try:
                    reels.spin(stops)
                except fb.NotHomedError:
                    reels.home()
                    reels.spin(stops)
                return
            except (fb.DeviceBusy, fb.CommandInterrupted) as exc:
                log.info("the reel display could not show %s yet: %s", stops, exc)
            except fb.FirmwareBridgeError as exc:
                log.warning("the reel display could not show %s: %s", stops, exc)
                return
            with self._reels_wake:
                if self._reels_wake.wait_for(lambda: self._reels_next is not None or self._closing,
                                             timeout=REEL_RETRY_S):
                    return  # a newer spin replaces this one, or the table is closing
        log.warning("the reel display could not show %s after %d attempts", stops, REEL_ATTEMPTS)

    @property
    def shoe(self) -> fb.Shoe | None:
        device = self.devices.get("shoe")
        return device if isinstance(device, fb.Shoe) else None

    def status(self) -> dict[str, Any]:
        return {kind: {"url": device.url, "kind": kind} for kind, device in self.devices.items()}

    def _camera_reading(self, code: str | None) -> str | None:
        """The simulated camera's reading; a camera failure counts as a missed sighting, so the card
        still reaches the table through the shoe's own reading."""
        if self.camera is None or not code:
            return None
        try:
            return self.camera.look_at(code)
        except Exception:
            log.exception("the camera failed on %s", code)
            return None

    def _event(self, kind: str, event: fb.DeviceEvent) -> None:
        try:
            self._handle(kind, event)
        except Exception:  # a callback must never kill the link's dispatcher thread
            log.exception("handling %s from %s", event, kind)

    def _handle(self, kind: str, event: fb.DeviceEvent) -> None:
        if isinstance(event, fb.CardDealt):
            self.on_card(event.code, self._camera_reading(event.code))
        elif isinstance(event, fb.CutCardReached):
            self.submit(CutCardOut(event.cards_dealt))
        elif isinstance(event, fb.ShoeEmpty):
            self.submit(CloseShoe(emptied=True))
        elif isinstance(event, fb.LinkDown):
            self.submit(PauseTable(link_source(kind), link_down_reason(kind, event)))
        elif isinstance(event, fb.LinkUp):
            self.submit(ResumeTable(link_source(kind)))
        elif isinstance(event, fb.DeviceReset) and event.events_kept:
            log.warning("the %s restarted (%s) and kept its events: nothing to recount", kind,
                        event.reset_cause)
        elif type(event) in PAUSING:
            self.submit(PauseTable(kind, PAUSING[type(event)]))
        elif type(event) in CLEARING:
            self.submit(ResumeTable(kind))
