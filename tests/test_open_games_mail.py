"""Announcements of open games by mail (issue 29), end to end: real SMTP in
(the inbound listener) and out (aiosmtpd), a real worker process running
the mail jobs, the API over HTTP. A player subscribes by mail, is
subscribed only once they answer the confirmation (double opt-in), gets
each new open game of that type announced in their language with the
RFC 8058 headers, joins a seat by replying ``join`` and the game starts;
the one-click unsubscribe link ends the announcements; an unknown game
type, a confirmation nobody asked for and a private game announce nothing."""
from __future__ import annotations

import smtplib
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid, parseaddr

import pytest

from pbem.trust.signing import generate_key

from .conftest import api_server, wait_until  # noqa: F401
from .test_mail_in_support import mail_env, mail_in, reply, text_of  # noqa: F401
from .test_notify_support import notify_env, smtp  # noqa: F401

pytestmark = pytest.mark.timeout(180)
LOBBY = "move+games@mail.test"
AMY, BEN, DEE = "amy@example.test", "ben@example.test", "dee@example.test"


def letter(to: str, body: str, from_addr: str) -> EmailMessage:
    msg = EmailMessage(policy=SMTP)
    msg["From"], msg["To"], msg["Subject"] = from_addr, to, "hello"
    msg["Message-ID"] = make_msgid(domain="example.test")
    msg.set_content(body)
    return msg


def arrives(smtp, address: str, kind: str, count: int = 1) -> EmailMessage:
    """The ``count``-th mail of ``kind`` to ``address``, once the worker sent it."""
    return wait_until(lambda: smtp.to(address, kind)[count - 1] if len(smtp.to(address, kind)) >= count
                      else None, timeout=60)  # the worker runs on idle CPU only: slow under a busy suite


def test_subscribe_confirm_announce_join_and_unsubscribe_by_mail(mail_env, api_server, http, redis_client, smtp,
                                                                mail_in, start_worker, browser, screenshots):
    start_worker(queues=("pbem-mail", "pbem-notify"), idle=True)
    url = api_server.url
    # Amy subscribes to Wakanda in English, Ben in Chinese; an unknown type is answered so.
    mail_in.send(letter(LOBBY, "subscribe wakanda\n", AMY), LOBBY, AMY)
    mail_in.send(letter(LOBBY, "訂閱 神聖圖騰柱\n", BEN), LOBBY, BEN)
    mail_in.send(letter(LOBBY, "subscribe chess\n", "cy@example.test"), LOBBY, "cy@example.test")
    unknown = arrives(smtp, "cy@example.test", "subscription")
    assert "pbem has no game “chess”" in text_of(unknown) and "wakanda" in text_of(unknown)
    ask_amy = arrives(smtp, AMY, "subscription")
    ask_ben = arrives(smtp, BEN, "subscription")
    assert "To confirm, reply to this mail" in text_of(ask_amy) and "如要確認，請在兩天內回覆這封信" in text_of(ask_ben)
    # Dee asks by the API (in Chinese, the game named by its Chinese title) and never confirms.
    asked = http.post(f"{url}/subscriptions", json={"email": DEE, "game": "神聖圖騰柱", "lang": "zh-Hant"})
    assert asked.status_code == 202 and asked.json()["status"] == "confirmation_sent", asked.text
    assert asked.json()["game"] == "wakanda"
    assert "如要確認" in text_of(arrives(smtp, DEE, "subscription"))
    # Not confirmed yet: a new open game is announced to nobody.
    early = http.post(f"{url}/games", json={"game": "wakanda", "players": 2, "open": True}).json()
    # A confirmation address altered (one nobody was sent) is refused at RCPT: it subscribes nobody.
    good = parseaddr(str(ask_amy["Reply-To"]))[1]
    forged = good[:-len("@mail.test") - 1] + ("a" if good[-len("@mail.test") - 1] != "a" else "b") + "@mail.test"
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        mail_in.send(letter(forged, "yes\n", "eve@example.test"), forged, "eve@example.test")
    # They confirm by replying.
    for ask, who in ((ask_amy, AMY), (ask_ben, BEN)):
        to = parseaddr(str(ask["Reply-To"]))[1]
        mail_in.send(reply(ask, "yes", who), to, who)
    welcome = arrives(smtp, AMY, "subscription", 2)
    assert "You will get a mail each time a new open game of Wakanda" in text_of(welcome)
    arrives(smtp, BEN, "subscription", 2)
    # The same confirmation again: nothing more (it is used up).
    mail_in.send(reply(ask_amy, "yes again", AMY), parseaddr(str(ask_amy["Reply-To"]))[1], AMY)

    # A private game is announced to nobody; an open one to both, each in their language.
    http.post(f"{url}/games", json={"game": "wakanda", "players": 2, "title": "Private"})
    game = http.post(f"{url}/games", json={"game": "wakanda", "players": 2, "open": True,
                                           "title": "Evening garden"}).json()
    public = generate_key()[1]
    assert http.post(f"{url}/games/{game['id']}/seats/0", json={"public_key": public, "name": "Ann"}).status_code \
        == 201
    news = arrives(smtp, AMY, "announcement")
    zh = arrives(smtp, BEN, "announcement")
    assert len(smtp.to(AMY, "announcement")) == 1 and early["id"] not in str(news["Subject"])
    assert "Evening garden" in str(news["Subject"]) and "New open game of Wakanda" in str(news["Subject"])
    assert "神聖圖騰柱" in str(zh["Subject"]) and "加入" in text_of(zh)
    assert news["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = "".join(str(news["List-Unsubscribe"]).split()).strip("<>")  # (folded: a long header)
    assert link.startswith("http://pbem.test/unsubscribe/u.wakanda.") and link in text_of(news)

    # Amy replies "join Amy": she takes the free seat by mail and the game starts.
    to = parseaddr(str(news["Reply-To"]))[1]
    mail_in.send(reply(news, "join Amy", AMY), to, AMY)
    joined = arrives(smtp, AMY, "join_reply")
    assert "You sit at seat 1" in text_of(joined)
    shown = wait_until(lambda: (lambda g: g if g["status"] == "active" else None)(
        http.get(f"{url}/games/{game['id']}").json()))
    assert [s["name"] for s in shown["seats"]] == ["Ann", "Amy"]
    # Ben is too late: told so, in Chinese, and nothing changed.
    mail_in.send(reply(zh, "加入", BEN), parseaddr(str(zh["Reply-To"]))[1], BEN)
    late = arrives(smtp, BEN, "join_reply")
    assert "遊戲已經開始" in text_of(late) or "已經開始" in text_of(late)

    # One click on the link's page ends Amy's announcements (a browser at 390 px); a mail client's one-click
    # (RFC 8058's POST) ends Ben's. A GET of the link ends nothing; an altered link is refused.
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{url}{link.removeprefix('http://pbem.test')}")
    assert "Wakanda" in page.inner_text("main") and page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(screenshots / "unsubscribe-390-en.png"), full_page=True)
    page.click("#unsubscribe")
    page.wait_for_selector("#done")
    page.screenshot(path=str(screenshots / "unsubscribed-390-en.png"), full_page=True)
    ben_link = "".join(str(zh["List-Unsubscribe"]).split()).strip("<>").removeprefix("http://pbem.test")
    page.goto(f"{url}{ben_link}")
    assert "停止神聖圖騰柱的通知" in page.inner_text("#unsubscribe")
    page.screenshot(path=str(screenshots / "unsubscribe-390-zh-Hant.png"), full_page=True)
    context.close()
    assert http.get(f"{url}{ben_link}").status_code == 200                   # still subscribed: a GET ends nothing
    altered = ben_link.replace(".", ".x", 1)
    assert http.get(f"{url}{altered}").status_code == 404 and http.post(f"{url}{altered}").status_code == 404
    done = http.post(f"{url}{ben_link}", data={"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200 and 'id="done"' in done.text
    assert redis_client.hlen("pbem:subs:type:wakanda") == 0
    later = http.post(f"{url}/games", json={"game": "wakanda", "players": 2, "open": True, "title": "Later"}).json()
    jobs_done(redis_client)
    assert redis_client.hlen(f"pbem:{{g:{later['id']}}}:mail:announced") == 0
    assert len(smtp.to(AMY, "announcement")) == 1 and len(smtp.to(BEN, "announcement")) == 1
    assert smtp.to(DEE, "announcement") == []  # never confirmed: never announced to


def jobs_done(client) -> None:
    """Wait until the worker has run every mail job queued."""
    from rq import Queue
    from rq.registry import StartedJobRegistry
    queue = Queue("pbem-mail", connection=client)
    wait_until(lambda: queue.count == 0 and StartedJobRegistry(queue=queue).count == 0, timeout=20)


def test_the_announcement_and_confirmation_leave_no_english_in_the_pseudo_locale(notify_env, service, smtp):
    """Every text of the new mails comes from the catalogs (the pseudo-locale
    wraps each): only the names, addresses, links and the command word stay."""
    from pbem.mail_in import subscriptions
    from pbem.notify.config import NotifySettings

    from .pseudo_support import leftover_english

    conf = NotifySettings()
    asked = subscriptions.ask(service.store.redis, conf, 3, AMY, "wakanda", "x-pseudo")
    assert asked["status"] == "confirmation_sent"
    subscriptions.Subscribers(service.store.redis).add("wakanda", {"email": AMY, "lang": "x-pseudo", "since": 0})
    game = service.create_game("wakanda", 2, {"hidden_held_pieces": True}, "Garden", listed=True)["id"]
    assert subscriptions.announce(service, game, conf) == 1
    for kind in ("subscription", "announcement"):
        mail = smtp.to(AMY, kind)[-1]
        text = text_of(mail) + "\n" + str(mail["Subject"])
        assert "⟦" in text
        assert leftover_english(text, ["Garden", game, "pbem", "http://pbem.test", "wakanda"], ["join"]) == [], kind


def test_an_announcement_the_relay_refuses_is_sent_again_later(notify_env, service, smtp, redis_client,
                                                                monkeypatch):
    """An announcement goes through the same retrying outbox as the
    answers to replies (pbem/mail_in/outbox.py): refused by the relay, it
    is kept and a pbem-mail job scheduled; once the relay is back it goes,
    once, with its one-click unsubscribe headers; the game is announced to
    that subscriber once (announce run again sends nothing)."""
    from rq import Queue
    from rq.job import Job
    from rq.registry import ScheduledJobRegistry

    from pbem.mail_in import QUEUE as MAIL_QUEUE, subscriptions
    from pbem.mail_in.outbox import send_answer
    from pbem.notify.config import NotifySettings
    from pbem.server.embedded_redis import free_port

    subscriptions.Subscribers(service.store.redis).add("wakanda", {"email": AMY, "lang": "en", "since": 0})
    game = service.create_game("wakanda", 2, {}, "Garden", listed=True)["id"]
    monkeypatch.setenv("SMTP_URL", f"smtp://127.0.0.1:{free_port()}")  # the relay is down
    assert subscriptions.announce(service, game, NotifySettings()) == 0
    assert smtp.to(AMY, "announcement") == []
    registry = ScheduledJobRegistry(queue=Queue(MAIL_QUEUE, connection=redis_client))
    jobs = [j for j in (Job.fetch(i, connection=redis_client) for i in registry.get_job_ids())
            if j.func_name.endswith(".send_answer")]
    assert len(jobs) == 1 and jobs[0].args[1] == 2
    monkeypatch.setenv("SMTP_URL", smtp.url)  # back
    assert subscriptions.announce(service, game, NotifySettings()) == 0  # announced once: not again
    assert send_answer(redis_client, jobs[0].args[0], 2) == "sent"
    assert send_answer(redis_client, jobs[0].args[0], 2) == "gone"
    got = smtp.to(AMY, "announcement")
    assert len(got) == 1 and "Garden" in str(got[0]["Subject"])
    assert got[0]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click" and got[0]["List-Unsubscribe"]
