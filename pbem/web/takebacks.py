"""What the game page shows of takebacks (pbem/games/takeback.py): to the
seat whose move can be taken back, a button to ask; to the seats asked, the
request and buttons to accept or refuse; to the asker, whom it waits for.
The buttons send takeback moves through the page's one way of moving."""
from __future__ import annotations

from ..games import takeback
from ..games.base import GameError
from ..games.i18n import join_words
from ..service import Service


def offer(service: Service, game_id: str, viewer, status: str, version: int | None, names: list) -> dict | None:
    """The page's takeback part for ``viewer`` (None: nothing to show). Only
    a seat's page, now (not a past version), of a game in play."""
    if version is not None or not isinstance(viewer, int) or status != "active":
        return None
    loaded = service.load(game_id)
    last = service.store.events(game_id, loaded.version - 1, loaded.version)
    if last and not takeback.is_meta(last[0][1]):
        # Nothing waits for answers (a game move ends a request), and only the
        # seat that made this last move could ask: for every other seat, two
        # small reads instead of the whole log.
        record = service.store.move(game_id, last[0][2]) or {}
        if (record.get("envelope") or {}).get("player") != viewer:
            return None
    steps = service.takeback_steps(game_id, loaded.version)  # one read of the log for both questions
    pending = service.takeback_pending(game_id, steps)
    if pending is not None:
        return {"pending": pending, "by": names[pending["by"]], "mine": pending["by"] == viewer,
                "answer": viewer in pending["waiting_for"],
                "waiting": join_words([names[s] for s in pending["waiting_for"]]), "moves": _moves("accept", "refuse")}
    try:
        service.decide_takeback(loaded, viewer, {"takeback": "request"}, steps)  # a trial: would it be taken?
    except GameError:
        return None
    return {"pending": None, "moves": _moves("request")}


def _moves(*answers: str) -> dict:
    """Each answer's move and its words in the notation (what the page says it sent)."""
    return {answer: {"move": {"takeback": answer}, "text": takeback.word(answer)} for answer in answers}
