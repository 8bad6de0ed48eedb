"""The contract every registered game passes, for each of its sample setups.

Random legal play ends with a result; replay equals live; a snapshot answers
as its state; nothing mutates; views and redacted events hide what they
must; illegal or malformed moves raise IllegalMove and change nothing; the
text notation round-trips; several seats to act answer one window.
"""
from __future__ import annotations

import functools
import json
import os
import random
import re

import pytest

from pbem import games
from pbem.games.base import OMNISCIENT, SPECTATOR, IllegalMove, ParseError, canonical, rng_for
from pbem.games.playout import play_random

SEEDS = int(os.environ.get("PBEM_CONTRACT_SEEDS", "12"))

CASES = [
    pytest.param(game, players, options, id=f"{game.key}-{players}p-{canonical(options)}")
    for game in games.all_games()
    for players, options in game.sample_setups
]


def test_every_game_has_sample_setups():
    assert games.all_games(), "no game registered"
    for game in games.all_games():
        assert game.sample_setups, f"{game.key} declares no sample_setups"
        for players, options in game.sample_setups:
            game.check_options(players, options)


def walk(game, players, options, seed):
    """Yield (state, player_to_move, legal, version) at every step of a seeded random game."""
    options = game.check_options(players, options)
    seed_bytes = f"contract:{seed}".encode()
    chooser = random.Random(seed)
    state = game.start(players, options)
    log = list(game.setup(state, rng_for(seed_bytes, 0)))
    state = game.apply(state, log)
    for _ in range(20000):
        if game.result(state) is not None:
            return
        acting = sorted(game.to_act(state))
        assert acting, "nobody to act and no result"
        player = chooser.choice(acting)
        legal = game.legal_moves(state, player)
        assert legal, f"seat {player} is to act but has no legal move"
        yield state, player, legal, log, seed_bytes, chooser
        move = chooser.choice(legal)
        events = game.decide(state, player, move, rng_for(seed_bytes, len(log)))
        assert events, "a legal move produced no event"
        log.extend(events)
        state = game.apply(state, events)
    raise AssertionError("no result after 20000 moves")


@functools.lru_cache(maxsize=4)
def _walked(game, players, options_text, seed):
    """The steps of ``walk`` for one seed, kept for the next test of the same
    setup (tests of one setup run one after another: conftest.py): (the
    full log, seed bytes, [(state, player, legal, log length)])."""
    steps, log = [], None
    for state, player, legal, log, seed_bytes, _ in walk(game, players, json.loads(options_text), seed):
        steps.append((state, player, legal, len(log)))
    return log, f"contract:{seed}".encode(), steps


def walked(game, players, options, seed):
    """``walk``'s steps without its chooser (for the tests that only look:
    a state is never mutated, test_decide_and_evolve_never_mutate checks it),
    computed once per setup and seed; each step's log is the log up to it."""
    log, seed_bytes, steps = _walked(game, players, canonical(game.check_options(players, options)), seed)
    for state, player, legal, n in steps:
        yield state, player, legal, log[:n], seed_bytes, None


@functools.lru_cache(maxsize=12)
def played(game, players, options_text, seed):
    """``play_random``'s playout, kept for the next test of the same setup
    (test_same_seed_same_game plays its seed once more afresh)."""
    return play_random(game, players, json.loads(options_text), seed=seed)


def playout_of(game, players, options, seed):
    return played(game, players, canonical(game.check_options(players, options)), seed)


@pytest.mark.parametrize("game,players,options", CASES)
def test_random_play_ends_with_a_result(game, players, options):
    for seed in range(SEEDS):
        playout = playout_of(game, players, options, seed)
        result = game.result(playout.state)
        assert result is not None
        assert len(result.scores) == players and len(result.placings) == players
        assert min(result.placings) == 1
        assert not game.to_act(playout.state), "someone is still to act after the end"
        json.dumps(result.as_dict())


@pytest.mark.parametrize("game,players,options", CASES)
def test_same_seed_same_game(game, players, options):
    a = playout_of(game, players, options, 7)  # played by test_random_play_ends_with_a_result (when SEEDS > 7)
    b = play_random(game, players, options, seed=7)  # and again, afresh
    assert canonical(a.events) == canonical(b.events)


@pytest.mark.parametrize("game,players,options", CASES)
def test_replay_equals_live_and_snapshots_round_trip(game, players, options):
    for seed in range(min(SEEDS, 6)):
        playout = playout_of(game, players, options, seed)
        events = json.loads(json.dumps(playout.events))  # what the store gives back
        replayed = game.replay(players, playout.options, events)
        assert canonical(game.dump(replayed)) == canonical(game.dump(playout.state))
        restored = game.load(json.loads(json.dumps(game.dump(replayed))))
        assert canonical(game.dump(restored)) == canonical(game.dump(replayed))
        for viewer in [*range(players), SPECTATOR, OMNISCIENT]:
            assert canonical(game.view(restored, viewer)) == canonical(game.view(playout.state, viewer))


def stored(value):
    """What the store gives back: JSON with sorted keys, read again."""
    return json.loads(json.dumps(value, sort_keys=True))


@pytest.mark.parametrize("game,players,options", CASES)
def test_a_snapshot_answers_exactly_as_its_state(game, players, options):
    """A state restored from a snapshot (JSON with sorted keys) gives the same
    legal moves in the same order, the same boards and the same events for
    the same move: a process that loaded a game must decide as one that
    followed it (see also tests/test_hash_seed.py)."""
    viewers = [*range(players), SPECTATOR, OMNISCIENT]
    for seed in range(2):
        for step, (state, player, legal, log, seed_bytes, chooser) in enumerate(
                walked(game, players, options, seed)):
            if step % 7:
                continue
            restored = game.load(stored(game.dump(state)))
            assert game.turn_of(restored) == game.turn_of(state) and game.turn_of(state) <= game.to_act(state)
            # whose turn of the round it is (mails word a decision in another's turn by it)
            active = game.active_seat(state)
            assert game.active_seat(restored) == active and (active is None or 0 <= active < players)
            for seat in sorted(game.to_act(state)):
                assert canonical(game.legal_moves(restored, seat)) == canonical(game.legal_moves(state, seat))
            for viewer in viewers:
                assert game.render(restored, viewer) == game.render(state, viewer)
            move = legal[step % len(legal)]
            rng = rng_for(seed_bytes, len(log))
            assert canonical(game.decide(restored, player, move, rng_for(seed_bytes, len(log)))) == canonical(
                game.decide(state, player, move, rng)), f"{move} decided otherwise on the restored state"


def _answer(game, state, seat, rng):
    """One legal move of ``seat`` and the state after it."""
    move = rng.choice(game.legal_moves(state, seat))
    return move, game.apply(state, game.decide(state, seat, move, rng))


@pytest.mark.parametrize("game,players,options", CASES)
def test_several_seats_to_act_answer_one_window(game, players, options):
    """Concurrency (``window``, ``concurrent_ok``): a strict game never has
    several seats to act; in a window game several seats to act always
    answer a named window. When one of them answers, another seat still to
    act with the same choices has not seen its window close, and while the
    window is open its still-legal answer, signed before, stands and is
    accepted; once the window has closed nothing signed in it stands."""
    assert game.concurrency in ("strict", "window") and game.concurrency_doc
    rng = random.Random(11)
    for seed in range(3):
        for step, (then, player, legal, log, seed_bytes, chooser) in enumerate(
                walked(game, players, options, seed)):
            acting, window = game.to_act(then), game.window(then)
            if game.concurrency == "strict":
                assert window is None and len(acting) <= 1, f"a strict game has {sorted(acting)} to act"
                continue
            if len(acting) > 1:
                assert window is not None, f"seats {sorted(acting)} are to act in no named window"
            if window is None or len(acting) < 2 or step % 3:
                continue
            json.dumps(window)
            p = rng.choice(sorted(acting))
            kinds_p = {m["type"] for m in game.legal_moves(then, p)}
            _, now = _answer(game, then, p, rng)
            same = game.window(now) == window
            for q in sorted(acting - {p}):
                if q not in game.to_act(now):
                    assert not game.concurrent_ok(then, now, q)
                    continue
                before, after = game.legal_moves(then, q), game.legal_moves(now, q)
                # Seats answering the same question (one's kinds of move among the
                # other's: block/pass and pass, keep/redraw and keep): one's answer
                # must not close the window on the other. The active player of a
                # turn others may act in (Cartoona) is no such peer: ending the
                # turn closes its window by design, whatever the others may do.
                kinds_q = {m["type"] for m in before}
                peers = kinds_p <= kinds_q or kinds_q <= kinds_p
                if peers and game.to_act(now) == acting - {p} and canonical(before) == canonical(after):
                    assert same, f"seat {p}'s answer closed the window while seat {q} still answers it"
                assert game.concurrent_ok(then, now, q) == same
                still = [m for m in before if canonical(m) in {canonical(x) for x in after}]
                if same and still:
                    game.decide(now, q, rng.choice(still), rng)  # accepted on the state it applies to
            # Play on until the window has closed: then nothing signed in it stands.
            later = now
            for _ in range(30):
                if game.window(later) != window:
                    for q in range(players):
                        assert not game.concurrent_ok(then, later, q), f"seat {q}'s move stands after its window"
                    break
                if game.result(later) is not None:
                    break
                _, later = _answer(game, later, rng.choice(sorted(game.to_act(later))), rng)


def test_window_games_show_a_window_in_their_sample_setups():
    for game in games.all_games():
        if game.concurrency != "window":
            continue
        seen = any(len(game.to_act(state)) > 1
                   for players, options in game.sample_setups
                   for state, *_ in walk(game, players, options, 0))
        assert seen, f"{game.key} declares window concurrency, but no sample setup has several seats to act"


@pytest.mark.parametrize("game,players,options", CASES)
def test_decide_and_evolve_never_mutate(game, players, options):
    for seed in range(3):
        for state, player, legal, log, seed_bytes, chooser in walk(game, players, options, seed):
            before = canonical(game.dump(state))
            move = chooser.choice(legal)
            events = game.decide(state, player, move, rng_for(seed_bytes, len(log)))
            assert canonical(game.dump(state)) == before, "decide mutated the state"
            game.apply(state, json.loads(json.dumps(events)))
            assert canonical(game.dump(state)) == before, "evolve mutated the state"


@pytest.mark.parametrize("game,players,options", CASES)
def test_views_and_events_hide_secrets(game, players, options):
    viewers = [*range(players), SPECTATOR]
    resample_rng = random.Random(99)
    changed = 0
    for seed in range(4):
        checked = 0  # every event of the log is checked once, at the first step that has it
        for step, (state, player, legal, log, seed_bytes, chooser) in enumerate(
                walked(game, players, options, seed)):
            new, checked = log[checked:], len(log)
            for event in new:
                frozen = canonical(event)
                for viewer in viewers:
                    seen = game.redact(event, viewer)
                    if viewer not in event.get("to", ()):
                        assert "secret" not in seen, f"{event['type']} shows its secret to {viewer}"
                        # who was let into a secret is part of it (a secret theft's ``to`` is the thief)
                        assert "to" not in seen, f"{event['type']} shows {viewer} whom its secret is for"
                    json.dumps(seen)
                assert canonical(event) == frozen, "redact mutated an event"
            if step % 3:
                continue
            for viewer in viewers:
                other = game.resample(state, viewer, resample_rng)
                if other is state:
                    # nothing hidden to re-deal (a game without hidden information): the
                    # same state answers the same, so comparing it with itself proves nothing
                    continue
                # (one re-deal that changed something is all the last assertion needs:
                # the dumps are not compared once one has)
                if not changed and canonical(game.dump(other)) != canonical(game.dump(state)):
                    changed += 1
                assert canonical(game.view(other, viewer)) == canonical(game.view(state, viewer)), (
                    f"the view of {viewer} depends on something hidden from them")
                assert game.render(other, viewer) == game.render(state, viewer), (
                    f"the text board of {viewer} depends on something hidden from them")
                if viewer == player:
                    # what a seat may do is part of what it sees (its legal moves, the board's
                    # offers); checked for the seat the walk moves (one a step: they cost)
                    # (``legal`` is the walk's game.legal_moves(state, player))
                    assert canonical(game.legal_moves(other, viewer)) == canonical(legal), (
                        f"the legal moves of {viewer} depend on something hidden from them")
    if game.hidden_information:
        assert changed, "resample never changed anything: the hidden-information check proved nothing"


#: Moves tried per seat and step in the move re-deal check (all, if fewer).
MOVES_TRIED = 48


@pytest.mark.parametrize("game,players,options", CASES)
def test_moves_show_nothing_their_events_hide(game, players, options):
    """The re-deal check for moves (the envelopes behind the log, as move
    statuses and records show them): any two moves a viewer cannot tell
    apart by their redacted events, whoever of the seats to act made them,
    must look the same to that viewer once ``redact_move`` has filtered
    them, or the envelope would tell what the events hide. A move is shown
    whole or withheld, never in part; one withheld once applied is withheld
    while it is queued too. And who made a withheld move stays hidden
    (``who_acted_in_secret_is_hidden``)."""
    viewers = [*range(players), SPECTATOR]
    names = NAMES[:players]
    sampler = random.Random(11)
    for seed in range(2):
        for step, (state, player, legal, log, seed_bytes, chooser) in enumerate(
                walked(game, players, options, seed)):
            if step % 3:
                continue
            made, secret = [], []
            for seat in sorted(game.to_act(state)):
                moves = game.legal_moves(state, seat)
                if game.filters_moves:
                    secret += [(seat, move) for move in moves if game.redact_move(move, seat, SPECTATOR, None) is None]
                if len(moves) > MOVES_TRIED:
                    moves = sampler.sample(moves, MOVES_TRIED)
                for move in moves:
                    made.append((seat, move, game.decide(state, seat, move, rng_for(seed_bytes, len(log)))))
            texts = [canonical(move) for _, move, _ in made]
            for (seat, move, _), text in zip(made, texts):
                assert canonical(game.redact_move(move, seat, OMNISCIENT)) == text
            for viewer in viewers:
                looks: dict[str, set] = {}
                for (seat, move, events), text in zip(made, texts):
                    if seat == viewer:
                        continue
                    shown = game.redact_move(move, seat, viewer, events)
                    assert shown is None or canonical(shown) == text, (
                        f"{move} is shown to {viewer} in part")
                    if shown is None:
                        assert game.redact_move(move, seat, viewer, None) is None, (
                            f"{move} is withheld from {viewer} once applied but shown while queued")
                    seen = canonical([game.redact(event, viewer) for event in events])
                    looks.setdefault(seen, set()).add(None if shown is None else f"[{seat},{text}]")
                for seen, shown in looks.items():
                    assert len(shown) == 1, (
                        f"viewer {viewer} sees the same events {seen[:200]} from moves that look different: "
                        f"{sorted(map(str, shown))[:4]}")
            if len({seat for seat, _ in secret}) > 1:
                who_acted_in_secret_is_hidden(game, state, viewers, names, [
                    (seat, move, game.decide(state, seat, move, rng_for(seed_bytes, len(log)))) for seat, move in secret])


def who_acted_in_secret_is_hidden(game, state, viewers, names, made):
    """The re-deal check for who acted: a move withheld from a viewer hides
    even who sent it, so where two seats could each have made such a move
    (a secret theft in Cartoona) and the viewer's view and board come out
    the same either way, everything else the viewer is shown of that step
    must be the same bytes too: the redacted events and their texts. (The
    state re-deal, ``resample``, gives the secret act to another seat that
    could have made it: test_views_and_events_hide_secrets.) ``made``: every
    move of the seats to act withheld while queued, with its events; such
    moves are few, so all are tried, not a sample."""
    afters = [game.apply(state, events) for _, _, events in made]
    for viewer in viewers:
        looks: dict[str, dict] = {}
        for (seat, move, events), after in zip(made, afters):
            if seat == viewer or game.redact_move(move, seat, viewer, events) is not None:
                continue
            outcome = canonical(game.view(after, viewer)) + game.render(after, viewer, names)
            shown = [game.redact(event, viewer) for event in events]
            seen = canonical([[event, game.describe(event, viewer, names)] for event in shown])
            looks.setdefault(outcome, {}).setdefault(seen, set()).add(seat)
        for seens in looks.values():
            seats = set().union(*seens.values())
            assert len(seats) < 2 or len(seens) == 1, (
                f"viewer {viewer} is shown different events from withheld moves of seats {sorted(seats)} "
                f"that leave the game looking the same: {sorted(seens)[:2]}")


GARBAGE = [None, 2.5, -1, 10**9, "x", "", [], {}, True, {"a": 1}]


@pytest.mark.parametrize("game,players,options", CASES)
def test_illegal_and_malformed_moves_raise_and_change_nothing(game, players, options):
    noise = random.Random(5)
    for seed in range(3):
        for step, (state, player, legal, log, seed_bytes, chooser) in enumerate(
                walked(game, players, options, seed)):
            if step % 4:
                continue
            before = canonical(game.dump(state))
            legal_set = {canonical(m) for m in legal}
            candidates = [None, "place", [], {}, {"type": 5}, {"type": "no_such_move"}]
            for _ in range(6):
                move = json.loads(canonical(noise.choice(legal)))
                if move:
                    field = noise.choice(sorted(move))
                    move[field] = noise.choice(GARBAGE)
                candidates.append(move)
            for move in candidates:
                if isinstance(move, dict) and canonical(move) in legal_set:
                    continue
                with pytest.raises(IllegalMove):
                    game.decide(state, player, move, rng_for(seed_bytes, len(log)))
                assert canonical(game.dump(state)) == before
            others = [p for p in range(players) if p not in game.to_act(state)]
            for other in others:
                with pytest.raises(IllegalMove):
                    game.decide(state, other, legal[0], rng_for(seed_bytes, len(log)))
            assert canonical(game.dump(state)) == before


@pytest.mark.parametrize("game,players,options", CASES)
def test_notation_round_trips_and_explains_errors(game, players, options):
    for seed in range(2):
        for step, (state, player, legal, log, seed_bytes, chooser) in enumerate(
                walked(game, players, options, seed)):
            if step % 5:
                continue
            for move in legal[:40]:
                text = game.describe(move, player)
                assert canonical(game.parse(text, state, player)) == canonical(move), text
            with pytest.raises(ParseError) as err:
                game.parse("xyzzy plugh 42", state, player)
            assert err.value.details.get("expected"), "a parse error must say what was expected"
            assert err.value.details.get("examples"), "a parse error must list a few legal moves"
            for event in log[-4:]:
                assert isinstance(game.describe(game.redact(event, player), player), str)
            assert isinstance(game.render(state, player), str)


#: ASCII as a phone's Chinese keyboard types it: every printable character
#: its full-width form, the space the ideographic one.
FULL_WIDTH = {**{c: c + 0xFEE0 for c in range(0x21, 0x7F)}, 0x20: 0x3000}


@pytest.mark.parametrize("game,players,options", CASES)
def test_notation_reads_what_a_chinese_keyboard_types(game, players, options):
    """Every move's text typed full width (``ｐｌａｃｅ　１，０　ｒ９０``), or
    with the full-width comma alone (``place 1，0 r90``), or with the
    ideographic comma, parses as the move itself: with the players' names
    typed full width too."""
    names = NAMES[:players]
    for step, (state, player, legal, log, seed_bytes, chooser) in enumerate(walked(game, players, options, 0)):
        if step % 7:
            continue
        for move in legal[:12]:
            text = game.describe(move, player, names)
            for typed in (text.translate(FULL_WIDTH), text.replace(",", "\uff0c"), text.replace(",", "\u3001")):
                assert canonical(game.parse(typed, state, player, names)) == canonical(move), typed


#: Players' names for the texts' checks: one with a space, as people have.
NAMES = ["Ann", "Bob Lee", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
SEAT_NUMBER = re.compile(r"\bseat \d", re.IGNORECASE)


def _lines_offering_a_move(text: str, offered: set) -> list[str]:
    """The lines of ``text`` that start with the text of a legal move (the
    whole line, or that text and more words): each is offered as a move."""
    out = []
    for line in text.splitlines():
        words = line.split()
        if any(" ".join(words[:k]) in offered for k in range(1, len(words) + 1)):
            out.append(line.strip())
    return out


@pytest.mark.parametrize("game,players,options", CASES)
def test_texts_name_seats_by_their_players_names(game, players, options):
    """With every seat named (and the names distinct), no board, event or
    move text falls back to "seat N"; moves still parse back with the
    names; with names shared by two seats, those seats read as numbers and
    the moves parse back too."""
    names = NAMES[:players]
    shared = ["Ann"] * players
    named_once = False
    for seed in range(2):
        for step, (state, player, legal, log, seed_bytes, chooser) in enumerate(
                walked(game, players, options, seed)):
            if step % 5:
                continue
            for viewer in (player, SPECTATOR):
                board = game.render(state, viewer, names)
                assert not SEAT_NUMBER.search(board), f"the board names a seat by number:\n{board}"
                named_once = named_once or any(n in board for n in names)
            for event in log[-6:]:
                text = game.describe(game.redact(event, player), player, names)
                assert not SEAT_NUMBER.search(text), f"{event['type']} names a seat by number: {text}"
            for move in legal[:40]:
                for given in (names, shared):
                    text = game.describe(move, player, given)
                    assert canonical(game.parse(text, state, player, given)) == canonical(move), (text, given)
                assert not SEAT_NUMBER.search(game.describe(move, player, names)), move
    assert named_once, "no board ever showed a player's name"


@pytest.mark.parametrize("game,players,options", CASES)
def test_every_line_offered_as_a_move_parses_whole(game, players, options):
    """A line of the board that starts with a legal move's text is offered
    as a move: copied whole, it parses to a legal move (with or without
    names)."""
    offered_lines = 0
    for seed in range(2):
        for step, (state, player, legal, log, seed_bytes, chooser) in enumerate(
                walked(game, players, options, seed)):
            if step % 3:
                continue
            legal_set = {canonical(m) for m in legal}
            for names in (None, NAMES[:players]):
                offered = {game.describe(m, player, names) for m in legal}
                for line in _lines_offering_a_move(game.render(state, player, names), offered):
                    offered_lines += 1
                    try:
                        move = game.parse(line, state, player, names)
                    except ParseError as err:
                        raise AssertionError(f"the board offers {line!r}, which does not parse: {err}") from None
                    assert canonical(move) in legal_set, f"the board offers {line!r}, an illegal {move}"
    json.dumps(offered_lines)


@pytest.mark.parametrize("game,players,options", CASES)
def test_the_setup_and_the_help_in_words_and_every_example_parses(game, players, options):
    """``describe_setup`` and ``notation_help_for`` say something; every
    example ``notation_examples`` gives stands in the help as written and
    parses in every position where a seat is to act."""
    checked = game.check_options(players, options)
    setup = game.describe_setup(checked, players)
    assert isinstance(setup, str) and setup.strip() and "\n\n" not in setup
    help_text = game.notation_help_for(checked)
    assert isinstance(help_text, str) and help_text.strip()
    examples = game.notation_examples(checked)
    for example in examples:
        assert example in help_text, f"example {example!r} is not in the help"
    for step, (state, player, legal, log, seed_bytes, chooser) in enumerate(walked(game, players, checked, 0)):
        if step % 4:
            continue
        for example in examples:
            try:
                game.parse(example, state, player)
            except ParseError as err:
                raise AssertionError(f"the help's example {example!r} does not parse: {err}") from None


@pytest.mark.parametrize("game,players,options", CASES)
def test_every_viewer_sees_the_state_before_setup_and_at_the_end(game, players, options):
    """Version 0 (the state before the setup's events: what the replay slider
    and GET /states/0 show first) and the end render and view for everyone,
    with names and without."""
    start = game.start(players, {**{o.name: o.default for o in game.options}, **options})
    end = playout_of(game, players, options, 0).state
    names = [f"Player {i}" for i in range(players)]
    for state in (start, end):
        for viewer in (SPECTATOR, OMNISCIENT, *range(players)):
            json.dumps(game.view(state, viewer))
            for who in (None, names):
                assert game.render(state, viewer, who).strip()


@pytest.mark.parametrize("game,players,options", CASES)
def test_a_bot_rebuilds_a_state_from_a_seats_view(game, players, options):
    """The bots' determinizer (pbem/bots/determinize): from a seat's view alone
    it builds a state that seat cannot tell from the real one (the same view
    and legal moves), and what it samples depends on nothing but the view:
    the same view of a re-dealt state (``resample``) gives the same sample."""
    from pbem.bots.determinize import state_from_view, supported
    if not supported(game.key, options, players):
        pytest.skip(f"no determinizer for {game.key} with these options yet (docs/bots.md)")
    checked = 0
    for step, (state, player, legal, log, seed_bytes, _c) in enumerate(walked(game, players, options, 0)):
        if step % 7:
            continue
        view = stored(game.view(state, player))
        rebuilt = state_from_view(game.key, options, players, player, view, random.Random(step))
        assert canonical(game.view(rebuilt, player)) == canonical(view), "the rebuilt state shows another view"
        # (as a set: Cartoona lists card plays in the order tiles joined a creature, which no view shows)
        assert sorted(map(canonical, game.legal_moves(rebuilt, player))) == sorted(map(canonical, legal)), (
            "the rebuilt state has other moves")
        other = game.resample(state, player, random.Random(step + 1))
        again = state_from_view(game.key, options, players, player, stored(game.view(other, player)),
                                random.Random(step))
        assert canonical(game.dump(again)) == canonical(game.dump(rebuilt)), "the sample read past the view"
        checked += 1
    assert checked


@pytest.mark.parametrize("game,players,options", CASES)
def test_every_bot_level_thinks_in_every_setup(game, players, options):
    """Every level plays every setup (each expansion and option, each mode) at
    its own level, never falling back to random: given what the seat reads
    (its view, its legal moves, and the game's events as redacted for it
    where the bot runner reads them), greedy and a few iterations of search
    answer one of the legal moves."""
    from pbem import bots
    from pbem.bots.runner import needs_events
    choices = [step for step in walked(game, players, options, 0) if len(step[2]) > 1]
    assert choices, "no step of the walk offers a choice"
    for state, player, legal, log, _s, _c in choices[::max(1, len(choices) // 3)][:3]:
        view, legal_read = stored(game.view(state, player)), stored(legal)
        events = stored([game.redact(e, player) for e in log]) if needs_events(game.key, options) else None
        for level in ("greedy", "search"):
            stats = {}
            move = bots.choose(game.key, stored(options), players, player, view, legal_read, level=level,
                               budget_s=None, iterations=3, stats=stats, events=events)
            assert move in legal_read and stats["level"] == level, stats
