"""What every scored game shares: sides, scored items, house rules and entry parsing.

A game's scorer (a :class:`ScoreGame` subclass) turns one *entry* — what happened at the table, in
the game's own terms, as a JSON-ready ``dict`` — into :class:`Scored` items per side, keeps the
running totals and decides when the game is over. It never does I/O; the scorebook
(:mod:`dealer.core.scoring.book`) keeps the entries, undo/correct and the audit trail.

>>> from dealer.core.scoring.cribbage import Cribbage
>>> game = Cribbage(Cribbage.make_rules({}), sides_for(["ann", "bob"]))
>>> game.enter("peg", {"player": "ann", "points": 2}).to_json()["points"]
{'ann': 2}
>>> game.totals
{'ann': 2, 'bob': 0}
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from dealer.core.cards import Card, parse_cards
from dealer.core.errors import CardCodeError, IllegalOperation

__all__ = ["Data", "GameResult", "Item", "ScoreError", "ScoreGame", "Scored", "Side", "rule",
           "sides_for"]


class ScoreError(IllegalOperation):
    """An entry, house rule or scorebook action is not valid; the message says what was expected."""


@dataclass(frozen=True, slots=True)
class Side:
    """A player alone, or a partnership, that a game scores for."""

    name: str
    members: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "members": list(self.members)}


def sides_for(players: Iterable[str], partnerships: Mapping[str, Sequence[str]] | None = None
              ) -> tuple[Side, ...]:
    """One side per player, or the named partnerships (every player in exactly one)."""
    players = tuple(players)
    if not partnerships:
        return tuple(Side(p, (p,)) for p in players)
    seen: list[str] = []
    sides = []
    for name, members in partnerships.items():
        members = tuple(members)
        if not members:
            raise ScoreError(f"partnership {name!r} has no members")
        for m in members:
            if m not in players:
                raise ScoreError(f"partnership {name!r}: {m!r} is not a player "
                                 f"(players: {', '.join(players)})")
        seen.extend(members)
        sides.append(Side(str(name), members))
    if sorted(seen) != sorted(set(seen)) or set(seen) != set(players):
        raise ScoreError(f"partnerships must put every player ({', '.join(players)}) in exactly one side, "
                         f"got {dict(partnerships)}")
    return tuple(sides)


@dataclass(frozen=True, slots=True)
class Item:
    """One scored line: ``side`` gets ``points`` for ``label`` (negative for a set-back or payment)."""

    side: str
    label: str
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "label": self.label, "points": self.points}


@dataclass(frozen=True)
class Scored:
    """What one entry scored, item by item, with notes (rule applied, items lost at game end)."""

    items: tuple[Item, ...] = ()
    notes: tuple[str, ...] = ()
    extra: tuple[tuple[str, Any], ...] = ()  # game-specific facts worth showing (pot, target...)

    def points(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for item in self.items:
            out[item.side] = out.get(item.side, 0) + item.points
        return out

    def to_json(self) -> dict[str, Any]:
        return {"points": self.points(), "items": [i.to_json() for i in self.items],
                "notes": list(self.notes), **dict(self.extra)}


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended: the winning sides, what the win is worth in games, and why."""

    winners: tuple[str, ...]
    value: int = 1
    label: str = "win"
    losers: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "losers": list(self.losers), "value": self.value,
                "label": self.label}


def rule(default: Any, help: str, *, choices: Sequence[Any] | None = None, section: str = "") -> Any:
    """A house-rule field: its default, what it means, allowed values and the RULES.md section."""
    return dataclasses.field(default=default, metadata={"help": help, "choices": tuple(choices or ()),
                                                       "section": section})


class Data:
    """Typed access to an entry's fields; every complaint names the field and what was expected."""

    def __init__(self, raw: Mapping[str, Any], game: ScoreGame, where: str) -> None:
        if not isinstance(raw, Mapping):
            raise ScoreError(f"{where}: an entry is an object of fields, got {raw!r}")
        self.raw = dict(raw)
        self.game = game
        self.where = where
        self._used: set[str] = set()

    def error(self, message: str) -> ScoreError:
        return ScoreError(f"{self.where}: {message}")

    def has(self, key: str) -> bool:
        return key in self.raw and self.raw[key] is not None

    def _get(self, key: str, default: Any) -> Any:
        self._used.add(key)
        if key in self.raw and self.raw[key] is not None:
            return self.raw[key]
        if default is _MISSING:
            raise self.error(f"missing field {key!r}")
        return default

    def num(self, key: str, default: Any = None, *, lo: int | None = None, hi: int | None = None) -> int:
        value = self._get(key, _MISSING if default is None else default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"{key!r} must be a whole number, got {value!r}")
        if lo is not None and value < lo or hi is not None and value > hi:
            raise self.error(f"{key!r} must be between {lo} and {hi}, got {value}")
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        value = self._get(key, default)
        if not isinstance(value, bool):
            raise self.error(f"{key!r} must be true or false, got {value!r}")
        return value

    def text(self, key: str, default: Any = None) -> str:
        value = self._get(key, _MISSING if default is None else default)
        if not isinstance(value, str):
            raise self.error(f"{key!r} must be text, got {value!r}")
        return value

    def choice(self, key: str, choices: Sequence[str], default: Any = None) -> str:
        value = self.text(key, default).lower()
        if value not in choices:
            raise self.error(f"{key!r} must be one of {', '.join(choices)}, got {value!r}")
        return value

    def side(self, key: str, default: Any = None, *, optional: bool = False) -> str:
        """A side name, or a player's name standing for his side."""
        value = self._get(key, None if optional else (_MISSING if default is None else default))
        if value is None:
            return ""
        return self.game.side_of(value, f"{self.where}: {key!r}")

    def optional_side(self, key: str) -> str | None:
        value = self.side(key, optional=True)
        return value or None

    def sides(self, key: str, default: Any = None) -> tuple[str, ...]:
        value = self._get(key, _MISSING if default is None else default)
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list | tuple):
            raise self.error(f"{key!r} must be a list of players or sides, got {value!r}")
        out = tuple(self.game.side_of(v, f"{self.where}: {key!r}") for v in value)
        if len(set(out)) != len(out):
            raise self.error(f"{key!r} names a side twice: {list(value)}")
        return out

    def per_side(self, key: str, *, lo: int | None = 0, hi: int | None = None,
                 complete: bool = True, default: Any = None) -> dict[str, int]:
        """A ``{side or player: whole number}`` map, by default covering every side."""
        value = self._get(key, _MISSING if default is None else default)
        if not isinstance(value, Mapping):
            raise self.error(f"{key!r} must map each side to a number, got {value!r}")
        out: dict[str, int] = {}
        for name, number in value.items():
            side = self.game.side_of(name, f"{self.where}: {key!r}")
            if isinstance(number, bool) or not isinstance(number, int):
                raise self.error(f"{key!r}[{name!r}] must be a whole number, got {number!r}")
            if lo is not None and number < lo or hi is not None and number > hi:
                raise self.error(f"{key!r}[{name!r}] must be between {lo} and {hi}, got {number}")
            if side in out:
                raise self.error(f"{key!r} gives {side!r} twice")
            out[side] = number
        if complete:
            missing = [s.name for s in self.game.sides if s.name not in out]
            if missing:
                raise self.error(f"{key!r} must give every side; missing {', '.join(missing)}")
        return out

    def cards(self, key: str, default: Any = None) -> tuple[Card, ...]:
        value = self._get(key, _MISSING if default is None else default)
        if isinstance(value, list | tuple):
            value = " ".join(str(v) for v in value)
        if not isinstance(value, str):
            raise self.error(f"{key!r} must be card codes like '5H 10D QS', got {value!r}")
        try:
            cards = parse_cards(value)
        except CardCodeError as exc:
            raise self.error(f"{key!r}: {exc}") from None
        for card in cards:
            if card.is_back:
                raise self.error(f"{key!r}: a face-down card (BK) cannot be counted")
        return cards

    def card(self, key: str, default: Any = None) -> Card:
        cards = self.cards(key, default)
        if len(cards) != 1:
            raise self.error(f"{key!r} must be exactly one card, got {len(cards)}")
        return cards[0]

    def done(self) -> None:
        extra = sorted(set(self.raw) - self._used)
        if extra:
            raise self.error(f"unexpected field(s) {extra}")


class _Missing:
    pass


_MISSING: Any = _Missing()


class ScoreGame:
    """Base of every game's scorer. Subclasses define ``entry_<kind>(data) -> Scored`` handlers."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    section: ClassVar[str] = ""  # RULES.md section
    units: ClassVar[str] = "points"  # or "chips" for settled-in-chips games
    rules_class: ClassVar[type[Any]]
    entry_kinds: ClassVar[dict[str, str]] = {}
    side_count: ClassVar[tuple[int, int]] = (2, 10)  # allowed number of sides
    partnership_sizes: ClassVar[tuple[int, ...]] = (1,)  # allowed members per side
    ends_mid_entry: ClassVar[bool] = False  # the game ends "the moment" a target is hit
    lowest_wins: ClassVar[bool] = False

    def __init__(self, rules: Any, sides: Sequence[Side]) -> None:
        self.rules = rules
        self.sides = tuple(sides)
        self.totals: dict[str, int] = {s.name: 0 for s in self.sides}
        self.result: GameResult | None = None
        self.hands = 0  # entries that closed a deal
        lo, hi = self.side_count
        if not lo <= len(self.sides) <= hi:
            raise ScoreError(f"{self.title} is scored for {lo}" + (f" to {hi}" if hi != lo else "")
                             + f" sides, got {len(self.sides)}")
        for side in self.sides:
            if len(side.members) not in self.partnership_sizes:
                raise ScoreError(f"{self.title}: side {side.name!r} has {len(side.members)} member(s); "
                                 f"allowed {' or '.join(map(str, self.partnership_sizes))}")
        self.setup()

    # -- hooks for subclasses -----------------------------------------------------------------------
    def setup(self) -> None:
        """Check the sides against the rules and set up game state."""

    def check_end(self) -> GameResult | None:
        """The result once the game is over (called after each entry, or each item if mid-entry)."""
        return None

    def final_result(self) -> GameResult:
        """The result when the host closes the game: best total wins (ties share)."""
        if not self.totals:
            return GameResult(())
        best = (min if self.lowest_wins else max)(self.totals.values())
        winners = tuple(s for s, v in self.totals.items() if v == best)
        return GameResult(winners, 1, "closed", tuple(s for s in self.totals if s not in winners))

    def state_json(self) -> dict[str, Any]:
        return {}

    # -- shared machinery ---------------------------------------------------------------------------
    @classmethod
    def make_rules(cls, options: Mapping[str, Any]) -> Any:
        return make_rules(cls.rules_class, options, cls.name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.sides)

    def side_of(self, name: Any, where: str) -> str:
        if isinstance(name, str):
            for side in self.sides:
                if name == side.name or name in side.members:
                    return side.name
        raise ScoreError(f"{where}: {name!r} is not a side or player of this game "
                         f"(sides: {', '.join(self.names)})")

    def others(self, side: str) -> tuple[str, ...]:
        return tuple(s for s in self.names if s != side)

    def enter(self, kind: str, raw: Mapping[str, Any]) -> Scored:
        """Score one entry and add it to the totals (raise :class:`ScoreError` and change nothing if bad)."""
        if self.result is not None:
            raise ScoreError(f"{self.title}: the game is over ({', '.join(self.result.winners) or 'no one'} "
                             f"won); start a new game")
        handler = getattr(self, "entry_" + kind.replace("-", "_"), None)
        if kind not in self.entry_kinds or handler is None:
            raise ScoreError(f"{self.title} has no entry {kind!r}; expected one of "
                             f"{', '.join(self.entry_kinds)}")
        snapshot = copy.deepcopy(self.__dict__)
        try:
            data = Data(raw, self, f"{self.name} {kind}")
            scored: Scored = handler(data)
            data.done()
            return self.apply(scored)
        except CardCodeError as exc:
            self.__dict__.clear()
            self.__dict__.update(snapshot)
            raise ScoreError(f"{self.name} {kind}: {exc}") from None
        except BaseException:
            self.__dict__.clear()
            self.__dict__.update(snapshot)
            raise

    def apply(self, scored: Scored) -> Scored:
        kept: list[Item] = []
        notes = list(scored.notes)
        for index, item in enumerate(scored.items):
            self.totals[item.side] += item.points
            kept.append(item)
            if self.ends_mid_entry:
                self.result = self.check_end()
                if self.result is not None:
                    lost = scored.items[index + 1:]
                    if lost:
                        notes.append("game over the moment it was reached; not scored: "
                                     + ", ".join(f"{i.side} {i.label} {i.points}" for i in lost))
                    break
        if self.result is None:
            self.result = self.check_end()
        return Scored(tuple(kept), tuple(notes), scored.extra)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.name, "title": self.title, "units": self.units,
                "sides": [s.to_json() for s in self.sides], "totals": dict(self.totals),
                "rules": dataclasses.asdict(self.rules), "hands": self.hands,
                "result": None if self.result is None else self.result.to_json(), **self.state_json()}


def make_rules(cls: type[Any], options: Mapping[str, Any], game: str) -> Any:
    """Build a frozen house-rules dataclass from ``options``, checking names, types and choices."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, value in options.items():
        name = key.replace("-", "_")
        f = fields.get(name)
        if f is None:
            raise ScoreError(f"{game}: unknown house rule {key!r}; expected one of "
                             f"{', '.join(n.replace('_', '-') for n in fields)}")
        default = f.default
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise ScoreError(f"{game}: house rule {key!r} must be true or false, got {value!r}")
        elif isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ScoreError(f"{game}: house rule {key!r} must be a whole number, got {value!r}")
        elif isinstance(default, str) and not isinstance(value, str):
            raise ScoreError(f"{game}: house rule {key!r} must be text, got {value!r}")
        choices = f.metadata.get("choices", ())
        if choices and value not in choices:
            raise ScoreError(f"{game}: house rule {key!r} must be one of {', '.join(map(str, choices))}, "
                             f"got {value!r}")
        kwargs[name] = value
    return cls(**kwargs)


def describe_rules(cls: type[Any]) -> list[dict[str, Any]]:
    """The house-rule options of a rules dataclass, for ``dealer score games``."""
    return [{"name": f.name.replace("_", "-"), "default": f.default, "help": f.metadata.get("help", ""),
             "choices": list(f.metadata.get("choices", ())), "section": f.metadata.get("section", "")}
            for f in dataclasses.fields(cls)]


def pay_each(winner: str, losers: Iterable[str], amount: int, label: str) -> list[Item]:
    """Chip items for ``winner`` collecting ``amount`` from each loser (negative: paying each)."""
    items: list[Item] = []
    total = 0
    for loser in losers:
        items.append(Item(loser, label, -amount))
        total += amount
    return [Item(winner, label, total), *items]
