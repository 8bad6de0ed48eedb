"""Rematch (pbem/service/rematch.py): offered and accepted by mail replies
through the real SMTP listener, real worker processes and the real relay,
the new game then played by mail; the API's answers (offer, accept,
decline, and each refusal with nothing stored changed); the sweep that
starts a rematch out of time with those who accepted.

The games are Carcassonne with a draw pile of two tiles: over after one
move each."""
from __future__ import annotations

import time

import requests

from pbem.notify.store import NotifyStore
from pbem.service.rematch import rotated
from pbem.store.rematches import INDEX, Rematches

from .conftest import drain
from .test_mail_in_support import (examples_in, mail_env, mail_in, notify_env, reply, reply_address,  # noqa: F401
                                   smtp, text_of)
from .test_mail_in_e2e import failed_jobs
from .test_notify_support import new_game, submit

SHORT = {"draw_order": ["U", "V"], "start_player": 0}
ANN, BOB, CY = "ann@example.test", "bob@example.test", "cy@example.test"


def wait_for(what, redis_client, workers=(), timeout: float = 30.0):
    """Poll ``what()`` until it is truthy (no sleeps longer than 20 ms)."""
    deadline = time.monotonic() + timeout
    while True:
        found = what()
        if found:
            return found
        for worker in workers:
            assert worker.proc.poll() is None, f"a worker died: {worker.log()[-3000:]}"
        assert time.monotonic() < deadline, f"timed out; failed jobs: {failed_jobs(redis_client)}"
        time.sleep(0.02)


def mails(smtp, address: str, kind: str, game_id: str) -> list:
    return [m for m in smtp.to(address, kind) if m["X-Pbem-Game"] == game_id]


def finish(service, game_id: str, keys) -> None:
    """Both moves of the short game, applied here (or by a worker process
    draining the same queue: each move waits for the one before)."""
    for _ in range(2):
        loaded = service.load(game_id)
        seat = sorted(loaded.game.to_act(loaded.state))[0]
        submit(service, game_id, seat, keys, loaded.game.legal_moves(loaded.state, seat)[0], loaded.version)
        deadline = time.monotonic() + 20
        while service.load(game_id).version == loaded.version:
            drain(service)
            assert time.monotonic() < deadline, "the move was not applied"
            time.sleep(0.01)
    assert service.load(game_id).meta["status"] == "finished"


def test_a_rematch_offered_and_accepted_by_mail_replies_is_played_by_mail(
        service, redis_client, smtp, mail_in, start_worker):
    worker = start_worker(scheduler=False, queues=("pbem-moves", "pbem-notify", "pbem-mail"))
    game_id, keys, _tokens = new_game(service, "carcassonne", SHORT, "Short", names=("Ann", "Bob"),
                                      emails=(ANN, BOB))
    finish(service, game_id, keys)
    over = wait_for(lambda: mails(smtp, ANN, "game_over", game_id), redis_client, [worker])[-1]

    # Ann offers by replying to her game-over mail; Bob is asked, in words he can reply with
    mail_in.send(reply(over, "rematch", ANN), reply_address(over), ANN)
    answer = wait_for(lambda: mails(smtp, ANN, "mail_reply", game_id), redis_client, [worker])[-1]
    assert "Done: you accepted the rematch. It begins once every player has answered." in text_of(answer)
    offer = wait_for(lambda: mails(smtp, BOB, "rematch_offered", game_id), redis_client, [worker])[-1]
    assert "Ann offers a rematch" in text_of(offer) and "“rematch”" in text_of(offer), text_of(offer)
    assert "“no rematch”" in text_of(offer)
    assert not mails(smtp, ANN, "rematch_offered", game_id)  # the one who offered is not asked

    # Bob accepts in Chinese: the new game begins, seats rotated, everything else the same
    mail_in.send(reply(offer, "再來一局", BOB), reply_address(offer), BOB)
    rematch = wait_for(lambda: service.rematch_of(game_id)["new_game"] and service.rematch_of(game_id),
                       redis_client, [worker])
    assert rematch["status"] == "started" and rematch["answers"] == {"0": "accepted", "1": "accepted"}
    new_id = rematch["new_game"]  # named when decided, then made and dealt
    wait_for(lambda: (service.store.meta(new_id) or {}).get("status") == "active", redis_client, [worker])
    old, new = service.load(game_id), service.load(new_id)
    assert new.meta["game"] == old.meta["game"] and new.meta["options"] == old.meta["options"]
    assert new.meta["lang"] == old.meta["lang"] and new.meta["status"] == "active"
    assert new.meta["title"] == old.meta["title"] == "Short"
    old_seats, new_seats = service.store.seats(game_id), service.store.seats(new_id)
    assert [new_seats[s]["name"] for s in (0, 1)] == ["Bob", "Ann"]
    assert [new_seats[s]["public_key"] for s in (0, 1)] == [old_seats[1]["public_key"], old_seats[0]["public_key"]]
    assert [new_seats[s]["email"] for s in (0, 1)] == [BOB, ANN]
    answered = wait_for(lambda: mails(smtp, BOB, "mail_reply", game_id), redis_client, [worker])[-1]
    assert f"the rematch has begun as game {new_id}" in text_of(answered), text_of(answered)

    # both are told on the new game; Bob, now first, gets his turn and plays it by reply
    for address, name in ((ANN, "Ann"), (BOB, "Bob")):
        told = wait_for(lambda: mails(smtp, address, "rematch_started", new_id), redis_client, [worker])[-1]
        assert f"The rematch of game {game_id} has begun: you play as {name}, and Bob plays first." in \
            " ".join(text_of(told).split()), text_of(told)
        assert f"http://pbem.test/g/{new_id}" in text_of(told)
    turn = wait_for(lambda: mails(smtp, BOB, "your_turn", new_id), redis_client, [worker])[-1]
    version = service.load(new_id).version
    mail_in.send(reply(turn, examples_in(text_of(turn))[0], BOB), reply_address(turn), BOB)
    wait_for(lambda: service.load(new_id).version > version, redis_client, [worker])
    assert service.load(new_id).game.to_act(service.load(new_id).state) == {1}  # Ann's turn now

    # Ann's "rematch" once more on the old game: refused with its code, nothing changed
    stored = Rematches(redis_client).read(game_id)
    mail_in.send(reply(over, "rematch", ANN), reply_address(over), ANN)
    again = wait_for(lambda: len(mails(smtp, ANN, "mail_reply", game_id)) >= 2 and
                     mails(smtp, ANN, "mail_reply", game_id)[-1], redis_client, [worker])
    assert "(rematch_closed)" in text_of(again), text_of(again)
    assert Rematches(redis_client).read(game_id) == stored
    assert not failed_jobs(redis_client)


def test_the_api_offers_accepts_declines_and_refuses_with_nothing_changed(service, redis_client, api_server,
                                                                          notify_env):
    game_id, keys, tokens = new_game(service, "carcassonne", SHORT, "Short", names=("Ann", "Bob", "Cy"),
                                     emails=(ANN, BOB, CY))
    url = f"{api_server.url}/games/{game_id}/rematch"

    def post(token=None, path=""):
        return requests.post(url + path, headers={"Authorization": f"Bearer {token}"} if token else {}, timeout=10)

    def refused(resp, status, code):
        assert resp.status_code == status and resp.json()["error"]["code"] == code, resp.text
        assert Rematches(redis_client).read(game_id) == before

    before = Rematches(redis_client).read(game_id)
    refused(post(tokens[0]), 409, "rematch_game_not_over")  # an unfinished game
    finish3(service, game_id, keys)
    assert requests.get(url, timeout=10).json()["status"] == "none"
    refused(post(), 401, "missing_token")                   # a spectator
    refused(post("not-a-seat-token"), 401, "bad_token")
    refused(post(tokens[1], "/decline"), 409, "rematch_not_offered")

    offered = post(tokens[2])
    assert offered.status_code == 200, offered.text
    body = offered.json()
    assert (body["status"], body["by"], body["answers"], body["waiting"]) == ("offered", 2, {"2": "accepted"}, [0, 1])
    before = Rematches(redis_client).read(game_id)
    refused(post(tokens[2]), 409, "rematch_answered")       # accepting twice
    assert post(tokens[0], "/decline").json()["answers"] == {"0": "declined", "2": "accepted"}
    before = Rematches(redis_client).read(game_id)
    refused(post(tokens[0]), 409, "rematch_answered")       # a change of mind is an answer twice too

    # the last answer decides: two of three accepted, and Carcassonne is played by two
    done = post(tokens[1]).json()
    assert done["status"] == "started" and done["waiting"] == [] and done["new_game"]
    new_seats = service.store.seats(done["new_game"])
    assert [new_seats[s]["name"] for s in sorted(new_seats)] == ["Cy", "Bob"]  # old seats 1, 2 rotated
    assert requests.get(url, timeout=10).json() == done
    before = Rematches(redis_client).read(game_id)
    refused(post(tokens[1], "/decline"), 409, "rematch_closed")
    assert redis_client.zscore(INDEX, game_id) is None


def finish3(service, game_id: str, keys) -> None:
    """A three-player short game to its end (two tiles: two moves)."""
    while service.load(game_id).meta["status"] != "finished":
        loaded = service.load(game_id)
        seat = sorted(loaded.game.to_act(loaded.state))[0]
        submit(service, game_id, seat, keys, loaded.game.legal_moves(loaded.state, seat)[0], loaded.version)
        drain(service)


def test_the_sweep_starts_a_rematch_out_of_time_with_those_who_accepted(service, notify_env):
    game_id, keys, _tokens = new_game(service, "carcassonne", SHORT, "Short", names=("Ann", "Bob", "Cy"),
                                      emails=(ANN, BOB, CY))
    finish3(service, game_id, keys)
    # what the players chose goes with them: Cy's channels (a changed address, a webhook), Bob's language
    cy = {"email": "cy2@example.test", "preference": "digest", "pending_webhook_url": None,
          "webhook": {"id": "w1", "url": "http://127.0.0.1:9/hook", "secret": "whsec_x", "enabled": True}}
    NotifyStore(service.store.redis).save_channels(game_id, 2, cy)
    service.set_seat_language(game_id, 1, lang="zh-Hant", tz="Asia/Taipei")
    service.answer_rematch(game_id, 1, now=1000.0)
    service.answer_rematch(game_id, 2, now=1001.0)
    assert service.rematches_due(60, now=1059.0) == []      # not yet out of time
    assert service.rematch_of(game_id)["status"] == "offered"
    assert service.rematches_due(60, now=1061.0) == [game_id]
    out = service.rematch_of(game_id)
    assert out["status"] == "started" and out["answers"] == {"1": "accepted", "2": "accepted"}
    new_seats = service.store.seats(out["new_game"])
    assert [new_seats[s]["name"] for s in (0, 1)] == ["Cy", "Bob"]
    assert NotifyStore(service.store.redis).channels(out["new_game"], 0) == cy and new_seats[0]["email"] == cy["email"]
    assert (new_seats[1]["lang"], new_seats[1]["tz"], new_seats[1]["email"]) == ("zh-Hant", "Asia/Taipei", BOB)

    # alone, nobody plays: the rematch is off
    other, keys, _tokens = new_game(service, "carcassonne", SHORT, "Short", names=("Ann", "Bob"))
    finish(service, other, keys)
    service.answer_rematch(other, 0, now=1000.0)
    service.rematches_due(60, now=2000.0)
    assert service.rematch_of(other)["status"] == "off" and service.rematch_of(other)["new_game"] is None

    # a game deleted while its rematch waits leaves the sweep nothing to trip on
    gone, keys, _tokens = new_game(service, "carcassonne", SHORT, "Short", names=("Ann", "Bob"))
    finish(service, gone, keys)
    service.answer_rematch(gone, 1, now=1000.0)
    service.delete_game(gone)
    assert service.rematches_due(60, now=2000.0) == [gone] and service.rematches_due(60, now=2000.0) == []


def test_seats_rotate_the_second_player_first():
    assert rotated([0, 1]) == [1, 0] and rotated([0, 2, 3]) == [2, 3, 0]
