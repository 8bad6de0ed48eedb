"""A reply's rematch lines: ``rematch`` (``再來一局``, ``再來``) offers a
rematch of the finished game, or accepts the one offered; ``no rematch``
(``不再來``, ``decline rematch``) declines it (``Service.answer_rematch``).
Both languages' words are read from everyone; the answer says what was
done, or why not, with the code the API would answer."""
from __future__ import annotations

from ..errors import ServiceError
from ..games.base import plain_width
from ..games.i18n import _

ACCEPT = {"rematch", "accept rematch", "rematch please", "再來一局", "再來", "再戰", "接受再來一局"}
DECLINE = {"no rematch", "decline rematch", "不再來", "不再來一局", "不要再來"}


def _said(line: str) -> str:
    return " ".join(plain_width(line or "").lower().split()).strip(".!。！")


def is_rematch_line(line: str) -> bool:
    return _said(line) in ACCEPT or _said(line) in DECLINE


def accepts(line: str) -> bool:
    """A rematch line that offers or accepts (else it declines)."""
    return _said(line) in ACCEPT


def answer(service, game_id: str, seat: int, line: str) -> tuple[bool, list[str]]:
    """Do what a rematch line asks: (done, the answer's lines)."""
    accept = _said(line) in ACCEPT
    try:
        out = service.answer_rematch(game_id, seat, accept=accept)
    except ServiceError as err:
        return False, [_("not done: {reason} ({code}).", reason=err.message, code=err.code)]
    if out["status"] == "started":
        return True, [_("Done: everyone has answered, and the rematch has begun as game {game}; its first mail "
                        "is on its way.", game=out["new_game"])]
    if out["status"] == "off":
        return True, [_("Done: the rematch is off, as not enough players accepted it.")]
    if not accept:
        return True, [_("Done: you declined the rematch.")]
    return True, [_("Done: you accepted the rematch. It begins once every player has answered.")]
