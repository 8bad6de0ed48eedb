"""Moves streamed over HTTP at a server on a cluster while the cluster
changes under it (a master killed, a slot moved), and the checks that
follow: every move the server said ``applied`` is still applied, at the
version it said, exactly once; every move it accepted ends applied; each
log is gapless and replays to what the service loads."""
from __future__ import annotations

import random
import threading
import time
from collections import Counter

import requests

from pbem import games
from pbem.games.base import canonical
from pbem.games.playout import play_random
from pbem.trust.signing import generate_key, make_envelope, move_id_for

PIECES = ["eagle"] + ["chief"] * 2 + ["tomahawk"] * 3 + ["fur"] * 4 + ["tipi"] * 5 + ["sun"] * 6
VILLAGES = ["eagle", "chief", "tomahawk", "fur", "tipi", "sun", "variety", "height"]


class Player:
    """One Wakanda game whose whole setup is fixed by options, so every move
    is known and signed beforehand; played move by move over HTTP, as a
    careful client does: a 503 is tried again with the same envelope (the
    same nonce), a ``nonce_reused`` means the first try was recorded and its
    outcome is asked for by move id."""

    def __init__(self, url: str, seed: int):
        self.url, self.http = url, requests.Session()
        rng = random.Random(seed)
        bag, villages = PIECES[:], VILLAGES[:]
        rng.shuffle(bag)
        rng.shuffle(villages)
        options = {"fixed_villages": villages, "fixed_bag": bag, "start_player": seed % 2}
        self.id = self._ok(self.http.post(f"{url}/games", json={"game": "wakanda", "players": 2,
                                                                 "options": options}), 201)["id"]
        keys = [generate_key() for _ in range(2)]
        for seat, (_, public) in enumerate(keys):
            self._ok(self.http.post(f"{url}/games/{self.id}/seats/{seat}", json={"public_key": public,
                                                                                  "name": f"p{seat}"}), 201)
        playout = play_random(games.get("wakanda"), 2, options, seed=seed)
        self.envelopes = [make_envelope(self.id, player, version, move, keys[player][0])
                          for version, player, move in playout.moves]
        self.next = 0
        self.applied: dict[str, int] = {}  # move id -> the version the server said
        self.accepted: set[str] = set()  # move ids answered 202 or 200
        self.unavailable = 0  # 503s seen

    @staticmethod
    def _ok(resp, status):
        assert resp.status_code == status, (resp.status_code, resp.text[:300])
        return resp.json()

    def done(self) -> bool:
        return self.next >= len(self.envelopes)

    def play_one(self, deadline: float) -> None:
        env = self.envelopes[self.next]
        move_id = move_id_for(self.id, env["player"], env["nonce"])
        url = f"{self.url}/games/{self.id}/moves"
        while time.monotonic() < deadline:
            try:
                resp = self.http.post(url, json=env, headers={"Prefer": "wait=5"}, timeout=30)
            except requests.ConnectionError:
                time.sleep(0.1)
                continue
            if resp.status_code == 503:
                self.unavailable += 1
                assert resp.headers.get("Retry-After"), resp.headers
                assert resp.json()["error"]["code"] == "store_unavailable"
                time.sleep(0.1)
                continue
            if resp.status_code == 409 and resp.json()["error"]["code"] == "nonce_reused":
                record = self._outcome(move_id, deadline)
            else:
                assert resp.status_code in (200, 202), (resp.status_code, resp.text[:300])
                record = resp.json()
                self.accepted.add(move_id)
                if record["status"] == "queued":
                    record = self._outcome(move_id, deadline)
            if record is None:
                return  # out of time: the move's fate is checked at the end
            assert record["status"] == "applied", record
            self.accepted.add(move_id)
            self.applied[move_id] = record["version"]
            self.next += 1
            return

    def _outcome(self, move_id: str, deadline: float) -> dict | None:
        while time.monotonic() < deadline:
            try:
                resp = self.http.get(f"{self.url}/games/{self.id}/moves/{move_id}", params={"wait": 2}, timeout=30)
            except requests.ConnectionError:
                time.sleep(0.1)
                continue
            if resp.status_code == 503:
                self.unavailable += 1
                time.sleep(0.1)
                continue
            if resp.status_code == 404:
                return None  # never recorded (lost with a 503): the next try sends it again
            record = resp.json()
            assert resp.status_code == 200, record
            if record["status"] != "queued":
                return record
        return None


def stream_moves(players: list[Player], threads: int, seconds: float, during=None) -> dict:
    """Play the games from ``threads`` client threads for ``seconds`` (each
    thread its share, round robin); ``during(applied_so_far)`` is called from
    the main thread every 50 ms (a fault is caused there)."""
    stop_at = time.monotonic() + seconds
    errors: list = []

    def loop(mine: list[Player]):
        try:
            turn = 0
            while time.monotonic() < stop_at:
                live = [p for p in mine if not p.done()]
                if not live:
                    return
                live[turn % len(live)].play_one(stop_at)
                turn += 1
        except Exception as err:  # the test shows it
            errors.append(err)

    ts = [threading.Thread(target=loop, args=(players[i::threads],), daemon=True) for i in range(threads)]
    for t in ts:
        t.start()
    while any(t.is_alive() for t in ts):
        if during is not None:
            during(sum(len(p.applied) for p in players))
        time.sleep(0.05)
    assert not errors, errors
    return {"applied": sum(len(p.applied) for p in players), "unavailable": sum(p.unavailable for p in players)}


def queue_state(client, game_id: str) -> dict:
    """What a stuck move's shard queue looks like (for a failing assertion)."""
    shards = client.pbem_shards
    shard = shards.of_game(game_id)
    stream, lease = shards.key(shard, "submissions"), shards.key(shard, "drain:lease")
    try:
        return {"shard": shard, "xlen": client.xlen(stream), "entries": client.xrange(stream, count=5),
                "pending": client.xpending(stream, "appliers"),
                "consumers": client.xinfo_consumers(stream, "appliers"),
                "lease": (client.get(lease), client.pttl(lease))}
    except Exception as err:
        return {"error": repr(err)}


def check_exactly_once(service, players: list[Player], wait_s: float = 30.0) -> Counter:
    """Every applied answer still stands at its version, exactly once; every
    accepted move ends applied; every log is gapless and replays to the
    state the service loads (from an empty cache)."""
    deadline = time.monotonic() + wait_s
    outcome = Counter()
    for p in players:
        for move_id in p.accepted:
            record = service.store.move(p.id, move_id)
            while record["status"] == "queued" and time.monotonic() < deadline:
                time.sleep(0.1)
                record = service.store.move(p.id, move_id)
            assert record["status"] == "applied", (p.id, record, queue_state(service.store.redis, p.id))
            if move_id in p.applied:
                assert record["version"] == p.applied[move_id], (p.id, record, p.applied[move_id])
                outcome["answered applied"] += 1
            else:
                outcome["accepted, answered otherwise"] += 1
        rows = service.store.events(p.id)
        assert [v for v, _, _ in rows] == list(range(1, len(rows) + 1)), f"{p.id}: a gap in the log"
        assert service.store.meta(p.id)["version"] == len(rows)
        runs = [m for i, (_, _, m) in enumerate(rows) if i == 0 or rows[i - 1][2] != m]
        assert len(runs) == len(set(runs)), f"{p.id}: a move's events appear twice"
        for move_id, version in p.applied.items():
            assert move_id in {m for v, _, m in rows if v <= version}
        loaded = service.load(p.id)
        replayed = loaded.game.replay(2, loaded.meta["options"], [e for _, e, _ in rows])
        assert canonical(loaded.game.dump(replayed)) == canonical(loaded.game.dump(loaded.state)), p.id
        outcome["games"] += 1
        outcome["events"] += len(rows)
    return outcome
