"""The Carcassonne picture: valid SVG for every sample setup and viewer at
several points of seeded random games, drawn from the view alone, the legal
spots it marks equal to the legal moves, coordinates that name the cells,
figures where the view puts them, the drawn tile's distinct rotations."""
from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pbem import games, pictures
from pbem.games.base import OMNISCIENT, SPECTATOR, canonical, rng_for
from pbem.games.carcassonne.orient import oriented
from pbem.pictures.carcassonne import hooks
from pbem.games.playout import play_random

GAME = games.get("carcassonne")
SVG = "{http://www.w3.org/2000/svg}"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ALL = ["inns_cathedrals", "traders_builders", "king_robber", "cult", "siege", "abbey_mayor"]
NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"]


def states_of(players, options, seed, points=(0.0, 0.35, 0.7)):
    """(state, label) at the start, at fractions of a seeded random game, and its end."""
    played = play_random(GAME, players, options, seed=seed)
    for frac in points:
        version = played.moves[int(len(played.moves) * frac)][0]
        yield GAME.replay(players, played.options, played.events[:version]), f"{frac:.2f}"
    yield played.state, "end"


def picture(state, viewer, legal=None):
    view = GAME.view(state, viewer)
    return pictures.svg("carcassonne", view, names=NAMES[:state.players], viewer=viewer, legal=legal)


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root


def elements(root, cls: str) -> list:
    return [e for e in root.iter() if e.get("class") == cls]


@pytest.mark.parametrize("players,options", [pytest.param(p, o, id=f"{p}p-{canonical(o)}")
                                             for p, o in GAME.sample_setups])
def test_every_setup_and_viewer_gives_valid_svg(players, options):
    for state, _ in states_of(players, options, seed=7):
        viewers = [SPECTATOR, *range(players)] + ([OMNISCIENT] if state.over else [])
        for viewer in viewers:
            legal = GAME.legal_moves(state, viewer) if isinstance(viewer, int) else None
            root = parse(picture(state, viewer, legal))
            view = GAME.view(state, viewer)
            # every figure of the view is drawn, as what it is, where it is
            drawn = sorted((int(e.get("data-x")), int(e.get("data-y")), e.get("data-on"), e.get("data-figure"))
                           for e in elements(root, "figure"))
            # ... and the figures the view places elsewhere (the dragon, the fairy, towers, castles)
            extra = [(f["x"], f["y"], f["on"] or "tile", f["figure"]) for fn in hooks.PLACED for f in fn(view)]
            wanted = sorted([*((f["x"], f["y"], f["on"], f["figure"]) for f in view["followers"]), *extra])
            assert drawn == wanted
            names = " ".join("".join(t.itertext()) for t in root.iter(SVG + "tspan"))
            for seat in range(players):
                assert NAMES[seat] in names


def test_the_picture_is_drawn_from_the_view_alone():
    """The API's JSON view (a round trip through JSON) draws the same picture
    as the view made in process: nothing but the view is read."""
    for state, _ in states_of(2, {"expansions": ALL}, seed=3):
        for viewer in (SPECTATOR, 0):
            view = GAME.view(state, viewer)
            legal = GAME.legal_moves(state, 0) if viewer == 0 else None
            again = json.loads(json.dumps(view))
            assert pictures.svg("carcassonne", again, viewer=viewer, legal=legal) == \
                pictures.svg("carcassonne", view, viewer=viewer, legal=legal)


def labels(root, cls: str) -> list:
    """(value, x, y) of each coordinate label in the margin ``cls``."""
    return [(int(span.text), float(span.get("x")), float(span.get("y")))
            for text in elements(root, cls) for span in text.iter(SVG + "tspan")]


def cell_of_column_and_row(root, rect):
    """Read a marker's cell off the picture as a player would: the coordinate
    labels above its column and left of its row."""
    x = float(rect.get("x")) + float(rect.get("width")) / 2
    y = float(rect.get("y")) + float(rect.get("height")) / 2
    col = min(labels(root, "coord-x"), key=lambda t: abs(t[1] - x))
    row = min(labels(root, "coord-y"), key=lambda t: abs(t[2] - 4 - y))
    return col[0], row[0]


def looks_same(letter, r1, r2) -> bool:
    a, b = oriented(letter, r1), oriented(letter, r2)
    return sorted(zip(a.kinds, a.ports)) == sorted(zip(b.kinds, b.ports))


@pytest.mark.parametrize("options", [{}, {"expansions": ALL}])
def test_legal_spots_drawn_match_the_legal_moves(options):
    checked = 0
    for seed in range(3):
        for state, _ in states_of(2, options, seed, points=(0.0, 0.2, 0.5, 0.8)):
            for seat in sorted(GAME.to_act(state)):
                legal = GAME.legal_moves(state, seat)
                root = parse(picture(state, seat, legal))
                spots = {(int(e.get("data-x")), int(e.get("data-y"))): e.get("data-rotations").split()
                         for e in elements(root, "legal")}
                places = [mv for mv in legal if mv["type"] == "place_tile"]
                holes = [mv for mv in legal if mv["type"] == "abbey" and "x" in mv]
                assert set(spots) == {(mv["x"], mv["y"]) for mv in places + holes}
                for rect in elements(root, "legal"):
                    assert cell_of_column_and_row(root, rect) == (int(rect.get("data-x")), int(rect.get("data-y")))
                for (x, y), labels in spots.items():
                    here = {mv["rotation"] // 90 for mv in places if (mv["x"], mv["y"]) == (x, y)}
                    shown = {int(t[1:]) // 90 for t in labels}
                    assert shown <= here
                    assert all(any(looks_same(state.tile, r, s) for s in shown) for r in here)
                rings = {(int(e.get("data-x")), int(e.get("data-y")), e.get("data-on"))
                         for e in elements(root, "legal-segment")}
                assert rings == {(mv["x"], mv["y"], mv["on"]) for mv in legal
                                 if mv["type"] in ("wagon", "escape") and "x" in mv}
                checked += 1
    assert checked > 10


def test_a_spectator_is_shown_no_legal_spot():
    state = next(states_of(2, {}, seed=1))[0]
    root = parse(picture(state, SPECTATOR))
    assert not elements(root, "legal")


def scripted(order, moves=()):
    opts = GAME.check_options(2, {"draw_order": order, "start_player": 0})
    state = GAME.start(2, opts)
    state = GAME.apply(state, GAME.setup(state, random.Random(1)))
    for text in moves:
        player = next(iter(GAME.to_act(state)))
        move = GAME.parse(text, state, player)
        state = GAME.apply(state, GAME.decide(state, player, move, rng_for(b"s", 0)))
    return state


@pytest.mark.parametrize("letter,distinct", [("B", 1), ("C", 1), ("X", 1), ("U", 2), ("H", 2), ("V", 4), ("D", 4)])
def test_the_drawn_tile_is_shown_in_its_distinct_rotations(letter, distinct):
    state = scripted([letter, "E"])
    root = parse(picture(state, 0, GAME.legal_moves(state, 0)))
    previews = elements(root, "preview")
    assert len(previews) == distinct
    rots = [int(p.get("data-rotation")) // 90 for p in previews]
    for i, a in enumerate(rots):
        assert not any(looks_same(letter, a, b) for b in rots[i + 1:])
    # a spectator sees the tile, not its rotations to choose from
    assert len(elements(parse(picture(state, SPECTATOR)), "preview")) == 1


def test_the_last_tile_placed_is_framed():
    state = scripted(["E", "U", "V"], ["place 0,-1 r180", "place 1,0 r0"])
    root = parse(picture(state, SPECTATOR))
    assert [(int(e.get("data-x")), int(e.get("data-y"))) for e in elements(root, "last")] == [(1, 0)]
    start = scripted(["E"])
    assert not elements(parse(picture(start, SPECTATOR)), "last")


def test_the_board_is_cropped_to_its_tiles():
    small = parse(picture(scripted(["E", "U"]), SPECTATOR))
    big = parse(picture(scripted(["E", "U", "V"], ["place 0,-1 r180", "place 1,0 r0"]), SPECTATOR))
    cols = lambda root: sorted(v for v, _, _ in labels(root, "coord-x"))  # noqa: E731
    rows = lambda root: sorted(v for v, _, _ in labels(root, "coord-y"))  # noqa: E731
    assert set(cols(small)) == {0} and set(rows(small)) == {0}
    assert set(cols(big)) == {0, 1} and set(rows(big)) == {-1, 0}


def test_png_of_a_finished_game_with_every_expansion(tmp_path):
    """Saved for a person to look at (test-artifacts/, git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    played = play_random(GAME, 2, {"expansions": ALL}, seed=5)
    svg = pictures.svg("carcassonne", GAME.view(played.state, SPECTATOR), names=NAMES[:2])
    image = pictures.png(svg)
    assert image[:8] == b"\x89PNG\r\n\x1a\n"
    (ARTIFACTS / "carcassonne-all-expansions-finished.png").write_bytes(image)
    middle = played.moves[len(played.moves) // 2]
    state = GAME.replay(2, played.options, played.events[:middle[0]])
    seat = middle[1]
    svg = pictures.svg("carcassonne", GAME.view(state, seat), names=NAMES[:2], viewer=seat,
                       legal=GAME.legal_moves(state, seat))
    (ARTIFACTS / "carcassonne-all-expansions-middle.png").write_bytes(pictures.png(svg))
    base = play_random(GAME, 2, {}, seed=1)
    (ARTIFACTS / "carcassonne-base-finished.png").write_bytes(
        pictures.png(pictures.svg("carcassonne", GAME.view(base.state, SPECTATOR), names=NAMES[:2])))
    start = GAME.replay(2, base.options, base.events[:base.moves[0][0]])
    seat = base.moves[0][1]
    (ARTIFACTS / "carcassonne-base-start.png").write_bytes(pictures.png(pictures.svg(
        "carcassonne", GAME.view(start, seat), names=NAMES[:2], viewer=seat, legal=GAME.legal_moves(start, seat))))


#: in a child with no font known to fontconfig: a finished board as PNG, with
#: and without its coordinate labels
NO_FONT_CHILD = """
import json, re, sys
from pbem import games, pictures
from pbem.games.playout import play_random
game = games.get("carcassonne")
played = play_random(game, 2, {}, seed=1)
svg = pictures.svg("carcassonne", game.view(played.state, None), names=["Ann", "Bob"])
bare = re.sub(r'<text class="coord[^"]*".*?</text>', "", svg)
assert bare != svg
json.dump({"with": pictures.png(svg).hex(), "without": pictures.png(bare).hex()}, sys.stdout)
"""


def test_coordinates_are_drawn_with_no_system_font(tmp_path):
    import subprocess
    import sys

    from pbem.pictures.carcassonne.board import MARGIN

    from .png_pixels import decode, differing, region
    from .test_raster import no_font_env

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", NO_FONT_CHILD], cwd=root, env=no_font_env(tmp_path),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    w, h, labelled = decode(bytes.fromhex(out["with"]))
    _, _, bare = decode(bytes.fromhex(out["without"]))
    # the top margin above the board holds the column numbers
    band = (MARGIN, 0, w // 2, MARGIN - 2)
    changed = differing(region(labelled, *band), region(bare, *band))
    assert changed > 100, f"only {changed} pixels of the column numbers were drawn"


def test_a_later_expansion_draws_through_the_hooks():
    """A river segment (the River is not in the rules yet) is drawn as water
    by its hook; an unknown mark and an unknown figure are still shown."""
    from pbem.pictures.carcassonne import hooks, terrain
    from pbem.pictures.carcassonne.figures import figure_svg
    from pbem.pictures.carcassonne.tile_art import build
    from pbem.games.carcassonne.segments import Segment, TileType

    tile = TileType("RV1", 1, "FFFF", (Segment("river", (1, 3)), Segment("field", (0, 1, 2, 7)),
                                       Segment("field", (3, 4, 5, 6), marks=(("volcano", 1),))))
    body = terrain.tile_body(build(tile), 60, 1)
    assert terrain.WATER in body and terrain.WATER_EDGE in body
    assert "volcano" not in hooks.MARKS and 'fill="#ffffff"' in body     # the unknown mark's diamond
    unknown = figure_svg("catapult", None, "", 10, 10, 20)      # (the dragon has its art now)
    assert "<circle" in unknown and ">C<" in unknown
    assert "<circle" not in figure_svg("dragon", None, "", 10, 10, 20)


def test_names_are_escaped_and_long_ones_cut():
    state = scripted(["E", "U"])
    names = ['<b>&"Zoë"</b>', "A" * 80]
    svg = pictures.svg("carcassonne", GAME.view(state, 0), names=names, viewer=0, legal=GAME.legal_moves(state, 0))
    root = parse(svg)
    texts = ["".join(t.itertext()) for t in root.iter(SVG + "tspan")]
    assert any('<b>&"Zoë"</b>' in t for t in texts)
    longest = max((t for t in texts if t.startswith("A")), key=len)
    assert longest.endswith("…") and len(longest) < 40


def key_words(root) -> set:
    """The key's words: the labels after the one that says Key."""
    texts = ["".join(t.itertext()) for t in root.iter(SVG + "tspan")]
    return set(texts[texts.index("Key") + 1:]) if "Key" in texts else set()


def test_the_key_explains_what_the_picture_shows():
    start = scripted(["E", "U"])                # the start tile: a city, a road, fields, no pennant
    words = key_words(parse(picture(start, 0, GAME.legal_moves(start, 0))))
    assert {"knight, thief, monk", "farmer (lying)", "tile fits here"} <= words
    assert not words & {"pennant", "monastery", "last tile", "inn", "big follower"}
    later = scripted(["B", "C", "U"], ["place 0,1 r0", "place 0,-1 r0"])   # a monastery, a pennant
    words = key_words(parse(picture(later, SPECTATOR)))
    assert {"pennant", "monastery", "last tile"} <= words and "tile fits here" not in words
    played = play_random(GAME, 2, {"expansions": ["inns_cathedrals"]}, seed=4)
    words = key_words(parse(picture(played.state, SPECTATOR)))
    assert "big follower" in words and "inn" in words


def test_the_fairy_on_a_tile_is_drawn_on_it_and_its_tiles_marked():
    """fairy_placement = on_tile: the fairy's moves mark tiles, the fairy stands on its tile."""
    from tests.games.carcassonne_support import new_game, play
    state = new_game(["W", "PD2", "B", "E", "A"], expansions=["princess_dragon"], fairy_placement="on_tile")
    for text in ("place -1,0 r0 follower road E", "place 1,0 r0", "portal -1,0 farmer NL", "place 0,1 r0"):
        state, _ = play(state, text)
    root = parse(picture(state, 0, GAME.legal_moves(state, 0)))
    assert [(e.get("data-x"), e.get("data-y")) for e in elements(root, "legal")] == [("-1", "0")]
    state, _ = play(state, "fairy -1,0")
    root = parse(picture(state, 1))
    fairy = [e for e in elements(root, "figure") if e.get("data-figure") == "fairy"]
    assert [(e.get("data-x"), e.get("data-y"), e.get("data-on")) for e in fairy] == [("-1", "0", "tile")]
    panel = " ".join("".join(t.itertext()) for t in root.iter(SVG + "tspan"))
    assert "Fairy: on the tile at -1,0, moved by Ann" in panel


def panel_text(root) -> str:
    return " ".join("".join(t.itertext()) for t in root.iter(SVG + "tspan"))


def test_the_bazaar_panel_says_what_the_viewer_may_do_in_each_phase_and_in_the_draft():
    from tests.games.carcassonne_support import new_game, play
    state = new_game(["BB6", "U", "V", "B"], expansions=["bridges_castles_bazaars"])
    state, _ = play(state, "place 0,1 r0")
    host = panel_text(parse(picture(state, 1, GAME.legal_moves(state, 1))))
    assert "you host: pick a tile and bid" in host and "host" in host
    state, _ = play(state, "bazaar 1 bid 2", player=1)
    assert "bid more than the bid so far (bid B), or pass" in panel_text(parse(picture(state, 0, GAME.legal_moves(state, 0))))
    state, _ = play(state, "bid 3", player=0)
    assert "buy the tile at the highest bid or sell it" in panel_text(parse(picture(state, 1, GAME.legal_moves(state, 1))))
    draft = new_game(["BB6", "U", "V", "E", "B"], players=3, expansions=["bridges_castles_bazaars"], bazaar_mode="draft")
    draft, _ = play(draft, "place 0,1 r0")
    text = panel_text(parse(picture(draft, 1, GAME.legal_moves(draft, 1))))
    assert "choose a tile (bazaar N; the draft has no bids)" in text and "chooser" in text
    assert "bid B" not in text and "host" not in text


def test_the_castle_owner_choice_rings_the_features_and_says_so():
    from tests.games.carcassonne_support import new_game, play
    state = new_game(["E", "A", "A", "B", "E", "D", "B", "B"], expansions=["bridges_castles_bazaars", "count"],
                     castle_feature_choice="owner_choice")
    for text in ("place -2,2 r0 follower city N", "castle -2,2 city N", "place -3,0 r0",
                 "place -3,2 r180 follower road N", "place -4,2 r0", "place -4,1 r90", "place -3,1 r270"):
        state, _ = play(state, text)
    root = parse(picture(state, 0, GAME.legal_moves(state, 0)))
    rings = [(e.get("data-x"), e.get("data-y"), e.get("data-on")) for e in elements(root, "legal-segment")]
    assert sorted(rings) == [("-3", "1", "city W"), ("-3", "1", "road N")], rings
    assert "what your castle may score" in panel_text(root)


def test_a_figure_on_a_bridge_and_one_on_the_road_below_stand_apart():
    """A bridge over a road: neither road's figure stands at the crossing (where it
    would look as if on the bridge); each stands on an arm of its own road."""
    from pbem.games.carcassonne.orient import TILES
    from pbem.pictures.carcassonne.shapes import CENTRE, dist
    from pbem.pictures.carcassonne.tile_art import build

    tile = TILES["U~NS"]
    art = build(tile)
    roads = [k for k, s in enumerate(tile.segments) if s.kind == "road"]
    assert len(roads) == 2
    spots = [art.parts[k].anchor for k in roads]
    assert all(dist(p, CENTRE) > 0.25 for p in spots), spots
    assert dist(*spots) > 0.3, spots
    for k, p in zip(roads, spots):                    # each on its own road's line
        ports = tile.segments[k].ports
        across = 0 if all(d in (0, 2) for d in ports) else 1   # N-S: x stays 0.5; W-E: y does
        assert abs(p[across] - 0.5) < 0.02, (ports, p)



def test_the_dragons_panel_line_names_the_steps_the_viewer_may_take():
    """The panel says which steps the viewer may take now (here E or W: the dragon
    came from the north), not all four directions."""
    opts = GAME.check_options(2, {"draw_order": ["PD1", "W", "PD7", "E"], "start_player": 0,
                                  "expansions": ["princess_dragon"]})
    state = GAME.start(2, opts)
    state = GAME.apply(state, GAME.setup(state, random.Random(1)))
    for text in ("place 0,1 r0", "place 1,0 r0 follower road W", "place -1,0 r0", "dragon N"):
        player = next(iter(GAME.to_act(state)))
        state = GAME.apply(state, GAME.decide(state, player, GAME.parse(text, state, player), rng_for(b"s", 0)))
    assert GAME.to_act(state) == {1}
    legal = GAME.legal_moves(state, 1)
    assert sorted(m["direction"] for m in legal) == ["E", "W"]
    root = parse(picture(state, 1, legal))
    panel = " ".join("".join(t.itertext()) for t in root.iter(SVG + "tspan"))
    assert "Framed: where you may move the dragon (dragon E or dragon W)" in " ".join(panel.split()), panel
