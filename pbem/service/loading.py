"""Loading a game: its meta, its seed, its state at any version from the
cache, else the states a replay kept (``past.py``), else the snapshot, else
the start, plus the log's tail (and the bounded memos of seeds and seats)."""
from __future__ import annotations

from typing import Any

from .. import games
from ..errors import NotFound
from ..games import takeback
from ..games.base import SnapshotOutdated
from ..store import Tail
from .common import Loaded, Part
from ..games.i18n import _


class Loading(Part):
    def meta(self, game_id: str) -> dict:
        """A game's meta; 404 ``unknown_game`` if there is none."""
        return self._meta(game_id)

    def _meta(self, game_id: str) -> dict:
        meta = self.store.meta(game_id) if isinstance(game_id, str) else None
        if meta is None:
            raise NotFound("unknown_game", _("no game {game}", game=repr(game_id)))
        return meta

    #: Seeds remembered (32 bytes each; the oldest go first).
    SEEDS_KEPT = 65536

    #: Seats remembered for the one-round-trip submit (a few hundred bytes each).
    SEATS_KEPT = 16384

    def _seed(self, game_id: str) -> bytes:
        seed = self._seeds.get(game_id)
        if seed is None:
            seed = self.store.seed(game_id)
            self._remember_seed(game_id, seed)
        return seed

    def load(self, game_id: str, version: int | None = None, meta: dict | None = None,
             tail: Tail | None = None) -> Loaded:
        """The game's state at ``version`` (default: now): cache, else (for a
        past version) the nearest state a replay kept, else the snapshot,
        else the start, plus the tail of the log. ``tail`` is what
        the caller read with the meta (``Store.read``), when it could."""
        meta = meta or self._meta(game_id)
        game = games.get(meta["game"], int(meta["rules_version"]))
        current = int(meta["version"])
        target = current if version is None else version
        if not 0 <= target <= current:
            raise NotFound("unknown_version", _("game {game} has versions 0 to {last}", game=game_id, last=current))
        base_version, state = 0, None
        cached = self.cache.get(game_id, at_most=target)
        if cached:
            base_version, state = cached
        past = target < current  # a replay: start from a state a replay kept, and keep some
        if past:
            kept = self.past.get(meta, target)
            if kept and kept[0] > base_version:
                base_version, state = kept
        if tail is not None and tail.snapshot and base_version < tail.snapshot[0] <= target:
            restored = self._restore(game, tail.snapshot[1])
            if restored is not None:
                base_version, state = tail.snapshot[0], restored
        elif (state is None or target - base_version > self.snapshot_every) and not (
                tail is not None and tail.after == base_version):  # the tail read covers it
            snap = self.store.snapshot(game_id)
            if snap and base_version < snap[0] <= target:
                restored = self._restore(game, snap[1])
                if restored is not None:
                    base_version, state = snap[0], restored
        if state is None:
            base_version, state = 0, game.start(meta["players"], meta["options"])
        if target > base_version:
            if tail is not None and tail.after == base_version:
                rows = [row for row in tail.rows if row[0] <= target]
            else:
                rows = self.store.events(game_id, base_version, target)
            for at, event, _move in rows:
                # A takeback makes the state the one at an earlier version (loaded likewise).
                state = takeback.fold(game, state, event, lambda v: self.load(game_id, v, meta).state)
                if past and self.past.wanted(at):
                    self.past.put(meta, at, state)
        if target == current:
            self.cache.put(game_id, target, state, meta)
        return Loaded(meta, game, state, target)

    @staticmethod
    def _restore(game: games.Game, data: Any) -> Any:
        """A snapshot's state, or None for one in a format the game can no
        longer restore exactly: the log is replayed instead (it always is
        exact; the next snapshot is written in the new format)."""
        try:
            return game.load(data)
        except SnapshotOutdated:
            return None

    def _remember(self, memo: dict, items: dict, limit: int) -> None:
        """Add to a bounded memo (seeds, seats); the oldest entries go first."""
        with self._memo_lock:
            memo.update(items)
            while len(memo) > limit:
                del memo[next(iter(memo))]

    def _remember_seed(self, game_id: str, seed: bytes) -> None:
        self._remember(self._seeds, {game_id: seed}, self.SEEDS_KEPT)

    def _stale(self, loaded: Loaded, expected: int, player: int) -> bool:
        """Whether a move signed at ``expected`` is refused as ``stale_version``.

        A move signed at an older version still stands when the game says
        the seat still answers the same window (several seats answering at
        once, each signing the version it saw: see ``Game.concurrent_ok``).
        Nor is it stale when that window is still open and the seat is not
        to act in it any more (it has answered): signing again would not
        help, so the move is judged as if signed now, and ``check_turn``
        says what happened (Kachina's ``already_answered``, else
        ``not_your_turn``)."""
        if expected == loaded.version:
            return False
        game = loaded.game
        if expected > loaded.version or game.concurrency == "strict" or game.window(loaded.state) is None:
            return True  # no window now: no need to load the state the move was signed at
        then = self.load(loaded.id, expected, loaded.meta)
        if game.window(then.state) != game.window(loaded.state):
            return True
        if player not in game.to_act(loaded.state):
            return False  # check_turn, next, refuses it saying why
        return not game.concurrent_ok(then.state, loaded.state, player)
