"""Non-volatile memory for a simulated device, so a simulator process killed outright (a power cut) and
started again on the same state file comes back as the same device: same shoe, same meters, and the
events the host had not acknowledged still queued under their numbers (FRAM-style firmware).

The state is written ahead: after a command ran and before its reply or events leave the device, so a
SIGKILL at any moment loses nothing the host could have seen. ``FILE.events`` journals every event the
device generated (the reference a test compares the host's log with).
"""

from __future__ import annotations

import json
import os
import time

from firmware_bridge.sim.device import DeviceCore


class NvMemory:
    def __init__(self, path: str) -> None:
        self.path = path
        self.events_path = path + ".events"
        self._saved = ""

    def power_up(self, core: DeviceCore) -> bool:
        """Restore ``core`` from the state file if there is one (True), and journal its events from now."""
        restored = False
        if os.path.exists(self.path):
            with open(self.path, encoding="utf-8") as file:
                state = json.load(file)
            core.nv_restore(state, time.monotonic())
            restored = True
        if os.path.exists(self.events_path):
            with open(self.events_path, encoding="utf-8") as file:
                core.stats.event_log = [tuple(json.loads(line)) for line in file if line.endswith("\n")]
        core.journal = open(self.events_path, "a", encoding="utf-8")  # noqa: SIM115 - lives with the core
        self.save(core)
        return restored

    def save(self, core: DeviceCore) -> None:
        text = json.dumps(core.nv_state())
        if text == self._saved:
            return
        tmp = f"{self.path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(tmp, self.path)
        self._saved = text
