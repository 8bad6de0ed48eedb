"""Everything a game shows, as canonical text, for comparing processes.

Run as ``python -m tests.determinism_dump [--mode live|stored] [--full]``:
it plays one seeded game of every registered game and sample setup and
prints, per case, a digest of every view (each seat, spectator,
omniscient), rendered board, legal-move list (with its notation), state
dump and event (redacted and described for every viewer) at every step.
``tests/test_hash_seed.py`` runs it under different ``PYTHONHASHSEED``
values and compares. ``--full`` prints the text itself, to find a difference.

``--mode stored`` does what a server process does when it did not follow a
game move by move: it gets every event back from JSON (the store's sorted
keys) and every few steps restarts from a JSON round trip of the state (a
snapshot). ``live`` keeps the states and events decide made. Either way the
output must be the same: a state read back from the store must answer
exactly as the one that was never stored.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys

from pbem import games
from pbem.games.base import OMNISCIENT, SPECTATOR, canonical, rng_for

#: Steps between "snapshots" in stored mode (prime, so it falls on every
#: kind of step sooner or later).
SNAPSHOT_EVERY = 7
#: Steps between full looks (the state's dump, every viewer's view and
#: board, the acting seats' legal moves, in notation too, their default
#: moves); the events and the move chosen are shown at every step. Looking
#: at every step would cost six times as much and find little more.
LOOK_EVERY = 12


def stored(value):
    """What the store gives back: JSON with sorted keys, read again."""
    return json.loads(json.dumps(value, separators=(",", ":"), sort_keys=True))


def case_lines(game, players: int, options: dict, seed: int, mode: str):
    """Yield one line of canonical text per thing shown, step by step."""
    options = game.check_options(players, options)
    seed_bytes = f"hashseed:{seed}".encode()
    chooser = random.Random(seed)
    viewers = [*range(players), SPECTATOR, OMNISCIENT]
    state = game.start(players, options)
    new = game.setup(state, rng_for(seed_bytes, 0))
    version = 0
    for step in range(20000):
        if mode == "stored":
            new = stored(new)
        for event in new:
            version += 1
            state = game.evolve(state, event)
            yield f"event {version} {canonical(event)}"
            for viewer in viewers:
                shown = game.redact(event, viewer)
                yield f"  {viewer} {canonical(shown)} {game.describe(shown, viewer)}"
        if mode == "stored" and step % SNAPSHOT_EVERY == 0:
            state = game.load(stored(game.dump(state)))
        acting = sorted(game.to_act(state))
        result = game.result(state)
        yield f"state {version} to_act={acting} result={canonical(result.as_dict()) if result else None}"
        look = step % LOOK_EVERY == 0 or result is not None
        if look:
            yield f"  dump {canonical(game.dump(state))}"
            for viewer in viewers:
                yield f"  view {viewer} {canonical(game.view(state, viewer))}"
                yield f"  board {viewer} {game.render(state, viewer)}"
        if look:
            for seat in acting:
                legal = game.legal_moves(state, seat)
                yield f"  legal {seat} {canonical(legal)}"
                yield f"  notation {seat} " + canonical([game.describe(m, seat) for m in legal])
                yield f"  default {seat} {canonical(game.default_move(state, seat))}"
        if result is not None:
            return
        player = chooser.choice(acting)
        # Between looks, the move chosen by its index stands for the list: in
        # another order it would (almost always) be another move.
        legal = game.legal_moves(state, player)
        move = chooser.choice(legal)
        yield f"  move {player} {len(legal)} {canonical(move)}"
        new = game.decide(state, player, move, rng_for(seed_bytes, version))
    raise AssertionError(f"{game.key}: no result after 20000 steps")


def cases():
    for game in games.all_games():
        for players, options in game.sample_setups:
            yield game, players, options


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=("live", "stored"), default="live")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--full", action="store_true", help="print every line, not digests")
    parser.add_argument("--only", default="", help="only cases whose name contains this")
    args = parser.parse_args(argv)
    out = sys.stdout
    for game, players, options in cases():
        name = f"{game.key}-{players}p-{canonical(options)}"
        if args.only not in name:
            continue
        digest = hashlib.sha256()
        for line in case_lines(game, players, options, args.seed, args.mode):
            if args.full:
                out.write(f"{name} {line}\n")
            digest.update(line.encode() + b"\n")
        if not args.full:
            out.write(f"{name} {digest.hexdigest()}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
