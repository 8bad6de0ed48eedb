"""Scratch: dump what a person sees (not committed)."""
from pathlib import Path
from pbem.mail_in import invites
from pbem.notify import install
from .test_mail_in_support import (examples_in, mail_env, mail_in, reply, reply_address, notify_env, run_jobs, smtp, text_of)  # noqa

OUT = Path("/tmp/mailscratch")

def dump(smtp, tag):
    for i, m in enumerate(smtp.messages):
        msg = m["msg"]
        (OUT / f"{tag}-{i:02d}-{msg['X-Pbem-Kind']}.txt").write_text(
            f"To: {msg['To']}\nSubject: {msg['Subject']}\n\n" + text_of(msg))

def test_look(service, redis_client, smtp, mail_in):
    install(service)
    game_id = service.create_game("carcassonne", 2, {"expansions": ["king_robber"]}, "Look")["id"]
    emails = ["ann@example.test", "bob@example.test"]
    invites.invite(service, game_id, [{"email": e, "name": n} for e, n in zip(emails, ["Ann", "Bob"])])
    run_jobs(redis_client)
    for email in emails:
        inv = smtp.to(email, "invitation")[-1]
        mail_in.send(reply(inv, "join", email), reply_address(inv), email)
    run_jobs(redis_client)
    for _ in range(2):
        loaded = service.load(game_id)
        s = sorted(loaded.game.to_act(loaded.state))[0]
        turn = smtp.to(emails[s], "your_turn")[-1]
        mail_in.send(reply(turn, "help\nboard", emails[s]), reply_address(turn), emails[s])
        run_jobs(redis_client)
        body = text_of(turn)
        line = [l for l in body.split("\n") if l.strip().startswith("place ")][0].strip()
        mail_in.send(reply(turn, line, emails[s]), reply_address(turn), emails[s])
        run_jobs(redis_client)
    dump(smtp, "carc")
