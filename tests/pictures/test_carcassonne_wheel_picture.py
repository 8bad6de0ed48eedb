"""The Wheel of Fortune on the picture: the wheel's middle tiles, the wheel numbers
and the panel's line of the pig and the crowns, in English and Chinese."""
from __future__ import annotations

import random

from pbem import games, pictures
from pbem.games.i18n import reading
from pbem.pictures.raster import png

G = games.get("carcassonne")


def _game():
    opts = G.check_options(2, {"draw_order": ["U", "WFA", "E"], "start_player": 0, "expansions": ["wheel_of_fortune"]})
    state = G.start(2, opts)
    state = G.apply(state, G.setup(state, random.Random(0)))
    for player, text in ((0, "place 0,-3 r90"), (0, "wheel plague")):
        state = G.apply(state, G.decide(state, player, G.parse(text, state, player), random.Random(0)))
    return state


def test_the_picture_shows_the_wheel_the_pig_and_the_crowns(tmp_path):
    state = _game()
    view = G.view(state, 0)
    svg = pictures.svg("carcassonne", view, names=["Ann", "Bob"], viewer=0)
    assert "[Tax]" in svg and "Plague Ann" in svg
    assert ">the Wheel<" in svg                                         # the key
    assert svg.count("#f3c6d3") >= 5           # 4 quarters of the wheel + the number on the tile in hand's art
    with reading("zh-Hant"):
        zh = pictures.svg("carcassonne", view, names=["Ann", "Bob"], viewer=0)
    assert "[稅收]" in zh and "瘟疫：Ann" in zh and "冠冕格" in zh
    (tmp_path / "wheel.png").write_bytes(png(svg))
    assert (tmp_path / "wheel.png").stat().st_size > 1000


def test_the_plague_and_the_crowns_by_touch():
    """The Plague's choices are the viewer's followers, ringed on the board; a crown space
    is a button (offboard), one per sector with a free crown."""
    from pbem.pictures.carcassonne import touch as touch_fn
    from tests.games.test_carcassonne_wheel import _plague
    state = _plague()
    legal = [{"move": m, "text": G.describe(m, 0)} for m in G.legal_moves(state, 0)]
    made = touch_fn(G.view(state, 0), legal, 0, ["Ann", "Bob"])
    assert made["paths"] == [["cell:-1,-3"]] or made["paths"][0][0].startswith(("cell:-1,-3", "seg:-1,-3"))
    svg = pictures.svg("carcassonne", G.view(state, 0), names=["Ann", "Bob"], viewer=0, legal=G.legal_moves(state, 0))
    assert "Plague sends home" in svg
    state = _game()
    opts = G.check_options(2, {"draw_order": ["U", "E"], "start_player": 0, "expansions": ["wheel_of_fortune"]})
    state = G.start(2, opts)
    state = G.apply(state, G.setup(state, random.Random(0)))
    state = G.apply(state, G.decide(state, 0, G.parse("place 0,-3 r90", state, 0), random.Random(0)))
    legal = [{"move": m, "text": G.describe(m, 0)} for m in G.legal_moves(state, 0)]
    made = touch_fn(G.view(state, 0), legal, 0, ["Ann", "Bob"])
    assert {"crown:tax", "crown:plague", "pass"} <= set(made["offboard"])
    svg = pictures.svg("carcassonne", G.view(state, 0), names=["Ann", "Bob"], viewer=0, legal=G.legal_moves(state, 0))
    assert "crown space of the Wheel" in svg
