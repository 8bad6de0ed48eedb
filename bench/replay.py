"""Loading a game of 10,000 events through ``Service.load`` against a real
embedded Redis: cold (no snapshot, empty state cache: the whole log is read
and replayed), warm (the snapshot plus the tail after it, empty cache) and
hot (the in-process cache). Warm is measured twice: with the snapshot the
server left (at the last multiple of ``PBEM_SNAPSHOT_EVERY``) and with the
snapshot as far behind as it can be (``snapshot_every - 1`` events to
replay), the worst case. One command:

    python bench/replay.py [--events 10000] [--repeat 5] [--quick]

How the 10,000-event game is made, honestly: most games here are short
(Wakanda about 50 events, Kachina about 70, Carcassonne about 200, a full
Cartoona game about 1,000). Cartoona's kids' mode with six children and the
single-colour goal runs until a child completes a one-colour creature or
``kids_turn_limit`` rounds pass (at most 1,000 rounds: about 23,000 events
in random play). So this bench creates such a game through the Service,
joins six seats with Ed25519 keys, and plays it move by move exactly as the
server does (a signed envelope, ``Service.submit``, then
``Service.apply_move`` as the worker does, random legal moves), until the
log holds at least ``--events`` events; if a child wins first, it starts
another game (bounded). Nothing is concatenated or synthesised in that log.
Mind that the kids' game is a light one (small events, about 48 bytes, and a
cheap evolve): the cold load is dominated by reading the stream, which is
the same per event for every game; ``bench/engines.py`` gives each game's
own evolve rate.

It also reports, separately, the raw stream read rate (XRANGE plus JSON
decoding of the same log, no rules) and the rules' evolve rate (replay of
the already-read events), and a synthetic stream: ``--events`` events of the
same average size XADDed to a scratch stream and read back, to tell the
store's share from the rules' share.

The last line of output is one JSON object holding every figure.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402

from pbem.trust import signing  # noqa: E402
from pbem.server.embedded_redis import EmbeddedRedis  # noqa: E402
from pbem.games.base import canonical  # noqa: E402
from pbem.service import Service, StateCache  # noqa: E402
from pbem.store import Store, key  # noqa: E402
from _quick import parse_args  # noqa: E402

LONG_GAME = ("cartoona", 6, {"mode": "kids", "kids_target": "single_colour", "kids_turn_limit": 1000})


def seat_players(service: Service, name: str, players: int, options: dict) -> tuple[str, list[str]]:
    game_id = service.create_game(name, players, options)["id"]
    keys = []
    for seat in range(players):
        private, public = signing.generate_key()
        service.join(game_id, seat, public, f"p{seat}")
        keys.append(private)
    return game_id, keys


def play(service: Service, game_id: str, keys: list[str], rng: random.Random,
         until_events: int | None = None, max_moves: int = 50_000) -> int:
    """Play random legal moves through submit + apply_move (the worker's
    path) until the game ends or its log reaches ``until_events``. Returns
    the number of moves played."""
    moves = 0
    for _ in range(max_moves):
        loaded = service.load(game_id)
        if loaded.finished or (until_events and loaded.version >= until_events):
            return moves
        seat = rng.choice(sorted(loaded.game.to_act(loaded.state)))
        move = rng.choice(loaded.game.legal_moves(loaded.state, seat))
        envelope = signing.make_envelope(game_id, seat, loaded.version, move, keys[seat])
        record = service.submit(game_id, envelope)
        outcome = service.apply_move(game_id, record["id"])
        if outcome["status"] != "applied":
            raise RuntimeError(f"move refused: {outcome}")
        moves += 1
    raise RuntimeError(f"game {game_id} did not end in {max_moves} moves")


def timed(fn, repeat: int) -> tuple[float, object]:
    times, value = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=10_000, help="events in the game's log (at least)")
    parser.add_argument("--repeat", type=int, default=5, help="timed loads of each kind (median reported)")
    parser.add_argument("--snapshot-every", type=int, default=50, help="PBEM_SNAPSHOT_EVERY for the game")
    parser.add_argument("--seed", type=int, default=1)
    args = parse_args(parser, {"events": 300, "repeat": 1})
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-replay-") as tmp:
        server = EmbeddedRedis(Path(tmp) / "redis", appendfsync="always").start()
        try:
            client = redis.Redis.from_url(server.url)
            store = Store(client)
            service = Service(store, snapshot_every=args.snapshot_every)
            name, players, options = LONG_GAME
            t0 = time.perf_counter()
            moves = 0
            for _attempt in range(5):
                game_id, keys = seat_players(service, name, players, options)
                moves = play(service, game_id, keys, rng, until_events=args.events)
                if store.version(game_id) >= args.events:
                    break
                print(f"game {game_id} ended after {store.version(game_id)} events; playing another", flush=True)
            else:
                raise SystemExit("no game reached the wanted length")
            build_s = time.perf_counter() - t0
            version = store.version(game_id)
            print(f"built {name} {players}p {canonical(options)}: {version} events from {moves} moves "
                  f"played through submit + apply_move in {build_s:.1f} s", flush=True)

            live = service.load(game_id)
            expected = canonical(live.game.dump(live.state))

            def load_fresh():
                return Service(store, snapshot_every=args.snapshot_every, cache=StateCache()).load(game_id)

            # warm: snapshot + tail, empty cache; as the server left it, then
            # with the snapshot as far behind as it can be (snapshot_every - 1)
            snap_raw = client.get(key(game_id, "snap"))
            snap_version, _ = store.snapshot(game_id)
            warm_s, warm = timed(load_fresh, args.repeat)
            assert canonical(warm.game.dump(warm.state)) == expected
            behind = max(0, version - (args.snapshot_every - 1))
            old = service.load(game_id, behind)
            store.save_snapshot(game_id, behind, old.game.dump(old.state))
            try:
                worst_s, worst = timed(load_fresh, args.repeat)
            finally:
                client.set(key(game_id, "snap"), snap_raw)
            assert canonical(worst.game.dump(worst.state)) == expected
            # cold: no snapshot, empty cache (the snapshot is put back after)
            client.delete(key(game_id, "snap"))
            try:
                cold_s, cold = timed(load_fresh, args.repeat)
            finally:
                client.set(key(game_id, "snap"), snap_raw)
            assert canonical(cold.game.dump(cold.state)) == expected
            # hot: the process's cache holds the current version
            hot_s, hot = timed(lambda: service.load(game_id), args.repeat)
            assert hot.version == version
            # the parts of a cold load: read the stream, then evolve
            read_s, rows = timed(lambda: store.events(game_id), args.repeat)
            events = [e for _, e, _ in rows]
            evolve_s, _ = timed(lambda: live.game.replay(players, live.meta["options"], events), args.repeat)
            # a synthetic stream of the same size and count: the store alone
            avg_bytes = sum(len(canonical(e)) for e in events) / len(events)
            scratch = "pbem:bench:synthetic"
            client.delete(scratch)
            pipe = client.pipeline(transaction=False)
            payload = json.dumps({"type": "x", "pad": "y" * max(0, int(avg_bytes) - 22)})
            for n in range(1, version + 1):
                pipe.xadd(scratch, {"e": payload, "m": "synthetic"}, id=f"{n}-1")
            pipe.execute()
            synth_s, synth = timed(lambda: [json.loads(f[b"e"]) for _, f in client.xrange(scratch)], args.repeat)
            assert len(synth) == version
            client.delete(scratch)
            snap_bytes = len(snap_raw)
        finally:
            server.stop()
    figures = {
        "bench": "replay", "python": sys.version.split()[0],
        "game": name, "players": players, "options": options, "events": version, "moves": moves,
        "snapshot_every": args.snapshot_every, "snapshot_version": snap_version, "snapshot_bytes": snap_bytes,
        "tail_events_warm": version - snap_version, "avg_event_bytes": round(avg_bytes, 1),
        "cold_ms": round(cold_s * 1000, 2), "cold_events_per_s": round(version / cold_s),
        "warm_ms": round(warm_s * 1000, 2), "warm_events_per_s": round(version / warm_s),
        "warm_worst_tail_events": version - behind, "warm_worst_ms": round(worst_s * 1000, 2),
        "warm_worst_events_per_s": round(version / worst_s),
        "hot_ms": round(hot_s * 1000, 3),
        "stream_read_ms": round(read_s * 1000, 2), "stream_read_events_per_s": round(version / read_s),
        "evolve_ms": round(evolve_s * 1000, 2), "evolve_events_per_s": round(version / evolve_s),
        "synthetic_read_ms": round(synth_s * 1000, 2), "synthetic_read_events_per_s": round(version / synth_s),
        "cold_over_warm_worst": round(cold_s / worst_s, 1),
        "build_s": round(build_s, 1),
    }
    print(f"cold  (no snapshot, empty cache): {figures['cold_ms']:9.2f} ms  {figures['cold_events_per_s']:>10,} events/s")
    print(f"  of which stream read + decode : {figures['stream_read_ms']:9.2f} ms  "
          f"{figures['stream_read_events_per_s']:>10,} events/s")
    print(f"  of which evolve (rules)       : {figures['evolve_ms']:9.2f} ms  {figures['evolve_events_per_s']:>10,} events/s")
    print(f"warm  (snapshot @{snap_version} + {version - snap_version} events): {figures['warm_ms']:9.2f} ms  "
          f"{figures['warm_events_per_s']:>10,} events/s (of the game's {version})")
    print(f"warm, worst (snapshot @{behind} + {version - behind} events): {figures['warm_worst_ms']:9.2f} ms  "
          f"{figures['warm_worst_events_per_s']:>10,} events/s (of the game's {version})")
    print(f"hot   (process cache)           : {figures['hot_ms']:9.3f} ms")
    print(f"synthetic stream read ({version} events of {avg_bytes:.0f} B): {figures['synthetic_read_ms']:.2f} ms  "
          f"{figures['synthetic_read_events_per_s']:,} events/s")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
