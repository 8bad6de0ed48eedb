"""The embedded server: data written by Redis 6.2 is read by Valkey 8.1 in
place (the default moved from the one to the other), and the way back is
refused with a clear error rather than started empty beside the data."""
from __future__ import annotations

import pytest
import redis

from pbem.server.embedded_redis import EmbeddedRedis
from pbem.settings.registry import env


def test_the_default_server_is_valkey(monkeypatch):
    monkeypatch.delenv("PBEM_REDIS_SERVER", raising=False)
    assert env("PBEM_REDIS_SERVER") == "valkey"


def test_data_of_redis_6_is_read_by_valkey_in_place(tmp_path):
    data = tmp_path / "redis"
    with EmbeddedRedis(data, kind="redis") as old:
        c = redis.Redis.from_url(old.url)
        c.set("pbem:k", "v")
        c.xadd("pbem:game:g1:log", {"e": "TilePlaced"})
        c.hset("pbem:game:g1", mapping={"status": "active"})
        assert not c.info("server").get("valkey_version")
    with EmbeddedRedis(data, kind="valkey") as new:
        c = redis.Redis.from_url(new.url)
        assert c.info("server")["valkey_version"].startswith("8.")
        assert c.get("pbem:k") == b"v"
        assert c.xrange("pbem:game:g1:log")[0][1] == {b"e": b"TilePlaced"}
        assert c.hgetall("pbem:game:g1") == {b"status": b"active"}
        c.set("pbem:after", "1")
    with EmbeddedRedis(data, kind="valkey") as again:
        c = redis.Redis.from_url(again.url)
        assert (c.get("pbem:k"), c.get("pbem:after")) == (b"v", b"1")


def test_redis_6_refuses_data_valkey_wrote(tmp_path):
    data = tmp_path / "redis"
    with EmbeddedRedis(data, kind="valkey") as new:
        redis.Redis.from_url(new.url).set("pbem:k", "v")
    before = sorted(p.relative_to(data) for p in data.rglob("*") if p.name != "redis.log")
    with pytest.raises(RuntimeError, match="PBEM_REDIS_SERVER=valkey"):
        EmbeddedRedis(data, kind="redis").start()
    assert sorted(p.relative_to(data) for p in data.rglob("*") if p.name != "redis.log") == before
    with EmbeddedRedis(data, kind="valkey") as again:
        assert redis.Redis.from_url(again.url).get("pbem:k") == b"v"
