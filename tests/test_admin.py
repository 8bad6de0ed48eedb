"""The operator's operations over real HTTP (and ``pbem admin``): abandon
(an event in the log, the result says abandoned, the record verifies),
delete (every key and index entry), a game's queue state, failed
deliveries listed and retried (a webhook and a turn mail, with real
receivers), and open games nobody joined expiring under a real worker."""
from __future__ import annotations

import dataclasses
import io
import json

import pytest
import redis

from pbem import cli
from pbem.trust import record as game_record, signing
from pbem.store.failures import Failures
from pbem.notify.notifier import MAIL_RETRIES, Notifier
from pbem.store import FINISHED_INDEX, GAMES_INDEX, OPEN_INDEX, key

from .conftest import LiveServer, wait_until
from .test_notify_support import Receiver, new_game, notify_env, run_jobs, smtp, submit, to_act  # noqa: F401
from .redis_contents import every_key

OPERATOR = "op-" + "x" * 30


@pytest.fixture
def settings(settings):
    return dataclasses.replace(settings, admin_token=OPERATOR)


@pytest.fixture
def admin(notify_env, settings, redis_client, http):
    from pbem.api import create_app

    with LiveServer(create_app(settings, redis.Redis.from_url(settings.redis_url))) as live:
        def call(method, path, token=OPERATOR, **kw):
            return http.request(method, f"{live.url}{path}", headers={"Authorization": f"Bearer {token}"},
                                timeout=20, **kw)
        call.url = live.url
        yield call


def everything(client, game_id: str) -> dict:
    """What is stored of a game: its keys and the indexes. (Not every key of
    the server: workers' heartbeats and RQ's registries change by the second,
    and a drainer acknowledges a stream entry just after its move's answer.)"""
    names = sorted(client.keys(key(game_id, "*"))) + [GAMES_INDEX, OPEN_INDEX, FINISHED_INDEX]
    return every_key(client, names)


def seated(http, url, name="wakanda", players=2):
    # opened to anyone: only those are listed to a stranger (GET /games)
    game = http.post(f"{url}/games", json={"game": name, "players": players, "open": True}).json()
    keys, tokens = [], []
    for seat in range(players):
        private, public = signing.generate_key()
        tokens.append(http.post(f"{url}/games/{game['id']}/seats/{seat}",
                                json={"public_key": public, "name": f"p{seat}"}).json()["token"])
        keys.append(private)
    return game, keys, tokens


def play_some(http, url, game_id, keys, tokens, moves, start_worker=None):
    for _ in range(moves):
        state = http.get(f"{url}/games/{game_id}").json()
        seat = state["to_act"][0]
        legal = http.get(f"{url}/games/{game_id}/legal-moves", headers={"Authorization": f"Bearer {tokens[seat]}"})
        envelope = signing.make_envelope(game_id, seat, state["version"], legal.json()["moves"][0]["move"], keys[seat])
        r = http.post(f"{url}/games/{game_id}/moves", json=envelope, headers={"Prefer": "wait=10"})
        assert r.status_code == 200 and r.json()["status"] == "applied", r.text


def test_abandon_ends_the_game_with_an_event_and_an_abandoned_result(admin, http, redis_client, start_worker):
    start_worker(queues=("pbem-moves",))
    game, keys, tokens = seated(http, admin.url)
    play_some(http, admin.url, game["id"], keys, tokens, 3)
    g = game["id"]
    before = everything(redis_client, g)
    for token, status, code in ((tokens[0], 401, "bad_token"), (game["creator_token"], 401, "bad_token")):
        r = admin("POST", f"/admin/games/{g}/abandon", token=token, json={"why": "x"})
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), r.text
    assert everything(redis_client, g) == before
    r = admin("POST", f"/admin/games/{g}/abandon", json={"why": "players vanished"})
    assert r.status_code == 200, r.text
    done = r.json()
    assert done["status"] == "finished"
    result = done["result"]
    assert result["reason"] == "abandoned" and result["outcome"] == "no_winner" and result["winners"] == []
    assert result["detail"] == {"why": "players vanished"}
    last = http.get(f"{admin.url}/games/{g}/events", params={"after": done["version"] - 1}).json()["events"]
    assert [e["event"]["type"] for e in last] == ["GameAbandoned"] and last[0]["version"] == done["version"]
    assert last[0]["event"]["why"] == "players vanished"
    # the record still verifies offline, to the abandoned result
    report = game_record.verify_lines(http.get(f"{admin.url}/games/{g}/record").text.splitlines())
    assert report.ok and report.result == result, report.problems
    # no more moves; abandoning again answers the same and changes nothing
    state = http.get(f"{admin.url}/games/{g}").json()
    seat = 0
    envelope = signing.make_envelope(g, seat, state["version"], {"type": "pass"}, keys[seat])
    r = http.post(f"{admin.url}/games/{g}/moves", json=envelope)
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over", r.text
    after = everything(redis_client, g)
    again = admin("POST", f"/admin/games/{g}/abandon", json={"why": "again"})
    assert again.status_code == 200 and again.json()["version"] == done["version"]
    assert again.json()["result"] == result and everything(redis_client, g) == after
    # an open game cannot be abandoned (delete it); an unknown game is 404
    opened = http.post(f"{admin.url}/games", json={"game": "wakanda", "players": 2}).json()
    r = admin("POST", f"/admin/games/{opened['id']}/abandon")
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_started"
    assert admin("POST", "/admin/games/nosuchgame/abandon").json()["error"]["code"] == "unknown_game"


def test_delete_removes_every_key_and_index_entry(admin, http, redis_client, notify_env, start_worker):
    start_worker(queues=("pbem-moves",))
    keep, _, _ = seated(http, admin.url)  # another game: untouched
    game, keys, tokens = seated(http, admin.url)
    g = game["id"]
    # notification settings, an invitation's data, moves, a failure: all of the game
    assert admin("PUT", f"/games/{g}/deadline", json={"turn_seconds": 3600}).status_code == 200
    play_some(http, admin.url, g, keys, tokens, 2)
    Failures(redis_client).record("webhook", g, 0, "HTTP 500", 13, "workers.notify_jobs.deliver_webhook",
                                  [g, 0, "d", 1], "pbem-notify")
    assert redis_client.keys(f"pbem:{{g:{g}}}:*")
    others = every_key(redis_client, redis_client.keys(f"pbem:{{g:{keep['id']}}}:*"))
    r = admin("DELETE", f"/admin/games/{g}", token=tokens[0])
    assert r.status_code == 401 and redis_client.exists(key(g, "meta"))
    r = admin("DELETE", f"/admin/games/{g}")
    assert r.status_code == 200, r.text
    assert r.json()["keys"] > 5 and r.json()["failures_forgotten"] == 1
    assert redis_client.keys(f"pbem:{{g:{g}}}:*") == []
    for index in (GAMES_INDEX, OPEN_INDEX, FINISHED_INDEX):
        assert redis_client.zscore(index, g) is None
    assert Failures(redis_client).list() == []
    assert http.get(f"{admin.url}/games/{g}").json()["error"]["code"] == "unknown_game"
    assert g not in [x["id"] for x in http.get(f"{admin.url}/games").json()["games"]]
    assert every_key(redis_client, redis_client.keys(f"pbem:{{g:{keep['id']}}}:*")) == others
    assert admin("DELETE", f"/admin/games/{g}").status_code == 404


def test_a_compacted_game_is_deleted_whole(admin, http, redis_client, service):
    game_id, keys, _ = new_game(service)
    rng_moves = 0
    while not service.load(game_id).finished:
        loaded = service.load(game_id)
        seat = sorted(loaded.game.to_act(loaded.state))[0]
        record = submit(service, game_id, seat, keys, loaded.game.legal_moves(loaded.state, seat)[0])
        service.apply_move(game_id, record["id"])
        rng_moves += 1
    assert admin("POST", f"/admin/games/{game_id}/compact").json()["outcome"] == "ok"
    assert redis_client.exists(key(game_id, "archive"))
    assert admin("DELETE", f"/admin/games/{game_id}").status_code == 200
    assert redis_client.keys(f"pbem:{{g:{game_id}}}:*") == []


def test_queue_state_shows_waiting_moves_notices_and_deadlines(admin, http, redis_client, notify_env):
    game, keys, tokens = seated(http, admin.url)
    g = game["id"]
    assert admin("PUT", f"/games/{g}/deadline", json={"turn_seconds": 3600, "reminder_seconds": 60}).status_code == 200
    state = http.get(f"{admin.url}/games/{g}").json()
    seat = state["to_act"][0]
    legal = http.get(f"{admin.url}/games/{g}/legal-moves", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
    queued = http.post(f"{admin.url}/games/{g}/moves",
                       json=signing.make_envelope(g, seat, state["version"], legal["moves"][0]["move"], keys[seat]))
    assert queued.status_code == 202  # no worker: it waits
    r = admin("GET", f"/admin/games/{g}")
    assert r.status_code == 200, r.text
    q = r.json()
    assert q["status"] == "active" and not q["archived"]
    assert [m["id"] for m in q["queued_moves"]] == [queued.json()["id"]]
    assert q["queued_moves"][0]["seat"] == seat and "move" not in q["queued_moves"][0]
    assert q["submissions_waiting"] == 1
    assert q["deadline_settings"]["turn_seconds"] == 3600
    assert [d["seat"] for d in q["deadlines"]] == [seat] and q["deadlines"][0]["reminder_at"]
    assert q["paused"] is None and q["pause_requests"] == [] and q["failed_deliveries"] == []
    out = io.StringIO()
    assert cli.main(["--server", admin.url, "admin", "--token", OPERATOR, "queue", g], out=out) == 0
    assert f"moves queued: 1; submissions waiting: 1" in out.getvalue() and f"deadline: seat {seat}" in out.getvalue()


def test_notices_waiting_are_counted(admin, http, redis_client, start_worker, notify_env):
    start_worker(queues=("pbem-moves",))  # moves applied; their notices wait for a pbem-notify worker
    game, keys, tokens = seated(http, admin.url)
    play_some(http, admin.url, game["id"], keys, tokens, 2)
    # The mover is answered "applied" as soon as the events are stored; the
    # drainer acknowledges the stream entry a moment later.
    wait_until(lambda: admin("GET", f"/admin/games/{game['id']}").json()["submissions_waiting"] == 0, 5)
    q = admin("GET", f"/admin/games/{game['id']}").json()
    assert q["notices_waiting"] >= 2 and q["queued_moves"] == [] and q["submissions_waiting"] == 0


def test_a_webhook_that_gave_up_is_listed_and_retried(admin, http, service, redis_client, notify_env, monkeypatch):
    monkeypatch.setenv("PBEM_WEBHOOK_MAX_ATTEMPTS", "2")
    game_id, keys, tokens = new_game(service)
    run_jobs(redis_client)
    s = to_act(service, game_id)[0]
    o = 1 - s
    with Receiver([500, 500, 200]) as receiver:
        r = http.post(f"{admin.url}/games/{game_id}/seats/{o}/webhook", json={"url": receiver.url},
                      headers={"Authorization": f"Bearer {tokens[o]}"})
        assert r.status_code == 201, r.text
        record = submit(service, game_id, s, keys, service.load(game_id).game.legal_moves(service.load(game_id).state, s)[0])
        service.apply_move(game_id, record["id"])
        n = Notifier(service)
        wait_until(lambda: (run_jobs(redis_client), len(receiver.requests) >= 1)[1])
        # the second attempt is scheduled: run it now
        delivery = json.loads(redis_client.lindex(key(game_id, f"notify:log:{o}"), 0))["delivery_id"]
        assert n.deliver(game_id, o, delivery, 2) == "gave_up"
        listed = admin("GET", "/admin/deliveries").json()["deliveries"]
        assert len(listed) == 1 and listed[0]["kind"] == "webhook" and listed[0]["game"] == game_id
        assert listed[0]["seat"] == o and listed[0]["url"] == receiver.url and listed[0]["attempts"] == 2
        assert admin("GET", "/admin/deliveries", params={"kind": "mail"}).json()["deliveries"] == []
        assert admin("GET", f"/admin/deliveries", params={"game": game_id}).json()["deliveries"] == listed
        assert admin("GET", f"/admin/games/{game_id}").json()["failed_deliveries"] == listed
        out = io.StringIO()
        assert cli.main(["--server", admin.url, "admin", "--token", OPERATOR, "deliveries"], out=out) == 0
        assert listed[0]["id"] in out.getvalue() and receiver.url in out.getvalue()
        r = admin("POST", f"/admin/deliveries/{listed[0]['id']}/retry")
        assert r.status_code == 200, r.text
        assert admin("GET", "/admin/deliveries").json()["deliveries"] == []
        run_jobs(redis_client)
        assert len(receiver.requests) == 3  # the retry, delivered
    log = [json.loads(x) for x in redis_client.lrange(key(game_id, f"notify:log:{o}"), 0, -1)]
    assert log[0]["outcome"] == "delivered" and log[0]["delivery_id"] == delivery
    r = admin("POST", f"/admin/deliveries/{listed[0]['id']}/retry")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_delivery"


def test_a_turn_mail_that_gave_up_is_retried(admin, http, service, redis_client, notify_env, smtp, monkeypatch):
    game_id, keys, tokens = new_game(service)
    run_jobs(redis_client)
    s = to_act(service, game_id)[0]
    monkeypatch.setenv("SMTP_URL", "smtp://127.0.0.1:1")  # nobody listens: refused
    down = Notifier(service)
    assert down.mail(game_id, s, "your_turn", None, None, attempt=len(MAIL_RETRIES) + 1) is False
    listed = admin("GET", "/admin/deliveries", params={"kind": "mail"}).json()["deliveries"]
    assert len(listed) == 1 and listed[0]["seat"] == s and listed[0]["to"] == f"p{s}@example.test"
    monkeypatch.setenv("SMTP_URL", smtp.url)  # the relay is back (jobs read it when they run)
    out = io.StringIO()
    assert cli.main(["--server", admin.url, "admin", "--token", OPERATOR, "retry", listed[0]["id"]], out=out) == 0
    sent = len(smtp.to(f"p{s}@example.test"))
    run_jobs(redis_client)
    assert len(smtp.to(f"p{s}@example.test")) == sent + 1
    assert admin("GET", "/admin/deliveries").json()["deliveries"] == []


def test_open_games_nobody_joined_expire_under_a_worker(admin, http, redis_client, start_worker, monkeypatch):
    monkeypatch.setenv("PBEM_OPEN_GAME_TTL_S", "1")
    monkeypatch.setenv("PBEM_SWEEP_EVERY_S", "0.2")
    opened = {"game": "wakanda", "players": 2, "open": True}  # listed to anyone
    lonely = http.post(f"{admin.url}/games", json=opened).json()["id"]
    half = http.post(f"{admin.url}/games", json=opened).json()["id"]
    assert http.post(f"{admin.url}/games/{half}/seats/0",
                     json={"public_key": signing.generate_key()[1], "name": "Ann"}).status_code == 201
    full, _, _ = seated(http, admin.url)
    Failures(redis_client).record("invitation", lonely, 0, "refused", 5, "workers.mail_jobs.send_invitation",
                                  [lonely, 0, 1], "pbem-mail")
    listed = {g["id"] for g in http.get(f"{admin.url}/games", params={"status": "open"}).json()["games"]}
    assert {lonely, half} <= listed
    start_worker(queues=("pbem-moves",))
    wait_until(lambda: not redis_client.exists(key(lonely, "meta")), timeout=20)
    assert redis_client.keys(f"pbem:{{g:{lonely}}}:*") == []
    assert http.get(f"{admin.url}/games/{lonely}").json()["error"]["code"] == "unknown_game"
    assert Failures(redis_client).list() == []  # its invitation's failure is forgotten with it
    ids = {g["id"] for g in http.get(f"{admin.url}/games").json()["games"]}
    assert lonely not in ids and {half, full["id"]} <= ids
    # somebody joined: it leaves the index, it never expires
    wait_until(lambda: redis_client.zscore(OPEN_INDEX, half) is None, timeout=10)
    assert http.get(f"{admin.url}/games/{half}").json()["status"] == "open"


def test_the_sweep_over_the_api_and_the_cli(admin, http, redis_client):
    lonely = http.post(f"{admin.url}/games", json={"game": "wakanda", "players": 2}).json()["id"]
    out = io.StringIO()
    assert cli.main(["--server", admin.url, "admin", "--token", OPERATOR, "sweep"], out=out) == 0
    assert "expired 0 open games" in out.getvalue()  # a week's TTL by default
    assert redis_client.exists(key(lonely, "meta"))
    assert cli.main(["--server", admin.url, "admin", "--token", "wrong", "sweep"], out=io.StringIO()) == 2
