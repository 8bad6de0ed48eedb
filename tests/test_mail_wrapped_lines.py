"""Replies whose long line the mail program wrapped apply the whole move,
never its first half: ``format=flowed`` (RFC 3676) as Thunderbird sends it
(delsp=no) and as Apple Mail does (delsp=yes, quoted-printable) is joined
exactly; a hard wrap (Outlook and Gmail's plain text at 76 and 72 columns)
is read joined when the two lines read as one move, and when they do not the
move is not applied and the answer says why. Real SMTP into the inbound
listener on loopback, the jobs in this process."""
from __future__ import annotations

import quopri
import re
from email.utils import make_msgid

import pytest

from pbem.trust import signing
from pbem.mail_in import reading, wrapped
from pbem.notify import install

from .test_mail_in_support import mail_env, mail_in, reply_address, run_jobs, smtp, text_of  # noqa: F401
from .test_notify_support import notify_env  # noqa: F401

ANN = "ann@example.test"
NOTE = "that closes the big city to the north, so your move next Bob, good luck"


# -- RFC 3676, as read ---------------------------------------------------------


@pytest.mark.parametrize("flowed,delsp,text", [
    ("place -2,0 r0 \r\nfollower city N\r\n", False, "place -2,0 r0 follower city N\n"),
    ("place -2,0 r0  \r\nfollower city N\r\n", True, "place -2,0 r0 follower city N\n"),
    ("place -2,0 r0 fol \r\nlower city N\r\n", True, "place -2,0 r0 follower city N\n"),      # mid-word
    ("place -2,0 r0\r\nfollower city N\r\n", True, "place -2,0 r0\nfollower city N\n"),       # fixed lines
    (" From here on \r\n >quoted? no\r\n", False, "From here on >quoted? no\n"),             # space-stuffed
    ("move\r\n-- \r\nAnn\r\n", False, "move\n-- \nAnn\n"),  # the signature separator is never flowed
    ("top\r\n> a quoted \r\n> line\r\n>> deeper \r\n> back\r\n", False, "top\n> a quoted line\n>> deeper \n> back\n"),
])
def test_flowed_text_is_read_as_written(flowed, delsp, text):
    assert reading.unflow(flowed, delsp) == text


def test_only_a_flowed_plain_part_is_unflowed():
    def body(ctype):
        raw = (f"Message-ID: <m@x.test>\r\nSubject: (v3)\r\nContent-Type: {ctype}\r\n\r\n"
               "place -2,0 r0 \r\nfollower city N\r\n").encode()
        return reading.read(raw).commands
    assert body("text/plain; charset=utf-8; format=flowed") == ["place -2,0 r0 follower city N"]
    assert body("text/plain; charset=utf-8; Format=Flowed; DelSp=No") == ["place -2,0 r0 follower city N"]
    assert body("text/plain; charset=utf-8") == ["place -2,0 r0", "follower city N"]  # a hard wrap: read later


# -- hard wraps: which lines make one command ---------------------------------------


MOVES = {"place -2,0 r0", "place -2,0 r0 follower city N", "board"}


def command(lines, i=0):
    return wrapped.command_at(lines, i, lambda text: text in MOVES,
                              lambda text: wrapped.first_word(text) in ("place", "board", "help"),
                              lambda text, below: wrapped.first_word(below) in wrapped.next_words(text, MOVES))


def test_a_broken_move_is_joined():
    got = command(["place -2,0 r0", "follower city N", "board"])
    assert (got.text, got.lines, got.dangling) == ("place -2,0 r0 follower city N",
                                                   ["place -2,0 r0", "follower city N"], None)
    got = command(["place -2,0", "r0 follower", "city N"])  # broken twice; the first part reads as nothing
    assert got.text == "place -2,0 r0 follower city N" and len(got.lines) == 3


def test_a_command_below_stays_a_command():
    assert command(["place -2,0 r0", "board"]).lines == ["place -2,0 r0"]
    assert command(["place -2,0 r0", "place 1,1 r90"]).lines == ["place -2,0 r0"]  # a bad move: its own


def test_a_move_above_a_line_that_joins_nothing_is_held_back():
    got = command(["place -2,0 r0", "follower citty N"])
    assert got.dangling == "follower citty N" and got.text == "place -2,0 r0"
    assert command(["Hi Bob,", "follower city N"]).dangling is None  # not a move: it fails as it stands


def test_a_line_no_move_goes_on_with_is_no_part_of_the_move():
    """A greeting or a name under a move: no longer move goes on with its
    first word, so the move stands and the line is read on its own."""
    for below in ("Cheers, Ann", "謝謝", "thanks!"):
        got = command(["place -2,0 r0", below])
        assert (got.text, got.lines, got.dangling) == ("place -2,0 r0", ["place -2,0 r0"], None)
    assert wrapped.next_words("place -2,0 r0", MOVES) == {"follower"}
    assert wrapped.next_words("Place  -2,0 R0", MOVES) == {"follower"}


# -- through the listener ---------------------------------------------------------


def carcassonne(service, redis_client):
    install(service)
    game_id = service.create_game("carcassonne", 2, {"start_player": 0}, "Wrapped", seed=b"wrapped" * 4)["id"]
    for seat, name in enumerate(("Ann", "Bob")):
        service.join(game_id, seat, signing.generate_key()[1], name, email=f"{name.lower()}@example.test")
    run_jobs(redis_client)
    return game_id


def follower_move(service, game_id) -> tuple[str, str]:
    """(a placement with a knight on a city, the same placement alone): both
    legal, so the first half of the line is a move of its own."""
    loaded = service.load(game_id)
    game = loaded.game
    texts = {game.describe(m, 0, names=["Ann", "Bob"]) for m in game.legal_moves(loaded.state, 0)}
    for text in sorted(texts):
        found = re.fullmatch(r"(place -?\d+,-?\d+ r\d+) follower city [NESW]", text)
        if found and found.group(1) in texts:
            return text, found.group(1)
    pytest.skip("no placement with a knight in this deal")


def raw_reply(turn, body: str, params: str = "", cte: str = "8bit") -> bytes:
    """A reply as a client puts it on the wire: headers, then ``body``
    (lines already as the client wrapped them)."""
    if cte == "quoted-printable":
        body = quopri.encodestring(body.replace("\r\n", "\n").encode()).decode().replace("\n", "\r\n")
    headers = [f"From: Ann <{ANN}>", f"To: {turn['Reply-To']}", f"Subject: Re: {turn['Subject']}",
               f"Message-ID: {make_msgid(domain='example.test')}", f"In-Reply-To: {turn['Message-ID']}",
               "MIME-Version: 1.0", f"Content-Type: text/plain; charset=UTF-8{params}",
               f"Content-Transfer-Encoding: {cte}"]
    return ("\r\n".join(headers) + "\r\n\r\n" + body).encode()


def quoted(turn, flowed: bool) -> str:
    """The turn mail quoted below the answer, as the client quotes it."""
    lines = text_of(turn).split("\n")
    mark = ">" if flowed else "> "
    return "\r\n".join(["", "On Mon, 1 Jan 2024 at 10:00, pbem wrote:"] +
                       [(mark + (" " if flowed and line[:1] in (" ", ">") else "") + line.rstrip()) if line else ">"
                        for line in lines]) + "\r\n"


def hard_wrap(line: str, width: int) -> list[str]:
    """A line wrapped as Outlook and Gmail's plain text do: at the last space
    that keeps each line within ``width`` columns, the space dropped."""
    out = []
    while len(line) > width:
        cut = line.rfind(" ", 0, width + 1)
        out.append(line[:cut].rstrip())
        line = line[cut:].lstrip()
    return out + [line]


def send(service, redis_client, smtp, mail_in, game_id, body: str, **kw):
    turn = smtp.to(ANN, "your_turn")[-1]
    before = service.load(game_id).version
    mail_in.send(raw_reply(turn, body, **kw), reply_address(turn), ANN)
    run_jobs(redis_client)
    answer = [m for m in smtp.to(ANN) if m["X-Pbem-Kind"] in ("mail_reply", "your_turn")
              and m["In-Reply-To"] and "example.test" in m["In-Reply-To"]][-1]
    after = service.load(game_id)
    applied = [service.store.move(game_id, m)["envelope"]["move"]
               for m in dict.fromkeys(m for _, _, m in service.store.events(game_id, before, after.version))]
    return applied, text_of(answer)


def the_move(service, game_id, text):
    loaded = service.load(game_id)
    return loaded.game.parse(text, loaded.state, 0, names=["Ann", "Bob"])


@pytest.mark.parametrize("style", ["thunderbird", "apple", "apple_mid_word"])
def test_flowed_replies_apply_the_whole_move(style, service, redis_client, smtp, mail_in):
    game_id = carcassonne(service, redis_client)
    full, half = follower_move(service, game_id)
    rest = full[len(half) + 1:]
    turn = smtp.to(ANN, "your_turn")[-1]
    if style == "thunderbird":   # format=flowed; the soft break is the space the line ends with
        body, params, cte = f"{half} \r\n{rest}\r\n", "; format=flowed", "8bit"
    elif style == "apple":       # delsp=yes: the client adds a space at the break, which goes
        body, params, cte = f"{half}  \r\n{rest}\r\n", "; format=flowed; delsp=yes", "quoted-printable"
    else:                        # delsp=yes lets a client break inside a word
        body, params, cte = f"{half} fol \r\n{rest[3:]}\r\n", "; format=flowed; delsp=yes", "quoted-printable"
    body += quoted(turn, flowed=True)
    wanted = the_move(service, game_id, full)
    applied, answer = send(service, redis_client, smtp, mail_in, game_id, body, params=params, cte=cte)
    assert applied == [wanted], answer
    assert f"> {full}\n" in answer and "applied:" in answer and "not applied" not in answer


@pytest.mark.parametrize("width", [76, 72])
def test_a_hard_wrap_inside_a_note_applies_the_move_and_keeps_the_note(width, service, redis_client, smtp,
                                                                       mail_in):
    """Outlook (76) and Gmail's plain text (72) wrap a long line: the move
    and the start of its note on one line, the rest of the note below."""
    game_id = carcassonne(service, redis_client)
    full, _ = follower_move(service, game_id)
    lines = hard_wrap(f"{full}   {NOTE}", width)
    assert len(lines) == 2 and all(len(x) <= width for x in lines) and lines[0].startswith(full)
    turn = smtp.to(ANN, "your_turn")[-1]
    wanted = the_move(service, game_id, full)
    applied, answer = send(service, redis_client, smtp, mail_in, game_id,
                           "\r\n".join(lines) + "\r\n" + quoted(turn, flowed=False))
    assert applied == [wanted], answer
    assert "read as one line, as your mail program broke it" in answer and "not applied" not in answer
    assert NOTE in " ".join(answer.split())  # the whole note, said to be a note


@pytest.mark.parametrize("width", [76, 72])
def test_a_hard_wrap_inside_the_move_applies_the_whole_move(width, service, redis_client, smtp, mail_in):
    """The break falls after the rotation (a line that long, or a narrower
    client): the first half is a legal move, yet the whole one is applied."""
    game_id = carcassonne(service, redis_client)
    full, half = follower_move(service, game_id)
    line = " " * (width - len(half) - 1) + full  # the break lands right after ``half``
    lines = [x.strip() for x in hard_wrap(line, width)]
    assert lines == [half, full[len(half) + 1:]]
    turn = smtp.to(ANN, "your_turn")[-1]
    wanted = the_move(service, game_id, full)
    applied, answer = send(service, redis_client, smtp, mail_in, game_id,
                           "\r\n".join(lines) + "\r\n" + quoted(turn, flowed=False))
    assert wanted != the_move(service, game_id, half)  # the whole move places a knight; its half does not
    assert applied == [wanted], answer
    assert f"> {lines[0]}\n> {lines[1]}\n" in answer
    assert f"(read as one line, as your mail program broke it: {full})" in answer
    assert "not applied" not in answer


def test_a_line_that_joins_into_no_move_applies_nothing_and_says_why(service, redis_client, smtp, mail_in):
    game_id = carcassonne(service, redis_client)
    full, half = follower_move(service, game_id)
    broken = full[len(half) + 1:].replace("city", "citty")  # the rest, mistyped: together no move
    turn = smtp.to(ANN, "your_turn")[-1]
    version = service.load(game_id).version
    applied, answer = send(service, redis_client, smtp, mail_in, game_id,
                           f"{half}\r\n{broken}\r\n" + quoted(turn, flowed=False))
    assert applied == [] and service.load(game_id).version == version
    assert f"> {half}\n" in answer
    assert f"not applied: “{half}” is followed by “{broken}”, which is not a command" in " ".join(answer.split())
    assert "Not tried" not in answer and "taken for a note" not in answer  # the line below is said above


def test_a_command_below_a_move_is_still_its_own(service, redis_client, smtp, mail_in):
    """Not every line below a move is its rest: a command is a command."""
    game_id = carcassonne(service, redis_client)
    full, half = follower_move(service, game_id)
    turn = smtp.to(ANN, "your_turn")[-1]
    wanted = the_move(service, game_id, half)
    applied, answer = send(service, redis_client, smtp, mail_in, game_id,
                           f"{half}\r\nboard\r\n" + quoted(turn, flowed=False))
    assert applied == [wanted], answer
    assert "read as one line" not in answer and "The board as you see it is at the end" in answer


def test_a_greeting_below_a_move_leaves_the_move_applied(service, redis_client, smtp, mail_in):
    """``Cheers, Ann`` under a placement is no broken-off rest: no longer
    legal move goes on with ``cheers``, so the placement is applied."""
    game_id = carcassonne(service, redis_client)
    _, half = follower_move(service, game_id)
    turn = smtp.to(ANN, "your_turn")[-1]
    wanted = the_move(service, game_id, half)
    applied, answer = send(service, redis_client, smtp, mail_in, game_id,
                           f"{half}\r\nCheers, Ann\r\n" + quoted(turn, flowed=False))
    assert applied == [wanted], answer
    assert "read as one line" not in answer and f"not applied: '{half}'" not in answer
    assert f"> {half}\n  applied" in answer
