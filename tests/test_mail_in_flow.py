"""Joining and moving by mail through the real listener on loopback, jobs
run in this process: invitations, join, several moves in one mail, help and
board, the log's auth, mail-only seats refuse signed moves."""
from __future__ import annotations

import pytest

from pbem.trust import signing
from pbem.errors import Forbidden
from pbem.mail_in.store import MailStore

from .test_mail_in_support import (examples_in, invited_game, mail_env, mail_in, reply, reply_address,  # noqa: F401
                                   notify_env, run_jobs, smtp, text_of)

ANN, BOB = "ann@example.test", "bob@example.test"


def turn_mails(smtp, addr):
    return smtp.to(addr, "your_turn")


def test_join_by_invitation_and_play_by_reply(service, redis_client, smtp, mail_in):
    game_id = invited_game(service, redis_client, smtp, mail_in)
    # the invitation mails: to the invited address, a reply address with an invitation token
    inv = smtp.to(ANN, "invitation")[0]
    assert reply_address(inv).startswith("move+") and ".j0." in reply_address(inv)
    # the rules in play in words, how moves are written behind a link (the rules page)
    assert "join" in text_of(inv) and f"/g/{game_id}/rules" in text_of(inv) and "Wakanda moves" not in text_of(inv)
    # both seats were taken by mail: mail-only seats, the invited addresses as their channel
    seats = service.store.seats(game_id)
    assert seats[0]["mail_only"] and seats[1]["mail_only"] and seats[0]["public_key"] is None
    assert seats[0]["email"] == ANN and seats[1]["email"] == BOB
    joined = smtp.to(ANN, "join_reply")
    assert any("You have joined the game as ann." in text_of(m) for m in joined)
    loaded = service.load(game_id)
    assert loaded.meta["status"] == "active"
    s = sorted(loaded.game.to_act(loaded.state))[0]
    addr = (ANN, BOB)[s]
    turn = turn_mails(smtp, addr)
    assert len(turn) == 1
    # a signed move for a mail-only seat is refused (it has no key)
    private, _ = signing.generate_key()
    move = loaded.game.legal_moves(loaded.state, s)[0]
    with pytest.raises(Forbidden):
        service.submit(game_id, signing.make_envelope(game_id, s, loaded.version, move, private))

    # help, board and a move in one mail, with the quoted turn mail and a signature below
    first = examples_in(text_of(turn[0]))[0]
    before = service.load(game_id).version
    msg = reply(turn[0], f"help\nboard\n{first}\n-- \nAnn, sent from the garden", addr)
    mail_in.send(msg, reply_address(turn[0]), addr)
    run_jobs(redis_client)
    after = service.load(game_id)
    assert after.version > before
    answer = smtp.to(addr, "mail_reply")[-1]
    body = text_of(answer)
    assert "How to play by mail" in body and "Wakanda moves" in body
    assert f"> {first}" in body and f"applied: {first}" in body
    assert answer["In-Reply-To"] == msg["Message-ID"]
    assert answer["Subject"].endswith(f"(v{after.version})") and answer["X-Pbem-Version"] == str(after.version)
    # the log says how the move was authenticated
    move_id = service.store.events(game_id, before, after.version)[-1][2]
    record = service.store.move(game_id, move_id)
    assert record["auth"] == "mail-token" and record["message_id"] == msg["Message-ID"]
    assert record["envelope"]["nonce"] == f"mail:{msg['Message-ID']}:2"
    log = MailStore(redis_client).entries(game_id)
    assert log[0]["status"] == "answered" and log[0]["applied"] == [first]


def test_several_moves_stop_at_the_first_failure(service, redis_client, smtp, mail_in):
    game_id = invited_game(service, redis_client, smtp, mail_in)
    loaded = service.load(game_id)
    s = sorted(loaded.game.to_act(loaded.state))[0]
    addr = (ANN, BOB)[s]
    turn = turn_mails(smtp, addr)[-1]
    first = examples_in(text_of(turn))[0]
    before = loaded.version
    # the first is applied; then it is the other seat's turn, so the second fails; the third is not tried
    mail_in.send(reply(turn, f"{first}\nclaim 9\nbuild sun on 1", addr), reply_address(turn), addr)
    run_jobs(redis_client)
    after = service.load(game_id)
    applied = [e for e in service.store.events(game_id, before, after.version)]
    assert after.version > before and applied
    body = text_of(smtp.to(addr, "mail_reply")[-1])
    assert f"applied: {first}" in body
    assert "> claim 9" in body and "not applied" in body
    assert "Not tried, as the command above failed: “build sun on 1”" in body
    # exactly one move by mail was recorded
    records = [service.store.move(game_id, m) for m in {m for _, _, m in applied}]
    assert [r["auth"] for r in records] == ["mail-token"]
