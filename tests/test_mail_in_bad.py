"""Bad input, through the real listener on loopback (and over HTTP): each
mail gets a clear answer or a refusal at SMTP time, and nothing it should
not change changes (the game's version, its move records)."""
from __future__ import annotations

import smtplib
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid, parseaddr

import pytest
import requests

from pbem.mail_in.addresses import invite_token
from pbem.mail_in.store import MailStore
from pbem.notify.tokens import reply_token
from pbem.store import key

from .test_mail_in_support import (DOMAIN, INBOUND_SECRET, examples_in, invited_game, mail_env,  # noqa: F401
                                   mail_in, notify_env, reply, reply_address, run_jobs, smtp, text_of)

SECRET = b"test-secret"
ANN, BOB = "ann@example.test", "bob@example.test"


def snapshot(service, redis_client, game_id):
    return service.load(game_id).version, redis_client.hlen(key(game_id, "moves"))


@pytest.fixture
def game(service, redis_client, smtp, mail_in):
    game_id = invited_game(service, redis_client, smtp, mail_in)
    loaded = service.load(game_id)
    s = sorted(loaded.game.to_act(loaded.state))[0]
    addr = (ANN, BOB)[s]
    return game_id, s, addr, smtp.to(addr, "your_turn")[-1]


def plain(to: str, body: str, subject: str = "hello", sender: str = "someone@example.test") -> EmailMessage:
    msg = EmailMessage(policy=SMTP)
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = sender, to, subject, make_msgid(domain="example.test")
    msg.set_content(body)
    return msg


def answers(smtp, addr):
    return smtp.to(addr, "mail_reply")


def test_recipients_without_a_genuine_token_are_refused_at_rcpt(service, redis_client, game, mail_in):
    game_id, s, addr, turn = game
    before = snapshot(service, redis_client, game_id)
    genuine = reply_token(SECRET, game_id, s)
    other = service.create_game("wakanda", 2)["id"]
    refused = [
        f"pbem@{DOMAIN}",                                            # no token
        f"move+@{DOMAIN}",
        f"move+{game_id}.{s}.{'a' * 26}@{DOMAIN}",                   # forged
        f"move+{genuine[:-1]}{'b' if genuine[-1] != 'b' else 'c'}@{DOMAIN}",   # altered MAC
        f"move+{game_id}.{1 - s}.{genuine.rsplit('.', 1)[1]}@{DOMAIN}",  # another seat with this MAC
        f"move+{other}.{s}.{genuine.rsplit('.', 1)[1]}@{DOMAIN}",     # this MAC on another game
        f"move+{reply_token(b'another-server', game_id, s)}@{DOMAIN}",  # another server's secret
        f"move+{reply_token(SECRET, 'nosuchgame', 0)}@{DOMAIN}",       # genuine, but no such game
        f"move+{genuine}@elsewhere.test",                             # another domain
    ]
    for rcpt in refused:
        with pytest.raises(smtplib.SMTPRecipientsRefused) as err:
            mail_in.send(plain(rcpt, "claim 1", f"[pbem] Game {game_id}, turn {before[0]}"), rcpt, addr)
        code, text = err.value.recipients[rcpt]
        assert code == 550, (rcpt, code, text)
    assert snapshot(service, redis_client, game_id) == before
    assert not redis_client.keys("pbem:mail:raw:*")
    # the genuine address is accepted, even in another case (mail systems fold case)
    rcpt = f"MOVE+{genuine.upper()}@{DOMAIN.upper()}"
    assert mail_in.send(plain(rcpt, "board", f"[pbem] Game {game_id}, turn {before[0]}"), rcpt, addr) == {}


def test_huge_mail_is_refused_at_smtp_time(service, redis_client, game, mail_in, smtp):
    game_id, s, addr, turn = game
    before = snapshot(service, redis_client, game_id)
    huge = reply(turn, examples_in(text_of(turn))[0] + "\n\n" + ("x" * 76 + "\n") * 1200, addr)
    with pytest.raises((smtplib.SMTPDataError, smtplib.SMTPSenderRefused)) as err:
        mail_in.send(huge, reply_address(turn), addr)
    assert err.value.smtp_code == 552
    run_jobs(redis_client)
    assert snapshot(service, redis_client, game_id) == before and not answers(smtp, addr)


def test_malformed_mime_gets_a_clear_answer(service, redis_client, game, mail_in, smtp):
    game_id, s, addr, turn = game
    before = snapshot(service, redis_client, game_id)
    raw = (f"From: {addr}\r\nTo: {reply_address(turn)}\r\nSubject: Re: {turn['Subject']}\r\n"
           f"Message-ID: <broken.1@example.test>\r\nMIME-Version: 1.0\r\n"
           f"Content-Type: multipart/mixed\r\n\r\n--nowhere\r\nContent-Type: text/plain\r\n\r\n"
           f"{examples_in(text_of(turn))[0]}\r\n").encode()
    mail_in.send(raw, reply_address(turn), addr)
    run_jobs(redis_client)
    assert snapshot(service, redis_client, game_id) == before
    body = " ".join(text_of(answers(smtp, addr)[-1]).split())  # as read: a paragraph's line breaks aside
    assert "could not be read" in body and "MIME structure is broken" in body and "Nothing was applied" in body


def test_reply_to_an_old_turn_and_the_same_mail_twice(service, redis_client, game, mail_in, smtp):
    game_id, s, addr, turn = game
    examples = examples_in(text_of(turn))
    before = snapshot(service, redis_client, game_id)
    first = reply(turn, examples[0], addr)
    mail_in.send(first, reply_address(turn), addr)
    run_jobs(redis_client)
    after_first = snapshot(service, redis_client, game_id)
    assert after_first[1] == before[1] + 1 and "applied: " in text_of(answers(smtp, addr)[-1])
    # the same mail again (same Message-ID): nothing is done, the answer says so once
    mail_in.send(first, reply_address(turn), addr)
    mail_in.send(first, reply_address(turn), addr)
    run_jobs(redis_client)
    assert snapshot(service, redis_client, game_id) == after_first
    again = answers(smtp, addr)[1:]
    assert len(again) == 1 and "processed already" in text_of(again[0])
    # another mail answering the old turn (its subject names the old version): stale, not applied
    late = reply(turn, examples[-1], addr)
    mail_in.send(late, reply_address(turn), addr)
    run_jobs(redis_client)
    assert snapshot(service, redis_client, game_id) == after_first
    body = " ".join(text_of(answers(smtp, addr)[-1]).split())
    old_version = int(turn["Subject"].rsplit("(v", 1)[1].rstrip(")"))
    assert f"your mail answers version {old_version}, but the game is at version {after_first[0]}" in body
    # a fresh mail that names no version is not applied either, and says how to name one
    mail_in.send(plain(reply_address(turn), examples[-1], "hello", addr), reply_address(turn), addr)
    run_jobs(redis_client)
    assert snapshot(service, redis_client, game_id) == after_first
    assert "does not say which version" in text_of(answers(smtp, addr)[-1])


def test_command_in_html_only(service, redis_client, game, mail_in, smtp):
    game_id, s, addr, turn = game
    move = examples_in(text_of(turn))[0]
    before = snapshot(service, redis_client, game_id)
    msg = EmailMessage(policy=SMTP)
    msg["From"], msg["To"] = addr, reply_address(turn)
    msg["Subject"], msg["Message-ID"] = "Re: " + turn["Subject"], make_msgid(domain="example.test")
    msg.set_content(f"<html><body><div dir=\"ltr\">{move}</div><div><br></div>"
                    f"<div class=\"gmail_quote\"><div>On Mon, pbem wrote:</div><blockquote>pass<br>claim 1"
                    f"</blockquote></div></body></html>", subtype="html")
    mail_in.send(msg, reply_address(turn), addr)
    run_jobs(redis_client)
    after = snapshot(service, redis_client, game_id)
    assert after[0] > before[0] and after[1] == before[1] + 1
    body = text_of(answers(smtp, addr)[-1])
    assert f"applied: {move}" in body and "> pass" not in body
    # an HTML mail with nothing readable above the quote: told so, nothing applied
    msg2 = EmailMessage(policy=SMTP)
    msg2["From"], msg2["To"] = addr, reply_address(turn)
    msg2["Subject"], msg2["Message-ID"] = "Re: " + turn["Subject"], make_msgid(domain="example.test")
    msg2.set_content("<html><body><blockquote>claim 1</blockquote></body></html>", subtype="html")
    mail_in.send(msg2, reply_address(turn), addr)
    run_jobs(redis_client)
    assert snapshot(service, redis_client, game_id) == after
    assert "No commands were found in the HTML of your mail" in text_of(answers(smtp, addr)[-1])


def test_parse_errors_and_illegal_moves_explain_and_answer_the_seat_not_the_sender(service, redis_client, game,
                                                                                   mail_in, smtp):
    game_id, s, addr, turn = game
    before = snapshot(service, redis_client, game_id)
    # sent "from" someone else, with an injection attempt in the Message-ID and the subject
    raw = (f"From: mallory@evil.test\r\nTo: {reply_address(turn)}\r\n"
           f"Subject: Re: {turn['Subject']}\r\n Bcc: evil@attacker.test\r\n"
           f"Message-ID: <inj.1@example.test>\r\n Bcc: evil@attacker.test\r\n\r\nbuild sun on the moon\r\n").encode()
    mail_in.send(raw, reply_address(turn), "mallory@evil.test")
    run_jobs(redis_client)
    assert snapshot(service, redis_client, game_id) == before
    assert not smtp.to("mallory@evil.test") and not smtp.to("evil@attacker.test")
    answer = [m for m in smtp.messages if m["msg"]["X-Pbem-Kind"] == "mail_reply"][-1]
    assert answer["rcpt"] == [addr]
    head = answer["raw"].split(b"\r\n\r\n", 1)[0]
    assert b"Bcc" not in head and answer["msg"]["In-Reply-To"] == "<inj.1@example.test>"
    body = text_of(answer["msg"])
    assert "not applied: “build sun on the moon” does not read as a move" in " ".join(body.split())
    assert "expected: 'build <piece> on <village>'" in body
    assert "for example: " in body
    # a move the rules forbid: the rule's message and legal moves
    loaded = service.load(game_id)
    other = 1 - s
    other_turn = reply_token(SECRET, game_id, other)
    mail_in.send(plain(f"move+{other_turn}@{DOMAIN}", "pass", f"[pbem] Game {game_id}, turn {loaded.version}"),
                 f"move+{other_turn}@{DOMAIN}", (ANN, BOB)[other])
    run_jobs(redis_client)
    assert snapshot(service, redis_client, game_id) == before
    body = " ".join(text_of(answers(smtp, (ANN, BOB)[other])[-1]).split())
    turn_name = ("ann", "bob")[s]  # named by their addresses' names
    assert f"not applied: “pass”: it is not your turn (it is {turn_name}'s)" in body and f"Waiting for {turn_name}." in body


def test_auto_replies_are_ignored_and_invitations_need_join(service, redis_client, mail_in, smtp, game):
    game_id, s, addr, turn = game
    before = snapshot(service, redis_client, game_id)
    msg = reply(turn, examples_in(text_of(turn))[0], addr)
    msg["Auto-Submitted"] = "auto-replied"
    mail_in.send(msg, reply_address(turn), addr)
    run_jobs(redis_client)
    assert snapshot(service, redis_client, game_id) == before and not answers(smtp, addr)
    assert MailStore(redis_client).entries(game_id)[0]["status"] == "ignored"
    # the invitation token of a taken seat: a clear answer, nothing changes
    nonce = MailStore(redis_client).invitation(game_id, 0)["nonce"]
    rcpt = f"move+{invite_token(SECRET, game_id, 0, nonce)}@{DOMAIN}"
    mail_in.send(plain(rcpt, "join Mallory"), rcpt, "mallory@evil.test")
    run_jobs(redis_client)
    assert service.store.seats(game_id)[0]["email"] == ANN
    last = smtp.to(ANN, "join_reply")[-1]
    assert "could not take the seat you were invited to: you have this seat already" in text_of(last)
    # a genuine token of another invitation to that seat (here: one without its nonce) is
    # answered to nobody: the seat's invitation is not the one it names
    answered = len(smtp.to(ANN, "join_reply"))
    rcpt = f"move+{invite_token(SECRET, game_id, 0)}@{DOMAIN}"
    mail_in.send(plain(rcpt, "join Mallory"), rcpt, "mallory@evil.test")
    run_jobs(redis_client)
    assert service.store.seats(game_id)[0]["email"] == ANN and len(smtp.to(ANN, "join_reply")) == answered
    assert MailStore(redis_client).entries(game_id)[0]["reason"] == "not_invited"


def test_inbound_over_http(service, redis_client, game, smtp, api_server):
    game_id, s, addr, turn = game
    before = snapshot(service, redis_client, game_id)
    msg = reply(turn, examples_in(text_of(turn))[0], addr)
    raw = msg.as_bytes(policy=SMTP)
    url = f"{api_server.url}/inbound/email"
    headers = {"Content-Type": "message/rfc822"}
    r = requests.post(url, data=raw, headers=headers, timeout=10)
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_inbound_secret"
    auth = {**headers, "Authorization": f"Bearer {INBOUND_SECRET}"}
    forged = raw.replace(reply_address(turn).encode(), f"move+{game_id}.{s}.{'a' * 26}@{DOMAIN}".encode())
    r = requests.post(url, data=forged, headers=auth, timeout=10)
    assert r.status_code == 422 and r.json()["error"]["code"] == "no_token_recipient"
    r = requests.post(url, data=raw + b"x" * (70 * 1024), headers=auth, timeout=10)
    assert r.status_code == 413 and r.json()["error"]["code"] == "mail_too_large"
    run_jobs(redis_client)
    assert snapshot(service, redis_client, game_id) == before and not answers(smtp, addr)
    r = requests.post(url, data=raw, headers=auth, timeout=10)
    assert r.status_code == 202 and r.json()["accepted"] == [parseaddr(str(turn["Reply-To"]))[1].lower()]
    run_jobs(redis_client)
    after = snapshot(service, redis_client, game_id)
    assert after[0] > before[0] and after[1] == before[1] + 1
    assert "applied: " in text_of(answers(smtp, addr)[-1])


def test_a_flood_of_mail_to_one_token_is_refused_for_the_hour(service, redis_client, game, mail_in, monkeypatch,
                                                              api_server):
    """Each seat's token takes PBEM_MAIL_PER_HOUR mails an hour: more get a
    temporary refusal at RCPT time (450) or over HTTP (429), and are stored
    and processed nowhere; the other seat's token is not affected."""
    from .test_mail_in_support import MailIn, free_port

    game_id, s, addr, turn = game
    genuine = f"move+{reply_token(SECRET, game_id, s)}@{DOMAIN}"
    other = f"move+{reply_token(SECRET, game_id, 1 - s)}@{DOMAIN}"
    used = int(redis_client.get(key(game_id, f"mail:rl:{s}")) or 0)  # the invitation's join reply
    monkeypatch.setenv("PBEM_MAIL_PER_HOUR", str(used + 2))
    limited = MailIn(redis_client, free_port())
    limited.ctl.start()
    try:
        raws = len(redis_client.keys("pbem:mail:raw:*"))
        for _ in range(2):
            assert limited.send(plain(genuine, "board"), genuine, addr) == {}
        with pytest.raises(smtplib.SMTPRecipientsRefused) as err:
            limited.send(plain(genuine, "board"), genuine, addr)
        code, text = err.value.recipients[genuine]
        assert code == 450 and b"Too many" in text
        assert len(redis_client.keys("pbem:mail:raw:*")) == raws + 2
        assert limited.send(plain(other, "board"), other, addr) == {}  # the other seat's own count
    finally:
        limited.ctl.stop()
    # over HTTP too, with its own setting
    monkeypatch.setenv("PBEM_MAIL_PER_HOUR", "1")
    url = f"{api_server.url}/inbound/email"
    auth = {"Content-Type": "message/rfc822", "Authorization": f"Bearer {INBOUND_SECRET}"}
    redis_client.delete(key(game_id, f"mail:rl:{s}"))
    raw = plain(genuine, "board").as_bytes(policy=SMTP)
    assert requests.post(url, data=raw, headers=auth, timeout=10).status_code == 202
    r = requests.post(url, data=raw, headers=auth, timeout=10)
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_mails"
    assert 1 <= int(r.headers["Retry-After"]) <= 3600 and r.json()["error"]["details"]["retry_after"] > 0


def test_an_answer_the_relay_refuses_is_sent_again_later(service, redis_client, game, mail_in, smtp, monkeypatch):
    """The move in the reply is applied whatever the relay does; its answer
    is kept and tried again by a scheduled pbem-mail job until it goes."""
    from rq import Queue
    from rq.job import Job
    from rq.registry import ScheduledJobRegistry

    from pbem.server.embedded_redis import free_port
    from pbem.mail_in import QUEUE as MAIL_QUEUE
    from pbem.mail_in import RETRIES
    from pbem.mail_in.outbox import send_answer

    game_id, s, addr, turn = game
    before = snapshot(service, redis_client, game_id)
    monkeypatch.setenv("SMTP_URL", f"smtp://127.0.0.1:{free_port()}")  # the relay is down
    answered = len(answers(smtp, addr))
    rcpt = reply_address(turn)
    mail_in.send(reply(turn, examples_in(text_of(turn))[0], addr), rcpt, addr)
    run_jobs(redis_client)
    assert snapshot(service, redis_client, game_id)[0] > before[0]  # the move went through
    assert len(answers(smtp, addr)) == answered  # its answer did not
    registry = ScheduledJobRegistry(queue=Queue(MAIL_QUEUE, connection=redis_client))
    jobs = [j for j in (Job.fetch(i, connection=redis_client) for i in registry.get_job_ids())
            if j.func_name.endswith(".send_answer")]
    assert len(jobs) == 1 and jobs[0].args[1] == 2
    out_id = jobs[0].args[0]
    # still down at the second try: a third is scheduled, the message kept
    assert send_answer(redis_client, out_id, 2) == "retrying"
    jobs = [j for j in (Job.fetch(i, connection=redis_client) for i in registry.get_job_ids())
            if j.func_name.endswith(".send_answer") and j.args[1] == 3]
    assert len(jobs) == 1
    # the relay is back: the kept answer goes, once
    monkeypatch.setenv("SMTP_URL", smtp.url)
    assert send_answer(redis_client, jobs[0].args[0], 3) == "sent"
    assert send_answer(redis_client, jobs[0].args[0], 3) == "gone"
    got = answers(smtp, addr)
    assert len(got) == answered + 1 and "applied: " in text_of(got[-1])
    assert got[-1]["In-Reply-To"]  # threaded under the player's reply, as sent the first time
    # and one that never gets through is given up after the last try
    monkeypatch.setenv("SMTP_URL", f"smtp://127.0.0.1:{free_port()}")
    kept = MailStore(redis_client).put_outgoing(got[-1].as_bytes(policy=SMTP), 60)
    assert send_answer(redis_client, kept, len(RETRIES) + 1) == "given_up"
    assert MailStore(redis_client).take_outgoing(kept) is None
