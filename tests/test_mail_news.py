"""What a turn mail tells: everything that happened since the reader's last
mail (not only the move that made it their turn), read back from the
maildir: in a 3-player game a seat hears of both other seats' moves."""
from __future__ import annotations

import re

from .conftest import drain
from .mail_reader import Maildir, text_of
from .test_notify_support import new_game, notify_env, run_jobs, smtp, submit  # noqa: F401


def told_versions(text: str) -> list[int]:
    part = text.split("What happened:", 1)[1].split("\n\n", 1)[0]
    return [int(v) for v in re.findall(r"^  (\d+)\. ", part, re.M)]


def test_a_turn_mail_tells_everything_since_the_readers_last_mail(service, redis_client, notify_env,
                                                                  monkeypatch, tmp_path):
    monkeypatch.delenv("SMTP_URL")
    box = Maildir(tmp_path / "maildir")
    game_id, keys, _ = new_game(service, "kachina", {"opening_redraw": False, "start_player": 0},
                                names=("Ann", "Bob", "Cy"))
    run_jobs(redis_client)
    first = box.to("p0@example.test", "your_turn")
    assert len(first) == 1
    for _ in range(3):  # Ann, Bob and Cy place a tile each, by the API
        loaded = service.load(game_id)
        seat = sorted(loaded.game.to_act(loaded.state))[0]
        submit(service, game_id, seat, keys, loaded.game.legal_moves(loaded.state, seat)[0], loaded.version)
        drain(service)
        run_jobs(redis_client)
    again = box.to("p0@example.test", "your_turn")
    assert len(again) == 2
    seen_at = int(first[0]["Subject"].rsplit("(v", 1)[1].rstrip(")"))
    now = service.load(game_id).version
    assert told_versions(text_of(again[1])) == list(range(seen_at + 1, now + 1))
    # Bob's turn mail came after Ann's move only; his own next one starts after it
    bob = box.to("p1@example.test", "your_turn")
    bob_at = int(bob[0]["Subject"].rsplit("(v", 1)[1].rstrip(")"))
    assert told_versions(text_of(bob[0]))[-1] == bob_at
