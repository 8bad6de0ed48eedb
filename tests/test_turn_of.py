"""``Game.turn_of``: whose turn it is (the seats the game waits for), as
against ``to_act`` (every seat that may act now). By default the same;
Cartoona's full game leaves out the seats that may only act out of turn.
The mails follow it: "your turn" to whose turn it is, and a seat that may
only act out of turn is told so once in the game, in words."""
from __future__ import annotations

import random

import pytest

from pbem.games import all_games, get
from pbem.games.base import rng_for

from .conftest import drain
from .mail_reader import Maildir, text_of
from .test_notify_support import new_game, notify_env, run_jobs, smtp, submit  # noqa: F401


def states(game, players, options, seed=0, limit=400):
    """The states of one seeded random game, move by move."""
    options = game.check_options(players, options)
    chooser = random.Random(seed)
    state = game.start(players, options)
    for event in game.setup(state, rng_for(b"turn_of", 0)):
        state = game.evolve(state, event)
    version = 1
    for _ in range(limit):
        yield state
        acting = sorted(game.to_act(state))
        if game.result(state) is not None or not acting:
            return
        player = chooser.choice(acting)
        for event in game.decide(state, player, chooser.choice(game.legal_moves(state, player)),
                                 rng_for(b"turn_of", version)):
            state = game.evolve(state, event)
            version += 1


@pytest.mark.parametrize("game,players,options", [(g, p, o) for g in all_games() for p, o in g.sample_setups],
                         ids=lambda x: getattr(x, "name", None) or str(x))
def test_whose_turn_is_among_those_to_act_and_never_nobody(game, players, options):
    for state in states(game, players, options):
        to_act, turn = game.to_act(state), game.turn_of(state)
        assert turn <= to_act and bool(turn) == bool(to_act)


def test_cartoona_full_game_waits_for_the_active_player_and_the_windows_seats():
    game = get("cartoona")
    seen_free = seen_window = False
    for seed in range(20):  # random games until both kinds of moment were met
        for state in states(game, 3, {}, seed=seed, limit=600):
            to_act, turn = game.to_act(state), game.turn_of(state)
            if state["end"] is not None:
                continue
            if state["window"] is not None:
                assert turn == to_act == frozenset(state["window"]["pending"])
                seen_window = True
            elif state["instant"] is None:
                assert turn == {state["active"]}  # the others may play out of turn: not their turn
                seen_free = seen_free or len(to_act) > 1
        if seen_free and seen_window:
            break
    assert seen_free and seen_window
    basic = get("cartoona")
    for state in states(basic, 3, {"mode": "basic"}, limit=100):
        assert basic.turn_of(state) == basic.to_act(state)


def test_your_turn_to_the_active_player_and_one_mail_in_the_game_to_those_who_may_react(
        service, redis_client, notify_env, monkeypatch, tmp_path):
    monkeypatch.delenv("SMTP_URL")
    box = Maildir(tmp_path / "maildir")
    names = ("Ann", "Bob", "Cy")
    game_id, keys, _ = new_game(service, "cartoona", {}, names=names)
    run_jobs(redis_client)
    turns = 0
    while turns < 4:
        loaded = service.load(game_id)
        game, state = loaded.game, loaded.state
        active = state["active"]
        if game.to_act(state) - {active}:
            assert game.turn_of(state) == {active}
        # the active player ends the turn without a card: no window opens
        move = next(m for m in game.legal_moves(state, active) if m["type"] == "end_turn")
        submit(service, game_id, active, keys, move, loaded.version)
        drain(service)
        run_jobs(redis_client)
        turns += 1
    mails = box.all()
    turn_mails = [m for m in mails if m["X-Pbem-Kind"] == "your_turn"]
    react_mails = [m for m in mails if m["X-Pbem-Kind"] == "may_react"]
    # 5 turns began (the first and one after each end turn): one "your turn" each, to its active player
    assert len(turn_mails) == 5, "\n".join(f"{m['To']} {m['Subject']}" for m in mails)
    # every seat was told once that it may act out of turn, in words, with what it may do
    assert sorted(str(m["To"]) for m in react_mails) == sorted(f"{n} <p{i}@example.test>"
                                                               for i, n in enumerate(names))
    for m in react_mails:
        text = text_of(m)
        assert "meanwhile you may act out of turn" in text and "The game does not wait for you" in " ".join(text.split())
        assert "pass" in text and "What you may do now, for example:" in text
        assert "It is your turn." not in text
