"""The notification jobs' logic: who is told what, by which channel.

Every entry point takes ids and small facts and reloads the game, so a job
can run late, twice or after the game moved on without telling anyone
anything false: turn mails go only to seats still to act, deadline jobs do
nothing unless their deadline record still stands.
"""
from __future__ import annotations

import logging
import secrets
import time
from datetime import datetime, timedelta, timezone

import requests
from rq import Queue

from ..failures import Failures
from ..games.base import OMNISCIENT
from ..service import Loaded, Service
from . import QUEUE, deadlines, mail, transport, webhooks
from .config import NotifySettings
from .kinds import (DEADLINE_PASSED, DIGEST, GAME_OVER, MOVE_REJECTED, REMINDER, YOUR_TURN, Notice,
                    mail_wanted, newly_to_act)
from .store import NotifyStore

log = logging.getLogger(__name__)

JOBS = "workers.notify_jobs"
JOB_OPTS = {"result_ttl": 0, "failure_ttl": 7 * 86400, "job_timeout": 120}
MAIL_RETRIES = (30, 120, 600, 3600)
EXAMPLES = 5


class Notifier:
    def __init__(self, service: Service, conf: NotifySettings | None = None):
        self.service = service
        self.conf = conf or NotifySettings()
        self.store = NotifyStore(service.store.redis)
        self.queue = Queue(QUEUE, connection=service.store.redis)
        self._secret: bytes | None = None

    @property
    def secret(self) -> bytes:
        if self._secret is None:
            self._secret = self.conf.secret()
        return self._secret

    # ------------------------------------------------------------------ scheduling helpers

    def _later(self, delay: float, func: str, *args) -> str:
        job = self.queue.enqueue_in(timedelta(seconds=max(0.0, delay)), f"{JOBS}.{func}", *args, **JOB_OPTS)
        return job.id

    def _at(self, ts: float, func: str, *args) -> str:
        job = self.queue.enqueue_at(datetime.fromtimestamp(ts, tz=timezone.utc), f"{JOBS}.{func}", *args, **JOB_OPTS)
        return job.id

    def _cancel(self, job_ids: list[str]) -> None:
        from rq.job import Job
        from rq.registry import ScheduledJobRegistry
        registry = ScheduledJobRegistry(queue=self.queue)
        for job_id in job_ids or ():
            try:
                registry.remove(job_id, delete_job=True)
            except Exception:  # gone already: the job's own check makes it harmless anyway
                try:
                    Job.fetch(job_id, connection=self.queue.connection).delete()
                except Exception:
                    pass

    # ------------------------------------------------------------------ notices

    def notice(self, loaded: Loaded, seat: int, kind: str, since: int | None = None, message: str = "") -> Notice:
        """What ``seat`` is told about ``loaded`` (events after ``since``),
        filtered through the game's redact/view for that seat only."""
        game, state, meta = loaded.game, loaded.state, loaded.meta
        finished = meta.get("status") == "finished"
        viewer = OMNISCIENT if finished else seat
        seats = self.service.store.seats(loaded.id)
        events = []
        if since is not None and since < loaded.version:
            for version, event, _ in self.service.store.events(loaded.id, since, loaded.version, 50):
                shown = game.redact(event, viewer)
                events.append({"version": version, "event": shown, "text": game.describe(shown, viewer)})
        try:
            to_act = sorted(game.to_act(state)) if meta.get("status") == "active" else []
        except Exception:
            to_act = []
        examples = []
        if seat in to_act and not finished:
            examples = [{"move": m, "text": game.describe(m, seat)} for m in game.legal_moves(state, seat)[:EXAMPLES]]
        record = self.store.deadline(loaded.id, seat)
        base = self.conf.public_url.rstrip("/")
        return Notice(kind=kind, game_id=loaded.id, game=game.name, title=str(meta.get("title") or loaded.id),
                      seat=seat, seat_name=str(seats.get(seat, {}).get("name") or f"seat {seat}"),
                      version=loaded.version, status=str(meta.get("status")), to_act=to_act, events=events,
                      board=game.render(state, viewer), examples=examples,
                      deadline=record["at"] if record and seat in to_act else None,
                      result=meta.get("result") if finished else None, message=message,
                      links={"game": f"{base}/games/{loaded.id}", "record": f"{base}/games/{loaded.id}/record"})

    def channels(self, game_id: str, seat: int) -> dict:
        return self.store.channels(game_id, seat, self.service.store.seats(game_id).get(seat))

    # ------------------------------------------------------------------ sending

    def send_mail(self, n: Notice, address: str) -> str:
        msg = mail.compose(n, address, self.secret, self.conf.mail_domain, self.conf.sender)
        return transport.send(msg, self.conf.smtp_url, self.conf.data_dir)

    def mail(self, game_id: str, seat: int, kind: str, since: int | None, version: int | None,
             message: str = "", attempt: int = 1) -> bool:
        """Compose and send one mail; on a transport error, try again later."""
        address = self.channels(game_id, seat).get("email")
        if not address:
            return False
        loaded = self.service.load(game_id, version)
        n = self.notice(loaded, seat, kind, since, message)
        try:
            self.send_mail(n, address)
            return True
        except Exception as err:  # SMTP down, refused...: the job tries again, then gives up
            log.warning("mail to seat %s of %s failed (attempt %s): %s", seat, game_id, attempt, err)
            if attempt <= len(MAIL_RETRIES):
                self._later(MAIL_RETRIES[attempt - 1], "mail", game_id, seat, kind, since, version, message, attempt + 1)
            else:  # given up: the operator may retry it (pbem.failures)
                Failures(self.store.redis).record("mail", game_id, seat, f"{type(err).__name__}: {err}", attempt,
                                                  f"{JOBS}.mail", [game_id, seat, kind, since, version, message, 1],
                                                  QUEUE, mail_kind=kind, to=address)
            return False

    def turn_mail(self, loaded: Loaded, seat: int, since: int) -> str:
        """A turn mail, within the player's preference and the rate limit."""
        ch = self.channels(loaded.id, seat)
        if not ch.get("email"):
            return "no_email"
        pref = ch.get("preference", "every")
        if pref == "digest":
            line = f"v{loaded.version}: your turn in {loaded.meta.get('title')}"
            if self.store.add_digest(loaded.id, seat, line):
                self._later(self.conf.digest_period, "digest", loaded.id, seat)
            return "digest"
        if not mail_wanted(YOUR_TURN, pref):
            return "preference"
        wait = self.store.take_mail_slot(loaded.id, seat, self.conf.mail_interval)
        if wait:
            if self.store.claim_deferred(loaded.id, seat, wait + 3600, since):
                self._later(wait + 0.05, "deferred_turn_mail", loaded.id, seat)
            return "deferred"
        self.mail(loaded.id, seat, YOUR_TURN, since, loaded.version)
        return "sent"

    def deferred_turn_mail(self, game_id: str, seat: int) -> str:
        since = self.store.release_deferred(game_id, seat)
        loaded = self.service.load(game_id)
        if loaded.meta.get("status") != "active" or seat not in loaded.game.to_act(loaded.state):
            return "moved_on"
        wait = self.store.take_mail_slot(game_id, seat, self.conf.mail_interval)
        if wait:  # someone else took the slot meanwhile: defer again
            if self.store.claim_deferred(game_id, seat, wait + 3600, since or 0):
                self._later(wait + 0.05, "deferred_turn_mail", game_id, seat)
            return "deferred"
        self.mail(game_id, seat, YOUR_TURN, since, loaded.version)
        return "sent"

    def digest(self, game_id: str, seat: int) -> bool:
        lines = self.store.take_digest(game_id, seat)
        address = self.channels(game_id, seat).get("email")
        if not lines or not address:
            return False
        n = self.notice(self.service.load(game_id), seat, DIGEST)
        n.lines = lines
        self.send_mail(n, address)
        return True

    def _wants_webhook(self, game_id: str, seat: int) -> bool:
        webhook = self.channels(game_id, seat).get("webhook")
        return bool(webhook and webhook.get("enabled"))

    def webhook(self, n: Notice) -> str | None:
        """Queue a webhook delivery of a notice; returns its delivery id."""
        webhook = self.channels(n.game_id, n.seat).get("webhook")
        if not webhook or not webhook.get("enabled"):
            return None
        delivery_id = secrets.token_hex(12)
        body = webhooks.envelope(n.kind, n.as_payload())
        ttl = int(webhooks.schedule_span(self.conf.webhook_max_attempts, self.conf.webhook_backoff_base,
                                         self.conf.webhook_backoff_cap) * 1.5) + 86400
        self.store.save_delivery(n.game_id, delivery_id, {"msg_id": f"msg_{delivery_id}", "body": body,
                                                          "kind": n.kind, "endpoint": webhook["id"],
                                                          "created": time.time()}, ttl)
        self.queue.enqueue(f"{JOBS}.deliver_webhook", n.game_id, n.seat, delivery_id, 1, **JOB_OPTS)
        return delivery_id

    def deliver(self, game_id: str, seat: int, delivery_id: str, attempt: int) -> str:
        """One delivery attempt, logged; schedules the next one on failure."""
        message = self.store.delivery(game_id, delivery_id)
        if message is None:
            return "expired"
        ch = self.channels(game_id, seat)
        hook = ch.get("webhook")
        entry = {"delivery_id": delivery_id, "webhook_id": message["msg_id"], "kind": message["kind"],
                 "attempt": attempt, "url": hook["url"] if hook else None, "status": None, "error": None}
        if not hook or hook.get("id") != message["endpoint"] or not hook.get("enabled"):
            self.store.log_attempt(game_id, seat, {**entry, "outcome": "skipped",
                                                   "error": "the endpoint was removed or disabled"})
            return "skipped"
        start = time.monotonic()
        retry = True
        try:
            response = webhooks.post(hook["url"], hook["secret"], message["msg_id"], message["body"],
                                     self.conf.webhook_allow_private, self.conf.webhook_timeout)
            entry["status"] = response.status_code
            if 200 <= response.status_code < 300:
                outcome = "delivered"
            elif response.status_code == 410:
                outcome, retry = "disabled", False
            else:
                outcome = "failed"
                entry["error"] = f"HTTP {response.status_code}"
        except webhooks.UrlRefused as err:
            outcome, entry["error"] = "failed", err.message
            retry = err.code == "webhook_url_unresolvable"
            if not retry:
                outcome = "refused"
        except requests.RequestException as err:
            outcome, entry["error"] = "failed", f"{type(err).__name__}: {err}"[:300]
        entry["duration_ms"] = round((time.monotonic() - start) * 1000, 1)
        if outcome == "disabled":
            hook.update(enabled=False, disabled_reason="the receiver answered 410 Gone", disabled_at=time.time())
            self.store.save_channels(game_id, seat, ch)
        if outcome == "failed" and retry and attempt < self.conf.webhook_max_attempts:
            delay = webhooks.backoff(attempt, self.conf.webhook_backoff_base, self.conf.webhook_backoff_cap)
            entry["next_attempt_at"] = time.time() + delay
            self.store.log_attempt(game_id, seat, {**entry, "outcome": "retrying"})
            self._later(delay, "deliver_webhook", game_id, seat, delivery_id, attempt + 1)
            return "retrying"
        if outcome == "failed":
            outcome = "gave_up"
        self.store.log_attempt(game_id, seat, {**entry, "outcome": outcome})
        if outcome in ("gave_up", "refused"):  # the operator may retry it (pbem.failures)
            Failures(self.store.redis).record("webhook", game_id, seat, entry["error"] or outcome, attempt,
                                              f"{JOBS}.deliver_webhook", [game_id, seat, delivery_id, 1], QUEUE,
                                              delivery_id=delivery_id, url=entry["url"], webhook_kind=message["kind"])
        return outcome

    def tell(self, loaded: Loaded, seat: int, kind: str, since: int | None = None, message: str = "") -> None:
        """A notice other than "your turn": mail (if the seat has an address)
        and webhook."""
        ch = self.channels(loaded.id, seat)
        if ch.get("email") and mail_wanted(kind, ch.get("preference", "every")):
            self.mail(loaded.id, seat, kind, since, loaded.version, message)
        self.webhook(self.notice(loaded, seat, kind, since, message))

    # ------------------------------------------------------------------ after a move

    def after_move(self, game_id: str, before_version: int, version: int, before: list[int],
                   after: list[int], mover: int | None, finished: bool) -> dict:
        out: dict = {}
        if finished:
            loaded = self.service.load(game_id, version)
            for seat, record in self.store.deadlines(game_id).items():
                self._cancel(record.get("jobs"))
                self.store.set_deadline(game_id, seat, None)
            for seat in range(int(loaded.meta["players"])):
                if self.store.once(game_id, f"over:{seat}"):
                    self.tell(loaded, seat, GAME_OVER, before_version)
                    out[seat] = GAME_OVER
            return out
        for seat in set(before) - set(after):
            record = self.store.deadline(game_id, seat)
            if record:
                self._cancel(record.get("jobs"))
                self.store.set_deadline(game_id, seat, None)
        current = self.service.load(game_id)
        still = set(current.game.to_act(current.state)) if current.meta.get("status") == "active" else set()
        for seat in newly_to_act(before, after, mover):
            if seat not in still:
                out[seat] = "moved_on"
                continue
            self.schedule_deadline(game_id, seat, version)
            loaded_now = current if current.version == version else self.service.load(game_id, version)
            out[seat] = self.turn_mail(loaded_now, seat, before_version)
            if self._wants_webhook(game_id, seat):  # build the notice only for someone to send it to
                self.webhook(self.notice(loaded_now, seat, YOUR_TURN, before_version))
        return out

    def after_reject(self, game_id: str, move_id: str) -> bool:
        record = self.service.store.move(game_id, move_id)
        if not record or record.get("status") != "rejected" or not self.store.once(game_id, f"rejected:{move_id}"):
            return False
        seat = (record.get("envelope") or {}).get("player")
        if seat is None:
            return False
        error = record.get("error") or {}
        message = f"Your move was rejected: {error.get('message', '')} ({error.get('code', '')})."
        self.tell(self.service.load(game_id), seat, MOVE_REJECTED, None, message)
        return True

    # ------------------------------------------------------------------ deadlines

    def schedule_deadline(self, game_id: str, seat: int, since_version: int,
                          seconds: float | None = None) -> dict | None:
        settings = self.store.game_settings(game_id)
        if not settings or not settings.get("turn_seconds") or self.store.paused(game_id):
            return None
        old = self.store.deadline(game_id, seat)
        if old and old["since_version"] > since_version:
            return old  # a later turn already set it
        if old:
            self._cancel(old.get("jobs"))
        now = time.time()
        turn = float(seconds if seconds is not None else settings["turn_seconds"])
        at = now + turn
        jobs = [self._at(at, "deadline_due", game_id, seat, since_version)]
        reminder = settings.get("reminder_seconds") or 0
        reminder_at = at - reminder if reminder and at - reminder > now else None
        if reminder_at:
            jobs.append(self._at(reminder_at, "reminder_due", game_id, seat, since_version))
        record = {"since_version": since_version, "at": at, "reminder_at": reminder_at, "jobs": jobs,
                  "action": settings.get("default_action", "pass")}
        self.store.set_deadline(game_id, seat, record)
        return record

    def _standing(self, game_id: str, seat: int, since_version: int) -> tuple[dict, Loaded] | None:
        record = self.store.deadline(game_id, seat)
        if not record or record["since_version"] != since_version or self.store.paused(game_id):
            return None
        loaded = self.service.load(game_id)
        if loaded.meta.get("status") != "active" or seat not in loaded.game.to_act(loaded.state):
            self.store.set_deadline(game_id, seat, None)
            return None
        return record, loaded

    def reminder_due(self, game_id: str, seat: int, since_version: int) -> bool:
        standing = self._standing(game_id, seat, since_version)
        if not standing or not self.store.once(game_id, f"reminder:{seat}:{since_version}"):
            return False
        record, loaded = standing
        self.tell(loaded, seat, REMINDER, None, "")
        return True

    def deadline_due(self, game_id: str, seat: int, since_version: int) -> str:
        standing = self._standing(game_id, seat, since_version)
        if not standing or not self.store.once(game_id, f"deadline:{seat}:{since_version}"):
            return "stale"
        record, loaded = standing
        settings = self.store.game_settings(game_id) or {}
        action = settings.get("default_action", "pass")
        move = deadlines.choose_move(loaded, seat, action, self.secret)
        self.store.set_deadline(game_id, seat, None)
        if move is None:
            deadlines.forfeit(self.service, loaded, seat)
            message = "The deadline passed: you forfeit the game."
            done = "forfeit"
        else:
            deadlines.submit_default(self.service, loaded, seat, move, action, since_version)
            message = f"The deadline passed: the server played '{loaded.game.describe(move, seat)}' for you ({action})."
            done = action
        self.tell(loaded, seat, DEADLINE_PASSED, None, message)
        return done

    def pause(self, game_id: str, by: str) -> dict:
        paused = self.store.paused(game_id)
        if paused:
            return paused
        now = time.time()
        remaining = {}
        for seat, record in self.store.deadlines(game_id).items():
            self._cancel(record.get("jobs"))
            remaining[str(seat)] = {"seconds": max(0.0, record["at"] - now), "since_version": record["since_version"]}
            self.store.set_deadline(game_id, seat, None)
        paused = {"at": now, "by": by, "remaining": remaining}
        self.store.set_paused(game_id, paused)
        return paused

    def resume(self, game_id: str) -> dict:
        paused = self.store.paused(game_id)
        if not paused:
            return {}
        self.store.set_paused(game_id, None)
        self.store.clear_pause_votes(game_id)  # the next pause needs every seat again
        out = {}
        for seat, left in paused.get("remaining", {}).items():
            out[seat] = self.schedule_deadline(game_id, int(seat), left["since_version"], max(1.0, left["seconds"]))
        return out
