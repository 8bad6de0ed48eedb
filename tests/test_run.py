"""`make run`'s supervisor: everything comes up on the ports asked for (the
event-stream process on PBEM_STREAM_PORT, the API's 307 pointing at it), one
banner names every address once everything answers (and none is said again),
a clean start logs no warning, and a Ctrl-C (SIGINT to the terminal's whole
process group) stops every process it started, the API's workers included."""
from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import sys
import time

import requests

from pbem.server.embedded_redis import free_port

from .conftest import ROOT, wait_until


def processes_mentioning(text: str) -> list[str]:
    out = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode()
                env = open(f"/proc/{pid}/environ", "rb").read().decode(errors="ignore")
            except OSError:
                continue
            if text in cmd or text in env:
                out.append(f"{pid} {cmd[:80]}")
    return out


def test_run_starts_everything_and_ctrl_c_stops_it_all(tmp_path):
    port, redis_port, mail_port, stream_port = free_port(), free_port(), free_port(), free_port()
    data = tmp_path / "var"
    env = dict(os.environ, PORT=str(port), PBEM_REDIS_PORT=str(redis_port), PBEM_MAIL_PORT=str(mail_port),
               PBEM_DATA_DIR=str(data), PBEM_WORKERS="1", WEB_CONCURRENCY="1",
               PBEM_STREAM_PORT=str(stream_port))
    env.pop("REDIS_URL", None)
    log = tmp_path / "out.log"
    with open(log, "w") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "pbem.server.run"], cwd=ROOT, env=env, start_new_session=True,
                                stdout=sink, stderr=subprocess.STDOUT, text=True)
    try:
        wait_until(lambda: _up(f"http://127.0.0.1:{port}/health"), timeout=30, interval=0.2)
        assert (data / "redis" / "appendonly.aof").exists() or any((data / "redis").glob("appendonly*"))
        assert requests.get(f"http://127.0.0.1:{port}/docs", timeout=5).status_code == 200
        assert processes_mentioning(str(data)), "no process runs with the data directory"
        # the event-stream process, and the API's 307 to it
        wait_until(lambda: _up(f"http://127.0.0.1:{stream_port}/health"), timeout=30, interval=0.2)
        game = requests.post(f"http://127.0.0.1:{port}/games", json={"game": "wakanda", "players": 2}, timeout=5).json()
        stream_url = f"http://127.0.0.1:{stream_port}/games/{game['id']}/events/stream"
        assert requests.get(f"http://127.0.0.1:{port}/games/{game['id']}", timeout=5).json()["links"] == {
            "events_stream": stream_url}
        with requests.get(f"http://127.0.0.1:{port}/games/{game['id']}/events/stream", stream=True, timeout=5) as sse:
            assert sse.history[0].status_code == 307 and sse.url == stream_url
            assert sse.status_code == 200 and sse.headers["Content-Type"].startswith("text/event-stream")
        # the web pages, from the same application under gunicorn, naming that stream
        page = requests.get(f"http://127.0.0.1:{port}/g/{game['id']}", timeout=5)
        assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
        assert f'data-stream="{stream_url}"' in page.text
        assert f"connect-src 'self' http://127.0.0.1:{stream_port}" in page.headers["Content-Security-Policy"]
        assert requests.get(f"http://127.0.0.1:{port}/_web/game.js", timeout=5).status_code == 200
        # the site's icon: linked from the pages, and /favicon.ico (a browser asks for it unbidden)
        assert '<link rel="icon" href="/favicon.svg" type="image/svg+xml">' in page.text
        icons = {"/favicon.svg": ("image/svg+xml", b"<svg"), "/favicon.ico": ("image/x-icon", b"\0\0\1\0")}
        for path, (kind, magic) in icons.items():
            icon = requests.get(f"http://127.0.0.1:{port}{path}", timeout=5)
            assert icon.status_code == 200 and icon.headers["Content-Type"].startswith(kind), (path, icon.headers)
            assert icon.content.startswith(magic) and "max-age=86400" in icon.headers["Cache-Control"]
        # clients holding keep-alive connections, as a bot or a benchmark does
        idle = [http.client.HTTPConnection("127.0.0.1", port, timeout=5) for _ in range(4)]
        for conn in idle:
            conn.request("POST", "/noop", body=b"{}", headers={"Content-Type": "application/json"})
            assert conn.getresponse().read()
        # the banner, once everything answers (a move worker reporting: GET /ready)
        try:
            wait_until(lambda: "Ctrl-C stops it all." in log.read_text(), timeout=30, interval=0.2)
        except AssertionError:
            raise AssertionError("no banner:\n" + log.read_text()) from None
        assert _up(f"http://127.0.0.1:{port}/ready")
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        proc.wait(timeout=60)
        out = log.read_text()
        assert proc.returncode == 0, out
        assert "pbem: stopped" in out
        addresses = {"lobby": f"http://127.0.0.1:{port}/", "API docs": f"http://127.0.0.1:{port}/docs",
                     "event streams": f"http://127.0.0.1:{stream_port}",
                     "outgoing mail": str(data.resolve() / "maildir"), "incoming mail": f"127.0.0.1:{mail_port}",
                     "Redis": f"redis://127.0.0.1:{redis_port}/0"}
        check_banner(out, addresses)
        deadline = time.monotonic() + 10
        while processes_mentioning(str(data)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert processes_mentioning(str(data)) == [], "processes left behind after Ctrl-C"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def check_banner(out: str, addresses: dict[str, str]) -> None:
    """One banner, printed once everything answered, with each address on
    its own row, each said once in the whole output; after it, nothing
    that names an address again; no warning or error anywhere."""
    lines = out.splitlines()
    assert sum(line.startswith("pbem is up") for line in lines) == 1, out
    start = next(i for i, line in enumerate(lines) if line.startswith("pbem is up"))
    end = lines.index("Ctrl-C stops it all.", start)
    rows = {line.split("  ")[1]: line for line in lines[start + 1:end]}  # "  name   value"
    for name, address in addresses.items():
        assert address in words(rows[name]), (name, rows.get(name), out)
        assert words(out).count(address) == 1, (address, out)
    after = lines[end + 1:]
    assert after[-2:] == ["pbem: stopping...", "pbem: stopped"], out
    assert not [line for line in after if any(a in line for a in addresses.values())], out
    assert not re.search(r" (WARNING|ERROR|CRITICAL) |Traceback", out), out


def words(text: str) -> list[str]:
    return re.findall(r"[^\s,;()]+", text)


def _up(url: str) -> bool:
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False
