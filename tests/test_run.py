"""`make run`'s supervisor: everything comes up on the ports asked for (the
event-stream process on PBEM_STREAM_PORT, the API's 307 pointing at it), and a
Ctrl-C (SIGINT to the terminal's whole process group) stops every process it
started, the API's workers included."""
from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
import time

import requests

from pbem.embedded_redis import free_port

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
    proc = subprocess.Popen([sys.executable, "-m", "pbem.run"], cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
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
        # clients holding keep-alive connections, as a bot or a benchmark does
        idle = [http.client.HTTPConnection("127.0.0.1", port, timeout=5) for _ in range(4)]
        for conn in idle:
            conn.request("POST", "/noop", body=b"{}", headers={"Content-Type": "application/json"})
            assert conn.getresponse().read()
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        out, _ = proc.communicate(timeout=60)
        assert proc.returncode == 0, out
        assert "pbem: stopped" in out
        deadline = time.monotonic() + 10
        while processes_mentioning(str(data)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert processes_mentioning(str(data)) == [], "processes left behind after Ctrl-C"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def _up(url: str) -> bool:
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False
