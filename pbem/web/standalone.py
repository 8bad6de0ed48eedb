"""``pbem replay --html game.jsonl > game.html``: a finished game (or one in
play, as the record's viewer saw it) in one self-contained file that needs
no server and no network: the picture of every version, the replay slider,
the log in words; styles and script inline.

Each version is drawn from the record's events through the game's view, as
``pbem replay`` prints the board: a record holds what its viewer may see,
and the pictures show no more. Pictures are big (a finished Carcassonne
board is 40 KB of SVG, 180 versions of it about 5 MB), and versions differ
little from each other, so the file carries them packed: every distinct
``<defs>`` (the tile art, which changes only when a new tile kind comes) is
kept once, every distinct picture once with a pointer to its defs, the
lot gzipped and in base64; the page unpacks it with the browser's own
``DecompressionStream``. The last version is also inline as plain SVG, so
the file shows the end of the game even without script.
"""
from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path

import jinja2

from .. import games
from ..games import takeback
from ..games.base import OMNISCIENT
from ..games.i18n import language, reading
from . import languages
from .model import named, outcome_words, picture_of, turn_words

STATIC = Path(__file__).parent / "static"
_DEFS = re.compile(r"<defs>.*?</defs>", re.S)
#: Where a picture's defs go back in (a text no picture holds).
HOLE = "<defs/>"


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
                             autoescape=True, trim_blocks=False)
    env.globals.update(languages.template_functions(), game_title=languages.game_title)
    return env


def read_record(lines: list[str]) -> tuple[dict, list[dict], dict | None]:
    rows = [json.loads(line) for line in lines if line.strip()]
    if not rows or rows[0].get("record") != "pbem-game":
        raise ValueError("not a pbem game record (its first line is not a pbem-game header)")
    steps = [r for r in rows[1:] if "move_id" in r]
    end = next((r for r in rows[1:] if r.get("end")), None)
    return rows[0], steps, end


def versions(lines: list[str]) -> dict:
    """Every version's picture (or text board), its moment (whose turn it
    was and the scores then: ``moments``, the last one the file's own), and
    the log in words, from a record."""
    header, steps, end = read_record(lines)
    game = games.get(header["game"], header["rules_version"])
    players = header["players"]
    viewer = OMNISCIENT if header.get("sees_all") else header.get("viewer")
    names: list = [None] * players
    for seat in header.get("seats", []):
        names[seat["seat"]] = seat["name"]
    state = game.start(players, header["options"])
    shown, moments = [], []
    seats = [{"seat": s, "joined": True} for s in range(players)]

    def draw(state) -> str:
        view = game.view(state, viewer)
        scores = view.get("scores") if isinstance(view, dict) else None
        to_act = sorted(game.to_act(state))
        moment = {"status": "active", "seats": seats, "to_act": to_act, "active": game.active_seat(state)}
        # a version's banner and scores (the last one's are the file's own, as the record ended)
        moments.append([turn_words(moment, names, None), scores if isinstance(scores, list) else None, to_act])
        picture = picture_of(game.name, view, names, header.get("viewer"), None, None)
        if picture["svg"] is None:
            from .model import text_svg
            return text_svg(game.render(state, viewer))
        return picture["svg"]

    shown.append(draw(state))
    states = [state]  # by version: a takeback goes back to one of them
    log = []
    for step in steps:
        for event in step["events"]:
            state = takeback.fold(game, state, event, lambda at: states[at])
            states.append(state)
            shown.append(draw(state))
            log.append({"version": len(shown) - 1,
                        "text": named(takeback.describe_item(game, event, viewer, names), names)})
    result = (end or {}).get("result")
    return {"header": header, "game": game, "names": names, "pictures": shown, "moments": moments, "log": log,
            "result": result, "outcome": outcome_words(result, names) if result else None}


def pack(svgs: list[str], moments: list | None = None) -> str:
    """The pictures as base64 of gzipped JSON: ``{"defs": [...], "pictures":
    [[defs index, picture without its defs], ...], "at": [picture index by
    version], "moments": [[banner, scores, seats to act] by version]}``."""
    defs, pics, at = {}, {}, []
    for svg in svgs:
        found = _DEFS.search(svg)
        d = found.group(0) if found else ""
        body = svg.replace(d, HOLE, 1) if d else svg
        di = defs.setdefault(d, len(defs))
        at.append(pics.setdefault((di, body), len(pics)))
    data = {"defs": list(defs), "pictures": [list(k) for k in pics], "at": at, "moments": moments or []}
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    return base64.b64encode(gzip.compress(raw, 9, mtime=0)).decode()


def replay_html(lines: list[str], lang: str | None = None) -> str:
    """The whole file, in ``lang`` (else the reader's language now): its
    words, the log and the pictures' labels. A file has one language: it
    has no server to ask for the other."""
    if lang is not None:
        with reading(lang):
            return replay_html(lines)
    made = versions(lines)
    scripts = [(STATIC / f).read_text() for f in ("i18n.js", "replay.js", "standalone.js", "zoom.js")]
    assert not any("</script" in text for text in scripts)  # inlined as they are
    header = made["header"]
    last = len(made["pictures"]) - 1
    return _environment().get_template("standalone.html").render(
        header=header, title=header.get("title") or header["id"], game=made["game"], names=made["names"],
        log=made["log"], last=last, final=made["pictures"][last], packed=pack(made["pictures"], made["moments"]),
        outcome=made["outcome"], result=made["result"], sees_all=header.get("sees_all"),
        style=(STATIC / "style.css").read_text(), scripts=scripts, lang=language(),
        messages=languages.js_catalog(language()))
