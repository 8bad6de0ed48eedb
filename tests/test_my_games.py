"""My games: the ``games`` mail (``我的遊戲``) through the real SMTP
listener, a real worker process and the real relay answers the sender's
seat's own address with every game of that address, those waiting for it
first, then the others, then the finished ones, with the last move's time
in the reader's language; its link opens the player's page over HTTP
signed in for that address (a cookie), listing the same games in the same
order; forged, expired and too frequent asks are refused with their codes.

The games are Carcassonne with a draw pile of two tiles."""
from __future__ import annotations

import re
import time

import requests

from pbem.trust import address_links

from .conftest import drain
from .test_mail_in_e2e import failed_jobs
from .test_mail_in_support import mail_env, mail_in, notify_env, smtp, text_of  # noqa: F401
from .test_mail_pictures import fresh, reply_address_of
from .test_notify_support import new_game, submit

ANN, BOB = "ann@example.test", "bob@example.test"
SECRET = b"test-secret"


def short(start: int) -> dict:
    return {"draw_order": ["U", "V"], "start_player": start}


def wait_for(what, redis_client, worker, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while not (found := what()):
        assert worker.proc.poll() is None, worker.log()[-3000:]
        assert time.monotonic() < deadline, f"timed out; failed jobs: {failed_jobs(redis_client)}"
        time.sleep(0.02)
    return found


def one_move(service, game_id, keys):
    """A move applied here (or by a worker process draining the same queue: waited for)."""
    loaded = service.load(game_id)
    seat = sorted(loaded.game.to_act(loaded.state))[0]
    submit(service, game_id, seat, keys, loaded.game.legal_moves(loaded.state, seat)[0], loaded.version)
    deadline = time.monotonic() + 20
    while service.load(game_id).version == loaded.version:
        drain(service)
        assert time.monotonic() < deadline, "the move was not applied"
        time.sleep(0.01)


def anns_games(service) -> dict:
    """Ann's games by what they are: finished, waiting for Ann (two: moved
    long ago and just now), waiting for Bob; and one of Bob's alone."""
    out = {}
    out["finished"], keys, _t = new_game(service, "carcassonne", short(0), "Over", emails=(ANN, BOB))
    one_move(service, out["finished"], keys)
    one_move(service, out["finished"], keys)
    out["bobs_turn"], keys, _t = new_game(service, "carcassonne", short(1), "Bob to play", emails=(ANN, BOB))
    out["old_turn"], keys, _t = new_game(service, "carcassonne", short(0), "Ann to play, older",
                                         emails=("Ann@Example.test", BOB))  # the same address, as she typed it
    out["new_turn"], keys, _t = new_game(service, "carcassonne", short(0), "Ann to play, newer", names=("Bob", "Ann"),
                                         emails=(BOB, ANN))
    one_move(service, out["new_turn"], keys)   # Bob moved just now: Ann's turn
    out["not_anns"], keys, _t = new_game(service, "carcassonne", short(0), "Not Ann's", emails=(BOB, "cy@example.test"))
    return out


ORDER = ("new_turn", "old_turn", "bobs_turn", "finished")


def positions(text: str, items: list[str]) -> list[int]:
    """Where each heading (ending in a colon) or game (its row: "- TITLE (") is in the list."""
    text = text[text.lower().index("@example.test"):].replace("（", " (")
    return [text.index(t if t.endswith(("：", ":")) else f"- {t} (") for t in items]


def test_the_games_mail_lists_the_addresss_games_and_its_link_opens_the_page(
        service, redis_client, smtp, mail_in, api_server, start_worker, monkeypatch):
    monkeypatch.setenv("PBEM_MY_GAMES_PER_HOUR", "2")
    worker = start_worker(scheduler=False, queues=("pbem-moves", "pbem-notify", "pbem-mail"))
    games = anns_games(service)
    titles = {k: service.load(g).meta["title"] for k, g in games.items()}

    # Ann asks from her seat of a game waiting for Bob
    to = reply_address_of(games["bobs_turn"], 0)
    mail_in.send(fresh(to, "games", ANN), to, ANN)
    answer = wait_for(lambda: [m for m in smtp.to(ANN, "mail_reply") if m["X-Pbem-Game"] == games["bobs_turn"]],
                      redis_client, worker)[-1]
    text = " ".join(text_of(answer).split())
    assert "The games of ann@example.test:" in text, text
    at = positions(text, ["Waiting for you:", titles["new_turn"], titles["old_turn"], "Your other games:",
                          titles["bobs_turn"], "Your finished games:", titles["finished"]])
    assert at == sorted(at), text
    assert titles["not_anns"] not in text and "last move" in text
    assert "- Ann to play, newer (Carcassonne, Bob, Ann): your turn; last move Dec" in text, text
    assert f"http://pbem.test/g/{games['finished']}" in text
    link = re.search(r"http://pbem\.test/my-games/signin/(\S+)", text_of(answer)).group(1)
    assert address_links.read(SECRET, "link", link) == ANN
    assert not [m for m in smtp.to("player@example.test")]  # only ever to the seat's own address

    # the link opens the page signed in for the address: the same games, the same order
    session = requests.Session()
    opened = session.get(f"{api_server.url}/my-games/signin/{link}", allow_redirects=False, timeout=10)
    assert opened.status_code == 303 and opened.headers["Location"].endswith("/my-games")
    assert "HttpOnly" in opened.headers["Set-Cookie"] and "pbem_me=" in opened.headers["Set-Cookie"]
    page = session.get(f"{api_server.url}/my-games", headers={"Accept": "text/html"}, timeout=10)
    assert page.status_code == 200 and "Signed in for <b>ann@example.test</b>" in page.text
    rows = re.findall(r'<tr data-game="(\w+)"', page.text)
    assert rows == [games[k] for k in ORDER], (rows, games)
    assert page.text.index('id="mine-waiting"') < page.text.index('id="mine-others"') \
        < page.text.index('id="mine-finished"')
    # the lobby's part (JSON) for the same session names the same rows
    part = session.get(f"{api_server.url}/my-games", timeout=10).json()
    assert part["count"] == 4 and part["waiting"] == 2
    # without the session: none of them
    assert re.findall(r'<tr data-game="(\w+)"', requests.get(f"{api_server.url}/my-games",
                                                              headers={"Accept": "text/html"}, timeout=10).text) == []
    # signing out forgets the address
    out = session.post(f"{api_server.url}/my-games/signout", allow_redirects=False, timeout=10)
    assert out.status_code == 303
    assert re.findall(r'<tr data-game="(\w+)"', session.get(f"{api_server.url}/my-games",
                                                            headers={"Accept": "text/html"}, timeout=10).text) == []

    # forged and expired links are refused with their codes
    forged = link[:-2] + ("AA" if not link.endswith("AA") else "BB")
    bad = requests.get(f"{api_server.url}/my-games/signin/{forged}", allow_redirects=False, timeout=10)
    assert bad.status_code == 401 and "bad_signin_link" in bad.text and "Set-Cookie" not in bad.headers
    old = address_links.make(SECRET, "link", ANN, 60, now=time.time() - 3600)
    late = requests.get(f"{api_server.url}/my-games/signin/{old}", allow_redirects=False, timeout=10)
    assert late.status_code == 401 and "signin_link_expired" in late.text

    # in Chinese, from a seat that reads Chinese; then one ask too many this hour
    service.set_seat_language(games["old_turn"], 0, lang="zh-Hant")
    to = reply_address_of(games["old_turn"], 0)
    for n in (1, 2):
        mail_in.send(fresh(to, "我的遊戲", ANN), to, ANN)
        wait_for(lambda: len([m for m in smtp.to("Ann@Example.test", "mail_reply")
                              if m["X-Pbem-Game"] == games["old_turn"]]) >= n, redis_client, worker)
    zh, refused = [text_of(m) for m in smtp.to("Ann@Example.test", "mail_reply")
                   if m["X-Pbem-Game"] == games["old_turn"]][:2]
    zh = " ".join(zh.split())
    at = positions(zh, ["等你行動：", titles["new_turn"], titles["old_turn"], "你的其他遊戲：",
                        titles["bobs_turn"], "你已結束的遊戲：", titles["finished"]])
    assert at == sorted(at) and "最後一步" in zh, zh
    assert "too_many_lists" in refused and "/my-games/signin/" not in refused, refused
    assert not failed_jobs(redis_client)
