"""The Catapult on the picture: the fair drawn on its tile and in the key; in
the round, the followers within reach ringed for a seat still to shoot, the
panel saying whose shots are still to come, and nothing of a shot already
taken (the picture of another seat is the same whatever that shot was)."""
from __future__ import annotations

import random

from pbem import games, pictures
from pbem.pictures.raster import png
from tests.games.test_carcassonne_catapult import act, thief_then_fair

from .png_pixels import decode
from .test_carcassonne_pictures import elements, panel_text, parse

GAME = games.get("carcassonne")
NAMES = ["Ann", "Bob"]
TENT = "#f2c230"


def picture(state, viewer):
    legal = GAME.legal_moves(state, viewer) if viewer is not None else None
    return pictures.svg("carcassonne", GAME.view(state, viewer), names=NAMES, viewer=viewer, legal=legal)


def test_the_fair_the_targets_and_the_round_on_the_picture():
    state, _ = thief_then_fair(order=("U", "CA4", "E", "E"))
    state, _ = act(state, 1, "catapult knockout")
    svg = picture(state, 0)
    root = parse(svg)
    assert svg.count(TENT) == 2                         # on the fair tile and in the key
    rings = [(e.get("data-x"), e.get("data-y"), e.get("data-on")) for e in elements(root, "legal-segment")]
    assert rings == [("1", "0", "road E")]
    text = panel_text(root)
    assert "Catapult round (knock-out) at the fair 0,1: still to shoot: Ann, Bob" in text, text
    assert "Ringed: the followers your secret shot may hit" in text and "fair" in text
    # the PNG has the tent's yellow
    width, height, rows = decode(png(svg))
    assert any(px[:3] == (0xf2, 0xc2, 0x30) for row in rows for px in row)

    # Bob shoots: Ann's picture shows that he has, not where; his own shows no rings
    shot, _ = act(state, 1, "shoot 1,0 road E")
    missed, _ = act(state, 1, "no shot")
    assert picture(shot, 0) == picture(missed, 0)
    assert "still to shoot: Ann" in panel_text(parse(picture(shot, 0)))
    assert not elements(parse(picture(shot, 1)), "legal-segment")
    rng = random.Random(5)
    for _ in range(5):
        assert picture(GAME.resample(shot, 0, rng), 0) == picture(shot, 0)
