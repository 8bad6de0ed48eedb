"""The players' chat in a mail: what the reader may read of what was said
since its last move (pbem/service/chat.py), one line each, worded for it.
Chat is the players' own text: it is shown as text (the HTML part escapes
it like every text), and holds nothing of the game's state."""
from __future__ import annotations

from ..games.i18n import _
from ..service import chat


def chat_lines(service, game_id: str, seat: int, since: int, names: list[str]) -> list[str]:
    def name(s: int) -> str:
        return names[s] if 0 <= s < len(names) else str(s)

    lines = []
    for m in chat.since_version(service, game_id, seat, since):
        if m["to"] is None:
            lines.append(_("{name}: {text}", name=name(m["seat"]), text=m["text"]))
        elif m["seat"] == seat:
            lines.append(_("You, to {name} only: {text}", name=name(m["to"]), text=m["text"]))
        else:
            lines.append(_("{name}, to you only: {text}", name=name(m["seat"]), text=m["text"]))
    return lines
