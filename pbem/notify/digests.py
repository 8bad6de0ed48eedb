"""Digests: one mail a day (or an hour) listing the games waiting for a
player, instead of one mail per turn.

A seat chooses ``digest``: ``off`` (a mail per turn, as its ``preference``
says), ``daily`` or ``hourly`` (its channels: PATCH .../notifications, a
mail line ``digest daily``). Its turn mails are then held (``Notifier.
turn_mail`` calls ``hold``) under its address: every seat of every game
mailed to that address is "the player" here, so one digest lists them all.
The first held turn schedules the digest job ``PBEM_DIGEST_PERIOD`` (daily)
or ``PBEM_DIGEST_HOURLY_S`` (hourly) later; it sends one mail
(pbem.notify.digest_mail) with each game still waiting for that seat, each
built from the seat's own filtered notice, with its picture; a game that
moved on meanwhile is left out. Reminders, deadlines, rejections and game
ends are not held, and webhooks are never digested.

    pbem:{dg:H}:waiting   hash    "GAME:SEAT" -> the first version not told
    pbem:{dg:H}:due       string  set while a digest job is scheduled
"""
from __future__ import annotations

import hashlib
import logging

from . import digest_mail, transport
from .kinds import YOUR_TURN

log = logging.getLogger(__name__)

CHOICES = ("off", "daily", "hourly")
KEEP_S = 40 * 86400


def _key(address: str, what: str) -> str:
    return f"pbem:{{dg:{hashlib.sha256(address.strip().lower().encode()).hexdigest()[:32]}}}:{what}"


def wanted(channels: dict) -> str | None:
    """The digest a seat chose, None for none."""
    choice = channels.get("digest") or "off"
    return choice if choice in CHOICES and choice != "off" else None


class Digests:
    def __init__(self, notifier):
        self.n = notifier
        self.redis = notifier.service.store.redis

    def period(self, choice: str) -> float:
        return float(self.n.conf.digest_hourly_s if choice == "hourly" else self.n.conf.digest_period)

    def hold(self, game_id: str, seat: int, since: int, address: str, choice: str) -> str:
        """Keep a turn notice for the address's next digest (scheduled by the first)."""
        waiting = _key(address, "waiting")
        pipe = self.redis.pipeline(transaction=True)
        pipe.hsetnx(waiting, f"{game_id}:{seat}", int(since))
        pipe.expire(waiting, KEEP_S)
        pipe.execute()
        period = self.period(choice)
        if self.redis.set(_key(address, "due"), "1", nx=True, ex=int(period) + 3600):
            self.n._later(period, "digest_mail", address)
        return "digest"

    def waiting(self, address: str) -> dict[str, int]:
        return {k.decode(): int(v) for k, v in self.redis.hgetall(_key(address, "waiting")).items()}

    def send(self, address: str) -> int:
        """The digest job: one mail of every game still waiting; the number listed."""
        self.redis.delete(_key(address, "due"))  # a turn held from now on schedules the next one
        pipe = self.redis.pipeline(transaction=True)
        pipe.hgetall(_key(address, "waiting"))
        pipe.delete(_key(address, "waiting"))
        held = pipe.execute()[0]
        notices = []
        for field, since in sorted(held.items()):
            game_id, _, seat = field.decode().rpartition(":")
            seat = int(seat)
            if (self.n.channels(game_id, seat).get("email") or "").strip().lower() != address.strip().lower():
                continue  # the seat's mail goes elsewhere now
            loaded = self.n.service.load(game_id)
            if loaded.meta.get("status") != "active" or seat not in loaded.game.turn_of(loaded.state):
                continue  # moved on: nothing waits for the seat there
            told = self.n.store.told(game_id, seat)
            since = int(since) if told is None else min(int(since), told)
            notice = self.n.notice(loaded, seat, YOUR_TURN, since)
            notice.picture = self.n.picture(loaded, notice)
            notices.append(notice)
        if not notices:
            return 0
        msg = digest_mail.compose(notices, address, self.n.secret, self.n.conf.mail_domain, self.n.conf.sender)
        transport.send(msg, self.n.conf.smtp_url, self.n.conf.data_dir)
        for notice in notices:
            self.n.store.set_told(notice.game_id, notice.seat, notice.version)
        return len(notices)
