"""Mails in their reader's language, through real SMTP (aiosmtpd) and the
inbound listener on loopback: a game with a seat that reads Traditional
Chinese and one that reads English gets each seat's turn mail (subject,
text, HTML, picture) and each answer in its own language, deadlines in its
own zone, Chinese names and titles RFC 2047-encoded in the headers; a
"謝謝" under a move is answered as a note that was ignored, in Chinese, and
the move is applied; a refusal quotes full-width text as it was typed.

The seats' languages are written into their JSON in the seats hash (the
contract: a seat's ``lang`` and ``tz``, the game meta's ``lang``), as the
API that chooses them will."""
from __future__ import annotations

import base64
import json
import re
from email import message_from_bytes
from email.header import decode_header, make_header
from email.policy import default as default_policy

from pbem.games.i18n import CHINESE, ENGLISH, reading
from pbem.notify.store import NotifyStore
from pbem.store.keys import key
from pbem.when import when

from .mail_reader import picture_of
from .test_mail_in_support import mail_env, mail_in, notify_env, reply, reply_address, run_jobs, smtp  # noqa: F401
from .test_notify_support import new_game

XIAOMING, BOB = "小明", "Bob"
TITLE = "週末的遊戲"
ZH_HEADING = "你現在可以做的動作，例如："


def choose(redis_client, game_id: str, seat: int, **chosen) -> None:
    """A seat's choices, stored as the seat API stores them (its JSON in the seats hash)."""
    raw = redis_client.hget(key(game_id, "seats"), str(seat))
    redis_client.hset(key(game_id, "seats"), str(seat), json.dumps({**json.loads(raw), **chosen}))


def text_of(msg) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def html_of(msg) -> str:
    return msg.get_body(("html",)).get_content().replace("\r\n", "\n")


def raw_head(smtp, msg) -> bytes:
    raw = next(m["raw"] for m in smtp.messages if m["msg"]["Message-ID"] == msg["Message-ID"])
    return raw.split(b"\r\n\r\n", 1)[0]


def listed(text: str, heading: str) -> list[str]:
    """The lines a mail lists under ``heading``."""
    lines = text.split("\n")
    start = lines.index(heading) + 1
    out = []
    for line in lines[start:]:
        if not line.startswith("  "):
            break
        out.append(line.strip())
    return out


def words(text: str) -> str:
    return " ".join(text.split())


def two_readers(service, redis_client):
    """Wakanda: seat 0 小明 reads Chinese (Taipei's time, the language's own),
    seat 1 Bob reads English in Paris; turns have a deadline."""
    game_id, keys, _ = new_game(service, "wakanda", {"start_player": 0}, title=TITLE, names=(XIAOMING, BOB))
    choose(redis_client, game_id, 0, lang=CHINESE)
    choose(redis_client, game_id, 1, lang=ENGLISH, tz="Europe/Paris")
    NotifyStore(redis_client).save_game_settings(game_id, {"turn_seconds": 3600, "default_action": "pass"})
    run_jobs(redis_client)
    return game_id, keys


def test_each_seat_reads_its_mails_in_its_own_language(service, redis_client, smtp, mail_in):
    game_id, _ = two_readers(service, redis_client)
    loaded = service.load(game_id)
    game, names = loaded.game, [XIAOMING, BOB]

    # 小明's turn mail: Chinese from the subject to the picture's alt text
    turn = smtp.to("p0@example.test", "your_turn")[-1]
    assert turn["Subject"] == f"[pbem] {TITLE}: 輪到你了 (v{loaded.version})"
    assert turn["Content-Language"] == CHINESE
    head = raw_head(smtp, turn)
    head.decode("ascii")  # every header ASCII on the wire: the Chinese is RFC 2047-encoded UTF-8
    subject_line = re.search(rb"^Subject:(.*(?:\r\n[ \t].*)*)", head, re.M).group(1)
    to_line = re.search(rb"^To:(.*(?:\r\n[ \t].*)*)", head, re.M).group(1)
    assert b"=?utf-8?" in subject_line.lower() and b"=?utf-8?" in to_line.lower()
    assert str(make_header(decode_header(subject_line.decode()))).strip() == turn["Subject"]
    reread = message_from_bytes(head + b"\r\n\r\n", policy=default_policy)
    assert reread["To"].addresses[0].display_name == XIAOMING
    assert reread["To"].addresses[0].addr_spec == "p0@example.test"
    text = text_of(turn)
    assert text.startswith(f"「{TITLE}」（神聖圖騰柱），第{loaded.version}版，給{XIAOMING}\n")
    assert "\n輪到你了。\n" in text and "\n你看到的盤面：\n" in text and ZH_HEADING in text
    assert "It is your turn" not in text and "The board as you see it" not in text and "Deadline" not in text
    deadline = NotifyStore(redis_client).deadline(game_id, 0)["at"]
    assert f"期限：{when(deadline, None, CHINESE)}" in text and "台北標準時間" in text
    assert f"遊戲頁面：http://pbem.test/g/{game_id}" in text and "在瀏覽器中行動：http://pbem.test/play/" in text
    with reading(CHINESE):  # the game's texts, built in the reader's language too
        board = game.render(loaded.state, 0, names=names)
        offered = [game.describe(m, 0, names=names) for m in game.legal_moves(loaded.state, 0)]
    assert board in text
    examples = listed(text, ZH_HEADING)
    assert examples and set(examples) <= set(offered)
    page = html_of(turn)
    assert '<html lang="zh-Hant">' in page and "輪到你了" in page and 'alt="你看到的盤面"' in page
    assert "遊戲頁面</a>" in page and "It is your turn" not in page

    # 小明 answers with a move and a thank-you under it: the move is applied, the note said to be ignored
    version = loaded.version
    mail_in.send(reply(turn, f"{examples[0]}\n謝謝", "p0@example.test"), reply_address(turn), "p0@example.test")
    run_jobs(redis_client)
    assert service.load(game_id).version > version
    answer = smtp.to("p0@example.test", "mail_reply")[-1]
    body = text_of(answer)
    assert answer["Subject"] == f"[pbem] {TITLE}: 已執行1個動作 (v{service.load(game_id).version})"
    assert f"> {examples[0]}\n  已執行：{examples[0]}（現在是第" in body
    assert "> 謝謝\n  （這不是指令：視為附註，已略過）\n" in body
    assert "未執行" not in body and "not applied" not in body and "cannot read" not in body
    assert f"等待{BOB}。" in body  # the footer, in Chinese too


    # Bob's turn mail: English, his deadline in his own zone, 小明's name as it is written
    bobs = smtp.to("p1@example.test", "your_turn")[-1]
    now = service.load(game_id)
    assert bobs["Subject"] == f"[pbem] {TITLE}: your turn (v{now.version})"
    assert bobs["Content-Language"] == ENGLISH
    bob_text = text_of(bobs)
    assert "\nIt is your turn.\n" in bob_text and "\nWhat you may do now, for example:\n" in bob_text
    assert XIAOMING in bob_text and "輪到你" not in bob_text and "盤面" not in bob_text
    bob_deadline = NotifyStore(redis_client).deadline(game_id, 1)["at"]
    assert f"Deadline: {when(bob_deadline, 'Europe/Paris', ENGLISH)}" in bob_text and "Europe/Paris" in bob_text
    assert '<html lang="en">' in html_of(bobs) and "The game&#x27;s page</a>" in html_of(bobs)
    with reading(ENGLISH):
        assert game.render(now.state, 1, names=names) in bob_text
    # an English reader's greeting under a command: a note, in English
    mail_in.send(reply(bobs, "board\nCheers, Bob", "p1@example.test"), reply_address(bobs), "p1@example.test")
    run_jobs(redis_client)
    bob_answer = text_of(smtp.to("p1@example.test", "mail_reply")[-1])
    assert "> Cheers, Bob\n  (no command: taken for a note and ignored)\n" in bob_answer
    assert "not applied" not in bob_answer


def test_a_refused_full_width_line_is_quoted_as_typed(service, redis_client, smtp, mail_in):
    game_id, _ = two_readers(service, redis_client)
    turn = smtp.to("p0@example.test", "your_turn")[-1]
    version = service.load(game_id).version
    typed = "ｃｌａｉｍ　９"  # a phone's full-width keyboard; there is no village 9
    mail_in.send(reply(turn, f"{typed}\n謝謝", "p0@example.test"), reply_address(turn), "p0@example.test")
    run_jobs(redis_client)
    assert service.load(game_id).version == version
    answer = smtp.to("p0@example.test", "mail_reply")[-1]
    body = text_of(answer)
    assert answer["Subject"] == f"[pbem] {TITLE}: 未執行 (v{version})"
    assert f"> {typed}\n" in body  # the line as it was typed
    assert f"未執行：「{typed}」無法讀成一個動作：" in body
    assert "\\u3000" not in body and "'ｃｌａｉｍ" not in body and "\\uff" not in body  # never a Python repr
    assert "以下沒有嘗試" not in body  # a note below is nothing left untried

    # a line that reads, but the rules refuse: quoted as typed too; the Chinese command words work
    loaded = service.load(game_id)
    legal = {loaded.game.describe(m, 0, names=[XIAOMING, BOB]) for m in loaded.game.legal_moves(loaded.state, 0)}
    village = next(v for v in range(1, 7) if f"claim {v}" not in legal)
    typed = f"ｃｌａｉｍ　{chr(ord('０') + village)}"
    mail_in.send(reply(turn, f"盤面\n{typed}", "p0@example.test"), reply_address(turn), "p0@example.test")
    run_jobs(redis_client)
    body = text_of(smtp.to("p0@example.test", "mail_reply")[-1])
    assert service.load(game_id).version == version
    assert "> 盤面\n  你看到的盤面在本信最後。\n" in body
    assert f"> {typed}\n  未執行：「{typed}」：" in body and "\\u3000" not in body, body


def test_a_game_in_chinese_is_read_in_chinese_by_a_seat_that_chose_nothing(service, redis_client, notify_env, smtp):
    game_id, _, _ = new_game(service, "wakanda", {"start_player": 0}, title="Evening", names=("Ann", "Bob"))
    redis_client.hset(key(game_id, "meta"), "lang", CHINESE)  # the game's language (POST /games lang)
    choose(redis_client, game_id, 1, lang=ENGLISH)  # a seat's own choice wins over it
    run_jobs(redis_client)
    turn = smtp.to("p0@example.test", "your_turn")[-1]
    assert turn["Subject"].endswith(": 輪到你了 (v%d)" % service.load(game_id).version)
    assert "輪到你了。" in text_of(turn) and "沒有期限。" in text_of(turn)  # no deadline: said so


def test_a_chinese_turn_mail_reads_on_a_phone_and_a_desktop(service, redis_client, smtp, mail_in, browser,
                                                            screenshots):
    """The HTML part as a mail client shows it (its picture inline), at a
    phone's width and a desktop's: nothing wider than the screen (the
    picture shrinks, a wide board scrolls in its own box), its language
    said. Screenshots: test-artifacts/screenshots/<this test>/."""
    game_id, _ = two_readers(service, redis_client)
    turn = smtp.to("p0@example.test", "your_turn")[-1]
    cid, png = picture_of(turn)
    page = html_of(turn).replace(f"cid:{cid}", "data:image/png;base64," + base64.b64encode(png).decode())
    (screenshots / "turn-zh.html").write_text(page)  # to open in a browser with Chinese fonts
    for width in (390, 1280):
        tab = browser.new_page(viewport={"width": width, "height": 900})
        try:
            tab.set_content(page)
            tab.wait_for_function("document.images.length && [...document.images].every(i => i.complete)")
            seen = tab.evaluate("""() => ({lang: document.documentElement.lang,
                scroll: document.scrollingElement.scrollWidth, view: window.innerWidth,
                image: document.images[0].getBoundingClientRect().width,
                natural: document.images[0].naturalWidth, title: document.querySelector('h1').textContent,
                widest: Math.max(...[...document.body.querySelectorAll('*')].map(
                    e => e.getBoundingClientRect().right))})""")
            tab.screenshot(path=str(screenshots / f"turn-zh-{width}.png"), full_page=True)
        finally:
            tab.close()
        assert seen["lang"] == CHINESE and "輪到你了" in seen["title"], seen
        assert seen["scroll"] <= seen["view"] and seen["widest"] <= seen["view"], seen  # no sideways scrolling
        assert 0 < seen["image"] <= min(seen["natural"], seen["view"]), seen
