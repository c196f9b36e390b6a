"""The automatic shuffler/dealer driver (RULES H3: shuffles, deals seven hands of seven, dice RNG)."""

from __future__ import annotations

from firmware_bridge.drivers.base import Device
from firmware_bridge.events import DeckVerified, DeviceEvent, HandDealt, ShuffleComplete
from firmware_bridge.protocol.layouts import DeviceKind


class Shuffler(Device):
    kind = DeviceKind.SHUFFLER

    def shuffle(self, decks: int = 1, timeout: float = 30.0) -> ShuffleComplete:
        """Shuffle ``decks`` packs and wait for :class:`ShuffleComplete` (its ``count`` is the cards seen)."""
        mark = self._mark()
        self._command("SHUFFLE", {"decks": decks})
        event = self._wait_event(lambda e: isinstance(e, ShuffleComplete), mark, timeout, "ShuffleComplete")
        assert isinstance(event, ShuffleComplete)
        return event

    def verify_deck(self, expected: int = 52, timeout: float = 30.0) -> DeckVerified:
        """Count the cards and compare with ``expected``; the result's ``ok`` says whether they match."""
        mark = self._mark()
        self._command("VERIFY_DECK", {"expected": expected})
        event = self._wait_event(lambda e: isinstance(e, DeckVerified), mark, timeout, "DeckVerified")
        assert isinstance(event, DeckVerified)
        return event

    def deal_hands(self, hands: int = 7, per_hand: int = 7, timeout: float = 30.0) -> list[HandDealt]:
        """Deal ``hands`` hands of ``per_hand`` cards into the trays (pai gow: 7 × 7, 4-card stub)."""
        mark = self._mark()
        self._command("DEAL_HANDS", {"hands": hands, "per_hand": per_hand})
        dealt: list[HandDealt] = []
        for hand in range(1, hands + 1):

            def match(event: DeviceEvent, hand: int = hand) -> bool:
                return isinstance(event, HandDealt) and event.hand == hand

            event = self._wait_event(match, mark, timeout, f"HandDealt {hand}")
            assert isinstance(event, HandDealt)
            dealt.append(event)
        return dealt

    def roll_dice(self) -> tuple[int, int, int]:
        """The shuffler's RNG with the odds of three thrown dice (H3, H5)."""
        dice = self._command("ROLL_DICE")["dice"]
        return (int(dice[0]), int(dice[1]), int(dice[2]))
