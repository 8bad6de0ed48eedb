"""Cartoona's tiles drawn as body parts (issue 28, ``cartoona_art``): the
shapes of neighbouring parts meet where their socket is, so the tiles of a
creature join into one animal, and a side without a socket stays closed;
every tile is drawn in its set's colour; the picture rasterises."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from pbem import games, pictures
from pbem.games.base import SPECTATOR
from pbem.games.cartoona.data import PART_EDGES, T_COLOURS, T_PART, T_SOCKETS, TILES
from pbem.games.playout import play_random
from pbem.pictures import cartoona_art as art

S = 100.0
#: on which side of a part each socket lies (the creature faces left)
SIDE = {("head", "EAR"): "top", ("head", "NOSE"): "left", ("head", "NECK"): "right",
        ("ears", "EAR"): "bottom", ("nose", "NOSE"): "right",
        ("body_front", "NECK"): "left", ("body_front", "FFEET"): "bottom", ("body_front", "REAR"): "right",
        ("front_feet", "FFEET"): "top", ("body_back", "REAR"): "left", ("body_back", "BFEET"): "bottom",
        ("body_back", "TAIL"): "right", ("back_feet", "BFEET"): "top", ("tail", "TAIL"): "left"}
OPPOSITE = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}


def endpoints(d: str) -> list:
    """The end points of a path's segments (not the curves' control points)."""
    out = []
    for cmd, args in re.findall(r"([MLQCAZ])([^MLQCAZ]*)", d):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", args)]
        step = {"M": 2, "L": 2, "Q": 4, "C": 6, "A": 7}.get(cmd)
        for i in range(0, len(nums), step or 1) if step else ():
            chunk = nums[i:i + step]
            out.append((chunk[-2], chunk[-1]))
    return out


def points(t: int) -> list:
    """The end points of tile t's shapes, drawn in a cell of side 100 at the origin."""
    shapes, _details = art.shapes_of(t, 0, 0, S)
    return [pt for d in shapes for pt in endpoints(d)]


def on_side(pts, side) -> list:
    """The points on a side of the cell, as positions along that side."""
    if side == "left":
        return [y for x, y in pts if abs(x) < 0.01]
    if side == "right":
        return [y for x, y in pts if abs(x - S) < 0.01]
    if side == "top":
        return [x for x, y in pts if abs(y) < 0.01]
    return [x for x, y in pts if abs(y - S) < 0.01]


def span(values) -> tuple:
    return (min(values), max(values)) if values else None


@pytest.mark.parametrize("socket", sorted({s for (_p, s) in SIDE}))
def test_parts_meet_at_their_sockets(socket):
    """For each socket, every tile with it reaches that side of its cell, and
    what reaches it overlaps what its neighbour part brings to the facing side."""
    a_part, b_part = next((p, other) for p in PART_EDGES for s, other in PART_EDGES[p] if s == socket)
    tiles_a = [t["id"] for t in TILES if t["part"] == a_part and socket in t["sockets"]]
    tiles_b = [t["id"] for t in TILES if t["part"] == b_part and socket in t["sockets"]]
    assert tiles_a and tiles_b
    side = SIDE[(a_part, socket)]
    for a in tiles_a:
        mine = on_side(points(a), side)
        assert mine, f"t{a} ({a_part}) does not reach its {side} side for {socket}"
        for b in tiles_b:
            theirs = on_side(points(b), OPPOSITE[side])
            assert theirs, f"t{b} ({b_part}) does not reach its {OPPOSITE[side]} side for {socket}"
            lo = max(min(mine), min(theirs))
            hi = min(max(mine), max(theirs))
            assert hi - lo > 10, f"t{a} and t{b} do not meet at {socket}: {span(mine)} vs {span(theirs)}"


def test_a_side_without_a_socket_is_closed():
    """A part's drawing leaves its cell's sides that have no socket."""
    checked = 0
    for t in range(len(TILES)):
        part = T_PART[t]
        if part == "single":
            continue
        for socket, _other in PART_EDGES[part]:
            side = SIDE[(part, socket)]
            if socket not in T_SOCKETS[t] and side in ("left", "right"):
                assert not on_side(points(t), side), f"t{t} ({part}) reaches its {side} side without {socket}"
                checked += 1
    assert checked > 10


def test_each_tile_is_filled_in_its_colours():
    for t in range(len(TILES)):
        fill = art.fill_of(t)
        colours = T_COLOURS[t]
        if len(colours) == 1:
            assert fill == art.FILLS[colours[0]]
        elif len(colours) == 2:
            assert fill == f"url(#{art.gradient_id(colours)})"
            assert f'id="{art.gradient_id(colours)}"' in art.defs()
        else:
            assert fill == art.SINGLE


def test_a_creature_is_one_animal_in_the_picture_and_rasterises():
    game = games.get("cartoona")
    state = play_random(game, 3, {"use_single_creatures": True}, seed=2).state
    view = game.view(state, SPECTATOR)
    svg = pictures.svg("cartoona", view, names=["Ann", "Bob", "Cy"])
    root = ET.fromstring(svg)
    fills = [e.get("fill") for e in root.iter("{http://www.w3.org/2000/svg}path")]
    shown = [t for c in view["creatures"] for t in c["tiles"].values()]
    assert shown
    # each tile on the table: an outline and a fill of its colour
    assert fills.count(art.OUTLINE) >= len(shown)
    for t in shown:
        assert art.fill_of(t) in fills
    png = pictures.png(svg)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
