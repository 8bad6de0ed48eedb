"""A player's vacation (pbem.notify.vacations), through the real API server,
a real worker with RQ's scheduler, SMTP on loopback and the inbound mail
listener: every deadline of the player's games pauses for its length and
resumes, shifted, at its end or when the player is back; the other players
are told in their language; the allowance, an overlap and bad lengths are
refused with nothing stored changed. A vacation day lasts ``DAY_S`` seconds
here (``PBEM_VACATION_DAY_S``)."""
from __future__ import annotations

import pytest

from pbem.games.i18n import PSEUDO
from pbem.mail_in.vacation_command import is_vacation_line
from pbem.notify import install, wording
from pbem.notify.config import NotifySettings
from pbem.notify.notifier import Notifier
from pbem.notify.vacations import Vacations, player_of
from pbem.trust import signing

from .conftest import api_server, wait_until  # noqa: F401
from .pseudo_support import leftover_english, notation_words
from .test_mail_in_support import (invited_game, mail_env, mail_in, reply, reply_address,  # noqa: F401
                                   run_jobs, text_of)
from .test_mail_pseudo import NOT_MESSAGES, choose
from .test_notify_support import notify_env, smtp  # noqa: F401

DAY_S = 2.0
DEADLINE = {"turn_seconds": 6, "reminder_seconds": 0, "default_action": "forfeit"}


@pytest.fixture
def vacation_env(notify_env, monkeypatch):
    """Short vacation days and an allowance of 3 a year, for the API and the worker."""
    monkeypatch.setenv("PBEM_VACATION_DAY_S", str(DAY_S))
    monkeypatch.setenv("PBEM_VACATION_DAYS", "3")
    return notify_env


def _game(service, http, base, players: list[tuple[str, str, str]], deadline: dict | None = None
          ) -> tuple[str, list[str]]:
    """A Wakanda game (seat 0 starts) of these (public key, name, address),
    its deadline (``DEADLINE``) set by seat 0 before seat 1 joins."""
    game_id = service.create_game("wakanda", 2, {"start_player": 0})["id"]
    tokens = []
    for seat, (public, name, address) in enumerate(players):
        tokens.append(service.join(game_id, seat, public, name, email=address)["token"])
        if seat == 0:
            r = http.put(f"{base}/games/{game_id}/deadline", json=deadline or DEADLINE,
                         headers={"Authorization": f"Bearer {tokens[0]}"})
            assert r.status_code == 200, r.text
    return game_id, tokens


def _deadlines(http, base, game_id) -> dict:
    return http.get(f"{base}/games/{game_id}/deadline").json()


def test_lines_read_in_both_languages():
    for line in ("vacation 7", "Vacation: 3 days", "休假 7", "休假７天", "vacation", "back", "收假", "回來", "Back."):
        assert is_vacation_line(line), line
    for line in ("vacation is nice", "back to 3", "place 1,0", "休假很好"):
        assert not is_vacation_line(line), line


def test_a_vacation_pauses_all_the_players_games_and_resumes_them_shifted(vacation_env, api_server, service, http,
                                                                         smtp, start_worker):
    install(service)
    base = api_server.url
    ann, bob, cy = (signing.generate_key()[1] for _ in range(3))
    one, one_tokens = _game(service, http, base, [(ann, "Ann", "ann@example.test"), (bob, "Bob", "bob@example.test")])
    two, _two_tokens = _game(service, http, base, [(cy, "Cy", "cy@example.test"), (ann, "Ann", "ann2@example.test")])
    start_worker()
    for game_id in (one, two):  # seat 0 is to act in each: Ann in one, Cy in two
        wait_until(lambda: _deadlines(http, base, game_id)["deadlines"], timeout=10)
    running = {g: _deadlines(http, base, g)["deadlines"][0]["at"] for g in (one, two)}
    url = f"{base}/games/{one}/seats/0/vacation"
    auth = {"Authorization": f"Bearer {one_tokens[0]}"}

    # refused: nothing stored changes, no clock stops
    for days, code in ((0, "bad_vacation_days"), (-2, "bad_vacation_days"), ("7", "bad_vacation_days"),
                       (2.5, "bad_vacation_days"), (4, "vacation_allowance")):
        r = http.post(url, json={"days": days}, headers=auth)
        assert r.status_code == 422 and r.json()["error"]["code"] == code, (days, r.text)
    assert http.post(url, json={"days": 1}).status_code == 401
    assert http.post(url, json={"days": 1}, headers={"Authorization": f"Bearer {one_tokens[1]}"}).status_code == 403
    assert http.get(url, headers=auth).json() == {"vacation": None, "year": http.get(url, headers=auth).json()["year"],
                                                  "allowance_days": 3, "used_days": 0, "left_days": 3}
    for game_id in (one, two):
        now = _deadlines(http, base, game_id)
        assert now["paused"] is None and now["deadlines"][0]["at"] == running[game_id]

    # two days: both of Ann's games pause, Cy's clock in game two too
    r = http.post(url, json={"days": 2}, headers=auth)
    assert r.status_code == 200, r.text
    status = r.json()
    end = status["vacation"]["end"]
    assert status["used_days"] == 2 and status["left_days"] == 1 and sorted(status["vacation"]["games"]) == \
        sorted([one, two])
    left = {}
    for game_id in (one, two):
        now = _deadlines(http, base, game_id)
        assert now["deadlines"] == [] and now["paused"]["by"] == "vacation"
        assert not any(v.startswith(("key:", "mail:")) for v in now["paused"]["vacations"])  # public: no player
        left[game_id] = now["paused"]["remaining"]["0"]["seconds"]
        assert 0 < left[game_id] <= DEADLINE["turn_seconds"]
    r = http.post(url, json={"days": 1}, headers=auth)  # overlapping: refused, nothing changes
    assert r.status_code == 409 and r.json()["error"]["code"] == "vacation_overlaps"
    assert http.get(url, headers=auth).json()["used_days"] == 2
    # nobody else lifts it (the operator could)
    r = http.post(f"{base}/games/{one}/resume", headers={"Authorization": f"Bearer {one_tokens[1]}"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "on_vacation"

    # the others are told, by name and with the end; Ann is not
    for address in ("bob@example.test", "cy@example.test"):
        told = wait_until(lambda: smtp.to(address, "vacation"), timeout=10)
        said = " ".join(text_of(told[0]).split())
        assert "Ann is on vacation until" in said and "this game's deadlines are paused until then." in said, said
    assert not smtp.to("ann@example.test", "vacation") and not smtp.to("ann2@example.test", "vacation")

    # its end: each deadline runs again with the time it had left (the first
    # would have fallen during the vacation), and the others are told
    for game_id in (one, two):
        now = wait_until(lambda: (d := _deadlines(http, base, game_id))["deadlines"] and d, timeout=DAY_S * 2 + 10)
        assert now["paused"] is None and service.get_game(game_id, None)["status"] == "active"
        # (RQ's scheduler keeps whole seconds: a job scheduled may run up to a second early)
        assert end + left[game_id] - 1.5 <= now["deadlines"][0]["at"] <= end + left[game_id] + 3, (now, end)
        assert now["deadlines"][0]["at"] > running[game_id] + 2 * DAY_S - 1
    for address in ("bob@example.test", "cy@example.test"):
        back = wait_until(lambda: len(smtp.to(address, "vacation")) == 2 and smtp.to(address, "vacation"), timeout=10)
        assert "Ann is back from vacation: this game's deadlines run again." in " ".join(text_of(back[1]).split())

    # the allowance: 1 day left this year; back early keeps the day begun
    r = http.post(url, json={"days": 2}, headers=auth)
    assert r.status_code == 422 and r.json()["error"]["code"] == "vacation_allowance"
    assert r.json()["error"]["details"]["left"] == 1
    assert http.post(url, json={"days": 1}, headers=auth).json()["left_days"] == 0
    assert _deadlines(http, base, one)["paused"]["by"] == "vacation"
    r = http.delete(url, headers=auth)
    assert r.status_code == 200 and r.json()["vacation"] is None and r.json()["used_days"] == 3
    assert _deadlines(http, base, one)["paused"] is None and _deadlines(http, base, one)["deadlines"]
    r = http.delete(url, headers=auth)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_on_vacation"


def test_by_mail_in_chinese_and_back_early_the_others_told_in_their_language(service, redis_client, smtp, mail_in):
    game_id = invited_game(service, redis_client, smtp, mail_in)  # mail-only seats: the player is the address
    notifier = Notifier(service, NotifySettings())
    notifier.store.save_game_settings(game_id, {"turn_seconds": 3600, "reminder_seconds": 0,
                                                "default_action": "pass"})
    loaded = service.load(game_id)
    for seat in sorted(loaded.game.to_act(loaded.state)):
        notifier.schedule_deadline(game_id, seat, loaded.version)
    choose(redis_client, game_id, 0, lang=PSEUDO)  # Ann reads the pseudo-locale: no English may be left
    bob_mail = (smtp.to("bob@example.test", "your_turn") or smtp.to("bob@example.test", "join_reply"))[-1]

    mail_in.send(reply(bob_mail, "lang zh\n休假 2", "bob@example.test"), reply_address(bob_mail), "bob@example.test")
    run_jobs(redis_client)
    answer = text_of(smtp.to("bob@example.test", "mail_reply")[-1])
    assert "完成：你開始休假，直到" in answer and "你的1場遊戲的期限暫停" in answer, answer
    assert notifier.store.paused(game_id)["by"] == "vacation" and not notifier.store.deadlines(game_id)
    bob = service.store.seats(game_id)[1]
    assert player_of(bob).startswith("mail:") and Vacations(notifier).status(bob)["used_days"] == 2
    told = smtp.to("ann@example.test", "vacation")
    assert len(told) == 1
    assert "⟦bob îs öñ váçátîöñ" in text_of(told[0])  # the name as joined by mail
    flat = " ".join(NOT_MESSAGES.sub(" ", text_of(told[0])).split())
    lines = [wording.describe(loaded.game, m, 0, None) for m in loaded.game.legal_moves(loaded.state, 0)]
    left = leftover_english(flat, ["bob", "ann", "Mail game", game_id, loaded.game.render(loaded.state, 0), *lines],
                            {"pbem", "Wakanda"} | notation_words(lines))  # move lines paste back as typed
    assert left == [], (left, text_of(told[0]))

    mail_in.send(reply(bob_mail, "收假", "bob@example.test", message_id="<back@example.test>"),
                 reply_address(bob_mail), "bob@example.test")
    run_jobs(redis_client)
    answer = text_of(smtp.to("bob@example.test", "mail_reply")[-1])
    assert "完成：歡迎回來。" in answer, answer
    assert notifier.store.paused(game_id) is None and notifier.store.deadlines(game_id)
    assert Vacations(notifier).status(bob)["used_days"] == 1  # the day not begun is given back
    assert len(smtp.to("ann@example.test", "vacation")) == 2
