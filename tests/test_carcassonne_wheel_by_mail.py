"""The Wheel of Fortune's Plague (a house reading) through the service and by mail: a
window both seats answer at once. The seats are mail-only (invited by mail, joined by
reply); every move is a reply by SMTP to the real inbound listener on loopback. Bob
answers the Plague by mail while Ann's answer is still owed; Ann's is then left to its
deadline: the deadline job plays the server's move (the follower on the latest placed
tile) and tells her by mail."""
from __future__ import annotations

import pytest

from .mail_reader import text_of
from .test_carcassonne_windows_by_mail import NAMES, MailTable, begin, flat, version_of
from .test_mail_in_support import mail_env, mail_in, notify_env, run_jobs, smtp  # noqa: F401

pytestmark = pytest.mark.timeout(60)

#: Ann's knight, Bob's thief; Ann's wheel tile takes the pig to Famine, Bob's (drawn after
#: Ann passes the crowns) to the Plague
PLAGUE = (["E", "U", "WFB", "WFD", "V"], ["wheel_of_fortune"], {},
          [(0, "place -1,-3 r0 follower city N"), (1, "place 1,-3 r0 follower road E"), (0, "place -3,-2 r0"),
           (0, "pass")])


class PlagueTable(MailTable):
    def turn_mail(self, seat: int):
        """The newest mail to ``seat``, one of the seats to act (the Plague asks both)."""
        assert seat in self.to_act(), (NAMES[seat], self.to_act())
        msg = self.newest(seat)
        assert msg["X-Pbem-Kind"] in ("your_turn", "mail_reply"), msg["Subject"]
        return msg


def test_the_plague_by_mail_and_by_deadline(service, redis_client, mail_in, monkeypatch, tmp_path):
    box = begin(monkeypatch, tmp_path)
    t = PlagueTable(service, redis_client, mail_in, box, PLAGUE).script()
    assert t.to_act() == [0, 1] and t.view()["wheel"]["plague"] == [1, 0] and t.view()["wheel"]["pig"] == "plague"
    ann, bob = text_of(t.newest(0)), text_of(t.newest(1))
    assert "plague -1,-3 city N" in flat(ann), ann
    assert "plague 1,-3 road E" in flat(bob), bob
    assert version_of(t.newest(0)) == t.loaded.version
    # Bob answers by mail; Ann still owes hers: the window stays open
    t.window(1, "must send one of their followers home (the Plague)", "plague X,Y road E", "plague 1,-3 road E")
    view = t.view()
    assert t.to_act() == [0] and view["wheel"]["plague"] == [0] and view["supply"] == [6, 7]
    # Ann's answer is left to its deadline: the follower on the latest placed tile, her knight
    assert t.deadline(0) == "plague -1,-3 city N"
    view = t.view()
    assert view["wheel"]["plague"] is None and view["supply"] == [7, 7] and t.to_act() == [1]
    assert view["tile"] == "WFD" and view["followers"] == []


#: Ann's U, then her step 5 by mail: a follower on a crown of Tax; Bob's WFA, drawn at
#: once, turns the pig onto Tax
CROWN = (["U", "WFA", "E", "E"], ["wheel_of_fortune"], {}, [(0, "place 0,-3 r90")])


def test_a_crown_by_mail_then_the_next_step_5_left_to_its_deadline(service, redis_client, mail_in, monkeypatch,
                                                                     tmp_path):
    """The crown (the action ``wheel SECTOR``, step 5) is offered in the mail and played by
    reply; the wheel tile Bob then draws pays it and sends it home. Bob's own step 5 is
    left to its deadline: the server passes (no crown), and the mail says so."""
    box = begin(monkeypatch, tmp_path)
    t = MailTable(service, redis_client, mail_in, box, CROWN).script()
    assert t.to_act() == [0]
    t.window(0, "may act away from the tile (or pass)", "wheel tax", "wheel tax")
    # Bob draws WFA at once: the pig goes Fortune -> Tax, Ann's crown scores 3 and goes home
    view = t.view()
    assert view["tile"] == "WFA" and view["wheel"]["pig"] == "tax" and view["scores"] == [3, 0]
    assert view["supply"] == [7, 7] and view["wheel"]["sectors"][1]["crowns"] == [None, None]
    t.play(1, "place -3,-1 r180")
    assert t.to_act() == [1] and t.loaded.state.pending == {1: "action"}
    assert t.deadline(1) == "pass"
    view = t.view()
    assert view["supply"] == [7, 7] and all(c is None for s in view["wheel"]["sectors"] for c in s["crowns"])
    assert t.to_act() == [0]
