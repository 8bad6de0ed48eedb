"""A reply's chat line: ``say TEXT`` (in Chinese ``說 TEXT``) says TEXT to
the game's players; ``say @NAME TEXT`` (``說 @名字 TEXT``) says it to that
player only (a private message: pbem/service/chat.py). The line is one
command among the reply's others, in its place: moves above and below it
are applied as usual. The word and the text may be parted by a space or a
colon (``say: gg``, ``說：加油``)."""
from __future__ import annotations

import re

from ..errors import ServiceError
from ..games.i18n import _
from ..service import chat
from .reading import MAX_LINE

# The command word, then a space or a colon; the text is kept as written.
# (The word full-width too, as a Chinese keyboard may type it; the text is never changed.)
_LINE = re.compile(r"^\s*(?:say|ｓａｙ|說)(?:\s*[:：]\s*|\s+)(.*)$", re.IGNORECASE | re.DOTALL)


def is_chat_line(line: str) -> bool:
    return bool(_LINE.match(line or ""))


def _text_of(line: str) -> str:
    match = _LINE.match(line or "")
    return match.group(1).strip() if match else ""


def addressee(text: str, names: list[str]) -> tuple[int | None, str, bool]:
    """(seat, the text without its ``@NAME``, whether the name was known).
    A name is matched whole and case-insensitively, the longest first (a
    name may hold spaces); no ``@`` at the start: (None, text, True)."""
    if not text.startswith(("@", "＠")):
        return None, text, True
    rest = text[1:]
    for seat, name in sorted(enumerate(names), key=lambda item: -len(item[1])):
        if name and rest.casefold().startswith(name.casefold()):
            after = rest[len(name):]
            if not after or after[0].isspace() or after[0] in ":：,，":
                return seat, after.lstrip(" \t:：,，"), True
    return None, text, False


def say(service, game_id: str, seat: int, line: str, names: list[str]) -> tuple[bool, list[str]]:
    """Do what a chat line asks: (done, the answer's lines)."""
    if len(line) >= MAX_LINE:  # the reading cut it there: never store a message cut short
        return False, [_("not said: a mail's line is read up to {n} characters, and this one is longer. Say it "
                         "in shorter lines (chat_too_long).", n=MAX_LINE)]
    to, text, known = addressee(_text_of(line), names)
    if not known:
        return False, [_("not said: no player of this game is called that. Write 'say @NAME text' with one of: "
                         "{names}.", names=_(", ").join(names))]
    try:
        said = chat.say(service, game_id, seat, text, to, chat.ChatLimits.from_env())
    except ServiceError as err:
        return False, [_("not said: {reason} ({code}).", reason=err.message.rstrip(".。"), code=err.code)]
    if said["to"] is None:
        return True, [_("Said to everyone in the game.")]
    return True, [_("Said to {name} only.", name=names[said["to"]])]
