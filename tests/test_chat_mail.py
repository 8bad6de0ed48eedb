"""Chat by mail through the real inbound SMTP listener on loopback and a real
SMTP relay (aiosmtpd), the mail and notice jobs run by RQ in this process:
``say`` / ``say @NAME`` / ``說`` lines beside a move in one reply, the
messages in the other seat's next turn mail (text, and escaped in HTML),
only those since its last move, and the bounds answered by mail."""
from __future__ import annotations

import re

from pbem.games.base import SPECTATOR
from pbem.games.i18n import PSEUDO
from pbem.service import chat

from .pseudo_support import leftover_english
from .test_mail_languages import choose
from .test_mail_in_support import (examples_in, invited_game, mail_env, mail_in, reply, reply_address,  # noqa: F401
                                   notify_env, run_jobs, smtp, text_of)

EMAILS = ("ann@example.test", "bob@example.test")


def html_of(msg) -> str:
    return msg.get_body(("html",)).get_content()


def last_turn_mail(smtp, addr):
    return smtp.to(addr, "your_turn")[-1]


def answer_to(smtp, addr):
    return [m for m in smtp.to(addr) if m["X-Pbem-Kind"] not in ("your_turn", "invitation")][-1]


def test_say_by_mail_beside_a_move_reaches_the_next_turn_mail(service, redis_client, smtp, mail_in, monkeypatch):
    monkeypatch.setenv("PBEM_CHAT_MAX_CHARS", "100")
    game_id = invited_game(service, redis_client, smtp, mail_in, emails=EMAILS, title="Talk")
    names = service.seat_names(game_id, 2)
    loaded = service.load(game_id)
    mover = sorted(loaded.game.to_act(loaded.state))[0]
    other = 1 - mover
    turn = last_turn_mail(smtp, EMAILS[mover])
    move = examples_in(text_of(turn))[0]
    version = loaded.version
    body = f"say Good luck <b>you</b> & all\nsay @{names[other].upper()} psst, only you\n{move}\nCheers"
    mail_in.send(reply(turn, body, EMAILS[mover]), reply_address(turn), EMAILS[mover])
    run_jobs(redis_client)

    answer = text_of(answer_to(smtp, EMAILS[mover]))
    assert "Said to everyone in the game." in answer
    assert f"Said to {names[other]} only." in answer
    assert service.load(game_id).version > version  # the move after the chat lines was applied too
    said = chat.read(service, game_id, SPECTATOR)
    assert [m["text"] for m in said] == ["Good luck <b>you</b> & all"]  # a spectator: the public one only
    assert [m["to"] for m in chat.read(service, game_id, other)] == [None, other]

    # The other seat's next turn mail carries both, the private one marked as such.
    theirs = last_turn_mail(smtp, EMAILS[other])
    text = text_of(theirs)
    assert "Chat since your last move:" in text
    assert f"  {names[mover]}: Good luck <b>you</b> & all" in text
    assert f"  {names[mover]}, to you only: psst, only you" in text
    page = html_of(theirs)
    assert "Good luck &lt;b&gt;you&lt;/b&gt; &amp; all" in page and "<b>you</b>" not in page

    # It answers in Chinese with its move; the first seat's next turn mail has only that.
    move = examples_in(text)[0]
    mail_in.send(reply(theirs, f"說：謝謝！\n{move}", EMAILS[other]), reply_address(theirs), EMAILS[other])
    run_jobs(redis_client)
    mine = text_of(last_turn_mail(smtp, EMAILS[mover]))
    assert f"  {names[other]}: 謝謝！" in mine, (text_of(answer_to(smtp, EMAILS[other])), mine)
    assert "Good luck" not in mine.split("Chat since your last move:")[1]  # said before its last move

    # Refused by mail with the reason and code, nothing stored; the help names the command.
    mine_mail = last_turn_mail(smtp, EMAILS[mover])
    mail_in.send(reply(mine_mail, "say @nobody hi", EMAILS[mover]),
                 reply_address(mine_mail), EMAILS[mover])
    run_jobs(redis_client)
    refused = text_of(answer_to(smtp, EMAILS[mover]))
    assert "not said: no player of this game is called that" in refused
    for long in ("x" * 300, "x" * 101):  # longer than a mail's line (cut there: refused), than PBEM_CHAT_MAX_CHARS
        mail_in.send(reply(mine_mail, "say " + long, EMAILS[mover]), reply_address(mine_mail), EMAILS[mover])
        run_jobs(redis_client)
        refused = text_of(answer_to(smtp, EMAILS[mover]))
        assert "chat_too_long)" in refused, refused
    assert len(chat.read(service, game_id, mover)) == 3
    mail_in.send(reply(mine_mail, "help", EMAILS[mover]), reply_address(mine_mail), EMAILS[mover])
    run_jobs(redis_client)
    # the help lists the chat lines with the other players' names (pbem/mail_in/commands.py)
    assert re.search(r" say @\S+ Your move!: said to one player only", text_of(answer_to(smtp, EMAILS[mover])))

    # The chat's words in a turn mail come from the catalogs: no English left in the pseudo-locale.
    choose(redis_client, game_id, other, lang=PSEUDO)
    move = examples_in(text_of(mine_mail))[0]
    mail_in.send(reply(mine_mail, f"say 最後一句\n{move}", EMAILS[mover]), reply_address(mine_mail), EMAILS[mover])
    run_jobs(redis_client)
    pseudo = text_of(last_turn_mail(smtp, EMAILS[other])).splitlines()
    line = next(x for x in pseudo if "最後一句" in x)
    assert leftover_english(line, allowed_texts=[names[mover], "最後一句"]) == [], line
    heading = pseudo[pseudo.index(line) - 1]
    assert heading.startswith("⟦") and leftover_english(heading) == [], heading
