"""Creating a game with its deadline and email invitations in one call, and
joining with a webhook URL (its secret in the join answer); bad input is
refused before anything is stored."""
from __future__ import annotations

from pbem.trust.signing import generate_key

from .conftest import api_server, wait_until  # noqa: F401
from .test_notify_support import notify_env, smtp  # noqa: F401


def test_create_with_deadline_and_invitations(notify_env, api_server, http, smtp, redis_client, start_worker):
    start_worker()
    url = api_server.url
    body = {"game": "wakanda", "players": 2, "title": "Club night",
            "deadline": {"turn_seconds": 3600, "reminder_seconds": 600, "default_action": "random"},
            "invite": [{"email": "ann@example.test", "seat": 1}]}
    r = http.post(f"{url}/games", json=body)
    assert r.status_code == 201, r.text
    game_id = r.json()["id"]
    settings = http.get(f"{url}/games/{game_id}/deadline").json()["settings"]
    assert settings["turn_seconds"] == 3600 and settings["default_action"] == "random"
    wait_until(lambda: any("ann@example.test" in m["rcpt"] for m in smtp.messages), timeout=20)


def test_bad_creation_stores_nothing(notify_env, api_server, http, redis_client):
    url = api_server.url
    bad = [
        {"game": "wakanda", "players": 2, "deadline": {"turn_seconds": 60, "reminder_seconds": 60}},
        {"game": "wakanda", "players": 2, "invite": [{"email": "a@x.test", "seat": 5}]},
        {"game": "wakanda", "players": 2, "invite": [{"email": "a@x.test", "seat": 0}, {"email": "b@x.test", "seat": 0}]},
        {"game": "wakanda", "players": 2, "deadline": {"turn_seconds": 2.5}},
        {"game": "wakanda", "players": 2, "invite": [{"email": "not an address"}]},
    ]
    for body in bad:
        r = http.post(f"{url}/games", json=body)
        assert r.status_code == 422, (body, r.text)
    assert http.get(f"{url}/games").json()["games"] == []


def test_join_with_a_webhook_returns_its_secret_once(notify_env, api_server, http, monkeypatch):
    url = api_server.url
    game_id = http.post(f"{url}/games", json={"game": "wakanda", "players": 2}).json()["id"]
    hook_url = "http://127.0.0.1:9/hook"  # loopback is allowed in tests; nothing is delivered here
    r = http.post(f"{url}/games/{game_id}/seats/0",
                  json={"public_key": generate_key()[1], "name": "Bot", "webhook_url": hook_url})
    assert r.status_code == 201, r.text
    hook = r.json()["webhook"]
    assert hook["secret"].startswith("whsec_") and hook["url"] == hook_url
    token = r.json()["token"]
    ch = http.get(f"{url}/games/{game_id}/seats/0/notifications", headers={"Authorization": f"Bearer {token}"})
    assert ch.status_code == 200 and "whsec_" not in ch.text
    # an internal address is refused at join, and the seat stays free
    monkeypatch.setenv("PBEM_WEBHOOK_ALLOW_PRIVATE", "0")
    r = http.post(f"{url}/games/{game_id}/seats/1",
                  json={"public_key": generate_key()[1], "name": "Eve", "webhook_url": "http://169.254.169.254/x"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "webhook_url_refused"
    seats = http.get(f"{url}/games/{game_id}").json()["seats"]
    assert [s["joined"] for s in seats] == [True, False]
