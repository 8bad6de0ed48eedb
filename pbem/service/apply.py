"""Moves in the worker: queued moves decided and appended in batches, with
two round trips a batch (or one, from memory), and the hooks told."""
from __future__ import annotations

import time

from .. import failpoint
from ..games import handover, takeback
from ..games.base import GameError, rng_for
from ..store import Read, Tail
from .common import Loaded, Part, log
from ..games.i18n import _, reader_language, reading


class Applying(Part):
    def apply_move(self, game_id: str, move_id: str) -> dict:
        """Decide and append one queued move (see ``apply_moves``)."""
        return self.apply_moves([(game_id, move_id)])[0]

    def apply_moves(self, pairs: list[tuple[str, str]], records: dict | None = None) -> list[dict]:
        """Decide and append a batch of queued moves, in order, with two round
        trips to Redis for the whole batch (read everything, see ``_asks``;
        then settle-or-append), or one when the stream brought the
        ``records`` and this process holds the games (see ``_reads``).
        Safe to run any number of times: a settled move is returned as it
        stands. A move whose append finds the log moved on (another worker
        appended first) is decided again on the new state."""
        results: dict[tuple[str, str], dict] = {}
        pending = list(dict.fromkeys(pairs))
        for attempt in range(4):  # three with a read; the first may be from memory
            if not pending:
                break
            steps, plans, heads = [], [], {}
            retry, deferred = [], set()
            for pair, read, from_memory in self._reads(pending, records if attempt == 0 else None):
                game_id, move_id = pair
                if game_id in deferred:
                    retry.append(pair)  # after its game's deferred move, in order
                    continue
                meta, record = read.meta, read.move
                if read.seed is not None:
                    self._remember_seed(game_id, read.seed)
                if record is None or meta is None:
                    log.warning("move %s of game %s is unknown", move_id, game_id)
                    results[pair] = {"id": move_id, "status": "unknown"}
                    continue
                if record["status"] != "queued":
                    results[pair] = record
                    continue
                if game_id in heads and (takeback.is_takeback((record.get("envelope") or {}).get("move"))
                                         or handover.is_handover((record.get("envelope") or {}).get("move"))
                                         or record.get("signed_by") == "bot"):
                    # A takeback is decided on the log as stored: after this batch's moves are.
                    deferred.add(game_id)
                    retry.append(pair)
                    continue
                # Moves of one game in one batch build on each other.
                loaded = heads.get(game_id) or self.load(game_id, meta=meta, tail=read.tail)
                outcome = self._decide(loaded, record)
                if outcome["status"] == "rejected" and from_memory:
                    # Only an append checks the version: a rejection must be
                    # decided on a state read as the last one.
                    deferred.add(game_id)
                    retry.append(pair)
                    continue
                if outcome["status"] == "rejected":
                    steps.append(("settle", game_id, move_id, outcome))
                    plans.append((pair, loaded, None, outcome))
                    continue
                events, state = outcome.pop("_events"), outcome.pop("_state")
                result = loaded.game.result(state)
                version = loaded.version + len(events)
                meta_after = {**loaded.meta, "version": version}
                if result:
                    meta_after.update(status="finished", result=result.as_dict(), finished=time.time())
                after = heads[game_id] = Loaded(meta_after, loaded.game, state, version)
                steps.append(("append", game_id, loaded.version, move_id, events, outcome,
                              "finished" if result else "",
                              {"result": meta_after["result"], "finished": meta_after["finished"]} if result else None))
                plans.append((pair, loaded, after, outcome, events))
            applied = []
            for plan, done in zip(plans, self.store.settle_and_append_many(steps) if steps else []):
                pair, loaded, after, outcome = plan[:4]
                if after is None:
                    results[pair] = done
                    if done.get("settled") == outcome.get("settled"):  # this call settled it
                        for hook in self.after_reject:
                            try:
                                hook(self, loaded, done)
                            except Exception:
                                log.exception("after_reject hook %r failed", hook)
                elif done.kind == "duplicate":
                    results[pair] = done.prior
                elif done.kind == "stale":
                    retry.append(pair)  # decided on a state that was not the last: again
                else:
                    self._appended(loaded, after, plan[4], outcome)
                    applied.append((loaded, after, plan[4], outcome))
                    results[pair] = outcome
            self._run_batch_hooks(applied)
            pending = sorted(retry, key=pending.index)  # in the order they came
        for game_id, move_id in pending:
            stored = self.store.move(game_id, move_id) or {"id": move_id}
            message = self._for_mover(game_id, stored, lambda: _("the game kept changing; try again"))
            results[(game_id, move_id)] = self.store.settle(game_id, move_id, {
                **stored, "status": "rejected", "settled": time.time(),
                "error": {"code": "busy", "message": message}})
        return [results[pair] for pair in pairs]

    def _reads(self, pending: list[tuple[str, str]], records: dict | None) -> list[tuple]:
        """(pair, Read, from memory) for each move: from memory when the
        stream brought its queued record and this process holds its game's
        state, meta and seed (what the last append here left), else from
        Redis, all in one round trip. Nothing decided from memory is stored
        unchecked: an append checks the version, a rejection is read again."""
        memory = {}
        for pair in pending if records else ():
            record = records.get(pair)
            hot = self.cache.current(pair[0]) if record is not None and pair[0] in self._seeds else None
            if hot is not None:
                version, _state, meta = hot
                memory[pair] = Read(meta, None, record, None, Tail(version, []))
        rest = [pair for pair in pending if pair not in memory]
        read = dict(zip(rest, self.store.reads(self._asks(rest)))) if rest else {}
        return [(pair, memory.get(pair) or read[pair], pair in memory) for pair in pending]

    def _asks(self, pairs: list[tuple[str, str]]) -> list[tuple]:
        """What to read for a batch: each move's record and its game's meta;
        once per game, the log since the cached state and (if unknown) the seed."""
        asks, seen = [], set()
        for game_id, move_id in pairs:
            first = game_id not in seen
            seen.add(game_id)
            cached = self.cache.get(game_id) if first else None
            asks.append((game_id, move_id, cached[0] if cached else None, False,
                         first and game_id not in self._seeds, first))
        return asks

    def _appended(self, before: Loaded, after: Loaded, events: list, outcome: dict) -> None:
        """Bookkeeping once a move's events are in the log."""
        game_id = after.id
        if events and takeback.is_meta(events[-1]):
            failpoint.hit("takeback_appended")  # the fault suite's: stored, nothing after it done
        self.cache.put(game_id, after.version, after.state, after.meta)
        if any(handover.is_event(event) for event in events):
            self.reconcile_handovers(game_id)  # the seat's keys and the bot's credentials, from the log
        if after.version // self.snapshot_every > before.version // self.snapshot_every:
            self.store.save_snapshot(game_id, after.version, after.game.dump(after.state))
        for hook in self.after_apply:
            self._run_hook(hook, before, after, events, outcome)

    def _for_mover(self, game_id: str, record: dict | None, build):
        """``build()`` in the language of the seat that sent ``record``'s move."""
        player = ((record or {}).get("envelope") or {}).get("player")
        with reading(lambda: self._seat_language(game_id, player)):
            return build()

    def _seat_language(self, game_id: str, seat, meta: dict | None = None) -> str:
        """A seat's reader language (its own, else its game's)."""
        meta = meta if meta is not None else (self.store.meta(game_id) or {})
        held = self.store.seats(game_id).get(seat) if isinstance(seat, int) else None
        return reader_language((held or {}).get("lang"), meta.get("lang"))

    def _decide(self, loaded: Loaded, record: dict) -> dict:
        """Decide a queued move. A refusal's message is for the mover, so it
        is built in the mover's language: looked up (a read of the seats)
        only when a refusal asks for it."""
        with reading(lambda: self._seat_language(loaded.id, record["envelope"]["player"], loaded.meta)):
            return self._decide_move(loaded, record)

    def _decide_move(self, loaded: Loaded, record: dict) -> dict:
        envelope = record["envelope"]
        player, game = envelope["player"], loaded.game
        base = {**record, "settled": time.time(), "version_before": loaded.version}

        def rejected(code, message, **details):
            error = {"code": code, "message": message}
            if details:
                error["details"] = details
            return {**base, "status": "rejected", "error": error}

        if loaded.meta["status"] != "active":
            return rejected("game_over", _("the game is over")) if loaded.finished else \
                rejected("game_not_started", _("the game waits for players to join"))
        expected = envelope["expected_version"]
        if handover.is_handover(envelope["move"]):
            if self.handover_stale(loaded, expected, envelope["move"]):
                return rejected("stale_version", _("the game is at version {version}; the move was signed at "
                                                   "{expected}", version=loaded.version, expected=expected),
                                version=loaded.version)
            try:
                events, state = self.decide_handover(loaded, player, envelope["move"])
            except GameError as err:
                return rejected(err.code, err.message, **err.details)
            return {**base, "status": "applied", "version": loaded.version + len(events),
                    "_events": events, "_state": state}
        if record.get("signed_by") == "bot":
            try:
                self.check_bot_signed(loaded, player, record.get("bot_key"))
            except GameError as err:
                return rejected(err.code, err.message)
        if takeback.is_takeback(envelope["move"]):
            if self.takeback_stale(loaded, expected, envelope["move"]):
                return rejected("stale_version", _("the game is at version {version}; the move was signed at "
                                                   "{expected}", version=loaded.version, expected=expected),
                                version=loaded.version)
            try:
                events, state = self.decide_takeback(loaded, player, envelope["move"])
            except GameError as err:
                return rejected(err.code, err.message, **err.details)
            return {**base, "status": "applied", "version": loaded.version + len(events),
                    "_events": events, "_state": state}
        if self._stale(loaded, expected, player):
            return rejected("stale_version", _("the game is at version {version}; the move was signed at {expected}",
                                               version=loaded.version, expected=expected),
                            version=loaded.version)
        try:
            game.check_turn(loaded.state, player)
            events = game.decide(loaded.state, player, envelope["move"], rng_for(self._seed(loaded.id), loaded.version))
            state = game.apply(loaded.state, events)
        except GameError as err:
            return rejected(err.code, err.message, **err.details)
        except Exception:  # a bug in a rules module must not wedge the queue
            log.exception("rules error in game %s", loaded.id)
            return rejected("rules_error", _("the rules engine failed on this move; it was not applied"))
        return {**base, "status": "applied", "version": loaded.version + len(events),
                "_events": events, "_state": state}

    def announce(self, before: Loaded, after: Loaded, events: list, record: dict) -> None:
        """Tell every hook about one step appended outside a batch (the
        setup, a forfeit)."""
        for hook in self.after_apply:
            self._run_hook(hook, before, after, events, record)
        self._run_batch_hooks([(before, after, events, record)])

    def _run_batch_hooks(self, applied: list[tuple]) -> None:
        if not applied:
            return
        for hook in self.after_apply_batch:
            try:
                hook(self, applied)
            except Exception:  # notifications never undo an applied move
                log.exception("after_apply_batch hook %r failed", hook)

    def _run_hook(self, hook, before, after, events, record) -> None:
        try:
            hook(self, before, after, events, record)
        except Exception:  # notifications never undo an applied move
            log.exception("after_apply hook %r failed", hook)
