"""The Tunnel's decision (a token on a free mouth, or none) through the service on a
real Redis with signed envelopes, by mail (the seats mail-only, replying by SMTP to the
real inbound listener) and left to its deadline (the server's default move: no token).
The helpers are those of tests/test_carcassonne_windows.py and
tests/test_carcassonne_windows_by_mail.py."""
from __future__ import annotations

import pytest

from .test_carcassonne_windows import scripted
from .test_carcassonne_windows_by_mail import MailTable, begin, flat
from .mail_reader import text_of
from .test_mail_in_support import mail_env, mail_in, notify_env, run_jobs, smtp  # noqa: F401

pytestmark = pytest.mark.timeout(60)

#: seat 0's TU2 (two mouths) with a thief on its west road: seat 0 may place a token
TUNNEL = (["TU2", "A", "A", "E"], ["tunnel"], {}, [(0, "place 1,0 r0 follower road W")])


def test_the_tunnel_through_the_service_and_its_deadline(service):
    t = scripted(service, TUNNEL)
    assert t.to_act() == [0] and t.view()["step"] == "resolve_figures"
    t.play(0, "tunnel 1,0 road W red")
    assert t.view()["tunnel"]["tokens"] == [{"x": 1, "y": 0, "on": "road W", "colour": "red", "player": 0}]
    t.play(1, "place -1,0 r270")
    assert t.deadline(1) == {"type": "tunnel", "pass": True}            # no token
    assert t.to_act() == [0] and t.view()["tile"] == "A"
    t.play(0, "place 2,0 r90")
    t.play(0, "tunnel 1,0 road E red")                                  # the pair: the road completes
    assert t.view()["scores"][0] == 4 and t.view()["tunnel"]["supply"][0]["red"] == 0


def test_the_tunnel_by_mail(service, redis_client, mail_in, monkeypatch, tmp_path):
    box = begin(monkeypatch, tmp_path)
    t = MailTable(service, redis_client, mail_in, box, TUNNEL).script()
    t.window(0, "Waiting for Ann, who may place a tunnel token on a free tunnel mouth (or pass)",
             "tunnel X,Y road E red", "tunnel 1,0 road W red")
    told = flat(text_of(t.newest(1)))
    assert "Ann places a red tunnel token on road W at 1,0." in told, told
    assert "Tunnel tokens on the board: red on road W at 1,0" in told, told
    # the mail's board: the red token at TU2's west mouth (Ann's thief beside it), its east
    # mouth free, and the letters' legend with the seats' names
    assert "R0o~-" in text_of(t.newest(1)) and "R B E Y K A tunnel tokens by colour" in told, told
    assert "Tunnel tokens on the text board: R red, E green, K black (Ann); B blue, Y yellow, A grey (Bob)" \
        in told, told
    t.play(1, "place -1,0 r270")
    assert t.deadline(1) == "no tunnel"
    assert t.to_act() == [0] and t.view()["tunnel"]["supply"][1] == {"blue": 2, "yellow": 2, "grey": 2}
