"""The Carcassonne rules module: the Game protocol on top of the rules."""
from __future__ import annotations

from collections import Counter

from ..i18n import N_, _
from ..base import OMNISCIENT, BadOptions, Game, IllegalMove, Option, ParseError, Result, SnapshotOutdated, placings_from_keys, plain_names, plain_width
from .base_rules import rules_for
from .catalog import ALL_EXPANSIONS, ERROR_CODES, KING_ROBBER_V1, OPTIONS, OPTIONS_V1, SAMPLE_SETUPS, VIEW_FIELDS
from .features import label_of, place_tile_into, sid_at
from .moves import group_moves, legal_moves, legal_placements
from .notation import (MOVE_TEXTS, describe_event, describe_move, describe_setup, examples_for, help_for,
                       name_in_move, parse_move, seats_by_name)
from .words import english, localize
from .orient import TILES, add_tiles
from .render import followers_on_board, render
from .rules import EXPANSIONS, Turn, evolved, publish, run
from .state import State
from .tiles import BASE_TILES

add_tiles(BASE_TILES)

# importing an expansion registers it; this order is the option's order
from .expansions import (inns_cathedrals, traders_builders, king_robber, cult, siege,  # noqa: F401
                         abbey_mayor, princess_dragon, tower, count, bridges_castles_bazaars, tunnel,
                         catapult)
from .expansions import wheel as _wheel  # noqa: F401  (the Wheel of Fortune, a house reading)
from .expansions.catapult import round as catapult_round
from .expansions.cult_tiles import SETS as CULT_SETS
from .expansions.wheel.tiles import full_set_pile as wheel_full_set

FOLLOWERS = 7

#: Version of ``dump``'s format (2: followers in the order their features hold them).
SNAPSHOT_FORMAT = 2


def full_pile(options: dict) -> dict:
    """The draw pile of the rules' tiles for these options (Cult: ``cult_set``; the Wheel
    of Fortune: ``wheel_tiles``)."""
    pile = dict(rules_for(options["expansions"]).pile)
    if "cult" in options["expansions"]:
        for letter in set(CULT_SETS[6]) - set(CULT_SETS[options.get("cult_set", 6)]):
            pile.pop(letter, None)
    if "wheel_of_fortune" in options["expansions"] and options.get("wheel_tiles", "icons_only") == "full_set":
        pile = wheel_full_set(pile)
    return pile


class Carcassonne(Game):
    name = "carcassonne"
    #: 2: JCloisterZone's King & Robber scorings under their names, a removed bazaar tile
    #: still calls its bazaar (``unplaceable_bazaar``), ``besieged_tiny_city``; the games
    #: begun before keep carcassonne@1 (``CarcassonneV1``)
    version = 2
    title = "Carcassonne"
    min_players = 2
    max_players = 6   # the base game takes 2 to 5; Inns & Cathedrals adds a 6th (check_setup)
    hidden_information = False  # tiles are drawn one at a time by chance events: no hidden order
    error_codes = ERROR_CODES
    view_fields = VIEW_FIELDS
    #: One seat owes a decision at a time (``state.pending`` holds one), the
    #: expansions' decisions (abbey, wagon, escape) included; but two are a
    #: window every seat answers at once (``window``): the Catapult's shots
    #: (catapult_mode = abstract) and the Wheel of Fortune's Plague.
    concurrency = "window"
    concurrency_doc = N_("One seat acts at a time (the active player, or the seat owing a decision): a move "
                       "must be signed at the game's current version. Two decisions ask every seat at once, "
                       "the Catapult's shots and the Wheel of Fortune's Plague: an answer signed while one is "
                       "open stands until it closes.")
    options = OPTIONS
    sample_setups = SAMPLE_SETUPS
    #: what bench/engines.py times: full base games (the scripted sample is tiny), and a 2-seat
    #: game with every expansion.
    bench_setups = ((2, {}), (3, {}), (4, {}), (5, {}), (2, {"expansions": ALL_EXPANSIONS}))
    #: what ``bench/engines.py --each`` adds: 2 seats with each expansion alone
    bench_each = tuple((2, {"expansions": [name]}) for name in ALL_EXPANSIONS)
    #: the help with every expansion (a game's own help: ``notation_help_for``)
    notation_help = help_for(ALL_EXPANSIONS)

    # -- options ---------------------------------------------------------------

    def check_setup(self, players: int, options: dict) -> None:
        for name in options["expansions"]:
            if name not in EXPANSIONS:
                raise BadOptions("unknown_expansion",
                                 _("unknown expansion “{name}”; the expansions are: {list}", name=name,
                                   list=", ".join(sorted(EXPANSIONS))))
        most = rules_for(options["expansions"]).max_players
        if players > most:
            raise BadOptions("bad_player_count",
                             (_("Carcassonne takes {least} to {most} players, not {players}", least=self.min_players,
                                most=most, players=players) if most >= self.max_players else
                              _("Carcassonne takes {least} to {most} players, not {players} (6 with the expansion "
                                "Inns & Cathedrals)", least=self.min_players, most=most, players=players)))
        if options["start_player"] >= players:
            raise BadOptions("bad_option_value", _("start_player must be below {players}", players=players))
        order = options["draw_order"]
        if order:
            pile = full_pile(options)
            bad = [t for t in order if not isinstance(t, str) or t not in pile]
            if bad:
                raise BadOptions("bad_option_value",
                                 _("draw_order holds unknown tiles {value}; tiles are {list}", value=bad[:5], list=sorted(pile)))
            for letter, n in Counter(order).items():
                if n > pile[letter]:
                    raise BadOptions("bad_option_value",
                                     _("draw_order has {n} tiles {letter}, the pile only {value}", n=n, letter=letter, value=pile[letter]))

    # -- rules -------------------------------------------------------------------

    def start(self, players: int, options: dict) -> State:
        options = self.check_options(players, options)
        rules = rules_for(options["expansions"])
        st = State()
        st.players = players
        st.options = options
        st.rules = rules
        for n, (x, y, letter, rot) in enumerate(rules.start_tiles):
            place_tile_into(st.board, st.seg_feature, st.features, st.frontier, n, (x, y), letter, rot)
        st.placed = tuple((x, y) for x, y, _letter, _rot in rules.start_tiles)
        if options["draw_order"]:
            st.order = tuple(options["draw_order"])
            st.pile = dict(Counter(st.order))
        else:
            st.pile = full_pile(options)
        st.supply = (FOLLOWERS,) * players
        st.scores = (0,) * players
        for init in rules.initial:
            init(st)
        return st

    def setup(self, state: State, rng) -> list:
        first = state.options["start_player"]
        if first < 0:
            first = rng.randrange(state.players)
        turn = Turn(state.rules, state, rng, first)
        turn.emit({"type": "StartPlayerChosen", "player": first})
        run(turn, "start_turn")
        return publish(turn)

    def evolve(self, state: State, event: dict) -> State:
        made = evolved(state, event)       # the state ``decide`` made already, if it is that one
        return made if made is not None else state.rules.evolve(state, event)

    def to_act(self, state: State) -> frozenset:
        return frozenset(state.pending)

    def window(self, state: State):
        """The window several seats answer at once: the Catapult's shots (until
        the last is in), named by the fair tile's placement, or the Wheel of
        Fortune's Plague; else None: one seat acts."""
        if "shot" in state.pending.values():
            return f"catapult:{state.ext['catapult']['held']}"
        for window in state.rules.windows:
            found = window(state)
            if found is not None:
                return found
        return None

    def redact_move(self, move, mover: int, viewer, events=None):
        """A Catapult shot is secret: withheld from every other seat (the
        events that reveal the shots, once all are in, say where they went)."""
        if isinstance(move, dict) and move.get("type") == catapult_round.SHOT and viewer not in (mover, OMNISCIENT):
            return None
        return move

    def resample(self, state: State, viewer, rng) -> State:
        """The only hidden part: the Catapult shots of the other seats while the
        round waits for the last (the draw pile's order is chance, not a secret:
        ``hidden_information`` stays False, as most games have nothing to re-deal)."""
        return catapult_round.resample(state, viewer, rng) if state.ext.get("catapult") else state

    def active_seat(self, state: State):
        """The seat whose turn it is; a dragon step, a bid or a Count's move
        owed by another seat is made in this seat's turn."""
        return None if state.over else state.active

    def legal_moves(self, state: State, player: int) -> list:
        owed = state.pending.get(player)
        if owed is None or state.over:
            return []
        moves = state.rules.legal[owed](state, player)
        if state.rules.anytime and player == state.active:
            moves = moves + [m for legal, _v, _e in state.rules.anytime.values() for m in legal(state, player)]
        return moves

    def decide(self, state: State, player: int, move, rng) -> list:
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove("malformed_move", _("a move is an object with a 'type'"))
        self.check_turn(state, player)
        kind = move["type"]
        rules = state.rules
        anytime = rules.anytime.get(kind)
        if anytime is not None:
            # a move of the active seat's own turn beside whatever it owes (The Tower's ransom)
            if player != state.active:
                raise IllegalMove("not_now", _("you may make this move only in your own turn"))
            _legal, validate, events = anytime
            return events(state, player, validate(state, player, move))
        start = rules.moves.get(kind)
        if start is None:
            raise IllegalMove("unknown_move", _("unknown move “{kind}”; moves are: {list}", kind=kind, list=', '.join(sorted([*rules.moves, *rules.anytime]))))
        owed = state.pending.get(player)
        if owed != kind:
            raise IllegalMove("not_now", _("this is not the move you owe now"))
        clean = rules.validators[kind](state, player, move)
        starts = rules.move_starts.get(kind)
        if starts is not None:
            start = starts(state)
        # The turn is the active seat's, whoever answers (a wagon's owner, a dragon step):
        # the steps read ``turn.player`` as the active seat and ``turn.mover`` as the mover.
        turn = Turn(rules, state, rng, state.active, clean, mover=player)
        run(turn, start)
        return publish(turn)

    def default_move(self, state: State, player: int):
        """Timeout: the first legal placement (cells by y then x, rotations
        0, 90, 180, 270), no follower; for an expansion's optional decision
        its first legal move, which is the one that does nothing (digest §5)."""
        owed = state.pending.get(player)
        if owed is None or state.over:
            return None
        if owed != "place_tile":
            moves = self.legal_moves(state, player)
            return moves[0] if moves else None
        places = legal_placements(state)
        if not places:
            # a tile that fits only with an expansion's help (a bridge): its first legal move
            moves = self.legal_moves(state, player)
            return moves[0] if moves else None
        (x, y), r = places[0]
        return {"type": "place_tile", "x": x, "y": y, "rotation": r * 90}

    def result(self, state: State):
        if not state.over:
            return None
        scores = tuple(state.scores)
        return Result(scores, placings_from_keys(list(scores)), N_("the draw pile is empty"),
                      {"by_category": {k: list(v) for k, v in sorted(state.tally.items())},
                       "tiles_placed": len(state.placed), "tiles_removed": list(state.discarded)})

    # -- views and snapshots -------------------------------------------------------

    def view(self, state: State, viewer=None) -> dict:
        view = {
            "players": state.players,
            "options": state.options,
            "board": [{"x": c[0], "y": c[1], "tile": state.board[c][0], "rotation": state.board[c][1] * 90}
                      for c in state.placed],
            "followers": [{"player": p, "x": x, "y": y, "on": lab, "figure": fig}
                          for p, x, y, lab, fig in followers_on_board(state)],
            "scores": list(state.scores),
            "supply": list(state.supply),
            "pile": dict(sorted(state.pile.items())),
            "tiles_left": sum(state.pile.values()),
            "discarded": list(state.discarded),
            "active": state.active,
            "tile": state.tile,
            "to_act": sorted(state.pending),
            "step": state.step,
            "turn": state.turn,
            "over": state.over,
            "by_category": {k: list(v) for k, v in sorted(state.tally.items())},
        }
        for extend in state.rules.views:
            extend(state, viewer, view)
        return view

    def dump(self, state: State) -> dict:
        return {
            "players": state.players,
            "options": state.options,
            "tiles": [[c[0], c[1], state.board[c][0], state.board[c][1] * 90] for c in state.placed],
            # Followers as each feature holds them, not sorted as in the view:
            # ``load`` adds them back one by one, so a loaded feature lists its
            # followers in the live order, and what iterates them (the
            # FollowersReturned event, say) answers alike from a snapshot.
            # (features by their first segment: a bridge joins features in an order a rebuild
            # from the tiles does not repeat; ``load`` reads each feature's list in order)
            "followers": [[p, *label_of(state, sid), figure]
                          for f in sorted((f for f in state.features.values() if f.meeples),
                                          key=lambda f: min(f.segs))
                          for p, sid, figure in f.meeples],
            "pile": dict(sorted(state.pile.items())),
            "order": None if state.order is None else list(state.order),
            "discarded": list(state.discarded),
            "supply": list(state.supply),
            "scores": list(state.scores),
            "tally": {k: list(v) for k, v in sorted(state.tally.items())},
            "active": state.active,
            "tile": state.tile,
            "pending": sorted([p, a] for p, a in state.pending.items()),
            "step": state.step,
            "turn": state.turn,
            "over": state.over,
            "ext": state.ext,
            "format": SNAPSHOT_FORMAT,
        }

    def load(self, data: dict) -> State:
        st = State()
        st.players = data["players"]
        st.options = data["options"]
        st.rules = rules_for(st.options.get("expansions", []))
        placed = []
        for n, (x, y, letter, rotation) in enumerate(data["tiles"]):
            place_tile_into(st.board, st.seg_feature, st.features, st.frontier, n, (x, y), letter,
                            rotation // 90)
            placed.append((x, y))
        st.placed = tuple(placed)
        st.ext = data["ext"]
        for rejoin in st.rules.rejoin:
            rejoin(st)
        for player, x, y, label, figure in data["followers"]:
            sid = sid_at(st, (x, y), label)
            fid = st.seg_feature[sid]
            f = st.features[fid]
            st.features[fid] = f.with_meeples(f.meeples + ((player, sid, figure),))
        if data.get("format") != SNAPSHOT_FORMAT and any(len(f.meeples) > 1 for f in st.features.values()):
            # An older dump listed followers sorted by cell, losing the order a
            # feature holds them in: the server replays the log instead.
            raise SnapshotOutdated("a Carcassonne dump from before follower order was kept")
        st.pile = dict(data["pile"])
        st.order = None if data["order"] is None else tuple(data["order"])
        st.discarded = tuple(data["discarded"])
        st.supply = tuple(data["supply"])
        st.scores = tuple(data["scores"])
        st.tally = {k: tuple(v) for k, v in data["tally"].items()}
        st.active = data["active"]
        st.tile = data["tile"]
        st.pending = {p: a for p, a in data["pending"]}
        st.step = data["step"]
        st.turn = data["turn"]
        st.over = data["over"]
        st.ext = data["ext"]
        for restore in st.rules.restore:
            restore(st)
        return st

    # -- text ----------------------------------------------------------------------

    def describe(self, item: dict, viewer=None, names=None) -> str:
        # a move in the reader's notation (its words: ``words.localize``), an event in words
        if item.get("type") in MOVE_TEXTS:     # an expansion's moves (and a placement with a bridge)
            return name_in_move(localize(MOVE_TEXTS[item["type"]](item)), names)
        if item.get("type") == "place_tile":
            return localize(describe_move(item))
        return describe_event(item, names)

    def notation_help_for(self, options: dict) -> str:
        return help_for(options.get("expansions", ()))

    def notation_examples(self, options: dict) -> list:
        return examples_for(options.get("expansions", ()))

    def describe_setup(self, options: dict, players: int | None = None) -> str:
        return describe_setup(options, players)

    def parse(self, text: str, state: State, player: int, names=None) -> dict:
        # a move that names a seat ("capture 1,0 road E seat Ann") takes the name too; then
        # the Chinese words read as the English ones (either language, any mix)
        try:
            plain = plain_width(text)
            return parse_move(self, english(seats_by_name(plain, plain_names(names))), state, player, typed=plain)
        except ParseError as err:      # what it expects and its examples, in the reader's notation
            if isinstance(err.details.get("expected"), str):
                err.details["expected"] = localize(err.details["expected"])
            if isinstance(err.details.get("examples"), list):
                err.details["examples"] = [localize(e) if isinstance(e, str) else e for e in err.details["examples"]]
            raise

    def render(self, state: State, viewer=None, names=None, whole=False) -> str:
        return render(state, viewer, names, whole)

    # -- helpers for help messages and scripts -------------------------------------

    def placements(self, state: State, player: int) -> list:
        """The legal moves grouped by placement: [((x, y, rotation), [moves])]."""
        return group_moves(legal_moves(state, player))

    @staticmethod
    def tile_types() -> dict:
        return dict(TILES)


class CarcassonneV1(Carcassonne):
    """``carcassonne@1``, the rules of the games created before ``carcassonne@2``, kept so
    that games in progress, and their records, play on as they began: the King & Robber
    scorings ``fixed_10_20`` (the King 10, the Robber Baron 20), ``fixed_15_40`` (15 and
    40) and ``continuous`` (the holder after the turn's change of hands) as they were read
    then; no ``unplaceable_bazaar`` (a removed bazaar tile calls no bazaar) nor
    ``besieged_tiny_city`` (exempt). The rules fixes that every game takes (a castle's
    knight is neither eaten nor captured; no tower closed on the dragon's tile or on a
    volcano's turn) apply here too: they change no stored event (docs/rules/carcassonne.md)."""

    version = 1
    options = OPTIONS_V1
    #: its games began before the Tunnel, the Catapult and the Wheel of Fortune (the
    #: windows): one seat at a time
    concurrency = "strict"
    concurrency_doc = N_("One seat acts at a time (the active player, or the seat owing a decision): a move "
                         "must be signed at the game's current version.")
    sample_setups = ((2, {"expansions": ["king_robber", "bridges_castles_bazaars"],
                          "king_robber_scoring": "fixed_10_20"}),)
    bench_setups = ()
    bench_each = ()

    @staticmethod
    def _as_v1(options: dict) -> dict:
        """The options a carcassonne@1 game plays by: its King & Robber value named by the
        reading it had (``king_robber.FIXED_V1``, ``continuous_new_holder``)."""
        mode = options.get("king_robber_scoring", "per_feature")
        return {**options, "king_robber_scoring": KING_ROBBER_V1.get(mode, mode)}

    def start(self, players: int, options: dict) -> State:
        back = {v: k for k, v in KING_ROBBER_V1.items()}
        given = dict(options or {})
        if given.get("king_robber_scoring") in back:        # options of a started game
            given["king_robber_scoring"] = back[given["king_robber_scoring"]]
        st = super().start(players, given)
        st.options = self._as_v1(st.options)
        return st

    def describe_setup(self, options: dict, players: int | None = None) -> str:
        return describe_setup(self._as_v1(options), players)

    def check_setup(self, players: int, options: dict) -> None:
        later = [name for name in ("tunnel", "catapult", "wheel_of_fortune") if name in options["expansions"]]
        if later:  # no game of carcassonne@1 has them: they came with carcassonne@2
            raise BadOptions("unknown_expansion", _("{expansion} came after the games of carcassonne@1",
                                                    expansion=later[0]))
        super().check_setup(players, options)
