"""The Catapult's round played by mail only (the seats and jobs of
tests/test_carcassonne_windows_by_mail.py): Bob's fair tile opens the round,
he chooses knock-out from his mail; both seats then owe a secret shot; Bob's
shot reaches no mail of Ann's; Ann's shot is left to its deadline (no shot),
and the mail telling her so shows the board after Bob's knock-out."""
from __future__ import annotations

import re

import pytest

from .mail_reader import text_of
from .test_carcassonne_windows_by_mail import MailTable, begin, flat
from .test_mail_in_support import mail_env, mail_in, notify_env, run_jobs, smtp  # noqa: F401

pytestmark = pytest.mark.timeout(60)

#: Ann's thief east of the start tile; Bob's fair tile south of it: Bob's round
CATAPULT = (["U", "CA1", "E", "E"], ["catapult"], {"catapult_mode": "abstract"},
            [(0, "place 1,0 r0 follower road E"), (1, "place 0,1 r0")])


def test_the_catapult_by_mail(service, redis_client, mail_in, monkeypatch, tmp_path):
    box = begin(monkeypatch, tmp_path)
    t = MailTable(service, redis_client, mail_in, box, CATAPULT).script()
    before_ann = len(t.mails[0])
    t.window(1, "Waiting for Bob, who chooses the catapult round: catapult knockout | catapult seduction",
             "catapult knockout", "catapult knockout")
    assert t.to_act() == [0, 1]
    # Bob's answer says he owes his shot; he replies to it with the shot
    answer = t.newest(1)
    text = flat(text_of(answer))
    assert "Your shot: shoot 1,0 road E, or no shot." in text, text
    got = t.reply(1, answer, "shoot 1,0 road E")
    t.applied(1, got, "shoot 1,0 road E")
    assert t.to_act() == [0]
    # Ann is told it is her decision (a shot) and never where Bob's went
    ann = [text_of(m) for m in t.mails[0][before_ann:]]
    assert ann, "Ann got no mail for her shot"
    assert any("takes a secret shot" in flat(x) for x in ann), ann[-1]
    for x in ann:
        assert "aims at" not in x and not re.search(r"Bob[^\n]*shoot 1,0", x), x
    # Ann's shot left to its deadline: no shot; then the round is resolved in the open
    assert t.deadline(0) == "no shot"
    told = flat(text_of([m for m in t.mails[0] if m["X-Pbem-Kind"] == "deadline_passed"][-1]))
    # the board it shows is after the round: Bob's shot knocked Ann's thief out
    assert "Followers in supply: Ann 7, Bob 7" in told and "On the board:" not in told, told
    assert t.view()["followers"] == [] and t.view()["catapult"] is None


def test_the_catapult_choice_left_to_its_deadline(service, redis_client, mail_in, monkeypatch, tmp_path):
    """Bob's choice of round is left to its deadline: the server chooses knock-out (the
    rules' default), tells him by mail, and both seats then owe their shot."""
    box = begin(monkeypatch, tmp_path)
    t = MailTable(service, redis_client, mail_in, box, CATAPULT).script()
    assert t.to_act() == [1] and t.view()["catapult"]["kind"] is None
    assert t.deadline(1) == "catapult knockout"
    assert t.view()["catapult"]["kind"] == "knockout" and t.to_act() == [0, 1]
