"""A person plays by mail against a bot, one game of each (Wakanda, Kachina,
Carcassonne, Cartoona): a real server (``python -m pbem.server.run``, its bot
process under the supervisor), real SMTP in, the maildir out. The person
answers each turn mail with a line it offers; the bot plays its seat through
the public API, its moves signed with its key."""
from __future__ import annotations

import json
import random
import smtplib
import time

import pytest

from pbem.client import Client

from .mail_players import KACHINA_ORDER, answer, choose, offered_examples, reply_address
from .mail_reader import Maildir, text_of
from .run_support import bot_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from bot_server(tmp_path_factory, "bots-by-mail")


#: One game of each with a person playing by mail against a bot: (game, options), small options
#: (a short draw order, a low target) so that each ends in a few dozen mails.
BY_MAIL = {
    "wakanda": ("wakanda", {}),
    "kachina": ("kachina", {"tile_order": KACHINA_ORDER}),
    "carcassonne": ("carcassonne", {"draw_order": list("UVWXCBAKLD")}),
    "cartoona": ("cartoona", {"target_score": 8}),
}


@pytest.mark.parametrize("case", sorted(BY_MAIL))
def test_a_person_plays_by_mail_against_a_bot(server, case):
    game_name, options = BY_MAIL[case]
    box = Maildir(server.data / "maildir")
    box.new()
    c = Client(server.base)
    ann = f"ann-{case}@example.test"
    created = c.create_game(game_name, 2, options, invitations=[{"email": ann, "seat": 0, "name": "Ann"}],
                            bots={1: "random"})
    assert [s["bot"] for s in created["seats"]] == [None, "random"]
    rng = random.Random(case)
    began, replies, turns = time.monotonic(), 0, 0
    smtp = smtplib.SMTP("127.0.0.1", server.mail_port, timeout=10)
    try:
        over = False
        while not over:
            assert time.monotonic() - began < 150, f"not over after {replies} replies"
            try:
                news = box.wait_for(lambda m: ann in str(m["To"]), timeout=30)
            except AssertionError:
                raise AssertionError(f"{c.game(created['id'])}\n{server.output()[-3000:]}") from None
            offers = []  # the mails that say it is Ann's turn; the newest is answered
            for msg in news:
                if ann not in str(msg["To"]):
                    continue
                kind, text = msg["X-Pbem-Kind"], text_of(msg)
                if kind == "invitation":
                    sent = answer(msg, "join Ann", ann)
                    smtp.send_message(sent, from_addr=ann, to_addrs=[reply_address(msg)])
                elif kind == "game_over":
                    over = True
                elif kind == "your_turn" or (kind == "mail_reply" and "It is your turn." in text):
                    # A reply the bot overtook (in Cartoona it may play an Instant card into
                    # the person's turn) is refused as stale, and its answer offers the moves anew.
                    assert "not applied" not in text or "your mail answers version" in text, text
                    assert "Bot (random)" in text, text
                    offers.append(msg)
            if offers and not over:
                turns += 1
                msg = max(offers, key=lambda m: int(m["X-Pbem-Version"] or 0))
                lines = offered_examples(text_of(msg))
                assert lines, text_of(msg)
                sent = answer(msg, choose(game_name, lines, rng), ann)
                smtp.send_message(sent, from_addr=ann, to_addrs=[reply_address(msg)])
                replies += 1
    finally:
        smtp.quit()
    final = c.game(created["id"])
    assert final["status"] == "finished" and turns >= 3
    steps = [json.loads(line) for line in c.record(created["id"]).splitlines()[1:] if "move_id" in line]
    by_seat = {}
    for step in steps:
        if step.get("envelope"):
            by_seat.setdefault(step["envelope"]["player"], set()).add(step["auth"])
    assert by_seat == {0: {"mail-token"}, 1: {"ed25519"}}
    print(f"{case}: {replies} replies, {time.monotonic() - began:.1f} s")
