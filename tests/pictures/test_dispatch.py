"""pbem.pictures.svg finds a game's draw by its name, and nothing else."""
from __future__ import annotations

import pytest

from pbem import pictures


def test_shared_modules_and_unknown_names_are_not_pictures():
    for name in ("markup", "palette", "raster", "fonts", "no_such_game", "../etc", "", None):
        assert not pictures.has_picture(name)
    with pytest.raises(pictures.NoPicture):
        pictures.svg("no_such_game", {})


def test_last_is_passed_only_to_a_draw_that_takes_it(monkeypatch):
    seen = []

    def plain(view, *, names=None, viewer=None, legal=None):
        seen.append(("plain", view))
        return "<svg/>"

    def marking(view, *, names=None, viewer=None, legal=None, last=None):
        seen.append(("marking", last))
        return "<svg/>"

    monkeypatch.setitem(pictures._DRAW, "plain_game", plain)
    monkeypatch.setitem(pictures._DRAW, "marking_game", marking)
    pictures.svg("plain_game", {"a": 1}, last=[{"type": "X"}])
    pictures.svg("marking_game", {}, last=[{"type": "X"}])
    assert seen == [("plain", {"a": 1}), ("marking", [{"type": "X"}])]
