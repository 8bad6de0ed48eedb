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
import unicodedata

from . import register
from .base import (OMNISCIENT, SPECTATOR, BadOptions, Game, IllegalMove, Option, ParseError, Result,
                   name_seat, plain_width)
from .i18n import CHINESE, ENGLISH, N_, _, join_words, ngettext, notation_language, pgettext

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

# --------------------------------------------------------------------------
# The notation's words. Not messages: a move line must paste back as it
# was written, so each language's words are fixed here (the Chinese from
# the glossary, shared/rules/glossary-zh-Hant.md, and the source's scoring
# list); ``describe`` writes the words of ``notation_language()`` and
# ``parse`` reads every word of both, in any mix.

#: piece or village name -> the word a move line names it by, per language
WORDS = {
    ENGLISH: {v: v for v in VILLAGES},
    CHINESE: {"eagle": "老鷹", "chief": "酋長", "tomahawk": "戰斧", "fur": "毛皮", "tipi": "帳篷", "sun": "太陽",
              "variety": "顏色", "height": "高度"},
}
#: the command words, per language
VERBS = {
    ENGLISH: {"build": "build", "on": "on", "claim": "claim", "pass": "pass"},
    CHINESE: {"build": "建造", "on": "在", "claim": "完成", "pass": "跳過"},
}
#: the examples the help shows, per language (each parses wherever a seat is to act)
EXAMPLES = {
    ENGLISH: {"build": ["build sun on 2", "b sun 2", "build 2 sun"], "claim": ["claim 3", "c 3"]},
    CHINESE: {"build": ["建造 太陽 在 2", "建造 太陽 2", "建造 2 太陽"], "claim": ["完成 3"]},
}

PIECE_ALIASES = {p: p for p in PIECES}
PIECE_ALIASES.update({p + "s": p for p in PIECES})
PIECE_ALIASES.update({"tepee": "tipi", "teepee": "tipi", "tepees": "tipi", "teepees": "tipi",
                      "furs": "fur", "suns": "sun", "axe": "tomahawk", "tomahawks": "tomahawk"})
PIECE_ALIASES.update({WORDS[CHINESE][p]: p for p in PIECES})
PIECE_ALIASES.update({"鷹": "eagle", "部落酋長": "chief", "斧": "tomahawk", "斧頭": "tomahawk", "毛": "fur",
                      "皮毛": "fur", "帳": "tipi", "帳棚": "tipi"})
VILLAGE_ALIASES = {v: v for v in VILLAGES}
VILLAGE_ALIASES.update({"colour": "variety", "color": "variety", "colours": "variety",
                        "colors": "variety", "tallest": "height",
                        "tepee": "tipi", "teepee": "tipi"})
VILLAGE_ALIASES.update({WORDS[CHINESE][v]: v for v in VILLAGES})
VILLAGE_ALIASES.update({"鷹": "eagle", "部落酋長": "chief", "帳棚": "tipi", "種類": "variety", "多樣": "variety",
                        "最高": "height"})
VERB_ALIASES = {"build": "build", "b": "build", "place": "build", "put": "build", "建造": "build", "建": "build",
                "放": "build", "放置": "build", "疊": "build",
                "claim": "claim", "c": "claim", "crown": "claim", "完成": "claim", "獲得": "claim",
                "pass": "pass", "p": "pass", "跳過": "pass"}
FILLER = {"on", "onto", "at", "to", "village", "pole", "a", "the", "#", "no", "no.",
          "在", "於", "到", "上", "上方", "第", "號", "村莊", "村莊板塊", "村", "圖騰柱", "一個", "個", "把", "將"}
# Chinese is typed without spaces ("建造太陽在2"): each known Chinese word
# is set apart before the line is split (the longest first).
_CHINESE_WORDS = re.compile("(" + "|".join(re.escape(w) for w in sorted(
    {w for w in (*PIECE_ALIASES, *VILLAGE_ALIASES, *VERB_ALIASES, *FILLER) if not w.isascii()},
    key=len, reverse=True)) + ")")

BUILD_KEYS = frozenset(("type", "piece", "village"))
CLAIM_KEYS = frozenset(("type", "village"))
PASS_KEYS = frozenset(("type",))

END_REASONS = {
    "all_claimed": N_("all six poles are claimed"),
    "both_passed": N_("both players passed in a row (house rule 8)"),
    "stopped": N_("one player stopped (no headdress, the bag empty) and the other could neither build nor claim"),
}
#: What each village scores, in words (every village its owner claimed
#: scores all of that owner's poles).
VILLAGE_RULES = {
    "eagle": N_("8 per Eagle"), "chief": N_("5 per Chief"), "tomahawk": N_("4 per Tomahawk"),
    "fur": N_("3 per Fur"), "tipi": N_("2 per Tipi"), "sun": N_("1 per Sun, no Sun penalty"),
    "variety": N_("2 per kind of piece"), "height": N_("2 per piece of the tallest pole"),
}
SUN_PENALTY = N_("Sun penalty: without the Sun village, -1 per Sun on your poles.")
#: The option that keeps the English rulebook's reading of the end (absent
#: from wakanda@1, whose games all play that reading).
BUILD_AFTER_BAG = "build_after_bag_empty"


def word(name: str) -> str:
    """A piece's or village's word in the language move lines are written in."""
    return WORDS[notation_language()].get(name, str(name))


def verb(key: str) -> str:
    """The notation's command word ``key`` in the language move lines are written in."""
    return VERBS[notation_language()][key]


def title(name) -> str:
    """A piece or a village as a sentence names it ("Eagle", 老鷹)."""
    return {
        "eagle": pgettext("wakanda", "Eagle"), "chief": pgettext("wakanda", "Chief"),
        "tomahawk": pgettext("wakanda", "Tomahawk"), "fur": pgettext("wakanda", "Fur"),
        "tipi": pgettext("wakanda", "Tipi"), "sun": pgettext("wakanda", "Sun"),
        "variety": pgettext("wakanda", "Variety"), "height": pgettext("wakanda", "Height"),
    }.get(name, str(name))


def a_piece(name: str) -> str:
    """A piece with its article ("a Sun", "an Eagle"; Chinese has none)."""
    return {
        "eagle": pgettext("wakanda", "an Eagle"), "chief": pgettext("wakanda", "a Chief"),
        "tomahawk": pgettext("wakanda", "a Tomahawk"), "fur": pgettext("wakanda", "a Fur"),
        "tipi": pgettext("wakanda", "a Tipi"), "sun": pgettext("wakanda", "a Sun"),
    }.get(name, str(name))


def end_words(reason) -> str:
    """Why the game ended, in the reader's language."""
    return _(END_REASONS[reason]) if reason in END_REASONS else str(reason or "")


def village_rule(name) -> str:
    """What a village scores, in the reader's language ("" for a face-down one)."""
    return _(VILLAGE_RULES[name]) if name in VILLAGE_RULES else ""


def quoted(text: str) -> str:
    """A move line quoted in a sentence ('claim 3' / 「完成 3」)."""
    # i18n: a move line quoted in a sentence
    return _("'{text}'", text=text)


def _village(item: dict) -> str:
    """"village 2 (Eagle)" where the event names it (events before names
    were added say only the number)."""
    name = item.get("name")
    if name:
        return _("village {n} ({name})", n=item.get("village"), name=title(name))
    return _("village {n}", n=item.get("village"))


def _tie_words(tie: dict, names=None) -> str:
    """A tie-break in words, from ``Result.detail["tie_break_key"]``."""
    w, rule = name_seat(tie["winner"], names), tie["rule"]
    if rule == "draw":
        return _("equal headdress records: a draw (house rule 9)")
    if rule == "more":
        return _("{who} placed more headdresses ({mine} against {theirs}, house rule 9)", who=w,
                 mine=tie["mine"], theirs=tie["theirs"])
    if rule == "third":
        return _("{who} placed the third headdress first (turn {mine} against turn {theirs})", who=w,
                 mine=tie["mine"], theirs=tie["theirs"])
    return _("{who} placed the last headdress earlier (turn {mine} against turn {theirs})", who=w,
             mine=tie["mine"], theirs=tie["theirs"])


def _sentences(*texts: str) -> str:
    """Sentences one after the other ("A. B." / 「甲。乙。」), empty ones left out."""
    texts = [t for t in texts if t]
    out = texts[0] if texts else ""
    for text in texts[1:]:
        # i18n: two sentences one after the other (Chinese puts no space between them)
        out = _("{first} {second}", first=out, second=text)
    return out


def columns(text: str) -> int:
    """How many columns ``text`` takes in a monospace font (a CJK character two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - columns(text))


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
        turns = [turn for s, _v, turn in claims if s == seat]
        keys.append((score, len(turns), -turns[-1] if turns else 0))
    return keys


# --------------------------------------------------------------------------


class Wakanda(Game):
    name = "wakanda"
    version = 2
    title = N_("Wakanda")
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
               N_("The English rulebook's reading: a player out of headdresses keeps building with the pieces "
                  "they hold after the bag is empty (until they hold none). Default: the source's, such a player "
                  "stops once the bag is empty.")),
        Option("allow_empty_claim", False,
               N_("House rule 3 off: a pole with no pieces may be claimed (default: no empty claims).")),
        Option("hidden_held_pieces", False,
               N_("Held pieces are secret to their owner (default: public, house rule 4).")),
        Option("hidden_future_villages", False,
               N_("Advanced variant: villages 4-6 lie face down until they open.")),
        Option("fixed_villages", [],
               N_("Scripted setups: 6 village names in row order (the other 2 are removed), or 8 "
                  "(row order, then the 2 removed). Empty = shuffled. Makes the setup public."),
               kind=list, unique=True),
        Option("fixed_bag", [],
               N_("Scripted setups: the first pieces drawn, in order (a part of the 21 pieces); "
                  "later draws are random. Empty = all random. Makes the draws public."),
               kind=list),
        Option("start_player", -1, N_("Start seat, 0 or 1; -1 = random (house rule 10)."),
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

    # -- words ---------------------------------------------------------------

    @property
    def notation_help(self) -> str:
        """The help for every setup, in the reader's language
        (``notation_help_for`` fits it to the options)."""
        return self._help_head() + "\n" + self._end_words(None)

    def _help_head(self) -> str:
        """The moves, the pieces and villages, the scoring: the help for any setup."""
        examples = EXAMPLES[notation_language()]
        build, claim = self._syntax()
        rows = [
            (build, _("for example {examples}", examples=_(", ").join(quoted(e) for e in examples["build"]))),
            (claim,
             _("for example {examples}", examples=_(", ").join(quoted(e) for e in examples["claim"]))),
            (verb("pass"), _("only when you can neither build nor claim")),
        ]
        width = max(columns(r[0]) for r in rows) + 3
        lines = [_("Wakanda moves (one per line; capitals do not matter):")]
        lines += ["  " + _pad(example, width) + what for example, what in rows]
        lines.append(_("Pieces: {pieces}.", pieces=_(", ").join(word(p) for p in PIECES)))
        lines.append(_("Villages are numbered 1-6 from left to right; a face-up one may also go by its name:\n"
                       "  {villages}.", villages=_(", ").join(word(v) for v in VILLAGES)))
        lines.append(_("Scoring: each village you claim scores all of your poles:"))
        lines += ["  " + _("{village}: {rule}", village=title(v), rule=village_rule(v)) for v in VILLAGES]
        lines.append(_(SUN_PENALTY))
        lines.append(_("On a tie, whoever placed their third headdress first wins."))
        return "\n".join(lines)

    @staticmethod
    def _syntax() -> tuple[str, str]:
        """The shapes of a build and a claim ("build <piece> on <village>")."""
        # i18n: stands for a piece's name in the shape of a move line: build <piece> on <village>
        piece = _("<piece>")
        # i18n: stands for a village's number or name in the shape of a move line
        village = _("<village>")
        return f"{verb('build')} {piece} {verb('on')} {village}", f"{verb('claim')} {village}"

    @staticmethod
    def _end_words(build_after_bag: bool | None) -> str:
        """How the game ends, under the end rule in play (None: both rules)."""
        if build_after_bag is None:
            return _("The game ends when all six poles are claimed. A player out of headdresses keeps building "
                     "until the bag is empty, then stops; with the build_after_bag_empty option, until they "
                     "hold no piece either.")
        if build_after_bag:
            return _("The game ends when all six poles are claimed. A player out of headdresses keeps building "
                     "with the pieces they hold, also once the bag is empty.")
        return _("The game ends when all six poles are claimed. A player out of headdresses keeps building "
                 "until the bag is empty, then stops.")

    def notation_help_for(self, options: dict) -> str:
        notes = [_("An empty pole may be claimed.") if options.get("allow_empty_claim")
                 else _("A pole must hold a piece before it is claimed.")]
        if options.get("hidden_future_villages"):
            notes.append(_("Villages 4-6 lie face down until they open."))
        if options.get("hidden_held_pieces"):
            notes.append(_("Held pieces are secret."))
        return "\n".join([self._help_head(), self._end_words(options.get(BUILD_AFTER_BAG, True)),
                          _sentences(*notes)])

    def notation_examples(self, options: dict) -> list[str]:
        examples = EXAMPLES[notation_language()]
        return [*examples["build"], *examples["claim"], verb("pass")]

    def describe_setup(self, options: dict, players: int | None = None) -> str:
        parts = [_("Wakanda"), ngettext("{n} player", "{n} players", 2)]
        parts.append(_("a player out of headdresses builds on with the pieces they hold once the bag is empty "
                       "(the English rulebook)") if options.get(BUILD_AFTER_BAG, True)
                     else _("a player out of headdresses stops once the bag is empty (the source)"))
        parts.append(_("held pieces secret") if options.get("hidden_held_pieces") else _("held pieces public"))
        if options.get("hidden_future_villages"):
            parts.append(_("villages 4-6 face down until they open"))
        if options.get("allow_empty_claim"):
            parts.append(_("empty poles may be claimed"))
        if options.get("fixed_villages"):
            parts.append(_("villages in a fixed order"))
        if options.get("fixed_bag"):
            parts.append(ngettext("the first draw fixed", "the first {n} draws fixed", len(options["fixed_bag"])))
        if options.get("start_player", -1) >= 0:
            parts.append(_("seat {seat} starts", seat=options["start_player"]))
        return _("; ").join(parts) + _(".")

    # -- options -------------------------------------------------------------

    def check_setup(self, players: int, options: dict) -> None:
        fixed = options["fixed_villages"]
        if fixed:
            if len(fixed) not in (ROW, ROW + REMOVED) or not all(isinstance(v, str) for v in fixed):
                raise BadOptions("bad_option_value", _("fixed_villages lists 6 or 8 village names."),
                                 option="fixed_villages")
            if any(v not in VILLAGES for v in fixed) or len(set(fixed)) != len(fixed):
                raise BadOptions("bad_option_value",
                                 _("fixed_villages must be distinct names from {names}.",
                                   names=", ".join(VILLAGES)),
                                 option="fixed_villages")
        bag = options["fixed_bag"]
        left = list(PIECE_COUNTS)
        for piece in bag:
            if not isinstance(piece, str) or piece not in PIECE_INDEX:
                raise BadOptions("bad_option_value", _("fixed_bag: unknown piece {piece}.", piece=repr(piece)),
                                 option="fixed_bag")
            left[PIECE_INDEX[piece]] -= 1
            if left[PIECE_INDEX[piece]] < 0:
                raise BadOptions("bad_option_value",
                                 _("fixed_bag has more {piece} pieces than the game has.", piece=piece),
                                 option="fixed_bag")

    # -- state ---------------------------------------------------------------

    def start(self, players: int, options: dict) -> dict:
        options = self.check_options(players, options)
        return {
            "options": options,
            "row": [None] * ROW,        # village names, true identities (filtered by view)
            "removed": [],              # the 2 villages back in the box
            "opened": 0,                # villages 1..opened are open (0 before setup)
            "poles": [[] for _i in range(ROW)],
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
            raise IllegalMove("bad_village", _("'village' must be a village number 1-{last}, not {value}.",
                                               last=ROW, value=repr(v)))
        if v > state["opened"]:
            raise IllegalMove("village_closed", _("Village {n} is still closed.", n=v))
        if state["owner"][v - 1] is not None:
            raise IllegalMove("village_claimed", _("The pole on village {n} is claimed already, by seat {seat}.",
                                                   n=v, seat=state["owner"][v - 1]))
        return v

    def decide(self, state: dict, player: int, move: dict, rng: random.Random) -> list:
        self.check_turn(state, player)
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove("malformed_move", _("A move is an object with a 'type'."))
        kind = move["type"]
        keys = move.keys()
        if kind == "build":
            if keys != BUILD_KEYS:
                raise IllegalMove("malformed_move", _("A build move takes exactly 'piece' and 'village'."))
            piece = move["piece"]
            if not isinstance(piece, str) or piece not in PIECE_INDEX:
                raise IllegalMove("bad_piece", _("'piece' must be one of {pieces}, not {value}.",
                                                 pieces=", ".join(PIECES), value=repr(piece)))
            v = self._village_arg(state, move)
            if piece not in state["held"][player]:
                raise IllegalMove("piece_not_held", _("You hold no {piece}.", piece=title(piece)))
            events = [{"type": "PieceBuilt", "player": player, "piece": piece, "village": v}]
        elif kind == "claim":
            if keys != CLAIM_KEYS:
                raise IllegalMove("malformed_move", _("A claim move takes exactly 'village'."))
            v = self._village_arg(state, move)
            if not state["headdresses"][player]:
                raise IllegalMove("no_headdress", _("You have placed all three of your headdresses."))
            if not state["poles"][v - 1] and not state["options"]["allow_empty_claim"]:
                raise IllegalMove("empty_pole", _("Village {n} has no pole yet: build on it before you claim it.",
                                                  n=v))
            events = [{"type": "PoleClaimed", "player": player, "village": v}]
            opened = state["opened"]
            if opened < ROW:
                events.append({"type": "VillageOpened", "village": opened + 1, "name": state["row"][opened]})
        elif kind == "pass":
            if keys != PASS_KEYS:
                raise IllegalMove("malformed_move", _("A pass move takes nothing more."))
            if self.can_act(state, player):
                raise IllegalMove("cannot_pass", _("You may pass only when you can neither build nor claim."))
            events = [{"type": "Passed", "player": player}]
        else:
            raise IllegalMove("unknown_move", _("There is no move '{type}' in Wakanda; the moves are build, claim "
                                                "and pass.", type=kind))
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
                "villages": [v for s, v, _t in state["claims"] if s == seat],
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
            pieces = [PIECES[i] for i, n in enumerate(bag) for _i in range(n)]
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
            return f"{verb('build')} {word(item.get('piece'))} {verb('on')} {item.get('village')}"
        if kind == "claim":
            return f"{verb('claim')} {item.get('village')}"
        if kind == "pass":
            return verb("pass")
        who = name_seat(item.get("player"), names, capital=True)
        if kind == "PieceDrawn":
            piece = item.get("piece") or (item.get("secret") or {}).get("piece")
            if piece:
                return _("{who} drew {piece} from the bag.", who=who, piece=a_piece(piece))
            return _("{who} drew a piece from the bag.", who=who)
        if kind == "PieceBuilt":
            return _("{who} built {piece} on {village}.", who=who, piece=a_piece(item["piece"]),
                     village=_village(item))
        if kind == "PoleClaimed":
            return _("{who} crowned the pole on {village} with a headdress.", who=who, village=_village(item))
        if kind == "VillageOpened":
            if item.get("name"):
                return _("Village {n} ({name}) opened.", n=item.get("village"), name=title(item["name"]))
            return _("Village {n} opened.", n=item.get("village"))
        if kind == "Passed":
            return _("{who} could not act and passed.", who=who)
        if kind == "PlayerStopped":
            return _("{who} has no headdress left and the bag is empty: {who} stops, the other player plays on.",
                     who=who)
        if kind == "StartPlayerChosen":
            return _("{who} starts.", who=who)
        if kind == "VillagesDealt":
            down = pgettext("wakanda", "(face down)")
            shown = _(", ").join(f"{i + 1} {title(v) if v else down}" for i, v in enumerate(item["row"]))
            return _("Villages laid out: {row}; 2 villages went back to the box unseen.", row=shown)
        if kind == "GameEnded":
            removed = join_words([title(v) for v in item.get("removed", ())])
            return _("Game over: {reason}. Villages removed at setup: {removed}.",
                     reason=end_words(item.get("reason")), removed=removed)
        return super().describe(item, viewer, names)

    def describe_result(self, result, names=None) -> str:
        data = result.as_dict() if isinstance(result, Result) else dict(result or {})
        scores, winners = data.get("scores") or [0, 0], data.get("winners") or []
        detail = data.get("detail") or {}
        end = end_words(detail.get("end"))
        if len(winners) == 1:
            w = winners[0]
            score = f"{scores[w]}-{scores[1 - w]}"
            who = name_seat(w, names, capital=True)
            text = (_("{who} won {score}: {end}.", who=who, score=score, end=end) if end
                    else _("{who} won {score}.", who=who, score=score))
        else:
            score = f"{scores[0]}-{scores[1]}"
            text = (_("A draw, {score}: {end}.", score=score, end=end) if end
                    else _("A draw, {score}.", score=score))
        tie = detail.get("tie_break_key")
        if tie:
            text = _sentences(text, _("Tie broken: {tie}.", tie=_tie_words(tie, names)))
        return text

    def parse(self, text: str, state: dict, player: int, names=None) -> dict:
        if not isinstance(text, str):
            self._parse_error(state, player, _("A move is a line of text."))
        text = plain_width(text)
        spaced = _CHINESE_WORDS.sub(r" \1 ", text.strip().lower())
        words = [w for w in re.split(r"[\s,.:;!]+", spaced) if w and w not in FILLER]
        if not words:
            self._parse_error(state, player, _("The move is empty."))
        # the command word first ("build sun on 2"), or where Chinese puts it ("把太陽建造在2")
        at = next((i for i, w in enumerate(words) if w in VERB_ALIASES), 0)
        verb_, args = VERB_ALIASES.get(words[at]), words[:at] + words[at + 1:]
        if verb_ == "pass" and not args:
            return {"type": "pass"}
        if verb_ == "claim" and len(args) == 1:
            return {"type": "claim", "village": self._parse_village(args[0], state, player)}
        if verb_ == "build" and len(args) == 2:
            a, b = args
            if a in PIECE_ALIASES and not b.lstrip("#").isdigit() and b not in VILLAGE_ALIASES:
                self._parse_error(state, player, _("There is no village '{village}'.", village=b))
            if a.lstrip("#").isdigit() and b in PIECE_ALIASES:
                a, b = b, a
            if a not in PIECE_ALIASES:
                self._parse_error(state, player, _("There is no piece '{piece}'.", piece=a))
            return {"type": "build", "piece": PIECE_ALIASES[a],
                    "village": self._parse_village(b, state, player)}
        self._parse_error(state, player, _("Could not read '{text}' as a move.", text=text.strip()))

    def _parse_village(self, word_: str, state: dict, player: int) -> int:
        digits = word_.lstrip("#")
        if digits.isdigit():
            v = int(digits)
            if 1 <= v <= ROW:
                return v
            self._parse_error(state, player, _("Villages are numbered 1-{last}, not {n}.", last=ROW, n=v))
        name = VILLAGE_ALIASES.get(word_)
        if name is not None:
            for v in range(1, ROW + 1):
                if state["row"][v - 1] == name and self._sees_village(state, v, player):
                    return v
            self._parse_error(state, player, _("No face-up {village} village is in the row.", village=title(name)))
        self._parse_error(state, player, _("There is no village '{village}'.", village=word_))

    def _parse_error(self, state: dict, player: int, message: str):
        try:
            legal = self.legal_moves(state, player)
        except Exception:  # noqa: BLE001 - help text must never fail
            legal = []
        examples = [self.describe(m, player) for m in legal[:4]] or self.notation_examples({})
        build, claim = self._syntax()
        expected = _("{build}, {claim} or {pass_}", build=quoted(build), claim=quoted(claim),
                     pass_=quoted(verb("pass")))
        raise ParseError("bad_notation", message, expected=expected, examples=examples)

    def render(self, state: dict, viewer=SPECTATOR, names=None, whole=False) -> str:
        v = self.view(state, viewer)
        who = [name_seat(seat, names) for seat in (0, 1)]
        head = [_("Wakanda"), _("turn {turn}", turn=v["turn"])]
        head.append(pgettext("wakanda", "game over") if v["finished"]
                    else pgettext("wakanda", "being set up") if v["current"] is None  # version 0
                    else _("{who} to act", who=who[v["current"]]))
        if v["start_player"] is not None:
            head.append(_("{who} started", who=who[v["start_player"]]))
        lines = [" - ".join(head)]
        options = state["options"]
        flags = [text for key, text in (
            ("hidden_held_pieces", _("held pieces secret")),
            ("hidden_future_villages", _("villages 4-6 face down until they open")),
            ("allow_empty_claim", _("empty poles may be claimed")),
            (BUILD_AFTER_BAG, _("a player out of headdresses builds on once the bag is empty"))) if options.get(key)]
        if flags:
            lines.append(_("Options: {options}", options=_("; ").join(flags)))
        lines.append(_("Villages (each village you claim scores all of your poles; poles bottom to top):"))
        turns = {c["village"]: c["turn"] for c in v["claims"]}
        rows = []
        for vil in v["villages"]:
            name = title(vil["village"]) if vil["village"] else pgettext("wakanda", "Face down")
            if vil["state"] == "claimed":
                status = _("claimed by {who} (turn {turn})", who=who[vil["owner"]], turn=turns[vil["position"]])
            else:
                status = pgettext("wakanda", "open") if vil["state"] == "open" else pgettext("wakanda", "closed")
            pole = " ".join(title(p) for p in vil["pole"]) or "-"
            rows.append((str(vil["position"]), name, village_rule(vil["village"]), status, pole))
        widths = [max(columns(r[i]) for r in rows) for i in range(4)]
        for row in rows:
            lines.append("  " + " ".join(_pad(cell, widths[i]) for i, cell in enumerate(row[:4])) + " " + row[4])
        lines.append("  " + _(SUN_PENALTY))
        for pl in v["players"]:
            seat = pl["seat"]
            if pl["held"] is None:
                hand = ngettext("{n} hidden piece", "{n} hidden pieces", pl["held_count"])
            else:
                hand = _(", ").join(title(p) for p in pl["held"]) or pgettext("wakanda", "nothing")
            say = dict(who=name_seat(seat, names, capital=True), held=hand)
            if seat in v["stopped"]:
                lines.append(ngettext("{who}: {n} headdress left; holds {held}; stopped (no headdress, the bag empty)",
                                      "{who}: {n} headdresses left; holds {held}; stopped (no headdress, the bag "
                                      "empty)", pl["headdresses"], **say))
            else:
                lines.append(ngettext("{who}: {n} headdress left; holds {held}",
                                      "{who}: {n} headdresses left; holds {held}", pl["headdresses"], **say))
        scores = _("; ").join(f"{who[seat]} {self._score_words(state, seat)}" for seat in (0, 1))
        lines.append(_("Final score: {scores}", scores=scores) if v["finished"]
                     else _("Score now: {scores}", scores=scores))
        unseen = _(", ").join(f"{title(p)} ×{n}" for p, n in v["unseen"].items()) or pgettext("wakanda", "nothing")
        lines.append(ngettext("Bag: {n} piece; not in sight: {unseen}", "Bag: {n} pieces; not in sight: {unseen}",
                              v["bag_count"], unseen=unseen))
        if v["finished"]:
            lines.append(_("Removed villages: {villages}",
                           villages=_(", ").join(title(x) for x in v["removed_villages"])))
            lines.append(self.describe_result(self.result(state), names))
        return "\n".join(lines)

    @staticmethod
    def _score_words(state: dict, seat: int) -> str:
        """"12 (Eagle 8, Height 6, Sun penalty -2)": what the seat's claimed
        villages give it now (claimed villages are face up, poles public)."""
        mine = [v for v in range(1, ROW + 1) if state["owner"][v - 1] == seat]
        b = score_breakdown([state["row"][v - 1] for v in mine], [state["poles"][v - 1] for v in mine])
        parts = [f"{title(name)} {points}" for name, points in b["villages"].items()]
        if b["sun_penalty"]:
            parts.append(_("Sun penalty {n}", n=b["sun_penalty"]))
        return f"{b['total']}" + (_(" ({parts})", parts=_(", ").join(parts)) if parts else "")

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
