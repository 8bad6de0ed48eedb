"""Carcassonne's windows (decisions a seat owes out of the normal turn order) played by
mail only, one test per expansion: the Princess & the Dragon's dragon steps (before and
after the scoring), the Count's city entry and leaving, Bridges, Castles & Bazaars'
castle offer, the castle owner's choice and the bazaar (the auction's pick, bid and
buy-or-sell, and the draft), the Tower's captures and prisoner exchange.

The seats are mail-only: invited by mail, they join by replying. Every move, those that
reach a window included, is a reply by SMTP to the real inbound listener on loopback,
answering the newest mail the seat got (read back from the maildir); the jobs (the mail
job, which applies the move, and the notices) run in this process. The scripts are
those of tests/test_carcassonne_windows.py (the same draw orders and moves).

At each window the seat owing the decision must have a mail addressed to it (a turn
mail, or the answer to its own move when it owes the next decision itself) that says
what it may decide (a line of the board, with the players' names) and offers lines to
paste; it replies with ``help`` and the move, pasted from that mail when the mail offers
it, else typed: the help has the decision's notation, and the move is applied (the game's
view and the move's record are checked). In each test one window is left to its
deadline: the deadline job (the one the scheduler runs when the deadline comes) plays the
server's move and the seat is told by mail what was played. No mail names a seat by its
number."""
from __future__ import annotations

import re

import pytest

from pbem.notify import install
from pbem.notify.config import NotifySettings
from pbem.notify.notifier import Notifier
from pbem.notify.store import NotifyStore

from .conftest import drain
from .mail_players import answer, invite_all, offered_board_lines, offered_examples, reply_address
from .mail_reader import Maildir, text_of
from .test_carcassonne_windows import BAZAAR, CASTLE_CHOICE, COUNT, DRAGON, TOWER, TOWER_CAPTURES, OnService
from .test_mail_in_support import mail_env, mail_in, notify_env, run_jobs, smtp  # noqa: F401

#: each test takes 3 to 10 s on an idle machine; a minute is a failure, not a wait
pytestmark = pytest.mark.timeout(60)

NAMES = ("Ann", "Bob")
#: a seat named by its number: "seat 1", "Seat 0", "seats 0, 1"
SEAT_NUMBER = re.compile(r"\b[Ss]eats? \d+\b")


def address(name: str) -> str:
    return f"{name.lower()}@example.test"


def version_of(msg) -> int:
    return int(msg["X-Pbem-Version"] or msg["Subject"].rsplit("(v", 1)[1].rstrip(")"))


def flat(text: str) -> str:
    """The text with a board line cut over several lines (``... `` continuations) and
    any wrapping put back on one line."""
    return " ".join(re.sub(r"\n +\.\.\. ", " ", text).split())


def without_help(text: str) -> str:
    """An answer without the notation help it may carry: the help writes "seat P" and
    "e.g. seat 1" on purpose (its lines are indented under the "help" command)."""
    out, skipping = [], False
    for line in text.split("\n"):
        if line.strip() == "How moves are written:":
            skipping = True
        elif skipping and line and not line.startswith(" "):
            skipping = False
        if not skipping:
            out.append(line)
    return "\n".join(out)


class MailTable(OnService):
    """A scripted 2-seat Carcassonne game whose seats Ann (0) and Bob (1) are taken and
    played by mail only, with a deadline on every turn (left to pass only when a test
    says so)."""

    def __init__(self, service, redis_client, mail_in, box, setup, **more):
        order, expansions, options, self.moves = setup
        self.service, self.redis, self.mail_in, self.box = service, redis_client, mail_in, box
        install(service)
        self.id = service.create_game("carcassonne", 2, {"draw_order": list(order), "start_player": 0,
                                                          "expansions": list(expansions), **options, **more},
                                      "Windows by mail")["id"]
        NotifyStore(redis_client).save_game_settings(self.id, {"turn_seconds": 3600, "default_action": "pass"})
        self.mails: dict[int, list] = {0: [], 1: []}
        invite_all(service, self.id, [(n, address(n)) for n in NAMES])
        self.pump()
        for seat, name in enumerate(NAMES):
            invitation = self.newest(seat)
            assert invitation["X-Pbem-Kind"] == "invitation", invitation["Subject"]
            joined = self.reply(seat, invitation, f"join {name}")
            assert f"You have joined the game as {name}." in text_of(joined), text_of(joined)
        assert service.store.meta(self.id)["status"] == "active"

    # -- the mail -----------------------------------------------------------------------

    def pump(self) -> None:
        """Run the jobs waiting, and read the mails they sent."""
        run_jobs(self.redis)
        for msg in self.box.new():
            seat = next(s for s, n in enumerate(NAMES) if address(n) in str(msg["To"]))
            text = text_of(msg)
            # (an invitation comes before the seats have names: it is for "seat 0", and
            # says so, and the rules it sends may say "seat 0 starts")
            found = [] if msg["X-Pbem-Kind"] == "invitation" else SEAT_NUMBER.findall(without_help(text))
            assert not found, f"a mail names seats by number ({found}):\n{msg['Subject']}\n{text}"
            if msg["X-Pbem-Kind"] not in ("invitation", "join_reply", "mail_reply"):  # the notices: by name too
                assert str(msg["To"]) == f"{NAMES[seat]} <{address(NAMES[seat])}>", msg["To"]
            self.mails[seat].append(msg)

    def newest(self, seat: int):
        assert self.mails[seat], f"no mail to {NAMES[seat]}"
        return self.mails[seat][-1]

    def reply(self, seat: int, msg, body: str):
        """``seat`` replies to ``msg`` (quoting it); returns the server's answer."""
        before = len(self.mails[seat])
        sent = answer(msg, body, address(NAMES[seat]))
        self.mail_in.send(sent, reply_address(msg), address(NAMES[seat]))
        self.pump()
        answers = [m for m in self.mails[seat][before:] if m["In-Reply-To"] == sent["Message-ID"]]
        assert len(answers) == 1, (NAMES[seat], body, [m["Subject"] for m in self.mails[seat][before:]])
        return answers[0]

    # -- the game ---------------------------------------------------------------------

    def view(self) -> dict:
        loaded = self.loaded
        return loaded.game.view(loaded.state, None)

    def turn_mail(self, seat: int):
        """The newest mail to ``seat``, which must be the one telling it to act now."""
        assert self.to_act() == [seat], (NAMES[seat], self.to_act())
        msg = self.newest(seat)
        text = text_of(msg)
        assert msg["X-Pbem-Kind"] in ("your_turn", "mail_reply"), msg["Subject"]
        assert version_of(msg) == self.loaded.version, (msg["Subject"], self.loaded.version)
        active = self.loaded.state.active
        if active == seat:
            assert "It is your turn." in text, text
        else:  # a decision in the other seat's turn: said so, not "your turn"
            assert "It is your turn." not in text, text
            assert (f"It is {NAMES[active]}'s turn, and the game waits for your decision." in flat(text)
                    or f"It is {NAMES[active]}'s turn, and the game waits for your decision." in text), text
            if msg["X-Pbem-Kind"] == "your_turn":
                assert ": your decision (v" in msg["Subject"], msg["Subject"]
        return msg

    def play(self, seat: int, line: str):
        """``seat`` answers its newest mail with ``line`` (typed: reaching a window)."""
        msg = self.turn_mail(seat)
        got = self.reply(seat, msg, line)
        self.applied(seat, got, line)
        return got

    def applied(self, seat: int, got, line: str) -> None:
        """The answer says ``line`` was applied, and the move's record says it came by mail
        from ``seat``."""
        text = text_of(got)
        found = re.search(r"applied: " + re.escape(line) + r" \(now version (\d+)\)", text)
        assert found and "not applied" not in text, text
        version = int(found.group(1))
        move_id = self.service.store.events(self.id, version - 1, version)[-1][2]
        record = self.service.store.move(self.id, move_id)
        assert record["auth"] == "mail-token" and record["envelope"]["player"] == seat, record

    def script(self, moves=None) -> "MailTable":
        for seat, line in self.moves if moves is None else moves:
            self.play(seat, line)
        return self

    def window(self, seat: int, says: str, help_line: str, line: str, pasted: bool = True):
        """The window ``seat`` owes, played by mail: its mail says ``says``, offers
        ``line`` (``pasted``; else the player types it), and the help has ``help_line``;
        it replies "help" and the line. Returns the answer."""
        msg = self.turn_mail(seat)
        text = text_of(msg)
        assert f"for {NAMES[seat]}" in text or f"as {NAMES[seat]}:" in text, text
        assert says in flat(text), f"{NAMES[seat]}'s mail does not say {says!r}:\n{text}"
        loaded = self.service.load(self.id, version_of(msg))
        legal = [loaded.game.describe(m, seat, names=list(NAMES)) for m in loaded.game.legal_moves(loaded.state, seat)]
        offered = offered_examples(text) + offered_board_lines(text, legal)
        assert offered, text
        assert all(o in legal for o in offered_examples(text)), (offered, legal)
        assert line in offered or not pasted, f"{line!r} is not offered; the mail offers {offered}"
        got = self.reply(seat, msg, f"help\n{line}")
        body = text_of(got)
        assert "How moves are written:" in body, body
        assert any(" ".join(x.split()).startswith(help_line) for x in body.split("\n")), \
            f"no help line {help_line!r} in the help:\n{body}"
        self.applied(seat, got, line)
        return got

    def deadline(self, seat: int) -> str:
        """Let ``seat``'s deadline pass: its deadline job runs (as the scheduler runs it
        when the time comes), the server's move is applied, and the seat is told by mail.
        Returns what the mail says was played."""
        assert self.to_act() == [seat]
        record = NotifyStore(self.redis).deadline(self.id, seat)
        assert record and record["action"] == "pass", record
        before = self.loaded.version
        assert Notifier(self.service, NotifySettings()).deadline_due(self.id, seat, record["since_version"]) == "pass"
        drain(self.service)
        self.pump()
        assert self.loaded.version > before
        told = [m for m in self.mails[seat] if m["X-Pbem-Kind"] == "deadline_passed"]
        assert told, [m["Subject"] for m in self.mails[seat]]
        text = text_of(told[-1])
        found = re.search(r"The deadline passed, so the server played “([^”]+)” for you "
                          r"\(the game's default move when a deadline passes\)\.", " ".join(text.split()))
        assert found, text
        # told once the move is applied: the board after it, and what the seat may do now
        # (if anything), never the decision already made for it
        now = self.loaded
        assert version_of(told[-1]) == now.version, (told[-1]["Subject"], now.version)
        legal = [now.game.describe(m, seat, names=list(NAMES)) for m in now.game.legal_moves(now.state, seat)]
        assert all(line in legal for line in offered_examples(text)), (offered_examples(text), legal)
        return found.group(1)


def begin(monkeypatch, tmp_path) -> Maildir:
    monkeypatch.delenv("SMTP_URL")  # mail out to the maildir
    return Maildir(tmp_path / "maildir")


def test_the_dragon_by_mail(service, redis_client, mail_in, monkeypatch, tmp_path):
    box = begin(monkeypatch, tmp_path)
    t = MailTable(service, redis_client, mail_in, box, DRAGON).script()
    # Ann's own answer: she owes the first step (her placement's dragon); Bob the next
    assert t.view()["dragon_flight"]["movers"] == [0, 1, 0, 1, 0, 1]
    t.window(0, "Waiting for Ann, who moves the dragon: dragon N", "dragon N | E | S | W", "dragon N")
    started = text_of(t.newest(1))
    assert "up to 6 steps, moved by Ann, Bob, Ann, Bob, Ann and Bob in turn." in flat(started), started
    t.window(1, "Waiting for Bob, who moves the dragon: dragon E, dragon W", "dragon N | E | S | W", "dragon E")
    # Bob's thief was eaten before the road scored; no step is left: the flight and Ann's turn end
    view = t.view()
    assert view["dragon"] == {"x": 1, "y": 0} and view["scores"] == [0, 0] and view["followers"] == []
    assert view["dragon_flight"] is None and t.to_act() == [1] and view["active"] == 1

    # the dragon after the scoring: the road scored first (Bob's thief home, 3 points);
    # Bob's step left to its deadline: the first, E
    t = MailTable(service, redis_client, mail_in, box, DRAGON, dragon_move_timing="after_scoring").script()
    assert t.view()["scores"] == [0, 3] and t.view()["step"] == "end_turn"
    t.window(0, "Waiting for Ann, who moves the dragon: dragon N", "dragon N | E | S | W", "dragon N")
    owed = text_of(t.turn_mail(1))
    assert "Waiting for Bob, who moves the dragon: dragon E, dragon W." in flat(owed), owed
    assert t.deadline(1) == "dragon E"
    assert t.view()["dragon"] == {"x": 1, "y": 0} and t.view()["scores"] == [0, 3]


def test_the_count_by_mail(service, redis_client, mail_in, monkeypatch, tmp_path):
    box = begin(monkeypatch, tmp_path)
    t = MailTable(service, redis_client, mail_in, box, COUNT).script()
    # Bob's tile completed Ann's city: his own answer offers him the City
    t.window(1, "Waiting for Bob, who "
             "scored nothing while others did and may put a follower into the City: enter DISTRICT "
                "count DISTRICT (castle, blacksmith, cathedral, market), or stay out",
             "enter castle count market", "enter castle count market", pasted=False)
    assert t.view()["count"]["quarters"]["castle"] == [{"player": 1, "figure": "follower"}]
    assert t.view()["count"]["count"] == "market"
    t.play(0, "place -2,2 r0 follower city N")
    # before the scoring of Ann's new city: Bob first, then Ann, may leave the City
    told = text_of(t.newest(1))
    assert "followers may leave the City: Bob and Ann in turn." in flat(told), told
    assert t.view()["count"]["leaving"] == [1, 0]
    t.window(1, "Waiting for Bob, who "
             "may move a follower out of the City before the scoring: leave castle -2,1 city S, or pass",
             "leave castle X,Y city N", "leave castle -2,1 city S")
    assert t.view()["scores"] == [10, 4] and t.view()["count"]["quarters"]["castle"] == []

    # the entry left to its deadline: Bob stays out
    t = MailTable(service, redis_client, mail_in, box, COUNT).script()
    assert t.deadline(1) == "stay out"
    assert t.view()["count"]["quarters"]["castle"] == [] and t.to_act() == [0]


def test_the_castles_and_the_bazaar_by_mail(service, redis_client, mail_in, monkeypatch, tmp_path):
    box = begin(monkeypatch, tmp_path)
    # the castle offer (Ann's own answer) and the castle owner's choice in Bob's turn
    first, rest = CASTLE_CHOICE[3][0], CASTLE_CHOICE[3][2:]
    t = MailTable(service, redis_client, mail_in, box, CASTLE_CHOICE).script([first])
    t.window(0, "Waiting for Ann, who "
             "may turn the city (city S at 0,-1) into a castle: castle 0,-1 city S, or no castle",
             "castle X,Y city N | no castle", "castle 0,-1 city S")
    assert t.view()["castles_built"][0]["player"] == 0
    t.script(rest)
    assert t.to_act() == [0] and t.view()["active"] == 1
    t.window(0, "Waiting for Ann, who chooses what the castle at 0,-1 scores: castle points 1,0 city N (8 points); "
                "castle points 1,0 road W (3 points)", "castle points X,Y road W", "castle points 1,0 road W")
    assert t.view()["scores"] == [3, 3] and t.view()["castle_feature_decision"] is None
    assert t.to_act() == [0] and t.view()["tile"] == "B"

    # the auction: Bob hosts and bids 2, Ann bids 3, Bob sells
    t = MailTable(service, redis_client, mail_in, box, BAZAAR).script()
    assert t.view()["bazaar"]["host"] == 1 and t.view()["bazaar"]["phase"] == "pick"
    t.window(1, "Waiting for Bob, who "
             "hosts the bazaar: picks a tile and bids for it, bazaar N bid B (N: 0, 1; B: 0 to 99)",
             "bazaar N bid B", "bazaar 0 bid 2", pasted=False)
    t.window(0, "Waiting for Ann, who "
             "may outbid Bob's 2 for tile 0: bid B (more than 2), or pass", "bid B | pass", "bid 3")
    assert t.view()["bazaar"]["phase"] == "deal"
    t.window(1, "Waiting for Bob, who "
             "buys tile 0 for 3 points (paid to Ann), or sells it to Ann for 3 points: buy, sell",
             "buy | sell", "sell")
    assert t.view()["scores"] == [-3, 3] and t.view()["bazaar_tiles"] == ["U", None]

    # the draft: Bob chooses a tile, no bids
    t = MailTable(service, redis_client, mail_in, box, BAZAAR, bazaar_mode="draft").script()
    assert t.view()["bazaar"]["mode"] == "draft"
    t.window(1, "Waiting for Bob, who "
             "chooses a tile at the bazaar (the draft, no bids): bazaar N (N: 0, 1)", "bazaar N the draft",
             "bazaar 1")
    assert t.view()["bazaar_tiles"] == ["U", None] and t.view()["tile"] == "V"

    # the castle owner's choice left to its deadline: the highest
    t = MailTable(service, redis_client, mail_in, box, CASTLE_CHOICE).script()
    assert t.deadline(0) == "castle points 1,0 city N"
    assert t.view()["scores"] == [8, 3] and t.to_act() == [0]


def test_the_tower_by_mail(service, redis_client, mail_in, monkeypatch, tmp_path):
    box = begin(monkeypatch, tmp_path)
    t = MailTable(service, redis_client, mail_in, box, TOWER).script()
    capture = "capture X,Y road E seat P"
    # Bob's own answer after his floor at 2,0: Ann's thief is in reach (the move names her)
    t.window(1, "Waiting for Bob, who "
             "may capture a follower at most 1 tile from the tower at 2,0: capture X,Y road E seat P", capture,
             "capture 1,0 road E seat Ann")
    assert t.view()["tower"]["prisoners"] == [{"captor": 1, "player": 0, "figure": "follower"}]
    for seat, line in TOWER_CAPTURES:
        if line.startswith("capture"):   # pasted as the mail offers it: "seat 0" is "seat Ann"
            named = re.sub(r"seat (\d)", lambda m: "seat " + NAMES[int(m.group(1))], line)
            t.window(seat, f"Waiting for {NAMES[seat]}, who may capture a follower at most", capture, named)
        else:
            t.play(seat, line)
    # Bob holds Ann's follower and big follower, Ann holds Bob's: Ann picks which comes back
    assert t.to_act() == [0] and len(t.view()["tower"]["prisoners"]) == 3
    t.window(0, "Waiting for Ann, who "
             "exchanges prisoners with Bob and chooses which of their own comes back: exchange follower, "
                "exchange big", "exchange follower", "exchange big")
    assert t.view()["tower"]["prisoners"] == [{"captor": 1, "player": 0, "figure": "follower"}]

    # the capture left to its deadline: nobody
    t = MailTable(service, redis_client, mail_in, box, TOWER).script()
    assert t.deadline(1) == "capture none"
    assert t.view()["tower"]["prisoners"] == [] and t.to_act() == [0]
