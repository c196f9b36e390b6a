"""Baccarat scoreboards ("roads") computed from a shoe's coup results, as plain data.

* **bead plate** — every coup (ties included) in order, filling six-cell columns top to bottom.
* **big road** — a new column each time the winner changes between Banker and Player; a tie is
  marked on the last entry (ties before the first coup are counted separately). A column longer
  than the board, or blocked below, runs right along its row (the "dragon tail").
* **big eye boy, small road, cockroach pig** — derived from the big road's columns, comparing each
  new entry with the column 1, 2 or 3 places to the left (red = the pattern repeats, blue = it
  breaks). Each is drawn like a big road of colours.

>>> r = roads("BBPPPBTB")
>>> [cell["winner"] for cell in r["bead_plate"]]
['B', 'B', 'P', 'P', 'P', 'B', 'T', 'B']
>>> [[e["winner"] + "t" * e["ties"] for e in col] for col in r["big_road"]["columns"]]
[['B', 'B'], ['P', 'P', 'P'], ['Bt', 'B']]
>>> r["big_eye_boy"]["marks"], r["small_road"]["marks"], r["cockroach_pig"]["marks"]
(['red', 'blue', 'blue', 'red'], ['red'], [])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

ROWS = 6
RED, BLUE = "red", "blue"


@dataclass(frozen=True, slots=True)
class CoupResult:
    """One coup as the scoreboards need it."""

    winner: str  # "B", "P" or "T"
    player: int = 0
    banker: int = 0
    natural: bool = False
    player_pair: bool = False
    banker_pair: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "player": self.player, "banker": self.banker, "natural": self.natural,
                "player_pair": self.player_pair, "banker_pair": self.banker_pair}


def _coups(results: Iterable[CoupResult | str]) -> list[CoupResult]:
    out = []
    for r in results:
        coup = CoupResult(r) if isinstance(r, str) else r
        if coup.winner not in ("B", "P", "T"):
            raise ValueError(f"a coup result is B, P or T, not {coup.winner!r}")
        out.append(coup)
    return out


def bead_plate(results: Sequence[CoupResult], rows: int = ROWS) -> list[dict[str, Any]]:
    return [{"col": i // rows, "row": i % rows, **c.to_json()} for i, c in enumerate(results)]


def big_road_columns(results: Sequence[CoupResult]) -> tuple[list[list[dict[str, Any]]], int]:
    """Logical columns of the big road, and the number of ties before the first Banker/Player."""
    columns: list[list[dict[str, Any]]] = []
    leading_ties = 0
    for coup in results:
        if coup.winner == "T":
            if columns:
                columns[-1][-1]["ties"] += 1
            else:
                leading_ties += 1
            continue
        entry = {"winner": coup.winner, "ties": 0, "natural": coup.natural,
                 "player_pair": coup.player_pair, "banker_pair": coup.banker_pair}
        if columns and columns[-1][0]["winner"] == coup.winner:
            columns[-1].append(entry)
        else:
            columns.append([entry])
    return columns, leading_ties


def place(columns: Sequence[Sequence[Any]], rows: int = ROWS) -> list[tuple[int, int, int, int]]:
    """Grid positions for logical columns: (col, row, logical column, index) with dragon tails."""
    taken: set[tuple[int, int]] = set()
    cells: list[tuple[int, int, int, int]] = []
    start = -1
    for c, column in enumerate(columns):
        start += 1
        x, y = start, 0
        while (x, y) in taken:
            x += 1
        turned = False
        for i in range(len(column)):
            if i:
                if not turned and y + 1 < rows and (x, y + 1) not in taken:
                    y += 1
                else:
                    turned = True
                    x += 1
            taken.add((x, y))
            cells.append((x, y, c, i))
    return cells


def derived_marks(columns: Sequence[Sequence[Any]], offset: int) -> list[str]:
    """Big eye boy (offset 1), small road (2), cockroach pig (3) from the big road's columns."""
    lengths = [len(col) for col in columns]
    marks: list[str] = []
    for c, length in enumerate(lengths):
        for r in range(length):
            if r == 0:
                if c - offset - 1 < 0:
                    continue
                marks.append(RED if lengths[c - 1] == lengths[c - offset - 1] else BLUE)
            else:
                if c - offset < 0:
                    continue
                other = lengths[c - offset]
                marks.append(BLUE if other == r else RED)
    return marks


def _colour_road(marks: Sequence[str], rows: int) -> dict[str, Any]:
    columns: list[list[str]] = []
    for mark in marks:
        if columns and columns[-1][0] == mark:
            columns[-1].append(mark)
        else:
            columns.append([mark])
    cells = [{"col": x, "row": y, "colour": columns[c][i]} for x, y, c, i in place(columns, rows)]
    return {"marks": list(marks), "columns": columns, "cells": cells}


def roads(results: Iterable[CoupResult | str], rows: int = ROWS) -> dict[str, Any]:
    """Every road of one shoe as JSON-ready data."""
    coups = _coups(results)
    columns, leading_ties = big_road_columns(coups)
    big_cells = [{"col": x, "row": y, **columns[c][i]} for x, y, c, i in place(columns, rows)]
    out: dict[str, Any] = {
        "coups": len(coups),
        "counts": {w: sum(1 for c in coups if c.winner == w) for w in ("B", "P", "T")},
        "bead_plate": bead_plate(coups, rows),
        "big_road": {"columns": columns, "cells": big_cells, "leading_ties": leading_ties},
    }
    for name, offset in (("big_eye_boy", 1), ("small_road", 2), ("cockroach_pig", 3)):
        out[name] = _colour_road(derived_marks(columns, offset), rows)
    out["next"] = predictions(columns)
    return out


def predictions(columns: Sequence[Sequence[Any]]) -> dict[str, dict[str, str | None]]:
    """The mark each derived road would get if the next coup went to Banker or to Player."""
    out: dict[str, dict[str, str | None]] = {}
    for winner in ("B", "P"):
        cols = [list(col) for col in columns]
        if cols and cols[-1][0]["winner"] == winner:
            cols[-1].append({"winner": winner})
        else:
            cols.append([{"winner": winner}])
        marks: dict[str, str | None] = {}
        for name, offset in (("big_eye_boy", 1), ("small_road", 2), ("cockroach_pig", 3)):
            before = len(derived_marks(columns, offset))
            after = derived_marks(cols, offset)
            marks[name] = after[-1] if len(after) > before else None
        out[winner] = marks
    return out
