"""Who reads in which language: a game's language (chosen at its creation),
each seat's own (at its join, on its invitation, later by the seat's
token or a mail's ``lang`` line) and its time zone.

Stored: the game's meta ``lang`` ("en" unless chosen); a seat's JSON
``lang`` and ``tz`` only where chosen, so that a seat that chose nothing
reads its game's language (``seat_language``: ``reader_language``'s one
rule, for the API, the mails and the pages alike; these functions are
in ``common``, which every part may use)."""
from __future__ import annotations

import json

from ..errors import Conflict
from ..games.i18n import _
from .common import Part, preferences, seat_language, unknown_seat

#: How many times a language change reads the seat again when something
#: else changed it meanwhile (a new token), before it gives up (409 busy).
RETRIES = 8


class Languages(Part):
    def set_seat_language(self, game_id: str, seat: int, lang: str | None = None, tz: str | None = None) -> dict:
        """Change a held seat's language and/or time zone (None: as it is).
        Stored only if the seat is still as it was read (its JSON, whole),
        read again when a join's or a token's change got in first, so that
        neither change is lost."""
        chosen = preferences(lang, tz)  # 422 before anything is read or stored
        meta = self._meta(game_id)
        if not 0 <= seat < meta["players"]:
            raise unknown_seat(game_id, meta)
        if meta.get("archived"):
            raise Conflict("game_over", _("the game is over and archived: its seats no longer change"))
        for _attempt in range(RETRIES):
            raw = self.store.seat_raw(game_id, seat)
            if raw is None:
                raise Conflict("seat_free", _("nobody holds seat {seat}: join it", seat=seat))
            held = json.loads(raw)
            changed = {**held, **chosen}
            if changed == held or self.store.update_seat(game_id, seat, raw, changed) == "ok":
                return self.seat_preferences(game_id, seat, changed, meta)
        raise Conflict("busy", _("the seat kept changing while its language was set; try again"))

    @staticmethod
    def seat_preferences(game_id: str, seat: int, held: dict, meta: dict) -> dict:
        """What ``PATCH /games/{id}/seats/{seat}`` answers: the language the
        seat reads now and its zone (null: the language's usual one)."""
        return {"game": game_id, "seat": seat, "lang": seat_language(held, meta), "tz": held.get("tz")}
