"""docs/views/<game>.md are generated from seeded games and the games'
``view_fields``: they are current, and every field a view has is described."""
from __future__ import annotations

import pytest

from pbem import games
from pbem.docgen import view_docs


@pytest.mark.parametrize("game", games.latest_games(), ids=lambda g: g.name)
def test_each_games_view_page_is_current_and_complete(game):
    found = view_docs.samples(game)
    seen = view_docs.fields_seen(found)
    undocumented = set(seen) - set(game.view_fields)
    assert not undocumented, f"{game.name}: describe these view fields in view_fields: {sorted(undocumented)}"
    path = view_docs.OUT / f"{game.name}.md"
    assert path.exists() and path.read_text() == view_docs.page(game, found), \
        f"{path} is stale: run `make docs`"


def test_a_page_shows_a_seats_secret_and_hides_it_from_the_spectator():
    text = (view_docs.OUT / "kachina.md").read_text()
    assert "| `hand` | seat |" in text  # a seat's own tiles: never a spectator's
    assert "A spectator sees:" in text
