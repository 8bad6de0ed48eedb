"""What the pages show, composed from the Service's read functions only
(``listing``, ``roster``, ``get_game``, ``events``, ``state_at``,
``legal_moves``, ``move_status``, ``invitation_state``; moves by
``submit_trusted``): every view, event and move reaches a page through the
game's own filter (``view``, ``redact``), for the caller the page names (a
seat's bearer token, a play link's ``SeatProof``, or nobody). Nothing here
reads the store or a state.

A view in ``views.py`` calls one function of this module and renders it.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass

from markupsafe import Markup, escape

from .. import games, pictures
from ..service.bots import bot_name
from ..errors import NotFound
from ..games.base import seat_names
from ..games.i18n import N_, _, join_words, language, ngettext
from ..service import SeatProof, Service, mine
from ..when import how_long
from . import handovers, takebacks
from .languages import game_title
from .rematch import rematch_view

#: How a move made through a play link is recorded (``auth``, docs/record.md).
LINK_AUTH = "mail-link"
#: The log as the pages show it: the whole of it, in one read.
LOG_LIMIT = 100_000
_SEAT = re.compile(r"\b([Ss])eat (\d{1,2})\b")


@dataclass(frozen=True)
class Caller:
    """Who a page is for, as the service's read functions take it (a seat's
    bearer token, a play link's ``SeatProof``, or None for a spectator), and
    the prefix of that caller's page URLs (``/g/ID`` or ``/play/LINK``)."""
    token: object
    base: str
    link: str | None = None
    link_expires: int | None = None

    @property
    def proved_seat(self) -> int | None:
        return self.token.seat if isinstance(self.token, SeatProof) else None


def log_items(entries: list, base: str, shown: int) -> Markup:
    """The log's entries as HTML, newest first, each a link to its version.
    Written here rather than looped in the template: a finished game has a
    few hundred entries, and Jinja's loop took a third of the page's time."""
    base = escape(base)
    return Markup("".join(
        f'<li data-v="{e["version"]:d}"{CLASS_SHOWN if e["version"] == shown else ""}>'
        f'<a href="{base}/v/{e["version"]:d}">{e["version"]:d}</a> {escape(e["text"])}</li>'
        for e in reversed(entries)))


CLASS_SHOWN = ' class="shown"'


def named(text: str, names: list) -> str:
    """An event's words with "seat 0" written as the seat's name, as the
    games' own texts name seats (``seat_names``: a name that reads like a
    seat number, or that two seats share, stays "seat N")."""
    shown = seat_names(len(names), names)
    kept = [n if isinstance(names[s], str) and n == " ".join(names[s].split()) else None
            for s, n in enumerate(shown)]

    def name(match):
        seat = int(match.group(2))
        return kept[seat] if seat < len(kept) and kept[seat] else match.group(0)
    return _SEAT.sub(name, text)


def seat_label(seat: int) -> str:
    """A seat nobody's name names yet: "seat 2"."""
    return _("seat {n}", n=seat)


def name_or_seat(names: list, seat: int) -> str:
    return names[seat] or seat_label(seat)


# -- the lobby ---------------------------------------------------------------------------


def lobby(service: Service, limit: int = 50, now: float | None = None) -> dict:
    """The games their creators opened to anyone (never another: a private
    game is reached by its link only): those to join, each with its rules
    in words, language and age (``open_row``), in play, finished, newest
    first; and what the form that creates a game offers (``game_types``)."""
    now = time.time() if now is None else now
    out = {status: [lobby_row(g) for g in service.public_listing(status, 0, limit)]
           for status in ("open", "active", "finished")}
    out["open"] = [open_row(row, now) for row in out["open"]]
    out["game_types"] = game_types()
    return out


#: A game's language in words, in the reader's.
LANGUAGE_NAMES = {"en": N_("English"), "zh-Hant": N_("Traditional Chinese")}


def open_row(row: dict, now: float) -> dict:
    """An open game's row with what a stranger needs to choose it: its
    rules in play in words, its language, how long it has waited, and the
    first seat free for anyone (the lobby's join takes that one)."""
    game = games.get(row["game"], row["rules_version"])
    free = [s["seat"] for s in row["seats"] if not s["joined"] and not s.get("invited")]
    return {**row, "setup": game.describe_setup(game.check_options(row["players"], row["options"]), row["players"]),
            "language": _(LANGUAGE_NAMES.get(row["lang"], row["lang"])),
            "age": how_long(max(0.0, now - (row["created"] or now))),
            "free_seat": free[0] if free else None}


def lobby_row(g: dict) -> dict:
    """A game as the lobby's tables and "my games" show it (public only)."""
    names = [s["name"] for s in g["seats"]]
    status = g["status"]
    return {"id": g["id"], "title": g["title"], "game": g["game"], "players": g["players"], "status": status,
            "rules_version": g.get("rules_version"), "options": g.get("options") or {}, "lang": g.get("lang"),
            "seats": g["seats"], "open": g.get("open", False),
            "names": [n for n in names if n],
            "invited": [invited_name(s) for s in g["seats"] if not s["joined"] and s.get("invited")],
            "free": sum(1 for s in g["seats"] if not s["joined"] and not s.get("invited")),
            "to_act": g["to_act"], "turn": [name_or_seat(names, s) for s in g["to_act"]],
            "outcome": outcome_words(g.get("result"), names) if status == "finished" else "",
            "created": g.get("created"), "moved": g.get("moved")}


#: How many games one "my games" request may name (a browser holds a few).
MY_GAMES_MAX = 200


def my_games(service: Service, held: dict[str, set[int]]) -> dict:
    """The games a browser holds seats of (``held``: game id -> its seats),
    as the lobby's rows, in three groups: those waiting for one of those
    seats, then the others in play or open, then the finished ones; each
    group by its last move, latest first."""
    rows = [lobby_row(g) for g in service.listing_of(list(held)[:MY_GAMES_MAX])]
    return mine.ordered(rows, held)  # the order the "games" mail lists them in too


def game_types() -> list[dict]:
    """Every game a new game can be made of (its newest rules), with its
    options as ``GET /game-types`` describes them (docs in the reader's
    language): the create form is built from these, so a new option
    appears on it without a change to the page."""
    return [{"name": g.name, "title": game_title(g.name), "min_players": g.min_players,
             "max_players": g.max_players, "options": g.describe_options()}
            for g in games.latest_games()]


def invited_name(seat: dict) -> str:
    """How the pages name a seat kept for an invitation: the name its
    inviter gave (the address is never shown), else its number."""
    return (seat.get("invited") or {}).get("name") or seat_label(seat["seat"])


def outcome_words(result: dict | None, names: list) -> str:
    """Who won, in words: "Ann wins, 15 to 12", "Ann and Bob share first place, 9 to 9"."""
    if not result:
        return _("finished")
    who = [name_or_seat(names, w) for w in result.get("winners", [])]
    tally = ""
    for score in sorted(result.get("scores") or [], reverse=True):
        tally = _("{higher} to {lower}", higher=tally, lower=score) if tally else str(score)
    if not who:
        return _("no winner ({scores})", scores=tally) if tally else _("no winner")
    if len(who) == 1:
        return _("{name} wins, {scores}", name=who[0], scores=tally) if tally else _("{name} wins", name=who[0])
    if tally:
        return _("{names} share first place, {scores}", names=join_words(who), scores=tally)
    return _("{names} share first place", names=join_words(who))


# -- a game ------------------------------------------------------------------------------


def game_page(service: Service, game_id: str, caller: Caller, version: int | None = None,
              log: bool = True, after: int | None = None, said: str | None = None, settle=None) -> dict:
    """Everything the game page shows the caller: the summary (status, seats,
    whose turn, scores), the picture of their view (at ``version``, or now
    with their legal moves marked; at a past version the banner, players
    and scores are that version's too), their legal moves if they are to act,
    and the log in words (all of it, or the events after ``after``).
    ``settle(seat_lang, game_lang)`` is told the languages of the caller's
    seat and of the game as soon as they are known, and may change the
    reader's language (``reading``) for everything built after it."""
    read_in = language()
    # a past version's page draws that version, not the current one
    summary = service.get_game(game_id, caller.token, board=version is None)
    if version is not None and version == summary["version"]:
        version, summary = None, service.get_game(game_id, caller.token)  # the current version: the page now
    viewer, names = summary["viewer"], [s["name"] for s in summary["seats"]]
    seat_row = summary["seats"][viewer] if isinstance(viewer, int) and 0 <= viewer < len(summary["seats"]) else {}
    if settle is not None:
        # the seat's own choice (a row reads the game's for a seat that made
        # none, and then the browser's language comes first)
        own = (service.store.seats(game_id).get(viewer) or {}).get("lang") if seat_row else None
        settle(own, summary.get("lang"))
        if language() != read_in and summary["board"] is not None:
            # its text board in the page's language (a picture's words for screen readers)
            summary = service.get_game(game_id, caller.token)
    now = summary["version"]
    legal = []
    if (viewer is not None and summary["status"] == "active" and viewer in summary["to_act"]
            and version is None):
        legal = service.legal_moves(game_id, caller.token)["moves"]
    if version is None:
        shown_version, view, text, moment = now, summary["view"], summary["board"], summary
    else:
        # the page at a past version is all of that moment: the picture, who
        # was to act, the scores, the result (none yet) as they were then
        at = service.state_at(game_id, caller.token, version)
        shown_version, view, text = version, at["view"], at["text"]
        moment = {**summary, **{k: at[k] for k in ("status", "to_act", "active", "result")}}
    to_act = moment["to_act"]
    entries = None
    if log or after is not None:
        page = service.events(game_id, caller.token, after or 0, LOG_LIMIT)
        entries = [{"version": e["version"], "text": named(e["text"], names)} for e in page["events"]]
    picture = picture_of(summary["game"], view, names, viewer, [m["move"] for m in legal] if legal else None,
                         text)
    outcome = None
    if said:  # the move a play link's form just sent: how it ended
        try:
            outcome = service.move_status(game_id, said, caller.token)
        except NotFound:
            outcome = None
    return {
        "id": game_id, "title": summary["title"], "game": summary["game"], "status": summary["status"],
        "version": now, "shown_version": shown_version, "viewer": viewer, "sees_all": summary["sees_all"],
        "names": names, "seats": seat_rows(moment, view, to_act, viewer), "to_act": to_act,
        # the shown version's status: "active" at a past version of a finished game
        "shown_status": moment["status"],
        "turn": turn_words(moment, names, viewer), "picture": picture, "legal": legal,
        "log": entries, "caller": caller, "result": summary.get("result"),
        "free_seats": [s["seat"] for s in summary["seats"] if not s["joined"] and not s.get("invited")],
        "outcome": outcome, "refusal": None,
        "extras": play_extras(summary["game"], view, legal, viewer, names),
        "takeback": takebacks.offer(service, game_id, viewer, summary["status"], version, names),
        "handover": handovers.offer(service, game_id, viewer, summary["status"], version, names),
        # the reader's zone for the times on the page: their seat's, else their language's
        "tz": seat_row.get("tz"),
        "rematch": rematch_view(service, game_id, names) if summary["status"] == "finished" else None,
    }


def invitation_page(service: Service, game_id: str, seat: int, nonce: str, token: str, settle=None) -> dict:
    """What an invitation's page (``/join/TOKEN``) shows its holder: the
    game, the seat, the name it was given, where the invitation stands
    (``open``: the seat waits for them; ``joined``, ``withdrawn``,
    ``expired``, ``started``) and the other seats. ``settle`` as for
    ``game_page`` (the invitation's language is its seat's)."""
    found = service.invitation_state(game_id, seat, nonce)
    if settle is not None:
        settle(found.get("lang"), found.get("game_lang"))
    return {**found, "token": token,
            "others": [{"seat": s["seat"], "name": s["name"] or (
                _("{name} (invited)", name=invited_name(s)) if s.get("invited") else _("free seat"))}
                       for s in found["seats"] if s["seat"] != seat]}


def play(service: Service, game_id: str, caller: Caller, move: dict, expected_version: int, nonce: str,
         wait: float) -> dict:
    """A move through a play link: the seat the link proved, the same path as
    a mail reply's (``submit_trusted``), recorded as ``auth: mail-link``;
    then its outcome, waiting up to ``wait`` seconds for it to settle."""
    record = service.submit_trusted(game_id, caller.proved_seat, move, expected_version, auth=LINK_AUTH,
                                    nonce=nonce)
    if record["status"] == "queued" and wait > 0:
        record = service.move_status(game_id, record["id"], caller.token, wait)
    return record


def play_extras(game: str, view, legal: list, viewer=None, names: list | None = None) -> dict:
    """What choosing a move on the board needs beside the picture: how each
    legal move is made by touching the picture (``touch``: the game's
    pictures module's ``touch``, read by static/touch.js), and Carcassonne's
    drawn tile enlarged, in each rotation that fits somewhere (and bridged,
    where a bridge may go on it: ``chooser.choosers``)."""
    if not legal or not isinstance(view, dict):
        return {}
    extras = {}
    touch = pictures.touch(game, view, legal, viewer, names) if pictures.has_picture(game) else None
    if touch:
        extras["touch"] = touch
    if game == "carcassonne" and view.get("tile"):
        from ..pictures.carcassonne.chooser import choosers
        shown = choosers(view, [m["move"] for m in legal])
        if shown:
            extras["choosers"] = shown
    return extras


def picture_of(game: str, view, names: list, viewer, legal, text: str | None) -> dict:
    """The picture of a view as inline SVG, or the text board for a game without one."""
    if view is None:
        return {"svg": None, "text": None}
    if pictures.has_picture(game):
        return {"svg": accessible(pictures.svg(game, view, names=names, viewer=viewer, legal=legal, narrow=True), text),
                "text": text}
    return {"svg": None, "text": text}


def accessible(svg: str, text: str | None) -> str:
    """A picture as a page shows it to assistive technology: its labels,
    drawn for the eye, are hidden (read loose they make no sense: "r180
    NELNSL"), and the text board (``text``, the API's ``board``) is its
    description, which the page also shows to screen readers as text
    (``#board-text``). The mail's pictures and PNGs are not made here."""
    from ..pictures.markup import esc
    svg = svg.replace("<text ", '<text aria-hidden="true" ')
    if text:
        end = svg.find("</title>")
        at = end + len("</title>") if end >= 0 else svg.find(">") + 1
        svg = f"{svg[:at]}<desc>{esc(text)}</desc>{svg[at:]}"
    return svg


def version_svg(service: Service, game_id: str, caller: Caller, version: int) -> str:
    """The picture of the caller's view at ``version`` (the replay slider's)."""
    at = service.state_at(game_id, caller.token, version)
    roster = service.roster(game_id)
    viewer = service.viewer(game_id, caller.token)
    shown = picture_of(roster["game"], at["view"], roster["names"], viewer, None, at["text"])
    return shown["svg"] or text_svg(shown["text"] or "")


def text_svg(text: str) -> str:
    """A text board as an SVG (for a game without a picture module)."""
    from ..pictures import markup as m
    lines = text.split("\n")
    width = max((len(line) for line in lines), default=1) * 7.5 + 20
    body = [m.text(10, 18 + 15 * i, line, size=12.5, font_family="monospace", xml_space="preserve")
            for i, line in enumerate(lines)]
    return m.document(width, 15 * len(lines) + 16, body, background="#ffffff", title=_("board"))


def seat_rows(summary: dict, view, to_act: list, viewer) -> list:
    scores = (view or {}).get("scores") if isinstance(view, dict) else None
    result = summary.get("result") or {}
    rows = []
    for s in summary["seats"]:
        seat = s["seat"]
        score = scores[seat] if isinstance(scores, list) and seat < len(scores) else None
        if score is None and result.get("scores"):
            score = result["scores"][seat]
        rows.append({"seat": seat, "name": bot_name(s["bot"]) if s.get("bot") else s["name"],
                     "joined": s["joined"], "score": score,
                     "invited": invited_name(s) if not s["joined"] and s.get("invited") else None,
                     "to_act": seat in to_act, "you": seat == viewer, "bot": s.get("bot"),
                     "handed_over": s.get("handed_over"),
                     "winner": seat in (result.get("winners") or []),
                     "placing": (result.get("placings") or [None] * (seat + 1))[seat]})
    return rows


def turn_words(summary: dict, names: list, viewer) -> str:
    """The status line: who is to act, what the game waits for, or how it ended."""
    status = summary["status"]
    if status == "open":
        taken = sum(1 for s in summary["seats"] if s["joined"])
        return ngettext("Waiting for players: {taken} of {n} seat taken.",
                        "Waiting for players: {taken} of {n} seats taken.", len(summary["seats"]), taken=taken)
    if status == "finished":
        return _("Game over: {outcome}.", outcome=outcome_words(summary.get("result"), names))
    acting = summary["to_act"]
    active = summary.get("active")
    if viewer in acting and active is not None and active != viewer:
        return _("{name}'s turn: the game waits for your decision.", name=name_or_seat(names, active))
    if viewer in acting:
        others = [name_or_seat(names, s) for s in acting if s != viewer]
        return _("Your turn.") if not others else _("Your turn (and {others}'s).", others=join_words(others))
    who = [name_or_seat(names, s) for s in acting]
    if not who and active is not None:  # a past version between two events of one move: whose move it was
        who = [name_or_seat(names, active)]
    if not who:
        return _("In play.")
    return _("{names} to play.", names=join_words(who))


def rules_page(service: Service, game_id: str, settle=None) -> dict:
    """A game's rules in play, in words, and the notation of those rules
    only (``/g/ID/rules``): what an invitation links to instead of carrying
    the notation itself. Public: the same for everyone (the options and
    the seats' names are on the game's page too)."""
    meta = service.meta(game_id)
    if settle is not None:
        settle(None, meta.get("lang"))
    from .. import games
    from ..notify import wording
    game = games.get(meta["game"], int(meta["rules_version"]))
    players, options = int(meta["players"]), meta.get("options") or {}
    names = wording.seat_names(service.store.seats(game_id), players)
    return {"game": game_id, "kind": meta["game"], "title": meta.get("title") or "", "players": players,
            "rules": wording.setup_line(game, game.check_options(players, options), players, names),
            "notation": wording.notation(game, options)}
