"""Whole games played by mail only by players who read Traditional Chinese,
one per game (the same games as tests/test_mail_games_by_mail.py): the game
is created in ``zh-Hant``, its players have Chinese names, answer their
invitations with ``加入``, and reply by pasting a line their last mail
offered, in Chinese notation. Real SMTP in and a maildir out, real worker
processes.

Every pasted line is accepted, and no mail has an English word left: once
the players' names, the addresses, the links and the game's id (and the ``[pbem]`` that opens every subject) are taken
out, what remains of each mail (subject, text part and HTML part) is
Chinese, digits, coordinates and the notation's own short marks.

Unlike the English games these carry no latency budget (those are measured
once, in make test's serial phase); they run with the rest of the suite."""
from __future__ import annotations

import html
import json
import random
import re
import time

import pytest

from pbem.games.i18n import CHINESE, _, reading

from .mail_players import answer, board_of, invite_all, offered_board_lines, offered_examples, reply_address
from .mail_reader import Maildir, picture_of, png_size, text_of
from .test_mail_games_by_mail import CASES, address, choose, version_of
from .test_mail_in_e2e import failed_jobs
from .test_mail_in_support import mail_env, mail_in, notify_env, smtp  # noqa: F401
from .test_mail_languages import html_of

NAMES = ("小明", "阿美", "大雄")
ADDRESSES = {"小明": "ming@example.test", "阿美": "mei@example.test", "大雄": "hsiung@example.test"}
TITLE = "週末的遊戲"
# An English word: two Latin letters or more, not inside an address, a link or a path.
_WORD = re.compile(r"(?<![\w/.#@=%&?-])[A-Za-z]{2,}(?![\w/@=%&?-])")
_LINK = re.compile(r"https?://\S+|<[^>]*@[^>]*>|[\w.+-]+@[\w.-]+")
# The command an invitation offers, typed as it is in every language (its name placeholder is the reader's).
# The help's own marks: placeholders (kN, tN, rR), edges and half edges (N, NL, SR), and the
# English synonyms it lists on purpose ("place = 放置": both languages are read).
_MARK = re.compile(r"^(?:[a-z][A-Z]|[NESW][LR]?)$")
_SYNONYM = re.compile(r"[A-Za-z][A-Za-z ]* = ")
_COMMAND = re.compile(r"pbem join \S+ \d+ --name \S+ --invitation \S+")


def english_left(text: str, game_id: str, notation: set[str]) -> list[str]:
    """The English words of a mail's text once names, links and the game's
    id are gone; ``notation``: the Latin marks the Chinese notation keeps
    (a tile's or a rotation's letters), allowed."""
    text = _COMMAND.sub(" ", _LINK.sub(" ", text)).replace(game_id, " ").replace("[pbem]", " ")
    text = _SYNONYM.sub(" ", text)
    return [w for w in _WORD.findall(text) if w.lower() not in notation and not _MARK.match(w)]


def visible_html(part: str) -> str:
    """An HTML part's words as a reader sees them (tags, styles and attributes gone, alt texts kept)."""
    part = re.sub(r"(?s)<style.*?</style>", " ", part)
    alts = " ".join(re.findall(r'alt="([^"]*)"', part))
    return html.unescape(re.sub(r"<[^>]+>", " ", part) + " " + alts)


def latin_marks(lines: list[str]) -> set[str]:
    """The Latin words of Chinese move lines: the notation's marks (a tile
    letter such as ``IC1``, ``r90``), which stay as they are in every language."""
    return {w.lower() for t in lines for w in re.findall(r"[A-Za-z]{2,}", t)}


#: Cartoona's command words in Chinese (pbem/games/cartoona/notation.py), for the players heading for the target.
CARTOONA_WORDS = {"score": "計分", "place": "擺放", "play": "出牌", "discard": "棄置", "pass": "跳過",
                  "end turn": "結束回合"}


def choose_chinese(game_name: str, lines: list[str], rng: random.Random) -> str:
    """What tests/test_mail_games_by_mail.py's players pick, read in Chinese."""
    if game_name != "cartoona":
        return choose(game_name, lines, rng)
    english = {}
    for line in lines:
        for word, chinese in CARTOONA_WORDS.items():
            if line.startswith(chinese):
                english[word + line[len(chinese):]] = line
    picked = choose(game_name, list(english) or lines, rng)
    return english.get(picked, picked)


def refused(text: str) -> bool:
    with reading(CHINESE):
        return _("not applied") in text or _("not applied: {move} does not read as a move: {reason}.",
                                             move="", reason="")[:4] in text


def overtaken(text: str) -> bool:
    """A reply overtaken by another seat's move (Cartoona's out-of-turn cards
    answer windows while the others read their mails): refused as it must be."""
    with reading(CHINESE):
        said = [_("not applied: {move}: your mail answers version {version}, but the game is at version {now}, "
                  "and what you decide now is not what you decided then.", move="\0", version="\0", now="\0"),
                _("not applied: {move}: your mail answers version {version}, but the game is at version {now}, "
                  "and it is no longer your turn.", move="\0", version="\0", now="\0")]
    return any(s.split("\0")[1].strip() and s.split("\0")[1] in text for s in said)


class ChineseTable:
    def __init__(self, case, names, service, game_id):
        self.case, self.names, self.service, self.game_id = case, names, service, game_id
        self.waiting: dict[str, str] = {}
        self.latest: dict[str, object] = {}
        self.over: set[str] = set()
        self.pasted = self.mails = 0
        self.marks: set[str] = set()

    def legal_texts(self, msg) -> list[str]:
        loaded = self.service.load(self.game_id, version_of(msg))
        seat = next(i for i, n in enumerate(self.names) if ADDRESSES[n] in str(msg["To"]))
        with reading(CHINESE):
            return [loaded.game.describe(m, seat, names=list(self.names))
                    for m in loaded.game.legal_moves(loaded.state, seat)]

    def check(self, msg) -> None:
        self.mails += 1
        text = text_of(msg)
        kind = msg["X-Pbem-Kind"]
        if kind in ("your_turn", "mail_reply", "join_reply"):
            self.marks |= latin_marks(self.legal_texts(msg))
        parts = [(str(msg["Subject"]), "subject"), (text, "text")]
        if msg.get_body(("html",)) is not None:
            parts.append((visible_html(html_of(msg)), "html"))
        for part, where in parts:
            left = english_left(part, self.game_id, self.marks)
            assert not left, f"{self.case}: English left in a {kind} mail's {where}: {left}\n{part}"
        if kind in ("your_turn", "game_over", "may_react"):
            png_size(picture_of(msg)[1])

    def offered(self, msg) -> list[str]:
        text = text_of(msg)
        return offered_examples(text, CHINESE) + offered_board_lines(text, self.legal_texts(msg), CHINESE)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_whole_game_by_mail_in_chinese(case, service, redis_client, mail_in, start_worker, monkeypatch, tmp_path):
    game_name, players, options, _forbidden, limit = CASES[case]
    monkeypatch.delenv("SMTP_URL")
    box = Maildir(tmp_path / "maildir")
    workers = [start_worker(scheduler=False, queues=("pbem-moves",)),
               start_worker(queues=("pbem-notify", "pbem-mail"))]
    names = NAMES[:players]
    began = time.monotonic()
    game_id = service.create_game(game_name, players, options, TITLE, lang=CHINESE)["id"]
    invite_all(service, game_id, [(n, ADDRESSES[n]) for n in names])
    table = ChineseTable(case, names, service, game_id)
    rng = random.Random(case)
    by_address = {ADDRESSES[n]: n for n in names}
    while len(table.over) < players:
        assert time.monotonic() - began < 2 * limit, (f"{case}: not over after {2 * limit} s ({table.pasted} lines "
                                                      f"pasted); failed jobs: {failed_jobs(redis_client)}")
        for worker in workers:
            assert worker.proc.poll() is None, worker.log()[-3000:]
        news = box.new()
        for msg in news:
            to = next(a for a in by_address if a in str(msg["To"]))
            kind, text = msg["X-Pbem-Kind"], text_of(msg)
            table.check(msg)
            if kind == "invitation":
                mail_in.send(answer(msg, f"加入 {by_address[to]}", to), reply_address(msg), to)
            elif kind == "join_reply":
                with reading(CHINESE):
                    assert _("You have joined the game as {name}.", name=by_address[to]) in text, text
            elif kind == "mail_reply":
                assert not refused(text) or overtaken(text), text
                if table.waiting.get(to) == msg["In-Reply-To"]:
                    del table.waiting[to]
                if table.offered(msg):
                    table.latest[to] = max(msg, table.latest.get(to, msg), key=version_of)
            elif kind == "your_turn":
                table.latest[to] = max(msg, table.latest.get(to, msg), key=version_of)
            elif kind == "game_over":
                table.over.add(to)
        for to, msg in list(table.latest.items()):
            if to in table.waiting or to in table.over:
                continue
            del table.latest[to]
            lines = table.offered(msg)
            assert lines, text_of(msg)
            line = choose_chinese(game_name, lines, rng)
            sent = answer(msg, line, to)
            table.waiting[to] = sent["Message-ID"]
            mail_in.send(sent, reply_address(msg), to)
            table.pasted += 1
        if not news:
            time.sleep(0.02)
    meta = service.store.meta(game_id)
    assert meta["status"] == "finished" and meta["result"]
    steps = [json.loads(line) for line in service.record_lines(game_id, None)][1:-1]
    assert {s["auth"] for s in steps} == {"setup", "mail-token"}  # every move came by mail, in Chinese
    assert table.pasted > 3
    print(f"{case}: {table.pasted} Chinese lines pasted, {table.mails} mails read, "
          f"{time.monotonic() - began:.1f} s")
