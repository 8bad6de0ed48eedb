"""A reply's vacation lines (pbem.notify.vacations): ``vacation 7`` (or
``vacation 7 days``; in Chinese ``休假 7`` or ``休假 7 天``) sends the
replying player on vacation for that many days, pausing the deadlines of
all their games; ``back`` (``收假``, ``回來``) ends it early. Full-width
digits read as ASCII. The answer says what was done, or why not."""
from __future__ import annotations

import re

from ..errors import ServiceError
from ..games.base import plain_width
from ..games.i18n import _, ngettext
from ..notify.config import NotifySettings
from ..notify.readers import Reader
from ..notify.vacations import Vacations

_VACATION = re.compile(r"^(?:vacation|holiday|休假)\s*[:：]?\s*([-+]?\d+)?\s*(?:days?|天)?[.。]?$", re.IGNORECASE)
BACK_WORDS = ("back", "收假", "回來")
#: The first words of these lines: never taken for a note.
FIRST_WORDS = ("vacation", "holiday", "休假", *BACK_WORDS)


def _text(line: str) -> str:
    return " ".join(plain_width(line or "").split())


def is_back_line(line: str) -> bool:
    return _text(line).lower().rstrip(".。!！") in BACK_WORDS


def is_vacation_line(line: str) -> bool:
    """A vacation line or a ``back`` line."""
    return bool(_VACATION.match(_text(line))) or is_back_line(line)


def run(service, game_id: str, seat: int, line: str, reader: Reader) -> tuple[bool, list[str]]:
    """Do what a vacation line asks: (done, the answer's lines)."""
    from ..notify.notifier import Notifier

    vacations = Vacations(Notifier(service, NotifySettings()))
    data = service.store.seats(game_id).get(seat) or {}
    match = _VACATION.match(_text(line))
    try:
        if match:
            record = vacations.declare(data, int(match.group(1)) if match.group(1) else None)
            games = len(record.get("games", {}))
            return True, [ngettext("Done: you are on vacation until {end}. The deadlines of your {n} game are "
                                   "paused until then, and the other players are told.",
                                   "Done: you are on vacation until {end}. The deadlines of your {n} games are "
                                   "paused until then, and the other players are told.", games,
                                   end=reader.when(record["end"]))]
        vacations.back(data)
        return True, [_("Done: welcome back. The deadlines of your games run again, and the other players are "
                        "told.")]
    except ServiceError as err:
        return False, [_("not done: {reason} ({code}).", reason=err.message, code=err.code)]
