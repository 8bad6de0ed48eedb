"""RQ job functions: thin, importable, safe to run twice."""
from __future__ import annotations

from .context import context


def drain_moves(helper: bool = False) -> int:
    """Apply queued move submissions as they come (see pbem.pipeline)."""
    service, queue = context()
    return queue.drain(service.apply_moves, helper=helper)


def apply_move(game_id: str, move_id: str) -> dict:
    """Apply one move by id (for operators and tests; drain_moves is the path)."""
    service, _ = context()
    return service.apply_move(game_id, move_id)
