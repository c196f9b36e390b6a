"""The games a table can run, and how to open each with its house rules.

Each entry names the operation that opens the game (it is logged like any other) and builds it
from the house-rules spec in the settings (``[table] rules = "h17,das"``). Blackjack reads its own
spec (see :class:`~dealer.core.games.blackjack.BlackjackRules`); every other game takes a comma list
of ``name=value`` pairs naming fields of its opening operation, plus a few bare words::

    game = "faro"                 rules = "stuss,min_bet=5"
    game = "trente-et-quarante"   rules = "insurance=yes,max_bet=500"
    game = "red-dog"              rules = "decks=6,spread_1=4:1"
    game = "in-between"           rules = "players=5,pair_win=3"
    game = "scorebook:friday"     rules = "hearts,players=ann;bob;cy;dee,target=50"

The table's key in ``TableState.games`` is the game's name here (faro and stuss share ``faro``).

Games that count their own cards (faro's casekeeper, the rows of trente et quarante...) do not
record the table's shoe in their card operation: :attr:`GameEntry.cards_seen` says how many cards
the game has taken since its own shuffle, so simulated play can log the card leaving the shoe and
then give it to the game, and :attr:`GameEntry.shoe` says which shoe the game is dealt from.
"""

from __future__ import annotations

import dataclasses
import importlib
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dealer.core.cards import Card
from dealer.core.errors import DealerError, IllegalOperation
from dealer.core.games.base import Prompt
from dealer.core.operations import Operation
from dealer.core.shoe import BurnRule, CutRule, ShoeRules
from dealer.core.table_state import TransferChips

BUY_IN = 500  # what each simulated seat of a pot game brings to the table when it opens
DEFAULT_PLAYERS = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo")
Opener = Callable[[Any, str, str], list[Operation]]  # (module, rules spec, table key) -> operations
Actions = Callable[[Any, str, Prompt], Operation]  # (module, option, prompt) -> operation
# (module, game, option, prompt, target, amount, rng) -> an operation whose outcome the house RNG draws
Plays = Callable[[Any, Any, str, Prompt, str | None, int | None, Any], Operation]


@dataclass(frozen=True)
class GameEntry:
    module: str  # under dealer.core (``games.faro``) or a plain name under dealer.core.games
    new_operation: str  # the class that opens the game
    description: str
    actions: Actions | None = None  # (module, option, prompt) -> op
    opener: Opener | None = None  # builds the opening operations from the rules spec
    shoe: Callable[[Any], ShoeRules] | None = None  # the shoe a running game is dealt from
    cards_seen: Callable[[Any], int] | None = None  # own-count games: cards taken since its shuffle
    between_rounds: Callable[[Any], bool] | None = None  # no card of a round is out: the shoe may change
    fresh_pack: bool = False  # every round is dealt from a freshly shuffled pack (pai gow)
    reveal: Callable[[Any, Any, Card], Operation] | None = None  # (module, game, card): turn one up
    seats: bool = True  # simulated players sit at this game (False: scorebooks)
    plays: Plays | None = None  # options drawn by the house RNG (a slot spin), in place of ``actions``

    def _module(self) -> Any:
        name = self.module if "." in self.module else f"games.{self.module}"
        return importlib.import_module(f"dealer.core.{name}")

    def opening(self, rules: str, key: str = "") -> list[Operation]:
        """Every operation that opens the game (buy-ins first, where the game takes antes)."""
        module = self._module()
        if self.opener is not None:
            return self.opener(module, rules, key)
        op: Operation = getattr(module, self.new_operation)(rules=rules)
        return [op]

    def new_game(self, rules: str, key: str = "") -> Operation:
        """The operation that opens the game (the last of :meth:`opening`)."""
        return self.opening(rules, key)[-1]

    def action(self, option: str, prompt: Prompt, game: Any = None, target: str | None = None,
               amount: int | None = None, rng: Any = None) -> Operation:
        """The operation for one of the prompt's options; ``target`` and ``amount`` for the games
        whose buttons need them (which slot machine, how many coins)."""
        if self.plays is not None:
            return self.plays(self._module(), game, option, prompt, target, amount, rng)
        if self.actions is None:
            raise IllegalOperation(f"{self.module} takes its decisions as operations (POST /api/operations)")
        return self.actions(self._module(), option, prompt)

    def reveal_operation(self, game: Any, card: Card) -> Operation:
        if self.reveal is None:
            raise IllegalOperation(f"{self.module} has no face-down cards to turn up")
        return self.reveal(self._module(), game, card)

    def shoe_rules(self, game: Any) -> ShoeRules | None:
        return None if self.shoe is None else self.shoe(game)

    @property
    def counts_own_cards(self) -> bool:
        return self.cards_seen is not None

    def is_between_rounds(self, game: Any) -> bool:
        if self.between_rounds is not None:
            return self.between_rounds(game)
        return self.cards_seen is not None and self.cards_seen(game) == 0


# ---- rules specs ---------------------------------------------------------------------------------

def parse_spec(spec: str, op_class: type[Operation], *, words: dict[str, dict[str, Any]] | None = None,
               extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """``"a=1,b=yes,word"`` as keyword arguments for ``op_class`` (checked against its fields).

    ``words`` maps bare words to the fields they set; ``extra`` names keys the opener reads itself.
    """
    fields = {f.name: f for f in dataclasses.fields(op_class) if f.init and f.name != "kind"}
    hints = typing.get_type_hints(op_class)
    out: dict[str, Any] = {}
    name = op_class.kind.split(".")[0]
    for raw in spec.split(","):
        token = raw.strip()
        if not token:
            continue
        if "=" not in token:
            if words and token.lower() in words:
                out.update(words[token.lower()])
                continue
            expected = ", ".join(sorted(words or {})) or "none"
            raise IllegalOperation(f"bad {name} rule {token!r}: expected NAME=VALUE (bare words: {expected})")
        key, _, value = token.partition("=")
        key = key.strip().replace("-", "_")
        if key in extra:
            out[key] = value.strip()
            continue
        if key not in fields:
            raise IllegalOperation(f"unknown {name} rule {key!r}: expected one of "
                                   f"{', '.join(sorted(set(fields) | set(extra)))}")
        out[key] = _convert(name, key, value.strip(), hints[key])
    return out


def _convert(game: str, key: str, value: str, hint: Any) -> Any:
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        if value.lower() in ("none", "") and type(None) in args:
            return None
        hint = next(a for a in args if a is not type(None))
    if hint is bool:
        if value.lower() in ("yes", "true", "on", "1"):
            return True
        if value.lower() in ("no", "false", "off", "0"):
            return False
        raise IllegalOperation(f"{game} rule {key}={value!r}: expected yes or no")
    if hint is int:
        try:
            return int(value)
        except ValueError:
            raise IllegalOperation(f"{game} rule {key}={value!r}: expected a whole number") from None
    if typing.get_origin(hint) is tuple:
        return tuple(v.strip() for v in value.split(";") if v.strip())
    return value


def _seats(count: str | None, default: int = 4) -> tuple[str, ...]:
    try:
        n = default if count is None else int(count)
    except ValueError:
        raise IllegalOperation(f"players={count!r}: expected a number of seats or names a;b;c") from None
    return tuple(f"seat-{i}" for i in range(1, n + 1))


def _open_simple(words: dict[str, dict[str, Any]] | None = None) -> Opener:
    def opener(module: Any, spec: str, key: str) -> list[Operation]:
        cls = getattr(module, _NEW[module.__name__])
        return [cls(**parse_spec(spec, cls, words=words))]
    return opener


def _open_pot_game(cls_name: str) -> Opener:
    """Pot games ante at once: the seats buy in before the game opens."""
    def opener(module: Any, spec: str, key: str) -> list[Operation]:
        cls = getattr(module, cls_name)
        args = parse_spec(spec, cls, extra=("players", "dealer"))
        raw = args.pop("players", None)
        players = (tuple(p.strip() for p in raw.split(";") if p.strip())
                   if raw and not raw.isdigit() else _seats(raw))
        dealer = args.pop("dealer", players[0] if players else "")
        buy_ins: list[Operation] = [TransferChips("cage", p, BUY_IN, "buys in") for p in players]
        return [*buy_ins, cls(players=players, dealer=dealer, **args)]
    return opener


def _open_scorebook(module: Any, spec: str, key: str) -> list[Operation]:
    """``scorebook:<book>`` with rules ``"<scored game>,players=ann;bob,<house rule>=<value>..."``."""
    from dealer.core.scoring.registry import game_class

    ops = importlib.import_module("dealer.core.scoring.operations")
    book = key.removeprefix("scorebook:") or "table"
    tokens = [t.strip() for t in spec.split(",") if t.strip()]
    name = next((t for t in tokens if "=" not in t), "hearts")
    scorer = game_class(name)
    players: tuple[str, ...] = ()
    rules: dict[str, Any] = {}
    for token in tokens:
        if "=" not in token:
            continue
        k, _, v = token.partition("=")
        if k.strip() == "players":
            players = tuple(p.strip() for p in v.split(";") if p.strip())
        else:
            rules[k.strip()] = int(v) if v.strip().lstrip("-").isdigit() else v.strip()
    if not players:  # as many of four default names as the game seats
        fewest, most = min(scorer.side_count), max(scorer.side_count)
        players = DEFAULT_PLAYERS[:max(fewest, min(4, most))]
    return [ops.OpenScorebook(book, players, title=scorer.title),
            ops.StartScoredGame(book, scorer.name, rules=rules)]


# ---- dealer-page options → operations ------------------------------------------------------------

def _seat_of(prompt: Prompt) -> int:
    if not prompt.who or not prompt.who.startswith("seat-"):
        raise IllegalOperation(f"the prompt names no seat ({prompt.who!r})")
    return int(prompt.who.removeprefix("seat-"))


def _number(who: str) -> int:
    """``seat-3`` → 3; ``dealer`` → 0 (the stud games number the dealer 0)."""
    if who == "dealer":
        return 0
    if not who.startswith("seat-") or not who.removeprefix("seat-").isdigit():
        raise IllegalOperation(f"the prompt names no seat ({who!r})")
    return int(who.removeprefix("seat-"))


def _needs_input(option: str) -> IllegalOperation:
    return IllegalOperation(f"{option!r} needs an amount, a seat or a card: use the form (POST "
                            "/api/operations or /api/cards)")


def _blackjack_action(module: Any, option: str, prompt: Prompt) -> Operation:
    simple = {"deal": module.StartRound, "peek-clear": module.PeekClear}
    if option in simple:
        op: Operation = simple[option]()
    elif option == "decline":
        op = module.Insure(_seat_of(prompt), 0)
    elif option in ("bet", "insure", "reveal"):
        raise _needs_input(option)
    else:
        op = module.Act(module.Action(option))
    return op


SeatOption = Callable[[Any, str], Operation]


def _table_actions(simple: dict[str, str | Callable[[Any], Operation]],
                   seat_options: dict[str, SeatOption] | None = None) -> Actions:
    """Options that need nothing more (``settle``), and options for the seat the prompt names."""
    def actions(module: Any, option: str, prompt: Prompt) -> Operation:
        if option in simple:
            make = simple[option]
            op: Operation = getattr(module, make)() if isinstance(make, str) else make(module)
            return op
        if seat_options and option in seat_options:
            if not prompt.who:
                raise IllegalOperation(f"{option!r}: the prompt names no seat")
            return seat_options[option](module, prompt.who)
        raise _needs_input(option)
    return actions


def _dice_by_rng(module: Any) -> Operation:
    """The dealer page's "dice": three dice from the CSPRNG, logged as dice (RULES A8)."""
    from dealer.core.rng import Rng

    op: Operation = module.RollDice(Rng.system().dice(3), source="rng")
    return op


# ---- the shoes the own-count games are dealt from -----------------------------------------------

def _plain_shoe(decks: int) -> ShoeRules:
    """A shoe the game itself decides when to shuffle: no cut card, no burn."""
    return ShoeRules(decks, "standard-52", CutRule(0, 0), BurnRule.NONE)


_NEW = {
    "dealer.core.games.faro": "NewFaroGame",
    "dealer.core.games.trente_et_quarante": "NewTrenteEtQuarante",
    "dealer.core.games.red_dog": "NewRedDog",
    "dealer.core.games.paigow": "NewPaiGowGame",
    "dealer.core.games.caribbean_stud": "NewCaribbeanStudGame",
    "dealer.core.games.let_it_ride": "NewLetItRideGame",
    "dealer.core.games.pusoy": "NewPusoyGame",
}

SLOT_TITLES = ("diamond-mine", "triple-7-inferno", "crazy-dragon")  # crazy dragon: a progressive


def _open_slots(module: Any, spec: str, key: str) -> list[Operation]:
    """Rules ``"titles=diamond-mine;crazy-dragon,denomination=25"``: one machine per title."""
    from dealer.slots_config import CONFIG_DIR, read_title_file

    args = parse_spec(spec, module.InstallMachine, extra=("titles", "denomination"))
    titles = tuple(t.strip() for t in str(args.get("titles", "")).split(";") if t.strip()) or SLOT_TITLES
    ops: list[Operation] = []
    for i, slug in enumerate(titles, 1):
        title, data = read_title_file(CONFIG_DIR / f"{slug}.toml")
        wanted = int(args.get("denomination", 0) or 0)
        denomination = wanted if wanted in title.denominations else min(title.denominations)
        ops.append(module.InstallMachine(f"m{i}", data, denomination, digest=title.digest()))
    return ops



def _blackjack_reveal(module: Any, game: Any, card: Card) -> Operation:
    """Live mode: the card typed is the next face-down card turned up, the hole card first."""
    if game.hole is not None and game.hole.is_back:
        op: Operation = module.Reveal(0, card)
        return op
    for number, seat in sorted(game.seats.items()):
        for index, hand in enumerate(seat.hands):
            if hand.cards and hand.cards[-1].is_back:
                op = module.Reveal(number, card, index)
                return op
    raise IllegalOperation("no face-down card is waiting to be turned up")


def _pontoon_reveal(module: Any, game: Any, card: Card) -> Operation:
    hidden = game.face_down()
    if hidden is None:
        raise IllegalOperation("no face-down card is waiting to be turned up")
    op: Operation = module.PontoonReveal(hidden, card)
    return op


GAMES: dict[str, GameEntry] = {
    "blackjack": GameEntry("blackjack", "NewBlackjackGame", "Blackjack with a permanent bank (RULES A1)",
                           _blackjack_action, reveal=_blackjack_reveal),
    "baccarat": GameEntry("baccarat", "NewBaccaratGame", "Punto banco with the roads (RULES A3)",
                          _table_actions({"deal": "StartCoup",
                                          "reshuffle": lambda m: m.ReshuffleDiscards("baccarat")})),
    "pontoon": GameEntry("pontoon", "NewPontoonGame", "Pontoon with a player bank (RULES A2)",
                         _table_actions({"deal": "PontoonStart",
                                         "reshuffle": lambda m: m.ReshuffleDiscards("pontoon")}),
                         reveal=_pontoon_reveal),
    "chemin-de-fer": GameEntry(
        "chemin_de_fer", "NewCheminDeFer", "Chemin de fer: the bank passes (RULES A4)",
        _table_actions({"keep": "KeepBank", "withdraw": "WithdrawBank", "close": "CloseBets",
                        "reshuffle": lambda m: m.ReshuffleDiscards("chemin-de-fer")})),
    "faro": GameEntry(
        "faro", "NewFaroGame", "Faro with the casekeeper (RULES A5); rules 'stuss' for stuss (A6)",
        _table_actions({"settle": "SettleTurn", "undo": "UndoCard", "new-deal": "NewFaroDeal"}),
        opener=_open_simple({"stuss": {"variant": "stuss"}, "faro": {"variant": "faro"}}),
        shoe=lambda game: _plain_shoe(1), cards_seen=lambda game: len(game.entries)),
    "trente-et-quarante": GameEntry(
        "trente_et_quarante", "NewTrenteEtQuarante", "Trente et quarante, rouge et noir (RULES A7)",
        _table_actions({"settle": "SettleCoup", "undo": "UndoTqCard", "new-shoe": "NewTqShoe",
                        "void": "VoidCoup"}),
        opener=_open_simple(), shoe=lambda game: _plain_shoe(game.rules.decks),
        cards_seen=lambda game: game.shoe_cards_out),
    "red-dog": GameEntry(
        "red_dog", "NewRedDog", "Casino red dog: the spread and the raise [STD]",
        _table_actions({"settle": "RedDogSettle", "new-shoe": "RedDogNewShoe"},
                       {"no-raise": lambda module, seat: module.RedDogRaise(seat, 0)}),
        opener=_open_simple(), shoe=lambda game: _plain_shoe(game.rules.decks),
        cards_seen=lambda game: sum(game.seen.values())),
    "high-card-pool": GameEntry(
        "red_dog", "NewHighCardPool", "High-card pool, the seed's red dog (RULES A12)",
        _table_actions({"settle": "PoolSettle", "new-deal": "PoolNewDeal"},
                       {"forfeit": lambda module, seat: module.PoolForfeit(seat)}),
        opener=_open_pot_game("NewHighCardPool"), shoe=lambda game: _plain_shoe(1),
        cards_seen=lambda game: game.cards_out),
    "in-between": GameEntry(
        "in_between", "NewInBetween", "In-between (acey-deucey) with a pot (RULES A13)",
        _table_actions({"settle": "InBetweenSettle", "shuffle": "InBetweenShuffle"}),
        opener=_open_pot_game("NewInBetween"), shoe=lambda game: _plain_shoe(1),
        cards_seen=lambda game: game.cards_out),
    "pai-gow": GameEntry(
        "paigow", "NewPaiGowGame", "Pai gow poker with three dice picking the first hand (RULES A8)",
        _table_actions({"settle": "Settle", "new-round": "NewRound", "dice": _dice_by_rng}),
        opener=_open_simple(), shoe=lambda game: ShoeRules(1, "52+1", CutRule(0, 0), BurnRule.NONE),
        between_rounds=lambda game: game.cards_dealt == 0 and game.phase.value in ("betting", "over"),
        fresh_pack=True),
    "caribbean-stud": GameEntry(
        "caribbean_stud", "NewCaribbeanStudGame", "Caribbean stud poker against the dealer (RULES A10)",
        _table_actions({"deal": "CaribbeanDeal", "settle": "CaribbeanSettle"},
                       {"fold": lambda m, who: m.CaribbeanFold(_number(who)),
                        "call": lambda m, who: m.CaribbeanCall(_number(who)),
                        "reveal": lambda m, who: m.CaribbeanReveal(_number(who), ())}),
        opener=_open_simple()),
    "let-it-ride": GameEntry(
        "let_it_ride", "NewLetItRideGame", "Let it ride: three bets, two community cards (RULES A11)",
        _table_actions({"deal": "LetItRideDeal", "settle": "LetItRideSettle", "turn": "RevealCommunity"},
                       {"show": lambda m, who: m.LetItRideShow(_number(who))}),
        opener=_open_simple()),
    "pusoy": GameEntry(
        "pusoy", "NewPusoyGame", "Pusoy (Chinese poker) against the dealer (RULES A9)",
        _table_actions({"deal": "PusoyDeal", "settle": "PusoySettle"}), opener=_open_simple()),
    "slots": GameEntry("games.slots", "InstallMachine",
                       "Slot machines with meters and a shared progressive (RULES A14)",
                       opener=_open_slots,
                       plays=lambda m, game, option, prompt, target, amount, rng: m.button_operation(
                           game, option, target or prompt.who, amount, rng)),
}

SCOREBOOK = GameEntry("scoring.operations", "OpenScorebook",
                      "A scorebook for a kitchen-table game (scorebook:<book>, rules '<game>,players=a;b')",
                      opener=_open_scorebook, seats=False)


def game_entry(name: str) -> GameEntry:
    if name.startswith("scorebook:"):
        return SCOREBOOK
    try:
        return GAMES[name]
    except KeyError:
        raise DealerError(f"unknown game {name!r}: expected one of {', '.join(sorted(GAMES))} "
                          "or scorebook:<book>") from None


def find_entry(name: str | None) -> GameEntry | None:
    if name is None:
        return None
    try:
        return game_entry(name)
    except DealerError:
        return None


def open_game(table: Any, name: str, rules: str) -> None:
    """Open ``name`` at ``table`` (a :class:`~dealer.table.runtime.Table`) unless its log already
    has it: every opening operation, buy-ins first. ``dealer.table.setup`` can call this in place
    of submitting :meth:`GameEntry.new_game` alone."""
    if name == "none" or name in table.state.games:
        return
    for op in game_entry(name).opening(rules, name):
        table.submit(op)
