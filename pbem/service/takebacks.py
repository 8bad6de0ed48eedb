"""Takebacks by consent in the move pipeline (the rules of consent are
pbem/games/takeback.py's, pure): a takeback move is decided here, on the
game's whole log, instead of by the game's ``decide``.

Takeback moves are rare, so they read the log and its move records (two
round trips) rather than asking the hot path to keep anything: a game move
never pays for takebacks (a pending request is ended by the next game move,
which needs no check)."""
from __future__ import annotations

from ..games import takeback
from ..games.base import GameError
from ..games.i18n import _
from .common import Loaded, Part


class Takebacks(Part):
    def takeback_steps(self, game_id: str, version: int) -> list[takeback.Step]:
        """The log up to ``version`` as steps: who moved, the move, its events."""
        rows = self.store.events(game_id, 0, version)
        records = self.store.moves(game_id, (m for _v, _e, m in rows))
        steps: list[takeback.Step] = []
        last_id = None
        for at, event, move_id in rows:
            if move_id != last_id:
                envelope = (records.get(move_id) or {}).get("envelope") or {}
                steps.append(takeback.Step(envelope.get("player"), envelope.get("move"), at - 1))
                last_id = move_id
            steps[-1].events.append(event)
        return steps

    def decide_takeback(self, loaded: Loaded, player: int, move: dict,
                        steps: list[takeback.Step] | None = None) -> tuple[list, object]:
        """A takeback move's events and the state after them (raises
        ``GameError`` with the reason it is refused). ``steps``: the log up
        to ``loaded.version``, when the caller has read it."""
        steps = self.takeback_steps(loaded.id, loaded.version) if steps is None else steps
        if (steps[-1].version_before + len(steps[-1].events) if steps else 0) != loaded.version:
            # the log as stored is behind the state given: decided again once it is not
            raise GameError("busy", _("the game kept changing; try again"))

        def state_at(version: int):
            return self.load(loaded.id, version, loaded.meta).state

        events = takeback.decide(loaded.game, int(loaded.meta["players"]), steps, player, move, state_at)
        state = loaded.state
        for event in events:
            state = takeback.fold(loaded.game, state, event, state_at)
        return events, state

    def takeback_stale(self, loaded: Loaded, expected: int, move: dict) -> bool:
        """Whether a takeback move signed at ``expected`` is too old: a
        request must be signed at the current version (it names the last
        move as it stood); an answer at any version since the request it
        answers (other seats' answers move the version on meanwhile)."""
        if expected > loaded.version:
            return True
        if move.get("takeback") == "request" or expected == loaded.version:
            return expected != loaded.version
        waiting = takeback.pending(self.takeback_steps(loaded.id, loaded.version))
        return waiting is None or expected < waiting.at

    def takeback_pending(self, game_id: str, steps: list[takeback.Step] | None = None) -> dict | None:
        """The request waiting for answers, as the API and the pages show it:
        who asked, back to which version, who is asked, who has accepted."""
        if steps is None:
            steps = self.takeback_steps(game_id, int(self.meta(game_id)["version"]))
        waiting = takeback.pending(steps)
        if waiting is None:
            return None
        return {"by": waiting.by, "to_version": waiting.to_version, "asked": waiting.asked,
                "accepted": sorted(waiting.accepted), "since": waiting.at,
                "waiting_for": [s for s in waiting.asked if s not in waiting.accepted]}


__all__ = ["GameError", "Takebacks"]
