"""One stream of cards from two witnesses: the shoe's reader and the camera.

Pure bookkeeping, no I/O: :class:`CardIntake` is told what each witness saw and says what to do.

* The shoe read a card and the camera agrees (or there is no camera): accept it.
* The shoe only reported *a card left* (no reader, or an unreadable card): pair it with the camera's
  next sighting.
* The two disagree: an integrity issue for the dealer, who confirms one reading or types the card.
* No shoe at all (a hand-dealt game watched by the camera): every new camera sighting is a card.
"""

from __future__ import annotations

import enum
import itertools
from collections import deque
from dataclasses import dataclass, field


class Verdict(enum.Enum):
    ACCEPT = "accept"  # the card is known: give it to the game
    WAIT = "wait"  # a witness is missing: wait for the other one
    DISPUTE = "dispute"  # the witnesses disagree: ask the dealer


@dataclass(frozen=True, slots=True)
class Decision:
    verdict: Verdict
    card: str | None = None
    shoe: str | None = None
    camera: str | None = None
    issue: int | None = None  # the integrity issue's number, for a dispute

    @property
    def detail(self) -> str:
        if self.verdict is Verdict.DISPUTE:
            return f"the shoe read {self.shoe or 'nothing'}, the camera saw {self.camera or 'nothing'}"
        return f"{self.verdict.value} {self.card or ''}".strip()


@dataclass
class CardIntake:
    """``has_camera``/``has_shoe`` say which witnesses exist at this table."""

    has_shoe: bool = True
    has_camera: bool = True
    _shoe: deque[str | None] = field(default_factory=deque)  # shoe reports not yet matched
    _camera: deque[str] = field(default_factory=deque)  # camera sightings not yet matched
    _issues: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def shoe_card(self, code: str | None) -> Decision:
        """The shoe released a card, read as ``code`` (None: it could not read it)."""
        if not self.has_camera:
            return Decision(Verdict.ACCEPT, code, shoe=code) if code else Decision(Verdict.DISPUTE,
                                                                                    issue=next(self._issues))
        if self._camera:
            return self._pair(code, self._camera.popleft())
        self._shoe.append(code)
        return Decision(Verdict.WAIT, shoe=code)

    def camera_card(self, code: str) -> Decision:
        """The camera saw a new card ``code`` (already debounced by the tracker)."""
        if not self.has_shoe:
            return Decision(Verdict.ACCEPT, code, camera=code)
        if self._shoe:
            return self._pair(self._shoe.popleft(), code)
        self._camera.append(code)
        return Decision(Verdict.WAIT, camera=code)

    def camera_missed(self) -> Decision | None:
        """The camera gave up on the oldest waiting shoe report (the card was not seen in time)."""
        if not self._shoe:
            return None
        code = self._shoe.popleft()
        if code:
            return Decision(Verdict.ACCEPT, code, shoe=code)
        return Decision(Verdict.DISPUTE, shoe=None, camera=None, issue=next(self._issues))

    @property
    def waiting(self) -> int:
        return len(self._shoe) + len(self._camera)

    def _pair(self, shoe: str | None, camera: str) -> Decision:
        if shoe is None or shoe == camera:
            return Decision(Verdict.ACCEPT, camera, shoe=shoe, camera=camera)
        return Decision(Verdict.DISPUTE, shoe=shoe, camera=camera, issue=next(self._issues))
