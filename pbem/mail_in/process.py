"""Processing one inbound mail (in the ``pbem-mail`` job): check the
recipient token, drop duplicates and automatic mails, apply the commands in
order through ``Service.submit_trusted`` (the worker path of signed moves)
and answer with what was applied or why not.

Nothing here trusts the From header: the game and seat come from the HMAC
token of the recipient address, and the answer goes to the seat's own
address (or the invited address), never to the sender of the mail.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from email import message_from_bytes
from email.policy import SMTP

from ..errors import ServiceError
from ..games.base import OMNISCIENT, SPECTATOR, GameError
from ..notify import transport
from ..notify.config import NotifySettings
from ..notify.mail import header_text
from ..notify.store import NotifyStore
from ..notify.tokens import reply_address
from ..service import Loaded, Service
from . import RETRIES, compose, reading, try_later
from .addresses import Recipient, read_recipient
from .config import MailInSettings
from .store import MailStore

log = logging.getLogger(__name__)

AUTH = "mail-token"
EXAMPLES = 8
HELP_WORDS = ("help", "?", "commands")
BOARD_WORDS = ("board", "show", "status")
MOVES_WORDS = ("moves", "legal", "options")


def retry_answer(client, msg, attempt: int = 1) -> bool:
    """Keep an answer the relay refused and schedule another try; False
    once the tries are used up."""
    if attempt > len(RETRIES):
        return False
    out_id = MailStore(client).put_outgoing(msg.as_bytes(policy=SMTP), sum(RETRIES) + 3600)
    return try_later(client, attempt, "workers.mail_jobs.send_answer", out_id)


def send_answer(client, out_id: str, attempt: int, conf: NotifySettings | None = None) -> str:
    """Try a kept answer again: "sent", "retrying", "given_up" or "gone"."""
    conf = conf or NotifySettings()
    raw = MailStore(client).take_outgoing(out_id)
    if raw is None:
        return "gone"
    msg = message_from_bytes(raw, policy=SMTP)
    try:
        transport.send(msg, conf.smtp_url, conf.data_dir)
        return "sent"
    except Exception as err:
        log.warning("answer %s failed again (try %s): %s", out_id, attempt, err)
        return "retrying" if retry_answer(client, msg, attempt) else "given_up"


@dataclass
class Step:
    command: str
    ok: bool
    lines: list[str] = field(default_factory=list)


@dataclass
class Outcome:
    status: str                       # refused, ignored, duplicate, answered, joined, ...
    applied: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    message_id: str | None = None
    game_id: str | None = None
    seat: int | None = None
    replied_to: str | None = None
    reason: str | None = None

    def as_dict(self) -> dict:
        return {"status": self.status, "applied": self.applied, "message_id": self.message_id,
                "game": self.game_id, "seat": self.seat, "replied": bool(self.replied_to), "reason": self.reason,
                "steps": [{"command": s.command, "ok": s.ok} for s in self.steps]}


class MailProcessor:
    def __init__(self, service: Service, move_queue=None, conf: MailInSettings | None = None,
                 notify_conf: NotifySettings | None = None):
        self.service = service
        self.move_queue = move_queue
        self.conf = conf or MailInSettings()
        self.nconf = notify_conf or NotifySettings()
        self.store = MailStore(service.store.redis)
        self.channels = NotifyStore(service.store.redis)
        self._secret: bytes | None = None

    @property
    def secret(self) -> bytes:
        if self._secret is None:
            self._secret = self.nconf.secret()
        return self._secret

    def recipient(self, address: str) -> Recipient | None:
        return read_recipient(self.secret, self.nconf.mail_domain, address)

    # ------------------------------------------------------------------ entry points

    def process_stored(self, raw_id: str, recipients: list[str]) -> list[dict]:
        raw = self.store.raw(raw_id)
        if raw is None:
            log.warning("inbound mail %s is gone (expired?)", raw_id)
            return []
        out = [self.process(raw, rcpt).as_dict() for rcpt in recipients]
        self.store.drop_raw(raw_id)
        return out

    def process(self, raw: bytes, rcpt: str) -> Outcome:
        recipient = self.recipient(rcpt)
        if recipient is None:  # the listener refuses these at RCPT time; HTTP at the request
            return Outcome("refused", reason="not a genuine token address")
        if len(raw) > self.conf.max_bytes:
            return Outcome("refused", reason="too large", game_id=recipient.game_id, seat=recipient.seat)
        try:
            meta = self.service.store.meta(recipient.game_id)
        except Exception:
            meta = None
        if meta is None:
            return Outcome("refused", reason="unknown game", game_id=recipient.game_id, seat=recipient.seat)
        incoming = reading.read(raw, recipient.game_id, self.conf.max_commands)
        out = Outcome("answered", message_id=incoming.message_id, game_id=recipient.game_id, seat=recipient.seat)
        if incoming.auto:  # never answer an auto-responder: no mail loops
            out.status, out.reason = "ignored", incoming.auto
            self._log(out)
            return out
        to_addr = self._answer_address(recipient)
        if not self.store.first_time(recipient.game_id, recipient.token, incoming.message_id, self.conf.dedupe_ttl):
            out.status, out.reason = "duplicate", "this Message-ID was processed already"
            if to_addr and self.store.once(recipient.game_id, f"dup:{recipient.token}:{incoming.message_id}",
                                           self.conf.dedupe_ttl):
                loaded = self.service.load(recipient.game_id)
                text = [f"Your mail {incoming.message_id} reached the server again; it was processed already",
                        "and nothing was done this time.", ""] + self._footer(loaded, recipient)
                self._send(recipient, to_addr, incoming, loaded, "already processed", text, out)
            self._log(out)
            return out
        if recipient.kind == "invite":
            self._invited(recipient, incoming, to_addr, out)
        else:
            self._commands(recipient, incoming, to_addr, out)
        self._log(out)
        return out

    # ------------------------------------------------------------------ helpers

    def _answer_address(self, recipient: Recipient) -> str | None:
        if recipient.kind == "invite":
            invitation = self.store.invitation(recipient.game_id, recipient.seat)
            return invitation.get("email") if invitation else None
        seat = self.service.store.seats(recipient.game_id).get(recipient.seat)
        return self.channels.channels(recipient.game_id, recipient.seat, seat).get("email")

    def _log(self, out: Outcome) -> None:
        if out.game_id:
            try:
                self.store.log(out.game_id, out.as_dict())
            except Exception:
                log.exception("mail log failed")

    def _send(self, recipient: Recipient, to_addr: str | None, incoming: reading.Incoming, loaded: Loaded,
              what: str, lines: list[str], out: Outcome, kind: str = compose.REPLY) -> None:
        if not to_addr:
            log.warning("no address to answer mail %s for seat %s of %s", incoming.message_id, recipient.seat,
                        recipient.game_id)
            return
        title = header_text(loaded.meta.get("title") or loaded.id)
        reply_to = (reply_address(self.secret, self.nconf.mail_domain, loaded.id, recipient.seat)
                    if recipient.kind == "reply" or self.service.store.seats(loaded.id).get(recipient.seat) else None)
        msg = compose.message(kind=kind, to_addr=to_addr, sender=self.nconf.sender,
                              subject=f"[pbem] {title}: {what} (v{loaded.version})", text="\n".join(lines),
                              domain=self.nconf.mail_domain, game_id=loaded.id, seat=recipient.seat,
                              version=loaded.version, reply_to=reply_to, in_reply_to=incoming.message_id,
                              references=incoming.references)
        try:
            transport.send(msg, self.nconf.smtp_url, self.nconf.data_dir)
            out.replied_to = to_addr
        except Exception as err:  # the relay is down or refused: the same message goes again later
            log.warning("answer to mail %s failed, sent again later: %s", incoming.message_id, err)
            retry_answer(self.service.store.redis, msg)

    def _holds_seat(self, recipient: Recipient) -> bool:
        """Whether the answer's reader holds the seat (an invitation token's
        reader does only once they joined by it): else they see the public view."""
        if recipient.kind == "reply":
            return True
        held = self.service.store.seats(recipient.game_id).get(recipient.seat)
        invitation = self.store.invitation(recipient.game_id, recipient.seat)
        return bool(held and invitation and held.get("mail_only") and held.get("email") == invitation.get("email"))

    def _footer(self, loaded: Loaded, recipient: Recipient) -> list[str]:
        game, meta = loaded.game, loaded.meta
        seat = recipient.seat if self._holds_seat(recipient) else SPECTATOR
        status = meta.get("status")
        lines = [f"Game {header_text(meta.get('title') or loaded.id)} ({loaded.id}), version {loaded.version}."]
        if status == "open":
            joined = len(self.service.store.seats(loaded.id))
            lines.append(f"The game waits for players: {joined} of {meta['players']} seats are taken.")
            return lines
        if status == "finished":
            result = meta.get("result") or {}
            names = self.service.seat_names(loaded.id, meta["players"])
            lines.append(f"The game is over. Scores: {result.get('scores')}. {game.describe_result(result, names)}")
        else:
            to_act = sorted(game.to_act(loaded.state))
            lines.append("It is your turn." if seat in to_act else
                         f"Waiting for seat(s) {', '.join(str(s) for s in to_act)}.")
        viewer = OMNISCIENT if status == "finished" else seat
        lines += ["", "The board as you see it:", "", game.render(loaded.state, viewer)]
        if status == "active" and seat in game.to_act(loaded.state):
            lines += ["", "What you may do now, for example:"] + [f"  {t}" for t in self._examples(loaded, seat)]
        lines += ["", "Reply to this mail with your commands on its first lines (one per line; "
                  "'help' and 'board' work too)."]
        return lines

    def _examples(self, loaded: Loaded, seat: int, n: int = EXAMPLES) -> list[str]:
        try:
            return [loaded.game.describe(m, seat) for m in loaded.game.legal_moves(loaded.state, seat)[:n]]
        except Exception:
            return []

    def _help(self, loaded: Loaded) -> list[str]:
        return ["How to play by mail: reply to a turn mail (keep its subject: it says which version",
                "you answer) and write your commands on the first lines, one per line. Quoted text",
                "and your signature are ignored. Several moves in one mail are applied in order",
                "until one fails.",
                "  help    this text",
                "  board   the board as you see it",
                "  moves   your legal moves now",
                "", loaded.game.notation_help or ""]

    # ------------------------------------------------------------------ invitations

    def _invited(self, recipient: Recipient, incoming: reading.Incoming, to_addr: str | None, out: Outcome) -> None:
        from .invites import join_by_mail  # noqa: PLC0415 - a cycle otherwise

        loaded = self.service.load(recipient.game_id)
        lines: list[str] = []
        first = (incoming.commands[0] if incoming.commands else "").strip()
        word, _, rest = first.partition(" ")
        if incoming.problem:
            out.status, out.reason = "unreadable", incoming.problem
            lines += [f"Your mail could not be read: {incoming.problem}.",
                      "To take the seat, reply with the word 'join' on the first line, as plain text."]
        elif word.lower() == "join":
            out.steps.append(Step(first, True))
            joined = join_by_mail(self, recipient, rest.strip())
            loaded = self.service.load(recipient.game_id)
            if joined.get("error"):
                out.status, out.reason = "refused", joined["error"]["code"]
                out.steps[-1].ok = False
                lines += [f"You could not take seat {recipient.seat}: {joined['error']['message']}."]
            else:
                out.status = "joined"
                lines += [f"You have seat {recipient.seat} of this game, as {joined['name']}.",
                          "Your turn mails will come to this address; reply to them with your moves."]
        elif word.lower() in HELP_WORDS:
            lines += ["You were invited to this game. Reply with 'join' (or 'join Your Name') on the first",
                      "line to take the seat.", ""] + self._help(loaded)
        else:
            out.status, out.reason = "no_join", "no join command"
            lines += ["To take the seat you were invited to, reply with the word 'join' on the first line"
                      + (f" (your mail began with {first[:60]!r})." if first else ".")]
        lines += [""] + self._footer(loaded, recipient)
        self._send(recipient, to_addr, incoming, loaded, "your invitation", lines, out, compose.JOIN_REPLY)

    # ------------------------------------------------------------------ commands

    def _commands(self, recipient: Recipient, incoming: reading.Incoming, to_addr: str | None, out: Outcome) -> None:
        game_id, seat = recipient.game_id, recipient.seat
        loaded = self.service.load(game_id)
        lines: list[str] = [f"Your mail to {header_text(loaded.meta.get('title') or game_id)}, seat {seat}:", ""]
        if incoming.problem:
            out.status, out.reason = "unreadable", incoming.problem
            lines += [f"Your mail could not be read: {incoming.problem}.",
                      "Nothing was applied. Write your moves as plain text on the first lines.", ""]
        elif not incoming.commands:
            out.status, out.reason = "empty", "no commands"
            where = "the HTML of your mail" if incoming.source == "html" else "your mail"
            lines += [f"No commands were found in {where}: write them on the first lines, above any quoted",
                      "text. Nothing was applied.", ""] + self._help(loaded) + [""]
        else:
            version = incoming.version
            for i, command in enumerate(incoming.commands):
                step, version = self._one(recipient, incoming, i, command, version)
                out.steps.append(step)
                lines.append(f"> {command}")
                lines += [f"  {x}" for x in step.lines]
                if step.ok and step.lines and step.lines[0].startswith("applied"):
                    out.applied.append(command)
                if not step.ok:
                    rest = incoming.commands[i + 1:]
                    if rest:
                        lines.append(f"  Not tried, as the command above failed: {'; '.join(rest)}")
                    out.status, out.reason = "failed", step.lines[0] if step.lines else "failed"
                    break
            lines.append("")
        loaded = self.service.load(game_id)
        lines += self._footer(loaded, recipient)
        what = (f"{len(out.applied)} move(s) applied" if out.applied and out.status == "answered"
                else "applied until a command failed" if out.applied else "not applied" if out.status != "answered"
                else "your mail")
        self._send(recipient, to_addr, incoming, loaded, what, lines, out)

    def _one(self, recipient: Recipient, incoming: reading.Incoming, i: int, command: str,
             version: int | None) -> tuple[Step, int | None]:
        game_id, seat = recipient.game_id, recipient.seat
        loaded = self.service.load(game_id)
        word = command.strip().lower()
        if word in HELP_WORDS:
            return Step(command, True, self._help(loaded)), version
        if word in BOARD_WORDS:
            viewer = OMNISCIENT if loaded.finished else seat
            board = loaded.game.render(loaded.state, viewer) if loaded.meta.get("status") != "open" else "(not dealt yet)"
            return Step(command, True, [f"version {loaded.version}:", *board.split("\n")]), version
        if word in MOVES_WORDS:
            moves = self._examples(loaded, seat, 40) if loaded.meta.get("status") == "active" and \
                seat in loaded.game.to_act(loaded.state) else []
            return Step(command, True, moves or ["You have no move to make now."]), version
        if word.split(" ")[0] == "join":
            return Step(command, True, [f"You have seat {seat} of this game already."]), version

        def fail(*why: str) -> tuple[Step, int | None]:
            return Step(command, False, list(why)), version

        status = loaded.meta.get("status")
        if status == "finished":
            return fail("not applied: the game is over.")
        if status != "active":
            return fail("not applied: the game has not started; it waits for players to join.")
        try:
            move = loaded.game.parse(command, loaded.state, seat)
        except GameError as err:
            details = err.details or {}
            why = [f"not applied: cannot read the move ({err.code}: {err.message})."]
            if details.get("expected"):
                why.append(f"expected: {details['expected']}")
            examples = details.get("examples") or self._examples(loaded, seat, 4)
            if examples:
                why.append("for example: " + "; ".join(str(x) for x in examples[:EXAMPLES]))
            return fail(*why)
        text = loaded.game.describe(move, seat)
        if version is None:
            return fail(f"not applied: {text}: this mail does not say which version of the game it answers.",
                        "Reply to your latest turn mail (its subject ends with the version, like '(v12)'),",
                        f"or write the subject '[pbem] Game {game_id}, turn {loaded.version}'.")
        try:
            record = self.service.submit_trusted(game_id, seat, move, version, auth=AUTH,
                                                 nonce=f"mail:{incoming.message_id}:{i}",
                                                 message_id=incoming.message_id)
        except ServiceError as err:
            return fail(*self._refusal(loaded, seat, version, text, err.code, err.message))
        record = self._settle(game_id, record["id"])
        if record is None or record.get("status") == "queued":
            return Step(command, False, [f"queued: {text}; its outcome will be mailed to you.",
                                         "The commands after it were not applied."]), version
        if record.get("status") == "rejected":
            error = record.get("error") or {}
            return fail(*self._refusal(self.service.load(game_id), seat, version, text,
                                       error.get("code", "rejected"), error.get("message", "")))
        return Step(command, True, [f"applied: {text} (now version {record['version']})."]), int(record["version"])

    def _refusal(self, loaded: Loaded, seat: int, version: int, text: str, code: str, message: str) -> list[str]:
        if code == "stale_version":
            why = [f"not applied: {text}: your mail answers version {version}, but the game is at version "
                   f"{loaded.version}: it has moved on since.",
                   "Read the latest mail and reply to it; the current board is below."]
        elif code == "nonce_reused":
            why = [f"not applied again: {text}: this mail was processed already."]
        else:
            why = [f"not applied: {text}: {message} ({code})."]
        examples = self._examples(loaded, seat) if loaded.meta.get("status") == "active" and \
            seat in loaded.game.to_act(loaded.state) else []
        if examples and code != "nonce_reused":
            why.append("legal moves now, for example: " + "; ".join(examples))
        return why

    def _settle(self, game_id: str, move_id: str) -> dict | None:
        """Wait for the worker path to settle the move; when it is slow (one
        worker, busy with this very job), drain the move queue here: it is the
        same drain the move workers run, and a move is applied once either way."""
        store = self.service.store
        record = store.wait_settled(game_id, move_id, 0.05)
        deadline = time.monotonic() + self.conf.settle_timeout
        while record is not None and record.get("status") == "queued" and time.monotonic() < deadline:
            if self.move_queue is not None:
                try:
                    self.move_queue.drain(self.service.apply_moves, budget_s=1.0, linger_s=0)
                except Exception:
                    log.exception("inline drain failed")
            record = store.wait_settled(game_id, move_id, min(1.0, max(0.05, deadline - time.monotonic())))
        return record
