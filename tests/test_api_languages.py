"""Who reads what, in which language (issue 27), through the real server
(real Redis, the API over HTTP on loopback, real worker processes): a game's
language and each seat's, chosen at creation, join and invitation and
changed later (by the seat's token, or a mail's ``lang`` line); each
answer's texts in its reader's language (``?lang=``, else the seat of the
token, else ``Accept-Language``, else the game's), codes never changing; a
refusal made in the worker in the mover's language; nothing stored for an
unknown language or zone."""
from __future__ import annotations

import pytest

from pbem import cli
from pbem.client import Client
from pbem.errors import CODES, ServiceError
from pbem.games.i18n import PSEUDO, reading
from pbem.trust.signing import generate_key, make_envelope, token_request

from .conftest import wait_until
from .stream_support import stream_world  # noqa: F401
from .test_notify_support import notify_env, smtp  # noqa: F401
from .pseudo_support import leftover_english
from .redis_contents import every_key

CHINESE_NO_GAME = "沒有遊戲"


def create(http, url, **extra) -> dict:
    r = http.post(f"{url}/games", json={"game": "wakanda", "players": 2, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def join(http, url, game_id, seat, name, **extra) -> tuple[str, str]:
    """(token, private key) of a seat joined with a new key."""
    private, public = generate_key()
    r = http.post(f"{url}/games/{game_id}/seats/{seat}", json={"public_key": public, "name": name, **extra})
    assert r.status_code == 201, r.text
    return r.json()["token"], private


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def error(r) -> dict:
    return r.json()["error"]


def test_a_game_and_its_seats_keep_their_languages(api_server, http):
    url = api_server.url
    game = create(http, url, lang="zh-TW", open=True)  # any tag pbem reads: stored as the one it means; listed
    assert game["lang"] == "zh-Hant"
    assert create(http, url)["lang"] == "en"
    ann, _ = join(http, url, game["id"], 0, "Ann", lang="en", tz="Europe/London")
    bob, _ = join(http, url, game["id"], 1, "小明")
    seats = http.get(f"{url}/games/{game['id']}").json()["seats"]
    assert [(s["lang"], s["tz"]) for s in seats] == [("en", "Europe/London"), ("zh-Hant", None)]
    assert http.get(f"{url}/games", params={"status": "active"}).json()["games"][0]["lang"] == "zh-Hant"


def test_each_token_reads_its_seats_language_and_codes_never_change(api_server, http):
    url = api_server.url
    game_id = create(http, url, lang="zh-Hant")["id"]
    ann, _ = join(http, url, game_id, 0, "Ann", lang="en")
    bob, _ = join(http, url, game_id, 1, "Bob")  # chose none: reads the game's
    # each seat's token opens its own view; the other's view is refused in the reader's words
    english = http.get(f"{url}/games/{game_id}/seats/1/view", headers=bearer(ann))
    chinese = http.get(f"{url}/games/{game_id}/seats/0/view", headers=bearer(bob))
    assert english.status_code == chinese.status_code == 403
    assert error(english)["code"] == error(chinese)["code"] == "not_your_seat"
    assert error(english)["message"] == "this token does not belong to seat 1"
    assert error(chinese)["message"] == "這個權杖不屬於座位0"
    assert english.headers["Content-Language"] == "en" and chinese.headers["Content-Language"] == "zh-Hant"
    # a read with the token answers in its seat's language, whatever the browser prefers
    for token, lang in ((ann, "en"), (bob, "zh-Hant")):
        r = http.get(f"{url}/games/{game_id}", headers={**bearer(token), "Accept-Language": "fr, zh-TW;q=0.5"})
        assert r.status_code == 200 and r.headers["Content-Language"] == lang
    # ?lang= wins over the seat's language
    r = http.get(f"{url}/games/{game_id}/seats/0/view", params={"lang": "en"}, headers=bearer(bob))
    assert error(r)["message"] == "this token does not belong to seat 0" and r.headers["Content-Language"] == "en"
    r = http.get(f"{url}/games/{game_id}/legal-moves", params={"lang": "zh"}, headers=bearer(ann))
    assert r.status_code == 200 and r.headers["Content-Language"] == "zh-Hant"


def test_an_anonymous_reader_reads_accept_language_then_the_games(api_server, http):
    url = api_server.url
    english = http.get(f"{url}/games/nosuchgame")
    chinese = http.get(f"{url}/games/nosuchgame", headers={"Accept-Language": "zh-TW,zh;q=0.9,en;q=0.8"})
    assert english.status_code == chinese.status_code == 404
    assert error(english)["code"] == error(chinese)["code"] == "unknown_game"
    assert error(english)["message"] == "no game 'nosuchgame'"
    assert error(chinese)["message"] == "沒有遊戲 'nosuchgame'" and chinese.headers["Content-Language"] == "zh-Hant"
    for tag in ("zh-HK", "zh-Hant", "zh-Hant-TW"):
        r = http.get(f"{url}/games/nosuchgame", headers={"Accept-Language": tag})
        assert error(r)["message"].startswith(CHINESE_NO_GAME), tag
    assert http.get(f"{url}/games/nosuchgame", headers={"Accept-Language": "zh-CN"}).headers[
        "Content-Language"] == "en"  # Simplified Chinese is not read as Traditional
    # ?lang= wins over Accept-Language
    r = http.get(f"{url}/games/nosuchgame", params={"lang": "en"}, headers={"Accept-Language": "zh-TW"})
    assert error(r)["message"] == "no game 'nosuchgame'"
    # without either, a game's own language: a Chinese game's refusals read Chinese
    game_id = create(http, url, lang="zh-Hant")["id"]
    r = http.get(f"{url}/games/{game_id}/states/999")
    assert r.status_code == 404 and error(r)["code"] == "unknown_version"
    assert error(r)["message"] == f"遊戲 {game_id} 的版本是0到0" and r.headers["Content-Language"] == "zh-Hant"
    # the game types' words too
    types = http.get(f"{url}/game-types", headers={"Accept-Language": "zh-TW"})
    assert types.headers["Content-Language"] == "zh-Hant"
    # errors werkzeug raises itself, and schema errors, are read as well
    assert error(http.get(f"{url}/no/such/path", headers={"Accept-Language": "zh-TW"}))["message"] == "沒有這個路徑"
    r = http.post(f"{url}/games", json={"players": 2}, headers={"Accept-Language": "zh-TW"})
    assert error(r)["code"] == "invalid_request" and error(r)["message"] == "請求不符合格式"


def test_a_seat_changes_its_language_with_its_token(api_server, http, redis_client):
    url = api_server.url
    game_id = create(http, url)["id"]
    ann, _ = join(http, url, game_id, 0, "Ann")
    bob, _ = join(http, url, game_id, 1, "Bob")
    assert http.get(f"{url}/games/{game_id}", headers=bearer(ann)).headers["Content-Language"] == "en"
    r = http.patch(f"{url}/games/{game_id}/seats/0", json={"lang": "中文", "tz": "Asia/Taipei"}, headers=bearer(ann))
    assert r.status_code == 200, r.text
    assert r.json() == {"game": game_id, "seat": 0, "lang": "zh-Hant", "tz": "Asia/Taipei"}
    assert http.get(f"{url}/games/{game_id}", headers=bearer(ann)).headers["Content-Language"] == "zh-Hant"
    assert http.get(f"{url}/games/{game_id}", headers=bearer(bob)).headers["Content-Language"] == "en"
    r = http.patch(f"{url}/games/{game_id}/seats/0", json={"tz": "Europe/Paris"}, headers=bearer(ann))
    assert r.json()["lang"] == "zh-Hant" and r.json()["tz"] == "Europe/Paris"  # what is not sent stays
    # only the seat's own token; and something must be sent
    before = every_key(redis_client)
    r = http.patch(f"{url}/games/{game_id}/seats/0", json={"lang": "en"}, headers=bearer(bob))
    assert r.status_code == 403 and error(r)["code"] == "not_your_seat"
    r = http.patch(f"{url}/games/{game_id}/seats/0", json={"lang": "en"})
    assert r.status_code == 401 and error(r)["code"] == "missing_token"
    r = http.patch(f"{url}/games/{game_id}/seats/0", json={}, headers=bearer(ann))
    assert r.status_code == 422 and error(r)["code"] == "invalid_request"
    assert every_key(redis_client) == before


def test_unknown_languages_and_zones_are_refused_with_nothing_stored(api_server, http, redis_client):
    url = api_server.url
    before = every_key(redis_client)
    for body, code in (({"lang": "fr"}, "unknown_language"), ({"lang": "zh-CN"}, "unknown_language"),
                       ({"lang": "x-pseudo"}, "unknown_language"),
                       ({"invitations": [{"email": "bob@example.test", "lang": "de"}]}, "unknown_language"),
                       ({"invitations": [{"email": "bob@example.test", "tz": "Mars/Olympus"}]}, "unknown_time_zone")):
        r = http.post(f"{url}/games", json={"game": "wakanda", "players": 2, **body},
                      headers={"Accept-Language": "zh-TW"})
        assert r.status_code == 422 and error(r)["code"] == code, r.text
        assert "：" in error(r)["message"]  # said in the reader's language
    assert every_key(redis_client) == before
    game_id = create(http, url)["id"]
    ann, _ = join(http, url, game_id, 0, "Ann")
    before = every_key(redis_client)
    for body, code in (({"lang": "klingon"}, "unknown_language"), ({"tz": "Asia/Nowhere"}, "unknown_time_zone"),
                       ({"lang": "en", "tz": "UTC+8"}, "unknown_time_zone")):
        r = http.post(f"{url}/games/{game_id}/seats/1", json={"public_key": generate_key()[1], "name": "B", **body})
        assert r.status_code == 422 and error(r)["code"] == code, r.text
        r = http.patch(f"{url}/games/{game_id}/seats/0", json=body, headers=bearer(ann))
        assert r.status_code == 422 and error(r)["code"] == code, r.text
    assert every_key(redis_client) == before


def test_an_invitations_language_goes_to_the_seat_it_takes(notify_env, api_server, http, redis_client, smtp):
    from .test_invited_seats import invitation_token
    from .test_mail_in_support import run_jobs

    url = api_server.url
    game_id = create(http, url, invitations=[{"email": "bob@example.test", "seat": 1, "lang": "zh",
                                              "tz": "Asia/Taipei"}])["id"]
    run_jobs(redis_client)
    token, _ = join(http, url, game_id, 1, "Bob", invitation=invitation_token(smtp, "bob@example.test"))
    seat = http.get(f"{url}/games/{game_id}").json()["seats"][1]
    assert (seat["lang"], seat["tz"]) == ("zh-Hant", "Asia/Taipei")
    assert http.get(f"{url}/games/{game_id}", headers=bearer(token)).headers["Content-Language"] == "zh-Hant"


def test_a_language_change_and_a_new_token_at_once_both_stay(service, monkeypatch):
    """The change is a compare-and-set on the seat's JSON: a new token
    stored between its read and its write is kept, and so is the change."""
    game_id = service.create_game("wakanda", 2)["id"]
    private, public = generate_key()
    service.join(game_id, 0, public, "Ann")
    read = service.store.seat_raw
    raced = []

    def racing(game, seat):
        raw = read(game, seat)
        if not raced:  # another request gets in between this read and its write
            raced.append(None)
            raced[0] = service.seat_token(game, seat, token_request(game, seat, private))["token"]
        return raw

    monkeypatch.setattr(service.store, "seat_raw", racing)
    assert service.set_seat_language(game_id, 0, lang="zh-Hant", tz="Asia/Taipei")["lang"] == "zh-Hant"
    held = service.store.seats(game_id)[0]
    assert held["lang"] == "zh-Hant" and held["tz"] == "Asia/Taipei"
    assert service.viewer(game_id, raced[0]) == 0  # the new token was not lost either


def test_concurrent_language_changes_and_token_requests_lose_nothing(api_server, http):
    from concurrent.futures import ThreadPoolExecutor

    url = api_server.url
    game_id = create(http, url)["id"]
    token, private = join(http, url, game_id, 0, "Ann")
    zones = ["Asia/Taipei", "Europe/London", "America/New_York", "Asia/Tokyo"]
    for i in range(6):
        with ThreadPoolExecutor(2) as pool:
            changed = pool.submit(http.patch, f"{url}/games/{game_id}/seats/0",
                                  json={"tz": zones[i % 4], "lang": ("en", "zh-Hant")[i % 2]}, headers=bearer(token))
            fresh = pool.submit(http.post, f"{url}/games/{game_id}/seats/0/token",
                                json=token_request(game_id, 0, private))
        assert changed.result().status_code in (200, 401), changed.result().text  # 401: the old token went first
        token = fresh.result().json()["token"]
        if changed.result().status_code == 401:
            assert http.patch(f"{url}/games/{game_id}/seats/0", json={"tz": zones[i % 4], "lang": ("en", "zh-Hant")[i % 2]},
                              headers=bearer(token)).status_code == 200
        seat = http.get(f"{url}/games/{game_id}").json()["seats"][0]
        assert (seat["tz"], seat["lang"]) == (zones[i % 4], ("en", "zh-Hant")[i % 2])
        assert http.get(f"{url}/games/{game_id}", headers=bearer(token)).json()["viewer"] == 0


def _double_move(http, url, game_id, tokens, keys) -> dict:
    """Two moves of the seat to act, signed at one version and queued
    before any worker runs: the second is refused in the worker."""
    summary = http.get(f"{url}/games/{game_id}").json()
    seat = summary["to_act"][0]
    moves = http.get(f"{url}/games/{game_id}/legal-moves", headers=bearer(tokens[seat])).json()["moves"]
    ids = []
    for move in (moves[0]["move"], moves[1]["move"]):
        r = http.post(f"{url}/games/{game_id}/moves",
                      json=make_envelope(game_id, seat, summary["version"], move, keys[seat]))
        assert r.status_code == 202, r.text
        ids.append(r.json()["id"])
    return {"seat": seat, "ids": ids}


def test_a_refusal_made_in_the_worker_reads_in_the_movers_language(api_server, http, start_worker):
    url = api_server.url
    played = {}
    for lang in ("en", "zh-Hant"):
        game_id = create(http, url, lang="zh-Hant")["id"]
        a, ka = join(http, url, game_id, 0, "Ann", **({"lang": lang} if lang == "en" else {}))
        b, kb = join(http, url, game_id, 1, "Bob", **({"lang": lang} if lang == "en" else {}))
        played[lang] = (game_id, _double_move(http, url, game_id, (a, b), (ka, kb)))
    start_worker(scheduler=False, queues=("pbem-moves",))
    for lang, (game_id, done) in played.items():
        first, second = done["ids"]
        settled = wait_until(lambda: (r := http.get(f"{url}/games/{game_id}/moves/{second}").json())["status"] != "queued"
                             and r)
        assert settled["status"] == "rejected" and settled["error"]["code"] == "stale_version", settled
        message = settled["error"]["message"]
        if lang == "en":
            assert message.startswith("the game is at version "), message
        else:
            assert message.startswith("遊戲目前是版本"), message
        assert http.get(f"{url}/games/{game_id}/moves/{first}").json()["status"] == "applied"


def test_the_python_client_and_the_cli_read_their_language(api_server, http, tmp_path, monkeypatch):
    url = api_server.url
    client = Client(url, lang="zh-Hant")
    game = client.create_game("wakanda", 2)
    assert game["lang"] == "zh-Hant"
    client.join(game["id"], 0, generate_key()[1], "小明")
    assert client.game(game["id"])["seats"][0]["lang"] == "zh-Hant"
    with pytest.raises(Exception) as err:
        client.game("nosuchgame")
    assert err.value.code == "unknown_game" and err.value.message.startswith(CHINESE_NO_GAME)
    assert Client(url).create_game("wakanda", 2)["lang"] == "en"
    # the command: its own words and the server's in the language asked for
    import io
    monkeypatch.setenv("PBEM_HOME", str(tmp_path))
    out = io.StringIO()
    assert cli.main(["--server", url, "--lang", "zh-Hant", "keygen"], out=out) == 0
    assert out.getvalue().startswith("公鑰：")
    out = io.StringIO()
    assert cli.main(["--server", url, "--lang", "zh-TW", "create", "wakanda", "--players", "2", "--seat", "0",
                     "--name", "小明"], out=out) == 0
    created = out.getvalue()
    assert created.startswith("已建立 ") and "你坐在遊戲 " in created, created
    game_id = created.split()[1].split("（")[0]
    assert http.get(f"{url}/games/{game_id}").json()["lang"] == "zh-Hant"
    out = io.StringIO()
    assert cli.main(["--server", url, "--lang", "zh-Hant", "show", game_id], out=out) == 0
    assert "等待玩家中" in out.getvalue()
    monkeypatch.setenv("PBEM_LANG", "en")
    out = io.StringIO()
    assert cli.main(["--server", url, "show", game_id], out=out) == 0
    assert "waiting for players" in out.getvalue()


# -- the pseudo-locale: every message of the API's own is looked up ------------


def test_every_registered_errors_message_is_looked_up():
    """An error raised with no message reads its code's meaning, looked up:
    in the pseudo-locale nothing of it is left in plain English."""
    left = {}
    with reading(PSEUDO):
        for code in CODES:
            message = ServiceError(code).message
            found = leftover_english(message)
            if found or not message.startswith("⟦"):
                left[code] = message
    assert not left, left


def test_the_apis_refusals_leave_no_english_in_the_pseudo_locale(api_server, http):
    url = api_server.url
    game_id = create(http, url)["id"]
    ann, key = join(http, url, game_id, 0, "Ann")
    bob, _ = join(http, url, game_id, 1, "Bob")
    pseudo = {"lang": PSEUDO}
    summary = http.get(f"{url}/games/{game_id}").json()
    refusals = [
        http.get(f"{url}/games/nosuchgame", params=pseudo),
        http.get(f"{url}/no/such/path", params=pseudo),
        http.delete(f"{url}/games/{game_id}/legal-moves", params=pseudo),
        http.post(f"{url}/games", params=pseudo, json={"players": 2}),
        http.post(f"{url}/games", params=pseudo, data=b"{", headers={"Content-Type": "application/json"}),
        http.post(f"{url}/games", params=pseudo, json={"game": "wakanda", "players": 2, "lang": "fr"}),
        http.post(f"{url}/games", params=pseudo, json={"game": "wakanda", "players": 9}),
        http.post(f"{url}/games", params=pseudo, json={"game": "nosuch", "players": 2}),
        http.post(f"{url}/games", params=pseudo, json={"game": "wakanda", "players": 2, "options": {"x": 1}}),
        http.get(f"{url}/games/{game_id}/legal-moves", params=pseudo),
        http.get(f"{url}/games/{game_id}/legal-moves", params=pseudo, headers={"Authorization": "Basic x"}),
        http.get(f"{url}/games/{game_id}/legal-moves", params=pseudo, headers=bearer("not-a-token")),
        http.get(f"{url}/games/{game_id}/seats/1/view", params=pseudo, headers=bearer(ann)),
        http.get(f"{url}/games/{game_id}/seats/7/view", params=pseudo, headers=bearer(ann)),
        http.get(f"{url}/games/{game_id}/states/99", params=pseudo),
        http.get(f"{url}/games/{game_id}/moves/nosuchmove", params=pseudo),
        http.post(f"{url}/games/{game_id}/seats/0", params=pseudo, json={"public_key": generate_key()[1], "name": "X"}),
        http.patch(f"{url}/games/{game_id}/seats/0", params=pseudo, json={"tz": "Nowhere"}, headers=bearer(ann)),
        http.post(f"{url}/games/{game_id}/moves", params=pseudo,
                  json=make_envelope(game_id, 0, summary["version"] + 5, {"type": "pass"}, key)),
        http.post(f"{url}/games/{game_id}/moves", params=pseudo,
                  json={**make_envelope(game_id, 0, summary["version"], {"type": "pass"}, key), "signature": "AAAA"}),
    ]  # (a game's own refusals, a move that cannot be read, are the games' contract suite's)
    for r in refusals:
        assert r.status_code >= 400 and r.headers.get("Content-Language") == PSEUDO, (r.url, r.text)
        message = error(r)["message"]
        # what the request itself holds (ids, the text sent) may stay as sent
        left = leftover_english(message, [game_id, "nosuchgame", "nosuchmove", "nosuch", "wakanda", "Wakanda"])
        assert not left, (r.request.method, r.url, message, left)


def test_a_stream_reads_its_readers_language(api_server, http):
    """The API's 307 to the stream keeps ``?lang=``; its refusals read the reader's language."""
    url = api_server.url
    r = http.get(f"{url}/games/nosuchgame/events/stream", headers={"Accept-Language": "zh-TW"},
                 allow_redirects=False)
    assert r.status_code == 404 and error(r)["message"].startswith(CHINESE_NO_GAME)
    game_id = create(http, url, lang="zh-Hant")["id"]
    r = http.get(f"{url}/games/{game_id}/events/stream", params={"lang": "en", "after": "0"}, allow_redirects=False)
    assert r.status_code == 307 and "lang=en" in r.headers["Location"]


def test_the_stream_process_reads_the_seats_language_then_the_requests(stream_world):
    from .stream_support import seated

    c, game_id, _ = seated(stream_world.api, "wakanda")
    c.set_language(game_id, 1, lang="zh-Hant")
    url, http = stream_world.stream_url(game_id), stream_world.http

    def language_of_stream(params=None, headers=None) -> str:
        with http.get(url, params={"after": "0", **(params or {})}, headers=headers, stream=True, timeout=5) as resp:
            assert resp.status_code == 200, resp.text
            return resp.headers["Content-Language"]

    token0, token1 = (f"Bearer {c.tokens[(game_id, s)]}" for s in (0, 1))
    assert language_of_stream(headers={"Authorization": token0}) == "en"
    assert language_of_stream(headers={"Authorization": token1, "Accept-Language": "en"}) == "zh-Hant"
    assert language_of_stream({"lang": "en"}, {"Authorization": token1}) == "en"
    assert language_of_stream(headers={"Accept-Language": "zh-HK"}) == "zh-Hant"
    r = http.get(stream_world.stream_url("nosuchgame"), headers={"Accept-Language": "zh-TW"}, timeout=5)
    assert r.status_code == 404 and error(r)["message"].startswith(CHINESE_NO_GAME)
    r = http.get(url, params={"after": "x", "lang": "zh"}, timeout=5)
    assert error(r)["code"] == "invalid_request" and error(r)["message"] == "請求不符合格式"


def test_an_accepted_move_looks_for_no_language(api_server, http, monkeypatch):
    """The reader's language is read from the store only when a text needs
    it: a move accepted keeps its one round trip; a refused one reads the
    game's language for its message."""
    from pbem.api import reader

    looked = []
    find = reader.find_language
    monkeypatch.setattr(reader, "find_language", lambda *a, **k: looked.append(a) or find(*a, **k))
    url = api_server.url
    game_id = create(http, url, lang="zh-Hant")["id"]
    a, ka = join(http, url, game_id, 0, "Ann")
    b, kb = join(http, url, game_id, 1, "Bob")
    summary = http.get(f"{url}/games/{game_id}").json()
    seat = summary["to_act"][0]
    token, key = ((a, ka), (b, kb))[seat]
    move = http.get(f"{url}/games/{game_id}/legal-moves", headers=bearer(token)).json()["moves"][0]["move"]
    looked.clear()
    r = http.post(f"{url}/games/{game_id}/moves", json=make_envelope(game_id, seat, summary["version"], move, key))
    assert r.status_code == 202 and "Content-Language" not in r.headers and looked == []
    r = http.post(f"{url}/games/{game_id}/moves", json=make_envelope(game_id, seat, summary["version"] + 9, move, key))
    assert r.status_code == 409 and error(r)["code"] == "stale_version" and len(looked) == 1
    assert error(r)["message"].startswith("遊戲目前是版本") and r.headers["Content-Language"] == "zh-Hant"
