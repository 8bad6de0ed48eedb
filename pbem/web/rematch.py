"""What a finished game's page shows of its rematch (pbem/service/rematch.py):
where it stands in words, and for the page's script (static/rematch.js)
which seats may still answer and, once begun, which seat of the new game
each old seat plays (a browser holding an old seat's key takes the new one
by a signed join, as after a lost join answer)."""
from __future__ import annotations

import json

from ..games.i18n import _, join_words
from ..service import Service
from ..service.rematch import rotated


def rematch_view(service: Service, game_id: str, names: list[str]) -> dict:
    out = service.rematch_of(game_id)

    def named(seats) -> str:
        return join_words([names[s] if s < len(names) else _("seat {n}", n=s) for s in seats])

    accepted = [int(s) for s, a in out["answers"].items() if a == "accepted"]
    declined = [int(s) for s, a in out["answers"].items() if a == "declined"]
    lines = []
    if out["status"] == "none":
        lines.append(_("The game is over. Any player may offer a rematch: the same game with the same players, "
                       "the seats rotated."))
    elif out["status"] == "offered":
        lines.append(_("{name} offers a rematch.", name=named([out["by"]])))
        if accepted:
            lines.append(_("Accepted: {names}.", names=named(accepted)))
        if declined:
            lines.append(_("Declined: {names}.", names=named(declined)))
        lines.append(_("Waiting for: {names}.", names=named(out["waiting"])))
    elif out["status"] == "off":
        lines.append(_("The rematch is off: not enough players accepted it."))
    plan = {}
    if out["status"] == "started":
        order = rotated(sorted(accepted))
        plan = {str(old): {"seat": new, "name": names[old] if old < len(names) else ""}
                for new, old in enumerate(order)}
    return {**out, "lines": lines, "plan": json.dumps(plan, sort_keys=True),
            "waiting_json": json.dumps(out["waiting"])}
