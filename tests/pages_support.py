"""Games for the page tests: made and played through the Service (signed
moves, the real queue drained in-process), read by the pages over HTTP."""
from __future__ import annotations

import dataclasses
import random

import pytest
import redis

from pbem.service import Service
from pbem.trust.signing import generate_key, make_envelope


from .conftest import LiveServer, drain
from .stream_support import StreamProcess

SECRET = "pages-test-secret"


class LinkConf:
    """The notifications' settings as ``play_link`` reads them: play links for the pages' server."""

    def __init__(self, url: str):
        self.public_url = url

    @staticmethod
    def secret() -> bytes:
        return SECRET.encode()
NAMES = ("Ann", "Bob", "Cyd", "Dee", "Eve", "Fay")


def seated(service: Service, name: str, players: int = 2, options: dict | None = None,
           title: str = "", seed: bytes | None = None, listed: bool = True) -> tuple[str, dict, dict]:
    """A started game: (game id, private keys by seat, bearer tokens by seat);
    ``listed``: opened to anyone, so that the lobby lists it."""
    game_id = service.create_game(name, players, options or {}, title, seed=seed, listed=listed)["id"]
    keys, tokens = {}, {}
    for seat in range(players):
        keys[seat], public = generate_key()
        tokens[seat] = service.join(game_id, seat, public, NAMES[seat])["token"]
    return game_id, keys, tokens


def play(service: Service, game_id: str, keys: dict, tokens: dict, rng: random.Random,
         moves: int | None = None) -> dict:
    """Random legal moves, signed by their seats, until the game ends (or ``moves`` were played)."""
    done = 0
    while moves is None or done < moves:
        game = service.get_game(game_id, None)
        if game["status"] == "finished":
            break
        seat = rng.choice(game["to_act"])
        legal = service.legal_moves(game_id, tokens[seat])
        move = rng.choice(legal["moves"])["move"]
        service.submit(game_id, make_envelope(game_id, seat, legal["version"], move, keys[seat]))
        drain(service)
        done += 1
    return service.get_game(game_id, None)


def move_buttons(page, timeout: float = 15000, version: int | None = None):
    """The buttons of the seat's legal moves, the list unfolded (where the
    board can be touched the list is folded in a <details>); those of the
    game at ``version`` when given (a page a live update has not reached yet
    still shows the last, and a move from it is refused as stale)."""
    at = f"[data-version='{version}']" if version is not None else ""
    page.wait_for_selector(f"#play form.moves{at} button", state="attached", timeout=timeout)
    page.evaluate("document.querySelectorAll('#play details.all-moves').forEach(function (d) { d.open = true; })")
    return page.locator("#play form.moves button")


@pytest.fixture
def stream_port(pages_ports) -> int:
    return pages_ports[1]


@pytest.fixture
def pages_app(redis_client, settings, monkeypatch, stream_port):
    monkeypatch.setenv("PBEM_SECRET", SECRET)
    from pbem.api import create_app
    conf = dataclasses.replace(settings, stream_port=stream_port)
    return create_app(conf, redis.Redis.from_url(settings.redis_url))


@pytest.fixture
def pages_server(pages_app, settings, pages_ports, streams):
    """The pages over HTTP, and the event stream's own process beside them
    (as ``make run`` starts it), sharing the server secret."""
    pages_port, stream_port = pages_ports
    stream = streams.get(settings.redis_url)
    if stream is not None and stream.proc.poll() is not None:  # it died: another in its place
        streams.pop(settings.redis_url)
        stream = None
    if stream is None:
        if streams:  # one port: the other Redis's stream makes way
            streams.pop(next(iter(streams))).kill()
        stream = StreamProcess(settings.redis_url, stream_port, keepalive_s=1.0,
                               origins=f"http://127.0.0.1:{pages_port}")
        stream.env["PBEM_SECRET"] = SECRET
        stream.start()
        streams[settings.redis_url] = stream
    with LiveServer(pages_app, port=pages_port) as live:
        yield live
