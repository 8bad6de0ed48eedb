"""The touch chooser's glue in the pages (issue 28), over HTTP: the seat to
act gets, in its play part, how each legal move is made by touching (the
game's ``touch``, as ``.touch-data`` beside ``.legal-data``), its picture
marks the spots (``data-pick``) and the list of moves is folded; a
spectator and a seat not to act get neither. The picture's labels are
hidden from assistive technology and the text board describes it."""
from __future__ import annotations

import html
import json
import random
import re

import pytest

from pbem import pictures

from .pages_support import NAMES, pages_app, pages_server, play, seated, stream_port  # noqa: F401


def block(page: str, cls: str):
    found = re.search(rf'<script type="application/json" class="{cls}">(.*?)</script>', page, re.S)
    return json.loads(html.unescape(found.group(1))) if found else None


@pytest.mark.parametrize("name", ["kachina", "wakanda"])
def test_the_seat_to_act_gets_its_touch_paths(name, service, pages_server, http):
    game_id, keys, tokens = seated(service, name)
    play(service, game_id, keys, tokens, random.Random(2), moves=3)
    game = service.get_game(game_id, None)
    seat = game["to_act"][0]
    live = http.get(f"{pages_server.url}/g/{game_id}/live",
                    headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
    part = live["parts"]["play"]
    legal = block(part, "legal-data")
    touch = block(part, "touch-data")
    mine = service.get_game(game_id, tokens[seat])
    assert touch == pictures.touch(name, mine["view"], legal, seat, list(NAMES[:2]))
    assert len(touch["paths"]) == len(legal) and legal
    assert 'href="#picture" class="to-move"' in live["parts"]["status"]   # "Choose your move": the board
    assert '<details class="all-moves"><summary>' in part          # the list, folded (not open)
    drawn = set(re.findall(r'data-pick="([^"]+)"', live["picture"]))
    assert drawn == {k for p in touch["paths"] for k in p} - set(touch["offboard"])
    # the picture for screen readers: its labels hidden, the text board its description
    assert "<text " in live["picture"] and not re.search(r"<text (?!aria-hidden)", live["picture"])
    assert html.unescape(re.search(r"<desc>(.*?)</desc>", live["picture"], re.S).group(1)) == mine["board"]
    # nobody else gets any of it
    other = http.get(f"{pages_server.url}/g/{game_id}/live",
                     headers={"Authorization": f"Bearer {tokens[1 - seat]}"}).json()
    spectator = http.get(f"{pages_server.url}/g/{game_id}").text
    for seen in (other["parts"]["play"] + other["picture"], spectator):
        assert "touch-data" not in seen and "data-pick" not in seen
    assert 'aria-describedby="board-text"' in spectator and '<pre id="board-text" class="sr">' in spectator
