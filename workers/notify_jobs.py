"""RQ jobs of the ``pbem-notify`` queue: thin, they take ids and reload
(see pbem.notify.notifier for what each does)."""
from __future__ import annotations

import json
import logging
import time

import redis

from pbem.store.connections import STORE_DOWN
from pbem.notify.config import NotifySettings
from pbem.notify.hooks import notice_queue
from pbem.notify.notifier import Notifier

from .context import context

log = logging.getLogger(__name__)


def _notifier() -> Notifier:
    service, _ = context()
    return Notifier(service, NotifySettings())


def drain_notices(helper: bool = False, shard: int | None = None) -> int:
    """Handle turn notices as they come (pbem.notify.hooks, pbem.pipeline);
    a shard's (a cluster's) in a thread, as ``drain_moves`` does."""
    service, _ = context()
    notifier = _notifier()
    actions = {"after_move": notifier.after_move, "after_reject": notifier.after_reject,
               "takeback": notifier.takeback_news}

    def handle(items: list[dict]) -> None:
        for item in items:  # one at a time: a notice is never handled twice for a neighbour's failure
            try:
                made = int(item.get("t") or 0) / 1000
                notifier.behind = bool(made) and time.time() - made > notifier.conf.picture_lag_s
                actions[item["k"]](*json.loads(item["a"]))
            except STORE_DOWN:
                raise
            except Exception:
                log.exception("notice %s failed", item)

    if shard is None:
        return notice_queue(service.store.redis).drain_fields(handle, helper=helper)
    from pbem.pipeline.drainers import DRAINERS

    queue = notice_queue(service.store.redis, shard)
    DRAINERS.start(f"notices {shard}", lambda: queue.drain_fields(handle, helper=helper))
    return 0


def after_move(game_id, before_version, version, before, after, mover, finished):
    return _notifier().after_move(game_id, before_version, version, before, after, mover, finished)


def after_reject(game_id, move_id):
    return _notifier().after_reject(game_id, move_id)


def mail(game_id, seat, kind, since, version, message="", attempt=1):
    return _notifier().mail(game_id, seat, kind, since, version, message, attempt)


def deferred_turn_mail(game_id, seat):
    return _notifier().deferred_turn_mail(game_id, seat)


def digest(game_id, seat):
    return _notifier().digest(game_id, seat)


def deliver_webhook(game_id, seat, delivery_id, attempt):
    return _notifier().deliver(game_id, seat, delivery_id, attempt)


def reminder_due(game_id, seat, since_version):
    return _notifier().reminder_due(game_id, seat, since_version)


def deadline_due(game_id, seat, since_version):
    return _notifier().deadline_due(game_id, seat, since_version)


def digest_mail(address):
    from pbem.notify.digests import Digests
    return Digests(_notifier()).send(address)


def vacation_end(player, vacation_id):
    from pbem.notify.vacations import Vacations
    return bool(Vacations(_notifier()).end(player, vacation_id))


def vacation_told(games, end, resumed):
    from pbem.notify.vacations import Vacations
    return Vacations(_notifier()).tell(games, end, resumed)


def rematch_news(game_id, what, seat):
    """Tell a rematch's players that it is offered, begun or off (pbem.notify.rematch)."""
    from pbem.notify.rematch import tell
    return tell(_notifier(), game_id, what, seat)
