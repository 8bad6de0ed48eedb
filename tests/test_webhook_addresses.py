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


def resolving(monkeypatch, answers: list[str], only: str | None = None):
    """The resolver answers ``answers`` for every name, or for the name
    ``only`` (as a rebinding DNS server would, at the moment of delivery);
    no query leaves the machine."""
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kw):
        if only and host != only:
            return real(host, port, *args, **kw)
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


# -- cloud metadata: refused always, in every spelling --------------------

#: Metadata and platform services of the clouds (IPv4).
METADATA_V4 = ["169.254.169.254", "169.254.170.2", "169.254.170.23", "169.254.0.23", "169.254.1.1",
               "168.63.129.16", "100.100.100.200"]
METADATA_V6 = ["fd00:ec2::254", "fd00:ec2::23", "fd00:ec2::2", "fd20:ce::254", "fd00:c1::a9fe:a9fe"]


def ipv6_forms(v4: str) -> list[str]:
    """Every IPv6 spelling that leads to ``v4`` (built byte by byte from the RFCs)."""
    b = ipaddress.IPv4Address(v4).packed
    inverted = bytes(x ^ 0xFF for x in b)

    def v6(prefix: bytes, tail: bytes = b"") -> str:
        return str(ipaddress.IPv6Address(prefix + tail + bytes(16 - len(prefix) - len(tail))))
    return [
        "::ffff:" + v4,                                                   # IPv4-mapped
        v6(bytes(12), b),                                                 # IPv4-compatible
        v6(bytes.fromhex("0064ff9b0000000000000000") + b),                # NAT64, RFC 6052 /96
        v6(bytes.fromhex("0064ff9b0001000000000000") + b),                # NAT64 local-use, /96
        v6(bytes.fromhex("0064ff9b0001") + b[:2] + b"\0" + b[2:]),        # NAT64 local-use, /48
        v6(b"\x20\x02" + b),                                              # 6to4
        v6(bytes.fromhex("200100004136e3788000fffe") + inverted),         # Teredo client
    ]


def ipv4_spellings(v4: str) -> list[str]:
    """The numeric spellings a resolver reads as ``v4``: decimal, octal, hex, short."""
    a, b, c, d = (int(x) for x in v4.split("."))
    n = int(ipaddress.IPv4Address(v4))
    return [str(n), f"0{a:o}.0{b:o}.0{c:o}.0{d:o}", f"0x{a:x}.0x{b:x}.0x{c:x}.0x{d:x}", f"0x{n:08x}",
            f"{a}.{n & 0xFFFFFF}", f"{a}.{b}.{n & 0xFFFF}", f"0{a:o}.{b}.0x{(c << 8) | d:x}", v4 + "."]


METADATA_ALL = METADATA_V4 + METADATA_V6 + [f for v4 in METADATA_V4 for f in ipv6_forms(v4)]


@pytest.mark.parametrize("v4", METADATA_V4)
def test_the_ipv6_forms_lead_to_the_address(v4):
    for form in ipv6_forms(v4):
        assert ipaddress.ip_address(v4) in webhooks.embedded_ipv4(ipaddress.ip_address(form)), form


@pytest.mark.parametrize("address", METADATA_ALL)
@pytest.mark.parametrize("allow_private", [False, True])
def test_metadata_is_refused_whatever_the_setting(address, allow_private):
    why = refused(address, allow_private)
    assert why and ("metadata" in why or "link-local" in why), (address, why)


def no_dns(monkeypatch):
    """A resolver that fails the test if called: a number is never a name."""
    def getaddrinfo(host, *args, **kw):
        raise AssertionError(f"{host} was sent to the resolver")
    monkeypatch.setattr(webhooks.socket, "getaddrinfo", getaddrinfo)


@pytest.mark.parametrize("v4", ["169.254.169.254", "168.63.129.16", "100.100.100.200", "169.254.170.23"])
def test_every_numeric_spelling_is_read_and_refused(v4, monkeypatch):
    no_dns(monkeypatch)
    for spelling in ipv4_spellings(v4):
        assert webhooks.numeric_host(spelling) == ipaddress.ip_address(v4), spelling
        for allow_private in (False, True):
            with pytest.raises(webhooks.UrlRefused) as err:
                webhooks.check_url(f"http://{spelling}:8080/hook", allow_private)
            assert err.value.code == "webhook_url_refused" and v4 in err.value.message, spelling


def test_numbers_a_resolver_would_not_read_are_names():
    for name in ["hooks.example.test", "1.2.3.4.5", "08.1.1.1", "256.1.1.1", "1.16777216", "4294967296",
                 "0x1_0.1", "1..1", "0xg.1"]:
        assert webhooks.numeric_host(name) is None, name


def test_public_addresses_stay_allowed(monkeypatch):
    no_dns(monkeypatch)
    assert webhooks.check_url("http://8.8.8.8/h", False)[2] == ["8.8.8.8"]
    assert webhooks.check_url("http://134744072/h", False)[2] == ["8.8.8.8"]  # decimal 8.8.8.8
    assert refused("168.63.129.17") is None and refused("100.100.100.201", True) is None


@pytest.mark.parametrize("address", ["168.63.129.16", "169.254.170.23", "fd00:ec2::23", "64:ff9b::a9fe:aa17",
                                     "100.100.100.200", "::ffff:a83f:8110"])
def test_a_name_resolving_to_metadata_is_refused_at_registration(address, notify_env, monkeypatch, settings,
                                                                redis_client, service, http):
    assert notify_env["PBEM_WEBHOOK_ALLOW_PRIVATE"] == "1"  # private addresses allowed: metadata still not
    game_id, _, tokens = new_game(service)
    with LiveServer(create_app(settings, redis.Redis.from_url(settings.redis_url))) as live:
        resolving(monkeypatch, [address], only="hooks.example.test")
        r = http.post(f"{live.url}/games/{game_id}/seats/0/webhook", json={"url": "http://hooks.example.test/h"},
                      headers={"Authorization": f"Bearer {tokens[0]}"})
        assert r.status_code == 422 and r.json()["error"]["code"] == "webhook_url_refused", r.text
        assert address in r.json()["error"]["message"]
    assert Notifier(service, NotifySettings()).channels(game_id, 0)["webhook"] is None


@pytest.mark.parametrize("answers", [["169.254.170.23"], ["8.8.8.8", "168.63.129.16"], ["fd00:ec2::254"]])
def test_a_name_rebound_to_metadata_is_refused_at_delivery(answers, notify_env, monkeypatch, service,
                                                           redis_client):
    game_id, _, _ = new_game(service)
    run_jobs(redis_client)
    seat = to_act(service, game_id)[0]
    n = Notifier(service, NotifySettings())
    assert n.conf.webhook_allow_private
    ch = n.channels(game_id, seat)
    ch["webhook"] = {"id": "w1", "url": "http://hooks.example.test/h", "secret": webhooks.new_secret(),
                     "enabled": True}
    n.store.save_channels(game_id, seat, ch)
    delivery = n.webhook(n.notice(service.load(game_id), seat, "your_turn"))
    resolving(monkeypatch, answers)
    sent = []
    monkeypatch.setattr(webhooks.requests.Session, "post", lambda *a, **kw: sent.append(a) or None)
    assert n.deliver(game_id, seat, delivery, 1) == "refused"
    assert not sent
    assert answers[-1] in n.store.attempts(game_id, seat)[0]["error"]
