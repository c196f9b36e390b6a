"""Scorekeeping for the seeds' table games (RULES Part C and B8): pure scorers and an audited scorebook.

* :mod:`~dealer.core.scoring.base` — sides, scored items, house rules, entry parsing.
* one module per game or family (``cribbage``, ``pinochle``, ``hearts``...): counting from cards and
  scoring entries; :mod:`~dealer.core.scoring.registry` lists them.
* :mod:`~dealer.core.scoring.book` — the scorebook: games in a session, undo/restore/correct, audit.
* :mod:`~dealer.core.scoring.operations` — the frozen operations a runtime logs and applies.
"""

from dealer.core.scoring.base import GameResult, Item, Scored, ScoreError, ScoreGame, Side, sides_for

__all__ = ["GameResult", "Item", "ScoreError", "ScoreGame", "Scored", "Side", "sides_for"]
