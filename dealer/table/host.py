"""Everything one running table owns: the table runtime, its devices, camera, tokens and automation.

``dealer serve`` builds one :class:`TableHost` from the settings; the API's lifespan starts it and
stops it. In simulated mode the host runs the game by itself (the engine deals and decides); in live
mode it waits for cards from the shoe, the camera or the dealer.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dealer.config import Settings
from dealer.core.cards import parse_card
from dealer.core.errors import DealerError, IllegalOperation
from dealer.core.operations import Operation, operation_from_payload
from dealer.store import Record, Role, TokenInfo, TokenStore, load_operation_modules
from dealer.table.autoplay import next_operation
from dealer.table.games import game_entry
from dealer.table.runtime import Table

log = logging.getLogger(__name__)

# Operation kinds a dealer may submit through the API; anything else needs an admin.
ADMIN_ONLY_KINDS = ("chips.", "shoe.load", "table.void")


@dataclass
class TableHost:
    settings: Settings
    table: Table
    tokens: TokenStore
    devices: dict[str, Any] = field(default_factory=dict)
    autoplay: bool = True
    metrics: Any = None  # the API's metrics registry, set by create_app
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    @classmethod
    def open(cls, settings: Settings) -> TableHost:
        from dealer.table.setup import open_table

        table = open_table(settings)
        return cls(settings, table, TokenStore(Path(settings.table.db)))

    @property
    def require_tokens(self) -> bool:
        return self.settings.server.require_tokens

    def start(self) -> None:
        self._stop.clear()
        self.autoplay = self.settings.table.mode == "simulated"
        self._thread = threading.Thread(target=self._run, name="autoplay", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        pace = self.settings.table.pace_ms / 1000
        while not self._stop.is_set():
            op = next_operation(self.table) if self.autoplay else None
            if op is None:
                self._stop.wait(max(pace, 0.05))
                continue
            try:
                self.table.submit(op)
            except DealerError as exc:  # the game refused its own move: show it, and wait
                log.warning("autoplay stopped on %s: %s", op.kind, exc)
                self.table.hub.publish("error", {"operation": op.kind, "detail": str(exc)})
                self.autoplay = False
            self._stop.wait(pace)

    def set_autoplay(self, on: bool) -> None:
        self.autoplay = on
        self.table.hub.publish("autoplay", {"on": on})

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.tokens.close()
        self.table.close()

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

    def act(self, option: str) -> Record:
        """The dealer picks one of the prompt's options (hit, stand, draw...)."""
        prompt = self.table.prompt()
        if prompt is None or option not in prompt.options:
            offered = ", ".join(prompt.options) if prompt and prompt.options else "nothing"
            raise IllegalOperation(f"{option!r} is not an option now (the table offers {offered})")
        return self.table.submit(game_entry(self.table.game_name or "").action(option, prompt))

    def correct_card(self, seq: int, code: str) -> Record:
        return self.table.correct(seq, parse_card(code), "corrected by the dealer")

    def enter_card(self, code: str) -> Record:
        """A card typed by the dealer (or read by a device): it goes where the rules send it."""
        card = parse_card(code)
        game = self.table.game
        if game is None:
            raise IllegalOperation("no game is running at this table")
        return self.table.submit(game.card_operation(card))
