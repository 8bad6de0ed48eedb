"""What every game's picture owes, for each game that has one
(``pbem/pictures/<game>.py``) and each of its sample setups: valid SVG from
every viewer's view at several points of seeded random games, a PNG, and no
dependence on what the view hides (the picture of a spectator's view equals
the picture of a re-dealt state's spectator view, re-dealt as the contract
suite does with ``game.resample``)."""
from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from pbem import pictures
from pbem.games.base import OMNISCIENT, SPECTATOR, canonical
from pbem.games.playout import play_random

CASES = [pytest.param(game, players, options, id=f"{game.key}-{players}p-{canonical(options)}")
         for game in pictures.games_with_pictures()
         for players, options in game.sample_setups]


def moments(game, players, options, seed):
    played = play_random(game, players, options, seed=seed)
    for frac in (0.0, 0.5):
        version = played.moves[int(len(played.moves) * frac)][0]
        yield game.replay(players, played.options, played.events[:version])
    yield played.state


def test_carcassonne_has_a_picture():
    assert "carcassonne" in {g.name for g in pictures.games_with_pictures()}


@pytest.mark.parametrize("game,players,options", CASES)
def test_pictures_of_every_viewer_are_svg(game, players, options):
    names = [f"P{i}" for i in range(players)]
    for state in moments(game, players, options, seed=2):
        for viewer in (SPECTATOR, *range(players), OMNISCIENT):
            legal = game.legal_moves(state, viewer) if isinstance(viewer, int) else None
            text = pictures.svg(game.name, game.view(state, viewer), names=names, viewer=viewer, legal=legal)
            assert ET.fromstring(text).tag == "{http://www.w3.org/2000/svg}svg"
    assert pictures.png(text)[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("game,players,options", CASES)
def test_a_picture_shows_nothing_the_view_hides(game, players, options):
    rng = random.Random(5)
    for seed in range(2):
        for state in moments(game, players, options, seed):
            for viewer in (SPECTATOR, *range(players)):
                other = game.resample(state, viewer, rng)
                assert pictures.svg(game.name, game.view(other, viewer), viewer=viewer) == \
                    pictures.svg(game.name, game.view(state, viewer), viewer=viewer), (
                    f"the picture of {viewer} depends on something hidden from them")
