"""The names of the store's keys, and the one way its JSON is written.

Every key of a game shares its hash tag (``key``: ``pbem:{g:ID}:PART``), so a
game lives in one Redis Cluster slot; the indexes across games are per
shard (``Store.index_key``, pbem/store/shards.py)."""
from __future__ import annotations

import json
from typing import Any

# Index names: the keys on a plain Redis; on a cluster each shard has its own
# (``Store.index_key``: pbem:{s:K}:games, ...), in the slot of its games.
GAMES_INDEX = "pbem:games"  # one shard's "games" index (pbem/store/indexes.py)
OPEN_INDEX = "pbem:open"
FINISHED_INDEX = "pbem:finished"
STARTING_INDEX = "pbem:starting"
#: Games their creator opened to anyone (``open: true``), by creation time:
#: what strangers are listed (pbem/service/open_games.py); a private game is never in it.
LISTED_INDEX = "pbem:listed"
#: The part of a game's keys that holds its invitations (seat -> JSON).
INVITATIONS = "mail:invites"
#: The part of a game's keys that holds its notification settings, pause and
#: deadline records (pbem/notify/store.py), and the field of a seat's
#: deadline record in it (DEADLINE + seat): the deadlines index
#: (pbem/store/indexes.py) projects those records, so both name them here.
NOTIFY_GAME = "notify:game"
DEADLINE = "deadline:"


def key(game_id: str, part: str) -> str:
    return f"pbem:{{g:{game_id}}}:{part}"


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)
