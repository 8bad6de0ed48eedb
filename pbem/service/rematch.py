"""Rematches: once a game is over any of its players may offer a rematch;
the others accept or decline. When every seat has answered, or when the
offer is out of time (``PBEM_REMATCH_WAIT_S``, the sweep), the new game is
made with the same game, options, language and title, and the players who
accepted, with their keys, addresses, webhooks and languages, the seats
rotated (the first accepted player after the old seat 0 now plays first),
if the game allows that many players; else the rematch is off.

Stored apart from the game (pbem/store/rematches.py), so a finished game's
log and record never change. ``after_rematch`` hooks (the notifications)
are called with what changed: ``offered``, ``started`` or ``off``.
"""
from __future__ import annotations

import time

from ..errors import Conflict, Unprocessable
from ..games.i18n import _
from ..store.rematches import Rematches
from .common import Part

def rotated(seats: list[int]) -> list[int]:
    """The old seats in the new game's order: the second player first."""
    return seats[1:] + seats[:1]


class Rematching(Part):
    @property
    def rematches(self) -> Rematches:
        found = getattr(self, "_rematches", None)
        if found is None:
            found = self._rematches = Rematches(self.store.redis)
        return found

    def rematch_of(self, game_id: str) -> dict:
        """A finished game's rematch as anyone may read it: ``status``
        (``none``, ``offered``, ``started``, ``off``), who offered and when,
        each seat's answer (``accepted``, ``declined``), the seats not
        answered yet, and the new game's id once started."""
        meta = self._meta(game_id)
        return self._rematch_out(meta, self.rematches.read(game_id))

    @staticmethod
    def _rematch_out(meta: dict, raw: dict) -> dict:
        players = int(meta["players"])
        answers = {s: ("accepted" if raw[f"s{s}"] == "yes" else "declined") for s in range(players)
                   if f"s{s}" in raw}
        status = raw.get("closed") or ("offered" if raw.get("offered") else "none")
        return {"game": meta["id"], "status": status,
                "offered": float(raw["offered"]) if raw.get("offered") else None,
                "by": int(raw["by"]) if raw.get("by") else None,
                "answers": {str(s): a for s, a in sorted(answers.items())},
                "waiting": [s for s in range(players) if s not in answers] if status == "offered" else [],
                "new_game": raw.get("game")}

    def answer_rematch(self, game_id: str, seat: int, accept: bool = True, now: float | None = None) -> dict:
        """A seat offers (the first acceptance), accepts or declines a
        rematch of its finished game. Refused, with nothing stored:
        ``rematch_game_not_over`` (409), ``rematch_answered`` (409: this
        seat answered already), ``rematch_closed`` (409: decided already),
        ``rematch_not_offered`` (409: a refusal with nothing to refuse)."""
        meta = self._meta(game_id)
        if meta.get("status") != "finished":
            raise Conflict("rematch_game_not_over", _("a rematch can be offered only once the game is over"))
        now = time.time() if now is None else now
        said = self.rematches.answer(game_id, seat, accept, now)
        if said == "answered":
            raise Conflict("rematch_answered", _("you have answered this rematch already"))
        if said == "closed":
            raise Conflict("rematch_closed", _("this rematch has been decided already"))
        if said == "not_offered":
            raise Conflict("rematch_not_offered", _("nobody has offered a rematch of this game"))
        out = self._rematch_out(meta, self.rematches.read(game_id))
        if said == "offered":
            self._told_rematch(game_id, "offered", seat)
        if not out["waiting"]:
            out = self.decide_rematch(game_id, now)
        return out

    def decide_rematch(self, game_id: str, now: float | None = None) -> dict:
        """Start the rematch with the seats that accepted, if the game allows
        that many players, else call it off; once (the first caller)."""
        now = time.time() if now is None else now
        meta = self._meta(game_id)
        raw = self.rematches.read(game_id)
        if raw.get("closed") or not raw.get("offered"):
            return self._rematch_out(meta, raw)
        players = int(meta["players"])
        accepted = [s for s in range(players) if raw.get(f"s{s}") == "yes"]
        # a game of several players never goes on as a game alone, even where the game has a solo mode
        fewest = 1 if players == 1 else 2
        try:
            allowed = len(accepted) >= fewest and bool(self.check_new_game(meta["game"], len(accepted),
                                                                            meta.get("options")))
        except Unprocessable:
            allowed = False
        new_id = self.store.new_game_id() if allowed else None
        if self.rematches.close(game_id, "started" if allowed else "off", now, new_id):
            if allowed:
                self._make_rematch(game_id)
            self._told_rematch(game_id, "started" if allowed else "off", None)
        return self._rematch_out(meta, self.rematches.read(game_id))

    def _make_rematch(self, game_id: str) -> str:
        """Make the decided rematch's game and seat its players; idempotent
        (a creation cut short is finished by the sweep: ``rematches_due``)."""
        meta = self._meta(game_id)
        raw = self.rematches.read(game_id)
        new_id = raw["game"]
        accepted = [s for s in range(int(meta["players"])) if raw.get(f"s{s}") == "yes"]
        order = rotated(accepted)
        if self.store.meta(new_id) is None:
            # the same title, unless it is the default one, which names the old game
            title = "" if game_id in str(meta.get("title") or "") else str(meta.get("title") or "")
            self.create_game(meta["game"], len(order), meta.get("options"), title, lang=meta.get("lang"),
                             game_id=new_id)
        old_seats, channels = self.store.seats(game_id), self.rematches.channels(game_id)
        self.rematches.copy_channels(new_id, {new: channels[old] for new, old in enumerate(order) if old in channels})
        taken = self.store.seats(new_id)
        for new, old in enumerate(order):
            if new in taken:
                continue
            seat = old_seats.get(old) or {}
            email = (channels.get(old) or {}).get("email", seat.get("email"))
            self.join(new_id, new, seat.get("public_key"), seat.get("name") or "", email=email,
                      webhook_url=seat.get("webhook_url"), lang=seat.get("lang"), tz=seat.get("tz"))
        self.rematches.made(game_id)
        return new_id

    def rematches_due(self, wait_s: float, now: float | None = None) -> list[str]:
        """The sweep's part: decide each rematch offered ``wait_s`` ago or
        more; finish the making of any decided one whose maker died."""
        now = time.time() if now is None else now
        done = []
        for game_id in self.rematches.due(now - wait_s):
            raw = self.rematches.read(game_id)
            if self.store.meta(game_id) is None:  # the game was deleted (its rematch with it)
                self.rematches.made(game_id)
            elif not raw.get("closed"):
                self.decide_rematch(game_id, now)
            elif raw["closed"] == "started":  # its maker died before the game was whole
                self._make_rematch(game_id)
            else:
                self.rematches.made(game_id)
            done.append(game_id)
        return done

    def _told_rematch(self, game_id: str, what: str, seat: int | None) -> None:
        for hook in getattr(self, "after_rematch", ()):
            hook(self, game_id, what, seat)
