"""The service layer: load a game, call the rules, append, tell the world.

The API views and the worker jobs are thin: each loads, calls one function
here, and returns. Everything that is stored goes through ``Store``; every
rule goes through the game's protocol object.

``Service`` is the one facade they call; its parts change for different
reasons and live apart, as mixins of that one object (they share its caches):

    common      Loaded, the state cache, who a token is, events as a viewer sees them
    loading     meta, seed, the state at any version (cache, snapshot, log tail)
    past        the states a replay passed, kept for the next past version
    lifecycle   create, join and deal, list; abandon, delete, compact, expire
    queries     who is asking, and every read through the game's filter
    submit      the move pipeline's edge: check and queue (one round trip when hot)
    apply       the move pipeline's worker side: decide and append in batches, hooks
    records     the game record (JSON lines)
    takebacks   takebacks by consent: their moves decided on the whole log
    handovers   a seat handed to a bot for a while, by consent: decided on the log, its bot key kept
    rematch     a finished game's rematch: offered, answered, started with the seats rotated
    languages   who reads in which language: the game's, each seat's, and its time zone
    open_games  the games opened to anyone: the only ones a stranger is listed
"""
from __future__ import annotations

import threading
from typing import Callable

from ..trust.signing import move_id_for  # noqa: F401  (re-exported: callers name it from here)
from ..store import Store
from .apply import Applying
from .common import (CREATOR, FIRST_WAIT_S, SETUP_MOVE, Loaded, SeatProof, StateCache,  # noqa: F401  (re-exported)
                     game_of, names_of, new_game_id, seat_of_token, shown_events, token_hash)
from .languages import Languages
from .lifecycle import Lifecycle
from .loading import Loading
from .open_games import OpenGames
from .past import PastStates
from .queries import Queries
from .records import Records
from .rematch import Rematching
from .submit import Submitting
from .takebacks import Takebacks
from .handovers import Handovers


class Service(Lifecycle, Queries, Records, Submitting, Applying, Takebacks, Loading, Languages, OpenGames,
              Rematching, Handovers):
    def __init__(self, store: Store, enqueue: Callable[[str, str], None] | None = None,
                 snapshot_every: int = 50, cache: StateCache | None = None,
                 enqueue_wait: Callable | None = None, enqueue_checked: Callable | None = None):
        self.store = store
        self.enqueue = enqueue
        #: Like ``enqueue``, and starts waiting for the outcome in the same
        #: round trip (``MoveQueue.push_wait``), for ``submit(wait=...)``.
        self.enqueue_wait = enqueue_wait
        #: Queues a move only if the game is still at a given version, waiting
        #: as ``enqueue_wait`` does (``MoveQueue.push_checked``): the one
        #: round trip of ``_submit_hot``.
        self.enqueue_checked = enqueue_checked
        self._seats: dict[tuple[str, int], dict] = {}  # write-once (joining is HSETNX)
        self.snapshot_every = snapshot_every
        self.cache = cache or StateCache()
        #: States a replay of a past version passed, for the next (the replay slider's).
        self.past = PastStates()
        self._seeds: dict[str, bytes] = {}
        self._memo_lock = threading.Lock()
        #: Called as hook(service, loaded_before, loaded_after, events, move_record)
        #: after every applied move.
        self.after_apply: list[Callable] = []
        #: Called as hook(service, [(loaded_before, loaded_after, events, move_record)])
        #: once per batch of applied moves (notifications subscribe here: one
        #: round trip for the batch).
        self.after_apply_batch: list[Callable] = []
        #: Called as hook(service, loaded, record) when the worker rejects a
        #: queued move (notifications tell the mover).
        self.after_reject: list[Callable] = []
        #: Called as hook(service, game_id, what, seat) when a finished game's
        #: rematch is ``offered`` (by ``seat``), ``started`` or ``off``.
        self.after_rematch: list[Callable] = []
        #: Called as sweep(service, now) -> {what: [ids]} by each maintenance
        #: sweep (pbem.service.maintenance): the notifications' deadlines,
        #: vacations and gathered turn mails whose job did not run
        #: (pbem.notify.sweeps).
        self.also_sweep: list[Callable] = []


__all__ = ["CREATOR", "FIRST_WAIT_S", "SETUP_MOVE", "Loaded", "SeatProof", "Service", "StateCache", "game_of",
           "move_id_for", "names_of", "new_game_id", "seat_of_token", "shown_events", "token_hash"]
