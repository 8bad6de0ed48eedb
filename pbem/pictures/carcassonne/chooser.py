"""The drawn tile, enlarged, for choosing where a figure goes: the same art
as the board and the panel (``terrain.tile_body``), with a spot on each
segment where a figure would stand, named as the notation names it
(``data-on="city N"``), and one on each corner, where a barn would stand
(``data-on="corner NE"``). The game page shows one per rotation; its script
enables the spots the seat's legal moves allow and lays the chosen
rotation on the board's cell as a preview. No ids: several of these may sit
in one HTML page beside the board's own SVG without clashing.

``choosers(view, moves)`` makes the ones a placement decision needs: the drawn
tile in each rotation that fits, and, where a move builds a bridge on the new
tile (Bridges, Castles & Bazaars), the bridged tile in that rotation
(``data-bridge="NS"``, the board's axis), whose bridge is one more road spot.
"""
from __future__ import annotations

from ...games.carcassonne.notation import segment
from ...games.carcassonne.orient import TILES, oriented
from ...games.i18n import N_, _
from .. import markup as m
from .terrain import tile_body
from .tile_art import art_of

SIZE = 180
SPOT = 15
#: A spot's colour by the kind of its segment, so a city's spot reads apart from a field's.
KIND_INK = {"city": "#9c4a12", "road": "#3d3d3d", "field": "#2e6b1f", "cloister": "#8e2424"}
#: What a follower is called on each kind (the picture's key says the same).
ROLE = {"city": N_("knight"), "road": N_("thief"), "field": N_("farmer"), "cloister": N_("monk")}
#: The tile's corners, where a barn stands (Abbey & Mayor: ``"on": "corner NE"``), in unit coordinates.
CORNERS = {"NE": (0.9, 0.1), "SE": (0.9, 0.9), "SW": (0.1, 0.9), "NW": (0.1, 0.1)}


def choosers(view: dict, moves: list) -> list:
    """The enlarged tiles the page's chooser shows for these place_tile moves."""
    letter = view.get("tile")
    places = [mv for mv in moves if isinstance(mv, dict) and mv.get("type") == "place_tile"]
    if not letter or not places:
        return []
    out = [tile_chooser(letter, r) for r in sorted({mv["rotation"] for mv in places})]
    bridges = sorted({(mv["rotation"], mv["bridge"][2]) for mv in places
                      if isinstance(mv.get("bridge"), list) and mv["bridge"][:2] == [mv["x"], mv["y"]]})
    if bridges:
        from ...games.carcassonne.expansions.bridges_castles_bazaars.bridges import bridged
        for rotation, axis in bridges:
            name = bridged(letter, axis, rotation // 90)
            if name:
                out.append(tile_chooser(name, rotation, bridge=axis))
    return out


def tile_chooser(letter: str, rotation: int, size: int = SIZE, bridge: str | None = None) -> str:
    """The tile ``letter`` turned by ``rotation`` degrees, ``size`` px square, with its segments' spots."""
    if letter not in TILES:
        return ""
    r = (rotation // 90) % 4
    art = art_of(letter)
    o = oriented(letter, r)
    spots = []
    for k, label in enumerate(o.labels):
        ux, uy = art.anchor(k, r)
        cx, cy = ux * size, uy * size
        short = "C" if label == "cloister" else label.split(" ")[-1]
        kind = label.split(" ")[0]
        ink = KIND_INK.get(kind, "#1f4fbf")
        spots.append(f'<g class="spot" data-on="{m.esc(label)}" data-kind="{m.esc(kind)}">'
                     + f"<title>{m.esc(_('{figure} on {on}', figure=_(ROLE[kind]) if kind in ROLE else kind, on=segment(label)))}</title>"
                     + m.circle(cx, cy, SPOT, fill="#ffffff", fill_opacity="0.85", stroke=ink, stroke_width=2.5)
                     + m.text(cx, cy + 4.5, short, size=12, anchor="middle", weight="bold", fill=ink)
                     + "</g>")
    for corner, (ux, uy) in CORNERS.items():  # offered only where a legal move names them
        cx, cy = ux * size, uy * size
        spots.append(f'<g class="spot corner" data-on="corner {corner}">'
                     + m.circle(cx, cy, SPOT - 3, fill="#ffffff", fill_opacity="0.8", stroke="#1f4fbf",
                                stroke_width=2, stroke_dasharray="3 2")
                     + m.text(cx, cy + 3.5, corner, size=9, anchor="middle", weight="bold", fill="#1f4fbf")
                     + "</g>")
    bridged = f' data-bridge="{m.esc(bridge)}"' if bridge else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="tile-choice" data-tile="{m.esc(letter)}" '
            f'data-rotation="{r * 90}"{bridged} width="{size}" height="{size}" viewBox="0 0 {size} {size}" '
            f'font-family="{m.FONT}">'
            f'<g class="art">{tile_body(art, size, r)}</g>'
            + m.rect(0.5, 0.5, size - 1, size - 1, fill="none", stroke="#333", stroke_width=1)
            + f'<g class="spots">{"".join(spots)}</g></svg>')
