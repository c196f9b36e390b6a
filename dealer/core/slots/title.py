"""A three-reel slot title as data: strips, paylines, paytables, wilds, stakes and features.

A title is built from a plain mapping (what ``tomllib`` gives for ``config/slots/<title>.toml``) by
:func:`title_from_mapping`; the file reading itself lives outside the core. Every problem raises
:class:`TitleError` naming the key and what was expected.

>>> toy = title_from_mapping({
...     "title": {"name": "Toy", "slug": "toy", "max_coins": 1, "denominations": [100]},
...     "reels": [{"stops": "A - - - - - - - - -"}] * 3,
...     "paytables": [{"name": "Standard", "pays": [{"line": "A A A", "pays": [1000]}]}],
... })
>>> toy.reels[0].size, toy.symbols
(10, ('-', 'A'))
>>> toy.paytables[0].rules[0].pattern
('A', 'A', 'A')
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dealer.core.errors import DealerError
from dealer.core.slots.features import Feature, Progressive, feature_from_mapping, progressive_from_mapping

__all__ = [
    "ANY",
    "BLANK",
    "REELS",
    "CountRule",
    "LineRule",
    "PayRule",
    "Paytable",
    "Reel",
    "Title",
    "TitleError",
    "Wild",
    "title_from_mapping",
]

BLANK = "-"  # a blank stop on a strip
ANY = "*"  # a paytable position that accepts anything
REELS = 3
DEFAULT_DENOMINATIONS = (5, 25, 50, 100, 500)  # cents: $0.05 $0.25 $0.50 $1 $5 (RULES A14)
STANDARD_PAYLINES: dict[int, tuple[tuple[int, ...], ...]] = {
    # row offsets per reel: 0 = centre row, -1 = row above, +1 = row below
    1: ((0, 0, 0),),
    3: ((0, 0, 0), (-1, -1, -1), (1, 1, 1)),
    5: ((0, 0, 0), (-1, -1, -1), (1, 1, 1), (-1, 0, 1), (1, 0, -1)),
}


class TitleError(DealerError, ValueError):
    """A title definition is wrong; the message names the key and what was expected."""


@dataclass(frozen=True, slots=True)
class Reel:
    """One reel strip: the physical stops in order, and optional virtual-reel weights per stop."""

    stops: tuple[str, ...]
    weights: tuple[int, ...] | None = None

    @property
    def size(self) -> int:
        return len(self.stops)

    @property
    def total_weight(self) -> int:
        return sum(self.weights) if self.weights is not None else len(self.stops)

    def weight(self, stop: int) -> int:
        return 1 if self.weights is None else self.weights[stop]

    def stop_for(self, virtual: int) -> int:
        """The physical stop of virtual position ``virtual`` in ``[0, total_weight)``."""
        if self.weights is None:
            return virtual
        for stop, w in enumerate(self.weights):
            if virtual < w:
                return stop
            virtual -= w
        raise ValueError("virtual position beyond the reel's total weight")

    def symbol_at(self, stop: int, offset: int = 0) -> str:
        return self.stops[(stop + offset) % len(self.stops)]


@dataclass(frozen=True, slots=True)
class Wild:
    """A wild symbol: matches any symbol except ``excludes`` (never a blank).

    ``multiplier`` multiplies a win it completes (two such wilds multiply together: 2 x 2 = 4).
    ``morph``: ``()`` never morphs; ``("*",)`` turns into the winning symbol; otherwise the wild
    turns into the winning symbol only when that symbol is listed (High Rollers: VW Bus).
    """

    symbol: str
    excludes: frozenset[str] = frozenset()
    multiplier: int = 1
    morph: tuple[str, ...] = ()

    def substitutes(self, symbol: str) -> bool:
        return symbol != BLANK and symbol != self.symbol and symbol not in self.excludes


@dataclass(frozen=True, slots=True)
class LineRule:
    """Pays when every reel's symbol matches its position: a symbol, a group (``ANY7``), ``-`` or ``*``."""

    pattern: tuple[str, ...]
    pays: tuple[int, ...]  # credits for 1, 2, ... coins on the line

    @property
    def label(self) -> str:
        return " ".join(self.pattern)


@dataclass(frozen=True, slots=True)
class CountRule:
    """Pays when at least ``n`` real ``symbol``s show on the line, anywhere (wilds do not count)."""

    symbol: str
    n: int
    pays: tuple[int, ...]

    @property
    def label(self) -> str:
        return f"any {self.n} {self.symbol}"


PayRule = LineRule | CountRule


@dataclass(frozen=True, slots=True)
class Paytable:
    name: str
    rules: tuple[PayRule, ...]
    colour: str = ""


@dataclass(frozen=True)
class Title:
    """Everything that defines a title. Built by :func:`title_from_mapping`."""

    name: str
    slug: str
    reels: tuple[Reel, ...]
    paytables: tuple[Paytable, ...]
    paylines: tuple[tuple[int, ...], ...] = STANDARD_PAYLINES[1]
    max_coins: int = 3  # per line
    denominations: tuple[int, ...] = DEFAULT_DENOMINATIONS
    groups: Mapping[str, frozenset[str]] = field(default_factory=dict)
    wilds: tuple[Wild, ...] = ()
    features: tuple[Feature, ...] = ()
    progressive: Progressive | None = None
    target_rtp: str = ""
    notes: tuple[str, ...] = ()
    source: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def symbols(self) -> tuple[str, ...]:
        """Every symbol on the strips, blank first, then sorted."""
        seen = {s for reel in self.reels for s in reel.stops} - {BLANK}
        return (BLANK, *sorted(seen))

    @property
    def lines(self) -> int:
        return len(self.paylines)

    @property
    def max_bet(self) -> int:
        return self.max_coins * self.lines

    def wild(self, symbol: str) -> Wild | None:
        for w in self.wilds:
            if w.symbol == symbol:
                return w
        return None

    def paytable(self, name: str | None = None) -> Paytable:
        if name is None:
            return self.paytables[0]
        for table in self.paytables:
            if table.name.lower() == name.lower():
                return table
        names = ", ".join(t.name for t in self.paytables)
        raise TitleError(f"{self.name} has no paytable {name!r}; it has: {names}")

    def bet_shape(self, coins: int) -> tuple[int, int]:
        """``(coins per line, lines)`` for a total bet of ``coins``.

        Single-line titles take 1..max_coins on the line. Multi-line titles take one coin per line
        up to every line, then more coins per line on all lines (RULES A14: High Rollers 5 lines,
        5 coins; Pharaoh's Gold 3 lines, 3 coins).
        """
        if self.lines == 1:
            if not 1 <= coins <= self.max_coins:
                raise TitleError(f"{self.name} takes 1 to {self.max_coins} coins, not {coins}")
            return coins, 1
        if 1 <= coins <= self.lines:
            return 1, coins
        if coins % self.lines == 0 and coins // self.lines <= self.max_coins:
            return coins // self.lines, self.lines
        raise TitleError(
            f"{self.name} takes 1 to {self.lines} coins (one per line) or a multiple of {self.lines} "
            f"up to {self.max_bet}, not {coins}"
        )

    def digest(self) -> str:
        """A short fingerprint of the title data (logged with the machine, shown on the PAR sheet)."""
        blob = json.dumps(self.source, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


# --- parsing ------------------------------------------------------------------------------------


def _need(mapping: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in mapping:
        raise TitleError(f"{where}: missing key {key!r}")
    return mapping[key]


def _int(value: Any, where: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise TitleError(f"{where}: expected a whole number >= {low}, got {value!r}")
    return value


def _ints(value: Any, where: str, low: int = 0) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not value:
        raise TitleError(f"{where}: expected a non-empty list of whole numbers, got {value!r}")
    return tuple(_int(v, f"{where}[{i}]", low) for i, v in enumerate(value))


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise TitleError(f"{where}: expected non-empty text, got {value!r}")
    return value.strip()


def _words(value: Any, where: str) -> tuple[str, ...]:
    """A symbol list written either as ``"7R - BAR"`` or as ``["7R", "-", "BAR"]``."""
    if isinstance(value, str):
        words = tuple(value.split())
    elif isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        words = tuple(v.strip() for v in value)
    else:
        raise TitleError(f"{where}: expected symbols as text ('7R - BAR') or a list, got {value!r}")
    if not words or any(not w for w in words):
        raise TitleError(f"{where}: expected at least one symbol")
    return words


def _table(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise TitleError(f"{where}: expected a table, got {value!r}")
    return value


def _reel(raw: Any, where: str) -> Reel:
    raw = _table(raw, where)
    stops = _words(_need(raw, "stops", where), f"{where}.stops")
    if ANY in stops:
        raise TitleError(f"{where}.stops: '*' is a paytable wildcard, not a reel symbol")
    weights = None
    if "weights" in raw:
        weights = _ints(raw["weights"], f"{where}.weights", low=1)
        if len(weights) != len(stops):
            raise TitleError(
                f"{where}.weights: expected one weight per stop ({len(stops)}), got {len(weights)}"
            )
    if len(stops) < 3:
        raise TitleError(f"{where}.stops: expected at least 3 stops, got {len(stops)}")
    return Reel(stops, weights)


def _rule(raw: Any, where: str, max_coins: int) -> PayRule:
    raw = _table(raw, where)
    pays = _ints(_need(raw, "pays", where), f"{where}.pays")
    if len(pays) != max_coins:
        raise TitleError(
            f"{where}.pays: expected {max_coins} values (credits for 1..{max_coins} coins), got {len(pays)}"
        )
    if "line" in raw:
        pattern = _words(raw["line"], f"{where}.line")
        if len(pattern) != REELS:
            raise TitleError(f"{where}.line: expected {REELS} positions, got {len(pattern)}")
        return LineRule(pattern, pays)
    if "count" in raw:
        symbol = _str(raw["count"], f"{where}.count")
        n = _int(_need(raw, "n", where), f"{where}.n", low=1)
        if n > REELS:
            raise TitleError(f"{where}.n: expected 1..{REELS}, got {n}")
        return CountRule(symbol, n, pays)
    raise TitleError(f"{where}: expected 'line' (three positions) or 'count' with 'n'")


def _wild(raw: Any, where: str) -> Wild:
    raw = _table(raw, where)
    symbol = _str(_need(raw, "symbol", where), f"{where}.symbol")
    excludes = frozenset(_words(raw["excludes"], f"{where}.excludes")) if raw.get("excludes") else frozenset()
    multiplier = _int(raw.get("multiplier", 1), f"{where}.multiplier", low=1)
    morph_raw = raw.get("morph", "")
    if morph_raw in ("", "none"):
        morph: tuple[str, ...] = ()
    elif morph_raw == "winning":
        morph = (ANY,)
    else:
        morph = _words(morph_raw, f"{where}.morph")
    return Wild(symbol, excludes, multiplier, morph)


def title_from_mapping(data: Mapping[str, Any]) -> Title:
    """Build and check a :class:`Title` from a parsed TOML mapping."""
    data = _table(data, "title file")
    head = _table(_need(data, "title", "title file"), "[title]")
    name = _str(_need(head, "name", "[title]"), "title.name")
    slug = _str(head.get("slug", name.lower().replace(" ", "-")), "title.slug")
    max_coins = _int(head.get("max_coins", 3), "title.max_coins", low=1)
    denominations = _ints(head.get("denominations", list(DEFAULT_DENOMINATIONS)), "title.denominations", 1)
    if "paylines" in head:
        raw_lines = head["paylines"]
        if isinstance(raw_lines, int) and not isinstance(raw_lines, bool):
            if raw_lines not in STANDARD_PAYLINES:
                raise TitleError(
                    f"title.paylines: expected 1, 3, 5 or a list of row offsets, got {raw_lines}"
                )
            paylines = STANDARD_PAYLINES[raw_lines]
        else:
            if not isinstance(raw_lines, list) or not raw_lines:
                raise TitleError("title.paylines: expected 1, 3, 5 or a list of row offsets")
            paylines = tuple(_offsets(v, f"title.paylines[{i}]") for i, v in enumerate(raw_lines))
    else:
        paylines = STANDARD_PAYLINES[1]

    raw_reels = _need(data, "reels", "title file")
    if not isinstance(raw_reels, list) or len(raw_reels) != REELS:
        raise TitleError(f"reels: expected {REELS} [[reels]] tables, got {raw_reels!r:.60}")
    reels = tuple(_reel(r, f"reels[{i}]") for i, r in enumerate(raw_reels))

    groups: dict[str, frozenset[str]] = {}
    for gname, members in _table(data.get("groups", {}), "[groups]").items():
        groups[gname] = frozenset(_words(members, f"groups.{gname}"))

    wilds = tuple(_wild(w, f"wilds[{i}]") for i, w in enumerate(data.get("wilds", [])))

    raw_tables = _need(data, "paytables", "title file")
    if not isinstance(raw_tables, list) or not raw_tables:
        raise TitleError("paytables: expected at least one [[paytables]] table")
    paytables = []
    for i, raw in enumerate(raw_tables):
        where = f"paytables[{i}]"
        raw = _table(raw, where)
        rules_raw = _need(raw, "pays", where)
        if not isinstance(rules_raw, list) or not rules_raw:
            raise TitleError(f"{where}.pays: expected a list of pay rules")
        rules = tuple(_rule(r, f"{where}.pays[{j}]", max_coins) for j, r in enumerate(rules_raw))
        paytables.append(
            Paytable(_str(_need(raw, "name", where), f"{where}.name"), rules, str(raw.get("colour", "")))
        )

    features = tuple(
        feature_from_mapping(_table(f, f"features[{i}]"), f"features[{i}]", max_coins * len(paylines))
        for i, f in enumerate(data.get("features", []))
    )
    progressive = None
    if "progressive" in data:
        progressive = progressive_from_mapping(
            _table(data["progressive"], "[progressive]"), "progressive", max_coins * len(paylines)
        )

    notes_raw = head.get("notes", [])
    notes = (notes_raw,) if isinstance(notes_raw, str) else tuple(str(n) for n in notes_raw)
    title = Title(
        name=name,
        slug=slug,
        reels=reels,
        paytables=tuple(paytables),
        paylines=paylines,
        max_coins=max_coins,
        denominations=denominations,
        groups=groups,
        wilds=wilds,
        features=features,
        progressive=progressive,
        target_rtp=str(head.get("target_rtp", "")),
        notes=notes,
        source=_plain(data),
    )
    _check(title)
    return title


def _offsets(value: Any, where: str) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or len(value) != REELS
        or any(isinstance(v, bool) or v not in (-1, 0, 1) for v in value)
    ):
        raise TitleError(f"{where}: expected {REELS} row offsets from -1, 0, 1, got {value!r}")
    return tuple(value)


def _check(title: Title) -> None:
    symbols = set(title.symbols)
    for gname, members in title.groups.items():
        if gname in symbols:
            raise TitleError(f"groups.{gname}: a group may not share its name with a reel symbol")
        unknown = members - symbols
        if unknown:
            raise TitleError(f"groups.{gname}: {sorted(unknown)} appear on no reel")
    known = symbols | set(title.groups) | {ANY}
    for t, table in enumerate(title.paytables):
        for j, rule in enumerate(table.rules):
            where = f"paytables[{t}].pays[{j}]"
            names = rule.pattern if isinstance(rule, LineRule) else (rule.symbol,)
            for n in names:
                if n not in known:
                    raise TitleError(
                        f"{where}: {n!r} is neither a reel symbol nor a group "
                        f"(symbols: {' '.join(sorted(symbols))})"
                    )
    for i, w in enumerate(title.wilds):
        if w.symbol not in symbols:
            raise TitleError(f"wilds[{i}].symbol: {w.symbol!r} appears on no reel")
    for i, f in enumerate(title.features):
        for s in f.symbols():
            if s not in symbols:
                raise TitleError(f"features[{i}] ({f.kind}): symbol {s!r} appears on no reel")
    if title.progressive is not None and not any(f.progressive for f in title.features):
        raise TitleError("progressive: no feature of this title awards the progressive")
    for f in title.features:
        if f.progressive and title.progressive is None:
            raise TitleError(f"features ({f.kind}): awards a progressive but there is no [progressive] table")


def _plain(value: Any) -> Any:
    """A JSON-ready deep copy (TOML may hold dates; titles do not)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, str):
        return [_plain(v) for v in value]
    return value
