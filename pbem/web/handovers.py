"""What the game page shows of a seat handed to a bot (pbem/games/handover.py):
to a seat's player, buttons to let a bot play it for a while (one per level),
or, while a bot plays it, the button to take it back; to the seats asked,
the request and buttons to accept or refuse; to the asker, whom it waits
for. The buttons send handover moves through the page's one way of moving
(the takebacks' form: parts/handover.html)."""
from __future__ import annotations

from ..games import handover
from ..games.i18n import join_words
from ..service import Service


def offer(service: Service, game_id: str, viewer, status: str, version: int | None, names: list) -> dict | None:
    """The page's handover part for ``viewer`` (None: nothing to show). Only
    a seat's page, now (not a past version), of a game in play, played by a
    person (the server's own bots hand nothing over)."""
    if version is not None or not isinstance(viewer, int) or status != "active":
        return None
    held = service.store.seats(game_id).get(viewer) or {}
    if held.get("bot"):
        return None
    now = service.handovers_if_any(game_id, service.load(game_id).version)
    if viewer in now.handed:
        return {"state": "handed", "level": handover.level_name(now.handed[viewer]["level"]),
                "moves": _moves("return")}
    waiting = now.waiting
    if waiting is not None and waiting.seat == viewer:
        return {"state": "asked", "waiting": join_words([names[s] for s in waiting.asked
                                                         if s not in waiting.accepted])}
    if waiting is not None:
        if viewer not in waiting.asked or viewer in waiting.accepted:
            return None
        return {"state": "answer", "by": names[waiting.seat], "level": handover.level_name(waiting.level),
                "moves": _moves("accept", "refuse")}
    return {"state": "offer", "moves": {level: {"move": {"handover": "request", "level": level},
                                                "text": handover.word("request", level),
                                                "label": handover.level_name(level)}
                                        for level in handover.LEVELS}}


def _moves(*answers: str) -> dict:
    return {answer: {"move": {"handover": answer}, "text": handover.word(answer)} for answer in answers}
