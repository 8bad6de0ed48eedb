"""The README's two pictures, made from a real game: ``make readme-pictures``.

Starts ``make run``'s server on free ports with a data directory of its own,
plays a seeded 2-player Carcassonne game by the API for a few turns (two
seats with mail addresses, so turn mails go to the maildir), then, in
Debian's chromium (Playwright, as the browser tests drive it):

* docs/img/game-page.png: the game's page (``/g/{id}``) as a spectator sees it, 1280 px wide;
* docs/img/turn-mail.png: the newest turn mail read back from the maildir, its
  HTML part with its inline picture (``cid:``), as a mail program shows it.

Nothing here is checked by the suite but that the pictures exist (the
README links them); run it again when the pages or mails change a lot.
"""
from __future__ import annotations

import base64
import html
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from email import message_from_bytes
from email.policy import default as default_policy
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent
CHROMIUM = os.environ.get("PBEM_CHROMIUM", "/usr/bin/chromium")
TURNS = 14


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(data: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = dict(os.environ, PORT=str(port), PBEM_REDIS_PORT=str(free_port()), PBEM_DATA_DIR=data,
               PBEM_MAIL_PORT=str(free_port()), PBEM_STREAM_PORT=str(free_port()), PBEM_RATE_LIMITS="0",
               PBEM_MAIL_INTERVAL="0", PBEM_WORKERS="1", WEB_CONCURRENCY="1")
    for name in ("REDIS_URL", "SMTP_URL", "PBEM_QUEUE_REDIS_URL"):
        env.pop(name, None)
    proc = subprocess.Popen([sys.executable, "-m", "pbem.server.run"], cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if requests.get(f"{url}/ready", timeout=2).status_code == 200:
                return proc, url
        except requests.RequestException:
            pass
        time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGKILL)
    raise SystemExit("the server did not start")


def play(url: str) -> str:
    from pbem.client import Client, generate_key
    keys = [generate_key(), generate_key()]
    client = Client(url)
    game = client.create_game("carcassonne", 2, {}, "Sunday afternoon")["id"]
    for seat, (name, mail) in enumerate([("Ann", "ann@example.org"), ("Bob", "bob@example.org")]):
        client.join(game, seat, keys[seat][1], name, email=mail)
    rng = random.Random(7)
    for _ in range(TURNS):
        to_act = client.game(game)["to_act"]
        if not to_act:
            break
        seat = to_act[0]
        moves = client.legal_moves(game, seat)["moves"]
        # Followers now and then, so the board has some.
        placed = [m for m in moves if "follower" in m["text"]]
        choice = rng.choice(placed if placed and rng.random() < 0.5 else moves)
        client.move(game, choice["move"], keys[seat][0], seat=seat, wait=10)
    return game


def newest_turn_mail(data: str, deadline_s: float = 30.0):
    folder = Path(data) / "maildir" / "new"
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        mails = []
        for path in sorted(folder.glob("*"), key=lambda p: p.stat().st_mtime_ns) if folder.is_dir() else []:
            msg = message_from_bytes(path.read_bytes(), policy=default_policy)
            if msg["X-Pbem-Kind"] == "your_turn":
                mails.append(msg)
        if mails:
            return mails[-1]
        time.sleep(0.5)
    raise SystemExit("no turn mail came")


def mail_page(msg) -> str:
    """The mail as a plain mail program shows it: its headers, then its HTML
    part with the inline pictures put where their ``cid:`` names them."""
    body = msg.get_body(("html",)).get_content()
    for part in msg.walk():
        cid = (part["Content-ID"] or "").strip("<>")
        if cid and part.get_content_maintype() == "image":
            data = base64.b64encode(part.get_payload(decode=True)).decode()
            body = body.replace(f"cid:{cid}", f"data:{part.get_content_type()};base64,{data}")
    head = "".join(f"<div><b>{name}:</b> {html.escape(str(msg[name]))}</div>"
                   for name in ("From", "To", "Subject", "Date"))
    return ("<!doctype html><meta charset=utf-8><body style='margin:0;font:14px sans-serif;background:#fff'>"
            f"<div style='padding:12px 16px;background:#f1f3f4;border-bottom:1px solid #ddd'>{head}</div>"
            f"<div style='padding:8px 16px'>{body}</div></body>")


def shoot(url: str, game: str, msg) -> None:
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{url}/g/{game}")
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(OUT / "game-page.png"))
        mail = browser.new_page(viewport={"width": 900, "height": 1100})
        mail.set_content(mail_page(msg), wait_until="load")
        mail.screenshot(path=str(OUT / "turn-mail.png"))
        browser.close()


def main() -> None:
    data = tempfile.mkdtemp(prefix="pbem-pictures-")
    proc, url = start(data)
    try:
        game = play(url)
        msg = newest_turn_mail(data)
        shoot(url, game, msg)
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        shutil.rmtree(data, ignore_errors=True)
    for name in ("game-page.png", "turn-mail.png"):
        print(f"wrote docs/img/{name} ({(OUT / name).stat().st_size // 1000} KB)")


if __name__ == "__main__":
    main()
