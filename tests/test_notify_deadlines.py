"""Deadlines with short times through a real worker and RQ's scheduler:
reminder, the default action as a logged move, a game that moves on in
time, forfeit, pause and resume."""
from __future__ import annotations

import re
import time

from pbem.trust import signing
from pbem.notify import install
from pbem.notify.deadlines import choose_move

from .conftest import api_server, wait_until  # noqa: F401
from .test_notify_support import notify_env, smtp, submit, to_act  # noqa: F401


def start_game(service, http, base, deadline: dict, options=None):
    """Create, take seat 0, set the deadline (seat 0's token), take seat 1."""
    install(service)
    game = service.create_game("wakanda", 2, options or {})
    game_id, keys, tokens = game["id"], [], []
    for seat in range(2):
        private, public = signing.generate_key()
        keys.append(private)
        tokens.append(service.join(game_id, seat, public, f"P{seat}", email=f"p{seat}@example.test")["token"])
        if seat == 0:
            r = http.put(f"{base}/games/{game_id}/deadline", json=deadline,
                         headers={"Authorization": f"Bearer {tokens[0]}"})
            assert r.status_code == 200, r.text
    return game_id, keys, tokens


def test_reminder_then_default_move_then_a_game_that_moves_on(notify_env, api_server, service, http, smtp,
                                                              start_worker):
    game_id, keys, tokens = start_game(service, http, api_server.url,
                                       {"turn_seconds": 3, "reminder_seconds": 2, "default_action": "pass"})
    # once started, a seat may not change the settings any more
    r = http.put(f"{api_server.url}/games/{game_id}/deadline", json={"turn_seconds": 100},
                 headers={"Authorization": f"Bearer {tokens[1]}"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_started"
    start_worker()
    s = to_act(service, game_id)[0]
    o = 1 - s
    version = service.load(game_id).version
    turn = wait_until(lambda: smtp.to(f"p{s}@example.test", "your_turn"), timeout=10)
    # a date and time, its zone said (the seat chose none: UTC), not "no deadline"
    assert re.search(r"\nDeadline: [A-Z][a-z]{2} \d{1,2}, 20\d\d \d{1,2}:\d\d\s[AP]M UTC\r?\n",
                     turn[0].get_body(("plain",)).get_content())
    reminder = wait_until(lambda: smtp.to(f"p{s}@example.test", "reminder"), timeout=10)
    assert not smtp.to(f"p{s}@example.test", "deadline_passed")  # the reminder came first
    passed = wait_until(lambda: smtp.to(f"p{s}@example.test", "deadline_passed"), timeout=10)
    assert len(reminder) == 1 and len(passed) == 1
    # the default move went through the move pipeline and is in the log like any move
    wait_until(lambda: service.store.version(game_id) > version, timeout=10)
    moved = service.store.events(game_id, version)[0]
    record = service.store.move(game_id, moved[2])
    assert record["auth"] == "deadline" and record["status"] == "applied" and record["envelope"]["player"] == s
    assert "the server played" in passed[0].get_body(("plain",)).get_content()
    from pbem.trust import record as game_record
    report = game_record.verify_lines(list(service.record_lines(game_id, None)))
    assert report.ok, report.problems  # the unsigned deadline step does not break the record
    # o is told, and plays in time: its deadline is cancelled and nothing is played for it
    wait_until(lambda: smtp.to(f"p{o}@example.test", "your_turn"), timeout=10)
    wait_until(lambda: any(d["seat"] == o for d in http.get(f"{api_server.url}/games/{game_id}/deadline").json()["deadlines"]),
               timeout=10)
    loaded = service.load(game_id)
    submit(service, game_id, o, keys, loaded.game.legal_moves(loaded.state, o)[0])
    wait_until(lambda: service.store.version(game_id) > loaded.version, timeout=10)
    after_o = service.store.version(game_id)
    time.sleep(3.5)
    records = [service.store.move(game_id, m) for _, _, m in service.store.events(game_id, loaded.version)]
    assert all(r["auth"] != "deadline" or r["envelope"]["player"] != o for r in records)
    assert not smtp.to(f"p{o}@example.test", "deadline_passed")
    # s, to act again since o's move, has its own running deadline
    assert service.store.version(game_id) >= after_o


def test_pause_resume_then_forfeit(notify_env, api_server, service, http, smtp, start_worker):
    game_id, keys, tokens = start_game(service, http, api_server.url,
                                       {"turn_seconds": 2, "reminder_seconds": 0, "default_action": "forfeit"})
    start_worker()
    s = to_act(service, game_id)[0]
    base = api_server.url
    wait_until(lambda: http.get(f"{base}/games/{game_id}/deadline").json()["deadlines"], timeout=10)
    assert http.post(f"{base}/games/{game_id}/pause").status_code == 401
    # a seat's pause is a request; the clock stops once every seat has asked
    r = http.post(f"{base}/games/{game_id}/pause", headers={"Authorization": f"Bearer {tokens[1]}"})
    assert r.status_code == 200 and r.json()["paused"] is None and r.json()["pause_requests"] == [1]
    r = http.post(f"{base}/games/{game_id}/pause", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 200 and r.json()["paused"]["by"] == "every seat" and r.json()["deadlines"] == []
    left = r.json()["paused"]["remaining"][str(s)]["seconds"]
    assert 0 < left <= 2
    time.sleep(2.5)
    assert service.get_game(game_id, None)["status"] == "active"  # paused: the clock stood still
    r = http.post(f"{base}/games/{game_id}/resume", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 200 and r.json()["paused"] is None and r.json()["deadlines"][0]["seat"] == s
    summary = wait_until(lambda: (g := service.get_game(game_id, None))["status"] == "finished" and g, timeout=10)
    assert summary["result"]["reason"] == "forfeit" and summary["result"]["placings"][s] == 2
    assert summary["result"]["winners"] == [1 - s]
    last = service.store.events(game_id, service.store.version(game_id) - 1)[0][1]
    assert last == {"type": "SeatForfeited", "player": s, "reason": "deadline"}
    for seat in (0, 1):
        over = wait_until(lambda: smtp.to(f"p{seat}@example.test", "game_over"), timeout=10)
        said = over[0].get_body(("plain",)).get_content()
        assert len(over) == 1 and f"seat {s} forfeited the game: the deadline passed." in said, said
        assert "SeatForfeited" not in said  # in words, not the event's JSON


def test_random_default_is_legal_and_seeded(service):
    install(service)
    game = service.create_game("wakanda", 2, {})
    for seat in range(2):
        service.join(game["id"], seat, signing.generate_key()[1], f"P{seat}")
    loaded = service.load(game["id"])
    s = sorted(loaded.game.to_act(loaded.state))[0]
    picks = [choose_move(loaded, s, "random", b"k") for _ in range(3)]
    assert picks[0] == picks[1] == picks[2] and picks[0] in loaded.game.legal_moves(loaded.state, s)
    legal = loaded.game.legal_moves(loaded.state, s)
    assert choose_move(loaded, s, "pass", b"k") == loaded.game.default_move(loaded.state, s) or \
        {"type": "pass"} in legal
    assert choose_move(loaded, s, "forfeit", b"k") is None
