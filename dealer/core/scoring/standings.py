"""Games with no points, only a finishing order (RULES C17 Durak, C18 President): the scorebook keeps
the titles and a running count a family can compare.

>>> president_titles(4)
('President', 'Vice President', 'Citizen', 'Asshole')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from dealer.core.scoring.base import Data, Item, Scored, ScoreGame, rule

__all__ = ["Durak", "President", "president_titles"]


def president_titles(players: int) -> tuple[str, ...]:
    """One title per player, best first (RULES C18's example names)."""
    middle = ["Vice President", "Governor", "Lt. Governor", "Mayor"][:max(players - 3, 0)]
    return ("President", *middle, "Citizen", "Asshole")[-players:] if players >= 3 else (
        ("President", "Asshole")[:players])


@dataclass(frozen=True)
class DurakRules:
    count: str = rule("fool", "the running count: times each player was the durak (fewest is best)",
                      choices=("fool",), section="C17")


class Durak(ScoreGame):
    """Durak: each hand names the fool (or a draw, when the last two ran out together)."""

    name: ClassVar[str] = "durak"
    title: ClassVar[str] = "Durak"
    section: ClassVar[str] = "C17"
    units: ClassVar[str] = "times durak"
    rules_class: ClassVar[type[Any]] = DurakRules
    side_count: ClassVar[tuple[int, int]] = (2, 5)
    lowest_wins: ClassVar[bool] = True
    entry_kinds: ClassVar[dict[str, str]] = {"hand": "{durak: player} or {draw: true}"}

    def setup(self) -> None:
        self.durak: str | None = None

    def state_json(self) -> dict[str, Any]:
        return {"durak": self.durak, "next_attacker_after": self.durak}

    def entry_hand(self, data: Data) -> Scored:
        self.hands += 1
        if data.flag("draw"):
            if data.has("durak"):
                raise data.error("a drawn hand has no durak")
            return Scored(notes=(f"draw: {self.durak or 'nobody'} keeps the title",))
        self.durak = data.side("durak")
        return Scored((Item(self.durak, "durak", 1),))


@dataclass(frozen=True)
class PresidentRules:
    points: str = rule("beaten", "running count: 'beaten' scores each player the number of players he "
                       "finished ahead of; 'none' keeps only the titles (the seed has no points)",
                       choices=("beaten", "none"), section="C18")


class President(ScoreGame):
    """President: the finishing order sets titles and seats; the Asshole deals and gives his highest card
    to the President, who gives back any card."""

    name: ClassVar[str] = "president"
    title: ClassVar[str] = "President"
    section: ClassVar[str] = "C18"
    rules_class: ClassVar[type[Any]] = PresidentRules
    side_count: ClassVar[tuple[int, int]] = (3, 7)
    entry_kinds: ClassVar[dict[str, str]] = {"hand": "{order: [first out, ..., last holding cards]}"}

    def setup(self) -> None:
        self.titles: dict[str, str] = {}
        self.order: tuple[str, ...] = ()

    def state_json(self) -> dict[str, Any]:
        ranked = list(self.order)
        exchange = None
        if ranked:
            exchange = {"dealer": ranked[-1], "gives_highest_card_to": ranked[0], "leads": ranked[0]}
        return {"titles": self.titles, "seating": ranked, "next_hand": exchange}

    def entry_hand(self, data: Data) -> Scored:
        order = data.sides("order")
        if sorted(order) != sorted(self.names):
            raise data.error(f"'order' lists every player once, first out first: {', '.join(self.names)}")
        names = president_titles(len(order))
        self.titles = dict(zip(order, names, strict=True))
        self.order = order
        self.hands += 1
        if self.rules.points == "none":
            return Scored(notes=tuple(f"{p}: {t}" for p, t in self.titles.items()))
        n = len(order)
        return Scored(tuple(Item(p, self.titles[p], n - 1 - i) for i, p in enumerate(order) if n - 1 - i))
