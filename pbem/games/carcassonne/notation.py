"""Text notation: what a player types in an email, and event sentences.

The help (``help_for``) is the base game's lines, then each expansion's in
play, then the conventions, each line a move and what it does
(``BASE_HELP``, ``EXPANSION_TEXT``), in the reader's language: the words of
a move in its notation (``words.localize``: 放置 1,0 r90 隨從 城市 N for a
Chinese reader), what it does a message. Every help line is at most 80
columns (a Chinese character takes two).

A move naming a seat ("ransom seat 1") takes the player's name too
("ransom seat Ann", ``seats_by_name``), and the moves offered are written
with it (``name_in_move``). Event sentences and the board's lines name a
seat by ``seat(p)``, a mark ``names_in`` turns into the player's name (or
"seat 2" in the reader's language) once the names are known.
"""
from __future__ import annotations

import re

from ..base import ParseError, name_seat, seat_names
from ..i18n import N_, _, join_words, ngettext
from .columns import GLUE, WIDTH, pad, width, wrap
from .geometry import EDGE_INDEX, HALF_INDEX
from .orient import oriented
from .expansions.traders_builders_tiles import GOODS
from .words import chinese, localize

#: The help's lines: (move as typed, what it does). A move is written in the
#: reader's notation (``words.localize``); a line whose move starts with
#: "..." goes on from the one above.
BASE_HELP = (
    ("place X,Y rR", N_("place the drawn tile, no follower")),
    ("place X,Y rR follower city N", N_("... and a knight on the city at edge N")),
    ("place X,Y rR follower road E", N_("... a thief on the road at edge E")),
    ("place X,Y rR follower cloister", N_("... a monk on the cloister")),
    ("place X,Y rR farmer NL", N_("... a farmer on the field at half-edge NL")),
)
BASE_EXAMPLES = ("place 1,0 r90", "place 1,0 r90 follower city N", "place 1,0 r90 follower road E",
                 "place 1,0 r90 follower cloister", "place 0,1 r0 farmer NL")

#: name -> the expansion's title (a message), its help lines, its examples
#: (moves as typed, each parsing in any position of a game with it; the
#: bazaar's only while it is held: they are in the help, not here).
EXPANSION_TEXT = {
    "inns_cathedrals": (N_("Inns & Cathedrals"), (
        ("place X,Y rR big city N", N_("the big follower instead of a follower (big road E, big cloister, "
                                        "big farmer NL)")),
    ), ("place 1,0 r0 big city N",)),
    "traders_builders": (N_("Traders & Builders"), (
        ("place X,Y rR builder road E", N_("the builder instead, on a road or city with your follower "
                                            "(builder city N)")),
        ("place X,Y rR pig NL", N_("... the pig, in a field with your farmer")),
    ), ("place 1,0 r0 builder road E", "place 1,0 r0 pig NL")),
    "king_robber": (N_("King & Robber"), (), ()),
    "cult": (N_("Cult"), (
        ("place X,Y rR heretic", N_("a follower on the shrine (also: follower shrine)")),
    ), ("place 0,1 r0 heretic",)),
    "siege": (N_("Siege"), (
        ("escape X,Y city E", N_("when offered: your knight on that city segment leaves the besieged city")),
        ("no escape", N_("... or not (also: escape pass)")),
    ), ("escape 1,0 city E", "no escape")),
    "abbey_mayor": (N_("Abbey & Mayor"), (
        ("place X,Y rR mayor city N", N_("the mayor on a city")),
        ("place X,Y rR wagon road E", N_("... the wagon on a road, city or cloister")),
        ("place X,Y rR barn NE", N_("... the barn on a corner of the tile (NE SE SW NW)")),
        ("abbey X,Y", N_("when offered: the abbey instead of drawing (abbey X,Y monk, abbey X,Y big, "
                         "abbey X,Y wagon: with a figure on it)")),
        ("draw", N_("... or draw (also: pass)")),
        ("wagon X,Y road E", N_("when offered: the scored wagon moves there")),
        ("wagon home", N_("... or goes back to your supply")),
    ), ("place 1,0 r0 mayor city N", "place 1,0 r0 barn NE", "abbey 2,1", "draw", "wagon home")),
    "princess_dragon": (N_("The Princess & the Dragon"), (
        ("dragon N | E | S | W", N_("the dragon's step, when it is yours (also dragon X,Y: the tile it moves "
                                    "to)")),
        ("fairy X,Y road E", N_("step 5: the fairy next to your follower on that segment")),
        ("fairy X,Y road E big", N_("... next to your big follower")),
        ("fairy X,Y road E mayor", N_("... next to your mayor (or your wagon: fairy X,Y road E wagon)")),
        ("fairy X,Y", N_("with the fairy on a tile (option fairy_placement = on_tile): the fairy onto a "
                         "tile with your follower")),
        ("princess X,Y city N seat P", N_("step 5: the princess sends seat P's knight in that city home")),
        ("princess X,Y city N seat P big", N_("... seat P's big follower")),
        ("princess X,Y city N seat P mayor", N_("... seat P's mayor (or wagon)")),
        ("portal X,Y follower road E", N_("step 5: a follower through the magic portal (portal X,Y farmer NL, "
                                          "portal X,Y cloister)")),
        ("portal X,Y big city N", N_("... the big follower (portal X,Y big farmer NL)")),
        ("portal X,Y mayor city N", N_("... the mayor (or the wagon: portal X,Y wagon road E)")),
    ), ("dragon N", "fairy 1,0 road E", "princess 1,0 city N seat 1", "portal 1,0 follower road E", "pass")),
    "tower": (N_("The Tower"), (
        ("tower X,Y", N_("step 5: a floor on the tower at X,Y (then you may capture)")),
        ("tower X,Y top", N_("step 5: your follower on top closes the tower")),
        ("tower X,Y top big", N_("... your big follower")),
        ("capture X,Y road E seat P", N_("when offered: the follower the tower takes (seat P's, on that "
                                         "segment)")),
        ("capture X,Y tower seat P", N_("... the one on top of the tower at X,Y")),
        ("capture X,Y road E seat P big", N_("... seat P's big follower there")),
        ("capture X,Y road E seat P mayor", N_("... seat P's mayor (or wagon)")),
        ("capture none", N_("... or nobody (also: pass)")),
        ("exchange follower", N_("when offered: which of your followers comes back")),
        ("exchange big", N_("... your big follower")),
        ("exchange mayor", N_("... your mayor (or your wagon: exchange wagon)")),
        ("ransom seat P", N_("in your turn, once: 3 points to seat P for your follower it holds")),
        ("ransom seat P big", N_("... for your big follower")),
        ("ransom seat P mayor", N_("... for your mayor (or your wagon: ransom seat P wagon)")),
    ), ("tower 1,0", "tower 1,0 top", "capture 1,0 road E seat 1", "capture none", "exchange follower",
        "ransom seat 1", "pass")),
    "count": (N_("The Count of Carcassonne"), (
        ("enter castle count market", N_("when offered: your follower into a district of the City (castle, "
                                         "blacksmith, cathedral, market), the Count to another")),
        ("enter market big count castle", N_("... your big follower")),
        ("enter castle mayor count market", N_("... your mayor (the castle only), or your wagon (enter castle "
                                                "wagon count market)")),
        ("stay out", N_("... or not (also: pass)")),
        ("leave castle X,Y city N", N_("when offered: your follower leaves the district for that feature "
                                       "(castle: a city, blacksmith: a road, cathedral: a cloister; market: a "
                                       "field, at the end only)")),
        ("leave castle big X,Y city N", N_("... your big follower")),
        ("leave castle mayor X,Y city N", N_("... your mayor (or wagon)")),
    ), ("enter castle count market", "leave castle 1,0 city N", "stay out", "pass")),
    "bridges_castles_bazaars": (N_("Bridges, Castles & Bazaars"), (
        ("place X,Y rR bridge X2,Y2 NS", N_("a bridge north-south (or WE: west-east) with the placement, on "
                                            "that tile or next to it, before the figure (... NS follower "
                                            "road N)")),
        ("castle X,Y city N | no castle", N_("when offered: the small city becomes a castle, or not")),
        ("castle points X,Y road W", N_("when your castle may score one of several features: the one it "
                                        "scores, named by a segment of it")),
        ("bazaar N bid B", N_("when you host the bazaar: tile N (counted from 0) and your bid")),
        ("bazaar N", N_("the draft (bazaar_mode draft): when you choose, tile N (from 0), no bid")),
        ("bid B | pass", N_("when it is your bid: your bid B, or none")),
        ("buy | sell", N_("the host's choice after the bids: buy the tile, or sell it to the highest bidder")),
    ), ("place 1,0 r0 bridge 1,0 NS", "castle 1,0 city N", "no castle", "castle points 1,0 road W", "bazaar 0 bid 1",
        "bid 2", "pass", "buy", "sell")),
    "catapult": (N_("The Catapult"), (
        ("catapult knockout", N_("after a fair tile (catapult_mode abstract): your choice of round, knock-out "
                                 "or seduction (catapult seduction)")),
        ("shoot X,Y road E", N_("your secret shot at the follower on that segment, within 2 tiles of the fair")),
        ("no shot", N_("... or none (also: pass)")),
    ), ("catapult knockout", "shoot 1,0 road E", "no shot", "pass")),
    "wheel_of_fortune": (N_("The Wheel of Fortune (house reading)"), (
        ("wheel tax", N_("step 5: a follower from your supply on a free crown space of that sector (tax, famine, "
                         "storm, inquisition, plague)")),
        ("plague X,Y road E", N_("when the Plague strikes: which of your followers goes home (... big: your big "
                                 "follower there)")),
    ), ("wheel tax", "plague 1,0 road E", "pass")),
}
#: the expansions whose moves name a seat ("ransom seat 1")
SEAT_MOVES = ("princess_dragon", "tower")
#: the expansions that bring optional decisions "pass" declines
PASS_EXPANSIONS = ("princess_dragon", "tower", "count", "bridges_castles_bazaars", "tunnel", "catapult",
                   "wheel_of_fortune")
#: the figures of other expansions a move may name, and the expansion that brings each
FIGURE_EXPANSIONS = {"big": "inns_cathedrals", "mayor": "abbey_mayor", "wagon": "abbey_mayor"}
#: the stand-ins of the help's moves (an edge N stays N: bazaar N is the tile's number)
_STAND_INS = ("X,Y", "X2,Y2", "rR")
#: the notation column of the help (the move) and where its words start
HELP_COLUMN = 36


def expansion_text(name: str, expansions=None) -> tuple:
    """(title, help lines, examples) of an expansion, the title in the
    reader's language; with ``expansions`` (those in play), only the lines
    of the figures in play (a line naming a figure not in play is left out
    with the lines going on from it)."""
    title, lines, examples = EXPANSION_TEXT.get(name, (name.replace("_", " ").title(), (), ()))
    if expansions is not None:
        missing = {figure for figure, by in FIGURE_EXPANSIONS.items() if by not in expansions}
        kept, keep = [], True
        for move, doc in lines:
            if not doc.startswith("..."):
                keep = not missing & set(move.split())
            elif missing & set(move.split()):
                continue
            if keep:
                kept.append((move, doc))
        lines = tuple(kept)
    return _(title), lines, tuple(examples)


#: the help's stand-ins for what a move names (a message each: the reader's words for them)
PLACEHOLDERS = {"X,Y": N_("X,Y"), "X2,Y2": N_("X2,Y2"), "rR": N_("rR")}


def help_move(move: str, stand_ins=()) -> str:
    """A help line's move in the reader's notation, its stand-ins (``stand_ins``
    of ``PLACEHOLDERS``: X,Y, rR...) as the reader's words for them."""
    words = localize(move).split(" ")
    return " ".join(_(PLACEHOLDERS[w]) if w in PLACEHOLDERS and (not stand_ins or w in stand_ins) else w
                    for w in words)


def _help_lines(lines) -> list:
    """Help lines: the move in the reader's notation, what it does beside it
    (or under it, where the move is too long), cut at 80 columns."""
    out = []
    for move, doc in lines:
        head = "  " + help_move(move, _STAND_INS)
        text = wrap(_(doc), WIDTH - HELP_COLUMN, "")
        if width(head) + 2 <= HELP_COLUMN:
            out.append(pad(head, HELP_COLUMN) + text[0])
        else:
            out += [head, " " * HELP_COLUMN + text[0]]
        out += [" " * HELP_COLUMN + line.strip() for line in text[1:]]
    return out


#: joins the words of a move in a line being cut, so the move stays whole
_JOIN = GLUE


def _whole(text: str) -> str:
    return text.replace(" ", _JOIN)


def _conventions(examples) -> list:
    synonyms = ", ".join(_whole(f"{localize(a)} = {localize(b)}") for a, b in (
        ("knight", "follower city"), ("thief", "follower road"), ("monk", "follower cloister"),
        ("farmer", "follower field")))
    lines = [
        _("e.g. {examples}", examples=", ".join(_whole(localize(e)) for e in examples)),
        _("Coordinates: north is y-1; R is the clockwise rotation 0, 90, 180 or 270."),
        _("Edges N E S W and half-edges NL NR EL ER SL SR WL WR name the segment as it lies on the board "
          "after rotation; any edge of a segment names it (a city on N and W is \"{city_n}\" or "
          "\"{city_w}\").", city_n=_whole(localize("city N")), city_w=_whole(localize("city W"))),
        _("Synonyms: {synonyms}. Case and extra spaces do not matter.", synonyms=synonyms),
        _("English and Chinese words may be mixed: {words}...", words=", ".join(
            _whole(f"{w} = {chinese(w)}") for w in ("place", "follower", "city"))),
    ]
    return [piece.replace(_JOIN, " ") for line in lines for piece in wrap(line, WIDTH, "")]


def help_for(expansions) -> str:
    """The notation with only the rules of these expansions in play, in the
    reader's language (the moves in its notation)."""
    parts = [_("Carcassonne moves (one per line):")] + _help_lines(BASE_HELP)
    examples = list(BASE_EXAMPLES)
    for name in expansions:
        title, lines, more = expansion_text(name, expansions)
        if lines:
            parts.append("  " + _("{expansion}:", expansion=title))
            parts += _help_lines(lines)
        examples += more
    if any(name in PASS_EXPANSIONS for name in expansions):
        parts += _help_lines((("pass", N_("decline whatever optional decision you owe")),))
    if any(name in SEAT_MOVES for name in expansions):
        parts += wrap("  " + _("(seat P: the seat's number or its player's name as the board shows it, "
                               "e.g. {seat_number} or {seat_name})", seat_number=localize("seat 1"),
                               seat_name=localize("seat") + " Ann"), WIDTH, "")
    parts += _conventions(BASE_EXAMPLES)
    extra = [localize(e) for e in examples[len(BASE_EXAMPLES):]]
    if extra:                  # at most 80 columns, cut between examples (each stays whole)
        line = _("More examples:")
        for i, example in enumerate(extra):
            item = f" {example}" + ("," if i < len(extra) - 1 else ".")
            if width(line) + width(item) > WIDTH:
                parts.append(line)
                line = " "
            line += item
        parts.append(line)
    return "\n".join(parts)


def examples_for(expansions) -> list:
    """The examples of the help, in the reader's notation."""
    out = list(BASE_EXAMPLES)
    for name in expansions:
        out += EXPANSION_TEXT.get(name, ("", (), ()))[2]
    return [localize(e) for e in out]


def _option_choice(options: dict, name: str, default):
    return options.get(name, default)


def describe_setup(options: dict, players: int | None = None) -> str:
    """"Carcassonne with Inns & Cathedrals; 2 players; ..." in words."""
    titles = [expansion_text(name)[0] for name in options.get("expansions", ())]
    parts = [_("Carcassonne with {expansions}", expansions=join_words(titles)) if titles else _("Carcassonne")]
    if players is not None:
        parts.append(ngettext("{n} player", "{n} players", players))
    parts.append(_("farmers score 3 per completed city their field borders"))
    parts.append(ngettext("a completed 2-tile city scores {n} point", "a completed 2-tile city scores {n} points",
                          options.get("tiny_city_scoring", 4)))
    parts.append(_("a tile that fits nowhere is removed from the game")
                 if options.get("unplaceable_tile", "remove") == "remove"
                 else _("a tile that fits nowhere is put back and another drawn"))
    if options.get("draw_order"):
        parts.append(ngettext("a fixed draw pile of {n} tile", "a fixed draw pile of {n} tiles",
                              len(options["draw_order"])))
    if options.get("start_player", -1) >= 0:
        parts.append(_("seat {seat} starts", seat=options["start_player"]))
    expansions = options.get("expansions", ())
    if "king_robber" in expansions:
        parts.append(_(KING_ROBBER_SCORING.get(options.get("king_robber_scoring", "per_feature"),
                                               KING_ROBBER_SCORING["per_feature"])))
    if "cult" in expansions:
        parts.append(ngettext("{n} shrine tile", "{n} shrine tiles", options.get("cult_set", 6)))
    if "siege" in expansions:
        parts.append(_("an escape needs a monastery or shrine next to any tile of the besieged city")
                     if options.get("siege_escape_adjacency", "any_city_tile") == "any_city_tile"
                     else _("an escape needs a monastery or shrine next to a siege tile"))
        if options.get("besieged_tiny_city", "exempt") == "zero" and options.get("tiny_city_scoring", 4) == 2:
            parts.append(_("a completed besieged 2-tile city scores 0"))
    if "abbey_mayor" in expansions:
        parts.append(_(WAGON_MOVES.get(options.get("wagon_move", "along_road"), WAGON_MOVES["along_road"])))
        if options.get("barn_placement") == "no_farmers":
            parts.append(_("a barn only in a field without farmers"))
        if not options.get("abbey_after_last_tile", True):
            parts.append(_("no abbeys after the last tile"))
    if "princess_dragon" in expansions:
        if options.get("dragon_tiles_before_volcano", "set_aside") == "no_effect":
            parts.append(_("a dragon tile drawn before the first volcano is placed with no flight"))
        if options.get("volcano_blocks", "followers") == "all_figures":
            parts.append(_("a volcano tile forbids every figure that turn"))
        if options.get("dragon_move_timing", "before_scoring") == "after_scoring":
            parts.append(_("the dragon flies after the scoring"))
        if options.get("fairy_placement", "next_to_follower") == "on_tile":
            parts.append(_("the fairy goes onto a tile and counts for every follower there"))
        if options.get("princess_action", "may") == "must":
            parts.append(_("the princess must send a knight home"))
    if "count" in expansions and not options.get("count_final_scoring", True):
        parts.append(_("followers in the City of Carcassonne stay there for the final scoring"))
    if "bridges_castles_bazaars" in expansions:
        if options.get("castle_conversion_by", "knight_owner") == "active_player":
            parts.append(_("the player whose turn it is turns small cities into castles"))
        if options.get("castle_vicinity", "2x3") == "six_neighbours":
            parts.append(_("a castle is triggered by its 6 neighbouring tiles"))
        if options.get("castle_feature_choice", "highest") == "owner_choice":
            parts.append(_("a castle's owner chooses which feature it scores"))
        if options.get("bazaar_bid_cap", "none") == "current_score":
            parts.append(_("bazaar bids up to the bidder's score"))
        if options.get("bazaar_mode", "auction") == "draft":
            parts.append(_("the bazaar's tiles are picked in turn, with no bids"))
        if options.get("unplaceable_bazaar", "discard") == "auction":
            parts.append(_("a bazaar tile that fits nowhere still calls a bazaar"))
    if "catapult" in expansions:
        parts.append(_("after a fair tile, a catapult round of secret shots (house rule)")
                     if options.get("catapult_mode", "tiles_only") == "abstract"
                     else _("the fair tiles without the catapult"))
    if "wheel_of_fortune" in expansions:
        parts.append(_("the Wheel of Fortune is a house reading: its board, wheel tiles and event values are house "
                       "data, no published source gives them"))
        if options.get("wheel_tiles", "icons_only") == "full_set":
            parts.append(_("the Wheel of Fortune box's own 72 land tiles instead of the base game's 71 (which ones "
                           "is a house choice)"))
    if ("tower" in expansions or "bridges_castles_bazaars" in expansions) \
            and not options.get("allow_negative_scores", True):
        parts.append(_("no score may go below 0"))
    return _("{parts}.", parts=_("; ").join(parts))


#: how the setup says each King & Robber scoring
KING_ROBBER_SCORING = {
    "per_feature": N_("at the end the King scores 1 per completed city, the Robber Baron 1 per completed road"),
    "continuous": N_("each turn, the holder of the King (the Robber Baron) from before the turn scores 1 for every "
                     "city (road) the tile completed"),
    "fixed_10_20": N_("at the end the King and the Robber Baron score 10 each"),
    "fixed_15_40": N_("at the end the King and the Robber Baron score 15 each, or 40 held together"),
    # carcassonne@1's readings (game.CarcassonneV1)
    "king_10_robber_20": N_("at the end the King and the Robber Baron score 10 and 20"),
    "king_15_robber_40": N_("at the end the King and the Robber Baron score 15 and 40"),
    "continuous_new_holder": N_("the King and the Robber Baron score 1 for every city (road) completed while held"),
}
#: how the setup says each wagon rule
WAGON_MOVES = {
    "along_road": N_("the wagon moves along a road end"),
    "adjacent_tiles": N_("the wagon moves to a feature on its tile or next to it"),
    "nearby_tiles": N_("the wagon moves to a feature on its tile or the 8 around it"),
}


def seats_by_name(text: str, names) -> str:
    """A typed move with "seat Ann" (or "座位 Ann") read back as "seat 0" (a
    move that names a seat takes its player's name as well as its number).
    Names as the texts show them (``seat_names``: never one like a number),
    without case, any spaces between a name's words; the longest name first."""
    if not names or not isinstance(text, str):
        return text
    known = {" ".join(name.split()).casefold(): seat for seat, name in enumerate(seat_names(len(names), names))
             if name != name_seat(seat, None)}       # (a seat named by its number has no name to read)
    if not known:
        return text
    alternatives = (r"\s+".join(re.escape(word) for word in name.split())
                    for name in sorted(known, key=len, reverse=True))
    pattern = re.compile(r"(?:\bseat\s+|座位\s*)(" + "|".join(alternatives) + r")(?=\s|$)", re.IGNORECASE)

    def number(m):
        seat = known.get(" ".join(m.group(1).split()).casefold())
        return m.group(0) if seat is None else f"seat {seat}"
    return pattern.sub(number, text)


# -- seats in texts --------------------------------------------------------------------

_MARK = re.compile("\ue000(-?\\d+|None)\ue001")
_SEAT_IN_MOVE = re.compile(r"(\bseat |座位)(\d+)\b")


def seat(p) -> str:
    """A seat as an event sentence or a board line names it, before the
    names are known: ``names_in`` writes the player's name there."""
    return f"\ue000{p}\ue001"


def seat_name(p, names=None) -> str:
    """The seat as a text names it: its player's name, or "seat 2" in the
    reader's language (never its number alone), "nobody" for None."""
    if p is None:
        return _("nobody")
    text = name_seat(p, names)
    if isinstance(p, int) and text == f"seat {p}":
        return _("seat {n}", n=p)
    return text


def names_in(text: str, names=None) -> str:
    """A text with its seats (``seat(p)``) named."""
    if "\ue000" not in text:
        return text
    text = _MARK.sub(lambda m: seat_name(None if m.group(1) == "None" else int(m.group(1)), names), text)
    # a sentence starts with a capital: "Seat 2 drew", "Nobody scores" ("Ann drew" as it is)
    return text[:1].upper() + text[1:] if text.startswith(("seat ", "nobody")) else text


def name_in_move(text: str, names) -> str:
    """A move line with "seat 1" (or "座位1") as "seat Ann" where the seat
    has a name texts use (the word stays: the parse reads the name after it)."""
    if not names:
        return text

    def named(m):
        seat = int(m.group(2))
        name = name_seat(seat, names)
        return m.group(0) if name == name_seat(seat, None) else f"{m.group(1).strip()} {name}"
    return _SEAT_IN_MOVE.sub(named, text)


def either(words) -> str:
    """Alternatives: "a", "a or b", "a, b or c"."""
    words = list(words)
    if len(words) < 2:
        return "".join(words)
    return _("{items} or {last}", items=_(", ").join(words[:-1]), last=words[-1])


def seats(players) -> str:
    """Several seats: "Ann, Bob and Cy"."""
    return join_words([seat(p) for p in players])


# -- places and figures in texts ---------------------------------------------------------

#: the features as the texts name them
FEATURE_NAMES = {"city": N_("city"), "road": N_("road"), "cloister": N_("cloister"), "field": N_("field"),
                 "shrine": N_("shrine"), "monastery": N_("monastery")}
#: the figures as the texts name them
FIGURE_NAMES = {"follower": N_("follower"), "big": N_("big follower"), "builder": N_("builder"), "pig": N_("pig"),
                "mayor": N_("mayor"), "wagon": N_("wagon"), "barn": N_("barn"), "abbey": N_("abbey")}


def figure_name(figure: str) -> str:
    """A figure as the texts name it ("big" -> "big follower"), in the reader's language."""
    known = FIGURE_NAMES.get(figure)
    return _(known) if known else str(figure)


def feature_name(kind: str) -> str:
    known = FEATURE_NAMES.get(kind)
    return _(known) if known else str(kind)


def segment(label) -> str:
    """A segment's label ("city N", "field NL", "cloister") as a text names
    it: its feature in the reader's language, its edge as it is."""
    label = str(label)
    kind, _sep, port = label.partition(" ")
    if kind == "corner":
        return _("corner {corner}", corner=port)
    if kind == "tower":
        return _("the top of the tower")
    name = feature_name(kind) if kind in FEATURE_NAMES else kind
    return f"{name} {port}" if port else name


def at(x, y) -> str:
    return f"{x},{y}"


def points(n) -> str:
    """"1 point", "3 points"."""
    return ngettext("{n} point", "{n} points", n)


def tiles(n) -> str:
    return ngettext("{n} tile", "{n} tiles", n)


def cities(n) -> str:
    return ngettext("{n} completed city", "{n} completed cities", n)


# -- the placement -------------------------------------------------------------------------

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


#: expansions' event sentences: event type -> fn(event) -> str (seats as ``seat(p)``)
EVENT_TEXTS: dict = {}
#: expansions' own moves (not place_tile) in notation, English words (``describe`` writes
#: them in the reader's notation): move type -> fn(move) -> str
MOVE_TEXTS: dict = {}
#: what a seat owing an expansion's decision may do, for the text board's "Waiting for"
#: line: decision -> fn(state, player) -> phrase (moves in it written with ``localize``)
OWED_TEXTS: dict = {}
#: expansion figures written without "farmer" on a field ("pig NL")
_FIELD_FIGURES = {"pig"}


def describe_move(move: dict) -> str:
    """A placement in the notation's English words (``localize`` writes them
    in the reader's)."""
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


def examples_now(game, state, player, fallback=()) -> list:
    """Up to four moves the seat may make now, in the reader's notation (a
    refusal's examples), else ``fallback``."""
    try:
        moves = game.legal_moves(state, player) if state is not None else []
    except Exception:           # a refusal must not fail for want of examples
        moves = []
    return [game.describe(m) for m in moves[:4]] or [localize(f) for f in fallback]


def _examples(game, state, player) -> list:
    moves = game.legal_moves(state, player) if state is not None else []
    picks = []
    seen = set()
    for m in moves:
        key = (m.get("figure") is None, m.get("on", "").split(" ")[0])
        if key not in seen:
            seen.add(key)
            picks.append(game.describe(m, player))
        if len(picks) >= 4:
            break
    return picks or [localize(e) for e in ("place 1,0 r0", "place 1,0 r90 follower city N", "place 0,1 r0 farmer NL")]


def _goods_order(good: str) -> tuple:
    return (GOODS.index(good), "") if good in GOODS else (len(GOODS), good)


def parse_error(code: str, message: str, expected: str, examples) -> ParseError:
    """A refusal of a typed move: ``expected`` is notation (written in the
    reader's words), ``message`` a message already in the reader's language."""
    return ParseError(code, message, expected=localize(expected), examples=examples)


def parse_move(game, text: str, state, player, typed: str | None = None) -> dict:
    """The move a line names (``typed``: the line as the player typed it, before
    its Chinese words were read as English, for the refusal to quote)."""
    if isinstance(text, str) and getattr(state, "rules", None) is not None:
        for parser in state.rules.parsers:
            move = parser(game, text, state, player)
            if move is not None:
                return move
    expected = "place X,Y rR [follower KIND EDGE | farmer HALF]"
    if not isinstance(text, str):
        raise parse_error("parse_error", _("a move is a line of text"), expected, _examples(game, state, player))
    m = _PLACE.match(text.replace("\u2212", "-"))
    if not m:
        raise parse_error("unknown_command", _("could not read \u201c{text}\u201d as a move",
                                               text=(typed or text).strip()[:60]),
                          expected, _examples(game, state, player))
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
            raise parse_error("missing_rotation", _("say how the tile is turned: r0, r90, r180 or r270"),
                              "r0 | r90 | r180 | r270", _examples(game, state, player))
        rotation = rots[0] * 90
    else:
        rotation = int(rot_text)
        if rotation not in (0, 90, 180, 270):
            raise parse_error("bad_rotation", _("the rotation is 0, 90, 180 or 270 (clockwise)"),
                              "r0 | r90 | r180 | r270", _examples(game, state, player))
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
            raise parse_error("missing_segment", _("say where the {figure} goes, e.g. {example}",
                                                   figure=figure_name(figure), example=localize(f"{figure} city N")),
                              "KIND EDGE | farmer HALF | cloister", _examples(game, state, player))
        head = words[0].upper()
        if head in EDGE_INDEX or head in HALF_INDEX or head in _INNER:
            words.insert(0, "follower")  # "pig NL", "builder E": the kind follows from the segment
    figure_word = words[0]
    if figure_word in _KINDS:            # "place 0,1 r0 monastery", "... city N": a follower
        figure_word = "follower"
        words.insert(0, figure_word)
    if figure_word not in _FIGURE_WORDS:
        raise parse_error("bad_figure", _("expected a figure after the rotation, not \u201c{word}\u201d",
                                          word=rest[0]),
                          "follower | knight | thief | monk | farmer", _examples(game, state, player))
    kind = _ROLE.get(figure_word)
    words = words[1:]
    if words and words[0] in _KINDS:
        kind = _KINDS[words[0]]
        words = words[1:]
    port = words[0].upper() if words else ""
    if len(words) > 1:
        raise parse_error("trailing_text", _("did not understand \u201c{words}\u201d",
                                             words=" ".join(rest[-len(words) + 1:])),
                          "N E S W | NL NR EL ER SL SR WL WR", _examples(game, state, player))
    if kind == "cloister":
        label = "cloister"
    else:
        if not port:
            raise parse_error("missing_segment", _("name the segment by an edge or half-edge"),
                              "N E S W | NL NR EL ER SL SR WL WR", _examples(game, state, player))
        if port not in EDGE_INDEX and port not in HALF_INDEX and port not in _INNER:
            raise parse_error("bad_segment", _("\u201c{word}\u201d is not an edge or half-edge", word=port),
                              "N E S W | NL NR EL ER SL SR WL WR", _examples(game, state, player))
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


# -- events --------------------------------------------------------------------------------


def _why_nothing(event: dict) -> str:
    """Why an incomplete feature scored 0 (an inn, a cathedral, a siege)."""
    if event.get("feature") == "road":
        return _("an incomplete road with an inn scores nothing")
    if event.get("feature") == "city":
        return _("an incomplete city with a cathedral, or besieged, scores nothing")
    return _("it scores nothing")


def _scored(event: dict) -> str:
    """A feature's or a field's scoring in words."""
    where = at(event["x"], event["y"])
    winners = seats(event["winners"])
    if event["type"] == "FieldScored":
        on = event["on"][6:] if event["on"].startswith("field ") else event["on"]
        if event["winners"]:
            return _("Field {half} at {at} borders {cities}: {points} to {winners}.", half=on, at=where,
                     cities=cities(event["cities"]), points=points(event["points"]), winners=winners)
        return _("Field {half} at {at} borders {cities}: nobody scores.", half=on, at=where,
                 cities=cities(event["cities"]))
    details = tiles(event["tiles"])
    if event.get("pennants"):
        details = _("{tiles}, {pennants}", tiles=details,
                    pennants=ngettext("{n} pennant", "{n} pennants", event["pennants"]))
    args = dict(feature=feature_name(event["feature"]), on=segment(event["on"]), at=where, details=details,
                points=points(event["points"]), winners=winners)
    if event.get("complete"):
        if event["winners"]:
            return _("Completed {feature} at {at} ({on}, {details}): {points} to {winners}.", **args)
        return _("Completed {feature} at {at} ({on}, {details}): nobody scores.", **args)
    if not event["winners"]:
        return _("Incomplete {feature} at {at} ({on}, {details}): nobody scores.", **args)
    if event["points"] == 0:
        return _("Incomplete {feature} at {at} ({on}, {details}): 0 points to {winners} ({why}).",
                 why=_why_nothing(event), **args)
    return _("Incomplete {feature} at {at} ({on}, {details}): {points} to {winners}.", **args)


def describe_event(event: dict, names=None) -> str:
    """An event in words, seats named by their players' names (as far as
    ``names`` goes: "seat N" otherwise)."""
    return names_in(_event_text(event), names)


#: what the goods are called in the texts
GOODS_NAMES = {"wine": N_("wine"), "grain": N_("grain"), "cloth": N_("cloth")}


def good_name(good: str) -> str:
    return _(GOODS_NAMES[good]) if good in GOODS_NAMES else str(good)


def _event_text(event: dict) -> str:
    t = event.get("type")
    if t == "StartPlayerChosen":
        return _("{player} starts.", player=seat(event["player"]))
    if t == "TileDrawn":
        return _("{player} drew tile {tile}.", player=seat(event["player"]), tile=event["tile"])
    if t == "TileDiscarded":
        return _("Tile {tile} fits nowhere and is removed from the game.", tile=event["tile"])
    if t == "TileReturned":
        return _("Tile {tile} fits nowhere and goes back into the pile.", tile=event["tile"])
    if t == "TilePlaced":
        # a bridged tile is "LETTER~AXIS" (the axis in the tile's own frame): its letter,
        # and the bridge said in words (its BridgeBuilt event says where, on the board)
        letter, bridged, _axis = str(event["tile"]).partition("~")
        args = dict(player=seat(event["player"]), tile=letter, at=at(event["x"], event["y"]),
                    rotation=f"r{event['rotation']}")
        if bridged:
            return _("{player} placed tile {tile} with a bridge at {at} {rotation}.", **args)
        return _("{player} placed tile {tile} at {at} {rotation}.", **args)
    if t == "FollowerDeployed":
        return _("{player} deployed a {figure} on {on} at {at}.", player=seat(event["player"]),
                 figure=figure_name(event.get("figure", "follower")), on=segment(event["on"]),
                 at=at(event["x"], event["y"]))
    if t in ("FeatureScored", "FieldScored"):
        return _scored(event)
    if t == "FollowersReturned":
        parts = [_("{player} from {on} at {at}", player=seat(i["player"]), on=segment(i["on"]),
                   at=at(i["x"], i["y"])) for i in event["followers"]]
        return _("Followers go home: {list}.", list=_("; ").join(parts))
    if t == "GoodsTaken":
        # In the goods' own order: an event read back from the store has its
        # keys sorted, the one decide made does not, and both must read alike.
        goods = join_words([_("{n} {good}", n=event["goods"][g], good=good_name(g))
                            for g in sorted(event["goods"], key=_goods_order)])
        return _("{player} takes goods from the city ({on} at {at}): {goods}.", player=seat(event["player"]),
                 on=segment(event["on"]), at=at(event["x"], event["y"]), goods=goods)
    if t == "BuilderTriggered":
        return _("{player}'s builder: {player} plays an extra tile.", player=seat(event["player"]))
    if t == "PigScored":
        on = event["on"][6:] if event["on"].startswith("field ") else event["on"]
        return _("Pig in field {half} at {at} ({cities}): {points} more to {winners}.", half=on,
                 at=at(event["x"], event["y"]), cities=cities(event["cities"]), points=points(event["points"]),
                 winners=seats(event["winners"]))
    if t == "GoodsScored":
        counts = _(", ").join(_("{player} {n}", player=seat(p), n=n) for p, n in enumerate(event["counts"]))
        if event["winners"]:
            return _("Most {good} ({counts}): {points} to {winners}.", good=good_name(event["good"]), counts=counts,
                     points=points(event["points"]), winners=seats(event["winners"]))
        return _("Nobody has {good}: nobody scores.", good=good_name(event["good"]))
    if t in EVENT_TEXTS:
        return EVENT_TEXTS[t](event)
    if t == "GameEnded":
        return _("Game over. Scores: {scores}.", scores=_(", ").join(
            _("{player} {n}", player=seat(i), n=s) for i, s in enumerate(event["scores"])))
    return str(event)
