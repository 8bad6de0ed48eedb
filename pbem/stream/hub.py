"""The hub: one reader per process for every stream it serves.

One task keeps one ``XREAD BLOCK`` open over the ``:log`` of every game some
stream of this process watches (plus a wake stream of its own), and hands
each batch of new rows to every subscriber of that game. So a thousand open
streams cost one blocked Redis call, not a thousand, and an event is read
once, redacted once per distinct viewer (``Batch.frames``), and written to
each socket.

Ordering, with no gap and no double (the race between a new stream's
catch-up read and the live read): per game the hub has a *cursor*, the last
version it has handed out; it advances only when a batch is handed out, in
the same step, and the reader reads "after the cursor". A subscriber joins
in one synchronous step (no await), learning the cursor ``upto`` as it
stands: every row after ``upto`` will reach its queue from the hub, and the
stream reads ``(after, upto]`` itself from the log. Anything seen twice is
dropped by version (``Subscriber.sent``). A game nobody watches yet starts
its cursor at the new subscriber's ``after`` (no further than the version
the stream read, so no row can be skipped), and the hub reads its catch-up
too.

Chat (docs/chat.md) rides the same read: a stream that asks for it
(``Subscriber.chat``) makes the hub watch the game's ``:chat`` stream too,
with a cursor of its own (``Watched.chat``) kept exactly as the log's, so
the game's cursor, versions and frames never depend on it. Its rows are
handed out as a ``ChatBatch``, each message filtered per viewer as ``GET
/games/{id}/chat`` filters it (``readable_chat``). The ``:chat`` key shares
the game's hash tag, so on a cluster it joins the same shard's XREAD.

On a Redis Cluster one XREAD can name keys of one slot only: the hub has a
reader per shard (pbem/store/shards.py), each with its own wake stream in its
shard's slot, over the games born in that shard (all in that slot): one
blocked call per shard, on the master holding it, whatever the number of
games watched. With one Redis there is one shard, so one reader.
"""
from __future__ import annotations

import asyncio
import json
import logging
import secrets

import redis.asyncio as aredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError, TimeoutError as RedisTimeoutError

from ..store.connections import STORE_DOWN, async_store_client, cluster_nodes, is_cluster_url, shard_count
from ..games.base import OMNISCIENT
from ..games.i18n import language
from ..service import game_of, shown_events
from ..store.shards import Shards
from ..service.common import names_of, readable_chat
from ..store import chat as chat_store
from ..store import decode_log, decode_seats, key, log_id
from . import sse

log = logging.getLogger(__name__)

#: What a subscriber's queue holds besides batches.
KEEPALIVE = "keepalive"
CLOSE = "close"


class Batch:
    """New rows of one game's log, read once. ``finished``: the game was over
    when they were read (so they are public, as ``GET /events`` shows them);
    ``end``: they include its last event."""

    __slots__ = ("game", "rows", "finished", "end", "result", "last", "names", "_frames")

    def __init__(self, game, rows: list, finished: bool, end: bool, result=None, names=None):
        self.game, self.rows, self.finished, self.end, self.result = game, rows, finished, end, result
        self.names = names
        self.last = rows[-1][0]
        self._frames: dict = {}

    def frames(self, viewer) -> list[tuple[int, bytes]]:
        """(version, SSE frame) per row as ``viewer`` may see it, through the
        one filter (``shown_events``), its texts in the language being read
        (``pbem.games.i18n``); computed once per distinct viewer and language."""
        seen = OMNISCIENT if self.finished else viewer
        frames = self._frames.get((seen, language()))
        if frames is None:
            frames = self._frames[(seen, language())] = [(item["version"], sse.event_frame(item))
                                           for item in shown_events(self.game, viewer, self.finished, self.rows,
                                                                             self.names)]
        return frames


class ChatBatch:
    """New messages of one game's chat, read once (dicts as ``GET /chat``
    answers them, names included); the frames a viewer may read are built
    once per distinct viewer."""

    __slots__ = ("messages", "last", "_frames")
    end = False  # a chat never ends a stream: the game's end does

    def __init__(self, messages: list[dict]):
        self.messages, self.last = messages, messages[-1]["n"]
        self._frames: dict = {}

    def frames(self, viewer) -> list[tuple[int, bytes]]:
        frames = self._frames.get(viewer)
        if frames is None:
            frames = self._frames[viewer] = [(m["n"], sse.chat_body(m)) for m in self.messages
                                             if readable_chat(m, viewer)]
        return frames


class Subscriber:
    """One open stream: who it is for, what it has been sent, and its queue
    of batches (plus keep-alives and a close). ``chat``: the number of the
    last chat message sent, or None for a stream without chat (its frames
    are exactly as before chat existed)."""

    __slots__ = ("viewer", "sent", "upto", "queue", "closed", "chat", "chat_upto")

    def __init__(self, viewer, after: int, upto: int, chat: int | None = None, chat_upto: int = 0):
        self.viewer, self.sent, self.upto = viewer, after, upto
        self.chat, self.chat_upto = chat, chat_upto
        self.queue: asyncio.Queue = asyncio.Queue()
        self.closed = False

    def push(self, item, limit: int) -> bool:
        """Queue ``item``; False (and closed) when the client has fallen
        ``limit`` items behind: it reconnects with Last-Event-ID and catches
        up from the log rather than the hub holding its backlog."""
        if self.closed:
            return False
        if self.queue.qsize() >= limit:
            self.close()
            return False
        self.queue.put_nowait(item)
        return True

    def take(self, batch: Batch) -> bytes:
        """The frames of ``batch`` this stream has not been sent yet (a
        stream that caught up past the hub's cursor drops what it has)."""
        if self.chat is None:
            data = b"".join(frame for version, frame in batch.frames(self.viewer) if version > self.sent)
        else:  # each frame's id names both cursors (sse.with_id)
            data = b"".join(sse.with_id(frame, version, self.chat) for version, frame in batch.frames(self.viewer)
                            if version > self.sent)
        self.sent = max(self.sent, batch.last)
        return data

    def take_chat(self, batch: ChatBatch) -> bytes:
        """The messages of ``batch`` this stream may read and has not been
        sent yet, each frame's id the game version sent and its number."""
        out = []
        for n, body in batch.frames(self.viewer):
            if n > self.chat:
                out.append(sse.chat_frame(self.sent, n, body))
        self.chat = max(self.chat, batch.last)
        return b"".join(out)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(CLOSE)


class Watched:
    __slots__ = ("game", "cursor", "subs", "shard", "names", "chat")

    def __init__(self, game, cursor: int, shard: int = 0, names=None):
        # names: the players' by seat (every seat is taken before the first
        # event, so they stay as the first subscriber read them)
        self.game, self.cursor, self.subs, self.shard, self.names = game, cursor, set(), shard, names
        #: the chat's cursor (the last message handed out), None until a
        #: stream that asks for chat watches the game
        self.chat: int | None = None


class Reader:
    """One shard's reader: its wake stream and where it has read it."""

    __slots__ = ("shard", "wake_key", "wake_id", "waking")

    def __init__(self, shard: int, wake_key: str):
        self.shard, self.wake_key, self.wake_id, self.waking = shard, wake_key, b"0-0", False


class Hub:
    def __init__(self, client: aredis.Redis, reader: aredis.Redis, *, block_ms: int = 10_000,
                 count: int = 500, keepalive_s: float = 15.0, backlog: int = 256, shards: Shards | None = None):
        #: ``client`` for short commands; ``reader`` is a connection of its own,
        #: held by the blocking XREAD (on a cluster, a client whose blocking
        #: XREADs, one per shard, each hold a connection to their master).
        self.client, self.reader = client, reader
        self.block_ms, self.count, self.keepalive_s, self.backlog = block_ms, count, keepalive_s, backlog
        self.shards = shards or Shards.plain()
        self.games: dict[str, Watched] = {}
        # A new game must join the XREAD that is blocked now: an entry on
        # this process's own wake stream ends the block. (An XADD cannot be
        # lost between two XREADs the way a CLIENT UNBLOCK can: the reader
        # reads the wake stream after the last id it saw.)
        token = secrets.token_hex(8)
        self.readers = [Reader(k, self.shards.key(k, f"stream-wake:{token}")) for k in self.shards]
        self._tasks: list[asyncio.Task] = []
        self._closing = False

    @property
    def wake_key(self) -> str:
        return self.readers[0].wake_key

    @classmethod
    def for_url(cls, url: str, block_ms: int = 10_000, **kw) -> "Hub":
        """A hub with its own connections to the Redis at ``url`` (closed
        with it). Short commands share a small pool: a thousand streams
        opening at once wait for a connection rather than open a thousand.
        The reader's timeout outlasts its block."""
        if is_cluster_url(url):
            return cls._for_cluster(url, block_ms, **kw)
        pool = aredis.BlockingConnectionPool.from_url(url, max_connections=16, timeout=10, socket_timeout=5,
                                                      socket_connect_timeout=2)
        # No retries inside redis-py for the reader: its loop retries, from
        # the cursors, and a retried read could outlive a cancel.
        reader = aredis.Redis.from_url(url, single_connection_client=True, socket_timeout=block_ms / 1000 + 5,
                                       socket_connect_timeout=2, retry=Retry(NoBackoff(), 0))
        hub = cls(aredis.Redis(connection_pool=pool), reader, block_ms=block_ms, **kw)
        hub._owned = True
        return hub

    @classmethod
    def _for_cluster(cls, url: str, block_ms: int, **kw) -> "Hub":
        """On a cluster: redis-py's asyncio cluster client for short commands
        (at most 16 connections a node), and another for the readers (one
        blocked XREAD per shard), without retries of its own (the readers'
        loops retry from their cursors; a retried read could outlive a
        cancel)."""
        cluster_nodes(url)  # a bad URL fails here, not in the reader
        client = async_store_client(url, max_connections=16, socket_timeout=5, socket_connect_timeout=2)
        reader = async_store_client(url, socket_timeout=block_ms / 1000 + 5, socket_connect_timeout=2,
                                    retry=Retry(NoBackoff(), 0))
        hub = cls(client, reader, block_ms=block_ms, shards=Shards.for_cluster(shard_count()), **kw)
        hub._owned = True
        return hub

    _owned = False

    @property
    def subscribers(self) -> int:
        return sum(len(w.subs) for w in self.games.values())

    async def start(self) -> None:
        self._tasks = [*(asyncio.create_task(self._read_forever(r), name=f"hub-reader-{r.shard}") for r in self.readers),
                       asyncio.create_task(self._keepalive_forever(), name="hub-keepalive")]

    async def close(self) -> None:
        """End every stream (each handler sees CLOSE and returns) and stop."""
        self._closing = True
        for w in list(self.games.values()):
            for sub in list(w.subs):
                sub.close()
        for task in self._tasks:
            task.cancel()
        _, pending = await asyncio.wait(self._tasks, timeout=1.0)
        if pending:
            # A cancel that lands as redis-py's own read times out can be
            # lost (Python 3.11's timeouts turn it into a TimeoutError,
            # which it retries): cut the reader's connection, and the read
            # fails for good.
            if hasattr(self.reader, "connection_pool"):
                await self.reader.connection_pool.disconnect()
            else:  # a cluster client: every node's connections
                await self.reader.aclose()
            for task in pending:
                task.cancel()
            await asyncio.wait(pending, timeout=5.0)
        try:
            for r in self.readers:
                await self.client.delete(r.wake_key)
        except Exception:  # Redis gone: the key expires by itself
            pass
        if self._owned:
            await self.reader.aclose()
            await self.client.aclose()

    # -- subscribers ---------------------------------------------------------

    def subscribe(self, game_id: str, meta: dict, viewer, after: int, names=None, chat: int | None = None,
                  said: int = 0) -> Subscriber:
        """Join the stream of ``game_id`` for ``viewer``, after version
        ``after`` (and after chat message ``chat``, None: no chat; ``said``
        the number of messages when ``meta`` was read); ``meta`` was read
        just before. Synchronous on purpose: no batch can be handed out
        between reading the cursors and joining."""
        watched = self.games.get(game_id)
        if watched is None:
            shard = self.shards.of_game(game_id)
            watched = self.games[game_id] = Watched(game_of(meta), min(after, int(meta["version"])), shard, names)
            self._wake(self.readers[shard])
        if chat is not None and watched.chat is None:
            # As for a new game: no further than what the stream reads itself.
            watched.chat = min(chat, said)
            self._wake(self.readers[watched.shard])
        sub = Subscriber(viewer, after, watched.cursor, chat, watched.chat or 0)
        watched.subs.add(sub)
        return sub

    def unsubscribe(self, game_id: str, sub: Subscriber) -> None:
        sub.closed = True
        watched = self.games.get(game_id)
        if watched is not None:
            watched.subs.discard(sub)
            if not watched.subs:
                del self.games[game_id]  # the XREAD in flight may still name it: its rows are ignored

    def _wake(self, reader: Reader) -> None:
        if not reader.waking:
            reader.waking = True
            asyncio.get_running_loop().create_task(self._send_wake(reader))

    async def _send_wake(self, reader: Reader) -> None:
        reader.waking = False  # before the XADD: a game watched after this point sends its own
        try:
            pipe = self.client.pipeline(transaction=False)
            pipe.xadd(reader.wake_key, {"w": "1"}, maxlen=1)
            pipe.expire(reader.wake_key, 86400)  # a process killed with -9 leaves it behind
            await pipe.execute()
        except Exception as err:  # the reader's next block ends within block_ms anyway
            log.warning("stream hub: could not wake the reader: %s", err)

    # -- the reader ----------------------------------------------------------

    async def _read_forever(self, reader: Reader) -> None:
        backoff = 0.1
        while not self._closing:
            watched = {g: w for g, w in self.games.items() if w.shard == reader.shard}
            streams = {reader.wake_key: reader.wake_id}
            for game_id, w in watched.items():
                streams[key(game_id, "log")] = log_id(w.cursor)
                if w.chat is not None:
                    streams[key(game_id, chat_store.CHAT)] = log_id(w.chat)
            try:
                reply = await self.reader.xread(streams, count=self.count, block=self.block_ms)
                if reply:
                    await self._hand_out(reply, watched, reader)
                backoff = 0.1
            except asyncio.CancelledError:
                raise
            except (RedisConnectionError, RedisTimeoutError, OSError, *STORE_DOWN) as err:
                if self._closing or asyncio.current_task().cancelling():
                    # redis-py can turn a cancel that lands on its read into
                    # its own timeout error: the hub is stopping, not retrying.
                    raise asyncio.CancelledError from err
                # Nothing is lost while Redis is away: the cursors stay where
                # they were, and the next read takes up from them.
                log.warning("stream hub: Redis unavailable (%s); retrying in %.1f s", err, backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 2.0)
            except Exception:
                if self._closing or asyncio.current_task().cancelling():
                    raise asyncio.CancelledError from None
                log.exception("stream hub: read failed")
                await asyncio.sleep(1.0)

    async def _hand_out(self, reply, watched: dict[str, Watched], reader: Reader | None = None) -> None:
        news = []
        reader = reader or self.readers[0]
        wake = reader.wake_key.encode()
        for name, entries in reply.items() if isinstance(reply, dict) else reply:
            if name == wake:
                reader.wake_id = entries[-1][0]
                continue
            game_id = name.decode().split("{g:", 1)[1].split("}", 1)[0]
            w = watched.get(game_id)
            if w is None or self.games.get(game_id) is not w:
                continue  # nobody watches it any more (or a newer watch reads it itself)
            if name.endswith(b":" + chat_store.CHAT.encode()):
                await self._hand_out_chat(game_id, w, entries)
                continue
            rows = [row for row in decode_log(entries) if row[0] > w.cursor]
            if rows:
                news.append((game_id, w, rows))
        if not news:
            return
        # Is each game over? The append that ends a game sets its status in
        # the same script as its events, so the status read now is at least
        # as new as the rows; ``end`` only when the rows reach the version
        # the game finished at (a later append may have landed meanwhile).
        pipe = self.client.pipeline(transaction=False)
        for game_id, _, _ in news:
            pipe.hmget(key(game_id, "meta"), "status", "version", "result")
        states = await pipe.execute()
        for (game_id, w, rows), (status, version, result) in zip(news, states):
            if self.games.get(game_id) is not w:
                continue  # its last subscriber left while we asked
            w.cursor = rows[-1][0]
            finished = status == b"finished"
            end = finished and version is not None and w.cursor >= int(version)
            batch = Batch(w.game, rows, finished, end, json.loads(result) if end and result else None, w.names)
            for sub in list(w.subs):
                if not sub.push(batch, self.backlog):
                    w.subs.discard(sub)
            if end or not w.subs:
                del self.games[game_id]  # nothing more will come: its streams end with this batch

    async def _hand_out_chat(self, game_id: str, w: Watched, entries) -> None:
        """New chat messages to every stream of the game that asked for chat.
        Called before the same reply's log rows are handed out: a message
        said before the game's last move reaches its streams before the end."""
        messages = [chat_store.message(int(rid.split(b"-")[0]), fields) for rid, fields in entries]
        messages = [m for m in messages if m["n"] > (w.chat or 0)]
        if not messages:
            return
        names = w.names or []
        if any(m["seat"] >= len(names) or not names[m["seat"]] for m in messages):
            # A seat taken after the first stream read the names (chat may
            # start while the game is still open): read them again.
            players = max(len(names), 1 + max(m["seat"] for m in messages))
            names = w.names = names_of(decode_seats(await self.client.hgetall(key(game_id, "seats"))), players)
        if self.games.get(game_id) is not w:
            return  # its last subscriber left while we asked
        w.chat = messages[-1]["n"]
        batch = ChatBatch([{**m, "name": names[m["seat"]] if m["seat"] < len(names) else None} for m in messages])
        for sub in list(w.subs):
            if sub.chat is not None and not sub.push(batch, self.backlog):
                w.subs.discard(sub)

    async def _keepalive_forever(self) -> None:
        while True:
            await asyncio.sleep(self.keepalive_s)
            for w in list(self.games.values()):
                for sub in list(w.subs):
                    if sub.queue.empty():  # a stream with something queued is not idle
                        sub.push(KEEPALIVE, self.backlog)
