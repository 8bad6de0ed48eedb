"""Reading inbound messages (stdlib email parsing): which lines are
commands, the version a reply answers, token addresses."""
from __future__ import annotations

from email.message import EmailMessage
from email.policy import SMTP

import pytest

from pbem.mail_in import reading
from pbem.mail_in.addresses import invite_address, read_recipient
from pbem.notify.tokens import reply_address

SECRET = b"s3cret"


@pytest.mark.parametrize("text, commands", [
    ("build sun on 2\nclaim 3\n\nThanks, see you!\n", ["build sun on 2", "claim 3"]),
    ("claim 3\n-- \nAnn\nbuild sun on 2\n", ["claim 3"]),                       # signature
    ("claim 3\n--\nAnn\n", ["claim 3"]),                                          # signature, trailing space lost
    ("claim 3\n\nOn Mon, 1 Jan 2024 at 10:00, pbem <pbem@mail.test>\nwrote:\n> build sun on 2\n", ["claim 3"]),
    ("On Mon, 1 Jan 2024, pbem wrote:\n> It is your turn.\n> claim 9\n\nclaim 3\n", ["claim 3"]),  # bottom post
    ("> quoted first\nclaim 3\n", ["claim 3"]),
    ("claim 3\n-----Original Message-----\nFrom: pbem\nclaim 4\n", ["claim 3"]),  # Outlook
    ("claim 3\n________________________________\nFrom: pbem\nSent: Monday\nclaim 4\n", ["claim 3"]),
    ("claim 3\nFrom: pbem <pbem@mail.test>\nSent: Monday\nTo: ann\n", ["claim 3"]),
    ("claim 3\nSent from my iPhone\n", ["claim 3"]),
    ("\n\n   pass   \n", ["pass"]),
    ("", []),
    ("> only a quote\n", []),
    # Chinese clients: Thunderbird's marker right under the move (no blank line), Gmail's with a
    # full-width colon, a bottom post under Thunderbird's; a phone's full-width move and help
    ("place -1,-1 r0\n於 2026/12/3 下午 03:43, pbem 寫道:\n> 輪到你了\n", ["place -1,-1 r0"]),
    ("claim 3\n2026年12月3日 週四 下午3:43 pbem <pbem@mail.test> 寫道：\n> claim 4\n", ["claim 3"]),
    ("於 2026/12/3 下午 03:43, pbem\n寫道:\n> claim 9\n\nclaim 3\n", ["claim 3"]),
    ("ｐｌａｃｅ　－１，－１　ｒ０\nｈｅｌｐ\n", ["place -1,-1 r0", "help"]),
    ("place -1，-1 r0\n", ["place -1,-1 r0"]),
])
def test_command_lines(text, commands):
    assert reading.command_lines(text) == commands


def test_command_lines_are_bounded():
    assert len(reading.command_lines("pass\n" * 500, limit=20)) == 20
    assert len(reading.command_lines("x" * 5000)[0]) == reading.MAX_LINE


def test_html_only_skips_quotes_and_markup():
    html = ("<html><head><style>p {}</style></head><body><p>build&nbsp;sun on 2<br>claim 3</p>"
            "<div class=\"gmail_quote\">On Mon wrote:<blockquote>pass</blockquote></div>"
            "<blockquote type=\"cite\">claim 4</blockquote></body></html>")
    assert reading.command_lines(reading.html_to_text(html)) == ["build sun on 2", "claim 3"]


def _msg(subject="Re: [pbem] T: your turn (v12)", **headers) -> bytes:
    msg = EmailMessage(policy=SMTP)
    msg["From"], msg["To"], msg["Subject"] = "a@example.test", "move+x@mail.test", subject
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content("claim 3\n")
    return msg.as_bytes()


def test_version_sources_and_message_id():
    assert reading.read(_msg()).version == 12
    assert reading.read(_msg("Re: Re: [pbem] (v3) title: your turn (v12) - my move")).version == 12
    assert reading.read(_msg("[pbem] Game abc, turn 7")).version == 7
    got = reading.read(_msg("hello", In_Reply_To="<abc.1.9.your_turn.00ff@mail.test>"), "abc")
    assert (got.version, got.version_source) == (9, "in-reply-to")
    assert reading.read(_msg("hello", In_Reply_To="<zzz.1.9.your_turn.00ff@mail.test>"), "abc").version is None
    assert reading.read(_msg("hello", X_Pbem_Version="5")).version == 5
    assert reading.read(_msg("hello")).version is None
    a, b = reading.read(_msg("hello")), reading.read(_msg("hello!"))
    assert a.message_id.startswith("<sha256.") and a.message_id != b.message_id  # no Message-ID: the content's hash
    assert reading.read(_msg(Message_ID="<m1@example.test>")).message_id == "<m1@example.test>"
    assert reading.read(_msg(Auto_Submitted="auto-replied")).auto
    assert reading.read(_msg(Precedence="bulk")).auto and not reading.read(_msg(Auto_Submitted="no")).auto


def test_unreadable_structures_are_reported_not_raised():
    for raw in (b"Content-Type: multipart/mixed\r\nSubject: x\r\n\r\n--a\r\n\r\nclaim 3\r\n",
                b"Content-Type: multipart/alternative; boundary=q\r\n\r\n--zz\r\nclaim 3\r\n",
                b"Content-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!!\r\n",
                b"\xff\xfe\x00garbage without headers",
                b"Content-Type: text/plain; charset=no-such-charset\r\n\r\nclaim 3\r\n"):
        got = reading.read(raw)
        assert got.problem or got.commands in ([], ["claim 3"], ["garbage without headers"]), got


def test_token_addresses():
    reply = reply_address(SECRET, "mail.test", "g1", 1)
    invite = invite_address(SECRET, "mail.test", "g1", 1)
    assert read_recipient(SECRET, "mail.test", reply).kind == "reply"
    assert read_recipient(SECRET, "mail.test", f"Ann <{invite.upper()}>").kind == "invite"
    assert read_recipient(SECRET, "other.test", reply) is None
    assert read_recipient(b"other", "mail.test", reply) is None
    assert read_recipient(SECRET, "mail.test", reply.replace(".1.", ".0.")) is None
    assert read_recipient(SECRET, "mail.test", invite.replace(".j1.", ".1.")) is None  # one kind is not the other
    assert read_recipient(SECRET, "mail.test", "pbem@mail.test") is None
