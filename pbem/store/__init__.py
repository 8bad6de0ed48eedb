"""The event store: one Redis stream per game, appended by one Lua script.

Every per-game key shares the hash tag ``{g:ID}`` so a game lives in one
Redis Cluster slot and the append script touches only that slot:

    pbem:{g:ID}:meta    hash    game, rules version, players, options, status, version, ...
    pbem:{g:ID}:seed    string  the secret seed (hex), revealed when the game ends
    pbem:{g:ID}:seats   hash    seat -> JSON (name, public key, token hash, channels)
    pbem:{g:ID}:log     stream  one entry per event; entry id "<version>-1"
    pbem:{g:ID}:moves   hash    move id -> JSON (envelope, status, outcome)
    pbem:{g:ID}:snap    string  JSON {version, state}: load = snapshot + tail
                                (meta's snapshot_version names its version)
    pbem:{g:ID}:done:M  list    pushed once when move M settles: its record and
                                events (for Prefer: wait; see decode_done)
    pbem:{g:ID}:wake:R  list    a marker for request R's waiter when its move
                                was not queued (see queue_if_current)
    pbem:{g:ID}:archive string  a finished game compacted (``compact``): seed,
                                seats, log and moves in one zstd-compressed JSON
                                document, which replaces those keys (meta's
                                ``archived`` says so; see ``Archive``)

Indexes across games, per shard (``Store.index_key``: on a plain Redis the
names below; on a cluster ``pbem:{s:K}:...``, in the slot of the shard's
games, so that a game's index entries change with it atomically):
``pbem:games`` (every game by creation time), ``pbem:open`` (games waiting
for players, by creation time: the expiry sweep's candidates),
``pbem:finished`` (games that may have ended, by when: the compaction sweep's
candidates, added in the round trip of each append that finishes a game and
checked by the sweep), ``pbem:starting`` (games whose last seat was taken, by
when: added by the claim of that seat in its own script, left when the deal is
appended; the sweep deals a game whose joiner died before it could: see
``_CLAIM_SEAT``).

Invitations (``pbem:{g:ID}:mail:invites``, seat -> JSON: address, name,
nonce, expiry) live with the game: the claim of a seat reads its invitation in
the same script, so a seat reserved for an invitation is never taken by
anyone else (``Store.claim``).

Indexes across games (by status, a player's games, deadlines) are per shard
(pbem/store/indexes.py, pbem/store/shards.py): on a Redis Cluster a game's shard keys
share its slot, so the append that starts or ends a game updates its status
index in the same script.

The version of a game is the number of events in its log; event number n
(1-based) has stream id ``n-1``, so paging by version is an XRANGE.

Modules: ``keys`` (key names, ``dumps``), ``codec`` (decoding what Redis
returns, shared with the event-stream process), ``games`` (create, meta,
delete, expire, the sweeps' indexes), ``seats`` (claims and invitations),
``appends`` (the append, settle and queue scripts, waiting for a move),
``reads`` (the read script, events, snapshots, move records), ``archives``
(compaction); ``Store`` is made of their parts. Below them: ``indexes``
(listings across games), ``shards``, ``connections``, ``roundtrip`` and
``cluster_trips`` (the hot round trips), and ``failures`` (deliveries that
gave up).
"""
from __future__ import annotations

import threading
from collections import OrderedDict

import redis

from .appends import _APPEND, _SETTLE, Appended, AppendsMixin
from .archives import (_COMPACT, ARCHIVED_PARTS, Archive, ArchivesMixin, decode_archive, decode_extra, encode_archive,
                       encode_extra)
from .codec import decode_log, decode_meta, decode_seats, log_id, stream_rows
from .connections import shards_of
from .games import _EXPIRE_OPEN, GamesMixin
from .indexes import Indexes
from .keys import FINISHED_INDEX, GAMES_INDEX, INVITATIONS, OPEN_INDEX, STARTING_INDEX, dumps, key
from .reads import _READ, TAIL_LIMIT, Read, ReadsMixin, Tail
from .roundtrip import round_trips
from .seats import _CLAIM_SEAT, _INVITE, _REISSUE, _WITHDRAW, Claimed, SeatsMixin, invitation_live

__all__ = ["Store", "Appended", "Archive", "Claimed", "Read", "Tail", "ARCHIVED_PARTS", "FINISHED_INDEX",
           "GAMES_INDEX", "INVITATIONS", "OPEN_INDEX", "STARTING_INDEX", "TAIL_LIMIT", "decode_archive",
           "decode_extra", "decode_log", "decode_meta", "decode_seats", "dumps", "encode_archive", "encode_extra",
           "invitation_live", "key", "log_id", "stream_rows"]


class Store(GamesMixin, SeatsMixin, AppendsMixin, ReadsMixin, ArchivesMixin):
    """The event store of one Redis (or Redis Cluster): its scripts
    registered once, its parts in the modules named above."""

    def __init__(self, client: redis.Redis):
        self.redis = client
        self.trips = round_trips(client)  # the hot round trips, on a connection per thread
        self.shards = shards_of(client)
        self.indexes = Indexes(client, self.shards)
        self._append = client.register_script(_APPEND)
        self._settle = client.register_script(_SETTLE)
        self._read = client.register_script(_READ)
        self._compact = client.register_script(_COMPACT)
        self._expire_open = client.register_script(_EXPIRE_OPEN)
        self._claim_seat = client.register_script(_CLAIM_SEAT)
        self._reissue = client.register_script(_REISSUE)
        self._invite = client.register_script(_INVITE)
        self._withdraw = client.register_script(_WITHDRAW)
        self._archives: OrderedDict[str, Archive] = OrderedDict()
        self._archives_lock = threading.Lock()

    def _scripts(self, calls: list[tuple], extra: list[tuple] = ()) -> list:
        """Run (script, keys, args) calls in one pipelined round trip by
        EVALSHA. (redis-py's own pipelined scripts ask SCRIPT EXISTS first:
        a second round trip every time.) A call Redis does not know the
        script for (restarted, flushed) did nothing; it is loaded and run
        again."""
        pipe = self.redis.pipeline(transaction=False)
        for script, keys, args in calls:
            # execute_command: a cluster client's pipeline refuses its evalsha() (pipelined
            # scripts would not know their node), not the command (the keys name it)
            pipe.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)
        for command, *args in extra:  # plain commands riding along (their replies are dropped)
            getattr(pipe, command)(*args)
        replies = self.trips.run(pipe, raise_on_error=False)[:len(calls)]
        missing = [i for i, reply in enumerate(replies) if isinstance(reply, redis.exceptions.NoScriptError)]
        if missing:
            for script in {calls[i][0].sha: calls[i][0] for i in missing}.values():
                self.redis.script_load(script.script)
            for i, reply in zip(missing, self._scripts([calls[i] for i in missing])):
                replies[i] = reply
        for reply in replies:
            if isinstance(reply, Exception):
                raise reply
        return replies
