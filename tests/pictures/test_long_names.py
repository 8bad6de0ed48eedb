"""The longest names the API accepts (64 characters: ``JoinSeat.name``), in
Chinese and in Latin's widest letter, in every game's picture, its texts
read in Chinese or English: no label that holds a name runs into another
label, nor any text into another, no label leaves the picture, and every
character of a name that is shown is drawn (ink where it stands, no
placeholder)."""
from __future__ import annotations

import sys

import pytest

from pbem import pictures
from pbem.api.schemas import JoinSeat
from pbem.games.base import SPECTATOR
from pbem.games.i18n import reading
from pbem.games.playout import play_random
from pbem.pictures.markup import esc
from pbem.pictures.outlines import glyph

from .label_boxes import labels
from .png_pixels import decode, differing, region

LONGEST = max(v.max for v in JoinSeat._declared_fields["name"].validators if hasattr(v, "max"))
#: common Taiwanese given and family names, a different start for each seat
SURNAMES = "王小明陳美玲林志豪張雅婷李家豪黃淑芬吳宗翰劉怡君蔡承恩楊佩珊許文彬鄭雅惠謝孟哲郭欣怡洪俊傑曾詩涵"


def long_names(script: str, players: int) -> list:
    if script == "latin":
        # distinct (texts show two seats of one name as "seat N"), all as wide as can be
        return [chr(ord("A") + i) + "W" * (LONGEST - 1) for i in range(players)]
    return [((SURNAMES[3 * i:] + SURNAMES) * 3)[:LONGEST] for i in range(players)]


def setups(game) -> list:
    """The game's headline setups and its most crowded one."""
    module = sys.modules[pictures.draw_function(game.name).__module__]
    named = list(getattr(module, "BENCH_SETUPS", None) or game.sample_setups[:1])
    return named + [max(game.sample_setups, key=lambda s: s[0])]


def pictured(game, players, options, script):
    """(what, svg, names) for the finished game seen by a spectator and by
    seat 0, and its middle seen by the seat to act with its legal moves."""
    played = play_random(game, players, options, seed=1)
    version, player, _ = played.moves[len(played.moves) // 2]
    middle = game.replay(players, played.options, played.events[:version])
    names = long_names(script, players)
    with reading("zh-Hant" if script == "chinese" else "en"):
        for what, state, viewer in (("finished", played.state, SPECTATOR), ("finished, seat 0", played.state, 0),
                                    ("middle", middle, player)):
            legal = game.legal_moves(state, viewer) if isinstance(viewer, int) else None
            yield what, pictures.svg(game.name, game.view(state, viewer), names=names, viewer=viewer,
                                     legal=legal), names


def name_labels(boxes, names) -> list:
    starts = {n[:3] for n in names}
    return [b for b in boxes if any(s in b.text for s in starts)]


CASES = [pytest.param(game, players, options, script, id=f"{game.name}-{players}p-{i}-{script}")
         for game in pictures.games_with_pictures()
         for i, (players, options) in enumerate(setups(game))
         for script in ("chinese", "latin")]


@pytest.mark.parametrize("game,players,options,script", CASES)
def test_long_names_stay_inside_and_apart(game, players, options, script):
    for what, svg, names in pictured(game, players, options, script):
        width, height, boxes = labels(svg)
        outside = [b.text for b in boxes if not b.inside(width, height)]
        assert not outside, f"{what}: labels leave the {width}x{height} picture: {outside}"
        named = name_labels(boxes, names)
        assert named, f"{what}: no name is shown"
        for a in named:
            hits = [b.text for b in boxes if b is not a and a.overlaps(b)]
            assert not hits, f"{what}: {a.text!r} runs into {hits}"
            assert all(glyph(c).font in ("latin", "cjk") for c in a.text), f"{what}: {a.text!r} has a placeholder"
        # the texts (not a tile's two-letter code, whose box this model draws generously)
        wide = [b for b in boxes if b.x1 - b.x0 >= 40]
        for i, a in enumerate(wide):
            hits = [b.text for b in wide[i + 1:] if a.overlaps(b)]
            assert not hits, f"{what}: {a.text!r} runs into {hits}"


@pytest.mark.parametrize("game", pictures.games_with_pictures(), ids=lambda g: g.name)
@pytest.mark.parametrize("script", ("chinese", "latin"))
def test_every_character_of_a_shown_name_is_drawn(game, script):
    players, options = setups(game)[0]
    what, svg, names = next(pictured(game, players, options, script))
    width, height, boxes = labels(svg)
    named = name_labels(boxes, names)
    # the same picture with the names' labels emptied: each name's box loses ink
    # for each of its characters (a dropped character would leave its box as blank)
    bare = svg
    for b in named:
        bare = bare.replace(f">{esc(b.text)}<", "><")
    _, _, drawn = decode(pictures.png(svg))
    _, _, without = decode(pictures.png(bare))
    for b in named:
        top, bottom = max(0, int(b.y0)), min(int(height), int(b.y1) + 1)
        # each character's share of the box, by its advance, holds ink of its own
        advances = [glyph(c).advance for c in b.text]
        x, scale, inked = b.x0, (b.x1 - b.x0) / sum(advances), []
        for c, advance in zip(b.text, advances):
            if not c.isspace():
                slice_ = (max(0, int(x)), top, min(int(width), int(x + advance * scale) + 1), bottom)
                inked.append(differing(region(drawn, *slice_), region(without, *slice_)))
            x += advance * scale
        assert min(inked) > 3, f"{b.text!r}: a character left no ink ({inked})"
