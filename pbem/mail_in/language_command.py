"""A reply's language line: ``lang zh``, ``lang en``, ``lang zh-Hant``
(``language`` too, any tag pbem reads), or in Chinese ``語言 中文``,
``語言 英文``, or ``中文`` / ``英文`` on a line of their own, changes the
replying seat's language (``Service.set_seat_language``), and the answer
goes on in the new language from that line on, its confirmation first."""
from __future__ import annotations

import re

from ..errors import ServiceError
from ..games.base import plain_width
from ..games.i18n import CHINESE, ENGLISH, LANGUAGES, N_, _, language_of, read_on_in

# The command word, then the language; full-width text is read as ASCII first.
_LINE = re.compile(r"^(?:lang|language|語言)\s*[:：]?\s*(\S+)$", re.IGNORECASE)
#: A language named alone on its line (a Chinese reader's shortest way).
_ALONE = {"中文", "英文", "繁體中文", "正體中文"}
#: Each language by its own name, for the confirmation.
NAMES = {ENGLISH: N_("English"), CHINESE: N_("Traditional Chinese")}


def asked(line: str) -> tuple[bool, str | None]:
    """Whether ``line`` is a language line, and the language it asks for
    (None: a language pbem does not have)."""
    text = " ".join(plain_width(line or "").split())
    if text in _ALONE:
        return True, language_of(text)
    match = _LINE.match(text)
    if not match:
        return False, None
    lang = language_of(match.group(1).strip(".。"))
    return True, lang if lang in LANGUAGES else None


def is_language_line(line: str) -> bool:
    return asked(line)[0]


def change(service, game_id: str, seat: int, line: str) -> tuple[bool, list[str]]:
    """Do what a language line asks: (done, the answer's lines). Done, the
    rest of the answer reads the new language (``read_on_in``)."""
    _line, lang = asked(line)
    if lang is None:
        return False, [_("not done: pbem has no such language. Write 'lang en' for English or 'lang zh' for "
                         "Traditional Chinese (語言 中文).")]
    try:
        service.set_seat_language(game_id, seat, lang=lang)
    except ServiceError as err:
        return False, [_("not done: {reason} ({code}).", reason=err.message, code=err.code)]
    read_on_in(lang)
    return True, [_("Done: this game's mails come to you in {language} from now on.", language=_(NAMES[lang]))]
