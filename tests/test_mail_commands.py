"""Every line a player may write by mail, as one whole (issue 29): each
command word of every feature, in English and Chinese and typed full width,
goes through the mail reader's line reading and is read as exactly one
command; no command word begins a move of any game; the ``help`` answer,
mailed through the inbound listener and a real SMTP relay on loopback, lists
every line in the reader's language (English, Chinese, the pseudo-locale:
no English left) and each line it offers reads back as its command; and the
lines that were misread (``say accept``, ``unsubscribe`` in a game's reply,
``訂閱卡卡頌`` with no space) do what they say."""
from __future__ import annotations

import json
import re

from pbem import games
from pbem.games import handover, takeback
from pbem.games.carcassonne.notation import EXPANSION_TEXT
from pbem.games.i18n import CHINESE, ENGLISH, PSEUDO, reading
from pbem.mail_in import (commands, digest_command, language_command, my_games, process, reading as
                          mail_reading, rematch, vacation_command, wrapped)
from pbem.mail_in import subscriptions
from pbem.mail_in.store import MailStore
from pbem.notify import wording
from pbem.service import chat
from pbem.store.keys import key
from pbem.trust.signing import make_envelope

from .conftest import drain

from .test_mail_in_support import (mail_env, mail_in, notify_env, reply, reply_address, run_jobs,  # noqa: F401
                                   smtp, text_of)
from .pseudo_support import notation_words
from .test_mail_pseudo import english_left, game_texts
from .test_notify_support import new_game
from .test_open_games_mail import LOBBY, letter
from .test_rematch import SHORT, finish

NAMES = ["Ann", "Bob"]
ANN, BOB = "p0@example.test", "p1@example.test"
CY, DAN, KEN = "cy@example.test", "dan@example.test", "ken@example.test"


def every_command_line() -> list[tuple[str, str]]:
    """(a line, the one command it must be read as), from every feature's
    own words: a word added to a feature is tested here without a change."""
    out = [(w, "help") for w in commands.HELP_WORDS] + [(w, "board") for w in commands.BOARD_WORDS]
    out += [(w, "moves") for w in commands.MOVES_WORDS]
    out += [(w, "join") for w in commands.JOIN_WORDS] + [(f"{w} Ann", "join") for w in commands.JOIN_WORDS]
    out += [(f"{w} {lang}", "lang") for w in ("lang", "language", "語言") for lang in ("zh", "en", "中文", "英文")]
    out += [(w, "lang") for w in language_command._ALONE]
    out += [(f"{w} {c}", "digest") for w in digest_command.FIRST_WORDS for c in digest_command.CHOICES]
    out += [(w, "digest") for w in digest_command.FIRST_WORDS]
    out += [(f"{w} 7", "vacation") for w in ("vacation", "holiday", "休假")]
    out += [("vacation 7 days", "vacation"), ("休假 7 天", "vacation"), ("休假7", "vacation")]
    out += [(w, "back") for w in vacation_command.BACK_WORDS]
    out += [(w, "rematch") for w in rematch.ACCEPT] + [(w, "no rematch") for w in rematch.DECLINE]
    out += [(w, "games") for w in my_games.WORDS]
    out += [(w, {"request": "takeback"}.get(a, a)) for w, a in takeback._READ.items()]
    out += [(w, f"{a} bot" if a != "return" else "seat back") for w, a in handover._ANSWERS.items()]
    out += [(f"{first} {level}", "bot") for first in handover.WORDS["request"].values()
            for level in handover._LEVELS] + [("機器人貪婪", "bot"), ("bot", "bot")]
    out += [(f"{w} carcassonne", "subscribe") for w in commands.SUBSCRIBE_WORDS] + [("訂閱卡卡頌", "subscribe")]
    out += [(w, "unsubscribe") for w in commands.UNSUBSCRIBE_WORDS]
    said = [(f"{w} {text}", "say") for w in ("say", "說") for text in ("gg", "@Bob hi", "加油")]
    said += [("say: gg", "say"), ("說：加油", "say")]
    # a chat line that says a command word is a chat line only ("say accept" accepts no takeback)
    said += [(f"{w} {line}", "say") for w in ("say", "說") for line, _command in out]
    return out + said


def full_width(text: str) -> str:
    """As a phone's Chinese keyboard types it: ASCII letters, digits, marks
    and spaces full width."""
    return "".join("\u3000" if c == " " else chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def read_by_the_mail_reader(line: str) -> str:
    """The line as the mail reader hands it on (a mail's first paragraph
    read as commands: full width made plain)."""
    lines = mail_reading.command_lines(line + "\n\n> quoted\n")
    assert len(lines) == 1, (line, lines)
    return lines[0]


def test_every_command_word_is_read_as_exactly_one_command():
    checked = 0
    for line, command in every_command_line():
        for typed in {line, line.upper(), full_width(line), full_width(line.upper())}:
            plain = read_by_the_mail_reader(typed)
            assert commands.read_as(plain) == [command], (typed, plain, commands.read_as(plain))
            assert process._keyword(plain), typed  # a command, so never taken for a note
            checked += 1
    assert checked > 400
    # not commands: a greeting, a command word inside a sentence, "指令" (Cartoona's standing order)
    for line in ("thanks", "say", "accept it", "back soon", "games are fun", "指令", "說明書",
                 "再來一局吧"):
        assert commands.read_as(read_by_the_mail_reader(line)) == [], line


def test_the_lobby_and_an_announcement_read_their_words_alone():
    assert commands.lobby_word("訂閱卡卡頌") == ("訂閱", "卡卡頌")
    assert commands.lobby_word("取消訂閱 卡卡頌") == ("取消訂閱", "卡卡頌")
    assert commands.lobby_word("ｓｕｂｓｃｒｉｂｅ　ｃａｒｃａｓｓｏｎｎｅ") == ("subscribe", "carcassonne")
    assert commands.lobby_word("unsubscribe") == ("unsubscribe", "")
    assert commands.lobby_word("join") == (None, "join")
    assert commands.announcement_word("加入安") == ("加入", "安")
    assert commands.announcement_word("JOIN Ann Lee") == ("join", "Ann Lee")
    assert commands.announcement_word("退訂") == ("退訂", "")
    assert commands.announcement_word("subscribe carcassonne") == (None, "subscribe carcassonne")


def move_verbs() -> set[str]:
    """The words a move of any game starts with, in either language (every
    Carcassonne expansion's too)."""
    verbs = set()
    for game in games.latest_games():
        options = [{}] + ([{"expansions": list(EXPANSION_TEXT)}] if game.name == "carcassonne" else [])
        for lang in (ENGLISH, CHINESE):
            with reading(lang):
                for chosen in options:
                    verbs |= {wrapped.first_word(t).lower() for t in game.notation_examples(chosen)}
    return verbs - {""}


def test_no_command_word_begins_a_move_of_any_game():
    verbs = move_verbs()
    assert {"place", "放置", "pass", "跳過", "指令"} <= verbs
    # a word that takes what follows it must begin no move; a line that is a command whole ("no rematch")
    # may share its first word with a move ("no castle"), as long as no move is that line
    taking = {"say", "說", "lang", "language", "語言", "digest", "摘要", "vacation", "holiday", "休假", "join", "加入",
              "subscribe", "訂閱"}
    lines = {line.lower() for line, _command in every_command_line()}
    assert not taking & verbs, taking & verbs
    assert not lines & verbs, lines & verbs
    assert {line.split(" ")[0] for line in lines} & verbs == {"no"}  # "no rematch" beside "no castle"
    examples = {e.lower() for game in games.latest_games() for lang in (ENGLISH, CHINESE)
                for e in _examples(game, lang)}
    assert not lines & examples, lines & examples


def _examples(game, lang: str) -> list[str]:
    with reading(lang):
        return list(game.notation_examples({"expansions": list(EXPANSION_TEXT)} if game.name == "carcassonne"
                                           else {}))


# -- through the mail ----------------------------------------------------------------------------------

def choose(redis_client, game_id: str, seat: int, **chosen) -> None:
    raw = redis_client.hget(key(game_id, "seats"), str(seat))
    redis_client.hset(key(game_id, "seats"), str(seat), json.dumps({**json.loads(raw), **chosen}))


def answer_to(smtp, mail_in, redis_client, email: str, body: str) -> str:
    mail = smtp.to(email)[-1]
    mail_in.send(reply(mail, body, email), reply_address(mail), email)
    run_jobs(redis_client)
    return text_of(smtp.to(email, "mail_reply")[-1])


def listed(body: str, first: str, last: str) -> list[str]:
    """The help's lines of commands, from its heading to the rules."""
    lines = body.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(first))
    end = next(i for i, line in enumerate(lines) if i > start and line.startswith(last))
    return lines[start:end]


ITEM = re.compile(r"^ {4}(.+?)(?:: |：)")  # "    say Good luck!: said to every player (also 說)" (the answer indents)


def test_the_help_answer_lists_every_line_in_each_readers_language(service, redis_client, smtp, mail_in):
    game_id, _keys, _tokens = new_game(service, "wakanda", {"start_player": 0}, title="Evening", names=NAMES)
    choose(redis_client, game_id, 1, lang=CHINESE)
    run_jobs(redis_client)
    wanted = {name for name, _reads in commands.READERS} - {"join"}

    english = answer_to(smtp, mail_in, redis_client, ANN, "help")
    block = listed(english, "  The lines you may write", "  The rules in play")
    offered = [ITEM.match(line).group(1) for line in block if ITEM.match(line)]
    assert {c for line in offered for c in commands.read_as(line)} >= wanted, offered
    for heading in ("Moves:", "Talking to the players:", "The game:", "You:",
                    "Finding games (write to move+games@mail.test):"):
        assert f"  {heading}" in block, block
    for line in ("    vacation 7: 7 days away", "    back: back from vacation (also 收假)",
                 "    digest daily: one mail a day", "    say @Bob Your move!: said to one player only",
                 "    subscribe wakanda: ", "    takeback: ask to take back your last move (also 悔棋)"):
        assert any(x.startswith(line) for x in block), (line, block)
    assert max(len(x) for x in block) <= 110  # a line each: short on a phone

    loaded = service.load(game_id)  # Ann moves: Bob gets his turn mail, to reply to
    answer_to(smtp, mail_in, redis_client, ANN, wording.describe(loaded.game, loaded.game.legal_moves(
        loaded.state, 0)[0], 0, NAMES))
    chinese = answer_to(smtp, mail_in, redis_client, BOB, "說明")
    block = listed(chinese, "  你可以寫的", "  ")
    block = listed(chinese, block[0], "  本局規則")
    offered = [ITEM.match(line).group(1) for line in block if ITEM.match(line)]
    assert {c for line in offered for c in commands.read_as(line)} >= wanted, block
    for line in ("    休假 7：", "    收假：", "    摘要 每天：", "    說 @Ann ", "    訂閱 神聖圖騰柱：", "    悔棋："):
        assert any(x.startswith(line) for x in block), (line, block)
    assert "(also" not in "\n".join(block) and "（也可寫 back）" in "\n".join(block)
    assert subscriptions.game_type("神聖圖騰柱") == "wakanda"  # the example subscribes as written

    choose(redis_client, game_id, 0, lang=PSEUDO)
    pseudo = answer_to(smtp, mail_in, redis_client, ANN, "help")
    block = listed(pseudo, pseudo.split("\n")[0], "  ⟦")  # the answer's head, then the help
    texts = game_texts(service, game_id, NAMES) + NAMES
    command_words = {w for pair in commands.WORDS.values() for part in pair for w in part.split()}
    allowed = command_words | notation_words(texts) | {"wakanda", "zh", "en", "daily", "off"}
    left = english_left(pseudo, texts, allowed)
    assert not left, (left, pseudo)
    assert "move+games@mail.test" in pseudo and block


def test_lines_that_were_misread_now_do_what_they_say(service, redis_client, smtp, mail_in):
    game_id, _keys, _tokens = new_game(service, "wakanda", {"start_player": 0}, title="Evening", names=NAMES)
    run_jobs(redis_client)
    # a chat line that says "accept" says it, and answers no takeback
    body = answer_to(smtp, mail_in, redis_client, ANN, "say accept")
    assert "Said to everyone in the game." in body, body
    assert [m["text"] for m in chat.read(service, game_id, 1)] == ["accept"]
    # "accept" alone is the takeback's answer: nothing is asked
    body = answer_to(smtp, mail_in, redis_client, ANN, "accept")
    assert "no takeback is waiting for an answer" in body, body
    assert not any(takeback.is_meta(e) for _v, e, _m in service.store.events(game_id, 0, service.load(game_id).version))
    # "unsubscribe" in a game's reply says where it works (it was a note, ignored)
    body = answer_to(smtp, mail_in, redis_client, ANN, "unsubscribe")
    assert "not done: announcements of open games are asked for by a mail to move+games@mail.test" in " ".join(
        body.split()), body
    assert "“digest daily”" in body
    # "digest" alone is answered with its choices (it was tried as a move)
    body = answer_to(smtp, mail_in, redis_client, ANN, "digest")
    assert "not done: write “digest daily”, “digest hourly” or “digest off”" in body, body
    steps = [s for entry in MailStore(redis_client).entries(game_id) for s in entry["steps"]]
    assert {"command": "unsubscribe", "ok": False} in steps and {"command": "say accept", "ok": True} in steps

    # the lobby reads a Chinese word with no space after it: a confirmation, in Chinese
    mail_in.send(letter(LOBBY, "訂閱神聖圖騰柱\n", KEN), LOBBY, KEN)
    run_jobs(redis_client)
    assert "如要確認" in text_of(smtp.to(KEN, "subscription")[-1])

    # in a game that is over, "accept" (a takeback's answer) says how a rematch is answered
    over_id, keys, _tokens = new_game(service, "carcassonne", SHORT, "Short", names=NAMES, emails=(CY, DAN))
    finish(service, over_id, keys)
    run_jobs(redis_client)
    body = " ".join(answer_to(smtp, mail_in, redis_client, CY, "accept").split())
    assert "not applied: the game is over, so there is no takeback to answer. To answer a rematch, write " \
           "“rematch” or “no rematch”." in body, body


def test_a_seat_handed_to_a_bot_by_mail(service, redis_client, smtp, mail_in):
    """``bot random`` asks, ``接受機器人`` (accept bot) answers, ``seat back``
    takes the seat back: each a move of the seat's mail, none a takeback's;
    taking back a seat not handed over says why, in the reader's words."""
    game_id, _keys, _tokens = new_game(service, "wakanda", {"start_player": 0}, title="Away", names=NAMES)
    run_jobs(redis_client)

    def events() -> list[str]:
        return [e["type"] for _v, e, _m in service.store.events(game_id, 0, service.load(game_id).version)
                if handover.is_event(e)]
    body = answer_to(smtp, mail_in, redis_client, ANN, "bot random")
    assert "hand my seat to a bot (random)" in body and "not applied" not in body, body
    assert events() == ["HandoverRequested"]
    asked = " ".join(text_of(smtp.to(BOB, "handover_asked")[-1]).split())
    assert "Ann asks that a bot (random) play their seat for a while. Reply with “accept bot” to accept or " \
           "“refuse bot” to refuse" in asked, asked
    body = answer_to(smtp, mail_in, redis_client, BOB, "接受機器人")
    assert "accept the handover" in body and "not applied" not in body, body
    assert events() == ["HandoverRequested", "HandoverAnswered", "SeatHandedOver"]
    assert service.store.seats(game_id)[0]["handed_over"] == "random"
    assert "A bot (random) now plays for Ann." in text_of(smtp.to(ANN, "handover_news")[-1])
    # Ann is away: the turns the bot plays for her are not mailed to her
    turns = len(smtp.to(ANN, "your_turn"))
    loaded = service.load(game_id)
    bob_move = loaded.game.legal_moves(loaded.state, 1)[0] if 1 in loaded.game.to_act(loaded.state) else None
    if bob_move is None:  # Ann's turn: the bot's move for her, then Bob's
        bot = json.loads(redis_client.hget(key(game_id, "bots"), "0"))
        service.submit(game_id, make_envelope(game_id, 0, loaded.version,
                                              loaded.game.legal_moves(loaded.state, 0)[0], bot["private_key"]))
        drain(service)
        run_jobs(redis_client)
        loaded = service.load(game_id)
        bob_move = loaded.game.legal_moves(loaded.state, 1)[0]
    service.submit(game_id, make_envelope(game_id, 1, loaded.version, bob_move, _keys[1]))
    drain(service)
    run_jobs(redis_client)
    assert 0 in service.load(game_id).game.to_act(service.load(game_id).state)
    assert len(smtp.to(ANN, "your_turn")) == turns
    body = answer_to(smtp, mail_in, redis_client, ANN, "seat back")
    assert "take my seat back" in body and "not applied" not in body, body
    assert events()[-1] == "SeatTakenBack" and "bot_key" not in service.store.seats(game_id)[0]
    body = " ".join(answer_to(smtp, mail_in, redis_client, ANN, "seat back").split())
    assert "your seat is not played by a bot: there is nothing to take back" in body, body
    assert events()[-1] == "SeatTakenBack" and len(events()) == 4
