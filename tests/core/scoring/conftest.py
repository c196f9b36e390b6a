from __future__ import annotations

from typing import Any

import pytest

from dealer.core.scoring.book import Scorebook


def book_with(game: str, players: tuple[str, ...] = ("ann", "bob"), rules: dict[str, Any] | None = None,
              partnerships: dict[str, list[str]] | None = None) -> Scorebook:
    book = Scorebook("test", players)
    book.start_game(game, rules or {}, partnerships)
    return book


@pytest.fixture
def make_book() -> Any:
    return book_with
