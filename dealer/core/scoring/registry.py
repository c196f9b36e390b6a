"""Every scored game by name, with its house-rule options (for ``dealer score games``)."""

from __future__ import annotations

import importlib
from typing import Any

from dealer.core.scoring.base import ScoreError, ScoreGame, describe_rules

# module under dealer.core.scoring → scorer class names it defines
_MODULES: dict[str, tuple[str, ...]] = {
    "cribbage": ("Cribbage",),
    "pinochle": ("Pinochle",),
    "hearts": ("Hearts", "OmnibusHearts", "CancellationHearts", "DominoHearts", "HeartsWithoutLady",
               "AuctionHearts"),
    "euchre": ("Euchre", "ThreeHandEuchre", "TwoHandEuchre", "AuctionEuchre", "CallAceEuchre",
               "CincinnatiEuchre"),
    "five_hundred": ("FiveHundred",),
    "canasta": ("Canasta",),
    "pots": ("Loo", "Preference", "SpoilFive"),
    "settlements": ("Napoleon", "SoloWhist"),
    "forty_five": ("FortyFive", "AuctionFortyFives"),
    "all_fours": ("AuctionPitch", "Cinch", "SevenUp", "CaliforniaJack"),
    "trex": ("Trex",),
    "standings": ("Durak", "President"),
    "tripoli": ("Tripoli",),
}


def all_games() -> dict[str, type[ScoreGame]]:
    out: dict[str, type[ScoreGame]] = {}
    for module_name, classes in _MODULES.items():
        module = importlib.import_module(f"dealer.core.scoring.{module_name}")
        for cls_name in classes:
            cls = getattr(module, cls_name)
            out[cls.name] = cls
    return out


def game_class(name: str) -> type[ScoreGame]:
    games = all_games()
    try:
        return games[name]
    except KeyError:
        raise ScoreError(f"no scored game {name!r}; expected one of {', '.join(sorted(games))}") from None


def describe_games() -> list[dict[str, Any]]:
    return [{"name": cls.name, "title": cls.title, "rules_section": cls.section, "units": cls.units,
             "sides": list(cls.side_count), "partnership_sizes": list(cls.partnership_sizes),
             "entries": dict(cls.entry_kinds), "house_rules": describe_rules(cls.rules_class)}
            for cls in sorted(all_games().values(), key=lambda c: c.name)]
