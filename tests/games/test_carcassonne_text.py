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
