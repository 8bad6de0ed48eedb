"""RQ job functions: thin, importable, safe to run twice."""
from __future__ import annotations

from .context import context


def drain_moves(helper: bool = False, shard: int | None = None) -> int:
    """Apply queued move submissions as they come (see pbem.pipeline). A
    shard's drain (a cluster's) runs in a thread of this process and the
    job returns at once (pbem/pipeline/drainers.py)."""
    service, queue = context()
    if shard is None:
        return queue.drain(service.apply_moves, helper=helper)
    from pbem.pipeline.drainers import DRAINERS

    shard_queue = queue.for_shard(shard)
    DRAINERS.start(f"moves {shard}{' helper' if helper else ''}",
                   lambda: shard_queue.drain(service.apply_moves, helper=helper))
    return 0


def apply_move(game_id: str, move_id: str) -> dict:
    """Apply one move by id (for operators and tests; drain_moves is the path)."""
    service, _ = context()
    return service.apply_move(game_id, move_id)
