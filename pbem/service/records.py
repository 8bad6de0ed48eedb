"""The game record: the signed log as JSON lines, filtered for the caller
while the game runs, verifiable offline (pbem/trust/record.py)."""
from __future__ import annotations

from typing import Iterator

from .. import games
from ..games import takeback
from ..games.base import OMNISCIENT
from ..store import dumps
from ..store import chat as chat_store
from .common import Part, readable_chat


def rated_as(seat: dict) -> str | None:
    """Who a seat's result is rated for (pbem/ratings): its key, else the
    address it joined by mail with (confirmed by that reply), by the random
    id drawn once for that address (pbem/store/addresses.py), so the public
    record never shows the address nor a digest one could test a guessed
    address against; a bot seat is rated as its level."""
    if seat.get("bot"):
        return f"bot:{seat['bot']}"
    if seat.get("public_key"):
        return f"key:{seat['public_key']}"
    if seat.get("rating_id"):
        return f"mail:{seat['rating_id']}"
    return None


class Records(Part):
    def record_lines(self, game_id: str, token: str | None) -> Iterator[str]:
        """The game record as JSON lines: a header, then every step of the log
        with the signed envelope that caused it, then (once the game is over)
        the seed and the result. While the game runs, events and envelopes are
        filtered for the caller (``redact``, ``redact_move``): a withheld
        envelope leaves ``envelope_withheld`` on its step, and the header lists
        those steps, whose signatures can be checked once the game is over."""
        meta = self._meta(game_id)
        viewer = self.viewer(game_id, token)
        game = games.get(meta["game"], int(meta["rules_version"]))
        finished = meta.get("status") == "finished"
        seen = OMNISCIENT if finished else viewer
        seats = self.store.seats(game_id)
        rows = self.store.events(game_id, 0, meta["version"])
        records = self.store.moves(game_id, (m for _, _, m in rows))
        steps: list[dict] = []
        for version, event, move_id in rows:
            if not steps or steps[-1]["move_id"] != move_id:
                steps.append({"move_id": move_id, "version_before": version - 1, "made": []})
            steps[-1]["made"].append(event)
            steps[-1]["version_after"] = version
        lines = []
        for step in steps:
            made = step.pop("made")
            rec = self._shown_record(meta, records.get(step["move_id"], {}), viewer, made)
            if rec.get("envelope_withheld"):
                step["envelope_withheld"] = True
            else:
                step["auth"] = rec.get("auth")
                if "envelope" in rec:
                    step["envelope"] = rec["envelope"]
            step["events"] = [takeback.shown(game, event, seen) for event in made]
            lines.append(step)
        yield dumps({"record": "pbem-game", "format": 1, "id": game_id, "game": game.name,
                     "rules_version": game.version, "players": meta["players"], "options": meta["options"],
                     "title": meta.get("title"), "created": meta.get("created"), "seed_sha256": meta["seed_sha256"],
                     "seats": [{"seat": s, "name": d["name"], "public_key": d["public_key"],
                                **({"bot": d["bot"]} if d.get("bot") else {}),
                                **({"rated_as": rated_as(d)} if rated_as(d) else {})}
                               for s, d in sorted(seats.items())],
                     "viewer": viewer, "sees_all": finished,
                     "withheld": [step["move_id"] for step in lines if step.get("envelope_withheld")]})
        # The chat the caller may read (pbem/service/chat.py), each message
        # after the step that brought the game to the version it was said at.
        said = [{"chat": m["n"], "seat": m["seat"], "to": m["to"], "text": m["text"], "time": m["time"],
                 "version": m["version"]} for m in chat_store.said(self.store, game_id)
                if readable_chat(m, viewer) and m["version"] <= meta["version"]]  # as the log was read: a move since would leave it out of place
        yield from (dumps(m) for m in said if m["version"] <= 0)
        for step in lines:
            yield dumps({k: step[k] for k in ("move_id", "version_before", "auth", "envelope", "envelope_withheld",
                                              "events", "version_after") if k in step})
            yield from (dumps(m) for m in said if m["version"] == step["version_after"])
        if finished:
            yield dumps({"end": True, "seed": self._seed(game_id).hex(), "result": meta.get("result"),
                         "version": meta["version"]})
