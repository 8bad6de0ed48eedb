"""Open games (issue 29) over real HTTP and real Redis: a game its creator
opened (``open: true``) is listed to strangers, by ``GET /games`` and on
the lobby page with its rules in words, language, free seats and age, in
the reader's language; a game not opened is never listed to a stranger
(only to a key that holds a seat in it, by ``player``); a wait before bots
fill the empty seats shorter than a minute is refused (the filling itself:
tests/test_bots_runner.py); a join of a full or started game is refused with
nothing stored changed."""
from __future__ import annotations

import re

import pytest

from pbem.trust.signing import generate_key

from .conftest import api_server  # noqa: F401
from .pseudo_support import leftover_english
from .redis_contents import every_key

pytestmark = pytest.mark.timeout(120)


def create(http, url, **body) -> dict:
    r = http.post(f"{url}/games", json={"game": "wakanda", "players": 2, **body})
    assert r.status_code == 201, r.text
    return r.json()


def join(http, url, game_id, seat, name):
    public = generate_key()[1]
    return http.post(f"{url}/games/{game_id}/seats/{seat}", json={"public_key": public, "name": name}), public


def ids(http, url, **params) -> list[str]:
    r = http.get(f"{url}/games", params=params)
    assert r.status_code == 200, r.text
    return [g["id"] for g in r.json()["games"]]


def open_section(page: str) -> str:
    return page.split('<section id="open">')[1].split("</section>")[0]


def card(page: str, game_id: str) -> str:
    return open_section(page).split(f'<li class="open-game" data-game="{game_id}">')[1].split("</li>")[0]


def test_only_opened_games_are_listed_to_strangers_with_their_rules_language_seats_and_age(api_server, http):
    url = api_server.url
    private = create(http, url, title="Kitchen table")
    private_id = private["id"]
    assert private["open"] is False
    garden = create(http, url, title="Garden", open=True, options={"hidden_held_pieces": True})
    assert garden["open"] is True and http.get(f"{url}/games/{garden['id']}").json()["open"] is True
    tea = create(http, url, game="kachina", players=3, title="茶會", open=True, lang="zh-Hant")
    # A seat of each taken; the private game's by a key whose own listing still finds it.
    assert join(http, url, tea["id"], 0, "小明")[0].status_code == 201
    r, private_key = join(http, url, private_id, 0, "Ann")
    assert r.status_code == 201

    assert ids(http, url) == [tea["id"], garden["id"]]                     # newest first, never the private one
    assert ids(http, url, status="open") == [tea["id"], garden["id"]]
    assert ids(http, url, status="open", offset=1, limit=1) == [garden["id"]]
    assert ids(http, url, status="active") == []
    assert ids(http, url, player=private_key) == [private_id]             # its own seat's key: yes
    # Garden fills up and starts: listed as in play now, no longer as open.
    assert join(http, url, garden["id"], 0, "Ann")[0].status_code == 201
    assert join(http, url, garden["id"], 1, "Bob")[0].status_code == 201
    assert http.get(f"{url}/games/{garden['id']}").json()["status"] == "active"
    assert ids(http, url, status="open") == [tea["id"]]
    assert ids(http, url, status="active") == [garden["id"]]

    english = http.get(f"{url}/", headers={"Accept-Language": "en"}).text
    assert "Kitchen table" not in english and private_id not in english
    row = card(english, tea["id"])
    assert "茶會" in row and "Kachina" in row and "3 players" in row
    assert "Language: Traditional Chinese" in row and "2 of 3 seats free" in row
    assert re.search(r"waiting for \d+ seconds?", row), row
    assert "Players: 小明" in row and 'data-seat="1"' in row and "Join: take seat 1" in row
    assert garden["id"] not in open_section(english)
    assert f'href="/g/{garden["id"]}"' in english.split('<section id="active">')[1]
    chinese = http.get(f"{url}/?lang=zh-Hant").text
    row = card(chinese, tea["id"])
    assert "語言：繁體中文" in row and "3個座位中有2個空位" in row and "加入：入座1號座位" in row
    assert re.search(r"已等待\s*\d+\s*秒", row), row
    assert "Kitchen table" not in chinese
    # Every text of the card from the catalogs: in the pseudo-locale no English is left.
    pseudo = http.get(f"{url}/?lang=x-pseudo").text
    text = re.sub(r"<[^>]+>", " ", card(pseudo, tea["id"]))
    assert "⟦" in text and leftover_english(text, ["茶會", "小明", tea["id"]]) == []


def test_bots_are_refused_and_a_full_or_started_game_is_not_joined_nothing_stored(api_server, http, redis_client):
    url = api_server.url
    before = every_key(redis_client)
    r = http.post(f"{url}/games", json={"game": "wakanda", "players": 2, "open": True, "bots_after_s": 5})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request", r.text
    assert "bots_after_s" in r.text
    assert every_key(redis_client) == before
    game = create(http, url, open=True)
    for seat, name in ((0, "Ann"), (1, "Bob")):
        assert join(http, url, game["id"], seat, name)[0].status_code == 201
    before = every_key(redis_client)
    r = join(http, url, game["id"], 1, "Eve")[0]
    assert r.status_code == 409 and r.json()["error"]["code"] in ("game_started", "seat_taken"), r.text
    r = join(http, url, game["id"], 2, "Eve")[0]
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_seat", r.text
    assert every_key(redis_client) == before


@pytest.fixture
def dead_relay(monkeypatch, tmp_path):
    """Mail goes to a relay that is not there: no mail can be delivered."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nobody listens there
    for k, v in {"SMTP_URL": f"smtp://127.0.0.1:{port}", "MAIL_DOMAIN": "mail.test", "PBEM_SECRET": "test-secret",
                 "PBEM_DATA_DIR": str(tmp_path), "PBEM_PUBLIC_URL": "http://pbem.test"}.items():
        monkeypatch.setenv(k, v)


def test_a_subscription_by_the_api_is_refused_for_a_bad_address_an_unknown_game_or_an_unreachable_address(
        dead_relay, api_server, http, redis_client):
    url = api_server.url
    before = every_key(redis_client)
    for body, code in (({"email": "not an address", "game": "wakanda"}, "bad_email"),
                       ({"email": "amy@example.test", "game": "chess"}, "unknown_game"),
                       ({"email": "amy@example.test", "game": "wakanda", "lang": "klingon"}, "unknown_language")):
        r = http.post(f"{url}/subscriptions", json=body)
        assert r.status_code == 422 and r.json()["error"]["code"] == code, r.text
    assert every_key(redis_client) == before
    # The confirmation cannot be mailed: never subscribed, nothing kept but the address's hourly count.
    r = http.post(f"{url}/subscriptions", json={"email": "amy@example.test", "game": "卡卡頌"},
                  headers={"Accept-Language": "zh-TW"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "subscription_unconfirmable", r.text
    assert "無法" in r.json()["error"]["message"]
    assert {k for k in every_key(redis_client) if k not in before} == {
        k for k in every_key(redis_client) if k.startswith(b"pbem:subs:rl:")}
    assert not [k for k in redis_client.keys("pbem:subs:*") if not k.startswith(b"pbem:subs:rl:")]


def test_the_listed_index_is_made_again_by_the_rebuild(service):
    opened = service.create_game("wakanda", 2, {}, "Opened", listed=True)["id"]
    service.create_game("wakanda", 2, {}, "Private")
    service.store.redis.delete("pbem:listed")
    assert service.public_games() == []
    service.store.indexes.rebuild()
    assert [g["id"] for g in service.public_games()] == [opened]
    service.store.delete_game(opened)
    assert service.public_games() == [] and service.store.redis.zcard("pbem:listed") == 0
