from __future__ import annotations

import dataclasses
import math

import pytest

from vision import CODES, Sighting, SightingError, is_card_code

BOX = ((0, 0), (63, 0), (63, 88), (0, 88))


@pytest.mark.parametrize("code", ["AS", "10H", "QD", "2C", "JK", "BK"])
def test_valid_codes_are_accepted(code: str) -> None:
    assert Sighting(code, 0.9, BOX).card == code


@pytest.mark.parametrize("code", ["1H", "TS", "AX", "as", "11C", "", "JK1"])
def test_invalid_codes_are_rejected_with_the_expected_form(code: str) -> None:
    with pytest.raises(SightingError, match="expected rank"):
        Sighting(code, 0.9, BOX)


@pytest.mark.parametrize("conf", [-0.1, 1.01, math.nan])
def test_confidence_must_be_a_probability(conf: float) -> None:
    with pytest.raises(SightingError, match="confidence"):
        Sighting("AS", conf, BOX)


def test_outline_needs_finite_points() -> None:
    with pytest.raises(SightingError, match="outline"):
        Sighting("AS", 0.5, ((0, 0), (1, 1)))
    with pytest.raises(SightingError, match="non-finite"):
        Sighting("AS", 0.5, ((0, 0), (1, math.inf), (2, 2)))


def test_sighting_is_frozen_and_serialises_to_the_cli_form() -> None:
    s = Sighting("10H", 0.97654, BOX, index_corner=((1, 2), (5, 2), (5, 12), (1, 12)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.card = "AS"  # type: ignore[misc]
    j = s.to_json()
    assert j["card"] == "10H" and j["confidence"] == pytest.approx(0.9765)
    assert j["outline"] == [[0, 0], [63, 0], [63, 88], [0, 88]]
    assert s.rank == "10" and s.suit == "H" and s.centre == (31.5, 44.0)


def test_code_list_covers_a_deck_joker_and_back() -> None:
    assert len(CODES) == 54 and all(is_card_code(c) for c in CODES)
