"""Webhooks against a real HTTP receiver on loopback and a real worker with
RQ's scheduler: Standard Webhooks signatures, retries with backoff, the
delivery log through the API, 410 disabling the endpoint, SSRF refusals."""
from __future__ import annotations

import json
import random

import pytest
from standardwebhooks import Webhook

from pbem.notify import webhooks
from pbem.notify.config import NotifySettings
from pbem.notify.notifier import Notifier

from .conftest import api_server, wait_until  # noqa: F401
from .test_notify_support import Receiver, new_game, notify_env, run_jobs, smtp, submit, to_act  # noqa: F401


def register(http, base, game_id, seat, token, url):
    return http.post(f"{base}/games/{game_id}/seats/{seat}/webhook", json={"url": url},
                     headers={"Authorization": f"Bearer {token}"})


def log_of(http, base, game_id, seat, token):
    r = http.get(f"{base}/games/{game_id}/seats/{seat}/webhook/deliveries",
                 headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    return r.json()["deliveries"]


def test_signed_retries_then_delivered_and_logged(notify_env, api_server, service, redis_client, http, start_worker):
    game_id, keys, tokens = new_game(service)
    run_jobs(redis_client)  # the start's notices (no webhook registered yet)
    s = to_act(service, game_id)[0]
    o = 1 - s
    with Receiver([500, 500, 500, 200]) as receiver:
        r = register(http, api_server.url, game_id, o, tokens[o], receiver.url)
        assert r.status_code == 201, r.text
        secret = r.json()["secret"]
        assert secret.startswith("whsec_")
        # the secret is shown once: never again in the channels
        ch = http.get(f"{api_server.url}/games/{game_id}/seats/{o}/notifications",
                      headers={"Authorization": f"Bearer {tokens[o]}"}).json()
        assert ch["webhook"]["url"] == receiver.url and "secret" not in ch["webhook"]
        # another seat's token may not read this seat's log
        r = http.get(f"{api_server.url}/games/{game_id}/seats/{o}/webhook/deliveries",
                     headers={"Authorization": f"Bearer {tokens[s]}"})
        assert r.status_code == 403
        start_worker()
        loaded = service.load(game_id)
        submit(service, game_id, s, keys, loaded.game.legal_moves(loaded.state, s)[0])
        wait_until(lambda: len(receiver.requests) >= 4, timeout=25)
        entries = wait_until(lambda: [e for e in log_of(http, api_server.url, game_id, o, tokens[o])
                                      if e["outcome"] == "delivered"] and
                             log_of(http, api_server.url, game_id, o, tokens[o]), timeout=10)
    # every attempt is signed per Standard Webhooks, with one webhook-id across retries
    verifier = Webhook(secret)
    ids = set()
    for req in receiver.requests[:4]:
        payload = verifier.verify(req["body"], req["headers"])
        ids.add(req["headers"]["webhook-id"])
        assert payload["type"] == "pbem.your_turn"
        data = payload["data"]
        assert data["seat"] == o and data["game"]["id"] == game_id and data["game"]["to_act"] == [o]
        assert data["legal_moves"] and data["board"]
    assert len(ids) == 1
    with pytest.raises(Exception):
        Webhook(webhooks.new_secret()).verify(receiver.requests[0]["body"], receiver.requests[0]["headers"])
    # the log, newest first: three failures with a next attempt, then the delivery
    entries = list(reversed(entries))
    assert [e["attempt"] for e in entries] == [1, 2, 3, 4]
    assert [e["outcome"] for e in entries] == ["retrying"] * 3 + ["delivered"]
    assert [e["status"] for e in entries] == [500, 500, 500, 200]
    assert all(e["next_attempt_at"] > e["logged"] for e in entries[:3])
    assert len(receiver.requests) == 4


def test_410_disables_the_endpoint(notify_env, api_server, service, redis_client, http):
    game_id, keys, tokens = new_game(service)
    run_jobs(redis_client)
    s = to_act(service, game_id)[0]
    o = 1 - s
    with Receiver([410]) as receiver:
        for seat in (s, o):
            assert register(http, api_server.url, game_id, seat, tokens[seat], receiver.url).status_code == 201
        loaded = service.load(game_id)
        submit(service, game_id, s, keys, loaded.game.legal_moves(loaded.state, s)[0])
        from .conftest import drain
        drain(service)
        run_jobs(redis_client)
        assert len(receiver.requests) == 1
        entries = log_of(http, api_server.url, game_id, o, tokens[o])
        assert [(e["outcome"], e["status"]) for e in entries] == [("disabled", 410)]
        ch = http.get(f"{api_server.url}/games/{game_id}/seats/{o}/notifications",
                      headers={"Authorization": f"Bearer {tokens[o]}"}).json()
        assert ch["webhook"]["enabled"] is False and "410" in ch["webhook"]["disabled_reason"]
        # o's next turn sends nothing to the disabled endpoint
        loaded = service.load(game_id)
        submit(service, game_id, o, keys, loaded.game.legal_moves(loaded.state, o)[0])
        drain(service)
        run_jobs(redis_client)
        loaded = service.load(game_id)
        submit(service, game_id, s, keys, loaded.game.legal_moves(loaded.state, s)[0])
        drain(service)
        run_jobs(redis_client)
        assert [r["headers"]["webhook-id"] for r in receiver.requests].count(
            receiver.requests[0]["headers"]["webhook-id"]) == 1
        assert all(json.loads(r["body"])["data"]["seat"] == s for r in receiver.requests[1:])
        assert len(log_of(http, api_server.url, game_id, o, tokens[o])) == 1


@pytest.mark.parametrize("url", ["http://10.1.2.3/hook", "http://169.254.169.254/latest/meta-data/",
                                 "http://localhost:9/hook", "http://127.0.0.1:9/", "http://[::1]:9/",
                                 "http://192.168.0.10/", "http://[fd00:ec2::254]/"])
def test_ssrf_refused_without_the_operator_setting(url, notify_env, monkeypatch, settings, redis_client, service, http):
    monkeypatch.delenv("PBEM_WEBHOOK_ALLOW_PRIVATE")
    from .conftest import LiveServer
    import redis as redis_lib
    from pbem.api import create_app
    game_id, keys, tokens = new_game(service)
    with LiveServer(create_app(settings, redis_lib.Redis.from_url(settings.redis_url))) as live:
        r = register(http, live.url, game_id, 0, tokens[0], url)
    assert r.status_code == 422 and r.json()["error"]["code"] == "webhook_url_refused", r.text
    assert Notifier(service, NotifySettings()).channels(game_id, 0)["webhook"] is None


def test_metadata_refused_even_when_private_allowed_and_checked_again_at_delivery(notify_env, monkeypatch,
                                                                                  service, redis_client):
    with pytest.raises(webhooks.UrlRefused):
        webhooks.check_url("http://169.254.169.254/", allow_private=True)
    webhooks.check_url("http://127.0.0.1:9/", allow_private=True)
    # registered while allowed; the operator then withdraws the setting: the delivery is refused
    game_id, keys, tokens = new_game(service)
    run_jobs(redis_client)
    s = to_act(service, game_id)[0]
    with Receiver([200]) as receiver:
        n = Notifier(service, NotifySettings())
        ch = n.channels(game_id, s)
        ch["webhook"] = {"id": "w1", "url": receiver.url, "secret": webhooks.new_secret(), "enabled": True}
        n.store.save_channels(game_id, s, ch)
        delivery = n.webhook(n.notice(service.load(game_id), s, "your_turn"))
        monkeypatch.delenv("PBEM_WEBHOOK_ALLOW_PRIVATE")
        strict = Notifier(service, NotifySettings())
        assert strict.deliver(game_id, s, delivery, 1) == "refused"
        assert not receiver.requests
        assert strict.store.attempts(game_id, s)[0]["outcome"] == "refused"


def test_backoff_spans_more_than_a_day_with_defaults():
    conf = NotifySettings()
    assert webhooks.schedule_span(conf.webhook_max_attempts, 60, 6 * 3600) > 86400
    rng = random.Random(7)
    delays = [webhooks.backoff(a, 60, 6 * 3600, rng) for a in range(1, 13)]
    assert all(d >= min(6 * 3600, 60 * 2 ** (a - 1)) for a, d in enumerate(delays, 1))
    assert len({round(d / min(6 * 3600, 60 * 2 ** (a - 1)), 3) for a, d in enumerate(delays, 1)}) > 1  # jitter
