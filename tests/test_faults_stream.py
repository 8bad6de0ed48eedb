"""The stream process killed with SIGKILL mid-stream and started again: it
keeps nothing of its own, so a client that reconnects with Last-Event-ID
gets every event it missed, the ones appended while no stream process ran
included, and then the live ones, none twice."""
from __future__ import annotations

import random

from .conftest import wait_until
from .stream_support import Collector, play, seated, stream_world  # noqa: F401  (a fixture)


def test_kill_9_the_stream_process_and_a_reconnecting_client_misses_nothing(stream_world, start_worker):
    start_worker()
    c, game_id, keys = seated(stream_world.api, "wakanda")
    rng = random.Random(21)
    # a few watchers, so the killed process had a hub with work to lose
    watchers = [Collector(stream_world.open(game_id)) for _ in range(3)]
    version = play(c, game_id, keys, rng, 6)
    before = [w.until(version) for w in watchers]
    stream_world.stream.kill()  # SIGKILL: no goodbye to anyone
    for w in watchers:
        w.thread.join(10)
        assert not w.thread.is_alive() and not any(ev.event == "end" for ev in w.items), "the stream broke off"
    play(c, game_id, keys, rng, 6)  # appended while no stream process runs
    stream_world.stream.start()
    resumed = [Collector(stream_world.open(game_id, after=0, last_event_id=got[-1].id)) for got in before]
    play(c, game_id, keys, rng, 500)  # to the end
    final = c.game(game_id)
    assert final["status"] == "finished"
    everything = c.events(game_id, limit=1000)["events"]
    for got, again in zip(before, resumed):
        items = got + again.ended()
        versions = [int(ev.id) for ev in items if ev.event == "event"]
        assert versions == list(range(1, final["version"] + 1))
        assert items[-1].event == "end" and items[-1].data["version"] == final["version"]
        # what was sent once the game was public is public; the rest as it was shown then
        assert [ev.data["version"] for ev in items[:-1]] == [item["version"] for item in everything]
    wait_until(lambda: stream_world.stream.healthy()["streams"] == 0, timeout=10)
