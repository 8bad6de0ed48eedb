"""Redis unreachable: the API answers 503 with the one error format (never
500), and recovers by itself when Redis is back."""
from __future__ import annotations

import redis

from pbem.api import create_app
from pbem.settings.config import Settings
from pbem.server.embedded_redis import EmbeddedRedis

from .conftest import LiveServer


def test_api_answers_503_while_redis_is_down_and_recovers(tmp_path, http):
    server = EmbeddedRedis(tmp_path / "r").start()
    try:
        settings = Settings(redis_url=server.url)
        client = redis.Redis.from_url(server.url, socket_timeout=2, socket_connect_timeout=1)
        with LiveServer(create_app(settings, client)) as live:
            created = http.post(f"{live.url}/games", json={"game": "wakanda", "players": 2})
            assert created.status_code == 201
            game_id = created.json()["id"]
            server.stop(kill=True)
            for path in ("/games", f"/games/{game_id}", "/health"):
                down = http.get(live.url + path)
                assert down.status_code == 503, (path, down.text)
                assert down.json()["error"]["code"] == "store_unavailable"
                assert down.headers.get("Retry-After")
            assert http.post(f"{live.url}/games", json={"game": "wakanda", "players": 2}).status_code == 503
            server.start()  # same port, same append-only file
            back = http.get(f"{live.url}/games/{game_id}")
            assert back.status_code == 200 and back.json()["id"] == game_id
    finally:
        server.stop()
