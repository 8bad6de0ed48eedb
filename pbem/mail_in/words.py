"""How the commands that are not moves are written for a reader: the word
of the notation's language (``help``, ``說明``). Both languages' words are
read from everyone (pbem.mail_in.process); a reader is shown their own."""
from __future__ import annotations

from ..games.i18n import CHINESE, ENGLISH, notation_language
from ..notify.rematch import WORDS as REMATCH_WORDS

COMMAND_WORDS = {"help": {ENGLISH: "help", CHINESE: "說明"}, "board": {ENGLISH: "board", CHINESE: "盤面"},
                 "moves": {ENGLISH: "moves", CHINESE: "動作"}, "join": {ENGLISH: "join", CHINESE: "加入"},
                 "say": {ENGLISH: "say", CHINESE: "說"},
                 "vacation": {ENGLISH: "vacation", CHINESE: "休假"}, "back": {ENGLISH: "back", CHINESE: "收假"},
                 "digest": {ENGLISH: "digest", CHINESE: "摘要"},
                 **REMATCH_WORDS}


def command_word(command: str) -> str:
    """How ``command`` ("help", "board", "moves", "join", "say", "vacation", "back", "digest", "rematch",
    "no rematch") is written for the reader."""
    return COMMAND_WORDS[command][notation_language()]
