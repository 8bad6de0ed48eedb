"""The play link (``pbem.trust.play_links.play_link``) in every turn mail, text and
HTML, read back from the maildir: it names the reader's own seat, expires
at the turn's deadline (else after the link's default lifetime), and an
answer that is a turn mail (the seat may act now) carries it too, one that
is not does not."""
from __future__ import annotations

import json
import re
import time

from pbem.notify.config import NotifySettings
from pbem.notify.kinds import YOUR_TURN
from pbem.notify.notifier import Notifier
from pbem.notify.store import NotifyStore
from pbem.trust import play_links as web_links

from .conftest import drain
from .mail_reader import Maildir, html_of, text_of
from .test_mail_in_support import mail_env, mail_in, notify_env, run_jobs, smtp  # noqa: F401
from .test_mail_pictures import fresh, reply_address_of
from .test_notify_support import new_game, submit

SECRET = b"test-secret"


def play_link_of(msg) -> tuple[str, int, int]:
    """The play link a mail's text shows, as the server reads it back; the
    HTML links to the same address."""
    found = re.findall(r"^Play from your browser: (http://pbem\.test/play/(\S+))$", text_of(msg), re.M)
    assert len(found) == 1, text_of(msg)
    url, token = found[0]
    assert f'href="{url}"' in html_of(msg)
    return web_links.read_token(SECRET, token)


def test_turn_mails_and_turn_answers_carry_the_seats_play_link(service, redis_client, mail_env, mail_in,
                                                               monkeypatch, tmp_path):
    monkeypatch.delenv("SMTP_URL")
    box = Maildir(tmp_path / "maildir")
    game_id, keys, _ = new_game(service, "wakanda", {"start_player": 0}, names=("Ann", "Bob"))
    run_jobs(redis_client)
    turn = box.to("p0@example.test", "your_turn")[-1]
    seen_game, seat, expires = play_link_of(turn)
    assert (seen_game, seat) == (game_id, 0)
    assert abs(expires - (time.time() + web_links.DEFAULT_TTL_S)) < 120
    # with a deadline, the link lasts as long as the turn
    NotifyStore(redis_client).save_game_settings(game_id, {"turn_seconds": 3600, "default_action": "pass"})
    loaded = service.load(game_id)
    submit(service, game_id, 0, keys, loaded.game.legal_moves(loaded.state, 0)[0], loaded.version)
    drain(service)
    run_jobs(redis_client)
    bob = box.to("p1@example.test", "your_turn")[-1]
    deadline = NotifyStore(redis_client).deadline(game_id, 1)["at"]
    assert play_link_of(bob)[1:] == (1, int(deadline))
    # an answer while it is the reader's turn is a turn mail: the link; Ann's answer, waiting: none
    for seat, address in ((1, "p1@example.test"), (0, "p0@example.test")):
        mail_in.send(fresh(reply_address_of(game_id, seat), "board", address), reply_address_of(game_id, seat),
                     address)
    run_jobs(redis_client)
    assert play_link_of(box.to("p1@example.test", "mail_reply")[-1])[:2] == (game_id, 1)
    waiting = box.to("p0@example.test", "mail_reply")[-1]
    assert "Waiting for Bob." in text_of(waiting) and "/play/" not in text_of(waiting) + html_of(waiting)
    # the mail links to the game's page for people, not the API's JSON
    assert f"The game's page: http://pbem.test/g/{game_id}" in text_of(turn) and f"/games/{game_id}\n" not in text_of(turn)


def test_webhooks_never_carry_the_play_link(service, redis_client, notify_env):
    game_id, keys, _ = new_game(service, "wakanda", {"start_player": 0}, names=("Ann", "Bob"))
    notifier = Notifier(service, NotifySettings())
    notice = notifier.notice(service.load(game_id), 0, YOUR_TURN)
    assert "/play/" in notice.links["play"]  # the mail's
    payload = notice.as_payload()  # what a webhook delivery sends
    assert "play" not in payload["links"] and "/play/" not in json.dumps(payload)
    assert payload["links"]["game"] == f"http://pbem.test/games/{game_id}"
