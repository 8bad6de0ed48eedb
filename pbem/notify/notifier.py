"""The notification jobs' logic: who is told what, by which channel.

Every entry point takes ids and small facts and reloads the game, so a job
can run late, twice or after the game moved on without telling anyone
anything false: turn mails go only to seats still to act, deadline jobs do
nothing unless their deadline record still stands.
"""
from __future__ import annotations

import json
import logging
import secrets
import time
from datetime import datetime, timedelta, timezone

import requests
from rq import Queue

from .. import failpoint
from ..telemetry import logs, metrics
from ..store.connections import rq_connection
from ..store.failures import Failures
from ..games import takeback
from ..games.base import OMNISCIENT
from ..games.i18n import _, reading
from ..service import Loaded, Service
from . import deadlines, digests, mail, takeback_news, transport, webhooks, wording
from .chat_lines import chat_lines
from .config import NotifySettings
from .hooks import QUEUE
from .kinds import (DEADLINE_AUTH, DEADLINE_PASSED, DIGEST, GAME_OVER, MAIL_AUTH, MAY_REACT, MOVE_REJECTED,
                    REMATCH_STARTED, REMINDER, YOUR_TURN, Notice, mail_wanted, newly_to_act)
from .links import links
from .picture import board_png
from .readers import Reader, quoted, seat_reader
from .store import NotifyStore

log = logging.getLogger(__name__)

JOBS = "workers.notify_jobs"
JOB_OPTS = {"result_ttl": 0, "failure_ttl": 7 * 86400, "job_timeout": 120}
MAIL_RETRIES = (30, 120, 600, 3600)
#: The sweep sends a gathered turn mail whose job is this late (lost), or
#: still being sent this long after its job took it (past RQ's 120 s job
#: timeout: its worker died).
DEFERRED_LATE_S = 30.0
SENDING_LATE_S = 150.0
EXAMPLES = 5
EVENTS_SHOWN = 50
#: How long "once in the game" is remembered: longer than a game by mail lasts.
ONCE_A_GAME_S = 400 * 86400


class Notifier:
    def __init__(self, service: Service, conf: NotifySettings | None = None):
        self.service = service
        self.conf = conf or NotifySettings()
        self.store = NotifyStore(service.store.redis)
        self.queue = Queue(QUEUE, connection=rq_connection(service.store.redis))
        self._secret: bytes | None = None
        #: Set by the notices drainer when the notice it hands us is late
        #: (``picture_lag_s``): its mails then go without a picture.
        self.behind = False

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

    def reader(self, loaded: Loaded, seat: int) -> Reader:
        """Who reads ``seat``'s mails and webhooks: its language and zone
        (``readers.seat_reader``). Every text for the seat is built inside
        ``with reading(reader.lang)``, the games' and the picture's too."""
        return seat_reader(loaded.meta, self.service.store.seats(loaded.id).get(seat))

    def notice(self, loaded: Loaded, seat: int, kind: str, since: int | None = None, message: str = "") -> Notice:
        """What ``seat`` is told about ``loaded`` (events after ``since``),
        filtered through the game's redact/view for that seat only; players
        named by their names (``wording.seat_names``); every text built in
        the seat's language (``message`` was built in it by the caller)."""
        reader = self.reader(loaded, seat)
        with reading(reader.lang):
            n = self._notice(loaded, seat, kind, since, message)
        n.lang, n.tz = reader.lang, reader.tz
        return n

    def _notice(self, loaded: Loaded, seat: int, kind: str, since: int | None, message: str) -> Notice:
        game, state, meta = loaded.game, loaded.state, loaded.meta
        finished = meta.get("status") == "finished"
        viewer = OMNISCIENT if finished else seat
        seats = self.service.store.seats(loaded.id)
        names = wording.seat_names(seats, int(meta.get("players") or len(seats)))
        events = []
        said = chat_lines(self.service, loaded.id, seat, since, names) if since is not None else []
        if since is not None and since < loaded.version:
            since = max(since, loaded.version - EVENTS_SHOWN)  # the latest, when much happened
            for version, event, _move_id in self.service.store.events(loaded.id, since, loaded.version):
                shown = takeback.shown(game, event, viewer)
                events.append({"version": version, "event": shown,
                               "text": wording.describe(game, shown, viewer, names)})
        to_act, turn = wording.acting(loaded)
        examples = []
        if seat in to_act and not finished:
            examples = [{"move": m, "text": wording.describe(game, m, seat, names)}
                        for m in wording.examples(game.legal_moves(state, seat), EXAMPLES)]
        record = self.store.deadline(loaded.id, seat)
        deadline = record["at"] if record and seat in to_act else None
        playing = kind in (YOUR_TURN, REMINDER, MAY_REACT, REMATCH_STARTED) and seat in to_act and not finished
        return Notice(kind=kind, game_id=loaded.id, game=game.name, title=str(meta.get("title") or loaded.id),
                      seat=seat, seat_name=names[seat] if seat < len(names) else _("seat {n}", n=seat),
                      version=loaded.version, status=str(meta.get("status")), to_act=to_act, events=events,
                      board=wording.render(game, state, viewer, names), examples=examples,
                      deadline=deadline,
                      result=meta.get("result") if finished else None, message=message,
                      links=links(self.conf, loaded.id, seat, play=playing, expires=deadline),
                      names=names, game_title=game.title_text(), turn=turn, chat=said,
                      active=wording.active_seat(loaded),
                      result_text=wording.result_line(game, meta["result"], names) if finished and meta.get("result")
                      else "")

    def picture(self, loaded: Loaded, n: Notice) -> bytes | None:
        """The reader's picture: from their view, their legal moves marked
        when it is their turn (everything once the game is over), its words
        in the reader's language."""
        if self.behind:
            return None
        finished = loaded.meta.get("status") == "finished"
        viewer = OMNISCIENT if finished else n.seat
        legal = loaded.game.legal_moves(loaded.state, n.seat) if n.seat in n.turn and not finished else None
        with reading(n.lang):
            return board_png(loaded.game, loaded.state, viewer, n.names, legal)

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
        told = self.store.told(game_id, seat)
        if since is not None and told is not None and told < since:
            since = told  # what happened since the seat's last mail is news to it too
        n = self.notice(loaded, seat, kind, since, message)
        n.picture = self.picture(loaded, n)
        try:
            self.send_mail(n, address)
            self.store.set_told(game_id, seat, loaded.version)
            return True
        except Exception as err:  # SMTP down, refused...: the job tries again, then gives up
            log.warning("mail to seat %s of %s failed (attempt %s): %s", seat, game_id, attempt, err)
            if attempt <= len(MAIL_RETRIES):
                self._later(MAIL_RETRIES[attempt - 1], "mail", game_id, seat, kind, since, version, message, attempt + 1)
            else:  # given up: the operator may retry it (pbem.store.failures)
                Failures(self.store.redis).record("mail", game_id, seat, f"{type(err).__name__}: {err}", attempt,
                                                  f"{JOBS}.mail", [game_id, seat, kind, since, version, message, 1],
                                                  QUEUE, mail_kind=kind, to=address)
            return False

    def turn_mail(self, loaded: Loaded, seat: int, since: int) -> str:
        """A turn mail, within the player's preference and the rate limit:
        the first goes at once; while the seat has not acted since, more
        notices are not mailed one by one but gathered into one mail at the
        end of ``PBEM_MAIL_INTERVAL`` (sent only if the seat is still to act,
        telling everything since the first). A seat that acts and whose turn
        passes is free again (``after_move``), so a game played turn by turn
        gets each turn mail at once."""
        held = self.service.store.seats(loaded.id).get(seat) or {}
        if held.get("handed_over"):
            return "bot_plays"  # handed to a bot for a while (pbem/games/handover.py): its player is away
        ch = self.store.channels(loaded.id, seat, held)
        if not ch.get("email"):
            return "no_email"
        if digests.wanted(ch):  # held for the player's digest (webhooks are not: after_move sends them)
            return digests.Digests(self).hold(loaded.id, seat, since, ch["email"], digests.wanted(ch))
        pref = ch.get("preference", "every")
        if pref == "digest":
            # worded when the digest is mailed, in its reader's language (mail.digest_line)
            line = json.dumps({"version": loaded.version, "title": str(loaded.meta.get("title") or loaded.id)})
            if self.store.add_digest(loaded.id, seat, line):
                self._later(self.conf.digest_period, "digest", loaded.id, seat)
            return "digest"
        if not mail_wanted(YOUR_TURN, pref):
            return "preference"
        wait = self.store.take_mail_slot(loaded.id, seat, self.conf.mail_interval)
        if wait:
            self._defer(loaded.id, seat, wait, since)
            return "deferred"
        gathered = self.store.release_deferred(loaded.id, seat)  # this mail tells those too
        self.mail(loaded.id, seat, YOUR_TURN, min(since, gathered) if gathered is not None else since,
                  loaded.version)
        return "sent"

    def _defer(self, game_id: str, seat: int, wait: float, since: int) -> None:
        """Gather the seat's turn mail for ``wait`` s: its job then, and the
        sweep's look ``DEFERRED_LATE_S`` after, should the job be lost."""
        if self.store.claim_deferred(game_id, seat, wait + 3600, since, time.time() + wait + DEFERRED_LATE_S):
            self._later(wait + 0.05, "deferred_turn_mail", game_id, seat)

    def deferred_turn_mail(self, game_id: str, seat: int) -> str:
        """The gathered notices of one seat, as one mail (see ``turn_mail``).
        Taken as being sent until it is: a job killed in between leaves it
        to the sweep (``deferred_late``), which sends it then."""
        since = self.store.take_deferred(game_id, seat, time.time() + SENDING_LATE_S)
        if since is None:
            return "told_already"  # the seat acted, or a turn mail since told it all
        failpoint.hit("deferred_taken")
        return self._send_deferred(game_id, seat, since)

    def _send_deferred(self, game_id: str, seat: int, since: int) -> str:
        loaded = self.service.load(game_id)
        if loaded.meta.get("status") != "active" or seat not in loaded.game.turn_of(loaded.state):
            self.store.done_deferred(game_id, seat)
            return "moved_on"
        wait = self.store.take_mail_slot(game_id, seat, self.conf.mail_interval)
        if wait:  # someone else took the slot meanwhile: defer again
            self.store.done_deferred(game_id, seat)
            self._defer(game_id, seat, wait, since)
            return "deferred"
        self.mail(game_id, seat, YOUR_TURN, since, loaded.version)
        self.store.done_deferred(game_id, seat)
        return "sent"

    def deferred_late(self, now: float | None = None) -> list[str]:
        """The sweep's part: each gathered turn mail whose job was lost (still
        waiting ``DEFERRED_LATE_S`` after its time) or killed while sending
        it (still being sent ``SENDING_LATE_S`` after) is sent now; "GAME:SEAT"
        of each."""
        now = time.time() if now is None else now
        done = []
        for game_id, seat in self.store.deferred_due(now):
            since = self.store.sending_deferred(game_id, seat)
            if since is not None:
                outcome = self._send_deferred(game_id, seat, since)
            elif self.store.deferred_waiting(game_id, seat):
                outcome = self.deferred_turn_mail(game_id, seat)
            else:  # told meanwhile (the seat acted, or a mail told it all): an index entry left
                self.store.done_deferred(game_id, seat)
                continue
            if outcome == "sent":
                done.append(f"{game_id}:{seat}")
        return done

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
            _webhook_done(game_id, seat, entry, "retrying")
            self._later(delay, "deliver_webhook", game_id, seat, delivery_id, attempt + 1)
            return "retrying"
        if outcome == "failed":
            outcome = "gave_up"
        self.store.log_attempt(game_id, seat, {**entry, "outcome": outcome})
        _webhook_done(game_id, seat, entry, outcome)
        if outcome in ("gave_up", "refused"):  # the operator may retry it (pbem.store.failures)
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
                   after: list[int], mover: int | None, finished: bool, auth: str | None = None,
                   before_turn: list[int] | None = None, after_turn: list[int] | None = None,
                   move_id: str | None = None, in_secret: bool = False) -> dict:
        """Tell whoever must now be told. ``before``/``after``: the seats to
        act; ``before_turn``/``after_turn``: whose turn it was and is
        (``Game.turn_of``; an older notice has only the former). "Your
        turn" goes to whose turn it newly is; a seat that may only act out
        of turn gets one mail in the whole game saying so; webhooks get
        ``your_turn`` for every new chance to act. A move the server played
        at a seat's deadline (``auth`` "deadline") is told to that seat now,
        with the board after it (``deadline_played``). A move made
        ``in_secret`` (withheld from the others, sender and all: a Cartoona
        secret theft) does not restart its mover's deadline: the deadlines
        are public (GET /games/{id}/deadline), and a clock that started
        again would name the mover."""
        out: dict = {}
        deadline_move = auth == DEADLINE_AUTH and mover is not None and bool(move_id)
        if finished:
            if deadline_move:
                out["deadline"] = self.deadline_played(game_id, version, mover, move_id)
            loaded = self.service.load(game_id, version)
            for seat, record in self.store.deadlines(game_id).items():
                self._cancel(record.get("jobs"))
                self.store.set_deadline(game_id, seat, None)
            for seat in range(int(loaded.meta["players"])):
                if self.store.once(game_id, f"over:{seat}"):
                    self.tell(loaded, seat, GAME_OVER, before_version)
                    out[seat] = GAME_OVER
            return out
        before_turn = before if before_turn is None else before_turn
        after_turn = after if after_turn is None else after_turn
        for seat in set(before) - set(after):
            record = self.store.deadline(game_id, seat)
            if record:
                self._cancel(record.get("jobs"))
                self.store.set_deadline(game_id, seat, None)
        if mover is not None and mover not in after_turn:
            # The seat acted and its turn passed (it may still act out of
            # turn): what it was told is used up, so its next turn mail is
            # news and goes at once.
            self.store.free_mail_slot(game_id, mover)
        current = self.service.load(game_id)
        still, still_turn = (set(x) for x in wording.acting(current))
        loaded_now = current if current.version == version else None
        newly_turn = set(newly_to_act(before_turn, after_turn, mover))
        newly = set(newly_to_act(before, after, mover))
        for seat in sorted(newly_turn | newly):
            if seat not in still or (seat in newly_turn and seat not in still_turn):
                out[seat] = "moved_on"
                continue
            loaded_now = loaded_now or self.service.load(game_id, version)
            if seat in newly_turn:
                if not (in_secret and seat == mover):
                    self.schedule_deadline(game_id, seat, version)
                if seat == mover and auth == MAIL_AUTH:
                    out[seat] = "answered"  # the answer to the mover's mail shows the board and its turn
                elif seat == mover and deadline_move:
                    out[seat] = "told"      # the deadline's mail (below) shows the board and what it may do
                else:
                    out[seat] = self.turn_mail(loaded_now, seat, before_version)
            elif seat not in after_turn:
                # It may act out of turn, and the game does not wait for it.
                # Told once in the game, past the rate limit (it is no turn).
                out[seat] = "may_react"
                ch = self.channels(game_id, seat)
                if (ch.get("email") and mail_wanted(MAY_REACT, ch.get("preference", "every"))
                        and self.store.once(game_id, f"may_react:{seat}", ONCE_A_GAME_S)):
                    self.mail(game_id, seat, MAY_REACT, None, version)
            if self._wants_webhook(game_id, seat):  # build the notice only for someone to send it to
                self.webhook(self.notice(loaded_now, seat, YOUR_TURN, before_version))
        if deadline_move:  # after its next deadline is set: the mail shows it
            out["deadline"] = self.deadline_played(game_id, version, mover, move_id)
        return out

    def takeback_news(self, game_id: str, before_version: int, version: int, mover: int | None) -> dict:
        """Tell the seats of a takeback asked, refused or made (takeback_news.py)."""
        return takeback_news.tell(self, game_id, before_version, version, mover)

    def after_reject(self, game_id: str, move_id: str) -> bool:
        record = self.service.store.move(game_id, move_id)
        if not record or record.get("status") != "rejected" or not self.store.once(game_id, f"rejected:{move_id}"):
            return False
        seat = (record.get("envelope") or {}).get("player")
        if seat is None:
            return False
        error = record.get("error") or {}
        loaded = self.service.load(game_id)
        with reading(self.reader(loaded, seat).lang):
            # the reason is the worker's words, as the move's record keeps them
            message = _("Your move was rejected: {reason}", reason=error.get("message") or error.get("code") or "")
        self.tell(loaded, seat, MOVE_REJECTED, None, message)
        return True

    # ------------------------------------------------------------------ deadlines

    def schedule_deadline(self, game_id: str, seat: int, since_version: int,
                          seconds: float | None = None, while_paused: bool = False) -> dict | None:
        """``while_paused``: the resume's own (none otherwise while the game is paused)."""
        settings = self.store.game_settings(game_id)
        if not settings or not settings.get("turn_seconds") or (self.store.paused(game_id) and not while_paused):
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

    def deadline_played(self, game_id: str, version: int, seat: int, move_id: str) -> str:
        """Tell ``seat`` the move the server played for it at its deadline,
        once the move is applied: the mail shows the board after it (and,
        if the seat is to act again, what it may do now), never the decision
        already made for it."""
        record = self.service.store.move(game_id, move_id) or {}
        move = (record.get("envelope") or {}).get("move")
        if move is None or not self.store.once(game_id, f"deadline_played:{move_id}"):
            return "told_already"
        loaded = self.service.load(game_id, version)
        names = wording.seat_names(self.service.store.seats(game_id), int(loaded.meta.get("players") or 0))
        # the move as the seat's mails write moves: a seat it names, by its player's name
        action = record.get("default_action") or "pass"
        with reading(self.reader(loaded, seat).lang):
            how = deadlines.DEFAULT_ACTION_WORDS.get(action)
            message = _("The deadline passed, so the server played {move} for you ({how}).",
                        move=quoted(wording.describe(loaded.game, move, seat, names)), how=_(how) if how else action)
        self.tell(loaded, seat, DEADLINE_PASSED, None, message)
        return "told"

    def deadline_due(self, game_id: str, seat: int, since_version: int) -> str:
        """Play the default move of a deadline that fell (its job, or the
        sweep's for a job lost or cut short: ``deadlines_late``). Safe to run
        twice, even at once: the move is the same for the same version and
        its nonce is the deadline's (queued once), a forfeit is appended at
        the version it saw (once), and the deadline's record goes last."""
        standing = self._standing(game_id, seat, since_version)
        if not standing:
            return "stale"
        record, loaded = standing
        settings = self.store.game_settings(game_id) or {}
        action = settings.get("default_action", "pass")
        move = deadlines.choose_move(loaded, seat, action, self.secret)
        failpoint.hit("deadline_chosen")
        if move is None:
            if deadlines.forfeit(self.service, loaded, seat):
                with reading(self.reader(loaded, seat).lang):
                    message = _("The deadline passed, so you forfeited the game.")
                self.tell(loaded, seat, DEADLINE_PASSED, None, message)
            self.store.set_deadline(game_id, seat, None)
            return "forfeit"
        # the seat is told once the move is applied (``after_move``: ``deadline_played``)
        deadlines.submit_default(self.service, loaded, seat, move, action, since_version)
        failpoint.hit("deadline_submitted")
        self.store.set_deadline(game_id, seat, None)
        return action

    def deadlines_late(self, now: float | None = None, late_s: float = 5.0, limit: int = 100) -> list[str]:
        """The sweep's part: each deadline ``late_s`` past its time whose job
        did not play it (lost, or its worker killed in it) is played now;
        "GAME:SEAT" of each."""
        now = time.time() if now is None else now
        done = []
        for game_id, seat, _at in self.store.indexes.deadlines(before=now - late_s, limit=limit):
            record = self.store.deadline(game_id, seat)
            if record is None:  # an index entry left behind
                self.store.set_deadline(game_id, seat, None)
            elif self.deadline_due(game_id, seat, record["since_version"]) != "stale":
                done.append(f"{game_id}:{seat}")
        return done

    def pause(self, game_id: str, by: str, **more) -> dict:
        """Stop the game's deadline clocks (``more``: stored with the pause);
        the pause already there, if any."""
        paused = self.store.paused(game_id)
        if paused:
            return paused
        now = time.time()
        running = self.store.deadlines(game_id)
        remaining = {str(seat): {"seconds": max(0.0, record["at"] - now), "since_version": record["since_version"]}
                     for seat, record in running.items()}
        paused = {"at": now, "by": by, "remaining": remaining, **more}
        # The pause first, then the deadlines' jobs: cut short in between (a
        # process killed), a deadline left does nothing while the pause holds
        # (``_standing``) and the resume replaces it.
        self.store.set_paused(game_id, paused)
        for seat, record in running.items():
            self._cancel(record.get("jobs"))
            self.store.set_deadline(game_id, seat, None)
        return paused

    def resume(self, game_id: str) -> dict:
        paused = self.store.paused(game_id)
        if not paused:
            return {}
        out = {}
        loaded = self.service.load(game_id)
        to_act = set(loaded.game.to_act(loaded.state)) if loaded.meta.get("status") == "active" else set()
        for seat, left in paused.get("remaining", {}).items():
            if int(seat) in to_act:  # still its turn: the time it had left
                out[seat] = self.schedule_deadline(game_id, int(seat), left["since_version"],
                                                   max(1.0, left["seconds"]), while_paused=True)
        for seat in sorted(to_act):  # to act since the pause (moves went on): a whole turn from now
            if str(seat) not in out and not self.store.deadline(game_id, seat):
                out[str(seat)] = self.schedule_deadline(game_id, seat, loaded.version, while_paused=True)
        failpoint.hit("resume_scheduled")
        # The deadlines first, the pause's end last: a resume cut short (a
        # process killed) is still paused, and the next resume does it whole.
        self.store.set_paused(game_id, None)
        self.store.clear_pause_votes(game_id)  # the next pause needs every seat again
        return out


def _webhook_done(game_id: str, seat: int, entry: dict, outcome: str) -> None:
    """Count and log one webhook attempt (pbem.telemetry.metrics, pbem.telemetry.logs)."""
    metrics.count_delivery("webhook", outcome)
    if logs.activity.isEnabledFor(logging.INFO):
        logs.activity.info("webhook " + outcome, extra={
            "event": "delivery", "channel": "webhook", "outcome": outcome, "game_id": game_id, "seat": seat,
            "delivery_id": entry.get("delivery_id"), "attempt": entry.get("attempt"), "status": entry.get("status"),
            "ms": entry.get("duration_ms")})
