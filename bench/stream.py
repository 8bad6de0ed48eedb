"""Live event streams under load. One command:

    python bench/stream.py [--seconds 8] [--streams 1000] [--games 50] [--quick]

It starts its own server exactly as ``make run`` does (embedded Redis with
appendfsync always, gunicorn with WEB_CONCURRENCY=2, PBEM_WORKERS=2, the
stream process) on free loopback ports with a temporary data directory,
notifications off, and stops it after. A second process of its own (this
file with ``--holder``: asyncio and aiohttp's client) holds the streams,
spread evenly over the games, as browsers would.

It reports:
  1. the no-op POST's req/s (``POST /noop`` on that gunicorn, 32 clients, as
     bench/pipeline.py drives it) with no stream open and with all of them
     open, the two phases taking turns (without, with, with, without, ...)
     so that the drift of a shared machine's speed weighs on both; the
     figure is their ratio (target: at least 0.9);
  2. append-to-receive latency: moves appended to the games (each with
     ``--streams / --games`` watchers), the time from the worker's decision
     (the ``settled`` time of the move, taken just before its append) to
     the moment each watcher has read the event; paced (one move every
     20 ms), then a burst (one move on every game at once). Target: p99
     under 1 s. Every watcher must get every event: the misses are counted.
The last line is one JSON object. Loopback only; bounded in count and time.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _quick import parse_args  # noqa: E402


def raise_open_files(wanted: int) -> int:
    """Raise the soft limit on open files (each stream is a socket at both
    ends) as far as the hard limit allows; the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# -- the holder: a process of its own holding every stream ---------------------


async def holder(url: str) -> None:
    """Commands on stdin, one JSON line each: ``open`` (``{"games": {id:
    version}, "per_game": n}``), ``close``, ``report``, ``quit``; answers on
    stdout, one JSON line each."""
    import aiohttp

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    tasks: list[asyncio.Task] = []
    session: aiohttp.ClientSession | None = None
    received: dict[str, dict[int, list[float]]] = {}
    errors: list[str] = []

    async def one(game_id: str, after: int, opened: asyncio.Event, counter: list, gate: asyncio.Semaphore):
        times = received.setdefault(game_id, {})
        async with gate:  # at most 100 connecting at once: no SYN flood on loopback
            resp = await session.get(f"{url}/games/{game_id}/events/stream", params={"after": str(after)})
        try:
            if resp.status != 200:
                errors.append(f"{game_id}: HTTP {resp.status}")
                return
            counter[0] += 1
            if counter[0] == counter[1]:
                opened.set()
            version = None
            async for line in resp.content:
                if line.startswith(b"id: "):
                    version = int(line[4:])
                elif line == b"\n" and version is not None:
                    times.setdefault(version, []).append(time.time())
                    version = None
        except asyncio.CancelledError:
            raise
        except Exception as err:  # noqa: BLE001  (reported, not raised)
            errors.append(f"{game_id}: {err!r}")
        finally:
            resp.release()

    def say(obj) -> None:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()

    while True:
        line = await reader.readline()
        if not line:
            break
        cmd = json.loads(line)
        if cmd["cmd"] == "open":
            session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, force_close=False),
                                            timeout=aiohttp.ClientTimeout(total=None, sock_read=60))
            opened, total = asyncio.Event(), len(cmd["games"]) * cmd["per_game"]
            counter, gate = [0, total], asyncio.Semaphore(100)
            t0 = time.monotonic()
            for game_id, version in cmd["games"].items():
                for _ in range(cmd["per_game"]):
                    tasks.append(asyncio.create_task(one(game_id, version, opened, counter, gate)))
            try:
                await asyncio.wait_for(opened.wait(), 60)
            except asyncio.TimeoutError:
                pass
            say({"open": counter[0], "of": total, "seconds": round(time.monotonic() - t0, 2), "errors": errors[:5]})
        elif cmd["cmd"] == "close":
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            tasks.clear()
            if session:
                await session.close()
            say({"closed": True})
        elif cmd["cmd"] == "report":
            say({"received": {g: {str(v): ts for v, ts in vs.items()} for g, vs in received.items()},
                 "errors": errors})
        elif cmd["cmd"] == "quit":
            break
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if session and not session.closed:
        await session.close()


class Holder:
    def __init__(self, stream_url: str):
        self.proc = subprocess.Popen([sys.executable, __file__, "--holder", stream_url], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, cwd=ROOT)

    def ask(self, cmd: dict, timeout: float = 120) -> dict:
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        result: list = []
        reader = threading.Thread(target=lambda: result.append(self.proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout)
        if not result or not result[0]:
            raise SystemExit(f"the stream holder did not answer {cmd['cmd']!r}")
        return json.loads(result[0])

    def quit(self) -> None:
        try:
            self.ask({"cmd": "quit"}, timeout=5)
        except (SystemExit, OSError, ValueError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# -- the measuring process -----------------------------------------------------


def stream_pid(root: int) -> int | None:
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                cmd = open(f"/proc/{entry.name}/cmdline", "rb").read().replace(b"\0", b" ").decode()
                parent = int(open(f"/proc/{entry.name}/stat").read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            if "-m pbem.stream" in cmd and parent == root:
                return int(entry.name)
    return None


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def machine_busy() -> float:
    """CPU seconds the whole machine has spent busy (every process, ours or
    not: this machine is shared, and others' work shows in our rates)."""
    with open("/proc/stat") as f:
        user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in f.readline().split()[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int | None) -> float | None:
    if pid is None:
        return None
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return None


def move(client, game) -> dict | None:
    """Submit a game's next pre-signed move and wait until it is applied."""
    if game.done():
        return None
    env = game.envelopes[game.next]
    game.next += 1
    status, body = client.request("POST", f"/games/{game.id}/moves", env, {"Prefer": "wait=10"})
    record = json.loads(body)
    if status != 200 or record.get("status") != "applied":
        print(f"  not applied: {status} {body[:200]!r}", file=sys.stderr)
        game.next = len(game.envelopes)
        return None
    return {"game": game.id, "version": record["version"], "settled": record["settled"]}


def latencies(appended: list[dict], received: dict, per_game: int) -> dict:
    """Append-to-receive for each watcher of each appended move (its last
    event: a move's events arrive together); misses counted."""
    values, missed = [], 0
    for a in appended:
        times = received.get(a["game"], {}).get(str(a["version"]), [])
        missed += per_game - len(times)
        values.extend(t - a["settled"] for t in times)
    values.sort()
    pick = lambda q: values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else float("nan")
    return {"moves": len(appended), "deliveries": len(values), "missed": missed,
            "p50_ms": round(pick(0.5), 1), "p99_ms": round(pick(0.99), 1),
            "max_ms": round(values[-1] * 1000, 1) if values else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each no-op phase")
    parser.add_argument("--rounds", type=int, default=4, help="pairs of no-op phases (without/with streams)")
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--threads", type=int, default=32, help="no-op clients")
    parser.add_argument("--paced", type=int, default=200, help="moves in the paced latency phase (one per 20 ms)")
    parser.add_argument("--workers", type=int, default=2, help="move workers (PBEM_WORKERS)")
    parser.add_argument("--api-workers", type=int, default=2, help="API processes (WEB_CONCURRENCY)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of no-op before measuring")
    parser.add_argument("--pause", type=float, default=2.0,
                        help="seconds left for streams to open or close, and for the last events to arrive")
    parser.add_argument("--holder", help=argparse.SUPPRESS)
    args = parse_args(parser, {"seconds": 1.0, "rounds": 1, "streams": 20, "games": 4, "threads": 4, "paced": 10,
                               "workers": 1, "api_workers": 1, "warmup": 0.5, "pause": 0.5})
    limit = raise_open_files(4 * args.streams + 1024)
    if args.holder:
        asyncio.run(holder(args.holder))
        return

    import pipeline  # bench/pipeline.py: the same server, client and no-op loop
    from pipeline import Game, Http, cpu_by_role, cpu_line, cpu_per, free_port, run_noop, start_server, stop_server

    pipeline.ROLES = (("pbem.stream", "stream"),) + pipeline.ROLES
    per_game = max(1, args.streams // args.games)
    # The server's stream port is named here, as one of its settings:
    # start_server picks free ports of its own for everything else.
    stream_port = free_port()
    proc, url, _data = start_server(args.workers, args.api_workers, notify=False,
                                    extra_env={"PBEM_STREAM_PORT": str(stream_port)})
    stream_url = f"http://127.0.0.1:{stream_port}"
    holder_proc = None
    try:
        client = Http(url)
        print(f"server {url}, streams {stream_url}; {args.streams} streams over {args.games} games "
              f"({per_game} each); {args.seconds:g} s no-op phases, {args.threads} clients; open-files limit {limit}",
              flush=True)
        pool = [Game(client, 7000 + i) for i in range(args.games)]
        holder_proc = Holder(stream_url)
        run_noop(client, args.threads, args.warmup)  # warm-up
        spid = stream_pid(proc.pid)
        phases = {"without": [], "with": []}
        cpu = {"without": {}, "with": {}}
        is_open = False
        order = [p for r in range(args.rounds) for p in (("without", "with") if r % 2 == 0 else ("with", "without"))]
        opened = None
        for phase in order:
            if phase == "with" and not is_open:
                versions = {g.id: json.loads(client.request("GET", f"/games/{g.id}")[1])["version"] for g in pool}
                opened = holder_proc.ask({"cmd": "open", "games": versions, "per_game": per_game})
                is_open = True
                health = json.loads(Http(stream_url).request("GET", "/health")[1])
                print(f"  {opened['open']} of {opened['of']} streams open in {opened['seconds']} s; the stream "
                      f"process holds {health['streams']} on {health['games']} games, RSS {rss_mb(spid)} MB", flush=True)
            elif phase == "without" and is_open:
                holder_proc.ask({"cmd": "close"})
                is_open = False
            time.sleep(args.pause)  # opening or closing them is done with before the clock starts
            c0, h0, m0 = cpu_by_role(proc.pid), cpu_seconds(holder_proc.proc.pid), machine_busy()
            result = run_noop(client, args.threads, args.seconds)
            c1, h1, m1 = cpu_by_role(proc.pid), cpu_seconds(holder_proc.proc.pid), machine_busy()
            c0["holder"], c1["holder"] = h0, h1
            ours = sum(c1[r] - c0.get(r, 0.0) for r in c1)
            c0["others"], c1["others"] = 0.0, max(0.0, (m1 - m0) - ours)
            result["others_cores"] = c1["others"] / result["elapsed"]
            # The no-op is CPU-bound: its rate per core that other processes
            # left us is a figure the shared machine's load weighs on less.
            result["per_free_core"] = result["req_per_s"] / max(0.2, (os.cpu_count() or 2) - result["others_cores"])
            phases[phase].append(result)
            for role, seconds in c1.items():
                cpu[phase][role] = cpu[phase].get(role, 0.0) + seconds - c0.get(role, 0.0)
            print(f"  noop {phase:7s} streams: {result['req_per_s']:8.1f} req/s  (CPU of other processes on this "
                  f"machine: {(c1['others']) / result['elapsed']:.2f} cores)", flush=True)
        rate = {p: sum(r["requests"] for r in rs) / sum(r["elapsed"] for r in rs) for p, rs in phases.items()}
        ratio = rate["with"] / rate["without"]
        # Each "with" phase against the "without" phase next to it (ABBA
        # order: every phase has one): the spread shows this machine's drift.
        pairs = [phases["with"][i]["req_per_s"] / phases["without"][i]["req_per_s"]
                 for i in range(min(len(phases["with"]), len(phases["without"])))]
        free = {p: sum(r["per_free_core"] * r["elapsed"] for r in rs) / sum(r["elapsed"] for r in rs)
                for p, rs in phases.items()}
        per_request = {p: cpu_per({}, {r: v for r, v in cpu[p].items() if r != "others"},
                                  sum(r["requests"] for r in phases[p])) for p in phases}
        served = {p: sum(v for r, v in per_request[p].items() if r not in ("client", "holder")) for p in phases}
        others = {p: round(cpu[p].get("others", 0.0) / sum(r["elapsed"] for r in phases[p]), 2) for p in phases}
        print(f"noop req/s without streams {rate['without']:.1f}, with {args.streams} open {rate['with']:.1f}: "
              f"ratio {ratio:.3f} (target >= 0.9); round by round {', '.join(f'{r:.3f}' for r in pairs)}", flush=True)
        for p in phases:
            print(f"  CPU ms per no-op request, {p} streams: {cpu_line(per_request[p])}", flush=True)
        print(f"no-op req/s per core left by other processes: without {free['without']:.1f}, with "
              f"{free['with']:.1f}: ratio {free['with'] / free['without']:.3f}", flush=True)
        print(f"server CPU per no-op request with streams open / without: {served['with'] / served['without']:.3f}; "
              f"other processes on the machine took {others['without']} cores without, {others['with']} with",
              flush=True)

        # -- latency: moves appended to watched games
        if not is_open:
            versions = {g.id: json.loads(client.request("GET", f"/games/{g.id}")[1])["version"] for g in pool}
            opened = holder_proc.ask({"cmd": "open", "games": versions, "per_game": per_game})
        rss_open = rss_mb(spid)
        paced: list[dict] = []
        t0 = time.monotonic()
        for k in range(args.paced):
            delay = t0 + k * 0.02 - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            done = move(client, pool[k % len(pool)])
            if done:
                paced.append(done)
        time.sleep(args.pause / 2)
        burst: list[dict] = []
        lock = threading.Lock()

        def one(game):
            done = move(Http(url), game)
            if done:
                with lock:
                    burst.append(done)

        threads = [threading.Thread(target=one, args=(g,)) for g in pool]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        time.sleep(args.pause)  # every watcher has had its chance
        report = holder_proc.ask({"cmd": "report"}, timeout=60)
        lat_paced = latencies(paced, report["received"], per_game)
        lat_burst = latencies(burst, report["received"], per_game)
        for name, lat in (("paced (50 moves/s)", lat_paced), (f"burst ({len(pool)} moves at once)", lat_burst)):
            print(f"append-to-receive, {name}: p50 {lat['p50_ms']} ms, p99 {lat['p99_ms']} ms, max {lat['max_ms']} ms "
                  f"over {lat['deliveries']} deliveries ({lat['moves']} moves x {per_game} watchers); "
                  f"missed {lat['missed']}", flush=True)
        print(f"stream process RSS with {args.streams} streams open: {rss_open} MB; holder errors: "
              f"{len(report['errors'])}", flush=True)
        summary = {"bench": "stream", "streams": args.streams, "games": args.games, "per_game": per_game,
                   "seconds": args.seconds, "rounds": args.rounds, "opened": opened["open"] if opened else 0,
                   "noop_without_req_per_s": round(rate["without"], 1), "noop_with_req_per_s": round(rate["with"], 1),
                   "noop_ratio_with_to_without": round(ratio, 3),
                   "noop_ratio_by_round": [round(r, 3) for r in pairs],
                   "noop_ratio_per_free_core": round(free["with"] / free["without"], 3),
                   "noop_rounds": {p: [round(r["req_per_s"], 1) for r in rs] for p, rs in phases.items()},
                   "cpu_ms_per_noop": per_request,
                   "server_cpu_per_noop_ratio": round(served["with"] / served["without"], 3),
                   "other_processes_cores": others, "latency_paced": lat_paced, "latency_burst": lat_burst,
                   "stream_rss_mb": rss_open, "holder_errors": len(report["errors"])}
        print(json.dumps(summary))
    finally:
        if holder_proc:
            holder_proc.quit()
        stop_server(proc)


if __name__ == "__main__":
    main()
