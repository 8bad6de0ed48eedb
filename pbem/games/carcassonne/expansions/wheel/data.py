"""The Wheel of Fortune's house data: everything the published sources we could
read do not give (``carcassonne-wof-catapult-notes.md`` §2), in ONE table,
``HOUSE``. Each entry is a house reading, marked [HOUSE] in the rules notes
(``carcassonne.md`` §3.9); replacing an entry with the published value is a
change of this table alone.

* ``board``: the Wheel start board, 4x4 tiles (``WB1``-``WB16``, row by row from
  the north-west, all at rotation 0). Its 16 outer sides carry 4 cities, 4
  roads and 8 fields; ``·`` is a side facing another Wheel tile. The four middle
  tiles are the wheel itself (no land). Around it one ring of fields, cut in two
  by the roads ending at the wheel on WB3 (north) and WB14 (south): each half
  borders two of the Wheel's cities. The north side reads C F R F from the west,
  the south side of the City of Carcassonne, so with the Count the Wheel lies
  right below the City (x = -2..1, y = 2..5), edges matching.
* ``sectors``: the six sectors clockwise in the order every source lists them,
  with their crown spaces (9 in all; Fortune none, the one sector that Wikipedia's
  "5 sections with 9 crown spaces" leaves out).
* ``crown_points``: what a follower on the landed sector's crown space scores
  before it goes home (the one published row: 3 for a single crown; the same
  for two).
* ``icon_rule``/``icon_numbers``: which tiles show the wheel, with which number.
* ``events``: the formula of each sector's event, the best-supported reading of
  the notes (§2.4), with their values.
* ``full_set``: the box's own 72 land tiles (option ``wheel_tiles`` = ``full_set``):
  the sources give its make-up (63 base designs, 6 Inns & Cathedrals, 1 Traders &
  Builders, 2 King & Scout tiles) but not which tiles; ``left_out`` are the 8 base
  copies the 63 lack, ``added`` the 9 others, plain tiles whose segments need no rule
  of their own expansion (no inn, cathedral, goods or castle mark).
"""
from __future__ import annotations

EXPANSION = "wheel_of_fortune"

HOUSE = {
    "board": """
WB1 | 1 | C · · F | N | – | EL ER SL SR WL WR [adj N] | wheel
WB2 | 1 | F · · · | – | – | NL NR EL ER WL WR | wheel
WB3 | 1 | R · · · | – | N>end | NL WL WR / NR EL ER | wheel
WB4 | 1 | F R · · | – | E>end | all 8 halves | wheel
WB5 | 1 | · · · F | – | – | NL NR SL SR WL WR | wheel
WB6 | 1 | · · · · | – | – | – | wheel, hub
WB7 | 1 | · · · · | – | – | – | wheel, hub
WB8 | 1 | · C · · | E | – | NL NR SL SR [adj E] | wheel
WB9 | 1 | · · · C | W | – | NL NR SL SR [adj W] | wheel
WB10 | 1 | · · · · | – | – | – | wheel, hub
WB11 | 1 | · · · · | – | – | – | wheel, hub
WB12 | 1 | · F · · | – | – | NL NR EL ER SL SR | wheel
WB13 | 1 | · · F R | – | W>end | all 8 halves | wheel
WB14 | 1 | · · R · | – | S>end | SL EL ER / SR WL WR | wheel
WB15 | 1 | · · C · | S | – | EL ER WL WR [adj S] | wheel
WB16 | 1 | · F F · | – | – | all 8 halves | wheel
""",
    # (sector, crown spaces), clockwise from where the pig starts
    "sectors": (("fortune", 0), ("tax", 2), ("famine", 2), ("storm", 2), ("inquisition", 2), ("plague", 1)),
    "start": "fortune",
    "crown_points": 3,
    "icon_rule": "one copy of each base design the set holds at least twice (19 designs: A B D E F H I J K L M "
                 "N O P R S U V W), numbered 1, 2, 3, 1, 2, 3... in letter order",
    "events": {
        # Fortune: the active seat scores 3 (lomion.de, Wikicarpedia: high confidence)
        "fortune": {"active": 3},
        # Tax: every knight scores 1 per pennant of its city + 1 per knight of its owner there
        # (lomion.de read literally; knights stay)
        "tax": {"per_pennant": 1, "per_own_knight": 1},
        # Famine: in each field, each farmer of a majority seat scores 1 per completed city it
        # borders, a castle 2, +1 per city for the seat's pig there (CAR #290, #291)
        "famine": {"per_city": 1, "per_castle": 2, "pig_per_city": 1},
        # Storm: 1 per follower in supply (wikia; reich-der-spiele)
        "storm": {"per_follower": 1},
        # Inquisition: 2 per monk (reich-der-spiele; shrines' heretics are no monks)
        "inquisition": {"per_monk": 2},
        # Plague: every seat sends one of its followers on a land tile home, 0 points; the
        # deadline default is the follower on the latest placed tile (digest §5)
        "plague": {},
    },
    "full_set": {
        # one copy less of each of the 8 designs the base pile holds most copies of (the most
        # first, letter order on ties): the base pile's 71 become the box's 63
        "left_out": ("V", "U", "E", "B", "W", "D", "H", "J"),
        # the first tiles of each set (in label order) with no mark of their expansion's rules:
        # 6 of Inns & Cathedrals (IC1 has a cathedral, IC7 a no-castle mark), 1 of Traders &
        # Builders (TB1-TB15 carry goods), 2 of King & Scout (filed as KR1-KR5)
        "added": ("IC2", "IC3", "IC4", "IC5", "IC6", "IC8", "TB16", "KR1", "KR2"),
    },
}

SECTORS = tuple(name for name, _n in HOUSE["sectors"])
CROWNS = dict(HOUSE["sectors"])
#: the base designs with a wheel copy, and its number
ICON_LETTERS = tuple("ABDEFHIJKLMNOPRSUVW")
ICON_NUMBERS = {f"WF{letter}": 1 + i % 3 for i, letter in enumerate(ICON_LETTERS)}
#: the figures that are followers for Plague, Tax and the others (not builders, pigs, barns)
FOLLOWERS = ("follower", "big", "mayor", "wagon")
KNIGHTS = ("follower", "big")
