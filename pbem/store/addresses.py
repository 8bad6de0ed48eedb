"""The games of a mail address: ``pbem:address:H`` (H the SHA-256 of the
address in lower case: no address is stored in a key's name), a sorted set
of game ids by the time a seat with that address was taken. Written when a
seat is taken with an address (``Service.join``), and made again from the
seats by the indexes' rebuild (pbem/store/indexes.py, at a worker's start
for a store built before this index); read by "my games" (the
page signed in for an address, the ``games`` mail: pbem/service/mine.py).
A seat whose address changes later (``PUT .../notifications``) stays listed
under the address it was taken with, and the new one does not list it."""
from __future__ import annotations

import hashlib
import secrets

#: address digest -> a random id, drawn once per address: what the public
#: game record and the ratings name a mail-only player by. A digest of the
#: address itself would let anyone who guesses an address find its games.
RATING_IDS = "pbem:address-ids"


def address_key(address: str) -> str:
    return "pbem:address:" + hashlib.sha256(address.strip().lower().encode()).hexdigest()


class Addresses:
    def __init__(self, client):
        self.redis = client

    def add(self, address: str, game_id: str, at: float) -> None:
        self.redis.zadd(address_key(address), {game_id: at})

    def games(self, address: str, limit: int = 200) -> list[str]:
        """The games of ``address``, last joined first."""
        return [g.decode() if isinstance(g, bytes) else g
                for g in self.redis.zrevrange(address_key(address), 0, limit - 1)]

    def rating_id(self, address: str) -> str:
        """The address's public id (random, the same for every game)."""
        digest = hashlib.sha256(address.strip().lower().encode()).hexdigest()
        self.redis.hsetnx(RATING_IDS, digest, secrets.token_hex(12))
        value = self.redis.hget(RATING_IDS, digest)
        return value.decode() if isinstance(value, bytes) else value
