"""Shards: where a game's moves queue, and the keys that span games.

With one plain Redis there is one shard, and its keys are the ones pbem has
always used (``pbem:submissions``, ``pbem:drain:lease``, ``pbem:notices``,
``pbem:games``...): nothing changes.

On a Redis Cluster there are ``count`` shards (``PBEM_SHARDS``, 12 by
default). Shard k owns one hash slot, the slot of its tag ``s:k`` (or
``s:k:j``, the first that falls in the k-th twelfth of the slot space, so
that the shards spread evenly over the masters ``redis-cli --cluster
create`` makes), and every key of the shard carries that tag:

    pbem:{s:k}:submissions     stream   the shard's moves (pbem.pipeline)
    pbem:{s:k}:drain:lease     string   its drainer's lease
    pbem:{s:k}:notices         stream   its turn notices (pbem.notify.hooks)
    pbem:{s:k}:games           zset     its games by creation time (pbem.store.indexes)
    pbem:{s:k}:games:STATUS    zset     ... by status
    ...

A game is *born in* a shard: its id is chosen so that its own tag ``g:ID``
hashes to the shard's slot. So every key of a game, its shard's stream and
its shard's indexes share one slot, and each script that records a move and
queues it, or appends and updates the status index, touches one slot, as
Redis Cluster requires. A shard moves between masters as one slot
(CLUSTER SETSLOT + MIGRATE), its games, stream and indexes together.

The price: a game's shard is fixed at creation, and so is the number of
shards (it is stored in the cluster, ``pbem:shards``, and a process
configured otherwise refuses to start); at most ``count`` masters share the
moves. A game created on a plain Redis has no shard slot: moving a plain
store to a cluster means replaying its records, not copying its keys.
"""
from __future__ import annotations

import binascii
import json
import random
import secrets
import threading
from dataclasses import dataclass, field

SLOTS = 16384
ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
ID_LENGTH = 10
_SUFFIX = 3  # the id's last characters, chosen to land it in its shard's slot
DEFAULT_COUNT = 12  # divides evenly among 1, 2, 3, 4, 6 and 12 masters
REGISTRY = "pbem:shards"


def slot_of(tag: str) -> int:
    """The hash slot of a hash tag (what ``{tag}`` in a key hashes to)."""
    return binascii.crc_hqx(tag.encode(), 0) % SLOTS


def game_slot(game_id: str) -> int:
    return slot_of(f"g:{game_id}")


def random_game_id() -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


class _Suffixes:
    """Game ids with a chosen slot, without trying thousands of ids.

    CRC16 (XMODEM, as Redis uses it) is linear over GF(2): for messages of one
    length, crc(a XOR b) = crc(a) XOR crc(b). So crc("g:" + prefix + suffix)
    = crc("g:" + prefix + NUL NUL NUL) XOR crc(NULs + suffix), and the second
    part depends on the suffix alone: a table from its low 14 bits to the
    suffixes giving them answers, for a random prefix, which suffixes land
    the id in a given slot (about two in three prefixes have one)."""

    def __init__(self):
        self.table: dict[int, list[str]] = {}
        pad = b"\0" * (2 + ID_LENGTH - _SUFFIX)
        for a in ID_ALPHABET:
            for b in ID_ALPHABET:
                for c in ID_ALPHABET:
                    s = a + b + c
                    value = binascii.crc_hqx(pad + s.encode(), 0) % SLOTS
                    self.table.setdefault(value, []).append(s)

    def game_id(self, slot: int) -> str:
        rng = random.SystemRandom()
        while True:
            prefix = "".join(rng.choice(ID_ALPHABET) for _ in range(ID_LENGTH - _SUFFIX))
            base = binascii.crc_hqx(f"g:{prefix}".encode() + b"\0" * _SUFFIX, 0) % SLOTS
            fits = self.table.get(base ^ slot)
            if fits:
                game_id = prefix + rng.choice(fits)
                assert game_slot(game_id) == slot
                return game_id


_suffixes: _Suffixes | None = None
_suffixes_lock = threading.Lock()


def _suffix_table() -> _Suffixes:
    global _suffixes
    with _suffixes_lock:
        if _suffixes is None:
            _suffixes = _Suffixes()  # about 30 ms, once per process, in cluster mode only
        return _suffixes


def shard_tags(count: int) -> list[str]:
    """Shard k's tag: ``s:k``, or the first ``s:k:j`` whose slot is in the
    k-th of ``count`` equal ranges of slots."""
    tags = []
    for k in range(count):
        low, high = k * SLOTS // count, (k + 1) * SLOTS // count
        tag, j = f"s:{k}", 0
        while not low <= slot_of(tag) < high:
            j += 1
            tag = f"s:{k}:{j}"
        tags.append(tag)
    return tags


@dataclass(frozen=True)
class Shards:
    """The shard layout: one shard on a plain Redis, ``count`` on a cluster."""

    count: int = 1
    cluster: bool = False
    tags: tuple[str, ...] = ()
    _by_slot: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def plain(cls) -> "Shards":
        return cls()

    @classmethod
    def for_cluster(cls, count: int = DEFAULT_COUNT) -> "Shards":
        if not 1 <= count <= 1024:
            raise ValueError(f"PBEM_SHARDS must be between 1 and 1024, not {count}")
        tags = tuple(shard_tags(count))
        return cls(count, True, tags, {slot_of(t): k for k, t in enumerate(tags)})

    def __iter__(self):
        return iter(range(self.count))

    def key(self, shard: int, part: str) -> str:
        """A key of ``shard``: ``pbem:PART`` on a plain Redis (the names pbem
        has always used), ``pbem:{s:k}:PART`` on a cluster."""
        if not self.cluster:
            return f"pbem:{part}"
        return f"pbem:{{{self.tags[shard]}}}:{part}"

    def slot(self, shard: int) -> int | None:
        return slot_of(self.tags[shard]) if self.cluster else None

    def of_game(self, game_id: str) -> int:
        """The shard a game was born in (0 on a plain Redis)."""
        if not self.cluster:
            return 0
        shard = self._by_slot.get(game_slot(game_id))
        if shard is None:
            raise UnknownShard(game_id)
        return shard

    def new_game_id(self) -> str:
        """A fresh game id: random on a plain Redis; on a cluster random too,
        but born in a shard (picked at random) whose slot its tag hashes to."""
        if not self.cluster:
            return random_game_id()
        shard = secrets.randbelow(self.count)
        return _suffix_table().game_id(slot_of(self.tags[shard]))

    def check_registry(self, client) -> None:
        """Store the layout in the cluster the first time; afterwards refuse a
        different one (games were born in these slots: another count would
        lose them)."""
        if not self.cluster:
            return
        mine = json.dumps({"count": self.count, "tags": list(self.tags)})
        client.set(REGISTRY, mine, nx=True)
        stored = client.get(REGISTRY)
        if stored is not None and json.loads(stored) != json.loads(mine):
            raise RuntimeError(f"this cluster's games are in {json.loads(stored)['count']} shards "
                               f"({REGISTRY}); PBEM_SHARDS={self.count} would lose them")


class UnknownShard(ValueError):
    """A game id born in no shard of this layout (say, from a plain Redis)."""
