"""Who reads a mail or a webhook: the language and the time zone its texts
are built in.

A seat reads its own language, else its game's (``reader_language``); an
invitation reads the language it was sent with, else its game's. Every
text of a mail, the picture's own words and the games' texts included, is
built inside ``with reading(reader.lang):`` (pbem.games.i18n), and its
times are written by ``pbem.when.when`` in the reader's zone, the zone
named: so one function decides, and nothing is translated after the fact.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..games.i18n import _, reader_language
from ..when import valid_zone, when


@dataclass(frozen=True)
class Reader:
    lang: str = "en"
    tz: str | None = None   # an IANA zone the seat chose; None: the language's usual one (pbem.when)

    def when(self, moment: float) -> str:
        """A moment as this reader reads it, its zone named."""
        return when(moment, self.tz, self.lang)


def seat_reader(meta: dict | None, seat: dict | None) -> Reader:
    """The reader of a seat's mails: the seat's ``lang`` and ``tz`` (its JSON
    in the seats hash) when chosen, else the game's ``lang``."""
    seat, meta = seat or {}, meta or {}
    tz = seat.get("tz")
    return Reader(reader_language(seat.get("lang"), meta.get("lang")), tz if valid_zone(tz) else None)


def invitation_reader(meta: dict | None, invitation: dict | None) -> Reader:
    """The reader of an invitation and of the answers to its replies, until
    the seat is taken: the invitation's ``lang``, else the game's."""
    invitation, meta = invitation or {}, meta or {}
    tz = invitation.get("tz")
    return Reader(reader_language(invitation.get("lang"), meta.get("lang")), tz if valid_zone(tz) else None)


def quoted(text: str) -> str:
    """A player's own text (or a move line) quoted in a sentence, as text:
    “place -1,0 r0”, 「謝謝」; never a Python repr."""
    return _("“{text}”", text=text)
