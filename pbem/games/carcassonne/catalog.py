"""Carcassonne's catalogue: its error codes, the fields of its view, its options and
sample setups (data the Game class hands to the protocol; kept apart so game.py
reads as the protocol)."""
from __future__ import annotations

from ..base import Option
from ..i18n import N_
from .rules import EXPANSIONS

#: every expansion, in the option's order (sample setups, benchmarks)
ALL_EXPANSIONS = ["inns_cathedrals", "traders_builders", "king_robber", "cult", "siege", "abbey_mayor",
                  "princess_dragon", "tower", "count", "bridges_castles_bazaars", "tunnel", "catapult",
                  "wheel_of_fortune"]

ERROR_CODES = {
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
    "bad_catapult": "The Catapult: the round is knock-out or seduction (catapult knockout | catapult seduction)",
    "bad_shot": "The Catapult: a shot names the follower's segment (shoot X,Y road E) or is no shot",
    "not_a_target": "The Catapult: no follower the shot may name stands there (within 2 tiles of the fair; "
                    "seduction: another seat's)",
    "no_abbey_left": "Abbey & Mayor: the seat's abbey is placed already",
    "not_a_hole": "Abbey & Mayor: an abbey fills an empty cell with 4 neighbouring tiles",
    "bad_barn": "Abbey & Mayor: a barn goes on a corner where 4 tiles meet, all 4 corners field, in a field "
                "without a barn",
    "bad_wagon_target": "Abbey & Mayor: the wagon may go only to an incomplete, unoccupied feature next to "
                        "its scored one",
    "bad_abbey": "Abbey & Mayor: the abbey move could not be read",
    "bad_wagon": "Abbey & Mayor: the wagon move could not be read",
    "figure_blocked": "Princess & Dragon: no figure may stand on the volcano tile (the dragon is there); "
                      "with The Tower, no follower closes a tower on the dragon's tile or on a volcano's turn",
    "action_required": "Princess & Dragon: with princess_action = must, the princess must send a knight home",
    "bad_dragon": "Princess & Dragon: a dragon step names a direction N, E, S or W (dragon N)",
    "dragon_blocked": "Princess & Dragon: the dragon cannot step there (no tile, entered already this flight, "
                      "the fairy's tile, a district of the City of Carcassonne)",
    "bad_fairy": "Princess & Dragon: the fairy goes next to one of your followers (fairy X,Y road E); with "
                 "fairy_placement = on_tile onto a tile with one of your followers, not its own (fairy X,Y)",
    "fairy_format": "Princess & Dragon: the fairy's move has the other edition's form: a tile alone (fairy X,Y) "
                    "with fairy_placement = on_tile, a follower's segment (fairy X,Y road E) otherwise",
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
    "bad_castle_feature": "Bridges, Castles & Bazaars: the castle scores one of the features offered, named by "
                          "a segment of it (castle points X,Y road W)",
    "bad_bid": "Bridges, Castles & Bazaars: at the bazaar, pick a free tile with a bid, raise the bid or "
               "pass, or buy or sell (bazaar_mode draft: pick a free tile, no bid)",
    "not_enough_points": "allow_negative_scores false: the move would make you pay points you do not have "
                         "(a ransom, a bazaar bid above your score, buying at a bid you cannot pay)",
    "bad_tunnel": "The Tunnel: a token goes on a free tunnel mouth (named by its road) in a colour you hold "
                  "(tunnel X,Y road E red)",
    "no_tunnel_token_left": "The Tunnel: you hold no token of that colour any more",
    "bad_plague": "Wheel of Fortune: the Plague sends home one of your followers on a land tile, named by its tile "
                  "and segment (plague X,Y road E)",
    "bad_crown": "Wheel of Fortune: a follower from supply goes on a free crown space of a sector (wheel tax)",
    "two_figures": "one figure per move",
    "missing_rotation": "the text does not say how the tile is turned (r0, r90, r180, r270)",
    "missing_segment": "the text does not say where the figure goes",
    "trailing_text": "words after the move were not understood",
    "unknown_command": "the text could not be read as a move",
}

VIEW_FIELDS = {
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
             "next to, `standing_by` (false once that follower has left); with fairy_placement = on_tile, "
             "`player` (who moved it), `x`, `y` of its tile, `on` and `figure` null, `standing_by` (true while "
             "a follower stands on that tile); null before it is first moved",
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
    "castle_feature_decision": "Bridges, Castles & Bazaars (castle_feature_choice = owner_choice): the castle "
                               "whose owner chooses what it scores (`player`, `x`, `y`, `on`) and its `options` "
                               "(`x`, `y`, `on` of a segment of each feature, its `points`, the highest first), or "
                               "null",
    "bazaar": "Bridges, Castles & Bazaars: the bazaar under way: `mode` (auction, or draft: picks without "
              "bids), `tiles`, `owners` (a seat per tile or null), `host` (the seat choosing), `phase` (pick, "
              "bid, deal; a draft is always pick), the `tile` auctioned, its `price` and `bidder` (null in a "
              "draft); or null",
    "bazaar_tiles": "Bridges, Castles & Bazaars: per seat, the bazaar tile it plays at its next turn (or "
                    "null)",
    "tunnel": "The Tunnel: `tokens` on the board in the order placed (`x`, `y`, `on`: the mouth's road, "
              "`colour`, `player`: the seat holding that colour) and `supply`: per seat, tokens left by colour",
    "catapult": "The Catapult (catapult_mode = abstract): the round under way: the fair (`x`, `y`), `kind` "
                "(knockout, seduction, or null while the active seat chooses), `chooser`, `shot` (the seats whose "
                "shot is in), `to_shoot`, `targets` (the followers within reach: `player`, `figure`, `x`, `y`, "
                "`on`) and, in a seat's own view, `my_shot` (its own shot, never another's); null when none",
    "wheel": "Wheel of Fortune (a house reading): `pig` (the sector the big pink pig stands on), `sectors` "
             "(clockwise from Fortune: `sector`, `crowns`: a seat or null per crown space), `tile_number` (the "
             "wheel number of the tile in hand, 0 for none), `plague` (the seats still to send a follower home, "
             "or null)",
}

OPTIONS = (
    Option("expansions", [], N_("expansions in play: inns_cathedrals, traders_builders, king_robber, "
           "cult, siege, abbey_mayor, princess_dragon, tower, count, bridges_castles_bazaars, tunnel, catapult "
           "(any combination), and wheel_of_fortune: the Wheel of Fortune as a house reading (its board, wheel "
           "tiles and events are house data: no published source gives them)"), list,
           item_choices=EXPANSIONS, unique=True),  # the registry itself: a later expansion counts
    Option("tiny_city_scoring", 4, N_("points for a completed 2-tile city (4; early printings 2)"),
           int, choices=(4, 2)),
    Option("farmer_scoring", "per_field", N_("farmer rule: per_field (C2/C3: 3 per completed city per field)"),
           str, choices=("per_field",)),
    Option("unplaceable_tile", "remove", N_("a drawn tile that fits nowhere is removed from the game, or put back (reshuffle)"),
           str, choices=("remove", "reshuffle")),
    Option("tie_break", "shared", N_("tied players share the placing"), str, choices=("shared",)),
    Option("draw_order", [], N_("fixed draw pile for scripted games: tile letters in draw order (the game ends when "
           "they are used up); empty: the 71 base tiles drawn at random (plus the expansions' tiles: "
           "IC1-IC17, TB1-TB24, KR1-KR5, CU1-CU6, SI1-SI4, AM1-AM12, PD1-PD29, TO1-TO17, BB1-BB11, TU1-TU4, "
           "CA1-CA12, WFA-WFW)"), list),
    Option("start_player", -1, N_("seat that starts (-1: chosen at random)"), int, minimum=-1, maximum=5),
    Option("king_robber_scoring", "per_feature", N_("King & Robber: at the end the King scores 1 per completed city, the Robber Baron 1 per "
           "completed road (per_feature); or each holder scores 10 at the end (fixed_10_20: 20 for both); or "
           "each holder 15, a seat holding both 40 (fixed_15_40); or, each turn, the holder from before the "
           "turn's change scores 1 for every city (road) the tile completed (continuous); JCloisterZone's "
           "readings"), str,
           choices=("per_feature", "fixed_10_20", "fixed_15_40", "continuous")),
    Option("cult_set", 6, N_("Cult: the 6 shrine tiles (cult/6, CU1-CU6) or 5 (cult/5, CU1-CU5)"),
           int, choices=(6, 5)),
    Option("wagon_move", "along_road", N_("Abbey & Mayor: a wagon on a scored feature moves along a road end (along_road; an abbey "
           "ends the roads and cities it closes), to a feature on its tile or the 4 next to it "
           "(adjacent_tiles) or on its tile or the 8 around it (nearby_tiles, the published C2 rule)"), str,
           choices=("along_road", "adjacent_tiles", "nearby_tiles")),
    Option("barn_placement", "any", N_("Abbey & Mayor: a barn may go into a field with farmers (any) or only without (no_farmers)"),
           str, choices=("any", "no_farmers")),
    Option("abbey_after_last_tile", True, N_("Abbey & Mayor: after the last tile every seat still holding its abbey may place it"), bool),
    Option("dragon_tiles_before_volcano", "set_aside", N_("Princess & Dragon: a dragon tile drawn before the first volcano is put aside until then "
           "(set_aside) or placed with no flight (no_effect)"), str, choices=("set_aside", "no_effect")),
    Option("volcano_blocks", "followers", N_("Princess & Dragon: a volcano tile takes no figure but allows step 5's actions elsewhere "
           "(followers) or forbids every figure that turn (all_figures)"), str,
           choices=("followers", "all_figures")),
    Option("dragon_move_timing", "before_scoring", N_("Princess & Dragon: the dragon flies before the features the dragon tile completed are "
           "scored (before_scoring: followers it eats there score nothing) or after them and their "
           "followers' return (after_scoring)"), str, choices=("before_scoring", "after_scoring")),
    Option("fairy_placement", "next_to_follower", N_("Princess & Dragon: the fairy goes next to one of your followers and counts for it alone "
           "(next_to_follower, C2) or onto a tile with one of your followers and counts for every "
           "follower on that tile (on_tile, C1)"), str, choices=("next_to_follower", "on_tile")),
    Option("princess_action", "may", N_("Princess & Dragon: the princess may (may) or must (must) send a knight home"), str,
           choices=("may", "must")),
    Option("count_final_scoring", True, N_("Count: before the final scoring the followers in the City may move into incomplete features "
           "(and from the market into fields)"), bool),
    Option("castle_conversion_by", "knight_owner", N_("Bridges, Castles & Bazaars: who may turn a small city into a castle: the knight's owner "
           "(knight_owner) or the active seat (active_player)"), str, choices=("knight_owner", "active_player")),
    Option("castle_vicinity", "2x3", N_("Bridges, Castles & Bazaars: the tiles whose features trigger a castle: its 2 tiles and the 4 "
           "beside their long sides (2x3) or its 6 orthogonal neighbours (six_neighbours)"), str,
           choices=("2x3", "six_neighbours")),
    Option("castle_feature_choice", "highest", N_("Bridges, Castles & Bazaars: a castle triggered by several features at once scores the highest "
           "(highest) or the one its owner chooses (owner_choice; the highest at the deadline)"), str,
           choices=("highest", "owner_choice")),
    Option("bazaar_bid_cap", "none", N_("Bridges, Castles & Bazaars: bids go from 0 to 99 (none) or to the bidder's score (current_score)"),
           str, choices=("none", "current_score")),
    Option("bazaar_mode", "auction", N_("Bridges, Castles & Bazaars: each bazaar tile is auctioned (auction) or each seat in turn just "
           "picks one (draft, no bids, no points)"), str, choices=("auction", "draft")),
    Option("allow_negative_scores", True, N_("scores may go below 0 (The Tower's ransom, bazaar bids); false: a seat may not pay points it "
           "does not have (no ransom under 3 points, no bid above its score, no buying at a bid it cannot pay)"),
           bool),
    Option("besieged_tiny_city", "exempt", N_("Siege with tiny_city_scoring 2: a completed besieged 2-tile city scores 1 per tile and "
           "pennant like any besieged city (exempt) or 0, the tiny-city rule and then the siege's (zero, as "
           "JCloisterZone)"), str, choices=("exempt", "zero")),
    Option("unplaceable_bazaar", "auction", N_("Bridges, Castles & Bazaars: a drawn bazaar tile that fits nowhere is removed and still "
           "calls a bazaar (auction, the published text) or is removed with no bazaar (discard, as "
           "JCloisterZone)"), str, choices=("auction", "discard")),
    Option("siege_escape_adjacency", "any_city_tile", N_("Siege: the escape needs a monastery or shrine next to any tile of the besieged city, "
           "or next to a siege tile"), str, choices=("any_city_tile", "siege_tile")),
    Option("tunnel_other_expansions", False, N_("The Tunnel: the roads passing under a city on other expansions' tiles "
           "(P&D's PD25, A&M's AM12) end at two tunnel mouths that take tokens too"), bool),
    Option("tunnel_claim_requires_follower", False, N_("The Tunnel: a seat may claim a tunnel mouth only if one of its "
           "figures stands on that road (a fan variant against trapped roads)"), bool),
    Option("wheel_tiles", "icons_only", N_("The Wheel of Fortune (a house reading): the set in play with 19 of its "
           "base tiles showing a wheel number (icons_only), or the Wheel of Fortune box's own 72 land tiles "
           "instead of the base game's 71 (full_set: 63 base designs, 6 Inns & Cathedrals, 1 Traders & "
           "Builders and 2 King & Scout tiles, which ones a house choice)"), str,
           choices=("icons_only", "full_set")),
    Option("catapult_mode", "tiles_only", N_("The Catapult: the fair tiles only (tiles_only), or after a fair tile a "
           "catapult round without the dexterity game (abstract, a house rule): the active player chooses "
           "knock-out or seduction, then every player takes one secret shot at a follower within 2 tiles of the "
           "fair"), str, choices=("tiles_only", "abstract")),
)

#: the options of carcassonne@1 (its games keep their rules): no besieged_tiny_city nor
#: unplaceable_bazaar (its games play exempt and discard), and the King & Robber scorings
#: under the names they had, with carcassonne@1's readings (``game.CarcassonneV1``)
OPTIONS_V1 = tuple(
    Option("king_robber_scoring", "per_feature", N_("King & Robber: at the end the King scores 1 per completed city, the Robber Baron 1 per "
           "completed road (per_feature); or the holders score 10 and 20 (fixed_10_20) or 15 and 40 "
           "(fixed_15_40) at the end; or each holder scores 1 for every city (road) completed while it "
           "holds the figure (continuous)"), str,
           choices=("per_feature", "fixed_10_20", "fixed_15_40", "continuous"))
    if o.name == "king_robber_scoring" else o
    for o in OPTIONS if o.name not in ("besieged_tiny_city", "unplaceable_bazaar"))
#: carcassonne@1's King & Robber values -> the readings it played (``king_robber.py``)
KING_ROBBER_V1 = {"per_feature": "per_feature", "fixed_10_20": "king_10_robber_20",
                  "fixed_15_40": "king_15_robber_40", "continuous": "continuous_new_holder"}

SAMPLE_SETUPS = (
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
    (2, {"expansions": ["siege", "king_robber"], "tiny_city_scoring": 2, "besieged_tiny_city": "zero",
         "king_robber_scoring": "fixed_15_40"}),
    (2, {"expansions": ["bridges_castles_bazaars", "king_robber"], "unplaceable_bazaar": "discard",
         "king_robber_scoring": "fixed_10_20"}),
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
         "dragon_move_timing": "after_scoring", "fairy_placement": "on_tile",
         "count_final_scoring": False, "castle_conversion_by": "active_player",
         "castle_vicinity": "six_neighbours", "castle_feature_choice": "owner_choice",
         "bazaar_bid_cap": "current_score", "bazaar_mode": "draft", "allow_negative_scores": False,
         "king_robber_scoring": "continuous", "wagon_move": "nearby_tiles"}),
    (2, {"expansions": ["tower", "bridges_castles_bazaars"], "allow_negative_scores": False}),
    (2, {"expansions": ["tunnel"]}),
    (2, {"expansions": ["tunnel", "princess_dragon"], "tunnel_other_expansions": True,
         "tunnel_claim_requires_follower": True}),
    (2, {"expansions": ["wheel_of_fortune"]}),
    # every expansion: the Catapult's abstract round with 2 seats, its fair tiles alone with 6
    (2, {"expansions": ALL_EXPANSIONS, "catapult_mode": "abstract"}),
    (6, {"expansions": ALL_EXPANSIONS}),
    (3, {"expansions": ["catapult"], "catapult_mode": "abstract"}),
    (2, {"expansions": ["wheel_of_fortune"], "wheel_tiles": "full_set"}),
)
