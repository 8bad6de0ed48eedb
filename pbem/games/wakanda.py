"""Wakanda (Charles Chevallier, Blue Orange 2014): totem poles for 2 players.

Rules: ``docs/rules/wakanda.md`` (digest ``shared/rules/wakanda.md``, source
``shared/seeds/003_000413e2c4c3117c.txt``). Standard library only.

Driving a game from Python without the server (a runnable example)::

    >>> import random
    >>> from pbem import games
    >>> g = games.get("wakanda")
    >>> opts = g.check_options(2, {"fixed_villages": ["eagle", "chief", "height",
    ...                                                 "tomahawk", "sun", "variety"],
    ...                             "fixed_bag": ["sun", "tipi"], "start_player": 0})
    >>> state = g.start(2, opts)
    >>> state = g.apply(state, g.setup(state, random.Random(1)))
    >>> sorted(g.to_act(state)), state["held"]
    ([0], [['sun'], []])
    >>> move = g.parse("build sun on 1", state, 0)
    >>> move
    {'type': 'build', 'piece': 'sun', 'village': 1}
    >>> state = g.apply(state, g.decide(state, 0, move, random.Random(2)))
    >>> state["held"][1]                      # seat 1 drew the next piece of fixed_bag
    ['tipi']
    >>> state = g.apply(state, g.decide(state, 1, g.parse("claim 1", state, 1), random.Random(3)))
    >>> g.view(state, 0)["villages"][3]["state"]   # the claim opened village 4
    'open'
    >>> from pbem.games.playout import play_random
    >>> p = play_random(g, 2, {}, seed=3)
    >>> r = g.result(p.state)
    >>> len(r.scores), sorted(r.placings)[0], len(r.detail["removed_villages"])
    (2, 1, 2)
"""
from __future__ import annotations

import random
import re

from . import register
from .base import (OMNISCIENT, SPECTATOR, BadOptions, Game, IllegalMove, Option, ParseError, Result,
                   name_seat, plain_width)

# --------------------------------------------------------------------------
# Static facts

PIECES = ("eagle", "chief", "tomahawk", "fur", "tipi", "sun")
PIECE_COUNTS = (1, 2, 3, 4, 5, 6)  # 21 pieces
PIECE_INDEX = {p: i for i, p in enumerate(PIECES)}
TOTAL_PIECES = sum(PIECE_COUNTS)
VILLAGES = PIECES + ("variety", "height")
#: Points per piece of the village's own symbol (the six symbol villages).
PIECE_POINTS = {"eagle": 8, "chief": 5, "tomahawk": 4, "fur": 3, "tipi": 2, "sun": 1}
ROW = 6
FIRST_OPEN = 3
HEADDRESSES = 3
REMOVED = 2

PIECE_ALIASES = {p: p for p in PIECES}
PIECE_ALIASES.update({p + "s": p for p in PIECES})
PIECE_ALIASES.update({"tepee": "tipi", "teepee": "tipi", "tepees": "tipi", "teepees": "tipi",
                      "furs": "fur", "suns": "sun", "axe": "tomahawk", "tomahawks": "tomahawk"})
VILLAGE_ALIASES = {v: v for v in VILLAGES}
VILLAGE_ALIASES.update({"colour": "variety", "color": "variety", "colours": "variety",
                        "colors": "variety", "tallest": "height",
                        "tepee": "tipi", "teepee": "tipi"})
FILLER = {"on", "onto", "at", "to", "village", "pole", "a", "the", "#", "no", "no."}

BUILD_KEYS = frozenset(("type", "piece", "village"))
CLAIM_KEYS = frozenset(("type", "village"))
PASS_KEYS = frozenset(("type",))

END_REASONS = {
    "all_claimed": "all six poles are claimed",
    "both_passed": "both players passed in a row (house rule 8)",
    "stopped": "one player stopped (no headdress, the bag empty) and the other could neither build nor claim",
}
#: What each village scores, in words (every village its owner claimed
#: scores all of that owner's poles).
VILLAGE_RULES = {
    "eagle": "8 per Eagle", "chief": "5 per Chief", "tomahawk": "4 per Tomahawk", "fur": "3 per Fur",
    "tipi": "2 per Tipi", "sun": "1 per Sun, no Sun penalty", "variety": "2 per kind of piece",
    "height": "2 per piece of the tallest pole",
}
SUN_PENALTY = "Sun penalty: without the Sun village, -1 per Sun on your poles."
#: The option that keeps the English rulebook's reading of the end (absent
#: from wakanda@1, whose games all play that reading).
BUILD_AFTER_BAG = "build_after_bag_empty"


def _village(item: dict) -> str:
    """"village 2 (Eagle)" where the event names it (events before names
    were added say only the number)."""
    name = item.get("name")
    return f"village {item.get('village')}" + (f" ({name.capitalize()})" if name else "")


def _tie_words(tie: dict, names=None) -> str:
    """A tie-break in words, from ``Result.detail["tie_break_key"]``."""
    w, rule = name_seat(tie["winner"], names), tie["rule"]
    if rule == "draw":
        return "equal headdress records: a draw (house rule 9)"
    if rule == "more":
        return f"{w} placed more headdresses ({tie['mine']} against {tie['theirs']}, house rule 9)"
    what = "the third headdress first" if rule == "third" else "the last headdress earlier"
    return f"{w} placed {what} (turn {tie['mine']} against turn {tie['theirs']})"


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def score_breakdown(villages: list, poles: list) -> dict:
    """One player's score: ``villages`` are the village names they own,
    ``poles`` their poles (lists of piece names). Every owned village applies
    to all the player's poles; a player without the Sun village loses 1 per
    Sun on their poles (even when the Sun village was removed at setup)."""
    counts = dict.fromkeys(PIECES, 0)
    tallest = 0
    for pole in poles:
        for piece in pole:
            counts[piece] += 1
        if len(pole) > tallest:
            tallest = len(pole)
    lines = {}
    for village in villages:
        if village in PIECE_POINTS:
            lines[village] = PIECE_POINTS[village] * counts[village]
        elif village == "variety":
            lines[village] = 2 * sum(1 for n in counts.values() if n)
        elif village == "height":
            lines[village] = 2 * tallest
    penalty = 0 if "sun" in villages else -counts["sun"]
    return {"villages": lines, "sun_penalty": penalty, "total": sum(lines.values()) + penalty,
            "pieces": counts, "tallest": tallest}


def tie_break_keys(scores: list, claims: list) -> list:
    """Sort keys per seat (higher is better): score, then the source's rule
    (third headdress placed first) generalised by house rule 9: more
    headdresses placed, then the last headdress placed earlier; equal keys
    are a draw. ``claims`` are ``[seat, village, turn]`` in placement order."""
    keys = []
    for seat, score in enumerate(scores):
        turns = [turn for s, _, turn in claims if s == seat]
        keys.append((score, len(turns), -turns[-1] if turns else 0))
    return keys


# --------------------------------------------------------------------------


class Wakanda(Game):
    name = "wakanda"
    version = 2
    title = "Wakanda"
    min_players = 2
    max_players = 2
    hidden_information = True  # the removed villages (and variants' hidden parts)
    error_codes = {
        "unknown_move": "the move's type is not build, claim or pass",
        "bad_piece": "`piece` is not one of the piece names",
        "bad_village": "`village` is not a village number 1-8",
        "village_closed": "the village is not open yet",
        "village_claimed": "the village's pole is claimed already",
        "empty_pole": "a pole with no pieces cannot be claimed (house rule 3)",
        "piece_not_held": "the seat holds no such piece",
        "no_headdress": "all three headdresses are placed",
        "cannot_pass": "a seat may pass only when it can neither build nor claim",
        "bad_notation": "the text could not be read as a move",
    }
    view_fields = {
        "scores": "what each seat would score if the game ended now (the villages it has claimed, as they stand)",
        "placings": "once the game is over: each seat's placing (1 = first; tied seats share one)",
        "game": "the rules' key: `wakanda@2`, or `wakanda@1` for a game begun under it",
        "options": "the game's options, defaults filled in",
        "turn": "the number of moves played so far",
        "current": "the seat to move (null once finished)",
        "start_player": "the seat that moved first",
        "villages": "the 8 village positions in row order: `position` 1-8, `village` (its name; null while "
                    "face down to this viewer), `state` (closed, open or claimed), `owner` (the claiming seat "
                    "or null), `pole` (the pieces built on it, bottom first)",
        "players": "per seat: `seat`, `headdresses` left, `held` (the held pieces; null when hidden from this "
                   "viewer), `held_count`, `villages` (the positions it claimed)",
        "bag_count": "pieces left in the bag",
        "unseen": "per piece name, how many this viewer cannot see (the bag, and hands hidden from it)",
        "claims": "every claim in order: `seat`, `village` (position), `turn`",
        "passes_in_a_row": "consecutive passes (two end the game)",
        "stopped": "the seats that have stopped: out of headdresses once the bag is empty, a seat stops and "
                   "the other takes every turn (the source's end; wakanda@1 and `build_after_bag_empty` never "
                   "stop a seat)",
        "finished": "true once the game is over",
        "end_reason": "why the game ended (null while it runs)",
        "removed_villages": "the two villages out of the game: null until the game is over",
        "bag": "the bag's pieces by name (only once the game is over: everything is public)",
    }
    concurrency = "strict"
    concurrency_doc = "The two seats take turns: a move must be signed at the game's current version."
    options = (
        Option(BUILD_AFTER_BAG, False,
               "The English rulebook's reading: a player out of headdresses keeps building with the pieces "
               "they hold after the bag is empty (until they hold none). Default: the source's, such a player "
               "stops once the bag is empty."),
        Option("allow_empty_claim", False,
               "House rule 3 off: a pole with no pieces may be claimed (default: no empty claims)."),
        Option("hidden_held_pieces", False,
               "Held pieces are secret to their owner (default: public, house rule 4)."),
        Option("hidden_future_villages", False,
               "Advanced variant: villages 4-6 lie face down until they open."),
        Option("fixed_villages", [],
               "Scripted setups: 6 village names in row order (the other 2 are removed), or 8 "
               "(row order, then the 2 removed). Empty = shuffled. Makes the setup public.",
               kind=list, unique=True),
        Option("fixed_bag", [],
               "Scripted setups: the first pieces drawn, in order (a part of the 21 pieces); "
               "later draws are random. Empty = all random. Makes the draws public.",
               kind=list),
        Option("start_player", -1, "Start seat, 0 or 1; -1 = random (house rule 10).",
               kind=int, minimum=-1, maximum=1),
    )
    sample_setups = (
        (2, {}),
        (2, {"hidden_held_pieces": True}),
        (2, {"hidden_future_villages": True}),
        (2, {"hidden_held_pieces": True, "hidden_future_villages": True}),
        (2, {"allow_empty_claim": True}),
        (2, {"fixed_villages": ["sun", "height", "variety", "eagle", "chief", "tipi"],
             "start_player": 1}),
        (2, {BUILD_AFTER_BAG: True}),
    )
    #: The help for every setup (``notation_help_for`` fits it to the options).
    notation_help = (
        "Wakanda moves (one per line, case-insensitive):\n"
        "  build <piece> on <village>   e.g. 'build sun on 2'  (also 'b sun 2', 'build 2 sun')\n"
        "  claim <village>              e.g. 'claim 3'         (also 'c 3')\n"
        "  pass                         only when you can neither build nor claim\n"
        "Pieces: eagle, chief, tomahawk, fur, tipi, sun. Villages are numbered 1-6 left to\n"
        "right; a face-up village may also go by its name (eagle ... sun, variety, height).\n"
        "Scoring: each village you claim scores all of your poles: Eagle 8 per Eagle,\n"
        "Chief 5 per Chief, Tomahawk 4 per Tomahawk, Fur 3 per Fur, Tipi 2 per Tipi,\n"
        "Sun 1 per Sun; Variety 2 per kind of piece on your poles; Height 2 per piece of\n"
        "your tallest pole. Sun penalty: without the Sun village, -1 per Sun on your\n"
        "poles. On a tie, whoever placed their third headdress first wins.\n"
        "The game ends when all six poles are claimed. A player out of headdresses\n"
        "keeps building until the bag is empty (then stops); with build_after_bag_empty\n"
        "until they hold no piece either."
    )
    _EXAMPLES = ["build sun on 2", "b sun 2", "build 2 sun", "claim 3", "c 3", "pass"]

    # -- words ---------------------------------------------------------------

    def notation_help_for(self, options: dict) -> str:
        head = self.notation_help.rsplit("The game ends", 1)[0]
        if options.get(BUILD_AFTER_BAG, True):
            end = ("The game ends when all six poles are claimed. A player out of headdresses\n"
                   "keeps building with the pieces they hold, also once the bag is empty.")
        else:
            end = ("The game ends when all six poles are claimed. A player out of headdresses\n"
                   "keeps building until the bag is empty, then stops.")
        notes = []
        if options.get("allow_empty_claim"):
            notes.append("An empty pole may be claimed.")
        else:
            notes.append("A pole must hold a piece before it is claimed.")
        if options.get("hidden_future_villages"):
            notes.append("Villages 4-6 lie face down until they open.")
        if options.get("hidden_held_pieces"):
            notes.append("Held pieces are secret.")
        return head + end + "\n" + " ".join(notes)

    def notation_examples(self, options: dict) -> list[str]:
        return list(self._EXAMPLES)

    def describe_setup(self, options: dict, players: int | None = None) -> str:
        parts = ["Wakanda", "2 players"]
        parts.append("a player out of headdresses builds on with the pieces they hold once the bag is empty "
                     "(the English rulebook)" if options.get(BUILD_AFTER_BAG, True)
                     else "a player out of headdresses stops once the bag is empty (the source)")
        parts.append("held pieces secret" if options.get("hidden_held_pieces") else "held pieces public")
        if options.get("hidden_future_villages"):
            parts.append("villages 4-6 face down until they open")
        if options.get("allow_empty_claim"):
            parts.append("empty poles may be claimed")
        if options.get("fixed_villages"):
            parts.append("villages in a fixed order")
        if options.get("fixed_bag"):
            parts.append(f"the first {len(options['fixed_bag'])} draws fixed")
        if options.get("start_player", -1) >= 0:
            parts.append(f"seat {options['start_player']} starts")
        return "; ".join(parts) + "."

    # -- options -------------------------------------------------------------

    def check_setup(self, players: int, options: dict) -> None:
        fixed = options["fixed_villages"]
        if fixed:
            if len(fixed) not in (ROW, ROW + REMOVED) or not all(isinstance(v, str) for v in fixed):
                raise BadOptions("bad_option_value", "fixed_villages lists 6 or 8 village names",
                                 option="fixed_villages")
            if any(v not in VILLAGES for v in fixed) or len(set(fixed)) != len(fixed):
                raise BadOptions("bad_option_value",
                                 f"fixed_villages must be distinct names from {list(VILLAGES)}",
                                 option="fixed_villages")
        bag = options["fixed_bag"]
        left = list(PIECE_COUNTS)
        for piece in bag:
            if not isinstance(piece, str) or piece not in PIECE_INDEX:
                raise BadOptions("bad_option_value", f"fixed_bag: unknown piece {piece!r}",
                                 option="fixed_bag")
            left[PIECE_INDEX[piece]] -= 1
            if left[PIECE_INDEX[piece]] < 0:
                raise BadOptions("bad_option_value",
                                 f"fixed_bag has more {piece} pieces than the game has",
                                 option="fixed_bag")

    # -- state ---------------------------------------------------------------

    def start(self, players: int, options: dict) -> dict:
        options = self.check_options(players, options)
        return {
            "options": options,
            "row": [None] * ROW,        # village names, true identities (filtered by view)
            "removed": [],              # the 2 villages back in the box
            "opened": 0,                # villages 1..opened are open (0 before setup)
            "poles": [[] for _ in range(ROW)],
            "owner": [None] * ROW,
            "held": [[], []],           # in draw order
            "headdresses": [HEADDRESSES, HEADDRESSES],
            "bag": list(PIECE_COUNTS),  # counts per PIECES
            "current": None,
            "start_player": None,
            "turn": 0,
            "passes": 0,                # passes in a row
            "claims": [],               # [seat, village, turn] in order
            "stopped": [],              # seats that stopped: no headdress, the bag empty (the source's end)
            "finished": False,
            "end_reason": None,
        }

    def setup(self, state: dict, rng: random.Random) -> list:
        opts = state["options"]
        fixed = opts["fixed_villages"]
        if fixed:
            row = list(fixed[:ROW])
            removed = list(fixed[ROW:]) or [v for v in VILLAGES if v not in row]
        else:
            tiles = list(VILLAGES)
            rng.shuffle(tiles)
            row, removed = tiles[:ROW], tiles[ROW:]
        if opts["hidden_future_villages"]:
            dealt = {"type": "VillagesDealt", "row": row[:FIRST_OPEN] + [None] * (ROW - FIRST_OPEN),
                     "secret": {"removed": removed, "face_down": row[FIRST_OPEN:]}, "to": []}
        else:
            dealt = {"type": "VillagesDealt", "row": row, "secret": {"removed": removed}, "to": []}
        start = opts["start_player"]
        if start < 0:
            start = rng.randrange(2)
        events = [dealt, {"type": "StartPlayerChosen", "player": start}]
        after = self.apply(state, events)
        events.append(self._draw(after, rng))
        return events

    def _draw(self, state: dict, rng: random.Random) -> dict | None:
        """The draw that opens the current player's turn (None: empty bag)."""
        bag = state["bag"]
        left = sum(bag)
        if not left:
            return None
        fixed = state["options"]["fixed_bag"]
        index = TOTAL_PIECES - left
        if index < len(fixed):
            piece = fixed[index]
        else:
            r = rng.randrange(left)
            for i, n in enumerate(bag):
                if r < n:
                    piece = PIECES[i]
                    break
                r -= n
        player = state["current"]
        if state["options"]["hidden_held_pieces"]:
            return {"type": "PieceDrawn", "player": player, "secret": {"piece": piece}, "to": [player]}
        return {"type": "PieceDrawn", "player": player, "piece": piece}

    def evolve(self, state: dict, event: dict) -> dict:
        kind = event["type"]
        s = dict(state)
        if kind == "PieceDrawn":
            p = event["player"]
            piece = event["piece"] if "piece" in event else event["secret"]["piece"]
            held = list(s["held"])
            held[p] = held[p] + [piece]
            s["held"] = held
            bag = list(s["bag"])
            bag[PIECE_INDEX[piece]] -= 1
            s["bag"] = bag
        elif kind == "PieceBuilt":
            p, v, piece = event["player"], event["village"], event["piece"]
            held = list(s["held"])
            hand = list(held[p])
            hand.remove(piece)  # the earliest drawn of that kind
            held[p] = hand
            s["held"] = held
            poles = list(s["poles"])
            poles[v - 1] = poles[v - 1] + [piece]
            s["poles"] = poles
            self._advance(s, passed=False)
        elif kind == "PoleClaimed":
            p, v = event["player"], event["village"]
            owner = list(s["owner"])
            owner[v - 1] = p
            s["owner"] = owner
            heads = list(s["headdresses"])
            heads[p] -= 1
            s["headdresses"] = heads
            s["claims"] = s["claims"] + [[p, v, s["turn"]]]
            self._advance(s, passed=False)
        elif kind == "VillageOpened":
            s["opened"] = event["village"]
        elif kind == "Passed":
            self._advance(s, passed=True)
        elif kind == "PlayerStopped":
            # The source: a player out of headdresses plays on "until the bag
            # is empty"; from then on the other seat takes every turn.
            s["stopped"] = list(s.get("stopped", ())) + [event["player"]]
            s["current"] = 1 - event["player"]
        elif kind == "StartPlayerChosen":
            s["current"] = s["start_player"] = event["player"]
            s["turn"] = 1
        elif kind == "VillagesDealt":
            secret = event.get("secret", {})
            row = list(event["row"])
            if "face_down" in secret:
                row[FIRST_OPEN:] = secret["face_down"]
            s["row"] = row
            s["removed"] = list(secret.get("removed", ()))
            s["opened"] = FIRST_OPEN
        elif kind == "GameEnded":
            s["finished"] = True
            s["end_reason"] = event["reason"]
        return s

    @staticmethod
    def _advance(s: dict, passed: bool) -> None:
        s["passes"] = s["passes"] + 1 if passed else 0
        s["turn"] = s["turn"] + 1
        s["current"] = 1 - s["current"]
        if s["current"] in s.get("stopped", ()):  # (a snapshot from before stops has none)
            s["current"] = 1 - s["current"]

    @staticmethod
    def stops_when_bag_empty(state: dict) -> bool:
        """The source's end (the default of wakanda@2): a player out of
        headdresses stops once the bag is empty. wakanda@1, and the
        ``build_after_bag_empty`` option, keep the English rulebook's: they
        build on with what they hold."""
        return not state["options"].get(BUILD_AFTER_BAG, True)

    def _must_stop(self, state: dict, seat: int) -> bool:
        return (self.stops_when_bag_empty(state) and not state["headdresses"][seat] and not sum(state["bag"])
                and seat not in state.get("stopped", ()))

    def to_act(self, state: dict) -> frozenset:
        if state["finished"] or state["current"] is None:
            return frozenset()
        return frozenset((state["current"],))

    # -- moves ---------------------------------------------------------------

    def _open_unclaimed(self, state: dict) -> list:
        owner = state["owner"]
        return [v for v in range(1, state["opened"] + 1) if owner[v - 1] is None]

    def _claimable(self, state: dict, villages: list) -> list:
        if state["options"]["allow_empty_claim"]:
            return villages
        poles = state["poles"]
        return [v for v in villages if poles[v - 1]]

    def can_act(self, state: dict, player: int) -> bool:
        """House rule 8: a player may pass only when this is False."""
        villages = self._open_unclaimed(state)
        if not villages:
            return False
        if state["held"][player]:
            return True
        return bool(state["headdresses"][player] and self._claimable(state, villages))

    def legal_moves(self, state: dict, player: int) -> list:
        if state["finished"] or player != state["current"]:
            return []
        villages = self._open_unclaimed(state)
        moves = []
        seen = set()
        for piece in state["held"][player]:
            if piece not in seen:
                seen.add(piece)
                for v in villages:
                    moves.append({"type": "build", "piece": piece, "village": v})
        if state["headdresses"][player]:
            for v in self._claimable(state, villages):
                moves.append({"type": "claim", "village": v})
        if not moves:
            moves.append({"type": "pass"})
        return moves

    def default_move(self, state: dict, player: int) -> dict | None:
        """Digest §8: build the earliest-drawn piece on the lowest open unclaimed
        village; else claim the lowest non-empty open pole; else pass."""
        if state["finished"] or player != state["current"]:
            return None
        villages = self._open_unclaimed(state)
        hand = state["held"][player]
        if hand and villages:
            return {"type": "build", "piece": hand[0], "village": villages[0]}
        if state["headdresses"][player]:
            full = [v for v in villages if state["poles"][v - 1]]
            if full:
                return {"type": "claim", "village": full[0]}
            if villages and state["options"]["allow_empty_claim"]:
                return {"type": "claim", "village": villages[0]}
        return {"type": "pass"}

    def _village_arg(self, state: dict, move: dict) -> int:
        v = move.get("village")
        if not _is_int(v) or not 1 <= v <= ROW:
            raise IllegalMove("bad_village", f"'village' must be a village number 1-{ROW}, got {v!r}")
        if v > state["opened"]:
            raise IllegalMove("village_closed", f"village {v} is still closed")
        if state["owner"][v - 1] is not None:
            raise IllegalMove("village_claimed",
                              f"the pole on village {v} is already claimed by seat {state['owner'][v - 1]}")
        return v

    def decide(self, state: dict, player: int, move: dict, rng: random.Random) -> list:
        self.check_turn(state, player)
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove("malformed_move", "a move is an object with a 'type'")
        kind = move["type"]
        keys = move.keys()
        if kind == "build":
            if keys != BUILD_KEYS:
                raise IllegalMove("malformed_move", "build takes exactly 'piece' and 'village'")
            piece = move["piece"]
            if not isinstance(piece, str) or piece not in PIECE_INDEX:
                raise IllegalMove("bad_piece", f"'piece' must be one of {list(PIECES)}, got {piece!r}")
            v = self._village_arg(state, move)
            if piece not in state["held"][player]:
                raise IllegalMove("piece_not_held", f"you hold no {piece} piece")
            events = [{"type": "PieceBuilt", "player": player, "piece": piece, "village": v}]
        elif kind == "claim":
            if keys != CLAIM_KEYS:
                raise IllegalMove("malformed_move", "claim takes exactly 'village'")
            v = self._village_arg(state, move)
            if not state["headdresses"][player]:
                raise IllegalMove("no_headdress", "you have placed all three of your headdresses")
            if not state["poles"][v - 1] and not state["options"]["allow_empty_claim"]:
                raise IllegalMove("empty_pole", f"village {v} has no pole yet: build on it before claiming")
            events = [{"type": "PoleClaimed", "player": player, "village": v}]
            opened = state["opened"]
            if opened < ROW:
                events.append({"type": "VillageOpened", "village": opened + 1, "name": state["row"][opened]})
        elif kind == "pass":
            if keys != PASS_KEYS:
                raise IllegalMove("malformed_move", "pass takes no arguments")
            if self.can_act(state, player):
                raise IllegalMove("cannot_pass", "you may pass only when you can neither build nor claim")
            events = [{"type": "Passed", "player": player}]
        else:
            raise IllegalMove("unknown_move", f"unknown move type {kind!r}: build, claim or pass")
        if self.version >= 2 and kind in ("build", "claim"):
            # The village's name rides along (it is face up: open), so the
            # log's sentences can say it without the state. Not in wakanda@1:
            # its records re-run to the very events they logged.
            events[0]["name"] = state["row"][events[0]["village"] - 1]
        after = self.apply(state, events)
        if kind == "claim" and len(after["claims"]) == ROW:
            events.append(self._end_event(after, "all_claimed"))
            return events
        if kind == "pass" and after["passes"] >= 2:
            events.append(self._end_event(after, "both_passed"))
            return events
        if self._must_stop(after, after["current"]):
            stop = {"type": "PlayerStopped", "player": after["current"]}
            events.append(stop)
            after = self.apply(after, [stop])
        if kind == "pass" and after["current"] == player:
            # The other seat has stopped and this one could not act: nothing
            # can change any more.
            events.append(self._end_event(after, "stopped"))
            return events
        draw = self._draw(after, rng)
        if draw is not None:
            events.append(draw)
        return events

    def _end_event(self, state: dict, reason: str) -> dict:
        """The public end of the game: reveals the removed villages, any village
        never turned face up, and (if secret) the pieces still held."""
        event = {"type": "GameEnded", "reason": reason, "removed": list(state["removed"])}
        if state["options"]["hidden_future_villages"] and state["opened"] < ROW:
            event["face_down"] = {str(v): state["row"][v - 1] for v in range(state["opened"] + 1, ROW + 1)}
        if state["options"]["hidden_held_pieces"]:
            event["held"] = [list(h) for h in state["held"]]
        return event

    # -- hidden information ---------------------------------------------------

    def _sees_village(self, state: dict, position: int, viewer) -> bool:
        return (viewer == OMNISCIENT or state["finished"] or position <= state["opened"]
                or not state["options"]["hidden_future_villages"])

    def _sees_hand(self, state: dict, seat: int, viewer) -> bool:
        return viewer == OMNISCIENT or state["finished"] or viewer == seat \
            or not state["options"]["hidden_held_pieces"]

    def view(self, state: dict, viewer) -> dict:
        visible = list(PIECE_COUNTS)
        for pole in state["poles"]:
            for piece in pole:
                visible[PIECE_INDEX[piece]] -= 1
        players = []
        for seat in (0, 1):
            hand = state["held"][seat]
            shown = self._sees_hand(state, seat, viewer)
            if shown:
                for piece in hand:
                    visible[PIECE_INDEX[piece]] -= 1
            players.append({
                "seat": seat,
                "headdresses": state["headdresses"][seat],
                "held": list(hand) if shown else None,
                "held_count": len(hand),
                "villages": [v for s, v, _ in state["claims"] if s == seat],
            })
        villages = []
        for v in range(1, ROW + 1):
            owner = state["owner"][v - 1]
            villages.append({
                "position": v,
                "village": state["row"][v - 1] if self._sees_village(state, v, viewer) else None,
                "state": "claimed" if owner is not None else ("open" if v <= state["opened"] else "closed"),
                "owner": owner,
                "pole": list(state["poles"][v - 1]),
            })
        scores = []
        for seat in (0, 1):
            mine = [v for v in range(1, ROW + 1) if state["owner"][v - 1] == seat]
            scores.append(score_breakdown([state["row"][v - 1] for v in mine],
                                          [state["poles"][v - 1] for v in mine])["total"])
        out = {
            "game": self.key,
            "options": {k: (list(x) if isinstance(x, list) else x) for k, x in state["options"].items()},
            "turn": state["turn"],
            "current": None if state["finished"] else state["current"],
            "start_player": state["start_player"],
            "villages": villages,
            "players": players,
            "bag_count": sum(state["bag"]),
            # pieces this viewer cannot see (the bag, plus any secret hands):
            "unseen": {p: n for p, n in zip(PIECES, visible) if n},
            "claims": [{"seat": s, "village": v, "turn": t} for s, v, t in state["claims"]],
            "passes_in_a_row": state["passes"],
            "finished": state["finished"],
            "end_reason": state["end_reason"],
            "stopped": list(state.get("stopped", ())),
            "removed_villages": (list(state["removed"])
                                 if viewer == OMNISCIENT or state["finished"] else None),
            # what each seat would score if the game ended now (claimed villages
            # are face up and poles are public): the final score once finished
            "scores": scores,
        }
        if state["finished"]:
            out["placings"] = list(self.result(state).placings)
        if viewer == OMNISCIENT:
            out["bag"] = {p: n for p, n in zip(PIECES, state["bag"]) if n}
        return out

    def resample(self, state: dict, viewer, rng: random.Random) -> dict:
        """Re-deal what ``viewer`` cannot see: the removed villages (with the
        face-down ones in the advanced variant) and, with secret hands, the
        hands they cannot see together with the bag."""
        if viewer == OMNISCIENT or state["finished"] or state["current"] is None:
            return state
        s = dict(state)
        hidden_pos = [v for v in range(1, ROW + 1) if not self._sees_village(state, v, viewer)]
        pool = list(state["removed"]) + [state["row"][v - 1] for v in hidden_pos]
        rng.shuffle(pool)
        row = list(state["row"])
        for v in hidden_pos:
            row[v - 1] = pool.pop()
        s["row"], s["removed"] = row, pool
        seats = [seat for seat in (0, 1) if not self._sees_hand(state, seat, viewer)]
        if seats:
            bag = list(state["bag"])
            for seat in seats:
                for piece in state["held"][seat]:
                    bag[PIECE_INDEX[piece]] += 1
            pieces = [PIECES[i] for i, n in enumerate(bag) for _ in range(n)]
            rng.shuffle(pieces)
            held = list(state["held"])
            for seat in seats:
                n = len(held[seat])
                held[seat], pieces = pieces[:n], pieces[n:]
            newbag = [0] * len(PIECES)
            for piece in pieces:
                newbag[PIECE_INDEX[piece]] += 1
            s["held"], s["bag"] = held, newbag
        return s

    # -- end -----------------------------------------------------------------

    def result(self, state: dict) -> Result | None:
        if not state["finished"]:
            return None
        row = state["row"]
        breakdown, scores = [], []
        for seat in (0, 1):
            mine = [v for v in range(1, ROW + 1) if state["owner"][v - 1] == seat]
            names = [row[v - 1] for v in mine]
            b = score_breakdown(names, [state["poles"][v - 1] for v in mine])
            b["seat"] = seat
            b["owned"] = [{"village": v, "name": row[v - 1], "pole": list(state["poles"][v - 1])}
                          for v in mine]
            breakdown.append(b)
            scores.append(b["total"])
        claims = state["claims"]
        keys = tie_break_keys(scores, claims)
        placings = tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)
        tie_break = tie = None
        if scores[0] == scores[1]:
            a, b = keys
            heads = [k[1] for k in keys]
            if a == b:
                tie_break = "draw: equal scores and equal headdress record (house rule 9)"
                tie = {"winner": None, "rule": "draw"}
            elif heads[0] == heads[1] == HEADDRESSES:
                w = 0 if a > b else 1
                tie_break = (f"seat {w} placed the third headdress first "
                             f"(turn {-keys[w][2]} against turn {-keys[1 - w][2]})")
                tie = {"winner": w, "rule": "third", "mine": -keys[w][2], "theirs": -keys[1 - w][2]}
            elif heads[0] != heads[1]:
                w = 0 if heads[0] > heads[1] else 1
                tie_break = (f"seat {w} placed more headdresses ({heads[w]} against {heads[1 - w]}, "
                             f"house rule 9)")
                tie = {"winner": w, "rule": "more", "mine": heads[w], "theirs": heads[1 - w]}
            else:
                w = 0 if a > b else 1
                tie_break = (f"seat {w} placed the last headdress earlier "
                             f"(turn {-keys[w][2]} against turn {-keys[1 - w][2]}, house rule 9)")
                tie = {"winner": w, "rule": "last", "mine": -keys[w][2], "theirs": -keys[1 - w][2]}
        winners = [s for s in (0, 1) if placings[s] == 1]
        headline = "draw" if len(winners) == 2 else f"seat {winners[0]} wins {scores[0]}-{scores[1]}" \
            if winners[0] == 0 else f"seat 1 wins {scores[1]}-{scores[0]}"
        reason = f"{headline}; {END_REASONS.get(state['end_reason'], state['end_reason'])}"
        if tie_break:
            reason += f"; tie: {tie_break}"
        unclaimed = [{"village": v, "name": row[v - 1], "pole": list(state["poles"][v - 1])}
                     for v in range(1, ROW + 1) if state["owner"][v - 1] is None]
        detail = {
            "end": state["end_reason"],
            "breakdown": breakdown,
            "row": list(row),
            "removed_villages": list(state["removed"]),
            "claims": [{"seat": s, "village": v, "name": row[v - 1], "turn": t} for s, v, t in claims],
            "tie_break": tie_break,
            # the same as data, for texts that name the seats (describe_result)
            "tie_break_key": tie,
            "unclaimed": unclaimed,
            "held": [list(h) for h in state["held"]],
        }
        return Result(tuple(scores), placings, reason, detail)

    # -- notation --------------------------------------------------------------

    def describe(self, item: dict, viewer=SPECTATOR, names=None) -> str:
        kind = item.get("type") if isinstance(item, dict) else None
        if kind == "build":
            return f"build {item.get('piece')} on {item.get('village')}"
        if kind == "claim":
            return f"claim {item.get('village')}"
        if kind == "pass":
            return "pass"
        who = name_seat(item.get("player"), names, capital=True)
        if kind == "PieceDrawn":
            piece = item.get("piece") or (item.get("secret") or {}).get("piece")
            return f"{who} drew {'a ' + piece.capitalize() if piece else 'a piece'} from the bag."
        if kind == "PieceBuilt":
            return f"{who} built a {item['piece'].capitalize()} on {_village(item)}."
        if kind == "PoleClaimed":
            return f"{who} crowned the pole on {_village(item)} with a headdress."
        if kind == "VillageOpened":
            return f"V{_village(item)[1:]} opened."
        if kind == "Passed":
            return f"{who} could not act and passed."
        if kind == "PlayerStopped":
            return f"{who} has no headdress left and the bag is empty: {who} stops, the other player plays on."
        if kind == "StartPlayerChosen":
            return f"{who} starts."
        if kind == "VillagesDealt":
            shown = ", ".join(f"{i + 1} {v.capitalize() if v else '(face down)'}"
                              for i, v in enumerate(item["row"]))
            return f"Villages laid out: {shown}; 2 villages went back to the box unseen."
        if kind == "GameEnded":
            removed = ", ".join(v.capitalize() for v in item.get("removed", ()))
            return (f"Game over: {END_REASONS.get(item.get('reason'), item.get('reason'))}. "
                    f"Villages removed at setup: {removed}.")
        return super().describe(item, viewer, names)

    def describe_result(self, result, names=None) -> str:
        data = result.as_dict() if isinstance(result, Result) else dict(result or {})
        scores, winners = data.get("scores") or [0, 0], data.get("winners") or []
        if len(winners) == 1:
            w = winners[0]
            head = f"{name_seat(w, names, capital=True)} won {scores[w]}-{scores[1 - w]}"
        else:
            head = f"Draw {scores[0]}-{scores[1]}"
        detail = data.get("detail") or {}
        end = END_REASONS.get(detail.get("end"), detail.get("end") or "")
        text = head + (f": {end}" if end else "")
        tie = detail.get("tie_break_key")
        if tie:
            text += "; tie broken: " + _tie_words(tie, names)
        return text + "."

    def parse(self, text: str, state: dict, player: int, names=None) -> dict:
        if not isinstance(text, str):
            self._parse_error(state, player, "a move is a line of text")
        text = plain_width(text)
        words = [w for w in re.split(r"[\s,.:;!]+", text.strip().lower()) if w and w not in FILLER]
        if not words:
            self._parse_error(state, player, "empty move")
        verb, args = words[0], words[1:]
        if verb in ("pass", "p") and not args:
            return {"type": "pass"}
        if verb in ("claim", "c", "crown") and len(args) == 1:
            return {"type": "claim", "village": self._parse_village(args[0], state, player)}
        if verb in ("build", "b", "place", "put") and len(args) == 2:
            a, b = args
            if a in PIECE_ALIASES and not b.lstrip("#").isdigit() and b not in VILLAGE_ALIASES:
                self._parse_error(state, player, f"unknown village {b!r}")
            if a.lstrip("#").isdigit() and b in PIECE_ALIASES:
                a, b = b, a
            if a not in PIECE_ALIASES:
                self._parse_error(state, player, f"unknown piece {a!r}")
            return {"type": "build", "piece": PIECE_ALIASES[a],
                    "village": self._parse_village(b, state, player)}
        self._parse_error(state, player, f"cannot read {text.strip()!r}")

    def _parse_village(self, word: str, state: dict, player: int) -> int:
        digits = word.lstrip("#")
        if digits.isdigit():
            v = int(digits)
            if 1 <= v <= ROW:
                return v
            self._parse_error(state, player, f"villages are numbered 1-{ROW}, not {v}")
        name = VILLAGE_ALIASES.get(word)
        if name is not None:
            for v in range(1, ROW + 1):
                if state["row"][v - 1] == name and self._sees_village(state, v, player):
                    return v
            self._parse_error(state, player, f"no face-up {name} village in the row")
        self._parse_error(state, player, f"unknown village {word!r}")

    def _parse_error(self, state: dict, player: int, message: str):
        try:
            legal = self.legal_moves(state, player)
        except Exception:  # noqa: BLE001 - help text must never fail
            legal = []
        examples = [self.describe(m, player) for m in legal[:4]] or ["build sun on 2", "claim 3", "pass"]
        raise ParseError("bad_notation", message,
                         expected="'build <piece> on <village>', 'claim <village>' or 'pass'",
                         examples=examples)

    def render(self, state: dict, viewer=SPECTATOR, names=None, whole=False) -> str:
        v = self.view(state, viewer)
        who = [name_seat(seat, names) for seat in (0, 1)]
        head = ("game over" if v["finished"] else "being set up" if v["current"] is None  # version 0
                else f"{who[v['current']]} to act")
        lines = [f"Wakanda - turn {v['turn']} - {head}"
                 + (f" - {who[v['start_player']]} started" if v["start_player"] is not None else "")]
        flags = [k for k in ("hidden_held_pieces", "hidden_future_villages", "allow_empty_claim", BUILD_AFTER_BAG)
                 if state["options"].get(k)]
        if flags:
            lines.append("Options: " + ", ".join(flags))
        lines.append("Villages (each village you claim scores all of your poles; poles bottom to top):")
        turns = {c["village"]: c["turn"] for c in v["claims"]}
        for vil in v["villages"]:
            name = (vil["village"] or "face down").capitalize()
            rule = VILLAGE_RULES.get(vil["village"], "")
            if vil["state"] == "claimed":
                status = f"claimed by {who[vil['owner']]} (turn {turns[vil['position']]})"
            else:
                status = vil["state"]
            pole = " ".join(p.capitalize() for p in vil["pole"]) or "-"
            lines.append(f"  {vil['position']} {name:<9} {rule:<27} {status:<26} {pole}")
        lines.append("  " + SUN_PENALTY)
        for pl in v["players"]:
            hand = (", ".join(p.capitalize() for p in pl["held"]) or "nothing") if pl["held"] is not None \
                else f"{pl['held_count']} hidden piece(s)"
            stopped = "; stopped (no headdress, the bag empty)" if pl["seat"] in v["stopped"] else ""
            lines.append(f"{name_seat(pl['seat'], names, capital=True)}: {pl['headdresses']} headdress(es) left; "
                         f"holds {hand}{stopped}")
        lines.append(("Final score: " if v["finished"] else "Score now: ")
                     + "; ".join(f"{who[seat]} {self._score_words(state, seat)}" for seat in (0, 1)))
        unseen = ", ".join(f"{n} {p.capitalize()}" for p, n in v["unseen"].items()) or "nothing"
        lines.append(f"Bag: {v['bag_count']} piece(s); not in sight: {unseen}")
        if v["finished"]:
            lines.append("Removed villages: " + ", ".join(x.capitalize() for x in v["removed_villages"]))
            lines.append(self.describe_result(self.result(state), names))
        return "\n".join(lines)

    @staticmethod
    def _score_words(state: dict, seat: int) -> str:
        """"12 (Eagle 8, Height 6, Sun penalty -2)": what the seat's claimed
        villages give it now (claimed villages are face up, poles public)."""
        mine = [v for v in range(1, ROW + 1) if state["owner"][v - 1] == seat]
        b = score_breakdown([state["row"][v - 1] for v in mine], [state["poles"][v - 1] for v in mine])
        parts = [f"{name.capitalize()} {points}" for name, points in b["villages"].items()]
        if b["sun_penalty"]:
            parts.append(f"Sun penalty {b['sun_penalty']}")
        return f"{b['total']}" + (f" ({', '.join(parts)})" if parts else "")

    # -- snapshots -------------------------------------------------------------

    def dump(self, state: dict) -> dict:
        return state

    def load(self, data: dict) -> dict:
        return data


register(Wakanda())


class WakandaV1(Wakanda):
    """``wakanda@1``, the rules of the games created before ``wakanda@2``:
    a player out of headdresses builds on with the pieces they hold once
    the bag is empty (the English rulebook's reading; ``@2`` has it as the
    ``build_after_bag_empty`` option, and plays the source's by default).
    Kept so that games in progress, and their records, play on as they
    began."""

    version = 1
    options = tuple(o for o in Wakanda.options if o.name != BUILD_AFTER_BAG)
    sample_setups = ((2, {}), (2, {"hidden_held_pieces": True, "hidden_future_villages": True}))


register(WakandaV1())
