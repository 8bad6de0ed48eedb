"""Webhook URLs whose IPv6 address stands for an IPv4 one (NAT64, 6to4,
Teredo, IPv4-mapped and -compatible) are judged by the IPv4 address they
lead to, at registration and again at every delivery (DNS rebinding)."""
from __future__ import annotations

import ipaddress
import socket

import pytest
import redis

from pbem.api import create_app
from pbem.notify import webhooks
from pbem.notify.config import NotifySettings
from pbem.notify.notifier import Notifier

from .conftest import LiveServer
from .test_notify_support import Receiver, new_game, notify_env, run_jobs, smtp, to_act  # noqa: F401

#: (an IPv6 address, the IPv4 address it stands for)
LOOPBACK_INSIDE = [
    ("64:ff9b::7f00:1", "127.0.0.1"),                        # NAT64, well-known prefix
    ("64:ff9b:1::7f00:1", "127.0.0.1"),                      # NAT64, local-use prefix, /96
    ("64:ff9b:1:7f:0:1::", "127.0.0.1"),                     # local-use, /48 (bits 64-71 skipped)
    ("2002:7f00:1::", "127.0.0.1"),                          # 6to4
    ("2002:7f00:1:1234:5678::9", "127.0.0.1"),
    ("2001:0:4136:e378:8000:63bf:80ff:fffe", "127.0.0.1"),   # Teredo: the client, inverted
    ("::ffff:127.0.0.1", "127.0.0.1"),                       # IPv4-mapped
    ("::127.0.0.1", "127.0.0.1"),                            # IPv4-compatible
]
PRIVATE_INSIDE = [
    ("64:ff9b::a00:1", "10.0.0.1"), ("2002:c0a8:1::", "192.168.0.1"),
    ("2001:0:4136:e378:8000:63bf:f5ff:fffe", "10.0.0.1"), ("::ffff:10.0.0.1", "10.0.0.1"),
]
METADATA_INSIDE = [
    ("64:ff9b::a9fe:a9fe", "169.254.169.254"), ("2002:a9fe:a9fe::", "169.254.169.254"),
    ("2001:0:4136:e378:8000:63bf:5601:5601", "169.254.169.254"), ("::ffff:169.254.169.254", "169.254.169.254"),
    ("64:ff9b:1::a9fe:a9fe", "169.254.169.254"),
]
PUBLIC_INSIDE = [
    ("64:ff9b::808:808", "8.8.8.8"), ("2002:808:808::", "8.8.8.8"),
    ("2001:0:4136:e378:8000:63bf:f7f7:f7f7", "8.8.8.8"), ("::ffff:8.8.8.8", "8.8.8.8"),
]


def refused(address: str, allow_private: bool = False) -> str | None:
    return webhooks._refused_address(ipaddress.ip_address(address), allow_private)


@pytest.mark.parametrize("v6,v4", LOOPBACK_INSIDE + PRIVATE_INSIDE + METADATA_INSIDE + PUBLIC_INSIDE)
def test_the_ipv4_address_inside_is_found(v6, v4):
    assert ipaddress.ip_address(v4) in webhooks.embedded_ipv4(ipaddress.ip_address(v6))


@pytest.mark.parametrize("v6,v4", LOOPBACK_INSIDE + PRIVATE_INSIDE)
def test_loopback_or_private_inside_is_refused(v6, v4):
    why = refused(v6)
    assert why, v6
    assert v4 in why or "local-use NAT64" in why
    assert not refused(v6, allow_private=True)  # the operator's setting lets them through, as for IPv4


@pytest.mark.parametrize("v6,v4", METADATA_INSIDE)
def test_metadata_inside_is_refused_even_when_private_is_allowed(v6, v4):
    assert "metadata" in refused(v6, allow_private=True)


@pytest.mark.parametrize("v6,v4", PUBLIC_INSIDE)
def test_public_inside_is_allowed(v6, v4):
    assert refused(v6) is None


def test_plain_addresses_as_before():
    assert refused("8.8.8.8") is None and refused("2606:4700:4700::1111") is None
    assert "loopback" in refused("::1") or "reserved" in refused("::1")
    assert refused("::") and refused("127.0.0.1") and refused("fd00::1")
    assert "local-use NAT64" in refused("64:ff9b:1::808:808")  # private to its network


@pytest.mark.parametrize("url", ["http://[64:ff9b::7f00:1]/", "http://[2002:7f00:1::]/",
                                 "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:8080/hook",
                                 "http://[::ffff:7f00:1]/", "http://[::7f00:1]/", "http://[64:ff9b:1::7f00:1]/"])
def test_registration_over_http_is_refused(url, notify_env, monkeypatch, settings, redis_client, service, http):
    monkeypatch.delenv("PBEM_WEBHOOK_ALLOW_PRIVATE")
    game_id, _, tokens = new_game(service)
    with LiveServer(create_app(settings, redis.Redis.from_url(settings.redis_url))) as live:
        r = http.post(f"{live.url}/games/{game_id}/seats/0/webhook", json={"url": url},
                      headers={"Authorization": f"Bearer {tokens[0]}"})
        assert r.status_code == 422 and r.json()["error"]["code"] == "webhook_url_refused", r.text
        other = service.create_game("wakanda", 2)["id"]
        r = http.post(f"{live.url}/games/{other}/seats/0", json={
            "public_key": "A" * 43, "name": "Ann", "webhook_url": url})
        assert r.status_code == 422 and r.json()["error"]["code"] == "webhook_url_refused", r.text
    assert Notifier(service, NotifySettings()).channels(game_id, 0)["webhook"] is None
    assert service.store.seats(other) == {}


def resolving(monkeypatch, answers: list[str]):
    """The resolver answers ``answers`` for every name (as a rebinding DNS
    server would, at the moment of delivery)."""
    def getaddrinfo(host, port, *args, **kw):
        return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
                for a in answers]
    monkeypatch.setattr(webhooks.socket, "getaddrinfo", getaddrinfo)


@pytest.mark.parametrize("answers", [["2002:7f00:1::"], ["8.8.8.8", "64:ff9b::7f00:1"],
                                     ["2001:0:4136:e378:8000:63bf:80ff:fffe"]])
def test_every_address_is_checked_again_at_delivery(answers, notify_env, monkeypatch, service, redis_client):
    monkeypatch.delenv("PBEM_WEBHOOK_ALLOW_PRIVATE")
    game_id, _, _ = new_game(service)
    run_jobs(redis_client)
    seat = to_act(service, game_id)[0]
    n = Notifier(service, NotifySettings())
    with Receiver([200]) as receiver:
        ch = n.channels(game_id, seat)
        # registered when the name resolved to a public address
        ch["webhook"] = {"id": "w1", "url": "http://hooks.example.test/h", "secret": webhooks.new_secret(),
                         "enabled": True}
        n.store.save_channels(game_id, seat, ch)
        delivery = n.webhook(n.notice(service.load(game_id), seat, "your_turn"))
        resolving(monkeypatch, answers)
        with pytest.raises(webhooks.UrlRefused):
            webhooks.post("http://hooks.example.test/h", "whsec_x", "m1", "{}", False, 2)
        assert n.deliver(game_id, seat, delivery, 1) == "refused"
        assert not receiver.requests
    attempt = n.store.attempts(game_id, seat)[0]
    assert attempt["outcome"] == "refused" and "127.0.0.1" in attempt["error"]
