"""Full enumeration of seven-card hands (slow: about ten seconds)."""

from __future__ import annotations

import pytest

from dealer.core.analysis.poker_enumeration import seven_card_counts


@pytest.mark.slow
def test_seven_card_category_counts_full_enumeration() -> None:
    # RULES B1/B4: best five of seven; the published counts over all C(52,7) = 133,784,560 hands
    counts = seven_card_counts()
    assert sum(counts.values()) == 133_784_560
    assert counts == {"royal flush": 4_324, "straight flush": 37_260, "four of a kind": 224_848,
                      "full house": 3_473_184, "flush": 4_047_644, "straight": 6_180_020,
                      "three of a kind": 6_461_620, "two pairs": 31_433_400, "one pair": 58_627_800,
                      "no pair": 23_294_460}
