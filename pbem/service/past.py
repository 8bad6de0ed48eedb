"""Past states kept along the way: the replay slider asks for one version
after another of the same game, and replaying each from version 0 (or from
the one stored snapshot, which is the newest) costs the whole log every
time. A replay leaves behind the states it passes every ``every`` versions
(states are never mutated: the rules are pure, so they are shared as they
are), and the next past version is evolved from the nearest one at or
before it: at most ``every - 1`` events. Bounded: at most ``states``
states in all (the games replayed longest ago go first; a state of a long
Carcassonne game with expansions is about 40 KB, so about 20 MB at most)."""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any


class PastStates:
    def __init__(self, every: int = 16, states: int = 512):
        self.every, self.states = every, states
        self._items: OrderedDict[tuple, dict[int, Any]] = OrderedDict()
        self._count = 0
        self._lock = threading.Lock()

    @staticmethod
    def _key(meta: dict) -> tuple:
        # a game's id and when it was made: another game under a reused id is another game
        return meta["id"], meta.get("created")

    def wanted(self, version: int) -> bool:
        """Whether a replay passing ``version`` leaves its state here."""
        return version % self.every == 0

    def get(self, meta: dict, at_most: int) -> tuple[int, Any] | None:
        """The kept (version, state) nearest ``at_most`` and not after it."""
        with self._lock:
            states = self._items.get(self._key(meta))
            if not states:
                return None
            self._items.move_to_end(self._key(meta))
            best = (at_most // self.every) * self.every
            while best >= 0 and best not in states:
                best -= self.every
            return (best, states[best]) if best >= 0 else None

    def put(self, meta: dict, version: int, state: Any) -> None:
        with self._lock:
            key = self._key(meta)
            states = self._items.setdefault(key, {})
            self._count += version not in states
            states[version] = state
            self._items.move_to_end(key)
            while self._count > self.states and len(self._items) > 1:
                _key, gone = self._items.popitem(last=False)
                self._count -= len(gone)
