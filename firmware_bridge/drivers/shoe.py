"""The dealing-shoe driver (RULES H1, H2)."""

from __future__ import annotations

from firmware_bridge.drivers.base import Device
from firmware_bridge.events import CardDealt, DeviceEvent
from firmware_bridge.protocol.layouts import DeviceKind


class Shoe(Device):
    """A card shoe that releases one card per :meth:`deal` and reads it when it can.

    Cards are plain codes ("AS", "10H"); ``None`` means the shoe could not read the card (the table must
    identify it another way, e.g. the camera). Cut card and empty shoe arrive as events.
    """

    kind = DeviceKind.SHOE

    def deal(self, timeout: float = 2.0) -> CardDealt:
        """Release one card and return its :class:`CardDealt` event. Safe to retry at the link level."""
        reply = self._command("DEAL")
        number = reply["event_no"]

        def match(event: DeviceEvent) -> bool:
            return isinstance(event, CardDealt) and event.event_no == number

        event = self._wait_event(match, 0, timeout, f"CardDealt #{number}")
        assert isinstance(event, CardDealt)
        return event

    def load(self, decks: int, cut_from_bottom: int = 0) -> int:
        """For shoes fed by a shuffler: load ``decks`` packs with the cut card ``cut_from_bottom`` cards
        from the bottom (0 = none). Returns the number of cards loaded."""
        return int(self._command("LOAD", {"decks": decks, "cut_from_bottom": cut_from_bottom})["cards"])
