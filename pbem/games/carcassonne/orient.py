"""Precomputed rotated tiles, placement fits and follower choices.

Everything that depends only on a tile type and a rotation is computed once
(``oriented``) and memoised, so the hot paths (enumerating legal moves,
placing a tile) are dictionary look-ups:

* ``Oriented.edges``: the four edge types in board orientation;
* ``Oriented.edge_seg[d]`` / ``half_seg[h]``: the segment at edge d (road or
  city) / at half-edge h (field), -1 if none;
* ``Oriented.labels``: each segment's canonical name as a player types it
  ("city N", "road E", "field NL", "cloister", "field I");
* ``Oriented.masks``: per segment, the bits of the ports it touches (edge d
  is bit d, half h is bit 4 + h), so "is this segment's feature free after
  joining?" is one AND against the cell's occupancy mask;
* ``fits(tile, constraint)``: the rotations (0..3) that match the edge
  constraint of an empty cell (4 characters, "." where no neighbour).
"""
from __future__ import annotations

from dataclasses import replace

from .geometry import EDGES, HALVES, rotate_edge, rotate_half
from .segments import TileType


class Oriented:
    __slots__ = ("tile", "letter", "rot", "edges", "kinds", "ports", "edge_seg", "half_seg",
                 "labels", "label_index", "masks", "cloister", "nseg", "_free")

    def __init__(self, tile: TileType, rot: int):
        self.tile = tile
        self.letter = tile.letter
        self.rot = rot
        self.edges = "".join(tile.edges[(d - rot) % 4] for d in range(4))
        self.nseg = len(tile.segments)
        kinds, ports, labels, masks = [], [], [], []
        edge_seg = [-1] * 4
        half_seg = [-1] * 8
        self.cloister = -1
        index: dict[str, int] = {}
        for k, seg in enumerate(tile.segments):
            kinds.append(seg.kind)
            if seg.kind == "field":
                p = tuple(sorted(rotate_half(h, rot) for h in seg.ports))
                for h in p:
                    half_seg[h] = k
                names = [HALVES[h] for h in p]
                mask = sum(1 << (4 + h) for h in p)
            elif seg.ports:
                p = tuple(sorted(rotate_edge(d, rot) for d in seg.ports))
                for d in p:
                    edge_seg[d] = k
                names = [EDGES[d] for d in p]
                mask = sum(1 << d for d in p)
            else:
                p = ()
                names = []
                mask = 0
            if seg.inner:
                names = [seg.inner] + names
            if seg.kind == "cloister":
                self.cloister = k
                label = "cloister"
            else:
                label = f"{seg.kind} {names[0]}" if names else seg.kind
            ports.append(p)
            labels.append(label)
            masks.append(mask)
            index[label] = k
            for n in names:
                index.setdefault(f"{seg.kind} {n}", k)
        self.kinds = tuple(kinds)
        self.ports = tuple(ports)
        self.labels = tuple(labels)
        self.masks = tuple(masks)
        self.edge_seg = tuple(edge_seg)
        self.half_seg = tuple(half_seg)
        self.label_index = index
        self._free: dict[int, tuple] = {}

    def free_labels(self, occupied_mask: int) -> tuple:
        """Labels of the segments whose feature holds no follower once the
        tile joins neighbours whose occupied ports are ``occupied_mask``."""
        out = self._free.get(occupied_mask)
        if out is None:
            out = tuple(self.labels[k] for k in range(self.nseg)
                        if self.kinds[k] in DEPLOYABLE and not self.masks[k] & occupied_mask)
            self._free[occupied_mask] = out
        return out


#: Segment kinds a follower may stand on in the base game.
DEPLOYABLE = {"road", "city", "cloister", "field"}

#: fn(letter) -> TileType or None: tile types made on demand (a tile with a bridge of
#: Bridges, Castles & Bazaars is ``letter~NS``), known to every process that meets the id.
FACTORIES: list = []


class _Tiles(dict):
    def __missing__(self, letter):
        for make in FACTORIES:
            tile = make(letter)
            if tile is not None:
                add_tiles({letter: tile})
                return dict.__getitem__(self, letter)
        raise KeyError(letter)


class _Oriented(dict):
    def __missing__(self, letter):
        TILES[letter]                    # made by a factory (or KeyError)
        return dict.__getitem__(self, letter)


_ORIENTED: dict[str, tuple] = _Oriented()
_FIT_TABLES: dict[str, dict] = {}    # letter -> ``fit_table`` of it
TILES: dict[str, TileType] = _Tiles()


def add_tiles(tiles: dict[str, TileType]) -> None:
    """Make tile types known to the engine (base tiles, expansion tiles)."""
    for letter, tile in tiles.items():
        known = dict.get(TILES, letter)
        if known is not None:
            # the same row read again (by another module or a test) is fine;
            # the same id with another geometry is not
            if replace(known, expansion=tile.expansion) != tile:
                raise ValueError(f"tile id {letter} defined twice")
            continue
        TILES[letter] = tile
        _ORIENTED[letter] = tuple(Oriented(tile, r) for r in range(4))


def oriented(letter: str, rot: int) -> Oriented:
    return _ORIENTED[letter][rot]


#: (tile letter, kind, mark) -> indices of its segments of that kind bearing that mark
_MARKED: dict = {}


def marked_segments(letter: str, kind: str, mark: str) -> tuple:
    """Indices of ``letter``'s segments of ``kind`` with ``mark`` (a princess's
    city, a tunnel mouth's road): made once a tile type, most tiles have none."""
    key = (letter, kind, mark)
    ks = _MARKED.get(key)
    if ks is None:
        ks = _MARKED[key] = tuple(k for k, seg in enumerate(_ORIENTED[letter][0].tile.segments)
                                  if seg.kind == kind and seg.mark(mark))
    return ks


def orientations(letter: str) -> tuple:
    return _ORIENTED[letter]


def fit_table(letter: str) -> dict:
    """constraint -> the rotations (ascending) of ``letter`` matching it, for every
    constraint some rotation matches (its edges, any of them "." for no neighbour):
    made once a tile type, so no constraint is ever worked out again."""
    table = _FIT_TABLES.get(letter)
    if table is None:
        lists: dict[str, list] = {}
        for o in _ORIENTED[letter]:
            e = o.edges
            for unknown in range(16):
                c = "".join("." if unknown >> d & 1 else e[d] for d in range(4))
                lists.setdefault(c, []).append(o.rot)
        table = _FIT_TABLES[letter] = {c: tuple(rots) for c, rots in lists.items()}
    return table


def fits(letter: str, constraint: str) -> tuple:
    """Rotations (quarter turns) of ``letter`` matching ``constraint``."""
    return fit_table(letter).get(constraint, ())
