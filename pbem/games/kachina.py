"""Kachina (Scott Caputo, 2009): a crossword-like tile-laying game, 2-5 players.

Each player holds five spirit tiles. On your turn you add one tile to a
shared grid; a tile strictly stronger than every other tile in its row run or
column run dominates that line and scores one point per tile in it. Ogres,
Eagles and Warriors bend placement, Wolves, Hummingbirds and Kosharis bend
domination. Rules notes, options and notation: ``docs/rules/kachina.md``.

Driving a game from Python, without the server (a fixed deal and draw order
so the example is deterministic; leave ``tile_order`` out for a shuffled
game):

>>> import random
>>> from pbem import games
>>> game = games.get("kachina")
>>> order = (["sun", "wolf", "wolf", "koshari", "chief"]        # seat 0's hand
...          + ["wolf", "hummingbird", "eagle", "sun", "ogre"]  # seat 1's hand
...          + ["chief", "warrior", "sun"] * 5)                 # the draw pile
>>> options = game.check_options(2, {"tile_order": order, "start_player": 0,
...                                   "opening_redraw": False})
>>> state = game.start(2, options)
>>> state = game.apply(state, game.setup(state, random.Random(1)))
>>> rng = random.Random(2)
>>> def play(text):
...     global state
...     player = next(iter(game.to_act(state)))
...     move = game.parse(text, state, player)
...     events = game.decide(state, player, move, rng)
...     state = game.apply(state, events)
...     return game.describe(events[0], player)
>>> play("wolf 0,0")
'Seat 0 opened with a Wolf at 0,0 and scored 1 point. Seat 0 drew a Chief.'
>>> play("wolf 1,0")
'Seat 1 placed a Wolf at 1,0 and scored 2 points (row 2). Seat 1 drew a Warrior.'
>>> play("chief 2,0")
'Seat 0 placed a Chief at 2,0 and scored nothing. Seat 0 drew a Sun.'
>>> play("eagle on 2,0")
'Seat 1 covered the Chief at 2,0 with an Eagle and scored nothing. Seat 1 drew a Chief.'
>>> game.to_act(state), [game.view(state, 0)["scores"], game.view(state, 0)["hand_sizes"]]
(frozenset({0}), [[1, 2], [5, 5]])
>>> print(game.legal_moves(state, 0)[0], game.default_move(state, 0) == game.legal_moves(state, 0)[0])
{'type': 'place', 'tile': 'koshari', 'x': 0, 'y': -1} True

Play it to the end with ``game.result(state)`` (None until the pile and all
hands are empty), which gives scores, placings and the tie-break detail.
"""
from __future__ import annotations

import random
import re
import unicodedata
from typing import Any

from . import register
from .base import (
    OMNISCIENT,
    plain_width,
    SPECTATOR,
    BadOptions,
    Game,
    IllegalMove,
    Option,
    ParseError,
    Result,
    name_seat,
    placings_from_keys,
)
from .i18n import CHINESE, ENGLISH, N_, _, join_words, ngettext, notation_language, pgettext

# --------------------------------------------------------------------------
# Tiles: the kind code is the printed value.

KOSHARI, HUMMINGBIRD, WARRIOR, WOLF, EAGLE, OGRE, SUN, CHIEF = range(1, 9)
NAMES = ("", "koshari", "hummingbird", "warrior", "wolf", "eagle", "ogre", "sun", "chief")
KIND = {name: k for k, name in enumerate(NAMES) if name}
CODES = ("", "KO", "HU", "WA", "WO", "EA", "OG", "SU", "CH")
COUNTS = {CHIEF: 6, SUN: 8, OGRE: 8, EAGLE: 8, WOLF: 8, WARRIOR: 8, HUMMINGBIRD: 8, KOSHARI: 6}
FULL_SET = tuple(sorted(k for k, n in COUNTS.items() for _i in range(n)))
HAND_SIZE = 5
MAX_LINE = 7

# --------------------------------------------------------------------------
# The notation's words. Not messages: a move line must paste back as it
# was written, so each language's words are fixed here (the Chinese from
# the glossary, shared/rules/glossary-zh-Hant.md); ``describe`` writes the
# words of ``notation_language()`` and ``parse`` reads every word of both,
# in any mix.

#: kind -> the word a move line names it by, per language
TILE_WORDS = {
    ENGLISH: NAMES,
    CHINESE: ("", "小丑", "蜂鳥", "戰士", "狼", "老鷹", "食人魔", "太陽", "部落酋長"),
}
#: the command words a move line is written with, per language
VERBS = {
    ENGLISH: {"cover": "on", "swap": "swap", "keep": "keep", "redraw": "redraw", "pass": "pass",
              "discard": "discard"},
    CHINESE: {"cover": "覆蓋", "swap": "交換", "keep": "保留", "redraw": "重抽", "pass": "跳過",
              "discard": "棄置"},
}
#: the one-character names the Chinese board shows (a CJK character is two
#: columns wide, as the English codes are): read as tiles too
CHINESE_CODES = ("", "丑", "鳥", "戰", "狼", "鷹", "魔", "陽", "酋")

ALIASES = dict(KIND)
ALIASES.update({CODES[k].lower(): k for k in range(1, 9)})
ALIASES.update({TILE_WORDS[CHINESE][k]: k for k in range(1, 9)})
ALIASES.update({CHINESE_CODES[k]: k for k in range(1, 9)})
ALIASES.update({"hummer": HUMMINGBIRD, "humming": HUMMINGBIRD, "bird": HUMMINGBIRD,
                "clown": KOSHARI, "kosh": KOSHARI, "wolves": WOLF, "chiefs": CHIEF, "suns": SUN,
                "ogres": OGRE, "eagles": EAGLE, "warriors": WARRIOR, "hummingbirds": HUMMINGBIRD,
                "酋長": CHIEF, "食人妖": OGRE, "鷹": EAGLE, "小丑魂": KOSHARI})
#: words that ask for an Eagle's cover, a Warrior's swap
COVER_WORDS = frozenset({"on", "cover", "covers", "over", "onto", "覆蓋", "蓋", "蓋住", "蓋在"})
SWAP_WORDS = frozenset({"swap", "swaps", "for", "take", "takes", "replace", "replaces", "交換", "換", "取代"})
#: words a move line may hold that say nothing more ("place a sun at 3,-1", "放置一片太陽在 3,-1")
FILL_WORDS = frozenset({"at", "to", "in", "place", "play", "put", "a", "an", "the", "tile", "with",
                        "放置", "放", "打出", "在", "於", "到", "用", "一片", "片", "板塊", "把", "將"})
#: the moves named by a word alone (discard with a tile)
ANSWER_WORDS = {"keep": "keep", "保留": "keep", "不重抽": "keep", "redraw": "redraw", "重抽": "redraw",
                "重新抽": "redraw", "pass": "pass", "跳過": "pass", "discard": "discard", "棄置": "discard",
                "棄掉": "discard", "棄": "discard"}
# Chinese is typed without spaces ("老鷹覆蓋2,0"): each known Chinese word
# is set apart before the line is split (the longest first, so 老鷹 is not 鷹).
_CHINESE_WORDS = re.compile("(" + "|".join(re.escape(w) for w in sorted(
    {w for w in (*ALIASES, *COVER_WORDS, *SWAP_WORDS, *FILL_WORDS, *ANSWER_WORDS) if not w.isascii()},
    key=len, reverse=True)) + ")")


def tile_word(k: int) -> str:
    """The notation's word for kind ``k`` in the language move lines are written in."""
    return TILE_WORDS[notation_language()][k]


def verb(key: str) -> str:
    """The notation's command word ``key`` in the language move lines are written in."""
    return VERBS[notation_language()][key]


def tile_title(k: int) -> str:
    """Kind ``k`` as a sentence names it ("Sun", 太陽)."""
    return {
        CHIEF: pgettext("kachina", "Chief"), SUN: pgettext("kachina", "Sun"), OGRE: pgettext("kachina", "Ogre"),
        EAGLE: pgettext("kachina", "Eagle"), WOLF: pgettext("kachina", "Wolf"),
        WARRIOR: pgettext("kachina", "Warrior"), HUMMINGBIRD: pgettext("kachina", "Hummingbird"),
        KOSHARI: pgettext("kachina", "Koshari"),
    }[k]


def a_tile(k: int) -> str:
    """Kind ``k`` with its article ("a Sun", "an Eagle"; Chinese has none)."""
    return {
        CHIEF: pgettext("kachina", "a Chief"), SUN: pgettext("kachina", "a Sun"),
        OGRE: pgettext("kachina", "an Ogre"), EAGLE: pgettext("kachina", "an Eagle"),
        WOLF: pgettext("kachina", "a Wolf"), WARRIOR: pgettext("kachina", "a Warrior"),
        HUMMINGBIRD: pgettext("kachina", "a Hummingbird"), KOSHARI: pgettext("kachina", "a Koshari"),
    }[k]


def board_code(k: int) -> str:
    """Kind ``k`` as the text board shows it: two columns wide in both
    languages (English SU, Chinese 陽)."""
    # i18n: the board's code for a tile: two columns wide (one Chinese character), unique per tile
    return {
        CHIEF: pgettext("kachina code", "CH"), SUN: pgettext("kachina code", "SU"),
        OGRE: pgettext("kachina code", "OG"), EAGLE: pgettext("kachina code", "EA"),
        WOLF: pgettext("kachina code", "WO"), WARRIOR: pgettext("kachina code", "WA"),
        HUMMINGBIRD: pgettext("kachina code", "HU"), KOSHARI: pgettext("kachina code", "KO"),
    }[k]


def columns(text: str) -> int:
    """How many columns ``text`` takes in a monospace font (a CJK character two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` columns (on the left when ``right``)."""
    fill = " " * max(0, width - columns(text))
    return fill + text if right else text + fill


def _tiles(kinds) -> str:
    """Tiles by their notation words, "sun, wolf" / 太陽、狼."""
    return _(", ").join(tile_word(k) for k in kinds)


def _titles(kinds) -> str:
    """Tiles as a sentence names them, "Sun, Wolf and Chief"."""
    return join_words([tile_title(k) for k in kinds])


#: Why a game ended, as the state keeps it (English: the view's ``reason``
#: and ``Result.reason`` are data) and as a reader reads it.
END_REASONS = {
    "the draw pile and every hand are empty": N_("the draw pile and every hand are empty"),
    "a full round passed with no tile placed": N_("a full round passed with no tile placed"),
}


def end_reason(reason: str) -> str:
    """The reason a game ended, in the reader's language."""
    return _(END_REASONS[reason]) if reason in END_REASONS else reason


# Cells are packed ints: key = (y + OFF) * W + (x + OFF). Sorting keys sorts
# by (y, x). 60 tiles can never reach 64 cells from the origin.
OFF = 64
W = 128
STEPS = (1, -1, W, -W)
ORIGIN = OFF * W + OFF


def cell(x: int, y: int) -> int:
    return (y + OFF) * W + (x + OFF)


def xy(key: int) -> tuple[int, int]:
    return key % W - OFF, key // W - OFF


# --------------------------------------------------------------------------
# State


class KState:
    """The whole game. Treated as immutable: ``evolve`` copies what changes.

    board: visible kind per cell; under: the tile under an Eagle per cell;
    hands: sorted tuples of kinds; pile: sorted tuple (shuffled game) or the
    draw order (fixed ``tile_order``); choices: redraw answers (None = not yet).
    """

    __slots__ = ("n", "opts", "phase", "start", "turn", "board", "under", "hands", "pile",
                 "scores", "reached", "moves", "passes", "choices", "last", "reason", "_cache")
    FIELDS = __slots__[:-1]

    def copy(self) -> "KState":
        s = KState.__new__(KState)
        for f in KState.FIELDS:
            setattr(s, f, getattr(self, f))
        s._cache = None
        return s


def _remove(seq: tuple, k: int) -> tuple:
    if k in seq:
        i = seq.index(k)
        return seq[:i] + seq[i + 1:]
    return seq


def _add_sorted(seq: tuple, kinds) -> tuple:
    return tuple(sorted(seq + tuple(kinds)))


def _ogre_adjacent(board: dict, c: int) -> bool:
    return (board.get(c + 1) == OGRE or board.get(c - 1) == OGRE
            or board.get(c + W) == OGRE or board.get(c - W) == OGRE)


def _zeroed(board: dict, c: int) -> bool:
    """A visible non-Koshari tile next to a visible Koshari is worth 0."""
    return board[c] != KOSHARI and (
        board.get(c + 1) == KOSHARI or board.get(c - 1) == KOSHARI
        or board.get(c + W) == KOSHARI or board.get(c - W) == KOSHARI)


def score_line(board: dict, c: int, step: int) -> int:
    """Points the tile now visible at ``c`` scores in the line along ``step``
    (1: the row, W: the column). ``board`` already holds the placed tile."""
    a = c
    while a - step in board:
        a -= step
    b = c
    while b + step in board:
        b += step
    length = (b - a) // step + 1
    if length < 2:
        return 0
    k = board[c]
    if board[a] == HUMMINGBIRD and board[b] == HUMMINGBIRD:
        # Bookended: only a newly placed Hummingbird dominates, whatever its value.
        return length if k == HUMMINGBIRD else 0
    if _zeroed(board, c):
        return 0
    cells = range(a, b + 1, step)
    wolves = 0
    for t in cells:
        if board[t] == WOLF and not _zeroed(board, t):
            wolves += 1
    mine = 4 * wolves if k == WOLF else k
    for t in cells:
        if t == c:
            continue
        v = board[t]
        if v == WOLF:
            if k == WOLF:
                continue  # the placed Wolf's allies
            v = 4 * wolves
        if v >= mine and not _zeroed(board, t):
            return 0
    return length


def _next_seat(hands: tuple, p: int) -> int | None:
    n = len(hands)
    for i in range(1, n + 1):
        q = (p + i) % n
        if hands[q]:
            return q
    return None


# --------------------------------------------------------------------------


class Kachina(Game):
    name = "kachina"
    version = 1
    title = N_("Kachina")
    min_players = 2
    max_players = 5
    hidden_information = True
    error_codes = {
        "unknown_move": "the move's type is not one of this game's moves",
        "bad_tile": "`tile` is not a tile name",
        "bad_cell": "`x` and `y` must be whole numbers",
        "tile_not_in_hand": "the seat holds no such tile",
        "opening_cell": "the opening tile goes at 0,0",
        "ogre_opening": "an Ogre may not be the opening tile",
        "occupied": "the cell is taken (cover it with an Eagle, swap with a Warrior)",
        "not_adjacent": "the cell touches no tile",
        "ogre_adjacent": "only an Ogre may go (or be covered) next to an Ogre",
        "line_too_long": "the tile would make a line longer than 7",
        "empty_cell": "an Eagle covers, a Warrior swaps with, a placed tile: this cell is empty",
        "eagle_on_eagle": "an Eagle may not cover an Eagle",
        "covering_eagle": "a Warrior may not take an Eagle that covers a tile",
        "warrior_on_warrior": "a Warrior may not swap with a Warrior",
        "must_place": "the seat can place a tile, so it may not pass or discard",
        "wrong_stuck_rule": "this game's stuck_player option is the other rule (pass or discard)",
        "no_redraw": "a redraw needs 3 or more tiles of one kind in hand",
        "wrong_phase": "the redraw is only before play",
        "already_answered": "the seat has answered the opening redraw; the others are still deciding",
        "bad_notation": "the text could not be read as a move",
    }
    view_fields = {
        "placings": "once the game is over: each seat's placing (1 = first; tied seats share one)",
        "phase": "`redraw` (the opening redraw decisions), `play` or `over`",
        "start_player": "the seat that starts",
        "to_act": "the seats to act now",
        "board": "the placed tiles: `x`, `y`, `tile` (its name) and, under an Eagle, `covered` (the tile "
                 "it covers)",
        "scores": "per seat",
        "reached_at_move": "per seat, the move at which it reached its score (the tie-break)",
        "hand_sizes": "per seat, the number of tiles in hand",
        "pile_size": "tiles left to draw",
        "move_number": "moves played so far",
        "passes": "consecutive passes",
        "last": "the cell [x, y] of the last placement (null before the first)",
        "redraw_answered": "during the redraw: per seat, whether it has answered",
        "redraw_choice": "during the redraw: this seat's own answer (true: redraw), once given",
        "reason": "once over: why the game ended",
        "hand": "this seat's own tiles (a seat's view only)",
        "hands": "every seat's tiles (once the game is over)",
        "pile": "the draw pile in order (once the game is over)",
        "redraw_choices": "every seat's redraw answer (once the game is over)",
    }
    concurrency = "window"
    concurrency_doc = ("The opening redraw is one window: every seat answers keep or redraw, signed at any "
                       "version since the deal; in play one seat acts at a time (strict).")
    options = (
        Option("opening_redraw", True,
               N_("A player dealt 3 or more tiles of one kind may redraw 5 new tiles once, "
                  "before play (all decide secretly, resolved in seat order from the start player).")),
        Option("opening_player_draws", True, N_("The start player draws 1 tile after the opening tile.")),
        Option("line_cap_scope", "run",
               N_("What the 7-tile limit counts: 'run' (the contiguous run through the cell) or "
                  "'grid_line' (every tile of that grid row or column, across gaps)."),
               kind=str, choices=("run", "grid_line")),
        Option("stuck_player", "pass",
               N_("A player holding tiles but with no legal placement: 'pass' (draws nothing; a full "
                  "round of passes ends the game) or 'discard' (discards a tile face up and draws)."),
               kind=str, choices=("pass", "discard")),
        Option("tile_order", [],
               N_("Scripted games and tutorials: the tiles by name, dealt 5 per seat in seat order "
                  "from the front, then drawn in order; returned tiles go to the bottom. Empty: a "
                  "shuffled 60-tile game. A shorter list plays with those tiles only."),
               kind=list),
        Option("start_player", -1, N_("The start player's seat; -1 draws it at random."),
               kind=int, minimum=-1, maximum=4),
    )
    _fixed_order = (["chief", "sun", "ogre", "eagle", "wolf", "warrior", "hummingbird", "koshari"] * 6
                    + ["sun", "ogre", "eagle", "wolf", "warrior", "hummingbird"] * 2)
    sample_setups = (
        (2, {}),
        (3, {}),
        (4, {}),
        (5, {}),
        (2, {"opening_redraw": False, "opening_player_draws": False}),
        (3, {"line_cap_scope": "grid_line", "stuck_player": "discard"}),
        (4, {"tile_order": _fixed_order, "start_player": 2}),
    )

    # -- words -----------------------------------------------------------

    @property
    def notation_help(self) -> str:
        """The help for every setup, in the reader's language
        (``notation_help_for`` keeps only the rules in play)."""
        return self._help(redraw=True, stuck=None)

    def notation_help_for(self, options: dict) -> str:
        return self._help(redraw=options.get("opening_redraw", True),
                          stuck="discard" if options.get("stuck_player") == "discard" else "pass")

    @staticmethod
    def _examples(redraw: bool, stuck: str | None) -> list:
        """(example move line, what it does) in the languages of the reader
        and of the notation; ``stuck`` None: both stuck rules."""
        place = f"{tile_word(SUN)} 3,-1"
        rows = [
            (place, _("place a tile from your hand")),
            (f"{tile_word(EAGLE)} {verb('cover')} 2,0", _("cover the tile at 2,0 with an Eagle")),
            (f"{tile_word(WARRIOR)} {verb('swap')} 1,1",
             _("swap a Warrior for the tile at 1,1 (that tile goes to your hand; you draw none)")),
        ]
        if redraw:
            rows.append((f"{verb('keep')} / {verb('redraw')}",
                         _("before play: keep your hand, or (dealt 3 or more of one kind) redraw 5 new tiles")))
        discard = f"{verb('discard')} {tile_word(SUN)}"
        if stuck == "pass":
            rows.append((verb("pass"), _("only when you hold tiles but none can be placed")))
        elif stuck == "discard":
            rows.append((discard, _("only when you hold tiles but none can be placed: discard one face up "
                                    "and draw")))
        else:
            rows.append((f"{verb('pass')} / {discard}",
                         _("when you hold tiles but none can be placed (the game's options say which)")))
        return rows

    def _help(self, redraw: bool, stuck: str | None) -> str:
        lines = [_("Kachina moves (cells are x,y: x grows east, y grows south; the opening tile is at 0,0):")]
        for example, what in self._examples(redraw, stuck):
            lines.append("  " + _pad(example, 20) + (" " if columns(example) >= 20 else "") + what)
        order = (CHIEF, SUN, OGRE, EAGLE, WOLF, WARRIOR, HUMMINGBIRD, KOSHARI)
        lines.append(_("Tiles and their values: {tiles}.",
                       tiles=_(", ").join(f"{tile_word(k)} {k}" for k in order)))
        lines.append(_("The board shows them as {codes}; those are read as tiles too.",
                       codes=" ".join(board_code(k) for k in order)))
        return "\n".join(lines)

    def notation_examples(self, options: dict) -> list:
        out = [f"{tile_word(SUN)} 3,-1", f"{tile_word(EAGLE)} {verb('cover')} 2,0",
               f"{tile_word(WARRIOR)} {verb('swap')} 1,1"]
        if options.get("opening_redraw", True):
            out += [verb("keep"), verb("redraw")]
        out.append(f"{verb('discard')} {tile_word(SUN)}" if options.get("stuck_player") == "discard"
                   else verb("pass"))
        return out

    def describe_setup(self, options: dict, players: int | None = None) -> str:
        parts = [_("Kachina")]
        if players is not None:
            parts.append(ngettext("{n} player", "{n} players", players))
        parts.append(_("an opening redraw for a hand of 3 or more of one kind") if options.get("opening_redraw", True)
                     else _("no opening redraw"))
        parts.append(_("the start player draws after the opening tile") if options.get("opening_player_draws", True)
                     else _("the start player does not draw after the opening tile"))
        parts.append(_("the 7-tile limit counts the run through the cell")
                     if options.get("line_cap_scope", "run") == "run"
                     else _("the 7-tile limit counts the whole grid row or column"))
        parts.append(_("a seat that cannot place discards a tile and draws") if options.get("stuck_player") == "discard"
                     else _("a seat that cannot place passes"))
        if options.get("tile_order"):
            parts.append(ngettext("a fixed order of {n} tile", "a fixed order of {n} tiles",
                                  len(options["tile_order"])))
        if options.get("start_player", -1) >= 0:
            parts.append(_("seat {seat} starts", seat=options["start_player"]))
        return _("; ").join(parts) + _(".")

    # -- options ---------------------------------------------------------

    def check_setup(self, players: int, options: dict) -> None:
        if options["start_player"] >= players:
            raise BadOptions("bad_option_value", _("start_player must be below {players}", players=players),
                             option="start_player")
        order = options["tile_order"]
        if not order:
            return
        bad = [t for t in order if not isinstance(t, str) or t.lower() not in KIND]
        if bad:
            raise BadOptions("bad_option_value", _("tile_order holds unknown tiles {bad}; the tiles are {tiles}",
                                                   bad=", ".join(map(repr, bad[:5])), tiles=", ".join(NAMES[1:])),
                             option="tile_order")
        kinds = [KIND[t.lower()] for t in order]
        for k, n in COUNTS.items():
            if kinds.count(k) > n:
                raise BadOptions("bad_option_value", _("tile_order holds {count} {tile} tiles; the game has {n}",
                                                       count=kinds.count(k), tile=NAMES[k], n=n),
                                 option="tile_order")
        if len(kinds) < HAND_SIZE * (players + 1):
            raise BadOptions("bad_option_value", ngettext(
                "tile_order needs at least {need} tiles for {n} player",
                "tile_order needs at least {need} tiles for {n} players", players,
                need=HAND_SIZE * (players + 1)), option="tile_order")
        if sum(1 for k in kinds if k != OGRE) <= HAND_SIZE * (players - 1):
            raise BadOptions("bad_option_value", _("tile_order needs more tiles that are not Ogres, so that the "
                                                   "start player can always open"), option="tile_order")

    # -- lifecycle -------------------------------------------------------

    def start(self, players: int, options: dict) -> KState:
        options = self.check_options(players, options)
        s = KState()
        s.n = players
        s.opts = options
        s.phase = "deal"
        s.start = 0
        s.turn = 0
        s.board = {}
        s.under = {}
        s.hands = ((),) * players
        order = options["tile_order"]
        s.pile = tuple(KIND[t.lower()] for t in order) if order else FULL_SET
        s.scores = (0,) * players
        s.reached = (0,) * players
        s.moves = 0
        s.passes = 0
        s.choices = (None,) * players
        s.last = None
        s.reason = ""
        s._cache = None
        return s

    def _fixed(self, s: KState) -> bool:
        return bool(s.opts["tile_order"])

    def _draw(self, s: KState, count: int, rng: random.Random) -> list[int]:
        """The next ``count`` tiles off the pile (random, or the fixed order)."""
        if self._fixed(s):
            return list(s.pile[:count])
        return [s.pile[i] for i in rng.sample(range(len(s.pile)), min(count, len(s.pile)))]

    def setup(self, state: KState, rng: random.Random) -> list[dict]:
        s = state
        sp = s.opts["start_player"]
        if sp < 0:
            sp = rng.randrange(s.n)
        events = [{"type": "StartPlayerChosen", "player": sp}]
        s = self.evolve(s, events[0])
        for p in range(s.n):
            tiles = self._draw(s, HAND_SIZE, rng)
            ev = {"type": "HandDealt", "player": p, "count": len(tiles),
                  "secret": {"tiles": [NAMES[k] for k in tiles]}, "to": [p]}
            events.append(ev)
            s = self.evolve(s, ev)
        if s.phase == "play":
            events += self._forced_redraws(s, rng)
        return events

    def _redraw_event(self, s: KState, p: int, rng: random.Random, forced: bool) -> dict:
        drawn = self._draw(s, HAND_SIZE, rng)
        return {"type": "HandRedrawn", "player": p, "forced": forced,
                "secret": {"drawn": [NAMES[k] for k in drawn], "returned": [NAMES[k] for k in s.hands[p]]},
                "to": [p]}

    def _forced_redraws(self, s: KState, rng: random.Random) -> list[dict]:
        """[HOUSE] a start player holding only Ogres redraws until they can open."""
        events = []
        p = s.start
        while s.hands[p] and all(k == OGRE for k in s.hands[p]) and any(k != OGRE for k in s.pile):
            ev = self._redraw_event(s, p, rng, True)
            events.append(ev)
            s = self.evolve(s, ev)
        return events

    # -- evolve ----------------------------------------------------------

    def evolve(self, state: KState, event: dict) -> KState:
        t = event["type"]
        s = state.copy()
        if t == "TilePlaced":
            p = event["player"]
            k = KIND[event["tile"]]
            c = cell(event["x"], event["y"])
            mode = event["mode"]
            board = dict(s.board)
            hand = _remove(s.hands[p], k)
            if mode == "cover":
                under = dict(s.under)
                under[c] = board[c]
                s.under = under
            elif mode == "swap":
                hand = _add_sorted(hand, (board[c],))
            board[c] = k
            s.board = board
            s.moves += 1
            pts = event["points"]
            if pts:
                scores = list(s.scores)
                scores[p] += pts
                s.scores = tuple(scores)
                reached = list(s.reached)
                reached[p] = s.moves
                s.reached = tuple(reached)
            drawn = event.get("secret", {}).get("drawn")
            if drawn is not None:
                d = KIND[drawn]
                hand = _add_sorted(hand, (d,))
                s.pile = _remove(s.pile, d)
            hands = list(s.hands)
            hands[p] = hand
            s.hands = tuple(hands)
            s.passes = 0
            s.last = [p, mode, event["tile"], event["x"], event["y"], pts]
            self._advance(s, p)
        elif t in ("TurnPassed", "TileDiscarded"):
            p = event["player"]
            s.moves += 1
            if t == "TurnPassed":
                s.passes += 1
                s.last = [p, "pass"]
            else:
                s.passes = 0
                k = KIND[event["tile"]]
                hand = _remove(s.hands[p], k)
                drawn = event.get("secret", {}).get("drawn")
                if drawn is not None:
                    hand = _add_sorted(hand, (KIND[drawn],))
                    s.pile = _remove(s.pile, KIND[drawn])
                hands = list(s.hands)
                hands[p] = hand
                s.hands = tuple(hands)
                s.last = [p, "discard", event["tile"]]
            self._advance(s, p)
        elif t == "RedrawChosen":
            p = event["player"]
            choices = list(s.choices)
            choices[p] = bool(event.get("secret", {}).get("redraw", False))
            s.choices = tuple(choices)
            if all(c is not None for c in choices):
                s.phase = "play"
        elif t == "HandRedrawn":
            p = event["player"]
            secret = event.get("secret", {})
            drawn = [KIND[x] for x in secret.get("drawn", ())]
            returned = [KIND[x] for x in secret.get("returned", ())]
            pile = s.pile
            for d in drawn:
                pile = _remove(pile, d)
            if self._fixed(s):
                pile = pile + tuple(returned)
            else:
                pile = _add_sorted(pile, returned)
            s.pile = pile
            hands = list(s.hands)
            hands[p] = tuple(sorted(drawn))
            s.hands = tuple(hands)
        elif t == "HandDealt":
            p = event["player"]
            tiles = [KIND[x] for x in event.get("secret", {}).get("tiles", ())]
            pile = s.pile
            for d in tiles:
                pile = _remove(pile, d)
            s.pile = pile
            hands = list(s.hands)
            hands[p] = tuple(sorted(tiles))
            s.hands = tuple(hands)
            if p == s.n - 1:
                s.phase = "redraw" if s.opts["opening_redraw"] else "play"
        elif t == "StartPlayerChosen":
            s.start = s.turn = event["player"]
        return s

    def _advance(self, s: KState, p: int) -> None:
        """Pass the turn on (in place, on a fresh copy), or end the game."""
        nxt = _next_seat(s.hands, p)
        if nxt is None:
            s.phase = "over"
            s.reason = "the draw pile and every hand are empty"
        elif s.passes and s.passes >= sum(1 for h in s.hands if h):
            s.phase = "over"
            s.reason = "a full round passed with no tile placed"
        else:
            s.turn = nxt

    # -- whose turn, what is legal --------------------------------------

    def to_act(self, state: KState) -> frozenset:
        if state.phase == "play":
            return frozenset((state.turn,))
        if state.phase == "redraw":
            return frozenset(p for p, c in enumerate(state.choices) if c is None)
        return frozenset()

    def check_turn(self, state: KState, player: int) -> None:
        """A seat that has answered the opening redraw is told so, not only
        that it is not to act: its answer stands while the others decide."""
        if (state.phase == "redraw" and self.result(state) is None and isinstance(player, int)
                and 0 <= player < len(state.choices) and state.choices[player] is not None):
            raise IllegalMove("already_answered", _("You have answered the opening redraw already; your answer "
                                                    "stands while the others decide."))
        super().check_turn(state, player)

    def window(self, state: KState):
        """The opening redraw is the one window: every seat answers it at
        once, and nothing a seat may answer changes until the last answer
        (hands and pile stay as dealt), so an answer signed at any version
        since the deal still stands. In play one seat acts: no window."""
        return "redraw" if state.phase == "redraw" else None

    def _targets(self, s: KState):
        """(cells for an Ogre, cells for other tiles, Eagle covers, Warrior swaps),
        each sorted by (y, x); computed once per state."""
        if s._cache is not None:
            return s._cache
        board = s.board
        if not board:
            out = ((), (ORIGIN,), (), ())
            s._cache = out
            return out
        cand = set()
        for key in board:
            for d in STEPS:
                if key + d not in board:
                    cand.add(key + d)
        ogre_cells = []
        other_cells = []
        if s.opts["line_cap_scope"] == "run":
            for c in sorted(cand):
                r = 1
                t = c - 1
                while t in board:
                    r += 1
                    t -= 1
                t = c + 1
                while t in board:
                    r += 1
                    t += 1
                if r > MAX_LINE:
                    continue
                r = 1
                t = c - W
                while t in board:
                    r += 1
                    t -= W
                t = c + W
                while t in board:
                    r += 1
                    t += W
                if r > MAX_LINE:
                    continue
                ogre_cells.append(c)
                if not _ogre_adjacent(board, c):
                    other_cells.append(c)
        else:
            rows: dict = {}
            cols: dict = {}
            for key in board:
                rows[key // W] = rows.get(key // W, 0) + 1
                cols[key % W] = cols.get(key % W, 0) + 1
            for c in sorted(cand):
                if rows.get(c // W, 0) >= MAX_LINE or cols.get(c % W, 0) >= MAX_LINE:
                    continue
                ogre_cells.append(c)
                if not _ogre_adjacent(board, c):
                    other_cells.append(c)
        covers = []
        swaps = []
        under = s.under
        for c in sorted(board):
            if _ogre_adjacent(board, c):
                continue
            v = board[c]
            if v != EAGLE:
                covers.append(c)
            if v != WARRIOR and c not in under:
                swaps.append(c)
        out = (tuple(ogre_cells), tuple(other_cells), tuple(covers), tuple(swaps))
        s._cache = out
        return out

    def legal_moves(self, state: KState, player: int) -> list[dict]:
        s = state
        if player not in self.to_act(s):
            return []
        hand = s.hands[player]
        if s.phase == "redraw":
            moves = [{"type": "keep"}]
            if self._may_redraw(s, player):
                moves.append({"type": "redraw"})
            return moves
        moves = self._placements(s, hand)
        if moves:
            return moves
        if s.opts["stuck_player"] == "pass":
            return [{"type": "pass"}]
        return [{"type": "discard", "tile": NAMES[k]} for k in sorted(set(hand))]

    def _placements(self, s: KState, hand: tuple) -> list[dict]:
        ogre_cells, other_cells, covers, swaps = self._targets(s)
        opening = not s.board
        moves = []
        for k in sorted(set(hand)):
            name = NAMES[k]
            if k == OGRE:
                if opening:
                    continue
                cells = ogre_cells
            else:
                cells = other_cells
            for c in cells:
                moves.append({"type": "place", "tile": name, "x": c % W - OFF, "y": c // W - OFF})
            if k == EAGLE:
                for c in covers:
                    moves.append({"type": "cover", "x": c % W - OFF, "y": c // W - OFF})
            elif k == WARRIOR:
                for c in swaps:
                    moves.append({"type": "swap", "x": c % W - OFF, "y": c // W - OFF})
        return moves

    def _may_redraw(self, s: KState, p: int) -> bool:
        hand = s.hands[p]
        return (len(s.pile) >= HAND_SIZE
                and any(hand.count(k) >= 3 for k in set(hand)))

    def default_move(self, state: KState, player: int) -> dict | None:
        """Redraw phase: keep. Play: the first legal placement, trying tiles by
        ascending value, a normal placement before a cover or swap, cells in
        (y, x) order; that is how ``legal_moves`` is ordered."""
        moves = self.legal_moves(state, player)
        return moves[0] if moves else None

    # -- decide ----------------------------------------------------------

    @staticmethod
    def _coord(move: dict) -> int:
        x = move.get("x")
        y = move.get("y")
        if type(x) is not int or type(y) is not int:
            raise IllegalMove("bad_cell", _("x and y must be whole numbers (the cell x,y)."))
        if not (-OFF < x < OFF and -OFF < y < OFF):
            raise IllegalMove("bad_cell", _("The cell {x},{y} is far from every tile.", x=x, y=y))
        return cell(x, y)

    @staticmethod
    def _keys(move: dict, *allowed: str) -> None:
        extra = set(move) - {"type", *allowed}
        missing = {"type", *allowed} - set(move)
        if extra or missing:
            raise IllegalMove("malformed_move", _("A {type} move has exactly the fields {fields}.",
                                                  type=move["type"], fields=", ".join(sorted({"type", *allowed}))))

    def decide(self, state: KState, player: int, move: dict, rng: random.Random) -> list[dict]:
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove("malformed_move", _("A move is an object with a 'type'."))
        self.check_turn(state, player)
        s = state
        mt = move["type"]
        if s.phase == "redraw":
            if mt not in ("keep", "redraw"):
                raise IllegalMove("wrong_phase", _("Before play, answer '{keep}' or '{redraw}'.",
                                                   keep=verb("keep"), redraw=verb("redraw")))
            self._keys(move)
            if mt == "redraw" and not self._may_redraw(s, player):
                raise IllegalMove("no_redraw", _("You may redraw only when you hold 3 or more tiles of one kind."))
            ev = {"type": "RedrawChosen", "player": player,
                  "secret": {"redraw": mt == "redraw"}, "to": [player]}
            events = [ev]
            s = self.evolve(s, ev)
            if s.phase == "play":
                for i in range(s.n):
                    p = (s.start + i) % s.n
                    if s.choices[p] and len(s.pile) >= HAND_SIZE:
                        e = self._redraw_event(s, p, rng, False)
                        events.append(e)
                        s = self.evolve(s, e)
                events += self._forced_redraws(s, rng)
            return events
        if mt in ("keep", "redraw"):
            raise IllegalMove("wrong_phase", _("The redraw is only before play."))
        hand = s.hands[player]
        if mt in ("pass", "discard"):
            if mt == "pass":
                self._keys(move)
            else:
                self._keys(move, "tile")
            if self._placements(s, hand):
                raise IllegalMove("must_place", _("You can place a tile, so you may not pass.") if mt == "pass"
                                  else _("You can place a tile, so you may not discard."))
            if s.opts["stuck_player"] != mt:
                raise IllegalMove("wrong_stuck_rule", _("In this game a player who cannot place passes.")
                                  if s.opts["stuck_player"] == "pass"
                                  else _("In this game a player who cannot place discards a tile."))
            if mt == "pass":
                return [{"type": "TurnPassed", "player": player}]
            k = self._tile(move, hand)
            ev = {"type": "TileDiscarded", "player": player, "tile": NAMES[k], "drew": False}
            self._with_draw(s, ev, player, rng, 1)
            return [ev]
        if mt == "place":
            self._keys(move, "tile", "x", "y")
            k = self._tile(move, hand)
            c = self._coord(move)
            ogre_cells, other_cells, _covers, _swaps = self._targets(s)
            if not s.board:
                if c != ORIGIN:
                    raise IllegalMove("opening_cell", _("The opening tile goes at 0,0."))
                if k == OGRE:
                    raise IllegalMove("ogre_opening", _("An Ogre may not be the opening tile."))
            elif c not in (ogre_cells if k == OGRE else other_cells):
                raise IllegalMove(*self._why_not_place(s, c, k))
        elif mt == "cover":
            self._keys(move, "x", "y")
            k = EAGLE
            if EAGLE not in hand:
                raise IllegalMove("tile_not_in_hand", _("You hold no Eagle to cover with."))
            c = self._coord(move)
            if c not in self._targets(s)[2]:
                if c not in s.board:
                    example = f"{tile_word(EAGLE)} x,y"
                    raise IllegalMove("empty_cell", _("An Eagle covers a placed tile; to place it on an empty "
                                                      "cell, write '{example}'.", example=example))
                if s.board[c] == EAGLE:
                    raise IllegalMove("eagle_on_eagle", _("An Eagle may not cover an Eagle."))
                raise IllegalMove("ogre_adjacent", _("An Eagle may not cover a tile next to an Ogre."))
        elif mt == "swap":
            self._keys(move, "x", "y")
            k = WARRIOR
            if WARRIOR not in hand:
                raise IllegalMove("tile_not_in_hand", _("You hold no Warrior to swap with."))
            c = self._coord(move)
            if c not in self._targets(s)[3]:
                if c not in s.board:
                    example = f"{tile_word(WARRIOR)} x,y"
                    raise IllegalMove("empty_cell", _("A Warrior swaps with a placed tile; to place it on an empty "
                                                      "cell, write '{example}'.", example=example))
                if c in s.under:
                    raise IllegalMove("covering_eagle", _("A Warrior may not take an Eagle that covers a tile."))
                if s.board[c] == WARRIOR:
                    raise IllegalMove("warrior_on_warrior", _("A Warrior may not swap with a Warrior."))
                raise IllegalMove("ogre_adjacent", _("A Warrior may not swap with a tile next to an Ogre."))
        else:
            raise IllegalMove("unknown_move", _("There is no move '{type}' in Kachina; the moves are place, cover, "
                                                "swap and pass.", type=mt) if s.opts["stuck_player"] == "pass"
                              else _("There is no move '{type}' in Kachina; the moves are place, cover, swap "
                                     "and discard.", type=mt))
        board = dict(s.board)
        board[c] = k
        if not s.board:
            row = col = 0
            points = 1
        else:
            row = score_line(board, c, 1)
            col = score_line(board, c, W)
            points = row + col
        x, y = xy(c)
        ev = {"type": "TilePlaced", "player": player, "tile": NAMES[k], "x": x, "y": y, "mode": mt,
              "row": row, "col": col, "points": points, "move": s.moves + 1, "drew": False}
        if mt == "cover":
            ev["covered"] = NAMES[s.board[c]]
        elif mt == "swap":
            ev["taken"] = NAMES[s.board[c]]
        if mt != "swap" and (s.board or s.opts["opening_player_draws"]):
            self._with_draw(s, ev, player, rng, 1)
        return [ev]

    def _with_draw(self, s: KState, ev: dict, player: int, rng: random.Random, count: int) -> None:
        if s.pile:
            drawn = self._draw(s, count, rng)[0]
            ev["drew"] = True
            ev["secret"] = {"drawn": NAMES[drawn]}
            ev["to"] = [player]

    @staticmethod
    def _tile(move: dict, hand: tuple) -> int:
        name = move.get("tile")
        if not isinstance(name, str) or name not in KIND:
            raise IllegalMove("bad_tile", _("'tile' must be one of {tiles}.", tiles=", ".join(NAMES[1:])))
        k = KIND[name]
        if k not in hand:
            raise IllegalMove("tile_not_in_hand", _("You hold no {tile}.", tile=tile_title(k)))
        return k

    def _why_not_place(self, s: KState, c: int, k: int) -> tuple[str, str]:
        board = s.board
        x, y = xy(c)
        if c in board:
            if k == EAGLE:
                example = f"{tile_word(EAGLE)} {verb('cover')} {x},{y}"
                return "occupied", _("{x},{y} is taken; to cover it, write '{example}'.", x=x, y=y, example=example)
            if k == WARRIOR:
                example = f"{tile_word(WARRIOR)} {verb('swap')} {x},{y}"
                return "occupied", _("{x},{y} is taken; to swap your Warrior for it, write '{example}'.", x=x, y=y,
                                     example=example)
            return "occupied", _("{x},{y} is taken.", x=x, y=y)
        if not any(c + d in board for d in STEPS):
            return "not_adjacent", _("{x},{y} does not touch any tile.", x=x, y=y)
        if k != OGRE and _ogre_adjacent(board, c):
            return "ogre_adjacent", _("Only an Ogre may be placed next to an Ogre ({x},{y}).", x=x, y=y)
        return "line_too_long", _("A tile at {x},{y} would make a line longer than {max} tiles.", x=x, y=y,
                                  max=MAX_LINE)

    # -- results ---------------------------------------------------------

    def result(self, state: KState) -> Result | None:
        s = state
        if s.phase != "over":
            return None
        keys = [(s.scores[p], -s.reached[p] if s.scores[p] else 0) for p in range(s.n)]
        return Result(scores=tuple(s.scores), placings=placings_from_keys(keys), reason=s.reason,
                      detail={"reached_at_move": list(s.reached),
                              "tie_break": "on equal scores, the first to reach the score wins"})

    # -- views -----------------------------------------------------------

    def view(self, state: KState, viewer: Any) -> dict:
        s = state
        out = {
            "phase": s.phase,
            "start_player": s.start,
            "to_act": sorted(self.to_act(s)),
            "board": [self._cell_view(s, c) for c in sorted(s.board)],
            "scores": list(s.scores),
            "reached_at_move": list(s.reached),
            "hand_sizes": [len(h) for h in s.hands],
            "pile_size": len(s.pile),
            "move_number": s.moves,
            "passes": s.passes,
            "last": s.last,
        }
        if s.phase == "redraw":
            out["redraw_answered"] = [c is not None for c in s.choices]
        if s.phase == "over":
            out["reason"] = s.reason
            out["placings"] = list(self.result(s).placings)
        if isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < s.n:
            out["hand"] = [NAMES[k] for k in s.hands[viewer]]
            if s.phase == "redraw" and s.choices[viewer] is not None:
                out["redraw_choice"] = s.choices[viewer]
        elif viewer == OMNISCIENT:
            out["hands"] = [[NAMES[k] for k in h] for h in s.hands]
            out["pile"] = [NAMES[k] for k in s.pile]
            out["redraw_choices"] = list(s.choices)
        return out

    @staticmethod
    def _cell_view(s: KState, c: int) -> dict:
        x, y = xy(c)
        d = {"x": x, "y": y, "tile": NAMES[s.board[c]]}
        if c in s.under:
            d["covered"] = NAMES[s.under[c]]
        return d

    def redact_move(self, move: dict, mover: int, viewer: Any, events: list | None = None) -> dict | None:
        """The redraw answer is secret until every seat has answered."""
        if isinstance(move, dict) and move.get("type") in ("keep", "redraw") and viewer not in (mover, OMNISCIENT):
            return None
        return move

    def resample(self, state: KState, viewer: Any, rng: random.Random) -> KState:
        """Re-deal every tile the viewer cannot see: the other hands (same
        sizes) and the pile; redraw answers of others are redrawn too."""
        s = state.copy()
        seen = viewer if isinstance(viewer, int) and not isinstance(viewer, bool) else -1
        pool = list(s.pile)
        for p, h in enumerate(s.hands):
            if p != seen:
                pool.extend(h)
        rng.shuffle(pool)
        hands = []
        i = 0
        for p, h in enumerate(s.hands):
            if p == seen:
                hands.append(h)
            else:
                hands.append(tuple(sorted(pool[i:i + len(h)])))
                i += len(h)
        s.hands = tuple(hands)
        rest = pool[i:]
        s.pile = tuple(rest) if self._fixed(s) else tuple(sorted(rest))
        if s.phase == "redraw":
            s.choices = tuple(
                c if (p == seen or c is None) else (rng.random() < 0.5 and self._may_redraw(s, p))
                for p, c in enumerate(s.choices))
        return s

    def dump(self, state: KState) -> dict:
        s = state
        return {
            "n": s.n, "opts": s.opts, "phase": s.phase, "start": s.start, "turn": s.turn,
            "board": [[*xy(c), s.board[c]] for c in sorted(s.board)],
            "under": [[*xy(c), s.under[c]] for c in sorted(s.under)],
            "hands": [list(h) for h in s.hands], "pile": list(s.pile),
            "scores": list(s.scores), "reached": list(s.reached), "moves": s.moves,
            "passes": s.passes, "choices": list(s.choices), "last": s.last, "reason": s.reason,
        }

    def load(self, data: dict) -> KState:
        s = KState()
        s.n = data["n"]
        s.opts = data["opts"]
        s.phase = data["phase"]
        s.start = data["start"]
        s.turn = data["turn"]
        s.board = {cell(x, y): k for x, y, k in data["board"]}
        s.under = {cell(x, y): k for x, y, k in data["under"]}
        s.hands = tuple(tuple(h) for h in data["hands"])
        s.pile = tuple(data["pile"])
        s.scores = tuple(data["scores"])
        s.reached = tuple(data["reached"])
        s.moves = data["moves"]
        s.passes = data["passes"]
        s.choices = tuple(data["choices"])
        s.last = data["last"]
        s.reason = data["reason"]
        s._cache = None
        return s

    # -- text --------------------------------------------------------------

    def describe(self, item: dict, viewer: Any = SPECTATOR, names=None) -> str:
        t = item.get("type")
        if t == "place":
            return f"{_word(item.get('tile'))} {item.get('x')},{item.get('y')}"
        if t == "cover":
            return f"{tile_word(EAGLE)} {verb('cover')} {item.get('x')},{item.get('y')}"
        if t == "swap":
            return f"{tile_word(WARRIOR)} {verb('swap')} {item.get('x')},{item.get('y')}"
        if t in ("keep", "redraw", "pass"):
            return verb(t)
        if t == "discard":
            return f"{verb('discard')} {_word(item.get('tile'))}"
        secret = item.get("secret") or {}
        who = name_seat(item.get("player"), names, capital=True)
        if t == "TilePlaced":
            return _sentences(self._placed(item, who), self._drew(item, who))
        if t == "TurnPassed":
            return _("{who} could place no tile and passed.", who=who)
        if t == "TileDiscarded":
            return _sentences(_("{who} could place no tile and discarded {tile}.", who=who,
                                tile=a_tile(KIND[item["tile"]])), self._drew(item, who))
        if t == "StartPlayerChosen":
            return _("{who} is the start player.", who=who)
        if t == "HandDealt":
            if "tiles" in secret:
                return _("{who} was dealt {tiles}.", who=who, tiles=_titles(KIND[x] for x in secret["tiles"]))
            count = item.get("count", HAND_SIZE)
            return ngettext("{who} was dealt {n} tile.", "{who} was dealt {n} tiles.", count, who=who)
        if t == "RedrawChosen":
            if "redraw" in secret:
                return (_("{who} chose to redraw.", who=who) if secret["redraw"]
                        else _("{who} chose to keep their hand.", who=who))
            return _("{who} answered the opening redraw.", who=who)
        if t == "HandRedrawn":
            if "drawn" in secret:
                returned = _titles(KIND[x] for x in secret["returned"])
                drawn = _titles(KIND[x] for x in secret["drawn"])
                if item.get("forced"):
                    return _("{who} held only Ogres and redrew: returned {returned}; drew {drawn}.",
                             who=who, returned=returned, drawn=drawn)
                return _("{who} redrew: returned {returned}; drew {drawn}.", who=who, returned=returned, drawn=drawn)
            if item.get("forced"):
                return ngettext("{who} held only Ogres and redrew {n} tile.",
                                "{who} held only Ogres and redrew {n} tiles.", HAND_SIZE, who=who)
            return ngettext("{who} redrew {n} tile.", "{who} redrew {n} tiles.", HAND_SIZE, who=who)
        return super().describe(item, viewer, names)

    @staticmethod
    def _placed(item: dict, who: str) -> str:
        """A placement, a cover or a swap and what it scored, in a sentence."""
        x, y, pts = item["x"], item["y"], item["points"]
        tile = a_tile(KIND[item["tile"]])
        if item["mode"] == "place" and item.get("move") == 1:
            return ngettext("{who} opened with {tile} at {x},{y} and scored {n} point.",
                            "{who} opened with {tile} at {x},{y} and scored {n} points.", pts,
                            who=who, tile=tile, x=x, y=y)
        parts = []
        if item.get("row"):
            parts.append(_("row {n}", n=item["row"]))
        if item.get("col"):
            parts.append(_("column {n}", n=item["col"]))
        lines = _(", ").join(parts) or str(pts)
        if item["mode"] == "cover":
            covered = tile_title(KIND[item["covered"]])
            if not pts:
                return _("{who} covered the {covered} at {x},{y} with an Eagle and scored nothing.",
                         who=who, covered=covered, x=x, y=y)
            return ngettext("{who} covered the {covered} at {x},{y} with an Eagle and scored {n} point ({lines}).",
                            "{who} covered the {covered} at {x},{y} with an Eagle and scored {n} points ({lines}).",
                            pts, who=who, covered=covered, x=x, y=y, lines=lines)
        if item["mode"] == "swap":
            taken = tile_title(KIND[item["taken"]])
            if not pts:
                return _("{who} took the {taken} at {x},{y} into hand, leaving a Warrior in its place, "
                         "and scored nothing.", who=who, taken=taken, x=x, y=y)
            return ngettext("{who} took the {taken} at {x},{y} into hand, leaving a Warrior in its place, "
                            "and scored {n} point ({lines}).",
                            "{who} took the {taken} at {x},{y} into hand, leaving a Warrior in its place, "
                            "and scored {n} points ({lines}).", pts, who=who, taken=taken, x=x, y=y, lines=lines)
        if not pts:
            return _("{who} placed {tile} at {x},{y} and scored nothing.", who=who, tile=tile, x=x, y=y)
        return ngettext("{who} placed {tile} at {x},{y} and scored {n} point ({lines}).",
                        "{who} placed {tile} at {x},{y} and scored {n} points ({lines}).", pts,
                        who=who, tile=tile, x=x, y=y, lines=lines)

    @staticmethod
    def _drew(item: dict, who: str) -> str:
        """The draw after a move, as the viewer may know it ("" for none)."""
        if not item.get("drew"):
            return ""
        drawn = (item.get("secret") or {}).get("drawn")
        if drawn:
            return _("{who} drew {tile}.", who=who, tile=a_tile(KIND[drawn]))
        return _("{who} drew a tile.", who=who)

    def describe_result(self, result, names=None) -> str:
        """Who won, the scores, why the game ended and, where the tie-break
        decided, who reached the score first."""
        data = result.as_dict() if isinstance(result, Result) else dict(result or {})
        scores, winners = list(data.get("scores") or []), list(data.get("winners") or [])
        if data.get("outcome", "won") != "won" or data.get("reason") not in END_REASONS or not winners:
            return super().describe_result(result, names)
        tally = "-".join(str(x) for x in scores)
        reason = end_reason(data["reason"])
        if len(scores) > 1 and len(winners) == len(scores):
            return _("A draw ({scores}): {reason}.", scores=tally, reason=reason)
        who = join_words([name_seat(w, names, capital=i == 0) for i, w in enumerate(winners)])
        text = _("{winners} won ({scores}): {reason}.", winners=who, scores=tally, reason=reason)
        top = scores[winners[0]]
        reached = (data.get("detail") or {}).get("reached_at_move") or []
        if len(winners) == 1 and top and scores.count(top) > 1 and len(reached) == len(scores):
            text = _sentences(text, _("{who} reached {score} first, at move {move}.",
                                      who=name_seat(winners[0], names, capital=True), score=top,
                                      move=reached[winners[0]]))
        return text

    def parse(self, text: str, state: KState, player: int, names=None) -> dict:
        if not isinstance(text, str):
            raise self._parse_error(state, player, repr(text))
        text = plain_width(text)
        t = " ".join(text.strip().lower().replace("(", " ").replace(")", " ").split())
        t = _CHINESE_WORDS.sub(r" \1 ", t)
        m = re.search(r"(-?\d+)\s*[,;/ ]\s*(-?\d+)\s*$", t)
        words = [w for w in (t if m is None else t[:m.start()]).split() if w not in FILL_WORDS]
        if m is None:
            said = [ANSWER_WORDS.get(w) for w in words]
            if len(words) == 1 and said[0] in ("keep", "redraw", "pass"):
                return {"type": said[0]}
            if len(words) == 2 and said[0] == "discard" and words[1] in ALIASES:
                return {"type": "discard", "tile": NAMES[ALIASES[words[1]]]}
            raise self._parse_error(state, player, text.strip())
        x, y = int(m.group(1)), int(m.group(2))
        tiles = [ALIASES[w] for w in words if w in ALIASES]
        others = [w for w in words if w not in ALIASES and w not in COVER_WORDS and w not in SWAP_WORDS]
        if others or len(tiles) > 1:
            raise self._parse_error(state, player, text.strip())
        k = tiles[0] if tiles else None
        wants_cover = any(w in COVER_WORDS for w in words)
        wants_swap = any(w in SWAP_WORDS for w in words)
        occupied = isinstance(state, KState) and cell(x, y) in state.board if -OFF < x < OFF and -OFF < y < OFF else False
        if wants_cover and not wants_swap and k in (None, EAGLE):
            return {"type": "cover", "x": x, "y": y}
        if wants_swap and not wants_cover and k in (None, WARRIOR):
            return {"type": "swap", "x": x, "y": y}
        if not wants_cover and not wants_swap and k is not None:
            if occupied and k == EAGLE:
                return {"type": "cover", "x": x, "y": y}
            if occupied and k == WARRIOR:
                return {"type": "swap", "x": x, "y": y}
            return {"type": "place", "tile": NAMES[k], "x": x, "y": y}
        raise self._parse_error(state, player, text.strip())

    def _parse_error(self, state: KState, player: int, text: str) -> ParseError:
        examples = []
        try:
            legal = self.legal_moves(state, player)
        except Exception:  # noqa: BLE001 (a parse error must never fail)
            legal = []
        picked = legal[:3]
        for mt in ("cover", "swap"):
            extra = [m for m in legal if m["type"] == mt][:1]
            picked += extra
        if len(legal) > 3:
            picked.append(legal[-1])
        for m in picked:
            d = self.describe(m, player)
            if d not in examples:
                examples.append(d)
        words = {"place": f"{tile_word(SUN)} 3,-1", "cover": f"{tile_word(EAGLE)} {verb('cover')} 2,0",
                 "swap": f"{tile_word(WARRIOR)} {verb('swap')} 1,1", "keep": verb("keep"),
                 "redraw": verb("redraw"), "pass": verb("pass"), "discard": f"{verb('discard')} {tile_word(SUN)}"}
        expected = _("a tile and a cell such as '{place}', '{cover}' or '{swap}'; or '{keep}', '{redraw}', "
                     "'{pass}' or '{discard}'", **words)
        return ParseError("bad_notation", _("Could not read '{text}' as a move: expected {expected}.",
                                            text=text, expected=expected),
                          expected=expected, examples=examples or [verb("keep")])

    def render(self, state: KState, viewer: Any = SPECTATOR, names=None, whole=False) -> str:
        s = state
        who = [name_seat(p, names) for p in range(s.n)]
        lines = []
        order = (CHIEF, SUN, OGRE, EAGLE, WOLF, WARRIOR, HUMMINGBIRD, KOSHARI)
        if s.board:
            codes = {k: board_code(k) for k in order}
            # a cell: the code, a mark for an Eagle on a tile, a space between cells
            field = max(columns(c) for c in codes.values()) + 2
            xs = [xy(c)[0] for c in s.board]
            ys = [xy(c)[1] for c in s.board]
            x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
            lines.append("     " + "".join(f"{x:>{field}}" for x in range(x0, x1 + 1)))
            for y in range(y0, y1 + 1):
                row = []
                for x in range(x0, x1 + 1):
                    c = cell(x, y)
                    if c in s.board:
                        row.append(_pad(codes[s.board[c]] + ("*" if c in s.under else " "), field, right=True))
                    else:
                        row.append(_pad(" . ", field, right=True))
                lines.append(f"{y:>4} " + "".join(row))
            if s.under:
                lines.append("  " + _("* an Eagle covering a tile: {cells}", cells=_(", ").join(
                    f"{x},{y} {tile_word(s.under[cell(x, y)])}" for x, y in (xy(c) for c in sorted(s.under)))))
            lines.append("  " + _("Key: {tiles}", tiles=_(", ").join(
                f"{codes[k]} {tile_word(k)} {k}" for k in order)))
        else:
            lines.append(_("(An empty table: {who} opens at 0,0.)", who=who[s.start]))
        lines.append(_("Start player: {who}", who=who[s.start]))
        lines.append(_("Scores: {scores}", scores=_(", ").join(
            _("{who}: {score}", who=who[p], score=sc) for p, sc in enumerate(s.scores))))
        lines.append(_("Tiles in hand: {hands}", hands=_(", ").join(
            _("{who}: {n}", who=who[p], n=len(h)) for p, h in enumerate(s.hands))))
        lines.append(ngettext("Draw pile: {n} tile", "Draw pile: {n} tiles", len(s.pile)))
        me = viewer if isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < s.n else None
        if me is not None:
            lines.append(_("Your tiles: {tiles}", tiles=_tiles(s.hands[me])) if s.hands[me]
                         else _("Your tiles: none"))
        if s.phase == "redraw":
            waiting = join_words([who[p] for p in sorted(self.to_act(s))])
            lines.append(_("Opening redraw: answers awaited from {who} (a hand of 3 or more tiles of one kind may "
                           "be redrawn once).", who=waiting))
            if me is not None:
                lines.append(self._redraw_words(s, me))
        elif s.phase == "play":
            lines.append(_("{who} to play the opening tile at 0,0", who=who[s.turn]) if not s.board
                         else _("{who} to play", who=who[s.turn]))
        elif s.phase == "over":
            lines.append(_("Game over: {result}", result=self.describe_result(self.result(s), names)))
        return "\n".join(lines)

    def _redraw_words(self, s: KState, seat: int) -> str:
        """What ``seat`` may answer in the opening redraw, and why."""
        if s.choices[seat] is not None:
            return (_("You have answered: redraw.") if s.choices[seat]
                    else _("You have answered: keep your hand."))
        hand = s.hands[seat]
        three = [k for k in sorted(set(hand)) if hand.count(k) >= 3]
        if three and len(s.pile) >= HAND_SIZE:
            return _("You may redraw: you hold {n} {tile} tiles. Answer '{redraw}' (5 new tiles) or '{keep}'.",
                     n=hand.count(three[0]), tile=tile_title(three[0]), redraw=verb("redraw"), keep=verb("keep"))
        if three:
            return _("You may not redraw: the draw pile holds fewer than 5 tiles. Answer '{keep}'.",
                     keep=verb("keep"))
        return _("You may not redraw (you hold no 3 tiles of one kind): answer '{keep}'.", keep=verb("keep"))


def _word(name) -> str:
    """A tile's notation word from its name in a move (as it is, if not a tile's)."""
    return tile_word(KIND[name]) if name in KIND else str(name)


def _sentences(*texts: str) -> str:
    """Sentences one after the other ("A. B." / 「甲。乙。」), empty ones left out."""
    texts = [t for t in texts if t]
    out = texts[0] if texts else ""
    for text in texts[1:]:
        # i18n: two sentences one after the other (Chinese puts no space between them)
        out = _("{first} {second}", first=out, second=text)
    return out


def build_state(players: int, board: dict, hands: list | None = None, *, turn: int = 0,
                pile: list | None = None, under: dict | None = None, options: dict | None = None,
                scores: list | None = None) -> KState:
    """A position for tests and tutorials: ``board`` maps (x, y) to a tile
    name, ``under`` maps (x, y) to the tile under an Eagle there."""
    game = GAME
    s = game.start(players, options or {})
    s.phase = "play"
    s.turn = turn
    s.board = {cell(x, y): KIND[name] for (x, y), name in board.items()}
    s.under = {cell(x, y): KIND[name] for (x, y), name in (under or {}).items()}
    s.hands = tuple(tuple(sorted(KIND[t] for t in h)) for h in (hands or [[]] * players))
    s.pile = tuple(sorted(KIND[t] for t in pile)) if pile is not None else ()
    s.choices = (False,) * players
    if scores:
        s.scores = tuple(scores)
    s.moves = len(board)
    return s


GAME = register(Kachina())
