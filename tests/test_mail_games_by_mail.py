"""Whole games played by mail only, one per game: Wakanda, Kachina,
Carcassonne with Inns & Cathedrals, Cartoona's full game and its basic
game. The players are invited by mail, join by replying, and play by
replying to the server's mails; every reply is built by pasting a line that
the player's last mail offered (its examples, or a line of its board that
starts with a legal move's text). Mail goes in by SMTP to the real listener
on loopback and out to the maildir; real worker processes (a move worker
and the idle-priority background worker, as make run has them) do the rest.

Every pasted line is accepted; every mail names the players by their names
(no "seat N" anywhere: the names are distinct); no mail offers notation
for a rule not in play; every turn mail carries the reader's picture. Small
options keep each game short."""
from __future__ import annotations

import json
import random
import re
import time

import pytest

from .mail_players import (KACHINA_ORDER, answer, choose, invite_all, offered_board_lines, offered_examples,
                           reply_address)
from .mail_reader import Maildir, picture_of, png_size, text_of
from .test_mail_in_e2e import failed_jobs
from .test_mail_in_support import mail_env, mail_in, notify_env, smtp  # noqa: F401

CARCASSONNE_ORDER = list("UVWXCBAKLD") + ["IC1", "IC2", "IC5", "IC9"]
OTHER_EXPANSIONS = ("Traders & Builders", "King & Robber", "Cult", "Siege", "Abbey & Mayor", "builder", "pig ",
                    "heretic", "escape", "mayor", "wagon", "barn", "abbey")

#: (game, players, options, phrases no mail may offer: notation of rules not in play, time limit s)
CASES = {
    "wakanda": ("wakanda", 2, {}, (), 120),
    "kachina": ("kachina", 2, {"tile_order": KACHINA_ORDER}, ("discard ",), 120),
    "carcassonne": ("carcassonne", 2, {"expansions": ["inns_cathedrals"], "draw_order": CARCASSONNE_ORDER},
                    OTHER_EXPANSIONS, 120),
    "cartoona_full": ("cartoona", 3, {"target_score": 8}, ("cheat", "kids' game", "solo game"), 240),
    "cartoona_basic": ("cartoona", 2, {"mode": "basic"}, ("play k", "block with", "cheat", "kids' game", "solo game",
                                                          "keep the tile", "instant"), 240),
}
NAMES = ("Ann", "Bob", "Cy")
SEAT_NUMBER = re.compile(r"\b[Ss]eat \d+\b")


def address(name: str) -> str:
    return f"{name.lower()}@example.test"


def version_of(msg) -> int:
    return int(msg["X-Pbem-Version"] or msg["Subject"].rsplit("(v", 1)[1].rstrip(")"))


class Table:
    """The players at one game: what each was sent, read and answered."""

    def __init__(self, game_name, names, forbidden, service, game_id):
        self.game_name, self.names, self.forbidden = game_name, names, forbidden
        self.service, self.game_id = service, game_id
        self.waiting: dict[str, str] = {}     # address -> Message-ID of the reply awaiting its answer
        self.latest: dict[str, object] = {}   # address -> the newest mail offering this player moves
        self.over: set[str] = set()
        self.pasted = 0
        self.mails = 0
        self.helped: set[str] = set()

    def check(self, msg, text: str) -> None:
        """What every mail must be."""
        self.mails += 1
        body = text if msg["X-Pbem-Kind"] != "invitation" else text.split("How moves are written:")[0]
        found = SEAT_NUMBER.findall(body)
        assert not found, f"a mail names seats by number ({found}):\n{msg['Subject']}\n{text}"
        if msg["X-Pbem-Kind"] in ("invitation", "mail_reply"):
            flat = " ".join(text.split()).lower()  # a phrase wrapped over two lines is still there
            for phrase in self.forbidden:
                assert phrase.lower() not in flat, f"notation not in play ({phrase!r}):\n{text}"
        if msg["X-Pbem-Kind"] != "invitation":  # links under PBEM_PUBLIC_URL, never the loopback default
            assert f"page: http://pbem.test/g/{self.game_id}" in text and "127.0.0.1" not in text, text
        if msg["X-Pbem-Kind"] in ("your_turn", "game_over", "may_react"):
            png_size(picture_of(msg)[1])

    def offered(self, msg, text: str) -> list[str]:
        """The lines this mail offers as moves."""
        loaded = self.service.load(self.game_id, version_of(msg))
        seat = self.names.index(next(n for n in self.names if address(n) in str(msg["To"])))
        legal = [loaded.game.describe(m, seat, names=list(self.names))
                 for m in loaded.game.legal_moves(loaded.state, seat)]
        return offered_examples(text) + offered_board_lines(text, legal)


# Time limits per game, and turn mails whose picture must come within PBEM_MAIL_PICTURE_LAG_S
# from an idle-priority worker: latency budgets, run in make test's serial phase (timing).
@pytest.mark.timing
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_whole_game_by_mail_only(case, service, redis_client, mail_in, start_worker, monkeypatch, tmp_path):
    game_name, players, options, forbidden, limit = CASES[case]
    monkeypatch.delenv("SMTP_URL")
    monkeypatch.delenv("PBEM_MAIL_INTERVAL")  # the default interval
    box = Maildir(tmp_path / "maildir")
    workers = [start_worker(scheduler=False, queues=("pbem-moves",)),
               start_worker(queues=("pbem-notify", "pbem-mail"), idle=True)]
    names = NAMES[:players]
    began = time.monotonic()
    game_id = service.create_game(game_name, players, options, f"{case} by mail")["id"]
    invite_all(service, game_id, [(n, address(n)) for n in names])
    table = Table(game_name, names, forbidden, service, game_id)
    rng = random.Random(case)
    by_address = {address(n): n for n in names}
    while len(table.over) < players:
        assert time.monotonic() - began < limit, (f"{case}: not over after {limit} s ({table.pasted} lines "
                                                  f"pasted); failed jobs: {failed_jobs(redis_client)}")
        for worker in workers:
            assert worker.proc.poll() is None, worker.log()[-3000:]
        news = box.new()
        for msg in news:
            to = next(a for a in by_address if a in str(msg["To"]))
            kind, text = msg["X-Pbem-Kind"], text_of(msg)
            table.check(msg, text)
            if kind == "invitation":
                mail_in.send(answer(msg, f"join {by_address[to]}", to), reply_address(msg), to)
            elif kind == "join_reply":
                assert "You have joined the game as " + by_address[to] in text, text
                if to not in table.helped:  # each player reads the help once
                    table.helped.add(to)
                    sent = answer(msg, "help", to)
                    table.waiting[to] = sent["Message-ID"]
                    mail_in.send(sent, reply_address(msg), to)
            elif kind == "mail_reply":
                assert "not applied" not in text and "cannot read" not in text, text
                if table.waiting.get(to) == msg["In-Reply-To"]:
                    del table.waiting[to]
                if "It is your turn." in text:
                    table.latest[to] = max(msg, table.latest.get(to, msg), key=version_of)
            elif kind == "your_turn":
                table.latest[to] = max(msg, table.latest.get(to, msg), key=version_of)
            elif kind == "game_over":
                table.over.add(to)
        for to, msg in list(table.latest.items()):
            if to in table.waiting or to in table.over:
                continue
            del table.latest[to]
            lines = table.offered(msg, text_of(msg))
            assert lines, text_of(msg)
            sent = answer(msg, choose(game_name, lines, rng), to)
            table.waiting[to] = sent["Message-ID"]
            mail_in.send(sent, reply_address(msg), to)
            table.pasted += 1
        if not news:
            time.sleep(0.02)
    took = time.monotonic() - began
    meta = service.store.meta(game_id)
    assert meta["status"] == "finished" and meta["result"]
    steps = [json.loads(line) for line in service.record_lines(game_id, None)][1:-1]
    assert {s["auth"] for s in steps} == {"setup", "mail-token"}  # every move came by mail
    print(f"{case}: {table.pasted} lines pasted, {table.mails} mails read, {took:.1f} s")
