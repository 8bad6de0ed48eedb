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
'Seat 0 opened with a Wolf at 0,0 and scored 1, and drew a Chief.'
>>> play("wolf 1,0")
'Seat 1 placed a Wolf at 1,0 and scored 2 (row 2), and drew a Warrior.'
>>> play("chief 2,0")
'Seat 0 placed a Chief at 2,0 and scored nothing, and drew a Sun.'
>>> play("eagle on 2,0")
'Seat 1 covered the Chief at 2,0 with an Eagle and scored nothing, and drew a Chief.'
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

# --------------------------------------------------------------------------
# Tiles: the kind code is the printed value.

KOSHARI, HUMMINGBIRD, WARRIOR, WOLF, EAGLE, OGRE, SUN, CHIEF = range(1, 9)
NAMES = ("", "koshari", "hummingbird", "warrior", "wolf", "eagle", "ogre", "sun", "chief")
KIND = {name: k for k, name in enumerate(NAMES) if name}
TITLES = {k: NAMES[k].capitalize() for k in range(1, 9)}
CODES = ("", "KO", "HU", "WA", "WO", "EA", "OG", "SU", "CH")
COUNTS = {CHIEF: 6, SUN: 8, OGRE: 8, EAGLE: 8, WOLF: 8, WARRIOR: 8, HUMMINGBIRD: 8, KOSHARI: 6}
FULL_SET = tuple(sorted(k for k, n in COUNTS.items() for _ in range(n)))
HAND_SIZE = 5
MAX_LINE = 7

ALIASES = dict(KIND)
ALIASES.update({CODES[k].lower(): k for k in range(1, 9)})
ALIASES.update({"hummer": HUMMINGBIRD, "humming": HUMMINGBIRD, "bird": HUMMINGBIRD,
                "clown": KOSHARI, "kosh": KOSHARI, "wolves": WOLF,
                "酋長": CHIEF, "部落酋長": CHIEF, "太陽": SUN, "食人魔": OGRE, "老鷹": EAGLE,
                "狼": WOLF, "戰士": WARRIOR, "蜂鳥": HUMMINGBIRD, "小丑": KOSHARI})

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
    title = "Kachina"
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
               "A player dealt 3 or more tiles of one kind may redraw 5 new tiles once, "
               "before play (all decide secretly, resolved in seat order from the start player)."),
        Option("opening_player_draws", True, "The start player draws 1 tile after the opening tile."),
        Option("line_cap_scope", "run",
               "What the 7-tile limit counts: 'run' (the contiguous run through the cell) or "
               "'grid_line' (every tile of that grid row or column, across gaps).",
               kind=str, choices=("run", "grid_line")),
        Option("stuck_player", "pass",
               "A player holding tiles but with no legal placement: 'pass' (draws nothing; a full "
               "round of passes ends the game) or 'discard' (discards a tile face up and draws).",
               kind=str, choices=("pass", "discard")),
        Option("tile_order", [],
               "Scripted games and tutorials: the tiles by name, dealt 5 per seat in seat order "
               "from the front, then drawn in order; returned tiles go to the bottom. Empty: a "
               "shuffled 60-tile game. A shorter list plays with those tiles only.",
               kind=list),
        Option("start_player", -1, "The start player's seat; -1 draws it at random.",
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
    _HELP_HEAD = (
        "Kachina moves (cells are x,y: x grows east, y grows south; the opening tile is 0,0):\n"
        "  sun 3,-1            place a tile from your hand (chief sun ogre eagle wolf warrior\n"
        "                      hummingbird koshari, or ch su og ea wo wa hu ko)\n"
        "  eagle on 2,0        cover the tile at 2,0 with an Eagle\n"
        "  warrior swap 1,1    swap a Warrior for the tile at 1,1 (it goes to your hand, no draw)\n"
    )
    _HELP_REDRAW = "  keep / redraw       before play: keep your hand, or (dealt 3 or more of one kind) redraw\n"
    _HELP_PASS = "  pass                only when you hold tiles but none can be placed\n"
    _HELP_DISCARD = ("  discard sun         only when you hold tiles but none can be placed: discard one\n"
                     "                      face up and draw\n")
    #: the help for every setup (``notation_help_for`` keeps only the rules in play)
    notation_help = (_HELP_HEAD + _HELP_REDRAW
                     + "  pass / discard sun  when you hold tiles but none can be placed (the game's\n"
                       "                      stuck_player option says which)\n")

    # -- words -----------------------------------------------------------

    def notation_help_for(self, options: dict) -> str:
        stuck = self._HELP_DISCARD if options.get("stuck_player") == "discard" else self._HELP_PASS
        return self._HELP_HEAD + (self._HELP_REDRAW if options.get("opening_redraw", True) else "") + stuck

    def notation_examples(self, options: dict) -> list:
        out = ["sun 3,-1", "eagle on 2,0", "warrior swap 1,1"]
        if options.get("opening_redraw", True):
            out += ["keep", "redraw"]
        out.append("discard sun" if options.get("stuck_player") == "discard" else "pass")
        return out

    def describe_setup(self, options: dict, players: int | None = None) -> str:
        parts = ["Kachina"] + ([f"{players} players"] if players is not None else [])
        parts.append("an opening redraw for a hand of 3 or more of one kind" if options.get("opening_redraw", True)
                     else "no opening redraw")
        parts.append("the start player draws after the opening tile" if options.get("opening_player_draws", True)
                     else "the start player does not draw after the opening tile")
        parts.append("the 7-tile limit counts " + ("the run through the cell" if options.get("line_cap_scope", "run")
                                                   == "run" else "the whole grid row or column"))
        parts.append("a seat that cannot place " + ("discards a tile and draws" if options.get("stuck_player")
                                                    == "discard" else "passes"))
        if options.get("tile_order"):
            parts.append(f"a fixed order of {len(options['tile_order'])} tiles")
        if options.get("start_player", -1) >= 0:
            parts.append(f"seat {options['start_player']} starts")
        return "; ".join(parts) + "."

    # -- options ---------------------------------------------------------

    def check_setup(self, players: int, options: dict) -> None:
        if options["start_player"] >= players:
            raise BadOptions("bad_option_value", f"start_player must be below {players}",
                             option="start_player")
        order = options["tile_order"]
        if not order:
            return
        bad = [t for t in order if not isinstance(t, str) or t.lower() not in KIND]
        if bad:
            raise BadOptions("bad_option_value", f"tile_order holds unknown tiles {bad[:5]}; "
                             f"tiles are {list(NAMES[1:])}", option="tile_order")
        kinds = [KIND[t.lower()] for t in order]
        for k, n in COUNTS.items():
            if kinds.count(k) > n:
                raise BadOptions("bad_option_value", f"tile_order holds {kinds.count(k)} "
                                 f"{NAMES[k]} tiles; the game has {n}", option="tile_order")
        if len(kinds) < HAND_SIZE * (players + 1):
            raise BadOptions("bad_option_value", f"tile_order needs at least {HAND_SIZE * (players + 1)} "
                             f"tiles for {players} players", option="tile_order")
        if sum(1 for k in kinds if k != OGRE) <= HAND_SIZE * (players - 1):
            raise BadOptions("bad_option_value", "tile_order needs more non-Ogre tiles, so the start "
                             "player can always open", option="tile_order")

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
            raise IllegalMove("already_answered", "you have answered the opening redraw already; your answer "
                                                  "stands while the others decide")
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
            raise IllegalMove("bad_cell", "x and y must be whole numbers (the cell x,y)")
        if not (-OFF < x < OFF and -OFF < y < OFF):
            raise IllegalMove("bad_cell", f"cell {x},{y} is far from every tile")
        return cell(x, y)

    @staticmethod
    def _keys(move: dict, *allowed: str) -> None:
        extra = set(move) - {"type", *allowed}
        missing = {"type", *allowed} - set(move)
        if extra or missing:
            raise IllegalMove("malformed_move", f"a {move['type']} move has exactly the fields "
                              f"{sorted({'type', *allowed})}")

    def decide(self, state: KState, player: int, move: dict, rng: random.Random) -> list[dict]:
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove("malformed_move", "a move is an object with a 'type'")
        self.check_turn(state, player)
        s = state
        mt = move["type"]
        if s.phase == "redraw":
            if mt not in ("keep", "redraw"):
                raise IllegalMove("wrong_phase", "before play, answer 'keep' or 'redraw'")
            self._keys(move)
            if mt == "redraw" and not self._may_redraw(s, player):
                raise IllegalMove("no_redraw", "you may redraw only when holding 3 or more tiles of one kind")
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
            raise IllegalMove("wrong_phase", "the redraw is only before play")
        hand = s.hands[player]
        if mt in ("pass", "discard"):
            if mt == "pass":
                self._keys(move)
            else:
                self._keys(move, "tile")
            if self._placements(s, hand):
                raise IllegalMove("must_place", "you can place a tile, so you may not "
                                  + ("pass" if mt == "pass" else "discard"))
            if s.opts["stuck_player"] != mt:
                raise IllegalMove("wrong_stuck_rule", f"when stuck this game uses {s.opts['stuck_player']!r}")
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
            ogre_cells, other_cells, _, _ = self._targets(s)
            if not s.board:
                if c != ORIGIN:
                    raise IllegalMove("opening_cell", "the opening tile goes at 0,0")
                if k == OGRE:
                    raise IllegalMove("ogre_opening", "an Ogre may not be the opening tile")
            elif c not in (ogre_cells if k == OGRE else other_cells):
                raise IllegalMove(*self._why_not_place(s, c, k))
        elif mt == "cover":
            self._keys(move, "x", "y")
            k = EAGLE
            if EAGLE not in hand:
                raise IllegalMove("tile_not_in_hand", "you hold no Eagle to cover with")
            c = self._coord(move)
            if c not in self._targets(s)[2]:
                if c not in s.board:
                    raise IllegalMove("empty_cell", "an Eagle covers an occupied cell; place it with 'eagle x,y'")
                if s.board[c] == EAGLE:
                    raise IllegalMove("eagle_on_eagle", "an Eagle may not cover an Eagle")
                raise IllegalMove("ogre_adjacent", "an Eagle may not cover a tile next to an Ogre")
        elif mt == "swap":
            self._keys(move, "x", "y")
            k = WARRIOR
            if WARRIOR not in hand:
                raise IllegalMove("tile_not_in_hand", "you hold no Warrior to swap with")
            c = self._coord(move)
            if c not in self._targets(s)[3]:
                if c not in s.board:
                    raise IllegalMove("empty_cell", "a Warrior swaps with a placed tile; place it with 'warrior x,y'")
                if c in s.under:
                    raise IllegalMove("covering_eagle", "a Warrior may not take an Eagle that covers a tile")
                if s.board[c] == WARRIOR:
                    raise IllegalMove("warrior_on_warrior", "a Warrior may not swap with a Warrior")
                raise IllegalMove("ogre_adjacent", "a Warrior may not swap with a tile next to an Ogre")
        else:
            raise IllegalMove("unknown_move", f"unknown move type {mt!r}; moves are place, cover, swap"
                              + (", pass" if s.opts["stuck_player"] == "pass" else ", discard"))
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
            raise IllegalMove("bad_tile", f"tile must be one of {list(NAMES[1:])}")
        k = KIND[name]
        if k not in hand:
            raise IllegalMove("tile_not_in_hand", f"you hold no {TITLES[k]}")
        return k

    def _why_not_place(self, s: KState, c: int, k: int) -> tuple[str, str]:
        board = s.board
        x, y = xy(c)
        if c in board:
            return "occupied", f"{x},{y} is taken" + (
                "; cover it with 'eagle on x,y'" if k == EAGLE else
                "; swap with 'warrior swap x,y'" if k == WARRIOR else "")
        if not any(c + d in board for d in STEPS):
            return "not_adjacent", f"{x},{y} does not touch any tile"
        if k != OGRE and _ogre_adjacent(board, c):
            return "ogre_adjacent", f"only an Ogre may be placed next to an Ogre ({x},{y})"
        return "line_too_long", f"a tile at {x},{y} would make a line longer than {MAX_LINE}"

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
            return f"{item['tile']} {item['x']},{item['y']}"
        if t == "cover":
            return f"eagle on {item['x']},{item['y']}"
        if t == "swap":
            return f"warrior swap {item['x']},{item['y']}"
        if t in ("keep", "redraw", "pass"):
            return t
        if t == "discard":
            return f"discard {item['tile']}"
        secret = item.get("secret") or {}
        who = name_seat(item.get("player"), names, capital=True)
        if t == "TilePlaced":
            title = TITLES[KIND[item["tile"]]]
            where = f"{item['x']},{item['y']}"
            if item["mode"] == "cover":
                what = f"covered the {TITLES[KIND[item['covered']]]} at {where} with an Eagle"
            elif item["mode"] == "swap":
                taken = TITLES[KIND[item["taken"]]]
                what = f"took the {taken} at {where} into hand, leaving a Warrior in its place,"
            elif item.get("move") == 1:
                what = f"opened with {_article(title)} at {where}"
            else:
                what = f"placed {_article(title)} at {where}"
            pts = item["points"]
            if not pts:
                score = "scored nothing"
            else:
                parts = [f"{name} {item[name]}" for name in ("row", "col") if item.get(name)]
                score = f"scored {pts}" + (f" ({', '.join(parts).replace('col', 'column')})" if parts else "")
            draw = ""
            if item.get("drew"):
                draw = f", and drew {_article(TITLES[KIND[secret['drawn']]])}" if "drawn" in secret else ", and drew a tile"
            return f"{who} {what} and {score}{draw}."
        if t == "TurnPassed":
            return f"{who} could place no tile and passed."
        if t == "TileDiscarded":
            draw = ""
            if item.get("drew"):
                draw = f" and drew {_article(TITLES[KIND[secret['drawn']]])}" if "drawn" in secret else " and drew a tile"
            return f"{who} could place no tile, discarded {_article(TITLES[KIND[item['tile']]])}{draw}."
        if t == "StartPlayerChosen":
            return f"{who} is the start player."
        if t == "HandDealt":
            if "tiles" in secret:
                return f"{who} was dealt " + ", ".join(TITLES[KIND[x]] for x in secret["tiles"]) + "."
            return f"{who} was dealt {item.get('count', HAND_SIZE)} tiles."
        if t == "RedrawChosen":
            if "redraw" in secret:
                return f"{who} chose to {'redraw' if secret['redraw'] else 'keep their hand'}."
            return f"{who} made their redraw decision."
        if t == "HandRedrawn":
            why = " (a start hand of Ogres only)" if item.get("forced") else ""
            if "drawn" in secret:
                return (f"{who} redrew{why}: returned " + ", ".join(TITLES[KIND[x]] for x in secret["returned"])
                        + "; drew " + ", ".join(TITLES[KIND[x]] for x in secret["drawn"]) + ".")
            return f"{who} redrew 5 tiles{why}."
        return super().describe(item, viewer, names)

    def parse(self, text: str, state: KState, player: int, names=None) -> dict:
        if not isinstance(text, str):
            raise self._parse_error(state, player, "text")
        text = plain_width(text)
        t = " ".join(text.strip().lower().replace("(", " ").replace(")", " ").split())
        if t in ("keep", "redraw", "pass"):
            return {"type": t}
        m = re.search(r"(-?\d+)\s*[,;/ ]\s*(-?\d+)\s*$", t)
        words = t.split() if m is None else t[:m.start()].split()
        fill = {"at", "to", "in", "place", "play", "put", "a", "an", "the", "tile", "with"}
        words = [w for w in words if w not in fill]
        cover_words = {"on", "cover", "covers", "over", "onto"}
        swap_words = {"swap", "swaps", "for", "take", "takes", "replace", "replaces"}
        if m is None:
            if len(words) == 2 and words[0] == "discard" and words[1] in ALIASES:
                return {"type": "discard", "tile": NAMES[ALIASES[words[1]]]}
            raise self._parse_error(state, player, t)
        x, y = int(m.group(1)), int(m.group(2))
        tiles = [ALIASES[w] for w in words if w in ALIASES]
        others = [w for w in words if w not in ALIASES and w not in cover_words and w not in swap_words]
        if others or len(tiles) > 1:
            raise self._parse_error(state, player, t)
        k = tiles[0] if tiles else None
        wants_cover = any(w in cover_words for w in words)
        wants_swap = any(w in swap_words for w in words)
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
        raise self._parse_error(state, player, t)

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
        expected = ("a tile and a cell 'sun 3,-1', 'eagle on 2,0', 'warrior swap 1,1', "
                    "or 'keep' / 'redraw' / 'pass' / 'discard <tile>'")
        return ParseError("bad_notation", f"could not read {text!r}: expected {expected}",
                          expected=expected, examples=examples or ["keep"])

    def render(self, state: KState, viewer: Any = SPECTATOR, names=None, whole=False) -> str:
        s = state
        who = [name_seat(p, names) for p in range(s.n)]
        lines = []
        if s.board:
            xs = [xy(c)[0] for c in s.board]
            ys = [xy(c)[1] for c in s.board]
            x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
            lines.append("     " + "".join(f"{x:>4}" for x in range(x0, x1 + 1)))
            for y in range(y0, y1 + 1):
                row = []
                for x in range(x0, x1 + 1):
                    c = cell(x, y)
                    if c in s.board:
                        row.append(CODES[s.board[c]] + ("*" if c in s.under else " "))
                    else:
                        row.append(" . ")
                lines.append(f"{y:>4} " + "".join(f"{r:>4}" for r in row))
            if s.under:
                lines.append("  * covered by an Eagle: " + ", ".join(
                    f"{x},{y} {NAMES[s.under[cell(x, y)]]}" for x, y in (xy(c) for c in sorted(s.under))))
            lines.append("  CH chief 8, SU sun 7, OG ogre 6, EA eagle 5, WO wolf 4, WA warrior 3, "
                         "HU hummingbird 2, KO koshari 1")
        else:
            lines.append(f"(empty table: {who[s.start]} opens at 0,0)")
        lines.append(f"Start player: {who[s.start]}")
        lines.append("Scores: " + ", ".join(f"{who[p]}: {sc}" for p, sc in enumerate(s.scores)))
        lines.append("Hands: " + ", ".join(f"{who[p]}: {len(h)}" for p, h in enumerate(s.hands))
                     + f"; draw pile: {len(s.pile)}")
        me = viewer if isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < s.n else None
        if me is not None:
            lines.append("Your tiles: " + (", ".join(NAMES[k] for k in s.hands[me]) or "none"))
        if s.phase == "redraw":
            waiting = [who[p] for p in sorted(self.to_act(s))]
            lines.append("Opening redraw: answers awaited from " + ", ".join(waiting)
                         + " (a hand of 3 or more tiles of one kind may be redrawn once)")
            if me is not None:
                lines.append(self._redraw_words(s, me))
        elif s.phase == "play":
            lines.append(f"{who[s.turn]} to play" + (" the opening tile at 0,0" if not s.board else ""))
        elif s.phase == "over":
            lines.append(f"Game over: {s.reason}")
        return "\n".join(lines)

    def _redraw_words(self, s: KState, seat: int) -> str:
        """What ``seat`` may answer in the opening redraw, and why."""
        if s.choices[seat] is not None:
            return "You have answered: " + ("redraw." if s.choices[seat] else "keep.")
        hand = s.hands[seat]
        three = [k for k in sorted(set(hand)) if hand.count(k) >= 3]
        if three and len(s.pile) >= HAND_SIZE:
            kind = NAMES[three[0]]
            return (f"You may redraw: you hold {hand.count(three[0])} {kind} tiles. "
                    "Answer 'redraw' (5 new tiles) or 'keep'.")
        if three:
            return "You may not redraw: the draw pile holds fewer than 5 tiles. Answer 'keep'."
        return "You may not redraw (no 3 tiles of one kind in your hand): answer 'keep'."


def _article(title: str) -> str:
    return ("an " if title[0] in "AEIOU" else "a ") + title


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
