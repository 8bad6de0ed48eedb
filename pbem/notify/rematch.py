"""Who is told what of a rematch (pbem/service/rematch.py), by mail and
webhook, each seat in its own language:

- ``offered``: every other seat of the finished game, with the words to
  reply (``rematch`` to accept, ``no rematch`` to decline);
- ``started``: every seat of the new game, on the new game (its links, its
  reply address; the play link for the seat to act);
- ``off``: every seat of the finished game.

The service's hook only queues a job (pbem/notify/hooks.py ``rematch_news``):
mails are sent by the notification workers, never in the request that answered."""
from __future__ import annotations

from ..games.i18n import CHINESE, ENGLISH, _, notation_language, reading
from .kinds import REMATCH_OFF, REMATCH_OFFERED, REMATCH_STARTED
from .readers import quoted

#: The reply lines of a rematch, in both languages (read from everyone by
#: pbem/mail_in/rematch.py; pbem/mail_in/words.py lists them with the other
#: commands): each reader is shown their own.
WORDS = {"rematch": {ENGLISH: "rematch", CHINESE: "再來一局"},
         "no rematch": {ENGLISH: "no rematch", CHINESE: "不再來"}}


def word(command: str) -> str:
    """How ``command`` ("rematch", "no rematch") is written for the reader."""
    return WORDS[command][notation_language()]


def tell(notifier, game_id: str, what: str, seat: int | None) -> list[int]:
    """Tell the seats concerned (``notifier``: pbem.notify.notifier.Notifier);
    the seats told."""
    service = notifier.service
    rematch = service.rematch_of(game_id)
    if what == "started" and rematch.get("new_game"):
        loaded = service.load(rematch["new_game"])
        seats = range(int(loaded.meta["players"]))
        kind = REMATCH_STARTED
    else:
        loaded = service.load(game_id)
        seats = [s for s in range(int(loaded.meta["players"])) if s != seat]
        kind = REMATCH_OFFERED if what == "offered" else REMATCH_OFF
    names = notifier.notice(loaded, 0, kind).names if kind == REMATCH_STARTED else None
    told = []
    for s in seats:
        with reading(notifier.reader(loaded, s).lang):
            message = _message(kind, loaded, s, seat, names or notifier.notice(loaded, s, kind).names, game_id)
        notifier.tell(loaded, s, kind, message=message)
        told.append(s)
    return told


def _message(kind: str, loaded, reader: int, by: int | None, names: list[str], old_id: str) -> str:
    if kind == REMATCH_OFFERED:
        return _("{name} offers a rematch: the same game with the same players, the seats rotated. Reply "
                 "{rematch} to accept, or {no} to decline; the game's page has the same buttons.",
                 name=names[by] if by is not None and by < len(names) else _("a player"),
                 rematch=quoted(word("rematch")), no=quoted(word("no rematch")))
    if kind == REMATCH_STARTED:
        return _("The rematch of game {old} has begun: you play as {name}, and {first} plays first. Reply to "
                 "this mail with your moves, or use the links below.", old=old_id, name=names[reader],
                 first=names[0])
    return _("The rematch is off: not enough players accepted it in time.")
