"""A seat that owes a decision in another seat's turn (a Carcassonne dragon step or
bid, a Cartoona reaction the turn waits for) is told so, by name: "It is Ann's turn,
and the game waits for your decision", with the subject "your decision", not "It is
your turn". The games say whose turn of the round it is (``Game.active_seat``); the
mails, the mail replies and the pages word it. (The whole windows played by mail, with
these words checked at each: tests/test_carcassonne_windows_by_mail.py.)"""
from __future__ import annotations

from email import message_from_bytes
from email.policy import default

from pbem import games
from pbem.games.playout import play_random
from pbem.notify.kinds import REMINDER, YOUR_TURN, Notice
from pbem.notify.mail import compose
from pbem.web.model import turn_words

NAMES = ["Ann", "Bob", "Cy"]


def notice(kind: str, seat: int, active) -> Notice:
    return Notice(kind=kind, game_id="g1", game="carcassonne", title="Evening", seat=seat,
                  seat_name=NAMES[seat], version=7, status="active", to_act=[seat], names=NAMES,
                  game_title="Carcassonne", turn=[seat], active=active, deadline=1.8e9)


def read(n: Notice):
    msg = compose(n, "x@example.test", b"secret", "mail.test", "pbem@mail.test")
    back = message_from_bytes(msg.as_bytes(), policy=default)
    return (back["Subject"], back.get_body(("plain",)).get_content(),
            back.get_body(("html",)).get_content())


def test_a_decision_in_anothers_turn_is_mailed_as_that_not_as_your_turn():
    subject, text, html = read(notice(YOUR_TURN, 1, active=0))
    assert subject == "[pbem] Evening: your decision (v7)"
    assert "It is Ann's turn, and the game waits for your decision." in text
    assert "It is your turn" not in text and "your turn" not in html
    assert "your decision" in html and "Ann&#x27;s turn" in html
    subject, text, _ = read(notice(REMINDER, 2, active=0))
    assert subject == "[pbem] Evening: reminder: your decision (v7)"
    assert "Reminder: the game still waits for your decision in Ann's turn" in text


def test_the_active_seat_and_games_without_one_get_your_turn():
    for active in (1, None):
        subject, text, _ = read(notice(YOUR_TURN, 1, active=active))
        assert subject == "[pbem] Evening: your turn (v7)" and "It is your turn." in text
        subject, text, _ = read(notice(REMINDER, 1, active=active))
        assert subject == "[pbem] Evening: reminder: your turn (v7)"
        assert "Reminder: it is still your turn." in text


def test_the_page_status_line_says_whose_turn_the_decision_is_in():
    summary = {"status": "active", "to_act": [1], "active": 0,
               "seats": [{"seat": s, "name": n, "joined": True} for s, n in enumerate(NAMES)]}
    assert turn_words(summary, NAMES, 1) == "Ann's turn: the game waits for your decision."
    assert turn_words(summary, NAMES, 2) == "Bob to play."
    assert turn_words({**summary, "to_act": [0], "active": 0}, NAMES, 0) == "Your turn."
    assert turn_words({**summary, "active": None}, NAMES, 1) == "Your turn."


def test_carcassonne_names_the_active_seat_while_another_owes_a_decision():
    """Over random all-ten games: while a seat other than the active one is to act
    (dragon steps, bids, captures...), ``active_seat`` is the seat whose turn it is, and
    the seat placing a tile is always its own active seat."""
    game = games.get("carcassonne")
    others = 0
    for seed in range(3):
        p = play_random(game, 3, {"expansions": list(game.bench_setups[-1][1]["expansions"])}, seed=seed)
        state = game.start(3, p.options)
        for event in p.events:
            state = game.evolve(state, event)
            if state.over:
                assert game.active_seat(state) is None
                continue
            active = game.active_seat(state)
            assert active == state.active
            for seat, owed in state.pending.items():
                if owed == "place_tile":
                    assert seat == active
                elif seat != active:
                    others += 1
    assert others > 20  # the windows did come up


def test_games_without_turns_in_others_turns_have_no_active_seat():
    for name in ("kachina", "wakanda"):
        game = games.get(name)
        p = play_random(game, 2, {}, seed=1)
        assert game.active_seat(p.state) is None


def test_cartoona_names_the_active_player_through_its_reaction_windows():
    game = games.get("cartoona")
    seen = 0
    for players, options in game.sample_setups[:3]:
        p = play_random(game, players, options, seed=2)
        state = game.start(players, p.options)
        for event in p.events:
            state = game.evolve(state, event)
            if state["end"] is not None:
                assert game.active_seat(state) is None
                continue
            assert game.active_seat(state) == state["active"]
            seen += any(s != state["active"] for s in game.turn_of(state))
    assert seen  # some window waited for a seat other than the active player


def test_the_cli_board_says_whose_turn_a_decision_is_in():
    from io import StringIO

    from pbem.cli import _board
    summary = {"title": "T", "game": "carcassonne", "status": "active", "version": 3, "board": "",
               "to_act": [1], "active": 0, "seats": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}]}
    for active, line in ((0, "to act: Bob (seat 1), in Ann's turn"), (1, "to act: Bob (seat 1)\n"),
                         (None, "to act: Bob (seat 1)\n")):
        out = StringIO()
        _board({**summary, "active": active}, out)
        assert line in out.getvalue(), out.getvalue()


def test_a_webhook_says_whose_turn_the_decision_is_in():
    from pbem.api.notify_views import PayloadData
    payload = notice(YOUR_TURN, 1, active=0).as_payload()
    assert payload["game"]["to_act"] == [1] and payload["game"]["active"] == 0
    assert PayloadData().validate(payload) == {}               # as the spec's WebhookPayload says
    assert notice(YOUR_TURN, 1, active=None).as_payload()["game"]["active"] is None
