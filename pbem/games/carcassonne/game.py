"""The Carcassonne rules module: the Game protocol on top of the rules."""
from __future__ import annotations

from collections import Counter

from ..base import BadOptions, Game, IllegalMove, Option, Result, SnapshotOutdated, placings_from_keys
from .base_rules import rules_for
from .features import label_of, place_tile_into, sid_at
from .moves import group_moves, legal_moves, legal_placements
from .notation import HELP, MOVE_TEXTS, describe_event, describe_move, parse_move
from .orient import TILES, add_tiles
from .render import followers_on_board, render
from .rules import EXPANSIONS, Turn, run
from .state import State
from .tiles import BASE_TILES

add_tiles(BASE_TILES)

# importing an expansion registers it; this order is the option's order
from .expansions import (inns_cathedrals, traders_builders, king_robber, cult, siege,  # noqa: F401
                         abbey_mayor, princess_dragon, tower, count, bridges_castles_bazaars)
from .expansions.cult_tiles import SETS as CULT_SETS

def _help_lines(module) -> str:
    """The notation lines (indented 4) of an expansion's text module docstring."""
    return "\n".join(line[4:] for line in (module.__doc__ or "").splitlines() if line.startswith("    "))


from .expansions.princess_dragon import text as _pd_text  # noqa: E402
from .expansions.tower import text as _tower_text  # noqa: E402
from .expansions.count import text as _count_text  # noqa: E402
from .expansions.bridges_castles_bazaars import text as _bcb_text  # noqa: E402

#: the notation of the four later expansions' moves (their text modules), and "pass"
MORE_HELP = "\n".join([*(_help_lines(m) for m in (_pd_text, _tower_text, _count_text, _bcb_text)),
                        "pass                              decline whatever optional decision you owe"])

FOLLOWERS = 7
#: every expansion, in the option's order (sample setups, benchmarks)
ALL_EXPANSIONS = ["inns_cathedrals", "traders_builders", "king_robber", "cult", "siege", "abbey_mayor",
                  "princess_dragon", "tower", "count", "bridges_castles_bazaars"]
#: Version of ``dump``'s format (2: followers in the order their features hold them).
SNAPSHOT_FORMAT = 2


def full_pile(options: dict) -> dict:
    """The draw pile of the rules' tiles for these options (Cult: ``cult_set``)."""
    pile = dict(rules_for(options["expansions"]).pile)
    if "cult" in options["expansions"]:
        for letter in set(CULT_SETS[6]) - set(CULT_SETS[options.get("cult_set", 6)]):
            pile.pop(letter, None)
    return pile


class Carcassonne(Game):
    name = "carcassonne"
    version = 1
    title = "Carcassonne"
    min_players = 2
    max_players = 6   # the base game takes 2 to 5; Inns & Cathedrals adds a 6th (check_setup)
    hidden_information = False  # tiles are drawn one at a time by chance events: no hidden order
    error_codes = {
        "unknown_move": "the move's type is not a move of the rules in play",
        "not_now": "this move is not the one owed now (a placement, a decision...)",
        "unknown_expansion": "the expansions option names an unknown expansion",
        "bad_position": "`x` and `y` must be integers",
        "bad_rotation": "the rotation is 0, 90, 180 or 270 (clockwise)",
        "cell_taken": "there is a tile at that cell already",
        "not_adjacent": "the cell touches no tile",
        "edges_do_not_match": "the tile's edges do not match its neighbours'",
        "bad_figure": "a deployment names a figure and a segment (e.g. follower city N)",
        "unknown_figure": "the figure is not one of the rules in play",
        "bad_segment": "the tile has no such segment, or the figure may not stand on it",
        "feature_occupied": "the feature the segment joins holds a follower already",
        "no_followers_left": "the seat has no follower in its supply",
        "no_big_follower_left": "Inns & Cathedrals: the big follower is not in the supply",
        "no_<figure>_left": "the figure (builder, pig, mayor, wagon, barn) is not in the seat's supply",
        "no_own_follower": "Traders & Builders: the builder joins a road or city without a follower of the seat",
        "no_own_farmer": "Traders & Builders: the pig joins a field without a farmer of the seat",
        "cult_neighbourhood": "Cult: a shrine may not have more than one monastery around it, nor a monastery "
                              "more than one shrine",
        "no_knight_there": "Siege: the seat has no knight on that segment",
        "bad_escape": "Siege: the escape names the knight's city segment by an edge",
        "cannot_escape": "Siege: that city is not a besieged city with a monastery or shrine next to it",
        "no_abbey_left": "Abbey & Mayor: the seat's abbey is placed already",
        "not_a_hole": "Abbey & Mayor: an abbey fills an empty cell with 4 neighbouring tiles",
        "bad_barn": "Abbey & Mayor: a barn goes on a corner where 4 tiles meet, all 4 corners field, in a field "
                    "without a barn",
        "bad_wagon_target": "Abbey & Mayor: the wagon may go only to an incomplete, unoccupied feature next to "
                            "its scored one",
        "bad_abbey": "Abbey & Mayor: the abbey move could not be read",
        "bad_wagon": "Abbey & Mayor: the wagon move could not be read",
        "figure_blocked": "Princess & Dragon: no figure may stand on the volcano tile (the dragon is there)",
        "action_required": "Princess & Dragon: with princess_action = must, the princess must send a knight home",
        "bad_dragon": "Princess & Dragon: a dragon step names a direction N, E, S or W (dragon N)",
        "dragon_blocked": "Princess & Dragon: the dragon cannot step there (no tile, entered already this flight, "
                          "the fairy's tile, a district of the City of Carcassonne)",
        "bad_fairy": "Princess & Dragon: the fairy goes next to one of your followers (fairy X,Y road E)",
        "bad_princess": "Princess & Dragon: the princess sends home a knight of the city her tile joins",
        "bad_portal": "Princess & Dragon: through the magic portal a figure goes on an unoccupied, incomplete "
                      "feature, not on the dragon's tile",
        "no_tower_there": "The Tower: there is no tower foundation at that cell",
        "tower_closed": "The Tower: a follower stands on top of that tower",
        "bad_tower": "The Tower: the tower action could not be read, or no follower of yours may close it",
        "no_tower_left": "The Tower: you have no tower floor left",
        "out_of_reach": "The Tower: the tower captures one follower in its row or column, at most its height away",
        "bad_capture": "The Tower: the capture could not be read (capture X,Y road E seat P)",
        "bad_exchange": "The Tower: name which of your followers comes back (exchange big)",
        "ransom_paid": "The Tower: one ransom a turn",
        "no_prisoner": "The Tower: that seat holds no such follower of yours",
        "bad_ransom": "The Tower: the ransom could not be read (ransom seat P)",
        "bad_district": "Count: a district of the City (castle, blacksmith, cathedral, market) and a figure it "
                        "takes, or a follower leaving a district (not the Count's) for a feature of its kind",
        "bad_bridge": "Bridges, Castles & Bazaars: a bridge goes from field edge to field edge on the new tile or "
                      "towards it on the next one, facing roads or nothing ([x, y, \"NS\" | \"WE\"])",
        "no_bridge_left": "Bridges, Castles & Bazaars: you have no bridge left",
        "bad_castle": "Bridges, Castles & Bazaars: the castle names the city offered (castle X,Y city N)",
        "bad_bid": "Bridges, Castles & Bazaars: at the bazaar, pick a free tile with a bid, raise the bid or "
                   "pass, or buy or sell",
        "two_figures": "one figure per move",
        "missing_rotation": "the text does not say how the tile is turned (r0, r90, r180, r270)",
        "missing_segment": "the text does not say where the figure goes",
        "trailing_text": "words after the move were not understood",
        "unknown_command": "the text could not be read as a move",
    }
    view_fields = {
        "players": "the number of seats",
        "options": "the game's options, defaults filled in",
        "board": "the placed tiles in order: `x`, `y`, `tile` (its letter, see docs/rules/carcassonne.md), "
                 "`rotation` (0, 90, 180, 270 clockwise)",
        "followers": "the figures on the board: `player`, `x`, `y`, `on` (the segment), `figure`",
        "scores": "per seat",
        "supply": "per seat, followers left in its supply",
        "pile": "tiles left by letter (the draw order is never shown: each draw is a chance event)",
        "tiles_left": "tiles left to draw",
        "discarded": "tiles drawn that fitted nowhere",
        "active": "the seat whose turn it is",
        "tile": "the tile drawn for the active seat (null when none)",
        "to_act": "the seats to act now",
        "step": "the step of the turn that waits for a decision",
        "turn": "turns played so far",
        "over": "true once the game is over",
        "by_category": "per scoring category, per seat: the points scored so far",
        "big_followers": "Inns & Cathedrals: per seat, big followers left",
        "builders": "Traders & Builders: per seat, builders left",
        "pigs": "Traders & Builders: per seat, pigs left",
        "goods": "Traders & Builders: per good (cloth, grain, wine), per seat",
        "extra_tile": "Traders & Builders: true while the active seat plays its builder's extra tile",
        "king_robber": "King & Robber: who holds the King and the Robber Baron, with the sizes that won them",
        "besieged_cities": "Siege: the besieged cities: `x`, `y`, `on`, `tiles`, `complete`",
        "abbeys": "Abbey & Mayor: per seat, abbeys left",
        "mayors": "Abbey & Mayor: per seat, mayors left",
        "wagons": "Abbey & Mayor: per seat, wagons left",
        "barns": "Abbey & Mayor: per seat, barns left",
        "wagon_decision": "Abbey & Mayor: the wagon waiting to move (`player`, `x`, `y`, `on`)",
        "abbey_round": "Abbey & Mayor: the seats still to answer the end round's abbey offer",
        "dragon": "Princess & Dragon: where the dragon stands (`x`, `y`), null before the first volcano",
        "fairy": "Princess & Dragon: the fairy: `player`, `x`, `y`, `on`, `figure` of the follower it was moved "
                 "next to, `standing_by` (false once that follower has left); null before it is first moved",
        "dragon_flight": "Princess & Dragon: the flight under way: `movers` (the seats still to take a step, in "
                         "order), `steps` taken, `visited` cells, `steps_now` (the legal steps: `direction`, `x`, "
                         "`y`); null when the dragon is not flying",
        "dragon_tiles_set_aside": "Princess & Dragon: dragon tiles drawn before the first volcano, waiting",
        "tower": "The Tower: `pieces` (floors per seat), `towers` (`x`, `y`, `height`, `top`: the `player` and "
                 "`figure` closing it, or null), `prisoners` (`captor`, `player`, `figure` in capture order), "
                 "`capture` (the tower whose capture is being chosen: `x`, `y`, `height`, or null)",
        "count": "Count: `count` (the Count's district), `quarters` (per district castle, blacksmith, cathedral, "
                 "market: the `player` and `figure` of each follower there), `leaving` (the seats still to be "
                 "asked to move followers out, or null)",
        "bridges": "Bridges, Castles & Bazaars: per seat, bridges left",
        "castles": "Bridges, Castles & Bazaars: per seat, castle tokens left",
        "castles_built": "Bridges, Castles & Bazaars: the castles: `player`, `x`, `y`, `on`, `tiles`, `scored`",
        "castle_decision": "Bridges, Castles & Bazaars: the city offered as a castle (`player`, `x`, `y`, `on`), or "
                           "null",
        "bazaar": "Bridges, Castles & Bazaars: the bazaar under way: `tiles`, `owners` (a seat per tile or null), "
                  "`host`, `phase` (pick, bid, deal), the `tile` auctioned, its `price` and `bidder`; or null",
        "bazaar_tiles": "Bridges, Castles & Bazaars: per seat, the bazaar tile it plays at its next turn (or "
                        "null)",
    }
    #: One seat owes a decision at a time (``state.pending`` holds one), the
    #: expansions' decisions (abbey, wagon, escape) included.
    concurrency = "strict"
    concurrency_doc = ("One seat acts at a time (the active player, or the seat owing a decision): a move "
                       "must be signed at the game's current version.")
    options = (
        Option("expansions", [], "expansions in play: inns_cathedrals, traders_builders, king_robber, "
               "cult, siege, abbey_mayor, princess_dragon, tower, count, bridges_castles_bazaars (any "
               "combination)", list,
               item_choices=EXPANSIONS, unique=True),  # the registry itself: a later expansion counts
        Option("tiny_city_scoring", 4, "points for a completed 2-tile city (4; early printings 2)",
               int, choices=(4, 2)),
        Option("farmer_scoring", "per_field", "farmer rule: per_field (C2/C3: 3 per completed city per field)",
               str, choices=("per_field",)),
        Option("unplaceable_tile", "remove",
               "a drawn tile that fits nowhere is removed from the game, or put back (reshuffle)",
               str, choices=("remove", "reshuffle")),
        Option("tie_break", "shared", "tied players share the placing", str, choices=("shared",)),
        Option("draw_order", [],
               "fixed draw pile for scripted games: tile letters in draw order (the game ends when "
               "they are used up); empty: the 71 base tiles drawn at random (plus the expansions' tiles: "
               "IC1-IC17, TB1-TB24, KR1-KR5, CU1-CU6, SI1-SI4, AM1-AM12, PD1-PD29, TO1-TO17, BB1-BB11)", list),
        Option("start_player", -1, "seat that starts (-1: chosen at random)", int, minimum=-1, maximum=5),
        Option("king_robber_scoring", "per_feature",
               "King & Robber: at the end the King scores 1 per completed city, the Robber Baron 1 per "
               "completed road (per_feature); or the holders score 10 and 20 (fixed_10_20) or 15 and 40 "
               "(fixed_15_40) at the end; or each holder scores 1 for every city (road) completed while it "
               "holds the figure (continuous)", str,
               choices=("per_feature", "fixed_10_20", "fixed_15_40", "continuous")),
        Option("cult_set", 6, "Cult: the 6 shrine tiles (cult/6, CU1-CU6) or 5 (cult/5, CU1-CU5)",
               int, choices=(6, 5)),
        Option("wagon_move", "along_road",
               "Abbey & Mayor: a wagon on a scored feature moves along a road end (along_road; an abbey "
               "ends the roads and cities it closes), to a feature on its tile or the 4 next to it "
               "(adjacent_tiles) or on its tile or the 8 around it (nearby_tiles, the published C2 rule)", str,
               choices=("along_road", "adjacent_tiles", "nearby_tiles")),
        Option("barn_placement", "any",
               "Abbey & Mayor: a barn may go into a field with farmers (any) or only without (no_farmers)",
               str, choices=("any", "no_farmers")),
        Option("abbey_after_last_tile", True,
               "Abbey & Mayor: after the last tile every seat still holding its abbey may place it", bool),
        Option("dragon_tiles_before_volcano", "set_aside",
               "Princess & Dragon: a dragon tile drawn before the first volcano is put aside until then "
               "(set_aside) or placed with no flight (no_effect)", str, choices=("set_aside", "no_effect")),
        Option("volcano_blocks", "followers",
               "Princess & Dragon: a volcano tile takes no figure but allows step 5's actions elsewhere "
               "(followers) or forbids every figure that turn (all_figures)", str,
               choices=("followers", "all_figures")),
        Option("princess_action", "may",
               "Princess & Dragon: the princess may (may) or must (must) send a knight home", str,
               choices=("may", "must")),
        Option("count_final_scoring", True,
               "Count: before the final scoring the followers in the City may move into incomplete features "
               "(and from the market into fields)", bool),
        Option("castle_conversion_by", "knight_owner",
               "Bridges, Castles & Bazaars: who may turn a small city into a castle: the knight's owner "
               "(knight_owner) or the active seat (active_player)", str, choices=("knight_owner", "active_player")),
        Option("castle_vicinity", "2x3",
               "Bridges, Castles & Bazaars: the tiles whose features trigger a castle: its 2 tiles and the 4 "
               "beside their long sides (2x3) or its 6 orthogonal neighbours (six_neighbours)", str,
               choices=("2x3", "six_neighbours")),
        Option("bazaar_bid_cap", "none",
               "Bridges, Castles & Bazaars: bids go from 0 to 99 (none) or to the bidder's score (current_score)",
               str, choices=("none", "current_score")),
        Option("siege_escape_adjacency", "any_city_tile",
               "Siege: the escape needs a monastery or shrine next to any tile of the besieged city, "
               "or next to a siege tile", str, choices=("any_city_tile", "siege_tile")),
    )
    sample_setups = (
        (2, {}),
        (3, {}),
        (4, {}),
        (5, {}),
        (2, {"tiny_city_scoring": 2, "unplaceable_tile": "reshuffle"}),
        (3, {"draw_order": list("UVWXCBAKLDDEEFH"), "start_player": 1}),
        (2, {"expansions": ["inns_cathedrals"]}),
        (6, {"expansions": ["inns_cathedrals"]}),
        (3, {"expansions": ["traders_builders"]}),
        (4, {"expansions": ["inns_cathedrals", "traders_builders"]}),
        (2, {"expansions": ["king_robber"]}),
        (3, {"expansions": ["cult"]}),
        (2, {"expansions": ["cult"], "cult_set": 5}),
        (2, {"expansions": ["siege"]}),
        (3, {"expansions": ["siege"], "siege_escape_adjacency": "siege_tile"}),
        (2, {"expansions": ["abbey_mayor"]}),
        (3, {"expansions": ["abbey_mayor"], "wagon_move": "adjacent_tiles", "barn_placement": "no_farmers",
             "abbey_after_last_tile": False}),
        (4, {"expansions": ["inns_cathedrals", "traders_builders", "king_robber", "cult", "siege"]}),
        (4, {"expansions": ["inns_cathedrals", "traders_builders", "king_robber", "cult", "siege",
                            "abbey_mayor"]}),
        (2, {"expansions": ["princess_dragon"]}),
        (2, {"expansions": ["tower"]}),
        (2, {"expansions": ["count"]}),
        (2, {"expansions": ["bridges_castles_bazaars"]}),
        (3, {"expansions": ["princess_dragon", "tower", "count", "bridges_castles_bazaars", "king_robber"],
             "volcano_blocks": "all_figures", "princess_action": "must", "dragon_tiles_before_volcano": "no_effect",
             "count_final_scoring": False, "castle_conversion_by": "active_player",
             "castle_vicinity": "six_neighbours", "bazaar_bid_cap": "current_score",
             "king_robber_scoring": "continuous", "wagon_move": "nearby_tiles"}),
        (2, {"expansions": ALL_EXPANSIONS}),
        (6, {"expansions": ALL_EXPANSIONS}),
    )
    #: what bench/engines.py times: full base games (the scripted sample is tiny), and a 2-seat
    #: game with every expansion.
    bench_setups = ((2, {}), (3, {}), (4, {}), (5, {}), (2, {"expansions": ALL_EXPANSIONS}))
    notation_help = HELP + "\n" + MORE_HELP

    # -- options ---------------------------------------------------------------

    def check_setup(self, players: int, options: dict) -> None:
        for name in options["expansions"]:
            if name not in EXPANSIONS:
                raise BadOptions("unknown_expansion",
                                 f"unknown expansion {name!r}; available: {sorted(EXPANSIONS)}")
        most = rules_for(options["expansions"]).max_players
        if players > most:
            raise BadOptions("bad_player_count",
                             f"{self.name} takes {self.min_players} to {most} players, not {players}"
                             + ("" if most >= self.max_players else
                                " (6 with the inns_cathedrals expansion)"))
        if options["start_player"] >= players:
            raise BadOptions("bad_option_value", f"start_player must be below {players}")
        order = options["draw_order"]
        if order:
            pile = full_pile(options)
            bad = [t for t in order if not isinstance(t, str) or t not in pile]
            if bad:
                raise BadOptions("bad_option_value",
                                 f"draw_order holds unknown tiles {bad[:5]}; tiles are {sorted(pile)}")
            for letter, n in Counter(order).items():
                if n > pile[letter]:
                    raise BadOptions("bad_option_value",
                                     f"draw_order has {n} tiles {letter}, the pile only {pile[letter]}")

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
        return run(turn, "start_turn")

    def evolve(self, state: State, event: dict) -> State:
        return state.rules.evolve(state, event)

    def to_act(self, state: State) -> frozenset:
        return frozenset(state.pending)

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
            raise IllegalMove("malformed_move", "a move is an object with a 'type'")
        self.check_turn(state, player)
        kind = move["type"]
        rules = state.rules
        anytime = rules.anytime.get(kind)
        if anytime is not None:
            # a move of the active seat's own turn beside whatever it owes (The Tower's ransom)
            if player != state.active:
                raise IllegalMove("not_now", f"you may {kind} only on your own turn")
            _legal, validate, events = anytime
            return events(state, player, validate(state, player, move))
        start = rules.moves.get(kind)
        if start is None:
            raise IllegalMove("unknown_move", f"unknown move {kind!r}; moves are: "
                              f"{', '.join(sorted([*rules.moves, *rules.anytime]))}")
        owed = state.pending.get(player)
        if owed != kind:
            raise IllegalMove("not_now", f"you cannot {kind} now (you owe {owed})")
        clean = rules.validators[kind](state, player, move)
        # The turn is the active seat's, whoever answers (a wagon's owner, a dragon step):
        # the steps read ``turn.player`` as the active seat and ``turn.mover`` as the mover.
        return run(Turn(rules, state, rng, state.active, clean, mover=player), start)

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
        return Result(scores, placings_from_keys(list(scores)), "the draw pile is empty",
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
        if item.get("type") in MOVE_TEXTS:     # an expansion's moves (and a placement with a bridge)
            return MOVE_TEXTS[item["type"]](item)
        if item.get("type") == "place_tile":
            return describe_move(item)
        return describe_event(item)

    def parse(self, text: str, state: State, player: int, names=None) -> dict:
        return parse_move(self, text, state, player)

    def render(self, state: State, viewer=None, names=None) -> str:
        return render(state, viewer)

    # -- helpers for help messages and scripts -------------------------------------

    def placements(self, state: State, player: int) -> list:
        """The legal moves grouped by placement: [((x, y, rotation), [moves])]."""
        return group_moves(legal_moves(state, player))

    @staticmethod
    def tile_types() -> dict:
        return dict(TILES)
