"""Faults with real processes: a worker killed with SIGKILL in the middle of a
stream of moves; every accepted move is applied exactly once afterwards."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from pbem.trust import signing
from pbem.games.base import canonical

from .conftest import wait_until

GAMES = 240  # several drain batches (64 a batch), so the kill lands mid-stream
ROUNDS = 3


def make_games(service, count):
    out = []
    for _ in range(count):
        game = service.create_game("wakanda", 2, {})
        keys = []
        for seat in range(2):
            private, public = signing.generate_key()
            service.join(game["id"], seat, public, f"p{seat}")
            keys.append(private)
        out.append((game["id"], keys))
    return out


def submit_round(service, games, rng):
    """One legal move in every unfinished game, each signed at the game's version."""
    submitted = []
    for game_id, keys in games:
        loaded = service.load(game_id)
        if loaded.game.result(loaded.state):
            continue
        seat = rng.choice(sorted(loaded.game.to_act(loaded.state)))
        move = rng.choice(loaded.game.legal_moves(loaded.state, seat))
        env = signing.make_envelope(game_id, seat, loaded.version, move, keys[seat])
        submitted.append((game_id, service.submit(game_id, env)["id"]))
    return submitted


def statuses(service, submitted):
    return Counter(service.store.move(g, m)["status"] for g, m in submitted)


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)  # a cluster's drainers are threads
def test_kill_9_worker_mid_stream_every_move_applied_once(service, redis_client, start_worker):
    rng = random.Random(11)
    games = make_games(service, GAMES)
    # The first round is queued before any worker runs, so the kill lands
    # mid-stream however fast the worker is.
    batch = submit_round(service, games, rng)
    accepted = list(batch)
    first = start_worker(scheduler=False)
    wait_until(lambda: service.store.move(*batch[0])["status"] == "applied", timeout=20, interval=0.001)
    first.kill()
    assert statuses(service, batch)["queued"] > 0, "the worker finished before it was killed"
    start_worker(scheduler=False)
    wait_until(lambda: statuses(service, batch)["queued"] == 0, timeout=30)
    for _round in range(ROUNDS - 1):
        batch = submit_round(service, games, rng)
        accepted += batch
        wait_until(lambda: statuses(service, batch)["queued"] == 0, timeout=30)
    final = statuses(service, accepted)
    assert final == Counter(applied=len(accepted)), final
    for game_id, _keys in games:
        rows = service.store.events(game_id)
        versions = [v for v, _, _ in rows]
        assert versions == list(range(1, len(rows) + 1)), "a gap or a doubled event in the log"
        # every applied move's events form one run in the log: none doubled
        runs = [m for i, (_, _, m) in enumerate(rows) if i == 0 or rows[i - 1][2] != m]
        assert len(runs) == len(set(runs)), "a move's events appear twice"
        applied = [m for g, m in accepted if g == game_id]
        assert set(applied) <= set(runs)
        assert all(service.store.move(game_id, m)["version"] <= len(rows) for m in applied)
        loaded = service.load(game_id)
        replayed = loaded.game.replay(2, loaded.meta["options"], [e for _, e, _ in rows])
        assert canonical(loaded.game.dump(replayed)) == canonical(loaded.game.dump(loaded.state))
