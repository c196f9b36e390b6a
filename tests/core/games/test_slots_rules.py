"""Stacked-outcome tests of every slot feature rule (RULES A14, H7) on the shipped titles.

Each test stops the reels where it wants (the logged spin carries its stops, as the RNG would have
chosen them) and checks what the machine pays and how its meters move.
"""

from __future__ import annotations

from typing import Any

import pytest

from dealer.core.errors import IllegalOperation
from dealer.core.games.slots import (
    CashInFreeSpins,
    InsertCredits,
    InstallMachine,
    PickBonus,
    SelectPaytable,
    SlotFloor,
    SpinReels,
    button_operation,
    spin_operation,
)
from dealer.core.rng import Rng
from dealer.core.slots.machine import SlotMachine, SpinResult
from dealer.core.slots.title import Title
from dealer.core.table_state import TableState
from dealer.slots_config import load_title_data


class Machine:
    """One installed machine with credits, driven by stacked spins."""

    def __init__(self, slug: str, denomination: int | None = None, credits: int = 100_000) -> None:
        self.title, data = load_title_data(slug)
        self.denom = denomination or self.title.denominations[0]
        self.table = TableState()
        self.table.apply(InstallMachine("m", data, self.denom))
        self.table.apply(InsertCredits("m", "cage", credits * self.denom))

    @property
    def floor(self) -> SlotFloor:
        floor: SlotFloor = self.table.games["slots"]
        return floor

    @property
    def m(self) -> SlotMachine:
        return self.floor.machines["m"]

    @property
    def meters(self) -> dict[str, int]:
        return self.m.feature_meters

    def spin(self, coins: int, *payline: str, draw: int = 0, rows: Any = None) -> SpinResult:
        stops = stops_for(self.title, payline) if rows is None else stops_for_rows(self.title, rows)
        self.table.apply(SpinReels("m", coins, stops, draw))
        assert self.m.last is not None
        return self.m.last

    def lose(self, coins: int) -> SpinResult:
        return self.spin(coins, *losing_line(self.title))


def stops_for(title: Title, payline: tuple[str, ...]) -> tuple[int, ...]:
    """The first stop of each reel that shows ``payline[reel]`` on the centre line."""
    out = []
    for reel, symbol in zip(title.reels, payline, strict=True):
        out.append(reel.stops.index(symbol))
    return tuple(out)


def stops_for_rows(title: Title, rows: dict[int, tuple[str, ...]]) -> tuple[int, ...]:
    """Stops showing ``rows[row][reel]`` (row -1 top, 0 centre, 1 bottom) where not None."""
    out = []
    for k, reel in enumerate(title.reels):
        for stop in range(reel.size):
            if all(want[k] is None or reel.symbol_at(stop, row) == want[k] for row, want in rows.items()):
                out.append(stop)
                break
        else:
            raise AssertionError(f"reel {k + 1} cannot show {rows}")
    return tuple(out)


def losing_line(title: Title) -> tuple[str, ...]:
    """Three blanks never pay on the shipped titles (Bank On It feeds its Piggy Bank with them)."""
    return ("-", "-", "-")


# --- Bank On It!: Piggy Bank ------------------------------------------------------------------


def test_piggy_bank_starts_at_150_and_three_blanks_add_the_coins_bet() -> None:
    # RULES A14: Piggy Bank — three blanks put the coins just bet in the bank, which starts at 150
    m = Machine("bank-on-it")
    assert m.meters["piggy_bank"] == 150
    r = m.spin(3, "-", "-", "-")
    assert r.win == 0 and m.meters["piggy_bank"] == 153
    m.spin(1, "-", "-", "-")
    assert m.meters["piggy_bank"] == 154
    m.spin(2, "BAR", "-", "-")  # not three blanks: nothing added
    assert m.meters["piggy_bank"] == 154


def test_three_piggies_win_the_bank_which_restarts_at_150() -> None:
    # RULES A14: Piggy Bank — three Piggies pay out the bank
    m = Machine("bank-on-it")
    for _ in range(10):
        m.spin(3, "-", "-", "-")
    line = m.title.paytables[0].rules[2]
    assert line.label == "PIG PIG PIG"
    r = m.spin(3, "PIG", "PIG", "PIG")
    assert r.awards[0].credits == 180
    assert r.win == 180 + line.pays[2]
    assert m.meters["piggy_bank"] == 150


def test_bank_on_it_wild_matches_any_symbol_including_a_piggy() -> None:
    # RULES A14: Bank On It — the Wild matches any symbol on the payline
    m = Machine("bank-on-it")
    r = m.spin(1, "PIG", "WILD", "PIG")
    assert r.awards and r.awards[0].credits == 150
    r = m.spin(1, "7R", "WILD", "7R")
    assert r.line_wins[0].label == "7R 7R 7R" and r.line_pay == m.title.paytables[0].rules[1].pays[0]


# --- The Big Heist: safe clicks ---------------------------------------------------------------


def test_each_safe_dial_adds_one_click() -> None:
    # RULES A14: Big Heist — one click per safe dial (two dials on one spin are two clicks)
    m = Machine("the-big-heist")
    m.spin(3, "SAFE", "-", "-")
    assert m.meters["safe_clicks"] == 1
    m.spin(1, "SAFE", "SAFE", "-")
    assert m.meters["safe_clicks"] == 3


def test_fifty_clicks_crack_the_safe_for_the_secret_bonus() -> None:
    # RULES A14: Big Heist — 50 accumulated clicks crack the safe
    m = Machine("the-big-heist")
    feature = m.title.features[0]
    for _ in range(24):
        r = m.spin(3, "SAFE", "SAFE", "-")
        assert not r.awards
    assert m.meters["safe_clicks"] == 48
    r = m.spin(3, "SAFE", "SAFE", "-", draw=3)
    assert [a.credits for a in r.awards] == [feature.bonus[3][3]]  # type: ignore[attr-defined]
    assert m.meters["safe_clicks"] == 0


def test_three_safe_dials_on_one_spin_pay_ten_times_the_bonus() -> None:
    # RULES A14: Big Heist — three dials on one spin crack the safe for 10 x the secret bonus
    m = Machine("the-big-heist")
    m.spin(3, "SAFE", "-", "-")
    r = m.spin(3, "SAFE", "SAFE", "SAFE", draw=1)
    bonus = m.title.features[0].bonus  # type: ignore[attr-defined]
    assert r.awards[0].credits == 10 * bonus[3][1]
    assert m.meters["safe_clicks"] == 0


def test_max_coins_give_bigger_secret_safe_bonuses() -> None:
    # RULES A14: Big Heist — max-coin bets give bigger safe bonuses than 1 or 2 coins
    wins = {}
    for coins in (1, 2, 3):
        m = Machine("the-big-heist")
        wins[coins] = [m.spin(coins, "SAFE", "SAFE", "SAFE", draw=d).awards[0].credits for d in range(5)]
    per_coin = {coins: sum(w) / len(w) / coins for coins, w in wins.items()}
    assert per_coin[3] > per_coin[2] and per_coin[3] > per_coin[1]


# --- Bonkers!: free spins ---------------------------------------------------------------------


def test_two_or_three_bonkers_grant_3_or_10_free_spins_on_the_meter() -> None:
    # RULES A14: Bonkers — 2 Bonkers give 3 free spins, 3 give 10, shown on the Free Spins meter
    m = Machine("bonkers")
    m.spin(2, "BONKERS", "BONKERS", "-")
    assert m.meters["free_spins"] == 3 and m.meters["free_spins_coins"] == 2
    m2 = Machine("bonkers")
    m2.spin(3, "BONKERS", "BONKERS", "BONKERS")
    assert m2.meters["free_spins"] == 10


def test_free_spins_are_guaranteed_wins_without_a_wager() -> None:
    # RULES A14: Bonkers — free spins are guaranteed winning spins at the triggering bet
    m = Machine("bonkers")
    m.spin(2, "BONKERS", "BONKERS", "-")
    credits, coin_in = m.m.meters["credits"], m.m.meters["coin_in"]
    with pytest.raises(IllegalOperation, match="guaranteed"):
        m.spin(2, "-", "-", "-")
    with pytest.raises(IllegalOperation, match="triggering bet"):
        m.spin(3, "BAR", "BAR", "BAR")
    rng = Rng.from_seed(4)
    for left in (2, 1, 0):
        op = spin_operation(m.floor, "m", 2, rng)
        m.table.apply(op)
        assert m.m.last is not None and m.m.last.win > 0
        assert m.m.last.kind.value == "free"
        assert m.meters["free_spins"] == left
    assert m.m.meters["coin_in"] == coin_in
    assert m.m.meters["credits"] > credits
    assert m.m.meters["free_games"] == 3


def test_no_free_spins_are_won_during_free_spins() -> None:
    # RULES A14: Bonkers — additional free spins may not be won during free spins
    m = Machine("bonkers")
    m.spin(1, "BONKERS", "BONKERS", "-")
    r = m.spin(1, "CH", "BONKERS", "BONKERS")
    assert r.win > 0
    assert m.meters["free_spins"] == 2


def test_three_red_sevens_pay_and_end_the_free_spins() -> None:
    # RULES A14: Bonkers — three red 7s during free spins end them and return to normal play
    m = Machine("bonkers")
    m.spin(3, "BONKERS", "BONKERS", "BONKERS")
    m.spin(3, "BAR", "BAR", "BAR")
    r = m.spin(3, "7R", "7R", "7R")
    assert r.line_pay == m.title.paytables[0].rules[0].pays[2]
    assert m.meters["free_spins"] == 0
    assert m.m.pending() is None
    r = m.spin(3, "-", "-", "-")  # a paid spin again: losing is allowed
    assert r.kind.value == "paid"


# --- Crazy Dragon: re-spins and progressive -------------------------------------------------


@pytest.mark.parametrize(("payline", "respins"), [
    (("HEAD", "-", "-"), 2), (("HEAD", "BODY", "-"), 5), (("HEAD", "BODY", "TAIL"), 20),
    (("-", "BODY", "TAIL"), 0), (("HEAD", "-", "TAIL"), 2),
])
def test_dragon_parts_from_the_left_give_2_5_or_20_respins(payline: tuple[str, ...], respins: int) -> None:
    # RULES A14: Crazy Dragon — dragon parts in order from left to right give 2, 5 or 20 re-spins
    m = Machine("crazy-dragon")
    m.spin(3, *payline)
    assert m.meters["respins"] == respins


def test_dragon_respins_need_the_max_bet() -> None:
    # RULES A14: Crazy Dragon — the bonus needs the maximum bet (3 coins)
    m = Machine("crazy-dragon")
    m.spin(2, "HEAD", "BODY", "TAIL")
    assert m.meters["respins"] == 0


def test_respins_won_during_the_bonus_are_added_and_100_win_the_progressive() -> None:
    # RULES A14: Crazy Dragon — re-spins won during the bonus are added; 100 in total win the progressive
    m = Machine("crazy-dragon")
    pool = m.floor.pools["crazy-dragon"]
    m.spin(3, "HEAD", "BODY", "TAIL")
    before = pool.value_cents
    assert before == 200_000 + 3  # 1 % of the $3 max bet went to the pool
    for total in (40, 60, 80):
        r = m.spin(3, "HEAD", "BODY", "TAIL")
        assert r.kind.value == "respin" and r.jackpot == 0
        assert m.meters["respins_total"] == total
    credits = m.m.meters["credits"]
    r = m.spin(3, "HEAD", "BODY", "TAIL")
    assert r.jackpot == before // 100
    assert m.m.meters["credits"] == credits + r.win
    assert pool.value_cents == 200_000 + before % 100  # reset to $2,000; odd cents stay
    assert m.m.meters["jackpots"] == 1
    left = m.meters["respins"]
    r = m.spin(3, "HEAD", "BODY", "TAIL")  # after the jackpot no more re-spins are added
    assert m.meters["respins"] == left - 1 and r.jackpot == 0


def test_crazy_dragon_yin_yang_is_wild_except_for_the_dragon() -> None:
    # RULES A14: Crazy Dragon — Yin-Yang matches any non-Dragon symbol
    m = Machine("crazy-dragon")
    r = m.spin(3, "BAR3", "YINYANG", "BAR3")
    assert r.line_wins[0].label == "BAR3 BAR3 BAR3"
    m.spin(3, "HEAD", "YINYANG", "TAIL")
    assert m.meters["respins"] == 2  # the Yin-Yang is not a dragon body


def test_crazy_dragon_plays_one_dollar_only() -> None:
    # RULES A14: Crazy Dragon — single denomination of $1
    _, data = load_title_data("crazy-dragon")
    with pytest.raises(IllegalOperation, match="not 25"):
        TableState().apply(InstallMachine("m", data, 25))


# --- Diamond Mine Deluxe: multiplier wilds ----------------------------------------------------


def test_one_2x_doubles_and_two_pay_four_times() -> None:
    # RULES A14: Diamond Mine Deluxe — a 2x doubles the win; two 2x pay 4 times
    m = Machine("diamond-mine-deluxe")
    base = m.title.paytables[0].rules[1]
    assert base.label == "7R 7R 7R"
    assert m.spin(1, "7R", "7R", "7R").line_pay == base.pays[0]
    assert m.spin(1, "7R", "2X", "7R").line_pay == 2 * base.pays[0]
    r = m.spin(1, "2X", "2X", "7R")
    assert r.line_pay == 4 * base.pays[0] and r.line_wins[0].multiplier == 4


def test_three_double_diamonds_pay_their_own_award_unmultiplied() -> None:
    # RULES A14: Diamond Mine Deluxe — two 2x pay 4x unless three Double Diamonds show
    m = Machine("diamond-mine-deluxe")
    assert m.spin(3, "2X", "2X", "2X").line_pay == m.title.paytables[0].rules[0].pays[2]


def test_a_2x_cannot_pay_alone_as_a_cherry() -> None:
    # RULES A14: Diamond Mine Deluxe — the 2x completes a win; on its own it is no cherry
    m = Machine("diamond-mine-deluxe")
    assert m.spin(1, "2X", "BAR", "-").line_pay == 0


# --- El Toro: pick bonus ----------------------------------------------------------------------


def test_matador_and_bull_on_a_3_coin_spin_start_the_bullfight() -> None:
    # RULES A14: El Toro — a matador and a bull on the same 3-coin spin start the Bullfight bonus
    m = Machine("el-toro")
    m.spin(3, "MATADOR", "-", "BULL")
    assert m.m.pick_pending()
    with pytest.raises(IllegalOperation, match="pick"):
        m.lose(3)
    m.table.apply(PickBonus("m", "bull", "bull"))
    assert not m.m.pick_pending()
    m.spin(2, "MATADOR", "-", "BULL")
    assert not m.m.pick_pending()  # needs the 3-coin wager


@pytest.mark.parametrize(("choice", "winner", "credits"), [
    ("bull", "bull", 200), ("matador", "matador", 200), ("bull", "matador", 10), ("matador", "bull", 10)])
def test_the_right_pick_pays_200_the_wrong_one_10(choice: str, winner: str, credits: int) -> None:
    # RULES A14: El Toro — a correct pick pays 200 credits, a wrong one 10
    m = Machine("el-toro")
    m.spin(3, "MATADOR", "BULL", "-")
    before = m.m.meters["credits"]
    m.table.apply(PickBonus("m", choice, winner))
    assert m.m.meters["credits"] == before + credits


def test_el_toro_rose_is_wild_except_for_matador_and_bull() -> None:
    # RULES A14: El Toro — the rose matches any symbol except the matador and the bull
    m = Machine("el-toro")
    assert m.spin(3, "7R", "ROSE", "7R").line_wins[0].label == "7R 7R 7R"
    m.spin(3, "MATADOR", "ROSE", "-")
    assert not m.m.pick_pending()


# --- Frozen Assets: snowman -------------------------------------------------------------------


def test_snowflakes_with_max_coins_raise_the_snowman_number() -> None:
    # RULES A14: Frozen Assets — each snowflake with max coins adds one to the snowman number
    m = Machine("frozen-assets")
    m.spin(3, "SNOWFLAKE", "SNOWFLAKE", "-")
    assert m.meters["snowman"] == 2
    m.spin(2, "SNOWFLAKE", "-", "-")
    assert m.meters["snowman"] == 2


def test_each_sun_takes_one_off_and_adds_a_credit_to_the_bonus() -> None:
    # RULES A14: Frozen Assets — each sun subtracts one and adds that credit to the snowman bonus
    m = Machine("frozen-assets")
    m.spin(3, "SNOWFLAKE", "SNOWFLAKE", "SNOWFLAKE")
    m.spin(3, "SUN", "SUN", "-")
    assert m.meters["snowman"] == 1 and m.meters["snowman_bonus"] == 502
    m.spin(3, "SUN", "SUN", "-")  # only one to take off
    assert m.meters["snowman"] == 0 and m.meters["snowman_bonus"] == 503


def test_snowman_pays_at_200_and_restarts_at_500() -> None:
    # RULES A14: Frozen Assets — the bonus pays when the number reaches 200 and defaults back to 500
    m = Machine("frozen-assets")
    m.spin(3, "SUN", "SNOWFLAKE", "SNOWFLAKE")  # +2 -1: number 1, bonus 501
    for _ in range(66):
        r = m.spin(3, "SNOWFLAKE", "SNOWFLAKE", "SNOWFLAKE")
        assert not r.awards
    assert m.meters["snowman"] == 199
    r = m.spin(3, "SNOWFLAKE", "-", "-")
    assert [a.credits for a in r.awards] == [501]
    assert m.meters["snowman"] == 0 and m.meters["snowman_bonus"] == 500


def test_frozen_assets_penguin_is_wild_except_snowflake_and_sun() -> None:
    # RULES A14: Frozen Assets — the penguin matches any symbol except the snowflake and the sun
    m = Machine("frozen-assets")
    assert m.spin(3, "BAR", "PENGUIN", "BAR").line_wins[0].label == "BAR BAR BAR"
    assert m.spin(3, "SNOWFLAKE", "PENGUIN", "SNOWFLAKE").line_pay == 0
    assert m.meters["snowman"] == 2


# --- High Rollers and Pharaoh's Gold: multi-line, morphing wilds ------------------------------


def test_high_rollers_pays_only_the_lines_bet_one_coin_each() -> None:
    # RULES A14: High Rollers — 5 paylines, "Bet One" selects fewer lines, 5 coins play them all
    m = Machine("high-rollers")
    diagonal = {-1: ("GUITAR", None, None), 0: (None, "GUITAR", None), 1: (None, None, "GUITAR")}
    three = m.spin(3, rows=diagonal)
    assert three.lines == 3 and three.win == 0  # the diagonal (line 4) is not played
    assert m.m.meters["credits"] == 100_000 - 3
    four = m.spin(4, rows=diagonal)
    assert [(w.line + 1, w.label) for w in four.line_wins if w.pay] == [(4, "GUITAR GUITAR GUITAR")]
    with pytest.raises(IllegalOperation, match="1 to 5"):
        m.spin(6, rows=diagonal)
    five = m.spin(5, "GUITAR", "GUITAR", "GUITAR")
    assert five.coins == 5 and five.lines == 5
    assert [w.line for w in five.line_wins if w.pay] == [0]
    assert five.win == five.line_wins[0].pay


def test_peace_sign_turns_into_vw_bus_only_for_a_vw_bus_win() -> None:
    # RULES A14: High Rollers — a peace sign that helps form three VW Buses turns into a VW Bus
    m = Machine("high-rollers")
    r = m.spin(1, "VWBUS", "PEACE", "VWBUS")
    assert r.line_wins[0].label == "VWBUS VWBUS VWBUS"
    assert r.window[1] == ("VWBUS", "PEACE", "VWBUS") and r.display[1] == ("VWBUS", "VWBUS", "VWBUS")
    r = m.spin(1, "GUITAR", "PEACE", "GUITAR")
    assert r.line_wins[0].label == "GUITAR GUITAR GUITAR" and r.display[1][1] == "PEACE"


def test_pharaohs_gold_eye_is_wild_on_three_lines_and_morphs() -> None:
    # RULES A14: Pharaoh's Gold — 3 paylines; the Eye is wild and morphs into the winning symbol
    m = Machine("pharaohs-gold")
    r = m.spin(3, rows={-1: ("SCARAB", "EYE", "SCARAB")})
    top = r.line_wins[1]
    assert top.label == "SCARAB SCARAB SCARAB" and top.pay > 0
    assert r.display[0][1] == "SCARAB" and r.window[0][1] == "EYE"
    assert r.lines == 3


# --- It's Good to be Bad: Loss Meter, free winning spins, progressive ---------------------------


def test_four_losses_in_a_row_bank_a_free_winning_spin() -> None:
    # RULES A14: It's Good to be Bad — 4 losses in a row bank 1 guaranteed free winning spin
    m = Machine("its-good-to-be-bad")
    for n in range(1, 9):
        m.lose(3)
        assert m.meters["loss_meter"] == n
        assert m.meters["free_winning_spins"] == n // 4


def test_any_win_resets_both_meters() -> None:
    # RULES A14: It's Good to be Bad — any winning spin resets both meters; unused spins are lost
    m = Machine("its-good-to-be-bad")
    for _ in range(5):
        m.lose(3)
    r = m.spin(3, "CH", "-", "-")
    assert r.win > 0
    assert m.meters["loss_meter"] == 0 and m.meters["free_winning_spins"] == 0


def test_loss_meter_needs_the_max_bet() -> None:
    # RULES A14: It's Good to be Bad — only the 3-coin bet takes part in the bonus
    m = Machine("its-good-to-be-bad")
    for _ in range(5):
        m.lose(2)
    assert m.meters["loss_meter"] == 0


def test_cash_in_plays_the_banked_spins_as_wins() -> None:
    # RULES A14: It's Good to be Bad — "Cash In!" redeems banked free winning spins at any time
    m = Machine("its-good-to-be-bad")
    for _ in range(8):
        m.lose(3)
    coin_in = m.m.meters["coin_in"]
    m.table.apply(CashInFreeSpins("m"))
    assert m.meters["loss_meter"] == 0 and m.meters["free_winning_spins"] == 0
    rng = Rng.from_seed(9)
    for _ in range(2):
        m.table.apply(spin_operation(m.floor, "m", 3, rng))
        assert m.m.last is not None and m.m.last.win > 0 and m.m.last.kind.value == "cash-in"
    assert m.m.pending() is None and m.m.meters["coin_in"] == coin_in
    with pytest.raises(IllegalOperation, match="no free winning spins"):
        m.table.apply(CashInFreeSpins("m"))


def test_29_losses_in_a_row_win_the_progressive() -> None:
    # RULES A14: It's Good to be Bad — 29 losing spins in a row win the progressive ($100,000 reset)
    m = Machine("its-good-to-be-bad", denomination=100)
    pool = m.floor.pools["its-good-to-be-bad"]
    assert pool.value_cents == 10_000_000
    for _ in range(28):
        assert m.lose(3).jackpot == 0
    value = pool.value_cents + int(300 * pool.contribution + pool.carry)  # with this spin's share
    r = m.lose(3)
    assert r.jackpot == value // 100 and r.win == r.jackpot
    assert m.meters["loss_meter"] == 0 and m.meters["free_winning_spins"] == 0
    assert pool.value_cents == 10_000_000 + value % 100


def test_good_to_be_bad_plays_quarters_or_dollars_only() -> None:
    # RULES A14: It's Good to be Bad — denominations $0.25 or $1 only
    _, data = load_title_data("its-good-to-be-bad")
    with pytest.raises(IllegalOperation, match="not 5"):
        TableState().apply(InstallMachine("m", data, 5))


# --- Light Speed: multiplier meter and progressive ----------------------------------------------


def test_light_speed_icons_raise_the_meter_and_a_win_pays_times_the_level() -> None:
    # RULES A14: Light Speed — each Light Speed icon raises the meter; a win pays line x level, then 1
    m = Machine("light-speed")
    m.spin(3, "LIGHTSPEED", "LIGHTSPEED", "-")
    assert m.meters["light_speed"] == 3
    r = m.spin(3, "BAR", "BAR", "BAR")
    assert r.multiplier == 3 and r.win == 3 * r.line_pay
    assert m.meters["light_speed"] == 1


def test_light_speed_meter_tops_out_at_7_and_needs_the_max_bet() -> None:
    # RULES A14: Light Speed — the maximum multiplier is seven; the meter needs the max bet
    m = Machine("light-speed")
    m.spin(2, "LIGHTSPEED", "LIGHTSPEED", "LIGHTSPEED")
    assert m.meters["light_speed"] == 1
    for _ in range(3):
        m.spin(3, "LIGHTSPEED", "LIGHTSPEED", "LIGHTSPEED")
    assert m.meters["light_speed"] == 7


def test_three_laser_guns_at_7x_win_the_progressive() -> None:
    # RULES A14: Light Speed — three laser guns at the 7x level win the progressive ($700 reset)
    m = Machine("light-speed")
    pool = m.floor.pools["light-speed"]
    r = m.spin(3, "LASER", "LASER", "LASER")  # at 1x: an ordinary line win
    assert r.jackpot == 0 and r.line_pay > 0
    for _ in range(2):
        m.spin(3, "LIGHTSPEED", "LIGHTSPEED", "LIGHTSPEED")
    value = pool.value_cents + int(75 * pool.contribution + pool.carry)  # with this spin's share
    r = m.spin(3, "LASER", "LASER", "LASER")
    assert r.jackpot == value // 25 and r.win == r.jackpot
    assert pool.value_cents == 70_000 + value % 25
    assert m.meters["light_speed"] == 1


def test_light_speed_robot_is_wild_except_for_the_icon() -> None:
    # RULES A14: Light Speed — the Robot matches any non-Light Speed symbol
    m = Machine("light-speed")
    assert m.spin(3, "ROCKET", "ROBOT", "ROCKET").line_wins[0].label == "ROCKET ROCKET ROCKET"
    assert m.spin(1, "LIGHTSPEED", "ROBOT", "LIGHTSPEED").line_pay == 0


# --- Operation M.Y.O.W.: selectable paytables ---------------------------------------------------


def test_five_named_paytables_on_the_same_reels() -> None:
    # RULES A14: Operation M.Y.O.W. — five pay tables with names and lucky colours, same reels
    m = Machine("operation-myow")
    names = [(t.name, t.colour) for t in m.title.paytables]
    assert names == [("Lucky", "white"), ("Catman", "purple"), ("Kung Fu Kitty", "yellow"),
                     ("Catzilla", "green"), ("The King", "pink")]
    pays = {}
    for name, _ in names:
        m.table.apply(SelectPaytable("m", name))
        pays[name] = m.spin(3, "PINKCAT", "PINKCAT", "PINKCAT").line_pay
    assert pays["The King"] > max(v for k, v in pays.items() if k != "The King")
    with pytest.raises(IllegalOperation, match="no paytable"):
        m.table.apply(SelectPaytable("m", "Garfield"))


# --- stakes ---------------------------------------------------------------------------------------


def test_default_denominations_and_three_coin_maximum() -> None:
    # RULES A14 / H7: default denominations $0.05 $0.25 $0.50 $1 $5; 3 coins is the maximum bet
    _, data = load_title_data("diamond-mine")
    for cents in (5, 25, 50, 100, 500):
        TableState().apply(InstallMachine("m", data, cents))
    with pytest.raises(IllegalOperation, match="not 10"):
        TableState().apply(InstallMachine("m", data, 10))
    m = Machine("diamond-mine")
    with pytest.raises(IllegalOperation, match="1 to 3 coins"):
        m.spin(4, "-", "-", "-")


def test_a_spin_needs_the_credits_for_its_bet() -> None:
    # RULES H7: the bet comes off the credit meter
    m = Machine("diamond-mine", credits=2)
    with pytest.raises(IllegalOperation, match="insert credits"):
        m.spin(3, "-", "-", "-")
    m.spin(2, "-", "-", "-")
    assert m.m.meters["credits"] == 0


# --- the machine's buttons on the dealer page ----------------------------------------------------


def test_the_spin_button_plays_the_owed_free_spin_at_the_triggering_bet() -> None:
    # RULES A14: Bonkers — free spins play the triggering bet; the button needs no coins for them
    m = Machine("bonkers")
    m.spin(2, "BONKERS", "BONKERS", "-")
    op = button_operation(m.floor, "spin", "m", None, Rng.from_seed(1))
    assert isinstance(op, SpinReels) and op.coins == 2
    m.table.apply(op)
    assert m.m.last is not None and m.m.last.kind.value == "free" and m.m.last.win > 0
    with pytest.raises(IllegalOperation, match="triggering bet of 2 coins"):
        button_operation(m.floor, "spin", "m", 3, Rng.from_seed(1))


def test_a_paid_spin_from_the_button_bets_the_maximum_unless_told() -> None:
    # RULES A14: a paid spin takes 1..max coins from the credit meter
    m = Machine("bonkers")
    assert button_operation(m.floor, "spin", "m", None, Rng.from_seed(2)).coins == m.title.max_bet
    assert button_operation(m.floor, "spin", "m", 1, Rng.from_seed(2)).coins == 1
    with pytest.raises(IllegalOperation, match="machines: m"):
        button_operation(m.floor, "spin", None)
    with pytest.raises(IllegalOperation, match="expected spin"):
        button_operation(m.floor, "bull", "m")


def test_the_bullfight_waits_for_the_players_pick_and_the_house_draws_the_winner() -> None:
    # RULES A14: El Toro — a matador and a bull on a 3-coin spin: the player picks bull or matador
    m = Machine("el-toro")
    m.spin(3, "MATADOR", "-", "BULL")
    with pytest.raises(IllegalOperation, match="waits for a pick: one of"):
        button_operation(m.floor, "spin", "m")
    op = button_operation(m.floor, "matador", "m", None, Rng.from_seed(3))
    assert isinstance(op, PickBonus) and op.choice == "matador" and op.winner in ("bull", "matador")
    m.table.apply(op)
    assert not m.m.pick_pending()
