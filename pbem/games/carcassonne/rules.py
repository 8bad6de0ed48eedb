"""The rules as a composition of named turn steps with hooks.

The turn follows the forum post's sequence (rules digest §2):

    1 start_turn        (P&D fairy +1)
    2 draw_tile         draw; unplaceable tiles are removed and another drawn
    3 place_tile        the active player's move places the tile
    4 figure_phase_1    ... and may deploy one follower (big follower, mayor, wagon...)
    5 figure_phase_2    (only if step 4 did nothing: fairy, pig, builder, barn, tower)
    6 resolve_figures   (dragon, tower capture, castle)
    7 before_scoring    (goods, fairy +3, Count)
    8 score             score every feature the tile completed (Cult challenge);
                        8.4 K&R records; 8.5 the Siege escape decision
    9 end_turn          return followers from completed features (builder: repeat)
    final_scoring       at the end: incomplete features, then fields

A :class:`Rules` object holds, per step, a list of handlers ``fn(turn)``; an
expansion is an object with ``install(rules)`` that appends handlers, event
evolvers, figure strengths, scoring functions and tiles, without editing the
base rules. The base game is itself installed this way (``base_rules.py``).
"""
from __future__ import annotations

STEPS = ("start_turn", "draw_tile", "place_tile", "figure_phase_1", "figure_phase_2",
         "resolve_figures", "before_scoring", "score", "end_turn")
FINAL_SCORING = "final_scoring"
#: The steps of a turn before its tile is placed.
BEFORE_PLACING = ("start_turn", "draw_tile", "place_tile")


def turn_number(turn: int, step: str, over: bool) -> int:
    """The number every text and picture gives the turn in play, counted
    from 1 (of a state, or of a view: both carry ``turn``, ``step`` and
    ``over``). ``turn`` counts the tiles placed, so it names the turn in
    play once its tile is down; before that (drawing, placing) the turn in
    play is the next one. After the end: the turns played."""
    return turn + 1 if not over and step in BEFORE_PLACING else turn


class Rules:
    def __init__(self):
        #: step name -> handlers fn(turn), run in order.
        self.handlers: dict[str, list] = {s: [] for s in (*STEPS, FINAL_SCORING)}
        #: step -> handlers added with ``last`` (appended after every installation)
        self.late: dict[str, list] = {}
        #: event type -> fn(state, event) -> new state (pure).
        self.evolvers: dict[str, object] = {}
        #: figure -> strength for majorities (follower 1; big follower 2...).
        self.strength: dict[str, int] = {}
        #: figure -> fn(state, feature) -> strength computed at each evaluation; overrides
        #: ``strength`` in majorities (Abbey & Mayor: the mayor counts the city's pennants).
        self.strength_of: dict[str, object] = {}
        #: feature kind -> fn(state, feature, complete) -> points.
        self.points: dict[str, object] = {}
        #: the tile types in the pile: letter -> copies.
        self.pile: dict[str, int] = {}
        #: names of the installed parts, base first.
        self.parts: list[str] = []
        #: move type -> the step its decision starts at (the steps run from there on).
        self.moves: dict[str, str] = {}
        #: move type -> fn(state) -> the step its decision starts at when that depends on the
        #: state (P&D's dragon step: after the scoring with dragon_move_timing =
        #: after_scoring); overrides ``moves``.
        self.move_starts: dict[str, object] = {}
        #: move type -> fn(state, player, move) -> cleaned move, raising IllegalMove if bad.
        self.validators: dict[str, object] = {}
        #: move type (= the decision a seat owes in ``state.pending``) -> fn(state, player) -> moves.
        self.legal: dict[str, object] = {}
        #: the same, fast: fn(state, player) -> None (nothing this time) or
        #: fn(cell, o, mask, ports) -> iterable of (figure, label), prepared once per
        #: listing of the legal placements (``ports``: ``features.port_features`` of the cell,
        #: empty when ``mask`` is 0, no follower at all next to the cell).
        self.figure_providers: list = []
        #: figure -> fn(state, player, figure, +1/-1) -> state for non-follower supplies.
        self.supplies: dict[str, object] = {}
        #: extra figure choices on a placement: fn(state, player, cell, oriented, mask)
        #: -> iterable of (figure, label) (expansions: big follower, mayor, wagon...).
        self.figure_options: list = []
        #: figure -> fn(state, player, cell, oriented, label) -> segment index, raising IllegalMove.
        self.figure_validators: dict[str, object] = {}
        #: words of the text notation naming an expansion figure ("big" -> "big").
        self.figure_words: dict[str, str] = {}
        #: fn(state) run on the fresh state at the start (expansion supplies in ``state.ext``).
        self.initial: list = []
        #: fn(state, viewer, view) adding an expansion's public parts to a view (mutates ``view``).
        self.views: list = []
        #: fn(state, viewer) -> lines added to the text rendering.
        self.render_lines: list = []
        #: fn(state) -> [(x, y, char)]: a figure off the segments (the dragon, the fairy)
        #: drawn on its tile of the text board, in a corner left field; or (x, y, char,
        #: cells): drawn at the first of those glyph cells still road or field (a tunnel
        #: token at its mouth)
        self.board_marks: list = []
        #: char -> what the key says of a board mark
        self.board_mark_keys: dict[str, str] = {}
        #: the most players the game takes with these rules (6 with Inns & Cathedrals).
        self.max_players: int = 5
        #: extra placement restrictions: fn(state, letter, cell, quarter turns) -> None if
        #: allowed, else (code, message) (Cult: shrines and monasteries); consulted by the
        #: draw (unplaceable tiles), legal moves and validation.
        self.placement_checks: list = []
        #: a farmer majority's points for one completed city bordering its field
        #: (fn(state, city feature) -> points; Siege: 6 for a besieged city).
        self.field_city_points = lambda state, f: 3
        #: a pig's extra points for one completed city (Siege: 2 for a besieged city).
        self.pig_city_points = lambda state, f: 1
        #: text notation of the expansions' own moves: fn(game, text, state, player) ->
        #: move dict, or None if the text is not such a move.
        self.parsers: list = []
        #: moves the active seat may make at any time of its own turn, whatever decision
        #: it owes (The Tower's ransom): move type -> (legal fn(state, player) -> moves,
        #: validator fn(state, player, move) -> cleaned move, events fn(state, player, move)
        #: -> events). They change no decision owed.
        self.anytime: dict[str, tuple] = {}
        #: the start tiles: (x, y, letter, quarter turns), in placement order (the Count:
        #: the City of Carcassonne instead of the D).
        self.start_tiles: list = [(0, 0, "D", 0)]
        #: fn(turn, letter) -> True if the tile just drawn is put aside and another drawn
        #: (P&D: a dragon tile before the dragon is in play).
        self.draw_filters: list = []
        #: fn(turn, letter) run after a drawn tile that fits nowhere was removed
        #: (``TileDiscarded``; B,C&B: a bazaar tile still calls its bazaar).
        self.on_discard: list = []
        #: fn(state, letter) -> None, "tile" (no figure on the new tile's segments) or
        #: "all" (no figure at all this turn) (P&D: the volcano).
        self.tile_blocks: list = []
        #: fn(state) -> cells where no figure may be placed at all, by any way (P&D: the
        #: dragon's tile; a tower's top there is no exception).
        self.no_figure_cells: list = []
        #: fn(turn) -> True if it opened a decision before the final scoring (the Count's
        #: last moves out of the city); ``finish`` runs again once it is answered.
        self.before_finish: list = []
        #: fn(state) mutating a state whose features were just rebuilt from its tiles
        #: (``load``, a bridge) to put back what lives only in ``state.ext`` (castles).
        self.restore: list = []
        #: fn(state) mutating a state rebuilt from its tiles by ``load``, before its followers
        #: go back, to join what lives only in ``state.ext`` (the Tunnel's pairs of tokens)
        self.rejoin: list = []
        #: fn(state, field) -> ids of city features a field borders besides its own
        #: tiles' cities (the City of Carcassonne).
        self.field_borders: list = []
        #: fn(state, letter) -> True if the tile fits somewhere only with the help of an
        #: expansion (a bridge): the draw keeps it.
        self.placeable_with: list = []
        #: step 5's actions away from the new tile (``actions.py``): name -> Action
        #: (the fairy, a tower floor, the princess, the magic portal...).
        self.actions: dict = {}
        #: decision owed -> the move that declines it, for the word "pass".
        self.pass_moves: dict = {}
        #: figure -> fn(state, player) -> how many the seat has in supply (the follower's
        #: is ``state.supply``; the expansions add theirs).
        self.supply_count: dict = {"follower": lambda state, player: state.supply[player]}
        #: fn(state) -> the window several seats answer at once (a JSON-able id), or None
        #: (the Wheel of Fortune's Plague): ``Game.window``.
        self.windows: list = []

    def on(self, step: str, handler, first: bool = False, last: bool = False) -> None:
        """Add a handler to a step (``first``: before the ones already there; ``last``:
        after every expansion's, once all are installed: the bazaar after the builder)."""
        if last:
            self.late.setdefault(step, []).append(handler)
        elif first:
            self.handlers[step].insert(0, handler)
        else:
            self.handlers[step].append(handler)

    def evolve(self, state, event):
        fn = self.evolvers.get(event.get("type"))
        return fn(state, event) if fn else state


class Expansion:
    """What an expansion module provides: ``name`` (the key in the option
    ``expansions``) and ``install(rules)``."""

    name = ""

    def install(self, rules: Rules) -> None:  # pragma: no cover - interface
        raise NotImplementedError


#: Expansions known to the engine, by option name: each module (or subpackage)
#: of ``expansions/`` registers one when ``expansions/__init__.py`` imports it.
EXPANSIONS: dict[str, Expansion] = {}


def register_expansion(expansion: Expansion) -> Expansion:
    EXPANSIONS[expansion.name] = expansion
    return expansion


class Turn:
    """A step-by-step run of the rules for one decision. ``emit`` records an
    event and evolves the working state, so later steps see earlier ones."""

    __slots__ = ("rules", "state", "rng", "player", "move", "events", "completed",
                 "next_player", "data", "mover", "evolved")

    def __init__(self, rules: Rules, state, rng, player: int, move: dict | None = None,
                 mover: int | None = None):
        self.rules = rules
        self.state = state
        self.rng = rng
        self.player = player           # the seat whose turn it is
        self.move = move
        self.mover = player if mover is None else mover   # the seat that made ``move``
        self.events: list = []
        self.completed: list = []      # feature ids the placed tile completed (step 8)
        self.next_player = None        # who plays next (default: the next seat)
        self.data: dict = {}           # scratch space for expansions during one turn
        #: id(event) -> (state before, event, a copy of it, state after): see ``evolved``
        self.evolved: dict = {}

    def emit(self, event: dict) -> None:
        self.events.append(event)
        before = self.state
        self.state = after = self.rules.evolve(before, event)
        self.evolved[id(event)] = (before, event, dict(event), after)


#: What the last finished run of the rules (``decide``, ``setup``) evolved, event by event
#: (``Turn.evolved``): the caller applying the events it got to the state it passed in
#: gets the very states the run made (``evolved``) instead of making them again. A state
#: is never changed once made, so they are the states evolving the events would make.
#: Replaced whole by each run: concurrent runs only miss.
LAST_EVOLVED: dict = {}


def publish(turn: Turn) -> list:
    """Keep what ``turn`` evolved for ``evolved``; returns its events."""
    global LAST_EVOLVED
    LAST_EVOLVED = turn.evolved
    return turn.events


def evolved(state, event):
    """The state ``event`` makes from ``state`` if the last run made it, else None (the
    same state object and event object, the event unchanged since)."""
    hit = LAST_EVOLVED.get(id(event))
    if hit is not None and hit[0] is state and hit[1] is event and hit[2] == event:
        return hit[3]
    return None


def run(turn: Turn, step: str) -> list:
    """Run the steps from ``step`` on (and the following turns) until a
    decision is owed or the game is over; returns the events."""
    handlers = turn.rules.handlers
    i = STEPS.index(step)
    while True:
        for handler in handlers[STEPS[i]]:
            before = turn.state.pending
            handler(turn)
            if turn.state.over:
                return turn.events
            if turn.state.pending and turn.state.pending is not before:
                # the handler asked for a decision: the rest of the step waits for
                # it (the move that answers it starts again at a step whose earlier
                # handlers do nothing for that move)
                return turn.events
        if turn.state.pending:
            return turn.events
        i += 1
        if i == len(STEPS):
            nxt = turn.next_player
            turn.player = (turn.player + 1) % turn.state.players if nxt is None else nxt
            turn.next_player = None
            turn.completed = []
            turn.move = None
            turn.mover = turn.player
            turn.data = {}
            i = 0
