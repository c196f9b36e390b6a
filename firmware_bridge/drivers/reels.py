"""The three-reel slot display driver (RULES H7). The host decides the stops; the reels show them."""

from __future__ import annotations

from firmware_bridge.drivers.base import Device
from firmware_bridge.errors import NotHomedError
from firmware_bridge.events import DeviceEvent, ReelHomeFailed, ReelStopped
from firmware_bridge.protocol.layouts import DISPLAY_FIELDS, DeviceKind

REELS = 3
HOME = 0  # the position a homed reel stops at


class ReelDisplay(Device):
    kind = DeviceKind.REELS

    def _stops(self, mark: int, timeout: float, what: str, at: tuple[int, ...]) -> tuple[ReelStopped, ...]:
        """Each reel's stop at ``at`` after event ``mark``. A stop elsewhere is not this command's: a
        device that rebooted resends the events the host had not acknowledged (the stops of a spin
        cut short), and they can arrive while the next command runs."""
        results: list[ReelStopped] = []
        for reel in range(REELS):

            def match(event: DeviceEvent, reel: int = reel) -> bool:
                if isinstance(event, ReelHomeFailed):
                    return event.reel == reel
                return isinstance(event, ReelStopped) and event.reel == reel and event.position == at[reel]

            event = self._wait_event(match, mark, timeout, f"{what} of reel {reel + 1}")
            if isinstance(event, ReelHomeFailed):
                raise NotHomedError(f"reel {reel + 1} failed to find home; check the reel and home again")
            assert isinstance(event, ReelStopped)
            results.append(event)
        return tuple(results)

    def home(self, timeout: float = 10.0) -> tuple[ReelStopped, ...]:
        """Drive every reel to its home position; raises :class:`NotHomedError` if one fails."""
        mark = self._mark()
        self._command("HOME")
        return self._stops(mark, timeout, "home", (HOME,) * REELS)

    def spin(self, stops: tuple[int, int, int], timeout: float = 10.0) -> tuple[ReelStopped, ...]:
        """Spin and stop the reels at ``stops`` (chosen by the host's RNG); returns the three stops."""
        if len(stops) != REELS:
            raise ValueError(f"spin needs {REELS} stop positions, got {len(stops)}")
        mark = self._mark()
        self._command("SPIN", {"stops": tuple(stops)})
        return self._stops(mark, timeout, "stop", tuple(stops))

    def set_display(self, field: str | int, value: int) -> None:
        """Show ``value`` on a display meter: credits, bet, paid, free_spins, progressive, loss_meter."""
        if isinstance(field, str):
            try:
                field = DISPLAY_FIELDS[field]
            except KeyError:
                raise ValueError(f"unknown display field {field!r}; expected one of "
                                 f"{', '.join(DISPLAY_FIELDS)}") from None
        self._command("SET_DISPLAY", {"field": field, "value": value})
