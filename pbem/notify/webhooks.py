"""Webhooks: Standard Webhooks signing, SSRF checks and one delivery attempt.

A URL is checked when it is registered and again before every attempt,
against the addresses it resolves to then; the request goes to the address
that was checked (no second lookup an attacker could rebind), with the
original host name for the Host header and for TLS (SNI and certificate).
Redirects are not followed.
"""
from __future__ import annotations

import base64
import ipaddress
import json
import random
import secrets
import socket
import time
from datetime import datetime, timezone
from urllib.parse import urlsplit, urlunsplit

import requests
from requests.adapters import HTTPAdapter
from standardwebhooks import Webhook

#: Cloud metadata and platform services, refused even when private addresses
#: are allowed (``PBEM_WEBHOOK_ALLOW_PRIVATE``): a webhook there would hand
#: the server's cloud credentials to whoever registered it.
METADATA = {ipaddress.ip_network(net): why for net, why in (
    # IPv4 link-local: every cloud's metadata service (169.254.169.254), AWS
    # ECS task credentials (169.254.170.2), EKS pod identity (169.254.170.23),
    # Tencent (169.254.0.23)...; nothing a webhook should reach lives there.
    ("169.254.0.0/16", "a link-local address, where cloud metadata services live"),
    ("168.63.129.16/32", "a cloud metadata address (Azure WireServer)"),
    ("100.100.100.200/32", "a cloud metadata address (Alibaba Cloud)"),
    # AWS over IPv6: metadata ::254, EKS pod identity ::23, DNS ::2, time ::123.
    ("fd00:ec2::/64", "a cloud metadata address (AWS, fd00:ec2::/64)"),
    ("fd20:ce::254/128", "a cloud metadata address (Google Cloud over IPv6)"),
    ("fd00:c1::a9fe:a9fe/128", "a cloud metadata address (Oracle Cloud over IPv6)"),
    # IPv6 link-local: needs a zone to be called at all; refused as its IPv4 twin is.
    ("fe80::/10", "a link-local address"),
)}


class UrlRefused(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


#: IPv6 prefixes that carry an IPv4 address a packet ends up at.
NAT64 = ipaddress.ip_network("64:ff9b::/96")          # RFC 6052, the well-known prefix
NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")  # RFC 8215, local-use: any RFC 6052 length
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")       # deprecated ::a.b.c.d


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address stands for: mapped (::ffff:a.b.c.d)
    and compatible (::a.b.c.d), NAT64 (64:ff9b::/96, and 64:ff9b:1::/48 at
    each RFC 6052 prefix length that fits in it), 6to4 (2002::/16) and
    Teredo (2001::/32: the server, and the client as the inverted last 32
    bits). A translator or relay would carry a request to any of them."""
    out = []
    if ip.ipv4_mapped:
        out.append(ip.ipv4_mapped)
    if ip in IPV4_COMPATIBLE and int(ip) > 1:  # not :: nor ::1, which are IPv6's own
        out.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    if ip in NAT64:
        out.append(ipaddress.IPv4Address(ip.packed[12:]))
    if ip in NAT64_LOCAL:
        # The prefix length in use is the local network's choice: every one
        # that fits (/48, /56, /64, /96; RFC 6052 2.2 skips bits 64-71). A
        # position holding only zero bits is not the one in use.
        b = ip.packed
        out += [v4 for v4 in (ipaddress.IPv4Address(x) for x in
                              (b[6:8] + b[9:11], b[7:8] + b[9:12], b[9:13], b[12:16])) if int(v4)]
    if ip.sixtofour:
        out.append(ip.sixtofour)
    if ip.teredo:
        out += list(ip.teredo)  # (server, client); ipaddress un-inverts the client
    return out


def _refused_address(ip, allow_private: bool) -> str | None:
    """Why the server must not call ``ip`` (None: it may). An IPv6 address
    that stands for IPv4 addresses is judged by them: a translator or relay
    would deliver to them (Python calls the IPv6 forms global or reserved,
    which says nothing about where they lead). A metadata address inside is
    named first, as it is refused whatever the setting."""
    inner = embedded_ipv4(ip) if isinstance(ip, ipaddress.IPv6Address) else []
    for v4 in inner:
        why = _metadata(v4)
        if why:
            return f"{why} ({v4}, inside {ip})"
    if ip in NAT64_LOCAL and not allow_private:
        return "a local-use NAT64 address (64:ff9b:1::/48), private to its network"
    for v4 in inner:
        why = _refused_ip(v4, allow_private)
        if why:
            return f"{why} ({v4}, inside {ip})"
    return None if inner else _refused_ip(ip, allow_private)


def _metadata(ip) -> str | None:
    return next((why for net, why in METADATA.items() if ip.version == net.version and ip in net), None)


def _refused_ip(ip, allow_private: bool) -> str | None:
    why = _metadata(ip)
    if why:
        return why
    if ip.is_global and not ip.is_multicast:
        return None
    if ip.is_multicast or ip.is_unspecified or ip.is_reserved:
        return "a multicast, unspecified or reserved address"
    if allow_private:
        return None
    if ip.is_loopback:
        return "a loopback address"
    if ip.is_link_local:
        return "a link-local address"
    return "a private or otherwise non-public address"


def _inet_aton_part(text: str) -> int | None:
    """One part of a numeric IPv4 host as the C library reads it: 0x.. hex,
    0.. octal, else decimal (None: not a number, so the host is a name)."""
    digits, base = (text[2:], 16) if text[:2].lower() == "0x" else (text[1:], 8) if text[:1] == "0" else (text, 10)
    allowed = {16: "0123456789abcdefABCDEF", 8: "01234567", 10: "0123456789"}[base]
    if base == 10 and not digits or any(c not in allowed for c in digits):
        return None
    return int(digits, base) if digits else 0


def numeric_host(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a host written as a number stands for, in every spelling a
    resolver accepts (inet_aton: ``2852039166``, ``0251.0376.0251.0376``,
    ``0xa9.0xfe.43518``, ``169.254.169.254.``), else None (a name). Read here
    so a number is never sent to a DNS server to be answered as a name."""
    text = host[:-1] if host.endswith(".") else host
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        pass
    parts = [_inet_aton_part(p) for p in text.split(".")] if text else [None]
    if len(parts) > 4 or any(p is None for p in parts):
        return None
    *head, last = parts
    if any(p > 255 for p in head) or last >= 1 << (8 * (4 - len(head))):
        return None
    value = 0
    for p in head:
        value = value << 8 | p
    return ipaddress.IPv4Address(value << (8 * (4 - len(head))) | last)


def resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` stands for now: a number is read as one, a
    name is looked up (every answer is checked, and one of them is called)."""
    literal = numeric_host(host)
    if literal is not None:
        return [str(literal)]
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as err:
        raise UrlRefused("webhook_url_unresolvable", f"{host} does not resolve: {err}") from None
    return list(dict.fromkeys(info[4][0].split("%")[0] for info in infos))


def check_url(url: str, allow_private: bool) -> tuple[str, int, list[str]]:
    """Refuse a URL that is not http(s) or resolves to an address the server
    must not call; returns (host, port, checked addresses)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UrlRefused("webhook_url_invalid", "a webhook URL is http:// or https:// with a host")
    if parts.username or parts.password:
        raise UrlRefused("webhook_url_invalid", "a webhook URL may not hold credentials")
    host = parts.hostname
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise UrlRefused("webhook_url_invalid", "bad port") from None
    addresses = resolve(host, port)
    if not addresses:
        raise UrlRefused("webhook_url_unresolvable", f"{host} does not resolve")
    for address in addresses:
        why = _refused_address(ipaddress.ip_address(address), allow_private)
        if why:
            raise UrlRefused("webhook_url_refused",
                             f"{host} resolves to {address}, {why}; webhooks may not call it")
    return host, port, addresses


class _PinnedTLS(HTTPAdapter):
    """Connect to a checked address while verifying TLS for the host name."""

    def __init__(self, hostname: str, **kw):
        self._hostname = hostname
        super().__init__(**kw)

    def init_poolmanager(self, *args, **kw):
        kw["server_hostname"] = self._hostname
        kw["assert_hostname"] = self._hostname
        super().init_poolmanager(*args, **kw)


def sign(secret: str, msg_id: str, timestamp: int, body: str) -> dict:
    signature = Webhook(secret).sign(msg_id, datetime.fromtimestamp(timestamp, tz=timezone.utc), body)
    return {"webhook-id": msg_id, "webhook-timestamp": str(timestamp), "webhook-signature": signature,
            "content-type": "application/json", "user-agent": "pbem-webhooks/1"}


def post(url: str, secret: str, msg_id: str, body: str, allow_private: bool, timeout: float) -> requests.Response:
    """One signed POST to the checked address of ``url`` (raises UrlRefused,
    requests.RequestException)."""
    host, port, addresses = check_url(url, allow_private)
    parts = urlsplit(url)
    ip = addresses[0]
    netloc_ip = f"[{ip}]:{port}" if ":" in ip else f"{ip}:{port}"
    target = urlunsplit((parts.scheme, netloc_ip, parts.path or "/", parts.query, ""))
    headers = sign(secret, msg_id, int(time.time()), body)
    default_port = 443 if parts.scheme == "https" else 80
    headers["host"] = host if port == default_port else f"{host}:{port}"
    with requests.Session() as session:
        session.trust_env = False  # no proxy from the environment: the checked address is the one called
        if parts.scheme == "https":
            session.mount("https://", _PinnedTLS(host))
        return session.post(target, data=body.encode(), headers=headers, timeout=timeout,
                            allow_redirects=False)


def backoff(attempt: int, base: float, cap: float, rng: random.Random | None = None) -> float:
    """Delay before attempt ``attempt + 1``: base * 2^(attempt-1), capped, with
    jitter that only lengthens it (so the schedule spans at least its nominal sum)."""
    rng = rng or random
    nominal = min(cap, base * (2 ** max(0, attempt - 1)))
    return nominal * rng.uniform(1.0, 1.25)


def schedule_span(attempts: int, base: float, cap: float) -> float:
    """Nominal seconds from the first to the last attempt."""
    return sum(min(cap, base * 2 ** (a - 1)) for a in range(1, attempts))


def envelope(event_type: str, data: dict) -> str:
    """The webhook body: ``{"type", "timestamp", "data"}`` as Standard Webhooks suggests."""
    now = datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
    return json.dumps({"type": f"pbem.{event_type}", "timestamp": now, "data": data},
                      separators=(",", ":"), sort_keys=True)
