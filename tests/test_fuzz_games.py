"""Fuzzing every registered game with hypothesis: random sequences of legal
and illegal moves never corrupt the state, replay equals live, and a view or
a redacted event never leaks what is hidden.

Two levels:

* the rules, for every game and every sample setup: hypothesis picks a
  random legal prefix (to reach deep into long games), then steers each step:
  a legal move, a mutated legal move, a move by a seat not to act, or
  garbage. Whatever is refused raises ``GameError`` and changes nothing;
  whatever is accepted was legal. At the end the log replays to the live
  state, the snapshot round-trips, and every viewer's view is the same for a
  re-deal of what is hidden from them (the contract suite's resample check);
* the service, once per game on a real Redis: signed envelopes, some illegal,
  some stale, some by the wrong seat, some replayed, through submit and the
  drain; the stored log then replays to what the service loads, the version
  is the log's length, and only applied moves have events.

Bounded: ``PBEM_FUZZ_GAME_EXAMPLES`` examples per setup (default 6), at most
``STEPS`` steered steps each, no deadline.
"""
from __future__ import annotations

import hashlib
import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import games
from pbem.trust import signing
from pbem.errors import ServiceError
from pbem.games.base import OMNISCIENT, SPECTATOR, GameError, canonical, rng_for

from .conftest import drain

EXAMPLES = int(os.environ.get("PBEM_FUZZ_GAME_EXAMPLES", "6"))
STEPS = 40
PREFIX = 400

CASES = [
    pytest.param(game, players, options, id=f"{game.key}-{players}p-{canonical(options)}")
    for game in games.all_games()
    for players, options in game.sample_setups
]
#: The service creates new games with a game's newest version only.
FIRST_SETUP = [pytest.param(game, *game.sample_setups[0], id=game.key) for game in games.latest_games()]

GARBAGE = st.one_of(st.none(), st.booleans(), st.integers(-3, 10**6), st.floats(allow_nan=False),
                    st.text(max_size=12), st.lists(st.integers(-2, 50), max_size=3),
                    st.dictionaries(st.text(max_size=6), st.integers(-2, 50), max_size=3))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])


def mutate(data, move):
    """A legal move with one field replaced, one field dropped or one added."""
    move = json.loads(canonical(move))
    kind = data.draw(st.sampled_from(["replace", "drop", "add", "whole"]), label="mutation")
    if kind == "whole" or not isinstance(move, dict) or not move:
        return data.draw(GARBAGE, label="garbage move")
    field = data.draw(st.sampled_from(sorted(move)), label="field")
    if kind == "replace":
        move[field] = data.draw(GARBAGE, label="garbage value")
    elif kind == "drop":
        del move[field]
    else:
        move[data.draw(st.text(min_size=1, max_size=8), label="new field")] = data.draw(GARBAGE)
    return move


def check_views(game, state, players, rng):
    viewers = [*range(players), SPECTATOR]
    for viewer in viewers:
        other = game.resample(state, viewer, rng)
        assert canonical(game.view(other, viewer)) == canonical(game.view(state, viewer)), (
            f"the view of {viewer} depends on something hidden from them")
        json.dumps(game.view(state, viewer))
        assert isinstance(game.render(state, viewer), str)


def check_redaction(game, events, players):
    for event in events:
        for viewer in [*range(players), SPECTATOR]:
            seen = game.redact(event, viewer)
            if viewer not in event.get("to", ()):
                assert "secret" not in seen, f"{event.get('type')} shows its secret to {viewer}"


@pytest.mark.parametrize("game,players,options", CASES)
@FUZZ
@given(data=st.data())
def test_rules_survive_random_legal_and_illegal_moves(game, players, options, data):
    options = game.check_options(players, options)
    seed = data.draw(st.integers(0, 2**32), label="seed")
    seed_bytes = f"fuzz:{seed}".encode()
    chooser = random.Random(seed)
    state = game.start(players, options)
    log = list(game.setup(state, rng_for(seed_bytes, 0)))
    state = game.apply(state, log)
    prefix = data.draw(st.integers(0, PREFIX), label="random legal prefix")
    steps = 0
    refused = accepted = 0
    while game.result(state) is None and steps < prefix + STEPS:
        acting = sorted(game.to_act(state))
        assert acting, "nobody to act and no result"
        steered = steps >= prefix
        steps += 1
        if not steered:
            player = chooser.choice(acting)
            move = chooser.choice(game.legal_moves(state, player))
        else:
            player = data.draw(st.sampled_from(acting), label="player")
            legal = game.legal_moves(state, player)
            assert legal, f"seat {player} is to act but has no legal move"
            kind = data.draw(st.sampled_from(["legal", "legal", "mutated", "wrong_seat", "garbage"]), label="kind")
            if kind == "legal":
                move = data.draw(st.sampled_from(legal), label="legal move")
            elif kind == "mutated":
                move = mutate(data, data.draw(st.sampled_from(legal)))
            elif kind == "garbage":
                move = data.draw(GARBAGE, label="garbage move")
            else:
                others = [p for p in range(players) if p not in acting]
                if not others:
                    continue
                player, move = data.draw(st.sampled_from(others)), data.draw(st.sampled_from(legal))
            is_legal = player in acting and isinstance(move, dict) and canonical(move) in {
                canonical(m) for m in game.legal_moves(state, player)}
            before = canonical(game.dump(state))
            try:
                game.check_turn(state, player)
                events = game.decide(state, player, move, rng_for(seed_bytes, len(log)))
            except GameError as err:
                assert not is_legal, f"a legal move was refused: {err}"
                assert canonical(game.dump(state)) == before, "a refused move changed the state"
                refused += 1
                continue
            assert is_legal, f"an illegal move was accepted: {move!r} by {player}"
            assert canonical(game.dump(state)) == before, "decide mutated the state"
            accepted += 1
        events = game.decide(state, player, move, rng_for(seed_bytes, len(log)))
        assert events, "a legal move produced no event"
        events = json.loads(json.dumps(events))  # what the store gives back
        log.extend(events)
        state = game.apply(state, events)
    # Replay equals live; the snapshot round-trips.
    replayed = game.replay(players, options, json.loads(json.dumps(log)))
    assert canonical(game.dump(replayed)) == canonical(game.dump(state))
    restored = game.load(json.loads(json.dumps(game.dump(state))))
    assert canonical(game.dump(restored)) == canonical(game.dump(state))
    # Views and events hide what they must (skipped once the game is over:
    # then everything is public).
    if game.result(state) is None:
        check_views(game, state, players, random.Random(seed))
    check_redaction(game, log[-30:], players)
    for viewer in [*range(players), SPECTATOR, OMNISCIENT]:
        assert canonical(game.view(restored, viewer)) == canonical(game.view(state, viewer))


def play_through_service(service, game, players, options, data):
    # The deal must come from hypothesis too: with a random seed the legal
    # moves (and so the draws) differ between runs of one example, which
    # hypothesis rightly calls a flaky strategy.
    seed = hashlib.sha256(b"fuzz-service:%d" % data.draw(st.integers(0, 2**32), label="seed")).digest()
    created = service.create_game(game.name, players, options, seed=seed)
    game_id = created["id"]
    keys = []
    for seat in range(players):
        private, public = signing.generate_key()
        service.join(game_id, seat, public, f"p{seat}")
        keys.append(private)
    applied, refused_at_edge, rejected = [], 0, 0
    used_envelopes = []
    for _ in range(STEPS):
        loaded = service.load(game_id)
        if loaded.finished:
            break
        acting = sorted(loaded.game.to_act(loaded.state))
        player = data.draw(st.sampled_from(acting), label="player")
        legal = loaded.game.legal_moves(loaded.state, player)
        kind = data.draw(st.sampled_from(["legal", "legal", "legal", "mutated", "wrong_seat", "stale",
                                          "wrong_key", "replayed"]), label="kind")
        move, signer, version = data.draw(st.sampled_from(legal)), player, loaded.version
        if kind == "mutated":
            move = mutate(data, move)
            if not isinstance(move, dict):
                move = {"type": move}
        elif kind == "wrong_seat":
            others = [p for p in range(players) if p not in acting]
            if others:
                player = signer = data.draw(st.sampled_from(others))
        elif kind == "stale":
            version = data.draw(st.integers(0, loaded.version + 3))
        elif kind == "wrong_key":
            signer = (player + 1) % players
        if kind == "replayed" and used_envelopes:
            envelope = data.draw(st.sampled_from(used_envelopes))
        else:
            envelope = signing.make_envelope(game_id, player, version, move, keys[signer])
        try:
            record = service.submit(game_id, envelope)
        except ServiceError as err:
            assert 400 <= err.status < 500
            refused_at_edge += 1
            assert service.store.version(game_id) == loaded.version
            continue
        used_envelopes.append(envelope)
        drain(service)
        outcome = service.store.move(game_id, record["id"])
        assert outcome["status"] in ("applied", "rejected"), outcome
        if outcome["status"] == "applied":
            applied.append(record["id"])
            assert outcome["version_before"] == loaded.version
        else:
            rejected += 1
            assert service.store.version(game_id) == loaded.version
    return game_id, applied


@pytest.mark.parametrize("game,players,options", FIRST_SETUP)
@settings(max_examples=max(2, EXAMPLES // 2), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(data=st.data())
def test_service_survives_random_envelopes(service, game, players, options, data):
    from pbem.service import Service

    game_id, applied = play_through_service(service, game, players, options, data)
    rows = service.store.events(game_id)
    assert [v for v, _, _ in rows] == list(range(1, len(rows) + 1))
    assert service.store.version(game_id) == len(rows)
    movers = {m for _, _, m in rows} - {"setup"}
    assert movers == set(applied), "events of a move that was not applied, or an applied move without events"
    meta = service.store.meta(game_id)
    replayed = game.replay(players, meta["options"], [e for _, e, _ in rows])
    cold = Service(service.store, snapshot_every=service.snapshot_every).load(game_id)  # snapshot + tail
    live = service.load(game_id)  # the cache the worker path kept up to date
    assert canonical(game.dump(cold.state)) == canonical(game.dump(replayed))
    assert canonical(game.dump(live.state)) == canonical(game.dump(replayed))
    for seat in range(players):
        shown = service.summary(live, seat)
        assert shown["view"] == json.loads(canonical(game.view(replayed, OMNISCIENT if live.finished else seat)))
