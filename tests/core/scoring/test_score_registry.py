"""Every scored game is listed with documented house rules and can be started with its defaults."""

from __future__ import annotations

import pytest

from dealer.core.scoring.book import Scorebook
from dealer.core.scoring.registry import all_games, describe_games

PLAYERS = ("a", "b", "c", "d", "e", "f", "g")


def test_every_house_rule_is_documented_with_its_section() -> None:
    for game in describe_games():
        assert game["rules_section"] and game["entries"], game["name"]
        for option in game["house_rules"]:
            assert option["help"] and option["section"], (game["name"], option["name"])


@pytest.mark.parametrize("name", sorted(all_games()))
def test_every_game_starts_with_defaults(name: str) -> None:
    cls = all_games()[name]
    lo, hi = cls.side_count
    size = max(cls.partnership_sizes)
    for players in range(lo * min(cls.partnership_sizes), hi * size + 1):
        book = Scorebook("r", PLAYERS[:players] if players <= 7 else tuple(f"p{i}" for i in range(players)))
        try:
            book.start_game(name)
        except Exception:
            continue
        assert book.to_json()["games"][0]["game"] == name
        return
    # partnership games: two sides of `size`
    members = tuple(f"p{i}" for i in range(2 * size))
    book = Scorebook("r", members)
    book.start_game(name, partnerships={"x": list(members[:size]), "y": list(members[size:])})
    assert book.current.scorer.name == name
