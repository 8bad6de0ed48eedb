"""Carcassonne for text-only readers: the board in at most 80 columns, in
glyphs that show how roads and cities connect; the window around the last
tile and the cells where the drawn tile fits, and the whole board on
request; the drawn tile each way round; the placements, each line a move;
names; the help and the setup in words, with only the expansions in play."""
from __future__ import annotations

import random
import re

import pytest

from pbem import games
from pbem.games.base import rng_for
from pbem.games.carcassonne.glyphs import distinct_rotations, glyph
from pbem.games.carcassonne.notation import BASE_EXAMPLES

G = games.get("carcassonne")
NAMES = ["Ann", "Bob Lee", "Cy", "Dee", "Eve", "Fay"]
LONG = ["Annabel " * 7 + "X", "B" * 64, "Cy", "Dee", "Eve", "Fay"]  # 64 characters, the most a name may be


def positions(players, options, seed, every=3, spread=False):
    """Positions of a seeded random game, every ``every`` moves (``spread``:
    each tile as far east or west as it goes, for a board wider than 80
    columns)."""
    options = G.check_options(players, options)
    state = G.start(players, options)
    state = G.apply(state, G.setup(state, rng_for(b"text", 0)))
    chooser, n = random.Random(seed), 0
    while G.result(state) is None:
        if n % every == 0:
            yield state
        seat = sorted(G.to_act(state))[0]
        legal = G.legal_moves(state, seat)
        if spread and legal[0].get("type") == "place_tile":
            far = max(abs(m["x"]) for m in legal)
            legal = [m for m in legal if abs(m["x"]) == far]
        move = chooser.choice(legal)
        state = G.apply(state, G.decide(state, seat, move, rng_for(b"text", n + 1)))
        n += 1
    yield state


@pytest.mark.parametrize("players,options", G.sample_setups, ids=lambda v: str(v))
def test_every_line_of_the_board_is_at_most_80_columns(players, options):
    seen = 0
    for seed in range(2):
        for state in positions(players, options, seed, every=4):
            for viewer in (*sorted(G.to_act(state)), None):
                for names in (None, NAMES[:players], LONG[:players]):
                    for line in G.render(state, viewer, names).splitlines():
                        assert len(line) <= 80, f"{len(line)} columns: {line!r}"
                        seen += 1
    assert seen


def test_a_big_board_is_shown_in_part_around_the_last_tile_and_whole_on_request():
    states = list(positions(2, {}, seed=5, every=1, spread=True))
    big = next(s for s in states if max(x for x, _ in s.board) - min(x for x, _ in s.board) >= 14 and s.tile)
    text = G.render(big, None, NAMES[:2])
    assert "Part of the board:" in text and "--whole" in text
    header = text.splitlines()[1]
    shown = [int(x) for x in header.split()]
    assert len(shown) <= 12 and big.placed[-1][0] in shown  # the last tile is in the window
    assert ">" in text and "<" in text                       # ... marked
    whole = G.render(big, None, NAMES[:2], whole=True)
    columns = [int(x) for x in whole.splitlines()[1].split()]
    assert set(x for x, _ in big.board) <= set(columns) and "Part of the board" not in whole
    small = states[2]
    assert "Part of the board" not in G.render(small, None)  # a board that fits is shown whole


def test_the_window_holds_the_cells_where_the_tile_fits_near_the_last_tile():
    """On a board too big for the window, the cells marked ``?`` are the
    spots in the window, and the part line counts the others."""
    from pbem.games.carcassonne.render import spots
    checked = 0
    for state in positions(2, {}, seed=3, every=1, spread=True):
        if not state.tile or len(state.board) < 25:
            continue
        text = G.render(state, None)
        board = text.split("\nPart of the board")[0].split("\nKey:")[0]
        marked = board.count("?")
        assert marked >= 1
        if "Part of the board" in text:
            m = re.search(r"(\d+) of the (\d+) cells where the tile fits", text)
            assert m and int(m.group(1)) == marked and int(m.group(2)) == len(spots(state))
            checked += 1
    assert checked


def test_glyphs_tell_a_road_running_through_from_roads_ending():
    through = glyph("U", 0)          # F R F R: one road W-E
    ending = glyph("IC2", 0)         # F R F R: roads W and E end at the monastery
    junction = glyph("X", 0)         # four roads ending at a crossroads
    assert through[1] == "-----"
    assert ending[1] == "--M--" and junction[1] == "--o--" and junction[0] == "..|.." == junction[2]
    assert through != ending
    bend = glyph("V", 0)             # S-W: one road bending
    assert bend[1] == "--+.." and bend[2] == "..|.."
    crossing = glyph("TB24", 0)      # two roads crossing without joining
    assert crossing[1] == "--x--"


def test_glyphs_tell_a_city_split_from_one_joined():
    joined, split = glyph("G", 0), glyph("H", 1)   # F C F C: one city E-W / two cities E and W
    assert joined[1] == "#####" and split[1] == "#...#"
    corner_joined, corner_split = glyph("N", 0), glyph("I", 0)   # C F F C: city N+W / cities N and W
    assert corner_joined[0][0] == "#" and corner_joined[1][1] == "#"
    assert corner_split[0][0] == "." and corner_split[1][1] == "."
    assert corner_joined != corner_split
    assert glyph("KR5", 0)[1][2] == "x"            # two cities crossing without joining
    assert glyph("C", 0) == ["#####", "##*##", "#####"]  # one city, all round, with its pennant


def test_figures_stand_where_they_are_by_seat_and_kind():
    assert glyph("E", 0, (("follower", 2, "city N"),))[0] == ".#2#."
    assert glyph("U", 0, (("follower", 1, "road W"),))[1] == "--1--"
    assert glyph("B", 0, (("follower", 0, "cloister"),))[1] == ".M0.."
    assert glyph("U", 0, (("follower", 3, "field NL"),))[0] == ".3..."
    assert glyph("E", 0, (("big", 1, "city N"),))[0] == ".b1#."


def test_the_drawn_tile_is_shown_in_each_distinct_rotation():
    assert distinct_rotations("B") == [0]            # a monastery looks the same every way round
    assert distinct_rotations("U") == [0, 1]
    assert distinct_rotations("X") == [0]
    assert distinct_rotations("D") == [0, 1, 2, 3]
    state = G.start(2, G.check_options(2, {"draw_order": ["U", "E"], "start_player": 0}))
    state = G.apply(state, G.setup(state, rng_for(b"x", 0)))
    text = G.render(state, 0)
    i = text.index("The tile to place, U")
    labels, top, middle = text[i:].splitlines()[1:4]
    assert labels.split() == ["r0", "r90"] and middle.split() == ["-----", "..|.."]


def test_each_placement_line_is_a_move_and_the_figures_are_written_as_added():
    state = G.start(2, G.check_options(2, {"draw_order": ["E", "U"], "start_player": 0}))
    state = G.apply(state, G.setup(state, rng_for(b"x", 0)))
    lines = G.render(state, 0, NAMES[:2]).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Legal placements"))
    moves = [line for line in lines[start + 1:] if line.startswith("  place")]
    assert moves
    legal = G.legal_moves(state, 0)
    for line in moves:
        assert G.parse(line, state, 0) in legal
    figure_lines = [line for line in lines[start + 1:] if line.strip().startswith("+")]
    assert figure_lines and all(not line.strip().startswith("place") for line in figure_lines)
    first, extras = moves[0].strip(), figure_lines[0].strip()[2:].split(" | ")
    for extra in extras:                              # a move plus one of its figures is a legal move
        assert G.parse(f"{first} {extra}", state, 0) in legal


def test_names_on_the_board_and_in_events():
    state = next(s for s in positions(2, {}, seed=1, every=1) if s.turn >= 6)
    text = G.render(state, 0, ["Ann", "Bob"])
    assert "Scores: Ann " in text and ", Bob " in text and "0 Ann, 1 Bob" in text
    assert not re.search(r"\bseat \d", text, re.IGNORECASE)
    assert G.describe({"type": "TileDrawn", "player": 1, "tile": "E"}, 0, ["Ann", "Bob"]) == "Bob drew tile E."
    # an expansion's sentence gets names too
    assert G.describe({"type": "EscapeDeclined", "player": 0}, 0, ["Ann", "Bob"]) == "Ann does not escape."


def test_the_help_lists_only_the_expansions_in_play():
    base = G.notation_help_for(G.check_options(2, {}))
    assert "place X,Y rR follower city N" in base
    for word in ("big city", "builder", "heretic", "escape", "mayor", "abbey X,Y"):
        assert word not in base
    inns = G.notation_help_for(G.check_options(2, {"expansions": ["inns_cathedrals"]}))
    assert "big city N" in inns and "Inns & Cathedrals" in inns and "escape" not in inns
    siege = G.notation_help_for(G.check_options(2, {"expansions": ["siege", "abbey_mayor"]}))
    assert "no escape" in siege and "wagon home" in siege and "big city" not in siege
    assert "big" not in " ".join(G.notation_examples(G.check_options(2, {})))
    assert "place 1,0 r0 big city N" in G.notation_examples(G.check_options(2, {"expansions": ["inns_cathedrals"]}))


def test_the_setup_in_words():
    text = G.describe_setup(G.check_options(2, {"expansions": ["inns_cathedrals"]}), 2)
    assert text.startswith("Carcassonne with Inns & Cathedrals; 2 players; farmers score 3 per completed city")
    text = G.describe_setup(G.check_options(3, {"expansions": ["cult", "siege", "king_robber"],
                                                "tiny_city_scoring": 2}), 3)
    assert text.startswith("Carcassonne with Cult, Siege and King & Robber; 3 players")
    assert "a completed 2-tile city scores 2" in text and "6 shrine tiles" in text
    assert G.describe_setup(G.check_options(2, {}), 2).startswith("Carcassonne; 2 players;")


# -- the four later expansions: their help, examples, seats by name, symbols ------------------

from pbem.games.base import ParseError  # noqa: E402
from pbem.games.carcassonne.expansions.princess_dragon.common import put as put_dragon  # noqa: E402

from .carcassonne_support import new_game, play  # noqa: E402

LATER = ("princess_dragon", "tower", "count", "bridges_castles_bazaars")
TITLES = {"princess_dragon": "The Princess & the Dragon", "tower": "The Tower",
          "count": "The Count of Carcassonne", "bridges_castles_bazaars": "Bridges, Castles & Bazaars"}
#: a word of each later expansion's notation that no other help line has
OWN_WORDS = {"princess_dragon": "portal X,Y", "tower": "ransom seat", "count": "enter castle",
             "bridges_castles_bazaars": "bazaar N bid B"}

#: each help line (its left column) of a later expansion -> lines pasted from it:
#: (text, the decision owed when it applies or None, what the move holds). A
#: line naming big, mayor or wagon is in the help only with that figure in play.
PASTED = {
    "princess_dragon": {
        "dragon N | E | S | W": [("dragon N", "dragon", {"type": "dragon", "direction": "N"}),
                                 ("dragon e", "dragon", {"type": "dragon", "direction": "E"}),
                                 ("dragon S", "dragon", {"direction": "S"}),
                                 ("dragon W", "dragon", {"direction": "W"})],
        "fairy X,Y road E": [("fairy 1,0 road E", "action", {"type": "action", "do": "fairy", "on": "road E",
                                                              "figure": "follower"})],
        "fairy X,Y road E big": [("fairy 1,0 road E big", "action", {"do": "fairy", "figure": "big"})],
        "fairy X,Y road E mayor": [("fairy 1,0 city N mayor", "action", {"do": "fairy", "figure": "mayor"}),
                                   ("fairy 1,0 road E wagon", "action", {"do": "fairy", "figure": "wagon"})],
        "fairy X,Y": [("fairy 1,0", "action", {"type": "action", "do": "fairy", "x": 1, "y": 0, "on": None})],
        "princess X,Y city N seat P": [
            ("princess 1,0 city N seat 1", "action", {"do": "princess", "player": 1, "figure": "follower"})],
        "princess X,Y city N seat P big": [
            ("princess 1,0 city N seat 1 big", "action", {"do": "princess", "player": 1, "figure": "big"})],
        "princess X,Y city N seat P mayor": [
            ("princess 1,0 city N seat 1 mayor", "action", {"figure": "mayor"}),
            ("princess 1,0 city N seat 1 wagon", "action", {"figure": "wagon"})],
        "portal X,Y follower road E": [
            ("portal 1,0 follower road E", "action", {"do": "portal", "figure": "follower", "on": "road E"}),
            ("portal 1,0 farmer NL", "action", {"do": "portal", "figure": "follower", "on": "field NL"}),
            ("portal 1,0 cloister", "action", {"do": "portal", "figure": "follower", "on": "cloister"})],
        "portal X,Y big city N": [("portal 1,0 big city N", "action", {"do": "portal", "figure": "big", "on": "city N"}),
                                  ("portal 1,0 big farmer NL", "action", {"figure": "big", "on": "field NL"})],
        "portal X,Y mayor city N": [("portal 1,0 mayor city N", "action", {"do": "portal", "figure": "mayor"}),
                                    ("portal 1,0 wagon road E", "action", {"figure": "wagon", "on": "road E"})],
        "pass": [("pass", "action", {"type": "action", "pass": True})],
    },
    "tower": {
        "tower X,Y": [("tower 1,0", "action", {"type": "action", "do": "tower", "x": 1, "y": 0})],
        "tower X,Y top": [("tower 1,0 top", "action", {"do": "tower", "top": "follower"})],
        "tower X,Y top big": [("tower 1,0 top big", "action", {"do": "tower", "top": "big"})],
        "capture X,Y road E seat P": [
            ("capture 1,0 road E seat 1", "capture", {"type": "capture", "on": "road E", "player": 1,
                                                      "figure": "follower"})],
        "capture X,Y road E seat P big": [("capture 1,0 road E seat 1 big", "capture", {"figure": "big"})],
        "capture X,Y road E seat P mayor": [("capture 1,0 city N seat 1 mayor", "capture", {"figure": "mayor"}),
                                            ("capture 1,0 road E seat 1 wagon", "capture", {"figure": "wagon"})],
        "capture X,Y tower seat P": [("capture 1,0 tower seat 1", "capture", {"type": "capture", "on": "tower"})],
        "capture none": [("capture none", "capture", {"type": "capture", "pass": True})],
        "exchange follower": [("exchange follower", "exchange", {"type": "exchange", "figure": "follower"})],
        "exchange big": [("exchange big", "exchange", {"type": "exchange", "figure": "big"})],
        "exchange mayor": [("exchange mayor", "exchange", {"figure": "mayor"}),
                           ("exchange wagon", "exchange", {"figure": "wagon"})],
        "ransom seat P": [("ransom seat 1", None, {"type": "ransom", "from": 1, "figure": "follower"})],
        "ransom seat P big": [("ransom seat 1 big", None, {"type": "ransom", "figure": "big"})],
        "ransom seat P mayor": [("ransom seat 1 mayor", None, {"figure": "mayor"}),
                                ("ransom seat 1 wagon", None, {"figure": "wagon"})],
        "pass": [("pass", "capture", {"type": "capture", "pass": True}),
                 ("pass", "action", {"type": "action", "pass": True})],
    },
    "count": {
        "enter castle count market": [("enter castle count market", "count",
                                       {"type": "count", "quarter": "castle", "count_to": "market",
                                        "figure": "follower"})],
        "enter market big count castle": [("enter market big count castle", "count",
                                           {"quarter": "market", "figure": "big", "count_to": "castle"})],
        "enter castle mayor count market": [("enter castle mayor count market", "count", {"figure": "mayor"}),
                                            ("enter castle wagon count market", "count", {"figure": "wagon"})],
        "stay out": [("stay out", "count", {"type": "count", "pass": True})],
        "leave castle X,Y city N": [("leave castle 1,0 city N", "count_move",
                                     {"type": "count_move", "quarter": "castle", "on": "city N",
                                      "figure": "follower"})],
        "leave castle big X,Y city N": [("leave castle big 1,0 city N", "count_move", {"figure": "big"})],
        "leave castle mayor X,Y city N": [("leave castle mayor 1,0 city N", "count_move", {"figure": "mayor"}),
                                          ("leave castle wagon 1,0 city N", "count_move", {"figure": "wagon"})],
        "pass": [("pass", "count", {"type": "count", "pass": True}),
                 ("pass", "count_move", {"type": "count_move", "pass": True})],
    },
    "bridges_castles_bazaars": {
        "place X,Y rR bridge X2,Y2 NS": [
            ("place 1,0 r0 bridge 1,0 NS", "place_tile", {"type": "place_tile", "bridge": [1, 0, "NS"]}),
            ("place 1,0 r0 bridge 2,0 WE follower road N", "place_tile",
             {"bridge": [2, 0, "WE"], "figure": "follower", "on": "road N"})],
        "castle X,Y city N | no castle": [("castle 1,0 city N", "castle", {"type": "castle", "on": "city N"}),
                                          ("no castle", "castle", {"type": "castle", "pass": True})],
        "castle points X,Y road W": [("castle points 1,0 road W", "choose_castle_feature",
                                      {"type": "choose_castle_feature", "x": 1, "y": 0}),
                                     ("castle points -1,2 city N", "choose_castle_feature",
                                      {"type": "choose_castle_feature", "x": -1, "y": 2, "on": "city N"})],
        "bazaar N bid B": [("bazaar 0 bid 2", "bazaar", {"type": "bazaar", "tile": 0, "bid": 2})],
        "bazaar N": [("bazaar 1", ("bazaar", {"bazaar_mode": "draft"}), {"type": "bazaar", "tile": 1})],
        "bid B | pass": [("bid 3", "bazaar", {"type": "bazaar", "bid": 3}),
                         ("pass", "bazaar", {"type": "bazaar", "pass": True})],
        "buy | sell": [("buy", "bazaar", {"deal": "buy"}), ("sell", "bazaar", {"deal": "sell"})],
        "pass": [("pass", "castle", {"type": "castle", "pass": True})],
    },
}
FIGURES = {"big": "inns_cathedrals", "mayor": "abbey_mayor", "wagon": "abbey_mayor"}


def _game(expansions, players=2):
    options = G.check_options(players, {"expansions": list(expansions), "start_player": 0})
    state = G.start(players, options)
    return G.apply(state, G.setup(state, rng_for(b"later", 0)))


def _owing(state, player, decision):
    """The state with ``player`` owing ``decision`` (all the parse looks at); a
    decision (name, options) also sets those options (the draft's ``bazaar N``)."""
    if decision is None:
        return state
    new = state.copy()
    if isinstance(decision, tuple):
        decision, options = decision
        new.options = {**state.options, **options}
    new.pending = {player: decision}
    return new


def _templates(expansion, expansions) -> set:
    """The left column of the expansion's help lines (each a move as typed)
    in the help of a game with ``expansions``."""
    lines = G.notation_help_for(G.check_options(2, {"expansions": list(expansions)})).splitlines()
    start = lines.index(f"  {TITLES[expansion]}:") + 1
    out = set()
    for line in lines[start:]:
        if not line.startswith("  ") or line.startswith("  pass ") or line.endswith(":") \
                or line.startswith(("  place X,Y rR big", "  place X,Y rR mayor")):
            break
        if line[2] != " ":
            out.add(line[2:36].strip())
    return out


def test_a_later_expansion_help_lists_only_its_own_notation():
    for expansion in LATER:
        text = G.notation_help_for(G.check_options(2, {"expansions": [expansion]}))
        assert f"  {TITLES[expansion]}:" in text and OWN_WORDS[expansion] in text
        assert "decline whatever optional decision you owe" in text
        for other in LATER:
            if other != expansion:
                assert TITLES[other] not in text and OWN_WORDS[other] not in text, (expansion, other)
        for word in ("big city", "builder", "heretic", "escape", "abbey X,Y"):
            assert word not in text
        # seats by name only where a move names a seat
        assert ("seat Ann" in text) == (expansion in ("princess_dragon", "tower")), expansion
    base = G.notation_help_for(G.check_options(2, {}))
    assert "pass" not in base and "seat P" not in base
    every = G.notation_help_for(G.check_options(2, {"expansions": list(LATER)}))
    assert all(TITLES[e] in every for e in LATER) and all(TITLES[e] in G.notation_help for e in LATER)


@pytest.mark.parametrize("expansions", [[e] for e in LATER] + [list(LATER), None])
def test_every_help_line_is_at_most_80_columns(expansions):
    text = G.notation_help if expansions is None else \
        G.notation_help_for(G.check_options(2, {"expansions": expansions}))
    assert "pass" in text
    assert all(len(line) <= 80 for line in text.splitlines()), [ln for ln in text.splitlines() if len(ln) > 80]


@pytest.mark.parametrize("expansion", LATER)
@pytest.mark.parametrize("others", [[], ["inns_cathedrals"], ["inns_cathedrals", "abbey_mayor"]])
def test_every_help_line_of_a_later_expansion_pastes_as_a_move(expansion, others):
    """Each line of the help, filled in, parses where it applies (the seat
    owing that decision) into the move it says; a line naming a figure is
    there only with that figure in play."""
    expansions = [expansion, *others]
    shown = {t for t in PASTED[expansion]
             if t != "pass" and all(FIGURES[w] in expansions for w in t.split() if w in FIGURES)}
    assert _templates(expansion, expansions) == shown
    state = _game(expansions)
    for template, lines in PASTED[expansion].items():
        if template not in shown and template != "pass":
            continue
        for text, owed, expected in lines:
            move = G.parse(text, _owing(state, 0, owed), 0)
            assert {k: move.get(k) for k in expected} == expected, (template, text, move)


@pytest.mark.parametrize("expansion", LATER)
def test_the_examples_of_a_later_expansion_parse_in_a_game_with_it(expansion):
    examples = G.notation_examples(G.check_options(2, {"expansions": [expansion]}))
    own = examples[len(BASE_EXAMPLES):]
    assert len(own) >= 3, own              # more than one example of its notation
    text = G.notation_help_for(G.check_options(2, {"expansions": [expansion]}))
    states = [_game([expansion])] + [s for s in positions(2, {"expansions": [expansion]}, seed=2, every=9)][:6]
    for example in own:
        assert example in text
        for state in states:
            for seat in sorted(G.to_act(state)) or [0]:
                G.parse(example, state, seat)
        with pytest.raises(ParseError):    # the notation is the expansion's
            G.parse(example, _game([]), 0)


def test_the_dragon_goes_to_a_tile_named_by_its_cell():
    state = put_dragon(_game(["princess_dragon"]), dragon=[0, 0])
    assert G.parse("dragon 1,0", state, 0) == {"type": "dragon", "direction": "E"}
    assert G.parse("dragon 0,-1", state, 0) == {"type": "dragon", "direction": "N"}
    with pytest.raises(ParseError):
        G.parse("dragon 2,0", state, 0)


def test_a_move_naming_a_seat_takes_the_number_or_the_players_name():
    names = ["Ann", "Bob Lee"]
    tower = _game(["tower"])
    assert G.parse("ransom seat Bob Lee", tower, 0, names) == G.parse("ransom seat 1", tower, 0)
    assert G.parse("RANSOM seat  bob   LEE big", tower, 0, names) == {"type": "ransom", "from": 1, "figure": "big"}
    assert G.parse("ransom seat 1", tower, 0, names)["from"] == 1          # the number still
    assert G.parse("capture 1,0 road E seat Ann", _owing(tower, 1, "capture"), 1, names)["player"] == 0
    assert G.parse("capture 1,0 tower seat Bob Lee big", _owing(tower, 0, "capture"), 0, names)["player"] == 1
    with pytest.raises(ParseError):
        G.parse("ransom seat Zed", tower, 0, names)
    with pytest.raises(ParseError):                                       # "Bob" is not "Bob Lee"
        G.parse("ransom seat Bob", tower, 0, names)
    dragon = _game(["princess_dragon"])
    move = G.parse("princess 1,0 city N seat Bob Lee big", _owing(dragon, 0, "action"), 0, names)
    assert move["player"] == 1 and move["figure"] == "big"
    # the moves offered name the seat as the board does, and read back
    for state, move in ((tower, {"type": "ransom", "from": 1, "figure": "follower"}),
                        (tower, {"type": "capture", "x": 1, "y": 0, "on": "road E", "player": 0, "figure": "big"}),
                        (dragon, {"type": "action", "do": "princess", "x": 1, "y": 0, "on": "city N", "player": 1,
                                  "figure": "follower"})):
        text = G.describe(move, 0, names)
        assert re.search(r"seat (Ann|Bob Lee)\b", text) and not re.search(r"seat \d", text), text
        assert G.parse(text, state, 0, names) == move
        assert G.parse(G.describe(move, 0), state, 0) == move             # no names: numbers
    # a seat whose name cannot stand for it (like a number, or twice) keeps its number
    assert G.describe({"type": "ransom", "from": 1, "figure": "follower"}, 0, ["Ann", "2"]) == "ransom seat 1"
    assert G.parse("ransom seat 2", tower, 0, ["Ann", "2"])["from"] == 2


def test_the_later_expansions_symbols_are_drawn_and_explained():
    drawn = {"V": "PD1", "D": "PD22", "@": "PD29", "P": "PD11", "T": "TO4", "$": "BB3", "=": "CO2"}
    for char, letter in drawn.items():
        assert char in "".join(glyph(letter, 0)), (char, letter, glyph(letter, 0))
    assert "=" not in "".join(glyph("AB", 0))       # the abbey's edges match anything: not the City's
    assert "I" in "".join(glyph("BB11", 1))          # Bridges, Castles & Bazaars' inn

    def key(state):
        lines = G.render(state, None).splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("Key:"))
        return "\n".join(lines[start:lines.index("", start)])

    base = key(_game([]))
    for expansion, chars in (("princess_dragon", "VD@P"), ("tower", "T"), ("count", "="),
                             ("bridges_castles_bazaars", "$I")):
        text = key(_game([expansion]))
        for char in chars:
            assert f" {char} " in text, (expansion, char, text)
            assert f" {char} " not in base
    assert " = " not in key(_game(["abbey_mayor"]))
    # the City of Carcassonne is on the board from the start; a tower foundation once placed
    assert "=" in G.render(_game(["count"]), None).split("\nKey:")[0]
    state = new_game(["TO4"], expansions=["tower"])
    state, _ = play(state, G.describe(G.legal_moves(state, 0)[0]))
    assert "T" in G.render(state, None).split("\nKey:")[0].split("\n", 2)[2]


@pytest.mark.parametrize("expansions", [["princess_dragon"], ["tower"], ["count"], ["bridges_castles_bazaars"],
                                        ["abbey_mayor", "inns_cathedrals"]])
def test_the_key_explains_every_character_the_board_draws(expansions):
    seen = set()
    for state in positions(2, {"expansions": expansions}, seed=1, every=5):
        lines = G.render(state, None, ["Ann", "Bob"], whole=True).splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("Key:"))
        key = "\n".join(lines[start:lines.index("", start)])
        board = "".join(line[4:] for line in lines[2:start])
        for char in set(board) - set(" ?<>0123456789") - seen:
            assert re.search(r"(^|\s)" + re.escape(char) + r"[\s\d]", key), (char, key)
            seen.add(char)
    assert seen


def test_the_rules_notes_show_the_help_as_the_game_gives_it():
    """docs/rules/carcassonne.md's notation block is the help with every expansion in play."""
    from pathlib import Path

    from pbem.games.carcassonne.catalog import ALL_EXPANSIONS
    from pbem.games.carcassonne.notation import help_for
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "carcassonne.md").read_text()
    lines = help_for(list(ALL_EXPANSIONS)).splitlines()
    moves = lines[1:next(n for n, line in enumerate(lines) if line.startswith("e.g. "))]
    block = "\n".join("    " + (line[2:] if line.startswith("  ") else line) for line in moves)
    assert block in doc, "docs/rules/carcassonne.md: the Text notation block is not the game's help"


def test_the_board_says_who_owes_a_decision_besides_the_placement_and_what_they_may_do():
    from pbem.games.carcassonne.base_rules import rules_for
    from pbem.games.carcassonne.catalog import ALL_EXPANSIONS
    from pbem.games.carcassonne.notation import OWED_TEXTS
    # every decision of the ten expansions has its sentence
    assert set(rules_for(ALL_EXPANSIONS).moves) - {"place_tile"} <= set(OWED_TEXTS)
    seen = set()
    for players, options in ((2, {"expansions": ALL_EXPANSIONS}),
                             (3, {"expansions": ALL_EXPANSIONS, "bazaar_mode": "draft",
                                  "castle_feature_choice": "owner_choice"})):
        for seed in range(2):
            for n, state in enumerate(positions(players, options, seed=seed, every=1)):
                owed = {p: d for p, d in state.pending.items() if d != "place_tile"}
                if not owed and n % 10:
                    continue                 # (a placement now and then: no line then)
                names = ["Ann", "Bob", "Cy"][:players]
                lines = G.render(state, None, names).splitlines()
                waiting = [line for line in lines if line.startswith("Waiting for ")]
                assert len(waiting) == len(owed), (owed, waiting)
                for (p, decision), line in zip(sorted(owed.items()), waiting):
                    assert line.startswith(f"Waiting for {names[p]}, who ") and "seat" not in line, line
                    assert "owes the decision" not in line
                    seen.add(decision)
    assert {"action", "dragon", "bazaar", "capture"} <= seen, seen


def test_the_bazaar_waiting_line_follows_its_phase():
    state = new_game(["BB6", "U", "V", "B"], expansions=["bridges_castles_bazaars"])
    state, _ = play(state, "place 0,1 r0")                            # the bazaar: U and V shown
    names = ["Ann", "Bob"]
    assert ("Waiting for Bob, who hosts the bazaar: picks a tile and bids for it, bazaar N bid B (N: 0, 1; "
            "B: 0 to 99).") in " ".join(G.render(state, 1, names).split("\n      ... "))
    state, _ = play(state, "bazaar 1 bid 2", player=1)
    assert "Waiting for Ann, who may outbid Bob's 2 for tile 1: bid B (more than 2), or pass." in " ".join(
        G.render(state, 0, names).split("\n      ... "))
    state, _ = play(state, "bid 3", player=0)
    assert ("Waiting for Bob, who buys tile 1 for 3 points (paid to Ann), or sells it to Ann for 3 points: "
            "buy, sell.") in " ".join(G.render(state, 1, names).split("\n      ... "))
