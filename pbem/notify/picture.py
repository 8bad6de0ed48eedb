"""The board as a picture for one reader's mail: drawn from that reader's
``view`` (never the state), with their legal moves marked when it is their
turn, rasterised to PNG.

Only mail jobs call this (the notices drainer and the inbound mail jobs, in
the idle-priority background worker): a PNG costs 50-250 ms of CPU, which
must never be spent in the API process or the move path. A mail whose
picture cannot be drawn goes without it: the text part has the board too.
"""
from __future__ import annotations

import logging

from .. import pictures

log = logging.getLogger(__name__)


def board_png(game, state, viewer, names: list[str] | None, legal: list | None) -> bytes | None:
    """The PNG of ``viewer``'s view of ``state``, or None (no picture module,
    or drawing failed)."""
    if not pictures.has_picture(game.name):
        return None
    try:
        view = game.view(state, viewer)
        text = pictures.svg(game.name, view, names=names, viewer=viewer, legal=legal or None)
        return pictures.png(text)
    except Exception:  # a picture bug must not stop the mail: the text has the board
        log.exception("the picture of %s for viewer %r failed", game.name, viewer)
        return None
