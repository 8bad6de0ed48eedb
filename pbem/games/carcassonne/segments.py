"""Tiles as segments, and the table notation they are written in.

A tile is a tuple of :class:`Segment`. A road or city segment lists the
edges it touches (0..3, N E S W), a field segment the half-edges it covers
(0..7, NL..WR) or none at all for an inner field, a cloister touches no edge.
Attributes such as pennants (and, for the expansions, inns, cathedrals,
goods, princesses, siege symbols, tunnel mouths) are ``marks`` on a segment;
a field segment lists the city segments it borders in ``adj``.

Tiles are written in the notation of the rules digest (one row per tile):

    letter | count | N E S W | city segments | road segments | field segments | other

    D | 4 | C R F R | N | W–E | EL WR [adj N] / ER SL SR WL | start

so the expansion tables (``carcassonne-expansion-tiles.md``) can be pasted in
as they are: ``(P)``, ``(P×2)``, ``(cathedral)``, ``(inn)``, ``X>end``,
``X>tunnel``, inner fields ``I`` / ``II`` and multi-edge roads are read too.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .geometry import EDGE_INDEX, HALF_INDEX

KINDS = ("road", "city", "cloister", "field")


@dataclass(frozen=True)
class Segment:
    kind: str                 # road | city | cloister | field (expansions may add kinds)
    ports: tuple = ()         # edges (road, city) or half-edges (field) in tile orientation
    marks: tuple = ()         # ((name, count), ...): ("pennant", 1), ("inn", 1), ...
    adj: tuple = ()           # field: indices of the city segments it borders
    inner: str = ""           # name of a segment touching no edge: "I", "II" (inner fields)

    def mark(self, name: str) -> int:
        for key, count in self.marks:
            if key == name:
                return count
        return 0


@dataclass(frozen=True)
class TileType:
    letter: str               # A..X for the base game; expansion ids like "IC3"
    count: int
    edges: str                # 4 characters N E S W: C city, R road, F field
    segments: tuple
    tags: tuple = ()          # "start", "junction", and expansion icons (volcano, tower...)
    expansion: str = "base"

    @property
    def has_cloister(self) -> bool:
        return any(s.kind == "cloister" for s in self.segments)


_DASH = re.compile(r"\s*[–—-]\s*")
_PAREN = re.compile(r"\(([^)]*)\)")


def _marks(text: str) -> tuple:
    out: dict[str, int] = {}
    for group in _PAREN.findall(text):
        for item in group.split(","):
            item = item.strip()
            if not item:
                continue
            m = re.fullmatch(r"P(?:\s*[×x]\s*(\d+))?", item)
            if m:
                out["pennant"] = out.get("pennant", 0) + int(m.group(1) or 1)
            else:
                out[item] = out.get(item, 0) + 1
    return tuple(sorted(out.items()))


def _empty(text: str) -> bool:
    return text.strip() in ("", "-", "–", "—")


def parse_row(row: str, expansion: str = "base") -> TileType:
    """One table row in the digest's notation -> TileType."""
    cells = [c.strip() for c in row.split("|")]
    if len(cells) < 6:
        raise ValueError(f"bad tile row: {row!r}")
    while len(cells) < 7:
        cells.append("")
    letter, count, edges, cities, roads, fields, other = cells[:7]
    edges = edges.replace(" ", "")
    if len(edges) != 4:
        raise ValueError(f"tile {letter}: edges must be 4 letters, got {edges!r}")
    segments: list[Segment] = []
    city_index: dict[int, int] = {}  # edge -> index of its city segment
    if not _empty(cities):
        for part in cities.split(";"):
            marks = _marks(part)
            names = _PAREN.sub("", part).strip()
            ports = tuple(EDGE_INDEX[e.strip()] for e in names.split("+"))
            for e in ports:
                city_index[e] = len(segments)
            segments.append(Segment("city", ports, marks))
    if not _empty(roads):
        for part in roads.split(";"):
            marks = dict(_marks(part))
            names = _PAREN.sub("", part).strip()
            if names.endswith(">tunnel"):
                marks["tunnel"] = marks.get("tunnel", 0) + 1
            names = names.replace(">end", "").replace(">tunnel", "")
            ports = tuple(EDGE_INDEX[e] for e in _DASH.split(names.strip()) if e)
            segments.append(Segment("road", ports, tuple(sorted(marks.items()))))
    tags = tuple(t.strip() for t in re.split(r"[;,]", other) if t.strip())
    if "monastery" in tags or "shrine" in tags:
        marks = (("shrine", 1),) if "shrine" in tags else ()
        segments.append(Segment("cloister", (), marks))
    if not _empty(fields):
        if fields.strip() == "all 8 halves":
            segments.append(Segment("field", tuple(range(8))))
        else:
            for part in fields.split("/"):
                adj_match = re.search(r"\[adj ([^\]]*)\]", part)
                adj = ()
                if adj_match:
                    adj = tuple(sorted({city_index[EDGE_INDEX[e.strip()]]
                                        for e in adj_match.group(1).split(",")}))
                names = re.sub(r"\[[^\]]*\]", "", part).split()
                inner = ""
                halves = []
                for n in names:
                    if n in ("I", "II", "III", "IV"):
                        inner = n
                    else:
                        halves.append(HALF_INDEX[n])
                segments.append(Segment("field", tuple(halves), (), adj, inner))
    tile = TileType(letter, int(count), edges, tuple(segments), tags, expansion)
    check_tile(tile)
    return tile


def parse_table(text: str, expansion: str = "base") -> dict[str, TileType]:
    out = {}
    for line in text.strip().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            tile = parse_row(line, expansion)
            out[tile.letter] = tile
    return out


def check_tile(tile: TileType) -> None:
    """Consistency of a tile's segments with its edges (raises ValueError):
    each road/city edge has exactly one segment of its kind, each half of a
    road or field edge exactly one field segment, city halves none."""
    kinds = {"C": "city", "R": "road"}
    for d, t in enumerate(tile.edges):
        owners = [s for s in tile.segments if s.kind in ("road", "city") and d in s.ports]
        if t in kinds:
            if len(owners) != 1 or owners[0].kind != kinds[t]:
                raise ValueError(f"tile {tile.letter}: edge {d} ({t}) needs one {kinds[t]} segment")
        elif owners:
            raise ValueError(f"tile {tile.letter}: field edge {d} has a road/city segment")
        for h in (2 * d, 2 * d + 1):
            fields = [s for s in tile.segments if s.kind == "field" and h in s.ports]
            want = 0 if t == "C" else 1
            if t in "CRF" and len(fields) != want:
                raise ValueError(f"tile {tile.letter}: half {h} has {len(fields)} field segments")
