"""What a finished game costs: Redis memory per game, for each game, and the
archive of its record. One command:

    python bench/storage.py [--games 3] [--quick] [name ...]

For each registered game (its first sample setup, or ``bench_setups``' first
when it has them), plays ``--games`` whole games through the Service against
a real embedded Redis exactly as the server does (seats joined with Ed25519
keys, every move a signed envelope through ``Service.submit`` then
``Service.apply_move``, random legal moves), then measures:

  * ``MEMORY USAGE`` (``SAMPLES 0``: exact) of each of the game's keys: meta,
    seed, seats, log (the event stream), moves (every submission and its
    outcome, with the signed envelope), snap (the latest snapshot); the
    ``done:M`` lists used for ``Prefer: wait`` expire after 300 s and are
    reported apart as transient;
  * the archive: the game record (``GET /games/{id}/record``, JSON lines,
    verifiable offline) raw and gzip-compressed (level 9);
  * then the same game compacted (``Service.compact``: meta, one zstd
    archive in place of seed, seats, log, moves and snapshot, and the meta's long
    fields compressed in ``:extra``), its bytes
    (``compacted_bytes``, and ``compacted_over_gzip``: against the gzipped
    record; the target is at most 1.3) and how long compacting took.

Figures are means per finished game. The last line is one JSON object.
``--quick`` plays one game of each game's latest version, in its setup with
the fewest players (Cartoona's solo game, not a 1,000-event 3-player one).
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import redis  # noqa: E402

from pbem import games  # noqa: E402
from pbem.server.embedded_redis import EmbeddedRedis  # noqa: E402
from pbem.games.base import canonical  # noqa: E402
from pbem.service import Service  # noqa: E402
from pbem.store import Store, key  # noqa: E402
from replay import play, seat_players  # noqa: E402
from _quick import parse_args  # noqa: E402

PARTS = ("meta", "seed", "seats", "log", "moves", "snap")


def setup_of(game, fewest_players: bool = False):
    if fewest_players:
        return min(game.sample_setups, key=lambda setup: setup[0])
    setups = getattr(game, "bench_setups", None) or game.sample_setups
    return setups[0]


def memory(client: redis.Redis, name: str) -> int:
    return client.memory_usage(name, samples=0) or 0


def measure(client: redis.Redis, service: Service, game, n_games: int, rng: random.Random,
            fewest_players: bool = False) -> dict:
    players, options = setup_of(game, fewest_players)
    rows = []
    for _ in range(n_games):
        game_id, keys = seat_players(service, game.name, players, options)
        moves = play(service, game_id, keys, rng)
        meta = service.store.meta(game_id)
        assert meta["status"] == "finished", meta
        parts = {p: memory(client, key(game_id, p)) for p in PARTS}
        transient = sum(memory(client, k) for k in client.scan_iter(match=key(game_id, "done:*"), count=1000))
        record = ("\n".join(service.record_lines(game_id, None)) + "\n").encode()
        t0 = time.perf_counter()
        assert service.compact(game_id) == "ok"
        compact_ms = (time.perf_counter() - t0) * 1000
        assert ("\n".join(service.record_lines(game_id, None)) + "\n").encode() == record
        compacted = {p: memory(client, key(game_id, p)) for p in ("meta", "archive", "extra")}
        assert not any(memory(client, key(game_id, p)) for p in PARTS if p != "meta")
        rows.append({"events": meta["version"], "moves": moves, "parts": parts, "transient": transient,
                     "record_raw": len(record), "record_gzip": len(gzip.compress(record, 9)),
                     "compacted": compacted, "compact_ms": compact_ms})

    def mean(values):
        return round(statistics.mean(values))

    out = {
        "game": game.key, "players": players, "options": canonical(options), "games": n_games,
        "events": mean(r["events"] for r in rows), "moves": mean(r["moves"] for r in rows),
        "redis_bytes": mean(sum(r["parts"].values()) for r in rows),
        "parts": {p: mean(r["parts"][p] for r in rows) for p in PARTS},
        "transient_done_bytes": mean(r["transient"] for r in rows),
        "record_raw_bytes": mean(r["record_raw"] for r in rows),
        "record_gzip_bytes": mean(r["record_gzip"] for r in rows),
    }
    out["compacted_bytes"] = mean(sum(r["compacted"].values()) for r in rows)
    out["compacted_parts"] = {p: mean(r["compacted"][p] for r in rows) for p in ("meta", "archive", "extra")}
    out["compact_ms"] = round(statistics.mean(r["compact_ms"] for r in rows), 1)
    out["compacted_over_gzip"] = round(out["compacted_bytes"] / out["record_gzip_bytes"], 2)
    out["before_over_after"] = round(out["redis_bytes"] / out["compacted_bytes"], 1)
    out["redis_bytes_per_event"] = round(out["redis_bytes"] / out["events"], 1)
    out["gzip_ratio"] = round(out["record_raw_bytes"] / out["record_gzip_bytes"], 1)
    out["redis_over_gzip"] = round(out["redis_bytes"] / out["record_gzip_bytes"], 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="games to measure (default: all)")
    parser.add_argument("--games", type=int, default=3, help="finished games per game type")
    parser.add_argument("--seed", type=int, default=2)
    args = parse_args(parser, {"games": 1})
    rng = random.Random(args.seed)
    rows = []
    with tempfile.TemporaryDirectory(prefix="pbem-bench-storage-") as tmp:
        server = EmbeddedRedis(Path(tmp) / "redis", appendfsync="always").start()
        try:
            client = redis.Redis.from_url(server.url)
            service = Service(Store(client), snapshot_every=50)
            print(f"{'game':16} {'players':>7} {'events':>7} {'redis/game':>11} {'B/event':>8} "
                  f"{'log':>8} {'moves':>8} {'record raw':>11} {'gzip':>8} {'compacted':>10} {'/gzip':>6} "
                  f"{'ms':>5}", flush=True)
            for game in games.latest_games() if args.quick else games.all_games():
                if args.names and game.name not in args.names:
                    continue
                t0 = time.perf_counter()
                row = measure(client, service, game, args.games, rng, fewest_players=args.quick)
                row["seconds"] = round(time.perf_counter() - t0, 1)
                rows.append(row)
                print(f"{row['game']:16} {row['players']:>7} {row['events']:>7} {row['redis_bytes']:>11,} "
                      f"{row['redis_bytes_per_event']:>8} {row['parts']['log']:>8,} {row['parts']['moves']:>8,} "
                      f"{row['record_raw_bytes']:>11,} {row['record_gzip_bytes']:>8,} {row['compacted_bytes']:>10,} "
                      f"{row['compacted_over_gzip']:>6} {row['compact_ms']:>5}", flush=True)
            info = client.info("memory")
        finally:
            server.stop()
    print(json.dumps({"bench": "storage", "python": sys.version.split()[0],
                      "redis_used_memory": info.get("used_memory"), "results": rows}))


if __name__ == "__main__":
    main()
