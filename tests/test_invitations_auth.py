"""Invitations come from the game's creator or a seated player, at a
bounded rate, and their subject holds no one's words."""
from __future__ import annotations

import hashlib
import json
import time

import pytest

from pbem.trust.signing import generate_key
from pbem.store import key

from .conftest import api_server  # noqa: F401
from .test_mail_in_support import run_jobs, text_of
from .test_notify_support import notify_env, smtp  # noqa: F401
from .redis_contents import every_key


def create(http, url, players=4, **extra) -> dict:
    r = http.post(f"{url}/games", json={"game": "kachina", "players": players, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def invite(http, url, game_id, emails, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return http.post(f"{url}/games/{game_id}/invitations", headers=headers,
                     json={"invites": [{"email": e} for e in emails]})


def everything(client) -> dict:
    return every_key(client)


def test_the_creator_token_is_shown_once_and_stored_hashed(api_server, http, redis_client):
    game = create(http, api_server.url)
    token = game["creator_token"]
    assert len(token) >= 40
    meta = redis_client.hgetall(key(game["id"], "meta"))
    assert meta[b"creator_token_sha256"].decode() == hashlib.sha256(token.encode()).hexdigest()
    assert not any(token.encode() in (redis_client.dump(k) or b"") for k in redis_client.keys("*"))
    shown = http.get(f"{api_server.url}/games/{game['id']}").json()
    assert "creator_token" not in shown and "creator_token_sha256" not in str(shown)
    assert "creator_token_sha256" not in http.get(f"{api_server.url}/games").text


def test_invitations_need_the_creator_or_a_seat(notify_env, api_server, http, redis_client):
    url = api_server.url
    game = create(http, url)
    other = create(http, url)
    before = everything(redis_client)
    for token, code in [(None, "missing_token"), ("nope", "bad_token"), (other["creator_token"], "bad_token")]:
        r = invite(http, url, game["id"], ["ann@example.test"], token)
        assert r.status_code == 401, r.text
        assert r.json()["error"]["code"] == code and r.json()["error"]["status"] == 401
    r = http.post(f"{url}/games/{game['id']}/invitations", headers={"Authorization": "Basic eDp5"},
                  json={"invites": [{"email": "ann@example.test"}]})
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    assert everything(redis_client) == before  # nothing stored, nothing queued, nothing counted
    # the creator
    r = invite(http, url, game["id"], ["ann@example.test"], game["creator_token"])
    assert r.status_code == 201, r.text
    (made,) = r.json()["invitations"]
    assert abs(made.pop("expires") - (time.time() + 7 * 86400)) < 60  # PBEM_INVITATION_TTL_S
    assert made == {"seat": 0, "email": "ann@example.test", "name": "ann"}
    # a seated player
    joined = http.post(f"{url}/games/{game['id']}/seats/3", json={"public_key": generate_key()[1], "name": "Dee"})
    assert joined.status_code == 201, joined.text
    r = invite(http, url, game["id"], ["bob@example.test"], joined.json()["token"])
    assert r.status_code == 201 and r.json()["invitations"][0]["seat"] == 1, r.text


def test_invitations_are_rate_limited_per_game_and_per_address(notify_env, monkeypatch, api_server, http,
                                                                redis_client):
    monkeypatch.setenv("PBEM_INVITES_PER_HOUR", "3")
    url = api_server.url
    game = create(http, url, players=5)
    assert invite(http, url, game["id"], ["a@x.test", "b@x.test"], game["creator_token"]).status_code == 201
    before = everything(redis_client)
    r = invite(http, url, game["id"], ["c@x.test", "d@x.test"], game["creator_token"])
    assert r.status_code == 429, r.text
    error = r.json()["error"]
    assert error["code"] == "too_many_requests" and error["status"] == 429
    retry = int(r.headers["Retry-After"])
    assert 3500 <= retry <= 3600 and error["details"]["retry_after"] == retry
    assert everything(redis_client) == before  # refused: nothing stored, nothing counted
    assert invite(http, url, game["id"], ["c@x.test"], game["creator_token"]).status_code == 201  # the 3rd fits
    # this client address has used its 3 as well: another game, and a game created with invitations
    second = create(http, url)
    r = invite(http, url, second["id"], ["e@x.test"], second["creator_token"])
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_requests"
    games_before = redis_client.zcard("pbem:games")
    r = http.post(f"{url}/games", json={"game": "wakanda", "players": 2, "invite": [{"email": "f@x.test"}]})
    assert r.status_code == 429 and "Retry-After" in r.headers, r.text
    assert redis_client.zcard("pbem:games") == games_before  # no game made either


def test_a_game_created_with_invitations_counts_them(notify_env, monkeypatch, api_server, http, redis_client):
    monkeypatch.setenv("PBEM_INVITES_PER_HOUR", "2")
    url = api_server.url
    r = http.post(f"{url}/games", json={"game": "kachina", "players": 3,
                                        "invite": [{"email": "a@x.test"}, {"email": "b@x.test"}]})
    assert r.status_code == 201, r.text
    assert int(redis_client.get(key(r.json()["id"], "mail:invites:rl"))) == 2
    r = invite(http, url, r.json()["id"], ["c@x.test"], r.json()["creator_token"])
    assert r.status_code == 429


@pytest.mark.parametrize("title", ["URGENT: your account is locked, see http://evil.test",
                                   'Caf\u00e9 "night" \N{GAME DIE}'])
def test_the_subject_is_fixed_words_and_the_title_is_the_creators(notify_env, api_server, http, redis_client,
                                                                   smtp, title):
    game = create(http, api_server.url, players=2, title=title)
    assert invite(http, api_server.url, game["id"], ["ann@example.test"], game["creator_token"]).status_code == 201
    run_jobs(redis_client)
    (mail,) = smtp.to("ann@example.test", "invitation")
    assert mail["Subject"] == f"[pbem] Invitation to play Kachina (game {game['id']}, seat 0)"
    text = text_of(mail)
    assert f"The game's title, in its creator's words: “{title}”" in " ".join(text.split())
    assert text.startswith("The game's creator invites you to play Kachina")
    # the HTML part's headline is those fixed words too, never the title
    page = mail.get_body(("html",)).get_content()
    headline = page.split("<h1", 1)[1].split("</h1>", 1)[0]
    assert "The game&#x27;s creator invites you to play Kachina" in headline and "URGENT" not in headline


def test_the_cli_keeps_the_creator_token_and_invites_with_it(notify_env, api_server, http, redis_client, tmp_path):
    from .test_cli import run

    home = tmp_path / "ann"
    code, out = run(home, api_server.url, "create", "wakanda", "--players", "2", "--invite", "bob@example.test")
    assert code == 0 and "invited bob@example.test to seat 0" in out, out
    game_id = out.split()[1]
    created = home / "created.json"
    assert oct(created.stat().st_mode & 0o777) == "0o600"
    token = json.loads(created.read_text())[api_server.url][game_id]
    # the kept token is the creator's: it invites the other seat
    r = invite(http, api_server.url, game_id, ["cy@example.test"], token)
    assert r.status_code == 201 and r.json()["invitations"][0]["seat"] == 1, r.text
