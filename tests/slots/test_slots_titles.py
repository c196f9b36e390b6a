"""Title files: every shipped title loads; a bad file gets an error naming the file, key and expectation."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer.core.slots.features import DragonRespins, FreeSpins, LossMeter, Snowman
from dealer.slots_config import TitleFileError, available_titles, load_title

SEED_TITLES = {
    "Bank On It!", "The Big Heist", "Bonkers!", "Crazy Dragon", "Diamond Mine", "Diamond Mine Deluxe",
    "El Toro", "Frozen Assets", "High Rollers", "It's Good to be Bad", "Light Speed", "Lucky Lightnin'",
    "Operation M.Y.O.W.", "Pharaoh's Gold", "7's and Stripes", "Triple 7 Inferno",
}

GOOD = """
[title]
name = "Mini"
max_coins = 2
[[reels]]
stops = "7 - B -"
[[reels]]
stops = "7 - B -"
[[reels]]
stops = "7 - B -"
[[paytables]]
name = "P"
pays = [ { line = "7 7 7", pays = [10, 20] } ]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mini.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_all_sixteen_seed_titles_and_the_toy_are_shipped() -> None:
    # RULES A14: the 16 three-reel titles
    names = {load_title(slug).name for slug in available_titles()}
    assert names == SEED_TITLES | {"Toy"}


def test_titles_load_by_slug_name_or_path() -> None:
    assert load_title("Light Speed").slug == "light-speed"
    assert load_title("its good to be bad").slug == "its-good-to-be-bad"
    assert load_title(str(available_titles()["bonkers"])).name == "Bonkers!"


def test_seed_paylines_denominations_and_features() -> None:
    # RULES A14 / H7: lines, denominations and the features each title has
    assert load_title("high-rollers").lines == 5 and load_title("high-rollers").max_bet == 5
    assert load_title("pharaohs-gold").lines == 3 and load_title("pharaohs-gold").max_bet == 3
    assert load_title("crazy-dragon").denominations == (100,)
    assert load_title("light-speed").denominations == (25,)
    assert load_title("its-good-to-be-bad").denominations == (25, 100)
    assert load_title("bonkers").denominations == (5, 25, 50, 100, 500)
    resets = {slug: load_title(slug).progressive.reset_cents  # type: ignore[union-attr]
              for slug in ("crazy-dragon", "its-good-to-be-bad", "light-speed")}
    assert resets == {"crazy-dragon": 200_000, "its-good-to-be-bad": 10_000_000, "light-speed": 70_000}
    assert isinstance(load_title("bonkers").features[0], FreeSpins)
    assert isinstance(load_title("crazy-dragon").features[0], DragonRespins)
    assert isinstance(load_title("its-good-to-be-bad").features[0], LossMeter)
    assert len(load_title("operation-myow").paytables) == 5


def test_frozen_assets_notes_the_seed_contradiction_it_resolved() -> None:
    # RULES A14 note: Frozen Assets 200 vs 500
    title = load_title("frozen-assets")
    snowman = title.features[0]
    assert isinstance(snowman, Snowman) and (snowman.target, snowman.bonus_reset) == (200, 500)
    assert any("200" in n and "500" in n for n in title.notes)


@pytest.mark.parametrize(("change", "message"), [
    (("max_coins = 2", "max_coins = 0"), "title.max_coins: expected a whole number >= 1"),
    (('stops = "7 - B -"\n[[reels]]\nstops = "7 - B -"\n[[paytables]]', '[[paytables]]'),
     "reels: expected 3"),
    (("pays = [10, 20]", "pays = [10]"), r"paytables\[0\].pays\[0\].pays: expected 2 values"),
    (('line = "7 7 7"', 'line = "7 7 X"'), "'X' is neither a reel symbol nor a group"),
    (('line = "7 7 7"', 'line = "7 7"'), "expected 3 positions"),
    (('name = "P"', 'name = "P"\n'), None),
    (('[[paytables]]', '[[wilds]]\nsymbol = "W"\n[[paytables]]'),
     r"wilds\[0\].symbol: 'W' appears on no reel"),
    (('[[paytables]]', '[[features]]\ntype = "piggy_bank"\nsymbol = "7"\ncolour = "red"\n[[paytables]]'),
     r"features\[0\].colour: unknown key"),
    (('[[paytables]]', '[[features]]\ntype = "jackpot_party"\n[[paytables]]'),
     r"features\[0\].type: expected one of"),
    (('stops = "7 - B -"', 'stops = "7 - B -"\nweights = [1, 2]'),
     r"reels\[0\].weights: expected one weight per stop"),
    (("[title]", "[title"), "not valid TOML"),
])
def test_bad_title_files_name_file_key_and_expectation(tmp_path: Path, change: tuple[str, str],
                                                       message: str | None) -> None:
    path = write(tmp_path, GOOD.replace(change[0], change[1], 1))
    if message is None:
        assert load_title(str(path)).name == "Mini"
        return
    with pytest.raises(TitleFileError, match=message) as info:
        load_title(str(path))
    assert str(path) in str(info.value)


def test_unknown_title_lists_what_exists() -> None:
    with pytest.raises(TitleFileError, match="expected one of: .*bonkers"):
        load_title("no-such-title")
