"""A reply's digest line (pbem.notify.digests): ``digest daily``, ``digest
hourly``, ``digest off`` (in Chinese ``摘要 每天``, ``摘要 每小時``,
``摘要 關閉``) chooses, for the replying seat, one mail a day or an hour
listing the games waiting for its address, or a mail per turn again."""
from __future__ import annotations

import re

from ..games.base import plain_width
from ..games.i18n import N_, _
from ..notify.config import NotifySettings
from ..notify.store import NotifyStore

# The word alone is a digest line too: answered with the choices.
_LINE = re.compile(r"^(?:digest|摘要)(?:\s*[:：]?\s*(\S+))?$", re.IGNORECASE)
CHOICES = {"daily": "daily", "day": "daily", "每天": "daily", "每日": "daily",
           "hourly": "hourly", "hour": "hourly", "每小時": "hourly",
           "off": "off", "none": "off", "關閉": "off", "關": "off"}
FIRST_WORDS = ("digest", "摘要")
SAID = {"daily": N_("Done: the games waiting for you come in one mail a day from now on, instead of a mail per "
                    "turn."),
        "hourly": N_("Done: the games waiting for you come in one mail an hour from now on, instead of a mail per "
                     "turn."),
        "off": N_("Done: you get a mail for each turn again.")}


def is_digest_line(line: str) -> bool:
    return bool(_LINE.match(" ".join(plain_width(line or "").split())))


def run(service, game_id: str, seat: int, line: str) -> tuple[bool, list[str]]:
    """Do what a digest line asks: (done, the answer's lines)."""
    match = _LINE.match(" ".join(plain_width(line or "").split()))
    choice = CHOICES.get(match.group(1).strip(".。").lower()) if match and match.group(1) else None
    if choice is None:
        return False, [_("not done: write “digest daily”, “digest hourly” or “digest off” (摘要 每天、摘要 每小時、"
                         "摘要 關閉).")]
    store = NotifyStore(service.store.redis)
    channels = store.channels(game_id, seat, service.store.seats(game_id).get(seat))
    store.save_channels(game_id, seat, {**channels, "digest": choice})
    return True, [_(SAID[choice])]
