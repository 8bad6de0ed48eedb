"""The takeback contract, for every registered game and sample setup (pure:
no server). Seeded random play; after each move, the mover asks to take it
back and every other seat accepts (pbem/games/takeback.py, as the server
and the verifier decide it): where the game allows it (``takeback_refusal``
is None) the state after the takeback is exactly the state before the
move, and a replay of the whole log, takebacks folded in, equals the live
state; where it does not, the request is refused with the game's code,
and a seat that did not make the last move cannot ask."""
from __future__ import annotations

import random

import pytest

from pbem import games
from pbem.games import takeback
from pbem.games.base import IllegalMove, canonical, rng_for

MOVES = 40   # moves per setup: a takeback after each where allowed
SETUPS = [(g, players, options) for g in games.all_games() for players, options in g.sample_setups[:1]]


@pytest.mark.parametrize("game,players,options", SETUPS, ids=[f"{g.key}-{p}" for g, p, _o in SETUPS])
def test_a_takeback_gives_exactly_the_earlier_state(game, players, options):
    options = game.check_options(players, options)
    seed, chooser = b"takeback-contract", random.Random(5)
    state = game.start(players, options)
    log: list[dict] = []                  # every event, in order: version v is log[v - 1]
    states = [state]                      # the state at each version (the fold's "state at v")
    steps: list[takeback.Step] = []

    def append(player, move, events):
        nonlocal state
        steps.append(takeback.Step(player, move, len(log), list(events)))
        for event in events:
            state = takeback.fold(game, state, event, lambda v: states[v])
            log.append(event)
            states.append(state)

    append(None, None, game.setup(state, rng_for(seed, 0)))
    allowed = refused = 0
    for _ in range(MOVES):
        if game.result(state) is not None:
            break
        player = chooser.choice(sorted(game.to_act(state)))
        move = chooser.choice(game.legal_moves(state, player))
        before = state
        events = game.decide(state, player, move, rng_for(seed, len(log)))
        append(player, move, events)
        for seat in range(players):
            if seat != player:
                with pytest.raises(IllegalMove) as err:
                    takeback.decide(game, players, steps, seat, {"takeback": "request"}, lambda v: states[v])
                assert err.value.code in ("takeback_no_move", "takeback_moved_on")
        why = game.takeback_refusal(before, players, player, move, events)
        try:
            asked = takeback.decide(game, players, steps, player, {"takeback": "request"}, lambda v: states[v])
        except IllegalMove as err:
            assert why is not None and err.code == why[0], (err.code, why)
            refused += 1
            continue
        assert why is None
        append(player, {"takeback": "request"}, asked)
        for seat in range(players):
            if seat != player:
                answer = takeback.decide(game, players, steps, seat, {"takeback": "accept"}, lambda v: states[v])
                append(seat, {"takeback": "accept"}, answer)
        assert canonical(game.dump(state)) == canonical(game.dump(before))
        assert takeback.pending(steps) is None
        allowed += 1
        # replay equals live across the takebacks
        replayed, by_version = game.start(players, options), []
        by_version.append(replayed)
        for event in log:
            replayed = takeback.fold(game, replayed, event, lambda v: by_version[v])
            by_version.append(replayed)
        assert canonical(game.dump(replayed)) == canonical(game.dump(state))
        if allowed >= 3:
            break
    assert allowed + refused > 0


def test_in_a_game_of_one_nobody_is_asked_and_the_takeback_is_made_at_once():
    game = games.get("cartoona")
    options = game.check_options(1, {"mode": "solo"})
    seed, chooser = b"takeback-solo", random.Random(3)
    state = game.start(1, options)
    states, steps = [state], []

    def append(player, move, events):
        nonlocal state
        steps.append(takeback.Step(player, move, len(states) - 1, list(events)))
        for event in events:
            state = takeback.fold(game, state, event, lambda v: states[v])
            states.append(state)

    append(None, None, game.setup(state, rng_for(seed, 0)))
    for _ in range(60):
        before = state
        move = chooser.choice(game.legal_moves(state, 0))
        events = game.decide(state, 0, move, rng_for(seed, len(states) - 1))
        append(0, move, events)
        if game.takeback_refusal(before, 1, 0, move, events) is None:
            made = takeback.decide(game, 1, steps, 0, {"takeback": "request"}, lambda v: states[v])
            assert [e["type"] for e in made] == [takeback.TAKEBACK_REQUESTED, takeback.TAKEBACK_APPLIED]
            assert made[0]["asked"] == []
            append(0, {"takeback": "request"}, made)
            assert canonical(game.dump(state)) == canonical(game.dump(before))
            assert takeback.pending(steps) is None
            return
    raise AssertionError("no move of the solo game could be taken back")
