"""The same request gets the same answer from any process.

Two kinds of process must agree byte for byte: ones started under different
``PYTHONHASHSEED`` values (string sets iterate in another order), and ones
that followed a game move by move against ones that read it back from the
store (a snapshot and the log after it, JSON with sorted keys). Both are
tested on real processes: the game scripts of ``tests/determinism_dump.py``
(every game and sample setup, every view, board, legal-move list, state
and event), and two real API servers on one Redis.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time

import pytest
import requests

from pbem.trust import signing
from pbem.server.embedded_redis import free_port
from pbem.games.base import SnapshotOutdated, canonical

from .conftest import ROOT, drain


def _run_dump(hash_seed: int, *args: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed), PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "tests.determinism_dump", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _digests(proc: subprocess.Popen) -> dict:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    return dict(line.rsplit(" ", 1) for line in out.splitlines())


def _first_difference(case: str) -> str:
    """The first line where the two processes part, for the failure message."""
    a, b = _run_dump(1, "--full", "--only", case), _run_dump(2, "--full", "--only", case, "--mode", "stored")
    lines_a, lines_b = a.communicate(timeout=300)[0].splitlines(), b.communicate(timeout=300)[0].splitlines()
    for x, y in zip(lines_a, lines_b):
        if x != y:
            return f"\n  live:   {x[:400]}\n  stored: {y[:400]}"
    return f"\n  {len(lines_a)} lines against {len(lines_b)}"


def test_every_game_answers_alike_from_processes_with_other_hash_seeds():
    """One process keeps every state decide made; the other, under another
    hash seed, takes every event back from JSON and restarts from a
    snapshot every few steps, as a server process that did not follow the
    game does. Every case must print the same digest."""
    live, stored = _run_dump(1), _run_dump(2, "--mode", "stored")  # the two run side by side
    a, b = _digests(live), _digests(stored)
    assert a.keys() == b.keys() and len(a) > 40
    differ = [case for case in a if a[case] != b[case]]
    assert not differ, f"{len(differ)} case(s) differ, first {differ[0]}:{_first_difference(differ[0])}"


# -- two real API servers on one Redis ---------------------------------------------------

SERVER = """
import sys
from werkzeug.serving import make_server
from pbem.api import create_app
server = make_server("127.0.0.1", int(sys.argv[1]), create_app(), threaded=True)
print("ready", flush=True)
server.serve_forever()
"""


class ApiProcess:
    """The API in a process of its own, under a hash seed of its own."""

    def __init__(self, settings, hash_seed: int):
        self.port = free_port()
        env = dict(os.environ, PYTHONHASHSEED=str(hash_seed), PYTHONPATH=str(ROOT), REDIS_URL=settings.redis_url,
                   PBEM_SNAPSHOT_EVERY=str(settings.snapshot_every), PBEM_NOTIFY="0")
        self.proc = subprocess.Popen([sys.executable, "-c", SERVER, str(self.port)], cwd=ROOT, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = f"http://127.0.0.1:{self.port}"
        self.http = requests.Session()

    def wait_ready(self):
        assert self.proc.stdout.readline().strip() == "ready", self.proc.stderr.read()

    def get(self, path: str, token: str | None = None) -> bytes:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.http.get(self.url + path, headers=headers, timeout=30)
        assert response.status_code == 200, (path, response.status_code, response.text[:300])
        return response.content

    def stop(self):
        self.http.close()
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture
def two_api_processes(redis_client, settings):
    servers = [ApiProcess(settings, 1), ApiProcess(settings, 2)]
    try:
        for server in servers:
            server.wait_ready()
        yield servers
    finally:
        for server in servers:
            server.stop()


def _answers(server: ApiProcess, game_id: str, tokens: list, versions: list[int], finished: bool) -> dict:
    """Everything a reader can ask about a game, by path and token."""
    out = {}
    for token in [None, *tokens]:
        paths = [f"/games/{game_id}", f"/games/{game_id}/events?after=0&limit=1000", f"/games/{game_id}/record",
                 *(f"/games/{game_id}/states/{v}" for v in versions)]
        if token is not None and not finished:
            paths.append(f"/games/{game_id}/legal-moves")
        for path in paths:
            out[(path, token)] = server.get(path, token)
    return out


def _compare(follower: ApiProcess, reader: ApiProcess, game_id, tokens, versions, finished):
    # The reader goes first: it must load from the store, not from a cache
    # the follower's answers could not have warmed (they are other processes).
    b = _answers(reader, game_id, tokens, versions, finished)
    a = _answers(follower, game_id, tokens, versions, finished)
    differ = [key for key in a if a[key] != b[key]]
    assert not differ, (f"{len(differ)} answer(s) differ, first {differ[0]}:\n"
                        f"  follower: {a[differ[0]][:600]!r}\n  reader:   {b[differ[0]][:600]!r}")


def test_two_api_processes_give_the_same_bytes_for_a_cartoona_game(service, two_api_processes):
    """The issue's case: a finished Cartoona game's ``GET /games/{id}`` (its
    creatures' open sockets) answered differently by different processes.
    One API process follows the game (it is asked after every move, so it
    evolves each state from the last); the other, under another hash seed,
    is asked only mid-game and at the end, so it loads the latest snapshot
    and the log after it. Both must give the same bytes for the game, the
    events, past states, legal moves and the record, for every reader."""
    follower, reader = two_api_processes
    players, options = 2, {"cheat_cards": True, "target_score": 20}  # a few hundred moves
    game_id = service.create_game("cartoona", players, options, seed=b"hash-seed-test")["id"]
    keys, tokens = [], []
    for seat in range(players):
        private, public = signing.generate_key()
        keys.append(private)
        tokens.append(service.join(game_id, seat, public, f"P{seat}")["token"])
    rng = random.Random(4)
    compared_mid_game = False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        loaded = service.load(game_id)
        if loaded.finished:
            break
        follower.get(f"/games/{game_id}")  # keeps the follower's cache moving, a version at a time
        if not compared_mid_game and loaded.version >= 150:
            _compare(follower, reader, game_id, tokens, [1, loaded.version // 2, loaded.version], False)
            compared_mid_game = True
        seat = rng.choice(sorted(loaded.game.to_act(loaded.state)))
        move = rng.choice(loaded.game.legal_moves(loaded.state, seat))
        envelope = signing.make_envelope(game_id, seat, loaded.version, move, keys[seat])
        service.submit(game_id, envelope)
        drain(service)
    final = service.load(game_id)
    assert final.finished and compared_mid_game
    follower.get(f"/games/{game_id}")
    _compare(follower, reader, game_id, tokens, [1, final.version // 3, final.version - 1, final.version], True)


# -- snapshots written before the order was kept -----------------------------------------


def _old_dump(game, state):
    """A snapshot as the code before this fix wrote it: Cartoona's state as
    it is (creature tiles as an object), Carcassonne's followers sorted by
    cell; neither with a ``format``."""
    if game.name == "cartoona":
        return state
    dump = game.dump(state)
    del dump["format"]
    dump["followers"] = sorted(dump["followers"], key=lambda f: (f[2], f[1], f[0], f[3], f[4]))
    return dump


@pytest.mark.parametrize("name,players,options", [
    ("cartoona", 2, {"cheat_cards": True, "target_score": 20}),
    ("carcassonne", 4, {"expansions": ["inns_cathedrals", "traders_builders", "abbey_mayor"]}),
])
def test_a_snapshot_in_the_old_format_is_replayed_from_the_log(service, name, players, options):
    """An older snapshot lost an order the rules read: the service rebuilds
    the state from the log instead, so a process that loads the game still
    answers as one that followed it."""
    game_id = service.create_game(name, players, options, seed=b"old-snapshot")["id"]
    keys = []
    for seat in range(players):
        private, public = signing.generate_key()
        keys.append(private)
        service.join(game_id, seat, public, f"P{seat}")
    rng = random.Random(2)
    shared = 0  # states where the old format loses an order: a feature or creature with two or more
    for _ in range(400):
        loaded = service.load(game_id)
        if loaded.finished:
            break
        game, state = loaded.game, loaded.state
        if name == "cartoona":
            shared += any(len(c["tiles"]) > 1 for c in state["cre"].values())
        else:
            shared += any(len(f.meeples) > 1 for f in state.features.values())
        seat = rng.choice(sorted(game.to_act(state)))
        envelope = signing.make_envelope(game_id, seat, loaded.version, rng.choice(game.legal_moves(state, seat)),
                                         keys[seat])
        service.submit(game_id, envelope)
        drain(service)
    assert shared, "the game never reached a state the old format gets wrong"
    live = service.load(game_id)
    service.store.save_snapshot(game_id, live.version, json.loads(json.dumps(_old_dump(live.game, live.state))))
    service.cache = type(service.cache)()  # a process that never saw the game
    fresh = service.load(game_id)
    assert canonical(live.game.dump(fresh.state)) == canonical(live.game.dump(live.state))
    for seat in sorted(live.game.to_act(live.state)):
        assert canonical(live.game.legal_moves(fresh.state, seat)) == canonical(live.game.legal_moves(live.state, seat))
    with pytest.raises(SnapshotOutdated):  # what made the service replay
        live.game.load(json.loads(json.dumps(_old_dump(live.game, live.state))))
