"""Board geometry: edges, field half-edges, rotation and neighbours.

Conventions (binding, from the rules digest): a cell is (x, y) and north is
y-1. Edges are numbered N=0, E=1, S=2, W=3; a rotation of r quarter-turns
clockwise moves edge d to (d + r) % 4. Each edge is split into two halves for
fields, named as seen from the tile centre looking out through the edge
(L = left half): NL NR EL ER SL SR WL WR = 0..7; rotation moves half h to
(h + 2r) % 8, and half h lies on edge h // 2.
"""
from __future__ import annotations

EDGES = ("N", "E", "S", "W")
HALVES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
EDGE_INDEX = {name: i for i, name in enumerate(EDGES)}
HALF_INDEX = {name: i for i, name in enumerate(HALVES)}
ROTATIONS = (0, 90, 180, 270)

#: (dx, dy) of the neighbour across edge d.
DELTA = ((0, -1), (1, 0), (0, 1), (-1, 0))
#: The 8 cells around a cell (for cloisters).
RING = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def opposite_edge(d: int) -> int:
    return (d + 2) % 4


def opposite_half(h: int) -> int:
    """The half-edge of the neighbouring tile that half ``h`` touches
    (NL meets SR, NR meets SL, EL meets WR, ER meets WL, ...)."""
    return ((h ^ 1) + 4) % 8


def rotate_edge(d: int, quarter_turns: int) -> int:
    return (d + quarter_turns) % 4


def rotate_half(h: int, quarter_turns: int) -> int:
    return (h + 2 * quarter_turns) % 8


def neighbour(cell: tuple, d: int) -> tuple:
    dx, dy = DELTA[d]
    return (cell[0] + dx, cell[1] + dy)
