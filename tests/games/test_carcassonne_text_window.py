"""The text board's window onto a board too big to show whole: the counts it
ranks windows by (marked cells inside, then tiles inside) come from
summed-area tables, and pick what scanning every cell for every window picks."""
from __future__ import annotations

import random

from pbem.games.carcassonne import render
from pbem.games.carcassonne.catalog import ALL_EXPANSIONS
from pbem.games.playout import play_random

from .carcassonne_support import G


def _inside(cells, wx, wy, ex, ey) -> int:
    return sum(1 for x, y in cells if wx <= x <= ex and wy <= y <= ey)


def test_box_counts_match_a_scan_of_the_cells():
    rng = random.Random(7)
    for _ in range(300):
        x0, y0 = rng.randint(-25, 5), rng.randint(-25, 5)
        x1, y1 = x0 + rng.randint(0, 30), y0 + rng.randint(0, 30)
        cells = {(rng.randint(x0, x1), rng.randint(y0, y1)) for _ in range(rng.randint(0, 200))}
        count = render._counter(cells, x0, y0, x1, y1)
        for _ in range(20):
            wx, wy = rng.randint(x0, x1), rng.randint(y0, y1)
            ex, ey = rng.randint(wx, x1), rng.randint(wy, y1)
            assert count(wx, wy, ex, ey) == _inside(cells, wx, wy, ex, ey), (x0, y0, x1, y1, wx, wy, ex, ey)


def _scanned_window(state, marked):
    """``render.window`` as first written: every candidate scans the cells."""
    cells = list(state.board) + list(marked)
    x0, x1 = min(c[0] for c in cells), max(c[0] for c in cells)
    y0, y1 = min(c[1] for c in cells), max(c[1] for c in cells)
    across, down = render.MAX_ACROSS, render.MAX_DOWN
    if x1 - x0 < across and y1 - y0 < down:
        return x0, y0, x1, y1
    fx, fy = state.placed[-1]

    def starts(lo, hi, focus, size):
        return [lo] if hi - lo < size else list(range(max(lo, focus - size + 1), min(focus, hi - size + 1) + 1))
    best = None
    for wx in starts(x0, x1, fx, across):
        for wy in starts(y0, y1, fy, down):
            ex, ey = min(x1, wx + across - 1), min(y1, wy + down - 1)
            key = (_inside(marked, wx, wy, ex, ey), _inside(state.board, wx, wy, ex, ey),
                   -abs(2 * fx - wx - ex) - abs(2 * fy - wy - ey), -wy, -wx)
            if best is None or key > best[0]:
                best = (key, (wx, wy, ex, ey))
    return best[1]


def test_the_window_is_the_one_a_scan_picks_through_whole_games():
    cut = 0
    for players, options in ((2, {}), (6, {"expansions": ALL_EXPANSIONS})):
        played = play_random(G, players, options, seed=4)
        for k in range(0, len(played.moves), 7):
            version, _player, _move = played.moves[k]
            state = G.replay(players, played.options, played.events[:version])
            if not state.board:
                continue
            marked = render.spots(state)
            box = render.window(state, marked)
            assert box == _scanned_window(state, marked), (players, k)
            xs = [x for x, _y in list(state.board) + marked]
            ys = [y for _x, y in list(state.board) + marked]
            cut += box != (min(xs), min(ys), max(xs), max(ys))
    assert cut > 5   # boards too big to show whole were among them
