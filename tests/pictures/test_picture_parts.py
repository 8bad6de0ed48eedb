"""The pictures' parts for the page (markup.part: the board, the panels,
which zoom.js lays out on a phone), Carcassonne's board sized to the tiles
placed, and Wakanda's villages with no empty band above them."""
from __future__ import annotations

import re

import pytest

from pbem import games, pictures
from pbem.games.playout import play_random
from pbem.pictures.carcassonne.board import MARGIN
from pbem.pictures.wakanda import CARD_H, PIECE_H


def moment(name: str, step: int, seed: int = 1):
    """(view, viewer, legal) of the seat to act before move ``step`` of a seeded random game."""
    game = games.get(name)
    players, options = next(s for s in game.sample_setups if s[0] == 2)
    played = play_random(game, players, options, seed=seed)
    version, player, _ = played.moves[min(step, len(played.moves) - 1)]
    state = game.replay(players, played.options, played.events[:version])
    return game.view(state, player), player, game.legal_moves(state, player)


def root_box(svg: str) -> list:
    return [float(v) for v in re.search(r'<svg[^>]* viewBox="([^"]+)"', svg).group(1).split()]


def parts(svg: str) -> list:
    return re.findall(r'<g data-part="(\w+)"(?: data-box="([^"]+)")?>', svg)


@pytest.mark.parametrize("name", ["carcassonne", "kachina", "wakanda"])
@pytest.mark.parametrize("step", [0, 5, 30])
def test_a_picture_has_one_board_and_panels(name, step):
    view, viewer, legal = moment(name, step)
    svg = pictures.svg(name, view, viewer=viewer, legal=legal)
    kinds = [k for k, _box in parts(svg)]
    assert kinds.count("board") == 1 and kinds.count("panel") >= 1
    assert svg.count("<g") - svg.count("<g data-part") >= 0 and svg.count("<g ") + svg.count("<g>") == svg.count("</g>")
    assert pictures.png(svg)[:8] == b"\x89PNG\r\n\x1a\n"   # the mail's picture still renders


@pytest.mark.parametrize("step", [0, 1, 2, 4])
def test_carcassonne_board_is_sized_to_the_tiles_placed(step):
    """Early in the game the board is drawn with big tiles, its box just the
    tiles placed and the spots where the drawn tile fits (and the coordinate
    margins), and the picture is no taller than it: no small board centred
    in a frame the panel's height (the panel, 260 wide, is beside it)."""
    view, viewer, legal = moment("carcassonne", step)
    svg = pictures.svg("carcassonne", view, viewer=viewer, legal=legal)
    (kind, box), _panel = parts(svg)
    assert kind == "board"
    x, y, w, h = (float(v) for v in box.split())
    cells = {(t["x"], t["y"]) for t in view["board"]} | {(m["x"], m["y"]) for m in legal
                                                         if isinstance(m, dict) and "x" in m and "y" in m}
    cols = max(c[0] for c in cells) - min(c[0] for c in cells) + 1
    rows = max(c[1] for c in cells) - min(c[1] for c in cells) + 1
    tile = (w - 2 * MARGIN) / cols
    assert tile == (h - 2 * MARGIN) / rows and tile >= 90      # square tiles, big while the board is young
    assert len(view["board"]) <= 6
    _x, _y, width, height = root_box(svg)
    assert h >= 0.8 * height                                   # the board about as tall as the picture


def test_carcassonne_finished_board_stays_mail_sized():
    game = games.get("carcassonne")
    played = play_random(game, 2, {}, seed=1)
    svg = pictures.svg("carcassonne", game.view(played.state, games.SPECTATOR))
    (_k, box), _panel = parts(svg)
    x, y, w, h = (float(v) for v in box.split())
    assert w <= 1400 and h <= 1400


@pytest.mark.parametrize("step", [0, 1, 3, 8])
def test_wakanda_villages_have_no_empty_band_above_them(step):
    """The villages' band is as tall as the tallest pole needs (one piece's
    room at least, for the "empty" label), never three pieces' room over
    poles of none or one."""
    view, viewer, legal = moment("wakanda", step)
    svg = pictures.svg("wakanda", view, viewer=viewer, legal=legal)
    board = svg.split('<g data-part="board">', 1)[1]
    band = re.search(r'<rect x="[^"]+" y="([^"]+)" width="[^"]+" height="([^"]+)"', board)
    top, height = float(band.group(1)), float(band.group(2))
    tallest = max(len(v["pole"]) for v in view["villages"])
    claimed = any(v["state"] == "claimed" for v in view["villages"])
    assert height == max(tallest, 1) * PIECE_H + (40 if claimed else 12) + CARD_H + 40
    # the village cards start right below the tallest pole
    card_top = min(float(m) for m in re.findall(r'<rect x="[^"]+" y="([^"]+)" width="[^"]+" height="92"', board))
    assert card_top - top <= max(tallest, 1) * PIECE_H + 12 + 10 + 4 + (28 if claimed else 0)
