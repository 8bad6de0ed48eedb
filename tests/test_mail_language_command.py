"""A reply's language line changes the replying seat's language (issue 27),
through the real inbound listener and SMTP on loopback: ``lang zh``,
``lang en``, ``語言 英文``, ``中文`` alone; the answer confirms it in the
new language; an unknown language changes nothing and says so."""
from __future__ import annotations

from pbem.mail_in.language_command import asked
from pbem.mail_in.store import MailStore

from .test_mail_in_support import (invited_game, mail_env, mail_in, reply, reply_address,  # noqa: F401
                                   notify_env, run_jobs, smtp, text_of)

ANN, BOB = "ann@example.test", "bob@example.test"


def test_language_lines_are_read_in_both_languages():
    for line, lang in (("lang zh", "zh-Hant"), ("LANG EN", "en"), ("lang zh-Hant", "zh-Hant"), ("lang: zh-TW", "zh-Hant"),
                       ("language english", "en"), ("語言 中文", "zh-Hant"), ("語言：英文", "en"), ("中文", "zh-Hant"),
                       ("英文", "en"), ("ｌａｎｇ　ｚｈ", "zh-Hant"), ("  lang   en  ", "en")):
        assert asked(line) == (True, lang), line
    assert asked("lang fr") == (True, None)  # a language line, for a language pbem has not
    for line in ("claim 2", "language is hard", "中文很難", "lang", "help", "英文 中文"):
        assert asked(line)[0] is False, line


def _answer(smtp, addr) -> str:
    return text_of(smtp.to(addr, "mail_reply")[-1])


def test_a_reply_changes_the_seats_language_and_is_answered_in_the_new_one(service, redis_client, smtp, mail_in):
    game_id = invited_game(service, redis_client, smtp, mail_in)
    turn = smtp.to(ANN, "your_turn") or smtp.to(ANN, "join_reply")
    mail = turn[-1]
    assert service.store.seats(game_id)[0].get("lang") is None  # chose none: reads the game's (English)

    mail_in.send(reply(mail, "lang zh\nboard", ANN), reply_address(mail), ANN)
    run_jobs(redis_client)
    assert service.store.seats(game_id)[0]["lang"] == "zh-Hant"
    body = _answer(smtp, ANN)
    assert "完成：從現在起，這場遊戲的郵件會以繁體中文寄給你。" in body, body
    assert MailStore(redis_client).entries(game_id)[0]["steps"][0] == {"command": "lang zh", "ok": True}
    assert service.store.seats(game_id)[1].get("lang") is None  # the other seat's is its own

    mail_in.send(reply(mail, "語言 英文", ANN, message_id="<lang-en@example.test>"), reply_address(mail), ANN)
    run_jobs(redis_client)
    assert service.store.seats(game_id)[0]["lang"] == "en"
    assert "Done: this game's mails come to you in English from now on." in _answer(smtp, ANN)

    mail_in.send(reply(mail, "中文", ANN, message_id="<zh-alone@example.test>"), reply_address(mail), ANN)
    run_jobs(redis_client)
    assert service.store.seats(game_id)[0]["lang"] == "zh-Hant"


def test_an_unknown_language_changes_nothing_and_says_so(service, redis_client, smtp, mail_in):
    game_id = invited_game(service, redis_client, smtp, mail_in)
    mail = (smtp.to(BOB, "your_turn") or smtp.to(BOB, "join_reply"))[-1]
    mail_in.send(reply(mail, "lang fr", BOB), reply_address(mail), BOB)
    run_jobs(redis_client)
    assert "lang" not in service.store.seats(game_id)[1]
    body = _answer(smtp, BOB)
    assert "not done: pbem has no such language" in body and "'lang zh'" in body, body
