"""The operator/fault interface shared by every simulator handle (pty process or in-memory)."""

from __future__ import annotations

from typing import Any

from firmware_bridge.errors import SimulatorError


class SimulatorControl:
    """Methods to inspect a simulated device and inject faults. Subclasses implement :meth:`command`."""

    def command(self, line: str) -> dict[str, Any]:
        raise NotImplementedError

    def _ok(self, line: str) -> dict[str, Any]:
        reply = self.command(line)
        if not reply.get("ok"):
            raise SimulatorError(f"simulator refused {line!r}: {reply.get('error')}")
        return reply

    def stats(self) -> dict[str, Any]:
        return self._ok("stats")

    def event_log(self, start: int = 0) -> list[tuple[int, int, str, dict[str, Any]]]:
        return [tuple(e) for e in self._ok(f"events {start}")["events"]]  # type: ignore[misc]

    def inject(self, fault: str, count: int = 1) -> None:
        """Queue ``count`` one-shot faults: a link fault name or reset/jam/empty/misread/door/home_fail."""
        self._ok(f"fault {fault} {count}")

    def chaos(self, count: int, rate: float = 0.2, kinds: list[str] | None = None) -> None:
        self._ok(f"chaos {count} {rate}" + (f" {','.join(kinds)}" if kinds else ""))

    def vanish(self, seconds: float = 0.2) -> None:
        self._ok(f"vanish {seconds}")

    def reset(self, cause: str = "watchdog") -> int:
        return int(self._ok(f"reset {cause}")["boot_id"])

    def jam(self) -> None:
        self._ok("jam")

    def clear_jam(self) -> None:
        self._ok("clear")

    def door(self, is_open: bool) -> None:
        self._ok("door open" if is_open else "door closed")

    def empty(self) -> None:
        self._ok("empty")

    def misread(self, count: int = 1) -> None:
        self._ok(f"misread {count}")

    def home_fail(self, count: int = 1) -> None:
        self._ok(f"home_fail {count}")

    def load(self, decks: int, cut_from_bottom: int | None = None) -> int:
        cut = "" if cut_from_bottom is None else f" {cut_from_bottom}"
        return int(self._ok(f"load {decks}{cut}")["cards"])
