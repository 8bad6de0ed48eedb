"""Cartoona component data: tiles (part, variant, sockets, colours, values)
and cards (kinds, counts, effects).

Everything the rules need to know about the physical components lives here,
so real component data can replace the house data without touching the rules.
Part counts come from the source rulebook (002_90856cdb7ee62c58.txt); variants,
sockets, colours, values and the card list are the digest's [HOUSE DATA] (§2).
"""
from __future__ import annotations

# ---------------------------------------------------------------- parts and sockets

PARTS = ("ears", "nose", "head", "body_front", "body_back", "front_feet", "back_feet", "tail", "single")

#: socket -> the two part kinds it joins
SOCKETS = {
    "EAR": ("head", "ears"),
    "NOSE": ("head", "nose"),
    "NECK": ("head", "body_front"),
    "FFEET": ("body_front", "front_feet"),
    "REAR": ("body_front", "body_back"),
    "BFEET": ("body_back", "back_feet"),
    "TAIL": ("body_back", "tail"),
}

#: colours: letter -> (name, value of a single-colour tile)
COLOURS = {"Y": ("yellow", 1), "B": ("blue", 2), "M": ("magenta", 3), "P": ("purple", 4)}
COLOUR_NAMES = {letter: name for letter, (name, _) in COLOURS.items()}
TWO_COLOUR_VALUE = 2
SINGLE_VALUE = 5
#: bonus for scoring several single-tile creatures at once (count -> extra points)
SINGLE_BONUS = {1: 0, 2: 5, 3: 12}

#: variant -> (part, sockets, colour split) ; colour split: {colour or "Y/B" pair: count}
VARIANTS = {
    "EARS": ("ears", ("EAR",), {"Y": 4, "B": 4, "M": 3, "P": 2, "Y/B": 1}),
    "NOSE": ("nose", ("NOSE",), {"Y": 3, "B": 2, "M": 2, "P": 1, "B/M": 1}),
    "HD-ENK": ("head", ("EAR", "NOSE", "NECK"), {"Y": 2, "B": 2, "M": 1, "M/P": 1}),
    "HD-EK": ("head", ("EAR", "NECK"), {"Y": 2, "B": 1, "M": 2, "P": 1}),
    "HD-NK": ("head", ("NOSE", "NECK"), {"Y": 1, "B": 1}),
    "HD-K": ("head", ("NECK",), {"Y": 1, "M": 1, "P": 1}),
    "HD-EN": ("head", ("EAR", "NOSE"), {"B": 1}),
    "HD-E": ("head", ("EAR",), {"P/Y": 1}),
    "BF-HFR": ("body_front", ("NECK", "FFEET", "REAR"), {"Y": 2, "B": 2, "M": 1, "P": 1}),
    "BF-HF": ("body_front", ("NECK", "FFEET"), {"Y": 1, "B": 1, "M": 1, "P": 1, "Y/B": 1}),
    "BF-HR": ("body_front", ("NECK", "REAR"), {"Y": 1, "B/M": 1}),
    "BF-H": ("body_front", ("NECK",), {"Y": 1, "B": 1, "M": 1, "P": 1}),
    "BB-FBT": ("body_back", ("REAR", "BFEET", "TAIL"), {"Y": 2, "B": 1, "M": 2, "M/P": 1}),
    "BB-FB": ("body_back", ("REAR", "BFEET"), {"B": 1, "P": 1}),
    "FFEET": ("front_feet", ("FFEET",), {"Y": 3, "B": 3, "M": 2, "P": 2, "Y/B": 1}),
    "BFEET": ("back_feet", ("BFEET",), {"Y": 3, "B": 2, "M": 1, "P": 1, "B/M": 1}),
    "TAIL": ("tail", ("TAIL",), {"Y": 2, "B": 2, "M": 1, "P/Y": 1}),
    "SINGLE": ("single", (), {"*": 3}),
}

#: source part counts (§1), checked against VARIANTS below
PART_COUNTS = {"ears": 14, "nose": 9, "head": 19, "body_front": 17, "body_back": 8,
               "front_feet": 11, "back_feet": 8, "tail": 6, "single": 3}


def _build_tiles():
    tiles = []
    for variant, (part, sockets, split) in VARIANTS.items():
        for colour_key, count in split.items():
            for _ in range(count):
                if part == "single":
                    colours, value = (), SINGLE_VALUE
                elif "/" in colour_key:
                    colours, value = tuple(colour_key.split("/")), TWO_COLOUR_VALUE
                else:
                    colours, value = (colour_key,), COLOURS[colour_key][1]
                tiles.append({"id": len(tiles), "variant": variant, "part": part,
                              "sockets": frozenset(sockets), "colours": colours, "value": value})
    return tiles


TILES = _build_tiles()
TILE_IDS = tuple(t["id"] for t in TILES)
SINGLE_IDS = tuple(t["id"] for t in TILES if t["part"] == "single")
NORMAL_IDS = tuple(t["id"] for t in TILES if t["part"] != "single")

# fast per-tile lookups
T_PART = tuple(t["part"] for t in TILES)
T_VARIANT = tuple(t["variant"] for t in TILES)
T_SOCKETS = tuple(t["sockets"] for t in TILES)
T_COLOURS = tuple(t["colours"] for t in TILES)
T_VALUE = tuple(t["value"] for t in TILES)

#: part -> ((socket, neighbouring part), ...) for every socket that part can have
PART_EDGES = {p: tuple((s, b if a == p else a) for s, (a, b) in SOCKETS.items() if p in (a, b)) for p in PARTS}


def _check_tiles():
    for part, count in PART_COUNTS.items():
        have = sum(1 for t in TILES if t["part"] == part)
        assert have == count, (part, have, count)
    for socket, (a, b) in SOCKETS.items():
        on_a = sum(1 for t in TILES if t["part"] == a and socket in t["sockets"])
        fillers = sum(1 for t in TILES if t["part"] == b)
        assert on_a == fillers, (socket, on_a, fillers)


_check_tiles()

# ---------------------------------------------------------------- cards

#: kind -> (count, value, when) ; when: "own" turn, "reaction", "any" time, "secret"
CARD_KINDS = (
    ("plus1", 6, 1, "own"), ("plus2", 6, 2, "own"), ("plus3", 5, 3, "own"), ("plus5", 3, 5, "own"),
    ("minus1", 5, -1, "own"), ("minus2", 5, -2, "own"), ("minus3", 4, -3, "own"), ("minus5", 2, -5, "own"),
    ("swap", 8, 0, "own"), ("steal", 8, 0, "own"), ("block", 8, 0, "reaction"),
    ("instant", 3, 0, "any"), ("special", 3, 0, "any"), ("cheat", 4, 0, "secret"),
)
POINT_KINDS = frozenset(k for k, _, v, _ in CARD_KINDS if v)
CARD_LABEL = {k: (f"{v:+d}" if v else k) for k, _, v, _ in CARD_KINDS}


def _build_cards():
    cards = []
    for kind, count, value, when in CARD_KINDS:
        for _ in range(count):
            cards.append({"id": len(cards), "kind": kind, "value": value, "when": when})
    return cards


CARDS = _build_cards()
C_KIND = tuple(c["kind"] for c in CARDS)
C_VALUE = tuple(c["value"] for c in CARDS)
assert len(CARDS) == 70

# ---------------------------------------------------------------- game constants

TARGET_SCORE = 50
START_TILES = 5
START_CARDS = 2
CHEAT_PENALTY = 25
#: team layouts "TxS": T teams of S players
TEAM_LAYOUTS = {"2x2": (2, 2), "3x2": (3, 2), "2x3": (2, 3), "2x4": (2, 4), "4x2": (4, 2)}
