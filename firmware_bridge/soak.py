"""Soak: drive a simulated device over a real pty while the simulator injects link faults, then compare
what the host saw with what the device did.

The device keeps its own log of every event it generated and every command it executed. Afterwards:

* lost events        = device events the host never delivered
* duplicated events  = deliveries of an event number the host had already delivered
* corrupted events   = deliveries whose content differs from the device's log
* double-executed    = commands the device executed minus distinct commands the host issued and got
  an answer for (a retried SEQ is replayed from the cache, never executed again)
* crashed            = exceptions that escaped a link thread, or a command, as anything other than a link
  fault or a device refusal (the host would have lost its driver)
"""

from __future__ import annotations

import contextlib
import functools
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict
from typing import Any

from firmware_bridge.drivers import ReelDisplay, Shoe, Shuffler
from firmware_bridge.drivers.base import Device
from firmware_bridge.errors import DeviceError, LinkError, ShoeEmptyError
from firmware_bridge.events import CardDealt, DeviceEvent, DeviceReset, LinkDown, LinkUp
from firmware_bridge.sim.faults import CHAOS_WEIGHTS
from firmware_bridge.sim.process import start_simulator

_EVENT_NAMES = {
    "CardDealt": "CARD_DEALT", "CutCardReached": "CUT_CARD_REACHED", "ShoeEmpty": "SHOE_EMPTY",
    "ShuffleComplete": "SHUFFLE_COMPLETE", "DeckVerified": "DECK_VERIFIED", "HandDealt": "HAND_DEALT",
    "ReelStopped": "REEL_STOPPED", "ReelHomeFailed": "REEL_HOME_FAILED", "QueueOverflow": "QUEUE_OVERFLOW",
    "Jam": "JAM", "JamCleared": "JAM_CLEARED", "DoorOpen": "DOOR_OPEN", "DoorClosed": "DOOR_CLOSED",
}
_COMMAND_OF = {"deal": "DEAL", "load": "LOAD", "shuffle": "SHUFFLE", "roll": "ROLL_DICE", "spin": "SPIN",
               "home": "HOME"}


def _content(event: DeviceEvent) -> tuple[str, dict[str, Any]]:
    fields = asdict(event)  # type: ignore[call-overload]
    fields.pop("event_no")
    if isinstance(event, CardDealt):
        fields["code"] = event.code or ""
    if "ok" in fields:
        fields["ok"] = int(fields["ok"])
    return _EVENT_NAMES[type(event).__name__], fields


@contextlib.contextmanager
def _thread_crashes(crashes: list[str]) -> Iterator[None]:
    """Count every exception that escapes any thread while the soak runs."""
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        name = args.thread.name if args.thread is not None else "?"
        crashes.append(f"thread {name}: {args.exc_type.__name__}: {args.exc_value}")

    threading.excepthook = hook
    try:
        yield
    finally:
        threading.excepthook = previous


def run_soak(kind: str = "shoe", faults: int = 1000, *, seed: int | None = None, rate: float = 0.3,
             kinds: list[str] | None = None, reply_timeout: float = 0.04,
             progress: Callable[[int, int], None] | None = None,
             max_seconds: float = 3600.0) -> dict[str, Any]:
    """Run until the simulator has injected ``faults`` link faults; returns the reconciliation report."""
    rng = random.Random(seed)
    issued: Counter[str] = Counter()  # commands answered by the device (OK or refused)
    unanswered: Counter[str] = Counter()
    received: list[DeviceEvent] = []
    crashes: list[str] = []
    started = time.monotonic()
    with _thread_crashes(crashes), start_simulator(kind, decks=8, seed=seed) as sim:
        device: Device
        opener = {"shoe": Shoe, "shuffler": Shuffler, "reels": ReelDisplay}[kind]
        device = opener(sim.port, reply_timeout=reply_timeout, retries=3, rehandshakes=6, heartbeat=0.25,
                        reconnect_timeout=10.0)
        with device:
            device.on_event(received.append)

            def call(name: str, fn: Callable[[], Any]) -> Any:
                try:
                    result = fn()
                except DeviceError:
                    issued[_COMMAND_OF[name]] += 1
                    raise
                except Exception:  # a link fault, or anything else: the outcome is unknown
                    unanswered[_COMMAND_OF[name]] += 1
                    raise
                issued[_COMMAND_OF[name]] += 1
                return result

            if isinstance(device, ReelDisplay):
                call("home", device.home)
            sim.chaos(faults, rate, kinds)
            injected = 0
            operations = 0
            while injected < faults and time.monotonic() - started < max_seconds:
                try:
                    if isinstance(device, Shoe):
                        try:
                            call("deal", device.deal)
                        except ShoeEmptyError:
                            call("load", lambda: device.load(8, 0))
                    elif isinstance(device, Shuffler):
                        if operations % 4 == 0:
                            call("shuffle", lambda: device.shuffle(1))
                        else:
                            call("roll", device.roll_dice)
                    else:
                        assert isinstance(device, ReelDisplay)
                        stops = (rng.randrange(64), rng.randrange(64), rng.randrange(64))
                        call("spin", functools.partial(device.spin, stops))
                except (DeviceError, LinkError):
                    pass
                except Exception as exc:  # noqa: BLE001 - counted and reported: this is what we look for
                    crashes.append(f"command: {type(exc).__name__}: {exc}")
                operations += 1
                if operations % 25 == 0:
                    injected = sim.stats()["faults"]["total"]
                    if progress is not None:
                        progress(min(injected, faults), faults)
            sim.chaos(0, 0.0)
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:  # let every queued event be delivered and acked
                with contextlib.suppress(DeviceError, LinkError):
                    if device.status().pending_events == 0:
                        break
                time.sleep(0.05)
            time.sleep(0.1)
            link_stats = device.link.stats.to_dict()
        stats = sim.stats()
        device_log = sim.event_log()
    elapsed = time.monotonic() - started

    device_events: dict[tuple[int | None, int], tuple[str, dict[str, Any]]] = {
        (boot, no): (name, values) for boot, no, name, values in device_log}
    boots = {boot for boot, *_ in device_log}
    boot = next(iter(boots)) if len(boots) == 1 else None
    delivered: Counter[int] = Counter()
    corrupted = 0
    host_events = Counter(type(e).__name__ for e in received
                          if isinstance(e, LinkDown | LinkUp | DeviceReset))
    for event in received:
        if event.event_no is None:
            continue
        delivered[event.event_no] += 1
        if delivered[event.event_no] == 1 and device_events.get((boot, event.event_no)) != _content(event):
            corrupted += 1
    executed = {k: v for k, v in stats["device"]["executed"].items() if k in issued or k in unanswered}
    double = sum(max(0, executed.get(name, 0) - issued[name] - unanswered[name]) for name in executed)
    return {
        "kind": kind, "faults_requested": faults, "fault_rate": rate,
        "faults_injected": stats["faults"]["injected"], "faults_total": stats["faults"]["total"],
        "fault_mix": kinds or list(CHAOS_WEIGHTS), "seconds": round(elapsed, 1),
        "commands_sent": sum(issued.values()) + sum(unanswered.values()),
        "commands_answered": dict(issued), "commands_unanswered": dict(unanswered),
        "commands_executed_by_device": executed,
        "double_executed": double,
        "events_expected": len(device_log),
        "events_received": sum(delivered.values()),
        "lost": sum(1 for key in device_events if key[1] not in delivered),
        "duplicated": sum(n - 1 for n in delivered.values()),
        "corrupted": corrupted,
        "crashed": len(crashes), "crash_errors": crashes[:5],
        "device_replays": stats["device"]["replays"],
        "device_event_resends": stats["device"]["event_resends"],
        "reconnects": link_stats["reconnects"], "retries": link_stats["retries"],
        "rehandshakes": link_stats["rehandshakes"], "link_downs": link_stats["link_downs"],
        "host_events": dict(host_events), "host_frame_errors": link_stats["frame_errors"],
        "host_duplicates_dropped": link_stats["events_duplicate"],
        "host_gaps_refused": link_stats["events_gap"],
    }
