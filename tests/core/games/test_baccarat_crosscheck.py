"""An independent check of the baccarat analyzer (RULES A3) at other shoe sizes.

The analyzer (``baccarat_counts``) weights 10^6 value sequences with numpy and puts the Player's
third card in position 5 and the Banker's in position 6 whoever draws. This check is written the
other way round: plain nested loops that deal the cards in the order they really come out of the
shoe (Player, Banker, Player, Banker, then only the third cards the tableau calls for), take each
card's multiplicity from what is left of the shoe, and count the undrawn places of the six-card deal
as any of the remaining cards. The Banker tableau is restated here from RULES A3 rather than taken
from the game module. Both must give the same integers.
"""

from __future__ import annotations

from collections import Counter

import pytest

from dealer.core.analysis.baccarat_analysis import baccarat_counts

# RULES A3 [STD]: the Player third card values on which the Banker draws, by Banker total.
BANKER_DRAWS_ON = {
    0: set(range(10)), 1: set(range(10)), 2: set(range(10)),
    3: set(range(10)) - {8},
    4: {2, 3, 4, 5, 6, 7},
    5: {4, 5, 6, 7},
    6: {6, 7},
    7: set(),
}


def _winner(player: int, banker: int) -> str:
    return "player" if player > banker else "banker" if banker > player else "tie"


def deal_by_deal(decks: int) -> Counter[str]:
    """Ordered six-card deals by outcome, dealing in the real order with card multiplicities."""
    left = [16 * decks] + [4 * decks] * 9  # how many cards of each baccarat value (0 = ten, faces)
    n = 52 * decks
    out: Counter[str] = Counter()

    def draw(value: int) -> int:
        ways = left[value]
        left[value] -= 1
        return ways

    for p1 in range(10):
        w1 = draw(p1)
        for b1 in range(10):
            w2 = w1 * draw(b1)
            for p2 in range(10):
                w3 = w2 * draw(p2)
                for b2 in range(10):
                    w4 = w3 * draw(b2)
                    if w4:
                        player, banker = (p1 + p2) % 10, (b1 + b2) % 10
                        if player >= 8 or banker >= 8:  # a natural: no third cards
                            key = _winner(player, banker)
                            out[key] += w4 * (n - 4) * (n - 5)
                            if max(player, banker) >= 8 and player != banker:
                                out[key + "_natural"] += w4 * (n - 4) * (n - 5)
                        elif player <= 5:  # RULES A3: the Player draws on 0-5
                            for p3 in range(10):
                                w5 = w4 * draw(p3)
                                final = (player + p3) % 10
                                if w5 and p3 in BANKER_DRAWS_ON[banker]:
                                    for b3 in range(10):
                                        out[_winner(final, (banker + b3) % 10)] += w5 * left[b3]
                                elif w5:
                                    out[_winner(final, banker)] += w5 * (n - 5)
                                left[p3] += 1
                        elif banker <= 5:  # the Player stood on 6-7: the Banker draws on 0-5
                            for b3 in range(10):
                                out[_winner(player, (banker + b3) % 10)] += w4 * left[b3] * (n - 5)
                        else:
                            out[_winner(player, banker)] += w4 * (n - 4) * (n - 5)
                    left[b2] += 1
                left[p2] += 1
            left[b1] += 1
        left[p1] += 1
    return out


def test_the_independent_enumeration_reproduces_the_published_eight_deck_counts() -> None:
    # RULES A3 / issue 3: the published 8-deck figures, from the second method too.
    counts = deal_by_deal(8)
    assert (counts["banker"], counts["player"], counts["tie"]) == (
        2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216)


@pytest.mark.parametrize("decks", [1, 2, 6])
def test_the_analyzer_agrees_exactly_with_a_deal_by_deal_enumeration(decks: int) -> None:
    # RULES A3: the tableau and values, counted two independent ways at other shoe sizes.
    fast = baccarat_counts(decks)
    slow = deal_by_deal(decks)
    n = 52 * decks
    assert (fast.banker, fast.player, fast.tie) == (slow["banker"], slow["player"], slow["tie"])
    assert fast.total == n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    assert (fast.banker_natural, fast.player_natural) == (slow["banker_natural"], slow["player_natural"])
