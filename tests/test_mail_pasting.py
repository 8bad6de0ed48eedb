"""Every line a mail offers as a move, pasted back as it stands, through the
real inbound listener on loopback: the examples, the board's own list of
legal placements (``place -1,1 r90  + follower on: ...``), the answer to
``moves``; and the notation help's examples are read. Each line goes into
its own copy of one seeded game (the same deal), so that every one of them
is tried in the same position."""
from __future__ import annotations

import pytest

from pbem.trust import signing
from pbem.mail_in.pasting import readings
from pbem.notify import install

from .mail_players import answer, offered_board_lines, offered_examples, reply_address
from .mail_reader import Maildir, text_of
from .test_mail_in_support import mail_env, mail_in, notify_env, run_jobs, smtp  # noqa: F401
from .test_notify_support import new_game

SEED = b"pasting" * 4


@pytest.mark.parametrize("line,wanted", [
    ("place 1,0 r90 farmer NL", [("place 1,0 r90 farmer NL", "")]),
    ("place -1,1 r90  + follower on: city N, road E",
     [("place -1,1 r90  + follower on: city N, road E", ""), ("place -1,1 r90", "+ follower on: city N, road E")]),
    ("place t17 new            start a creature with tile 17",
     [("place t17 new            start a creature with tile 17", ""),
      ("place t17 new", "start a creature with tile 17")]),
    ("- build sun on 2", [("- build sun on 2", ""), ("build sun on 2", "")]),
    ("'build sun on 2'", [("'build sun on 2'", ""), ("build sun on 2", "")]),
    ("build sun  on 2", [("build sun  on 2", "")]),  # a double space inside a move is no note
    ("claim 3  (e.g. the sun village)", [("claim 3  (e.g. the sun village)", ""),
                                        ("claim 3", "(e.g. the sun village)")]),
])
def test_readings_of_a_pasted_line(line, wanted):
    assert readings(line) == wanted


@pytest.fixture
def box(mail_env, monkeypatch, tmp_path):
    monkeypatch.delenv("SMTP_URL")
    return Maildir(tmp_path / "maildir")


def copy(service, redis_client, options):
    """A new copy of the seeded game (seats joined by the API, with mail
    addresses; their moves come by mail all the same)."""
    install(service)
    game = service.create_game("carcassonne", 2, options, "Pasting", seed=SEED)
    for seat, name in enumerate(("Ann", "Bob")):
        service.join(game["id"], seat, signing.generate_key()[1], name, email=f"{name.lower()}@example.test")
    run_jobs(redis_client)
    return game["id"]


def same(text: str) -> str:
    """A mail's text but for its play link (a link of its own, expiring from now)."""
    return "\n".join(line for line in text.split("\n") if not line.startswith("Play from your browser: "))


def paste(box, mail_in, redis_client, turn, line, sender):
    sent = answer(turn, line, sender)
    mail_in.send(sent, reply_address(turn), sender)
    run_jobs(redis_client)
    got = [m for m in box.to(sender, "mail_reply") if m["In-Reply-To"] == sent["Message-ID"]]
    assert len(got) == 1
    return text_of(got[0])


def test_every_line_a_turn_mail_offers_is_accepted_pasted_as_it_stands(service, redis_client, mail_in, box):
    options = {"expansions": ["inns_cathedrals"], "start_player": 0}
    first = copy(service, redis_client, options)
    turn = box.to("ann@example.test", "your_turn")[-1]
    text = text_of(turn)
    loaded = service.load(first)
    names = ["Ann", "Bob"]
    legal_texts = [loaded.game.describe(m, 0, names=names) for m in loaded.game.legal_moves(loaded.state, 0)]
    examples = offered_examples(text)
    board_lines = offered_board_lines(text, legal_texts)
    assert examples and board_lines
    listed = paste(box, mail_in, redis_client, turn, "moves", "ann@example.test").split("> moves\n", 1)[1]
    moves = [x.strip() for x in listed.split("\n\n", 1)[0].split("\n") if x.strip()]
    assert sorted(moves) == sorted(legal_texts)
    lines = examples + board_lines + moves[::max(1, len(moves) // 10)]
    tried = 0
    for line in dict.fromkeys(lines):
        game_id = copy(service, redis_client, options)
        mine = [m for m in box.to("ann@example.test", "your_turn") if m["X-Pbem-Game"] == game_id][-1]
        assert same(text_of(mine)) == same(text.replace(first, game_id)), "the copies are not the same game"
        answered = paste(box, mail_in, redis_client, mine, line, "ann@example.test")
        assert "applied: " in answered and "not applied" not in answered, (line, answered)
        tried += 1
    assert tried >= len(set(examples)) + len(set(board_lines))


def test_the_help_examples_are_read(service, redis_client, mail_in, box):
    options = {"expansions": ["king_robber"], "start_player": 0}
    game_id = copy(service, redis_client, options)
    turn = box.to("ann@example.test", "your_turn")[-1]
    helped = paste(box, mail_in, redis_client, turn, "help", "ann@example.test")
    loaded = service.load(game_id)
    # the help is one block under its command: every line of the notation indented alike
    notation = loaded.game.notation_help_for(loaded.game.check_options(2, options))
    block = helped.split("> help\n", 1)[1]
    for line in notation.splitlines():
        assert ("  " + line if line else "") + "\n" in block, line
    for line in loaded.game.notation_examples(loaded.game.check_options(2, options)):
        assert line in helped
        fresh = copy(service, redis_client, options)
        mine = [m for m in box.to("ann@example.test", "your_turn") if m["X-Pbem-Game"] == fresh][-1]
        answered = paste(box, mail_in, redis_client, mine, line, "ann@example.test")
        assert "cannot read the move" not in answered, (line, answered)
