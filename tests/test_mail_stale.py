"""Replies to older mails, through the real inbound listener on loopback
(jobs in this process, mail out to the maildir): mail is slow, and a mail
move's envelope is the server's, so a reply is applied when it is still
the sender's turn, the move legal and the decision the same as when the
mail was written; otherwise it is answered with what happened since and
the board as it is now."""
from __future__ import annotations

import pytest

from pbem.notify import install

from .mail_players import answer, invite_all, offered_examples, reply_address
from .mail_reader import Maildir, text_of
from .test_mail_in_support import mail_env, mail_in, notify_env, run_jobs, smtp  # noqa: F401


def addr(name: str) -> str:
    return f"{name.lower()}@example.test"


@pytest.fixture
def box(mail_env, monkeypatch, tmp_path):
    monkeypatch.delenv("SMTP_URL")
    return Maildir(tmp_path / "maildir")


def by_mail(service, redis_client, mail_in, box, name, options, names) -> str:
    """A game whose seats are taken by replying "join" to invitations."""
    install(service)
    game_id = service.create_game(name, len(names), options, "By mail")["id"]
    invite_all(service, game_id, [(n, addr(n)) for n in names])
    run_jobs(redis_client)
    for n in names:
        invitation = box.to(addr(n), "invitation")[-1]
        mail_in.send(answer(invitation, f"join {n}", addr(n)), reply_address(invitation), addr(n))
    run_jobs(redis_client)
    assert service.load(game_id).meta["status"] == "active"
    return game_id


def send(mail_in, redis_client, msg, line, name):
    out = answer(msg, line, addr(name))
    mail_in.send(out, reply_address(msg), addr(name))
    run_jobs(redis_client)
    return out


def answer_to(box, name, sent):
    got = [m for m in box.to(addr(name), "mail_reply") if m["In-Reply-To"] == sent["Message-ID"]]
    assert len(got) == 1
    return got[0], text_of(got[0])


def test_a_reply_to_an_older_mail_stands_while_the_decision_does(service, redis_client, mail_in, box):
    names = ["Ann", "Bob", "Cy"]
    game_id = by_mail(service, redis_client, mail_in, box, "cartoona", {}, names)
    loaded = service.load(game_id)
    active = names[loaded.state["active"]]
    turn = box.to(addr(active), "your_turn")[-1]
    written_at = int(turn["X-Pbem-Version"] or turn["Subject"].rsplit("(v", 1)[1].rstrip(")"))
    # the two others may act out of turn: each is told once, and passes by pasting "pass"
    for name in names:
        if name != active:
            told = box.to(addr(name), "may_react")
            assert len(told) == 1 and "pass" in offered_examples(text_of(told[0]))
            sent = send(mail_in, redis_client, told[0], "pass", name)
            assert "applied: pass" in answer_to(box, name, sent)[1]
    assert service.load(game_id).version > written_at
    # the active player's reply to the turn mail of the older version still stands
    line = offered_examples(text_of(turn))[0]
    sent = send(mail_in, redis_client, turn, line, active)
    _, text = answer_to(box, active, sent)
    assert f"applied: {line}" in text, text


def test_a_reply_the_game_moved_on_from_is_answered_with_what_changed(service, redis_client, mail_in, box):
    names = ["Ann", "Bob"]
    game_id = by_mail(service, redis_client, mail_in, box, "carcassonne",
                      {"draw_order": list("UVWXCBAKLD"), "start_player": 0}, names)
    first = box.to(addr("Ann"), "your_turn")[-1]
    lines = offered_examples(text_of(first))
    sent = send(mail_in, redis_client, first, lines[0], "Ann")
    assert f"applied: {lines[0]}" in answer_to(box, "Ann", sent)[1]
    bob = box.to(addr("Bob"), "your_turn")[-1]
    sent = send(mail_in, redis_client, bob, offered_examples(text_of(bob))[-1], "Bob")
    assert "applied: " in answer_to(box, "Bob", sent)[1]
    # Ann's turn again, with another tile: a reply to her first turn mail is refused
    now = service.load(game_id)
    assert sorted(now.game.to_act(now.state)) == [0]
    before = now.version
    sent = send(mail_in, redis_client, first, lines[-1], "Ann")
    reply_msg, text = answer_to(box, "Ann", sent)
    assert service.load(game_id).version == before
    old = int(first["Subject"].rsplit("(v", 1)[1].rstrip(")"))
    assert (f"your mail answers version {old}, but the game is at version {before}, and what you decide now "
            f"is not what you decided then") in " ".join(text.split())
    changes = text.split("What happened since:", 1)[1].split("\n\n", 1)[0]
    assert f"{old + 1}. " in changes and f"{before}. " in changes
    # ... and the board as it is now, with the moves Ann may make now, each pasted back fine
    assert text.count("The board as you see it:") == 1 and "It is your turn." in text
    now_lines = offered_examples(text)
    assert now_lines and now_lines != lines
    sent = send(mail_in, redis_client, reply_msg, now_lines[0], "Ann")
    assert f"applied: {now_lines[0]}" in answer_to(box, "Ann", sent)[1]


def test_a_later_step_of_the_turn_is_not_the_decision_an_older_mail_offered(service, redis_client, mail_in, box):
    names = ["Ann", "Bob"]
    game_id = by_mail(service, redis_client, mail_in, box, "cartoona", {"mode": "basic"}, names)
    active = names[service.load(game_id).state["active"]]
    turn = box.to(addr(active), "your_turn")[-1]
    lines = offered_examples(text_of(turn))
    assert all(x.startswith("place ") for x in lines)
    sent = send(mail_in, redis_client, turn, lines[0], active)
    reply_msg, text = answer_to(box, active, sent)
    assert f"applied: {lines[0]}" in text and "It is your turn." in text  # now the discard
    # no turn mail of its own for that: the answer is it
    assert len(box.to(addr(active), "your_turn")) == 1
    # another placement pasted from the first mail: that decision is past
    version = service.load(game_id).version
    sent = send(mail_in, redis_client, turn, lines[-1], active)
    _, text = answer_to(box, active, sent)
    assert "what you decide now is not what you decided then" in text and service.load(game_id).version == version
    # the discard the answer offered stands
    discard = offered_examples(text_of(reply_msg))[0]
    sent = send(mail_in, redis_client, reply_msg, discard, active)
    assert f"applied: {discard}" in answer_to(box, active, sent)[1]


def test_a_version_the_game_has_not_reached_is_said_so(service, redis_client, mail_in, box):
    game_id = by_mail(service, redis_client, mail_in, box, "wakanda", {"start_player": 0}, ["Ann", "Bob"])
    turn = box.to(addr("Ann"), "your_turn")[-1]
    line = offered_examples(text_of(turn))[0]
    version = service.load(game_id).version
    out = answer(turn, line, addr("Ann"))
    out.replace_header("Subject", f"Re: [pbem] By mail: your turn (v{version + 50})")
    mail_in.send(out, reply_address(turn), addr("Ann"))
    run_jobs(redis_client)
    _, text = answer_to(box, "Ann", out)
    assert f"your mail names version {version + 50}, which this game has not reached" in " ".join(text.split())
    assert service.load(game_id).version == version
