"""Text notation: what a player types in an email, and event sentences.

The help (``help_for``) is the base game's lines, then each expansion's in
play, then the conventions. Base game::

    place X,Y rR                      place the drawn tile, no follower
    place X,Y rR follower city N      ... and a knight on the city at edge N
    ...

An expansion brings its own lines: ``title``, ``help`` (lines like the
above) and ``examples`` (moves written as they are typed, each parsing in
any position) on its :class:`Expansion` object, or, for the ones written
before that, in ``EXPANSION_TEXT`` here; the four later ones (The Princess
& the Dragon, The Tower, The Count, Bridges, Castles & Bazaars) write their
lines in their text module's docstring and their examples in
``LATER_TEXT``. Every help line is at most 80 columns. A move naming a seat
("ransom seat 1") takes the player's name too ("ransom seat Ann",
``seats_by_name``), and the moves offered are written with it
(``name_seats(..., in_move=True)``).
"""
from __future__ import annotations

import re

from ..base import ParseError, name_seat, name_seats, seat_names  # noqa: F401  (name_seats: the texts' import)
from .geometry import EDGE_INDEX, HALF_INDEX
from .orient import oriented
from .expansions.traders_builders_tiles import GOODS

BASE_HELP = """\
  place X,Y rR                      place the drawn tile, no follower
  place X,Y rR follower city N      ... and a knight on the city at edge N
  place X,Y rR follower road E      ... a thief on the road at edge E
  place X,Y rR follower cloister    ... a monk on the cloister
  place X,Y rR farmer NL            ... a farmer on the field at half-edge NL"""
BASE_EXAMPLES = ("place 1,0 r90", "place 1,0 r90 follower city N", "place 0,1 r0 farmer NL")
CONVENTIONS = """\
e.g. place 1,0 r90, place 1,0 r90 follower city N, place 0,1 r0 farmer NL
Coordinates: north is y-1; R is the clockwise rotation 0, 90, 180 or 270.
Edges N E S W and half-edges NL NR EL ER SL SR WL WR name the segment as it
lies on the board after rotation; any edge of a segment names it (a city on
N and W is "city N" or "city W"). Synonyms: knight = follower city,
thief = follower road, monk = follower cloister (also "monastery"),
farmer = follower field. Case and extra spaces do not matter."""

#: name -> (title, help lines, examples) of the expansions that do not say
#: them on their Expansion object.
EXPANSION_TEXT = {
    "inns_cathedrals": ("Inns & Cathedrals", """\
  place X,Y rR big city N           Inns & Cathedrals: the big follower instead
                                    (big road E, big cloister, big farmer NL)""",
                        ("place 1,0 r0 big city N",)),
    "traders_builders": ("Traders & Builders", """\
  place X,Y rR builder road E       Traders & Builders: the builder instead,
                                    on a road or city with your follower
                                    (builder city N)
  place X,Y rR pig NL               ... the pig, in a field with your farmer""",
                         ("place 1,0 r0 builder road E", "place 1,0 r0 pig NL")),
    "king_robber": ("King & Robber", "", ()),
    "cult": ("Cult", """\
  place X,Y rR heretic              Cult: a follower on the shrine
                                    (also follower shrine)""",
             ("place 0,1 r0 heretic",)),
    "siege": ("Siege", """\
  escape X,Y city E                 Siege, when offered: your knight on that
                                    city segment leaves the besieged city
  no escape                         ... or not (also: escape pass)""",
              ("escape 1,0 city E", "no escape")),
    "abbey_mayor": ("Abbey & Mayor", """\
  place X,Y rR mayor city N         Abbey & Mayor: the mayor on a city
  place X,Y rR wagon road E         ... the wagon on a road, city or cloister
  place X,Y rR barn NE              ... the barn on a corner of the tile
                                    (NE SE SW NW)
  abbey X,Y [monk | big | wagon]    ... when offered: the abbey instead of
                                    drawing
  draw                              ... or draw (also: no abbey)
  wagon X,Y road E | wagon home     ... when offered: move the scored wagon
                                    or take it back""",
                    ("place 1,0 r0 mayor city N", "place 1,0 r0 barn NE", "abbey 2,1", "draw",
                     "wagon home")),
}


#: name -> (title, examples) of the expansions whose help lines are their
#: text module's docstring (``expansions/<name>/text.py``, the lines indented
#: 4). Each example parses in any position of a game with the expansion (the
#: bazaar's moves only while it is held: they are in the help, not here).
LATER_TEXT = {
    "princess_dragon": ("The Princess & the Dragon", ("dragon N", "fairy 1,0 road E", "princess 1,0 city N seat 1",
                                                      "portal 1,0 follower road E")),
    "tower": ("The Tower", ("tower 1,0", "tower 1,0 top", "capture 1,0 road E seat 1", "capture none",
                            "exchange follower", "ransom seat 1")),
    "count": ("The Count of Carcassonne", ("enter castle count market", "leave castle 1,0 city N", "stay out")),
    "bridges_castles_bazaars": ("Bridges, Castles & Bazaars", ("place 1,0 r0 bridge 1,0 NS", "castle 1,0 city N",
                                                               "no castle")),
}
#: the expansions whose moves name a seat ("ransom seat 1")
SEAT_MOVES = ("princess_dragon", "tower")
#: a help line for the optional decisions the later expansions ask for
PASS_LINE = "  pass                              decline whatever optional decision you owe"
SEAT_LINE = ("  (seat P: the seat's number or its player's name as the board shows it,\n"
             "  e.g. seat 1 or seat Ann)")


#: the figures of other expansions a later expansion's move may name, and
#: the expansion that brings each
FIGURE_EXPANSIONS = {"big": "inns_cathedrals", "mayor": "abbey_mayor", "wagon": "abbey_mayor"}


def _docstring_lines(name: str, expansions=None) -> str:
    """The help lines of a later expansion: its text module's docstring
    lines indented 4, indented 2 here like the others. With ``expansions``
    (those in play), a line whose move names a figure not in play ("exchange
    big" without Inns & Cathedrals) is left out with its continuation."""
    import importlib
    try:
        module = importlib.import_module(f"{__package__}.expansions.{name}.text")
    except ImportError:
        return ""
    lines = ["  " + line[4:] for line in (module.__doc__ or "").splitlines() if line.startswith("    ")]
    if expansions is None:
        return "\n".join(lines)
    missing = {figure for figure, by in FIGURE_EXPANSIONS.items() if by not in expansions}
    out, keep = [], True
    for line in lines:
        if line[2:3] != " ":            # a move (a line going on is indented further)
            keep = not missing & set(line[2:36].split())
        if keep:
            out.append(line)
    return "\n".join(out)


def expansion_text(name: str, expansions=None) -> tuple:
    """(title, help lines, examples) of an expansion (with ``expansions``,
    those in play: only the lines of the figures in play)."""
    from .rules import EXPANSIONS
    ext = EXPANSIONS.get(name)
    if name in LATER_TEXT:
        title, examples = LATER_TEXT[name]
        lines = _docstring_lines(name, expansions)
        if lines:
            lines = f"  {title}:\n" + lines
    else:
        title, lines, examples = EXPANSION_TEXT.get(name, (name.replace("_", " ").title(), "", ()))
    return (getattr(ext, "title", "") or title, getattr(ext, "help", "") or lines,
            tuple(getattr(ext, "examples", ()) or examples))


def help_for(expansions) -> str:
    """The notation with only the rules of these expansions in play."""
    parts = ["Carcassonne moves (one per line):", BASE_HELP]
    examples = list(BASE_EXAMPLES)
    for name in expansions:
        _, lines, more = expansion_text(name, expansions)
        if lines:
            parts.append(lines)
        examples += more
    if any(name in LATER_TEXT for name in expansions):
        parts.append(PASS_LINE)
    if any(name in SEAT_MOVES for name in expansions):
        parts.append(SEAT_LINE)
    parts.append(CONVENTIONS)
    extra = examples[len(BASE_EXAMPLES):]
    if extra:                  # at most 80 columns, cut between examples (each stays whole)
        line = "More examples:"
        for i, example in enumerate(extra):
            item = f" {example}" + ("," if i < len(extra) - 1 else ".")
            if len(line) + len(item) > 80:
                parts.append(line)
                line = " "
            line += item
        parts.append(line)
    return "\n".join(parts)


def examples_for(expansions) -> list:
    out = list(BASE_EXAMPLES)
    for name in expansions:
        out += expansion_text(name)[2]
    return out



def describe_setup(options: dict, players: int | None = None) -> str:
    """"Carcassonne with Inns & Cathedrals; 2 players; ..." in words."""
    titles = [expansion_text(name)[0] for name in options.get("expansions", ())]
    head = "Carcassonne" + (" with " + (" and ".join(titles) if len(titles) < 3 else
                                        ", ".join(titles[:-1]) + " and " + titles[-1]) if titles else "")
    parts = [head]
    if players is not None:
        parts.append(f"{players} players")
    parts.append("farmers score 3 per completed city their field borders")
    parts.append(f"a completed 2-tile city scores {options.get('tiny_city_scoring', 4)}")
    parts.append("a tile that fits nowhere is " + ("removed" if options.get("unplaceable_tile", "remove")
                                                   == "remove" else "put back and another drawn"))
    if options.get("draw_order"):
        parts.append(f"a fixed draw pile of {len(options['draw_order'])} tiles")
    if options.get("start_player", -1) >= 0:
        parts.append(f"seat {options['start_player']} starts")
    expansions = options.get("expansions", ())
    if "cult" in expansions:
        parts.append(f"{options.get('cult_set', 6)} shrine tiles")
    if "siege" in expansions:
        parts.append("an escape needs a monastery or shrine next to "
                     + ("any tile of the besieged city" if options.get("siege_escape_adjacency",
                                                                        "any_city_tile") == "any_city_tile"
                        else "a siege tile"))
    if "abbey_mayor" in expansions:
        parts.append("the wagon moves " + ("along a road end" if options.get("wagon_move", "along_road")
                                           == "along_road" else "to a feature on its tile or next to it"))
        if options.get("barn_placement") == "no_farmers":
            parts.append("a barn only in a field without farmers")
        if not options.get("abbey_after_last_tile", True):
            parts.append("no abbeys after the last tile")
    if "princess_dragon" in expansions:
        if options.get("dragon_move_timing", "before_scoring") == "after_scoring":
            parts.append("the dragon flies after the scoring")
        if options.get("fairy_placement", "next_to_follower") == "on_tile":
            parts.append("the fairy goes onto a tile and counts for every follower there")
    return "; ".join(parts) + "."



def seats_by_name(text: str, names) -> str:
    """A typed move with "seat Ann" read back as "seat 0" (a move that names
    a seat takes its player's name as well as its number). Names as the
    texts show them (``seat_names``: never one like a number), without case,
    any spaces between a name's words; the longest name first."""
    if not names or not isinstance(text, str):
        return text
    known = {" ".join(name.split()).casefold(): seat for seat, name in enumerate(seat_names(len(names), names))
             if not name.startswith("seat ")}
    if not known:
        return text
    alternatives = (r"\s+".join(re.escape(word) for word in name.split())
                    for name in sorted(known, key=len, reverse=True))
    pattern = re.compile(r"\bseat\s+(" + "|".join(alternatives) + r")(?=\s|$)", re.IGNORECASE)

    def number(m):
        seat = known.get(" ".join(m.group(1).split()).casefold())
        return m.group(0) if seat is None else f"seat {seat}"
    return pattern.sub(number, text)


_PLACE = re.compile(
    r"^\s*(?:place|play|put|tile)?\s*\(?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\)?\s*"
    r"(?:(?:r|rot|rotation)\s*(\d+)|(\d+)(?=\s|$))?\s*(.*?)\s*$", re.IGNORECASE)

_ROLE = {"knight": "city", "thief": "road", "robber": "road", "highwayman": "road",
         "monk": "cloister", "heretic": "cloister", "farmer": "field"}
_FIGURE_WORDS = {"follower", "meeple", *_ROLE}
_KINDS = {"city": "city", "road": "road", "field": "field", "farm": "field",
          "cloister": "cloister", "monastery": "cloister", "abbey": "cloister",
          "shrine": "cloister"}
_INNER = {"I", "II", "III", "IV"}
#: how events name the expansions' figures
_FIGURE_NAMES = {"big": "big follower"}


def figure_name(figure: str) -> str:
    """A figure as the texts name it ("big" -> "big follower")."""
    return _FIGURE_NAMES.get(figure, figure)


#: expansions' event sentences: event type -> fn(event) -> str
EVENT_TEXTS: dict = {}
#: expansions' own moves (not place_tile) in notation: move type -> fn(move) -> str
MOVE_TEXTS: dict = {}
#: what a seat owing an expansion's decision may do, for the text board's "Waiting for"
#: line: decision -> fn(state, player) -> phrase ("may bid or pass")
OWED_TEXTS: dict = {}
#: expansion figures written without "farmer" on a field ("pig NL")
_FIELD_FIGURES = {"pig"}


def describe_move(move: dict) -> str:
    rot = move.get("rotation")
    text = f"place {move.get('x')},{move.get('y')} r{rot}"
    figure = move.get("figure")
    if figure:
        on = str(move.get("on", ""))
        if figure == "follower" and on.startswith("field "):
            text += " farmer " + on[6:]
        elif on.startswith("field ") and figure in _FIELD_FIGURES:
            text += f" {figure} {on[6:]}"
        elif on.startswith("field "):
            text += f" {figure} farmer {on[6:]}"
        else:
            text += f" {figure} {on}"
    return text


def _examples(game, state, player) -> list:
    moves = game.legal_moves(state, player)
    picks = []
    seen = set()
    for m in moves:
        key = (m.get("figure") is None, m.get("on", "").split(" ")[0])
        if key not in seen:
            seen.add(key)
            picks.append(game.describe(m, player))
        if len(picks) >= 4:
            break
    return picks or ["place 1,0 r0", "place 1,0 r90 follower city N", "place 0,1 r0 farmer NL"]


def _goods_order(good: str) -> tuple:
    return (GOODS.index(good), "") if good in GOODS else (len(GOODS), good)


def parse_move(game, text: str, state, player) -> dict:
    if isinstance(text, str) and getattr(state, "rules", None) is not None:
        for parser in state.rules.parsers:
            move = parser(game, text, state, player)
            if move is not None:
                return move
    if not isinstance(text, str):
        raise ParseError("parse_error", "a move is a line of text",
                         expected="place X,Y rR [follower KIND EDGE | farmer HALF]",
                         examples=_examples(game, state, player))
    m = _PLACE.match(text.replace("\u2212", "-"))
    if not m:
        raise ParseError("unknown_command", f"could not read {text.strip()[:60]!r}",
                         expected="place X,Y rR [follower KIND EDGE | farmer HALF]",
                         examples=_examples(game, state, player))
    x, y = int(m.group(1)), int(m.group(2))
    rot_text = m.group(3) or m.group(4)
    rest = m.group(5).split()
    letter = state.tile if state is not None else None
    if rot_text is None:
        rots = ()
        if letter and (x, y) in state.frontier:
            from .orient import fits
            rots = fits(letter, state.frontier[(x, y)])
        if len(rots) != 1:
            raise ParseError("missing_rotation", "say how the tile is turned: r0, r90, r180 or r270",
                             expected="r0 | r90 | r180 | r270", examples=_examples(game, state, player))
        rotation = rots[0] * 90
    else:
        rotation = int(rot_text)
        if rotation not in (0, 90, 180, 270):
            raise ParseError("bad_rotation", "the rotation is 0, 90, 180 or 270 (clockwise)",
                             expected="r0 | r90 | r180 | r270", examples=_examples(game, state, player))
    move = {"type": "place_tile", "x": x, "y": y, "rotation": rotation}
    if not rest:
        return move
    words = [w.lower() for w in rest]
    figure = "follower"
    figure_words = state.rules.figure_words if getattr(state, "rules", None) is not None else {}
    if words[0] in figure_words:         # an expansion figure: "big city N", "big farmer NL"
        figure = figure_words[words[0]]
        words = words[1:]
        rest = rest[1:]
        if not words:
            raise ParseError("missing_segment", f"say where the {_FIGURE_NAMES.get(figure, figure)} goes, e.g. big city N",
                             expected="KIND EDGE | farmer HALF | cloister",
                             examples=_examples(game, state, player))
        head = words[0].upper()
        if head in EDGE_INDEX or head in HALF_INDEX or head in _INNER:
            words.insert(0, "follower")  # "pig NL", "builder E": the kind follows from the segment
    figure_word = words[0]
    if figure_word in _KINDS:            # "place 0,1 r0 monastery", "... city N": a follower
        figure_word = "follower"
        words.insert(0, figure_word)
    if figure_word not in _FIGURE_WORDS:
        raise ParseError("bad_figure", f"expected a figure after the rotation, not {rest[0]!r}",
                         expected="follower | knight | thief | monk | farmer",
                         examples=_examples(game, state, player))
    kind = _ROLE.get(figure_word)
    words = words[1:]
    if words and words[0] in _KINDS:
        kind = _KINDS[words[0]]
        words = words[1:]
    port = words[0].upper() if words else ""
    if len(words) > 1:
        raise ParseError("trailing_text", f"did not understand {' '.join(rest[-len(words) + 1:])!r}",
                         expected="one edge (N E S W) or half-edge (NL NR EL ER SL SR WL WR)",
                         examples=_examples(game, state, player))
    if kind == "cloister":
        label = "cloister"
    else:
        if not port:
            raise ParseError("missing_segment", "name the segment by an edge or half-edge",
                             expected="N E S W | NL NR EL ER SL SR WL WR",
                             examples=_examples(game, state, player))
        if port not in EDGE_INDEX and port not in HALF_INDEX and port not in _INNER:
            raise ParseError("bad_segment", f"{port!r} is not an edge or half-edge",
                             expected="N E S W | NL NR EL ER SL SR WL WR",
                             examples=_examples(game, state, player))
        if kind is None:
            if port in HALF_INDEX or port in _INNER:
                kind = "field"
            elif letter:
                o = oriented(letter, rotation // 90)
                k = o.edge_seg[EDGE_INDEX[port]]
                kind = o.kinds[k] if k >= 0 else "field"
            else:
                kind = "city"
        label = f"{kind} {port}"
    if letter:
        o = oriented(letter, rotation // 90)
        k = o.label_index.get(label)
        if k is not None:
            label = o.labels[k]
    move["figure"] = figure
    move["on"] = label
    return move


def _who(p, names=None) -> str:
    return name_seat(p, names)


def describe_event(event: dict, names=None) -> str:
    """An event in words, seats named by their players' names (as far as
    ``names`` goes: "seat N" otherwise)."""
    t = event.get("type")

    def who(p):
        return _who(p, names)

    if t == "StartPlayerChosen":
        return f"{who(event['player'])} starts."
    if t == "TileDrawn":
        return f"{who(event['player'])} drew tile {event['tile']}."
    if t == "TileDiscarded":
        return f"Tile {event['tile']} fits nowhere and is removed from the game."
    if t == "TileReturned":
        return f"Tile {event['tile']} fits nowhere and goes back into the pile."
    if t == "TilePlaced":
        # a bridged tile is "LETTER~AXIS" (the axis in the tile's own frame): its letter,
        # and the bridge said in words (its BridgeBuilt event says where, on the board)
        letter, bridged, _axis = str(event["tile"]).partition("~")
        return (f"{who(event['player'])} placed tile {letter}{' with a bridge' if bridged else ''} at "
                f"{event['x']},{event['y']} r{event['rotation']}.")
    if t == "FollowerDeployed":
        figure = event.get("figure", "follower")
        return (f"{who(event['player'])} deployed a {_FIGURE_NAMES.get(figure, figure)} on "
                f"{event['on']} at {event['x']},{event['y']}.")
    if t in ("FeatureScored", "FieldScored"):
        where = f"{event['on']} at {event['x']},{event['y']}"
        if t == "FieldScored":
            on = event["on"][6:] if event["on"].startswith("field ") else event["on"]
            what = f"Field {on} at {event['x']},{event['y']} borders {event['cities']} completed cit{'y' if event['cities'] == 1 else 'ies'}"
        else:
            state = "Completed" if event.get("complete") else "Incomplete"
            what = f"{state} {event['feature']} ({where}, {event['tiles']} tile{'s' if event['tiles'] != 1 else ''}"
            if event.get("pennants"):
                what += f", {event['pennants']} pennant{'s' if event['pennants'] != 1 else ''}"
            what += ")"
        if event["winners"]:
            return f"{what}: {event['points']} points to {', '.join(who(p) for p in event['winners'])}."
        return f"{what}: nobody scores."
    if t == "FollowersReturned":
        parts = [f"{who(i['player'])} from {i['on']} at {i['x']},{i['y']}" for i in event["followers"]]
        return "Followers return: " + "; ".join(parts) + "."
    if t == "GoodsTaken":
        # In the goods' own order: an event read back from the store has its
        # keys sorted, the one decide made does not, and both must read alike.
        goods = ", ".join(f"{event['goods'][g]} {g}" for g in sorted(event["goods"], key=_goods_order))
        return (f"{who(event['player'])} takes goods from the city ({event['on']} at "
                f"{event['x']},{event['y']}): {goods}.")
    if t == "BuilderTriggered":
        return f"{who(event['player'])}'s builder: {who(event['player'])} plays an extra tile."
    if t == "PigScored":
        on = event["on"][6:] if event["on"].startswith("field ") else event["on"]
        return (f"Pig in field {on} at {event['x']},{event['y']} ({event['cities']} completed "
                f"cit{'y' if event['cities'] == 1 else 'ies'}): {event['points']} more points to "
                f"{', '.join(who(p) for p in event['winners'])}.")
    if t == "GoodsScored":
        counts = ", ".join(f"{who(p)} {n}" for p, n in enumerate(event["counts"]))
        if event["winners"]:
            return (f"Most {event['good']} ({counts}): {event['points']} points to "
                    f"{', '.join(who(p) for p in event['winners'])}.")
        return f"Nobody has {event['good']}: nobody scores."
    if t in EVENT_TEXTS:
        return name_seats(EVENT_TEXTS[t](event), names)
    if t == "GameEnded":
        return "Game over. Scores: " + ", ".join(f"{who(i)} {s}" for i, s in enumerate(event["scores"])) + "."
    return str(event)
