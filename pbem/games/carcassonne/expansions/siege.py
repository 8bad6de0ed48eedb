"""Siege (the Cathars, rules digest §3.11), option ``expansions: ["siege"]``.

Installed into a :class:`~.rules.Rules` like every expansion, without editing
the base rules:

* **Tiles.** The 4 tiles SI1-SI4 (``siege_tiles.py``) join the draw pile; each
  has a city segment marked ``(siege)``.
* **Besieged city.** A city holding at least one siege segment. Completed it
  scores 1 per tile + 1 per pennant (2 each with an Inns & Cathedrals
  cathedral); incomplete at the end it scores 0. Several siege marks do not
  stack.
* **Farmers.** A field's farmer majority scores 6 per completed besieged city
  (``Rules.field_city_points``), 8 with the pig of Traders & Builders
  (``Rules.pig_city_points``: +2 instead of +1).
* **Escape (step 8.5).** After the scoring, if the active player has a knight
  (follower or big follower) in an incomplete besieged city with a monastery
  or shrine (with Cult) in the 8-neighbourhood of one of its tiles (option
  ``siege_escape_adjacency`` = ``any_city_tile``, the default; ``siege_tile``:
  of one of its siege tiles), the player owes a decision ``escape``
  (``EscapeOffered``): send one such knight home (``KnightEscaped``) or not
  (``EscapeDeclined``); at most once per step 8.5. The turn then goes on with
  step 9. Moves: ``{"type": "escape", "x": 1, "y": 0, "on": "city N"}`` (the
  segment the knight stands on) or ``{"type": "escape", "pass": true}``;
  notation ``escape 1,0 city N`` (``escape 1,0 N``) / ``no escape``.
  The timeout default is not to escape (the first legal move).

The module imports only the standard library and the engine.
"""
from __future__ import annotations

import re

from ...i18n import _
from ...base import IllegalMove, ParseError
from ..evolve import EVOLVERS
from ..features import label_of, occupied, sid_at
from ..geometry import EDGE_INDEX
from ..notation import EVENT_TEXTS, MOVE_TEXTS, OWED_TEXTS, at, examples_now, parse_error, seat, segment
from ..words import localize
from ..orient import add_tiles, oriented
from ..rules import Expansion, Rules, Turn, register_expansion
from ..scoring import completed_by_last_tile
from .siege_tiles import EXPANSION, SI_TILES, siege_pile
from ..state import SEG_BITS

add_tiles(SI_TILES)

ESCAPE = "escape"
BESIEGED_FARMER = 6
BESIEGED_PIG = 2
_BLOCK = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1))


def besieged(f) -> bool:
    return f.kind == "city" and bool(f.marks.get("siege"))


def tiny_and_halved(state, f) -> bool:
    """``besieged_tiny_city`` = ``zero`` (as JCloisterZone scores it): under
    ``tiny_city_scoring`` = 2 a completed besieged 2-tile city takes the tiny-city rule
    (1 a tile and pennant) and then loses the siege's 1 a tile and pennant: 0 (1 a unit with
    a cathedral). ``exempt`` (the default): the tiny-city rule does not touch a besieged
    city, which scores 1 a tile and pennant as any besieged city."""
    return (len(f.tiles) == 2 and state.options.get("tiny_city_scoring", 4) == 2
            and state.options.get("besieged_tiny_city", "exempt") == "zero")


def _mine(state) -> dict:
    return state.ext.get(EXPANSION) or {}


# -- the escape ----------------------------------------------------------------------------


def _siege_cells(state, f) -> set:
    out = set()
    for sid in f.segs:
        cell = state.placed[sid >> SEG_BITS]
        t = state.board[cell]
        if oriented(t[0], t[1]).tile.segments[sid & ((1 << SEG_BITS) - 1)].mark("siege"):
            out.add(cell)
    return out


def _cloister_near(state, cells) -> bool:
    """Whether a monastery or shrine stands in the 3x3 block around one of the cells
    (the 8-neighbourhood and the tile itself)."""
    board = state.board
    for x, y in cells:
        for dx, dy in _BLOCK:
            t = board.get((x + dx, y + dy))
            if t is not None and oriented(t[0], t[1]).cloister >= 0:
                return True
    return False


def escapable(state, f) -> bool:
    """Whether knights may escape from the city feature ``f``."""
    if not besieged(f) or f.open == 0:
        return False
    if state.options.get("siege_escape_adjacency", "any_city_tile") == "siege_tile":
        cells = _siege_cells(state, f)
    else:
        cells = f.tiles
    return _cloister_near(state, cells)


def escape_moves(state, player: int) -> list:
    """The escape choices of a seat: its knights in escapable besieged cities."""
    strength = state.rules.strength
    out = []
    for _fid, f in occupied(state):
        if f.kind != "city" or not f.marks.get("siege") or f.open == 0:
            continue
        mine = [sid for p, sid, figure in f.meeples if p == player and strength.get(figure, 1) > 0]
        if not mine or not escapable(state, f):
            continue
        for sid in mine:
            x, y, label = label_of(state, sid)
            out.append({"type": ESCAPE, "x": x, "y": y, "on": label})
    out.sort(key=lambda m: (m["y"], m["x"], m["on"]))
    return out


def legal_escapes(state, player: int) -> list:
    if state.over or state.pending.get(player) != ESCAPE:
        return []
    return [{"type": ESCAPE, "pass": True}, *escape_moves(state, player)]


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def validate_escape(state, player: int, move: dict) -> dict:
    keys = set(move)
    if "pass" in move:
        if keys != {"type", "pass"} or move["pass"] is not True:
            raise IllegalMove("malformed_move", _('not escaping is {"type": "escape", "pass": true}'))
        return {"type": ESCAPE, "pass": True}
    if keys != {"type", "x", "y", "on"}:
        raise IllegalMove("malformed_move", _("an escape names the knight: x, y and on (e.g. city N)"))
    x, y, on = move["x"], move["y"], move["on"]
    if not (_int(x) and _int(y)) or not isinstance(on, str):
        raise IllegalMove("bad_position", _("x and y must be integers and on a segment, e.g. escape "
                                            "1,0 city N"))
    sid = sid_at(state, (x, y), on)
    if sid is None:
        raise IllegalMove("bad_segment", _("there is no segment “{on}” at {x},{y}", on=on, x=x, y=y))
    f = state.features[state.seg_feature[sid]]
    strength = state.rules.strength
    if not any(p == player and s == sid and strength.get(fig, 1) > 0 for p, s, fig in f.meeples):
        raise IllegalMove("no_knight_there", _("you have no knight on {on} at {x},{y}", on=on, x=x, y=y))
    if not escapable(state, f):
        raise IllegalMove("cannot_escape", _("that city is not a besieged city with a monastery or "
                                             "shrine next to it"))
    x, y, label = label_of(state, sid)
    return {"type": ESCAPE, "x": x, "y": y, "on": label}


def offer_escape(turn: Turn) -> None:
    """Step 8.5: the active player owes the escape decision if an escape is possible."""
    st = turn.state
    if escape_moves(st, turn.player):
        turn.emit({"type": "EscapeOffered", "player": turn.player, "turn_data": dict(turn.data)})


def resolve_escape(turn: Turn) -> None:
    """Back from the escape decision (before step 9.1): restore the turn's
    scratch data, then send the knight home (or not)."""
    m = turn.move
    if not m or m.get("type") != ESCAPE:
        return
    st = turn.state
    turn.completed = [fid for fid, _i in completed_by_last_tile(st)]
    turn.data = dict(_mine(st).get("turn_data") or {})
    if m.get("pass"):
        turn.emit({"type": "EscapeDeclined", "player": turn.player})
        return
    sid = sid_at(st, (m["x"], m["y"]), m["on"])
    f = st.features[st.seg_feature[sid]]
    figure = next(fig for p, s, fig in f.meeples if p == turn.player and s == sid)
    turn.emit({"type": "KnightEscaped", "player": turn.player,
               "followers": [{"player": turn.player, "figure": figure, "x": m["x"], "y": m["y"],
                              "on": m["on"]}]})


def _offered(state, event: dict):
    new = state.copy()
    new.pending = {event["player"]: ESCAPE}
    new.step = "score"
    new.ext = {**state.ext, EXPANSION: {**_mine(state), "turn_data": event.get("turn_data") or {}}}
    return new


def _done(state):
    new = state.copy()
    new.pending = {}
    new.step = "end_turn"
    new.ext = {**state.ext, EXPANSION: {k: v for k, v in _mine(state).items() if k != "turn_data"}}
    return new


def _declined(state, event: dict):
    return _done(state)


def _escaped(state, event: dict):
    return EVOLVERS["FollowersReturned"](_done(state), event)


# -- notation ---------------------------------------------------------------------------------

_ESCAPE = re.compile(r"^\s*escape\s*\(?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\)?\s*(.*?)\s*$", re.IGNORECASE)
_NO = re.compile(r"^\s*(?:no\s+escape|escape\s+(?:pass|none|no)|don'?t\s+escape|stay)\s*$",
                 re.IGNORECASE)


def parse_escape(game, text: str, state, player):
    if _NO.match(text):
        return {"type": ESCAPE, "pass": True}
    m = _ESCAPE.match(text.replace("\u2212", "-"))
    if not m:
        if text.strip().lower().startswith(ESCAPE):
            raise ParseError("bad_escape", _("could not read “{value}”", value=text.strip()[:60]),
                             expected="escape X,Y city EDGE | no escape",
                             examples=[game.describe(mv) for mv in game.legal_moves(state, player)[:4]]
                             or ["no escape", "escape 1,0 city N"])
        return None
    x, y = int(m.group(1)), int(m.group(2))
    words = [w.lower() for w in m.group(3).split()]
    if words and words[0] in ("knight", "follower", "big"):
        words = words[1:]
    if words and words[0] == "city":
        words = words[1:]
    if len(words) != 1 or words[0].upper() not in EDGE_INDEX:
        raise ParseError("bad_escape", _("name the knight's city segment by an edge, e.g. escape 1,0 "
                                         "city N"),
                         expected="escape X,Y city EDGE | no escape",
                         examples=[game.describe(mv) for mv in game.legal_moves(state, player)[:4]]
                         or ["no escape", "escape 1,0 city N"])
    label = f"city {words[0].upper()}"
    if state is not None and (x, y) in state.board:
        sid = sid_at(state, (x, y), label)
        if sid is not None:
            label = label_of(state, sid)[2]
    return {"type": ESCAPE, "x": x, "y": y, "on": label}


def describe_escape(move: dict) -> str:
    if move.get("pass"):
        return "no escape"
    return f"escape {move.get('x')},{move.get('y')} {move.get('on')}"


MOVE_TEXTS[ESCAPE] = describe_escape
EVENT_TEXTS.update(
    EscapeOffered=lambda e: _("{player} may send a knight home from a besieged city (escape).",
                              player=seat(e["player"])),
    EscapeDeclined=lambda e: _("{player} does not escape.", player=seat(e["player"])),
    KnightEscaped=lambda e: _("Escape: {list}.", list=_("; ").join(
        _("{player}'s knight leaves the besieged city ({on} at {at})", player=seat(i["player"]), on=segment(i["on"]),
          at=at(i["x"], i["y"])) for i in e["followers"])))


# -- views ------------------------------------------------------------------------------------


def _view(state, viewer, view: dict) -> None:
    seen = set()
    cities = []
    for fid, f in state.features.items():
        if besieged(f) and fid not in seen:
            seen.add(fid)
            x, y, label = label_of(state, min(f.segs))
            cities.append({"x": x, "y": y, "on": label, "tiles": len(f.tiles),
                           "complete": f.open == 0})
    view["besieged_cities"] = sorted(cities, key=lambda c: (c["y"], c["x"], c["on"]))


def _render(state, viewer) -> list:
    lines = []
    for p, owed in sorted(state.pending.items()):
        if owed == ESCAPE:
            opts = ", ".join(localize(describe_escape(m)) for m in escape_moves(state, p))
            lines.append(_("{player} may escape from a besieged city: {moves}, or {none}.", player=seat(p),
                           moves=opts, none=localize("no escape")))
    return lines


# -- installation -----------------------------------------------------------------------------


class Siege(Expansion):
    name = EXPANSION

    def install(self, rules: Rules) -> None:
        rules.pile.update(siege_pile())
        city = rules.points["city"]

        def siege_city(state, f, complete: bool) -> int:
            if f.marks.get("siege"):
                if not complete:
                    return 0
                per = 2 if f.marks.get("cathedral") else 1
                if tiny_and_halved(state, f):
                    per -= 1        # JCZ: the tiny city's 1 a unit, less the siege's 1
                return per * (len(f.tiles) + f.marks.get("pennant", 0))
            return city(state, f, complete)

        rules.points["city"] = siege_city
        farmer, pig = rules.field_city_points, rules.pig_city_points
        rules.field_city_points = lambda state, f: BESIEGED_FARMER if f.marks.get("siege") else farmer(state, f)
        rules.pig_city_points = lambda state, f: BESIEGED_PIG if f.marks.get("siege") else pig(state, f)
        rules.moves[ESCAPE] = "end_turn"
        rules.validators[ESCAPE] = validate_escape
        rules.legal[ESCAPE] = legal_escapes
        rules.parsers.append(parse_escape)
        rules.evolvers.update(EscapeOffered=_offered, EscapeDeclined=_declined,
                              KnightEscaped=_escaped)
        rules.views.append(_view)
        rules.render_lines.append(_render)
        rules.on("score", offer_escape)
        rules.on("end_turn", resolve_escape, first=True)


SIEGE = register_expansion(Siege())

OWED_TEXTS["escape"] = lambda state, player: _("may send a knight home from a besieged city (or pass)")
