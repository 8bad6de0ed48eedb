"""Processing one inbound mail (in the ``pbem-mail`` job): check the
recipient token, drop duplicates and automatic mails, apply the commands in
order through ``Service.submit_trusted`` (the worker path of signed moves)
and answer with what was applied or why not.

Nothing here trusts the From header: the game and seat come from the HMAC
token of the recipient address, and the answer goes to the seat's own
address (or the invited address), never to the sender of the mail.
"""
from __future__ import annotations

import difflib
import logging
import re
import time
from dataclasses import dataclass, field

from ..errors import ServiceError
from ..games.base import OMNISCIENT, SPECTATOR, GameError, plain_width
from ..games import handover, i18n, takeback
from ..games.i18n import CHINESE, ENGLISH, _, ngettext
from ..notify import transport
from ..notify.config import NotifySettings
from ..notify import wording
from ..notify.kinds import MAIL_AUTH
from ..notify.links import links
from ..notify.mail import EXAMPLES_HEADING, PASTE_HINT, header_text, paragraph, subject
from ..notify.picture import board_png
from ..notify.readers import Reader, invitation_reader, quoted, seat_reader
from ..notify.store import NotifyStore
from ..notify.tokens import reply_address
from ..service import Loaded, Service
from ..games import handover, i18n, takeback
from . import (QUEUE, RETRIES, chat_command, compose, decisions, language_command, my_games, pasting, reading,
               rematch, subscriptions, try_later, wrapped)
from .outbox import retry_answer
from . import commands, digest_command, vacation_command
from .addresses import Recipient, read_recipient
from .invites import current_invitation
from .config import MailInSettings
from .store import MailStore
from .subscription_tokens import LOBBY
from .words import command_word

log = logging.getLogger(__name__)

AUTH = MAIL_AUTH
#: Events listed, at most, in an answer to a mail the game moved on from.
CHANGES = 30
EXAMPLES = 8
# The commands that are not moves, in either language (a reader is shown
# their own language's word: ``words.command_word``; both work for everyone):
# every line a player may write is in pbem/mail_in/commands.py.
HELP_WORDS, BOARD_WORDS, MOVES_WORDS, JOIN_WORDS = (commands.HELP_WORDS, commands.BOARD_WORDS,
                                                    commands.MOVES_WORDS, commands.JOIN_WORDS)
# The first words of commands made elsewhere than here (a seat's language
# by mail: ``lang zh``): never a note, whatever else reads them.
_NEVER_NOTES = ("lang", "language", "語言", "say", "說", *vacation_command.FIRST_WORDS,
                *digest_command.FIRST_WORDS)
# A word like the notation's numbers and coordinates ("3", "-1,0", "r90"):
# a line with one is a move mistyped, never a note.
_NOTATION_NUMBER = re.compile(r"^[(\[]?[-+]?\d+(?:[,.][-+]?\d+)*[)\],.;:]?$|^[a-z]\d{1,3}$", re.I)


def _sentence(reason: str) -> str:
    """A reason (a game's or the service's message) to go inside a sentence
    of ours: without its own full stop."""
    return str(reason or "").strip().rstrip(".。")


def _keyword(line: str) -> bool:
    """A command that is not a game's move (help, board, moves, join, say...: pbem/mail_in/commands.py)."""
    word = line.strip().lower()
    return (word in HELP_WORDS or word in BOARD_WORDS or word in MOVES_WORDS
            or word.split(" ")[0] in JOIN_WORDS
            or language_command.is_language_line(line) or chat_command.is_chat_line(line)
            or vacation_command.is_vacation_line(line) or digest_command.is_digest_line(line)
            or rematch.is_rematch_line(line) or my_games.is_games_line(line) or commands.elsewhere(line)
            # a takeback word is a move, but never a note, in a game over too ("accept" there is answered)
            or takeback.parse(line) is not None or handover.parse(line) is not None)


@dataclass
class Step:
    command: str
    ok: bool
    lines: list[str] = field(default_factory=list)
    applied: bool = False   # a move applied (``lines`` say which, in the reader's words)
    note: bool = False      # not a command: a greeting, a thank-you, ignored


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
        self._described_for: tuple | None = None

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
        if recipient.kind in subscriptions.KINDS:  # announcements of open games: no seat's mail
            return subscriptions.process(self, raw, recipient, Outcome("answered"), Step)
        try:
            meta = self.service.store.meta(recipient.game_id)
        except Exception:
            meta = None
        if meta is None:
            return Outcome("refused", reason="unknown game", game_id=recipient.game_id, seat=recipient.seat)
        # Everything the answer says, the games' texts and its picture too,
        # is built in its reader's language.
        with i18n.reading(self._reader(recipient, meta).lang):
            return self._process(raw, recipient)

    def _process(self, raw: bytes, recipient: Recipient) -> Outcome:
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
                text = [*paragraph(_("Your mail {id} reached the server again. It was processed already, so "
                                     "nothing was done this time.", id=incoming.message_id)),
                        ""] + self._footer(loaded, recipient)
                self._send(recipient, to_addr, incoming, loaded, _("already processed"), text, out)
            self._log(out)
            return out
        if recipient.kind == "invite":
            self._invited(recipient, incoming, to_addr, out)
        else:
            with i18n.reading(i18n.language()):  # a language line changes it for the rest of the answer
                self._commands(recipient, incoming, to_addr, out)
        self._log(out)
        return out

    # ------------------------------------------------------------------ helpers

    def _reader(self, recipient: Recipient, meta: dict) -> Reader:
        """Who reads the answer: the seat (its language, else the game's);
        an invitation's reader, the invitation's (else the game's), and so
        once they joined by it, until the seat chooses a language of its own."""
        held = self.service.store.seats(recipient.game_id).get(recipient.seat)
        if recipient.kind == "reply":
            return seat_reader(meta, held)
        invited = invitation_reader(meta, current_invitation(self.store, recipient))
        if self._holds_seat(recipient):
            return seat_reader({**meta, "lang": invited.lang}, held)
        return invited

    def _answer_address(self, recipient: Recipient) -> str | None:
        if recipient.kind == "invite":
            # only the invitation the token names: a withdrawn or replaced
            # one's reply must not reach whoever is invited now
            invitation = current_invitation(self.store, recipient)
            return invitation.get("email") if invitation else None
        seat = self.service.store.seats(recipient.game_id).get(recipient.seat)
        return self.channels.channels(recipient.game_id, recipient.seat, seat).get("email")

    def _log(self, out: Outcome) -> None:
        if out.game_id:
            try:
                self.store.log(out.game_id, out.as_dict())
            except Exception:
                log.exception("mail log failed")

    def _names(self, loaded: Loaded) -> list[str]:
        return wording.seat_names(self.service.store.seats(loaded.id), int(loaded.meta["players"]))

    def _send(self, recipient: Recipient, to_addr: str | None, incoming: reading.Incoming, loaded: Loaded,
              what: str, lines: list[str], out: Outcome, kind: str = compose.REPLY) -> None:
        """Answer, to the seat's own address. An answer ends with the board
        (``_footer``) once the game is dealt, so its HTML part then carries
        the reader's picture (drawn here, in the mail job)."""
        if not to_addr:
            log.warning("no address to answer mail %s for seat %s of %s", incoming.message_id, recipient.seat,
                        recipient.game_id)
            return
        reply_to = (reply_address(self.secret, self.nconf.mail_domain, loaded.id, recipient.seat)
                    if recipient.kind == "reply" or self.service.store.seats(loaded.id).get(recipient.seat) else None)
        png = self._picture(loaded, recipient)
        viewer = self._viewer(loaded, recipient)
        offered = (self._examples(loaded, viewer) if loaded.meta.get("status") == "active"
                   and viewer in wording.acting(loaded)[0] else [])
        msg = compose.message(kind=kind, to_addr=to_addr, sender=self.nconf.sender,
                              subject=subject(loaded.meta.get("title") or loaded.id, what, loaded.version),
                              text="\n".join(lines),
                              domain=self.nconf.mail_domain, game_id=loaded.id, seat=recipient.seat,
                              version=loaded.version, reply_to=reply_to, in_reply_to=incoming.message_id,
                              references=incoming.references, png=png,
                              links=self._links(loaded, recipient), offered=offered)
        try:
            transport.send(msg, self.nconf.smtp_url, self.nconf.data_dir)
            out.replied_to = to_addr
            if self._holds_seat(recipient) and loaded.meta.get("status") == "active":
                self.channels.set_told(loaded.id, recipient.seat, loaded.version)
        except Exception as err:  # the relay is down or refused: the same message goes again later
            log.warning("answer to mail %s failed, sent again later: %s", incoming.message_id, err)
            retry_answer(self.service.store.redis, msg)

    def _links(self, loaded: Loaded, recipient: Recipient) -> dict:
        """The game's links; the seat's play link when the answer is a turn
        mail (the seat holds it and may act now)."""
        holds = self._holds_seat(recipient)
        playing = holds and recipient.seat in wording.acting(loaded)[0]
        record = self.channels.deadline(loaded.id, recipient.seat) if playing else None
        return links(self.nconf, loaded.id, recipient.seat if holds else None, play=playing,
                     expires=record["at"] if record else None)

    def _viewer(self, loaded: Loaded, recipient: Recipient):
        if loaded.meta.get("status") == "finished":
            return OMNISCIENT
        return recipient.seat if self._holds_seat(recipient) else SPECTATOR

    def _picture(self, loaded: Loaded, recipient: Recipient) -> bytes | None:
        if loaded.meta.get("status") not in ("active", "finished"):
            return None
        viewer = self._viewer(loaded, recipient)
        turn = wording.acting(loaded)[1]
        legal = loaded.game.legal_moves(loaded.state, viewer) if viewer in turn else None
        return board_png(loaded.game, loaded.state, viewer, self._names(loaded), legal)

    def _holds_seat(self, recipient: Recipient) -> bool:
        """Whether the answer's reader holds the seat (an invitation token's
        reader does only once they joined by it): else they see the public view."""
        if recipient.kind == "reply":
            return True
        held = self.service.store.seats(recipient.game_id).get(recipient.seat)
        invitation = current_invitation(self.store, recipient)
        return bool(held and invitation and held.get("mail_only") and held.get("email") == invitation.get("email"))

    def _footer(self, loaded: Loaded, recipient: Recipient) -> list[str]:
        """Where the game stands: whose turn, the board as the reader sees it
        (the only board of the answer: a ``board`` command points here), the
        moves the reader may make now and the deadline."""
        game, meta = loaded.game, loaded.meta
        names = self._names(loaded)
        viewer = self._viewer(loaded, recipient)
        status = meta.get("status")
        lines = [_("Game {title} ({id}), version {version}.", title=header_text(meta.get("title") or loaded.id),
                   id=loaded.id, version=loaded.version)]
        if status == "open":
            taken = len(self.service.store.seats(loaded.id))
            lines.append(ngettext("The game is waiting for players: {n} seat of {players} is taken.",
                                  "The game is waiting for players: {n} seats of {players} are taken.",
                                  taken, players=meta["players"]))
            return lines
        to_act, turn = wording.acting(loaded)
        if status == "finished":
            lines += paragraph(_("The game is over. {result}",
                                 result=wording.result_line(game, meta.get("result") or {}, names)))
        elif viewer in turn:
            active = wording.active_seat(loaded)
            lines.append(wording.others_turn_line(names, active) if wording.in_others_turn(active, viewer)
                         else _("It is your turn."))
        elif viewer in to_act:
            lines.append(_("It is {names}'s turn; meanwhile you may act out of turn.",
                           names=wording.joined(names, turn)))
        else:
            lines.append(_("Waiting for {names}.", names=wording.joined(names, turn)))
        lines += ["", _("The board as you see it:"), "", wording.render(game, loaded.state, viewer, names)]
        if status == "active" and viewer in to_act:
            lines += ["", _(EXAMPLES_HEADING)] + [f"  {t}" for t in self._examples(loaded, viewer)]
            lines += paragraph(_(PASTE_HINT))
            record = self.channels.deadline(loaded.id, viewer) if viewer in turn else None
            if record:
                deadline = self._reader(recipient, meta).when(record["at"])
                lines += ["", _("Deadline: {deadline}", deadline=deadline)]
        lines += [""] + paragraph(_("Reply to this mail with your commands on its first lines, one per line; "
                                    "{help} lists every line you may write ({board}, {moves}, {say}...).",
                                    help=quoted(command_word("help")), board=quoted(command_word("board")),
                                    moves=quoted(command_word("moves")), say=quoted(command_word("say"))))
        return lines

    def _examples(self, loaded: Loaded, seat: int, n: int = EXAMPLES) -> list[str]:
        try:
            names = self._names(loaded)
            moves = loaded.game.legal_moves(loaded.state, seat)
            return [wording.describe(loaded.game, m, seat, names) for m in wording.examples(moves, n)]
        except Exception:
            return []

    def _help(self, loaded: Loaded, seat: int | None = None) -> list[str]:
        """How to play by mail, every line a player may write (grouped:
        ``commands.help_lines``), the rules in play in words and their
        notation: one line per list item (an answer indents each)."""
        options = loaded.meta.get("options") or {}
        game = loaded.game
        names = self._names(loaded)
        try:
            move = str(game.notation_examples(options)[0])
        except Exception:  # a game with no examples: the notation below says how
            move = ""
        other = names[(seat + 1) % len(names)] if seat is not None and names else (names[-1] if names else "")
        return [*paragraph(_("How to play by mail: reply to a turn mail (keep its subject: it says which "
                             "version you answer) and write your commands on its first lines, one per line. "
                             "Quoted text and your signature are left out, and so is a line that is no "
                             "command (a greeting, a thank-you): the answer says it was taken for a note. "
                             "A line copied from a list of moves in a mail works as it is. Leave a blank line "
                             "before anything else.")),
                "", *commands.help_lines(move, other, commands.subscription_name(game), self._lobby()),
                "", *paragraph(_("The rules in play: {rules}",
                                 rules=wording.setup_line(game, options, int(loaded.meta["players"]), names))),
                "", _("How moves are written:"),
                *wording.notation(game, options).splitlines()]

    def _lobby(self) -> str:
        """The address announcements of open games are asked for at."""
        return f"move+{LOBBY}@{self.nconf.mail_domain}"

    # ------------------------------------------------------------------ invitations

    def _invited(self, recipient: Recipient, incoming: reading.Incoming, to_addr: str | None, out: Outcome) -> None:
        from .invites import join_by_mail  # noqa: PLC0415 - a cycle otherwise

        loaded = self.service.load(recipient.game_id)
        lines: list[str] = []
        first = (incoming.commands[0] if incoming.commands else "").strip()
        typed = (incoming.typed[0] if incoming.typed else first).strip()
        word, _sep, rest = first.partition(" ")
        join = quoted(command_word("join"))
        if incoming.problem:
            out.status, out.reason = "unreadable", incoming.problem
            lines += [*paragraph(_("Your mail could not be read: {problem}.", problem=incoming.problem)),
                      *paragraph(_("To take the seat, reply with the word {join} on the first line, as plain "
                                   "text.", join=join))]
        elif word.lower() in JOIN_WORDS:
            out.steps.append(Step(first, True))
            joined = join_by_mail(self, recipient, rest.strip())
            loaded = self.service.load(recipient.game_id)
            if joined.get("error"):
                out.status, out.reason = "refused", joined["error"]["code"]
                out.steps[-1].ok = False
                lines += paragraph(_("You could not take the seat you were invited to: {reason}.",
                                     reason=joined["error"]["message"]))
            else:
                out.status = "joined"
                name = self._names(loaded)[recipient.seat]
                lines += [_("You have joined the game as {name}.", name=name),
                          *paragraph(_("Your turn mails will come to this address; reply to them with your "
                                       "moves."))]
        elif word.lower() in HELP_WORDS:
            lines += [*paragraph(_("You were invited to this game. To take the seat, reply with {join} (or "
                                   "{join_name}) on the first line.", join=join,
                                   join_name=quoted(_("{join} Your Name", join=command_word("join"))))),
                      ""] + self._help(loaded, recipient.seat)
        else:
            out.status, out.reason = "no_join", "no join command"
            lines += paragraph(
                _("To take the seat you were invited to, reply with the word {join} on the first line (your "
                  "mail began with {text}).", join=join, text=quoted(typed[:60])) if first else
                _("To take the seat you were invited to, reply with the word {join} on the first line.",
                  join=join))
        lines += [""] + self._footer(loaded, recipient)
        what = _("you joined the game") if out.status == "joined" else _("your invitation")
        self._send(recipient, to_addr, incoming, loaded, what, lines, out, compose.JOIN_REPLY)

    # ------------------------------------------------------------------ commands

    def _commands(self, recipient: Recipient, incoming: reading.Incoming, to_addr: str | None, out: Outcome) -> None:
        game_id, seat = recipient.game_id, recipient.seat
        loaded = self.service.load(game_id)
        lines: list[str] = [_("Your mail to {title}, as {name}:", title=header_text(loaded.meta.get("title") or game_id),
                              name=self._names(loaded)[seat]), ""]
        if incoming.problem:
            out.status, out.reason = "unreadable", incoming.problem
            lines += [*paragraph(_("Your mail could not be read: {problem}.", problem=incoming.problem)),
                      *paragraph(_("Nothing was applied. Write your moves as plain text on the first lines.")), ""]
        elif not incoming.commands:
            out.status, out.reason = "empty", "no commands"
            lines += [*paragraph(_("No commands were found in the HTML of your mail: write them on its first "
                                   "lines, above any quoted text. Nothing was applied.")
                                 if incoming.source == "html" else
                                 _("No commands were found in your mail: write them on its first lines, above "
                                   "any quoted text. Nothing was applied.")), ""] + self._help(loaded, seat) + [""]
        else:
            version = incoming.version
            commands, i = incoming.commands, 0
            typed = incoming.typed if len(incoming.typed) == len(commands) else commands
            while i < len(commands):
                now = self.service.load(game_id)
                notes = self._notes_at(now, seat, commands, i)
                if notes:  # a greeting, a thank-you: said to be ignored, and the commands go on
                    said = _("(no command: taken for a note and ignored)")
                    out.steps.append(Step(" ".join(commands[i:i + notes]), True, [said], note=True))
                    lines += [f"> {line}" for line in typed[i:i + notes]] + [f"  {said}"]
                    i += notes
                    continue
                command = self._command_at(now, seat, commands, i)
                as_typed = " ".join(typed[i:i + len(command.lines)])
                if command.dangling is not None:
                    step = Step(command.text, False, self._dangling(command, as_typed, typed[i + len(command.lines)]))
                else:
                    step, version = self._one(recipient, incoming, i, command.text, version, as_typed)
                out.steps.append(step)
                lines += [f"> {line}" for line in typed[i:i + len(command.lines)]]
                if len(command.lines) > 1:
                    lines.append("  " + _("(read as one line, as your mail program broke it: {text})",
                                          text=command.text))
                lines += [f"  {x}" if x else "" for x in step.lines]
                if step.applied:
                    out.applied.append(command.text)
                i += len(command.lines)
                if not step.ok:
                    now = self.service.load(game_id)  # the lines left, but a note: nothing to try there
                    rest = [typed[j] for j in range(i, len(commands)) if not self._is_note(now, seat, commands[j])]
                    if rest:
                        lines += paragraph(_("Not tried, as the command above failed: {rest}",
                                             rest=_("; ").join(quoted(x) for x in rest)), "  ")
                    out.status, out.reason = "failed", step.lines[0] if step.lines else "failed"
                    break
            if all(step.note for step in out.steps):
                lines += ["", *paragraph(_("Your mail has no command, so nothing was applied."))]
            lines.append("")
        loaded = self.service.load(game_id)
        lines += self._footer(loaded, recipient)
        moves = len(out.applied)
        what = (ngettext("{n} move applied", "{n} moves applied", moves) if moves and out.status == "answered"
                else _("applied until a command failed") if moves else _("not applied") if out.status != "answered"
                else _("your mail"))
        self._send(recipient, to_addr, incoming, loaded, what, lines, out)

    def _is_note(self, loaded: Loaded, seat: int, line: str) -> bool:
        """Whether a line is no command at all (a greeting, a thank-you, a
        name: "謝謝", "Cheers, Ann"): not a command word, not a move, its
        first word neither a word a move starts with nor one mistyped, in
        either language, and no number or coordinates in it (a move
        mistyped is answered as one, never passed over as a note)."""
        if _keyword(line) or (loaded.meta.get("status") == "active" and self._reads(loaded, seat, line)):
            return False
        words = plain_width(line).lower().split()
        if not words or any(_NOTATION_NUMBER.match(w) for w in words):
            return False
        first = words[0].strip(".,;:!?")
        if first in _NEVER_NOTES:
            return False
        verbs = self._verbs(loaded, seat) | set(HELP_WORDS + BOARD_WORDS + MOVES_WORDS + JOIN_WORDS)
        return first not in verbs and not difflib.get_close_matches(first, verbs, n=1, cutoff=0.75)

    def _notes_at(self, loaded: Loaded, seat: int, commands: list[str], i: int) -> int:
        """How many lines from ``i`` on are a note (0: line ``i`` is a command)."""
        n = 0
        while i + n < len(commands) and self._is_note(loaded, seat, commands[i + n]):
            n += 1
        return n

    def _command_at(self, loaded: Loaded, seat: int, commands: list[str], i: int) -> wrapped.Command:
        """The command starting at line ``i``: as written, or joined with the
        lines below it when a mail program broke it (``wrapped``)."""
        line = commands[i]
        if _keyword(line) or loaded.meta.get("status") != "active":
            return wrapped.Command(line, [line])
        verbs: set[str] = set()

        def starts_command(text: str) -> bool:
            if _keyword(text):
                return True
            if not verbs:
                verbs.update(self._verbs(loaded, seat) or {""})
            return wrapped.first_word(text) in verbs

        described: list[str] = []

        def continues(text: str, below: str) -> bool:
            # Only a line below that a longer legal move could go on with
            # holds the move back: a greeting or a name under it does not.
            if not described:
                described.extend(self._described(loaded, seat) or [""])
            word = wrapped.first_word(below).strip(".,;:!?")
            return any(word in wrapped.next_words(form, described) for form in self._forms(loaded, seat, text))

        return wrapped.command_at(commands, i, lambda text: self._reads(loaded, seat, text), starts_command,
                                  continues)

    def _reads(self, loaded: Loaded, seat: int, text: str) -> bool:
        """Whether ``text`` reads as a move (as written, or as pasted)."""
        for reading_, _note in pasting.readings(text):
            try:
                wording.parse(loaded.game, reading_, loaded.state, seat, self._names(loaded))
                return True
            except GameError:
                pass
        return False

    def _forms(self, loaded: Loaded, seat: int, text: str) -> list[str]:
        """``text`` as written and as the notation writes the move it reads
        as, in either language (``Place -2, 0 0`` is ``place -2,0 r0``)."""
        forms = [text]
        names = self._names(loaded)
        for reading_, _note in pasting.readings(text):
            try:
                move = wording.parse(loaded.game, reading_, loaded.state, seat, names)
                for lang in (ENGLISH, CHINESE):
                    with i18n.reading(lang):
                        forms.append(wording.describe(loaded.game, move, seat, names))
                break
            except GameError:
                pass
        return forms

    def _verbs(self, loaded: Loaded, seat: int) -> set[str]:
        """The words a move starts with, in either language: those of the
        notation's examples and of the seat's legal moves now."""
        return {wrapped.first_word(t) for t in self._described(loaded, seat)} - {""}

    def _described(self, loaded: Loaded, seat: int) -> list[str]:
        """The notation's examples and the seat's legal moves now, as text,
        in both languages (a player may type either, whatever they read);
        kept for the mail being read (it asks often, of one version)."""
        known = self._described_for
        if known and known[0] == (loaded.id, loaded.version, seat):
            return known[1]
        game = loaded.game
        texts: list[str] = []
        for lang in (ENGLISH, CHINESE):
            with i18n.reading(lang):
                try:
                    texts += list(game.notation_examples(loaded.meta.get("options") or {}))
                except Exception:
                    pass
                try:
                    names = self._names(loaded)
                    texts += [wording.describe(game, m, seat, names) for m in game.legal_moves(loaded.state, seat)]
                except Exception:  # a seat not to act, a state before setup
                    pass
        texts = list(dict.fromkeys(texts))
        self._described_for = ((loaded.id, loaded.version, seat), texts)
        return texts

    def _dangling(self, command: wrapped.Command, typed: str, below: str) -> list[str]:
        """Why a move followed by a line that may be its broken-off rest is
        not applied."""
        return paragraph(_("not applied: {move} is followed by {below}, which is not a command, and the two "
                           "lines together are not one move either. It may be the rest of this move, broken off "
                           "by your mail program, so neither was applied. Send the move again on one line (and "
                           "write anything that is not a command after a blank line).",
                           move=quoted(typed), below=quoted(below)))

    def _one(self, recipient: Recipient, incoming: reading.Incoming, i: int, command: str,
             version: int | None, typed: str | None = None) -> tuple[Step, int | None]:
        """Apply one command (``typed``: as the player typed it, quoted back
        in a refusal)."""
        game_id, seat = recipient.game_id, recipient.seat
        said = quoted(typed or command)
        loaded = self.service.load(game_id)
        word = command.strip().lower()
        if word in HELP_WORDS:
            return Step(command, True, self._help(loaded, seat)), version
        if word in BOARD_WORDS:
            # The answer ends with the board (and its picture): shown once.
            return Step(command, True, [_("The board as you see it is at the end of this mail.")]), version
        if word in MOVES_WORDS:
            moves = self._examples(loaded, seat, 200) if seat in wording.acting(loaded)[0] else []
            return Step(command, True, moves or [_("You have no move to make now.")]), version
        if word.split(" ")[0] in JOIN_WORDS:
            return Step(command, True, [_("You have joined this game already.")]), version
        if language_command.is_language_line(command):
            return Step(command, *language_command.change(self.service, game_id, seat, command)), version
        if digest_command.is_digest_line(command):
            return Step(command, *digest_command.run(self.service, game_id, seat, command)), version
        if vacation_command.is_vacation_line(command):
            return Step(command, *vacation_command.run(self.service, game_id, seat, command,
                                                       self._reader(recipient, loaded.meta))), version
        if chat_command.is_chat_line(command):  # a message to the players: the game's version stays
            # as typed: the reading makes full-width punctuation ASCII for the notation, not for words
            said = typed if typed and chat_command.is_chat_line(typed) else command
            return Step(command, *chat_command.say(self.service, game_id, seat, said, self._names(loaded))), version
        if rematch.is_rematch_line(command):
            return Step(command, *rematch.answer(self.service, game_id, seat, command)), version
        if my_games.is_games_line(command):
            reader = self._reader(recipient, loaded.meta)
            return Step(command, *my_games.answer(self.service, self._answer_address(recipient), reader, self.secret,
                                                  self.nconf.public_url, self.conf.my_games_per_hour)), version

        if commands.elsewhere(command):  # subscriptions are asked at the lobby's address, not a game's
            return Step(command, False, paragraph(_(
                "not done: announcements of open games are asked for by a mail to {address}; to end them, reply "
                "{unsubscribe} to an announcement. To get fewer mails from this game, write {digest}.",
                address=self._lobby(), unsubscribe=quoted(commands.example("unsubscribe")),
                digest=quoted(commands.example("digest daily"))))), version

        def fail(*why: str) -> tuple[Step, int | None]:
            return Step(command, False, list(why)), version

        status = loaded.meta.get("status")
        if status == "finished" and (takeback.parse(command) or {}).get("takeback") in ("accept", "refuse"):
            # "accept" answers a takeback; a rematch is answered with its own words
            return fail(*paragraph(_("not applied: the game is over, so there is no takeback to answer. To answer "
                                     "a rematch, write {rematch} or {no}.", rematch=quoted(command_word("rematch")),
                                     no=quoted(command_word("no rematch")))))
        if status == "finished":
            return fail(_("not applied: the game is over."))
        if status != "active":
            return fail(*paragraph(_("not applied: the game has not started yet; it is waiting for players to "
                                     "join.")))
        if version is None:
            move, _note, error = self._read_move(loaded, seat, command, said)
            if move is None:
                return fail(*error)
            return fail(*paragraph(_("not applied: {move}: this mail does not say which version of the game it "
                                     "answers. Reply to your latest turn mail (its subject ends with the version, "
                                     "like {example}), or write the subject {subject}.", move=said,
                                     example=quoted("(v12)"),
                                     subject=quoted(f"[pbem] Game {game_id}, turn {loaded.version}"))))
        nonce = f"mail:{incoming.message_id}:{i}"
        for attempt in range(3):  # the game may move on between the check and the queue: read and look again
            move, note, error = self._read_move(loaded, seat, command, said)
            if move is None:
                return fail(*error)
            text = wording.describe(loaded.game, move, seat, self._names(loaded))
            read_as = paragraph(_("(read as {move}; {note} beside it was taken for a note)", move=quoted(text),
                                  note=quoted(note))) if note else []
            at = self._answers_now(loaded, seat, version)
            if (takeback.is_takeback(move) or handover.is_handover(move)) and version <= loaded.version:
                # Judged on the log (pbem/service/takebacks.py): an answer stands
                # if the mail's version is the request's or later.
                at = version
            if at is None:
                return fail(*read_as, *self._moved_on(loaded, seat, version, said))
            try:
                record = self.service.submit_trusted(game_id, seat, move, at, auth=AUTH,
                                                     nonce=nonce, message_id=incoming.message_id)
            except ServiceError as err:
                if err.code == "stale_version":
                    loaded = self.service.load(game_id)
                    continue
                return fail(*read_as, *self._refusal(loaded, seat, version, said, err.code, err.message))
            record = self._settle(game_id, record["id"])
            if record is None or record.get("status") == "queued":
                return Step(command, False, [*read_as, _("queued: {move}; its outcome will be mailed to you.",
                                                         move=text),
                                             _("The commands after it were not applied.")]), version
            error = record.get("error") or {}
            if record.get("status") == "rejected" and error.get("code") == "stale_version":
                # Refused after its queueing, so never applied: try again
                # under a nonce of its own (the first one is used up).
                nonce = f"mail:{incoming.message_id}:{i}:{attempt + 1}"
                loaded = self.service.load(game_id)
                continue
            if record.get("status") == "rejected":
                return fail(*read_as, *self._refusal(self.service.load(game_id), seat, version, said,
                                                     error.get("code", "rejected"), error.get("message", "")))
            return Step(command, True, [_("applied: {move} (now version {version}).", move=text,
                                          version=record["version"]), *read_as], applied=True), \
                int(record["version"])
        return fail(*self._moved_on(self.service.load(game_id), seat, version, said))

    def _read_move(self, loaded: Loaded, seat: int, command: str,
                   said: str | None = None) -> tuple[dict | None, str, list[str]]:
        """The move a line means (as written, else as pasted from a list:
        ``pasting``), what was left out of it, or why it cannot be read
        (``said``: the line quoted as typed)."""
        first_error = None
        for text, note in pasting.readings(command):
            try:
                return wording.parse(loaded.game, text, loaded.state, seat, self._names(loaded)), note, []
            except GameError as err:
                first_error = first_error or err
        details = first_error.details or {}
        why = paragraph(_("not applied: {move} does not read as a move: {reason}.", move=said or quoted(command),
                          reason=_sentence(first_error.message)))
        if details.get("expected"):
            why.append(_("expected: {expected}", expected=details["expected"]))
        examples = self._examples(loaded, seat, 4) or details.get("examples") or []
        if examples:
            why.append(_("for example: {moves}", moves=_("; ").join(str(x) for x in examples[:EXAMPLES])))
        return None, "", why

    def _answers_now(self, loaded: Loaded, seat: int, version: int) -> int | None:
        """The version to queue a mail's move at: the game's own, when the
        mail answers it, or when it answers an older one whose decision is
        still the one the seat faces (``decisions``: mail is slow, and the
        server made the envelope, so the mail's version proves nothing); else
        None (the game moved on)."""
        if version == loaded.version:
            return version
        if not 0 <= version < loaded.version:
            return None
        then = self.service.load(loaded.id, version)
        return loaded.version if decisions.same_decision(loaded.game, then.state, loaded.state, seat) else None

    def _moved_on(self, loaded: Loaded, seat: int, version: int, said: str) -> list[str]:
        """A move the game moved on from: what changed since the mail's
        version, as the seat may see it (the current board follows)."""
        if version > loaded.version:
            return paragraph(_("not applied: {move}: your mail names version {version}, which this game has not "
                               "reached (it is at version {now}). Reply to your latest mail from the game, and "
                               "keep its subject.", move=said, version=version, now=loaded.version))
        if seat not in wording.acting(loaded)[0]:
            why = _("not applied: {move}: your mail answers version {version}, but the game is at version {now}, "
                    "and it is no longer your turn.", move=said, version=version, now=loaded.version)
        else:
            why = _("not applied: {move}: your mail answers version {version}, but the game is at version {now}, "
                    "and what you decide now is not what you decided then.", move=said, version=version,
                    now=loaded.version)
        lines = [*paragraph(why), *paragraph(_("Read the board at the end of this mail and reply with your move "
                                              "again."))]
        if 0 <= version < loaded.version:
            names = self._names(loaded)
            start = max(version, loaded.version - CHANGES)  # the latest, when much happened
            shown = [(v, takeback.shown(loaded.game, e, seat)) for v, e, _move_id in
                     self.service.store.events(loaded.id, start, loaded.version)]
            if shown:
                lines += ["", _("What happened since:")]
                if start > version:
                    lines.append("  " + ngettext("({n} earlier event is not listed)",
                                                 "({n} earlier events are not listed)", start - version))
                lines += [f"  {v}. {wording.describe(loaded.game, e, seat, names)}" for v, e in shown]
        return lines

    def _refusal(self, loaded: Loaded, seat: int, version: int, said: str, code: str, message: str) -> list[str]:
        if code == "nonce_reused":
            return [_("not applied again: {move}: this mail was processed already.", move=said)]
        if code == "not_your_turn":  # the game's words name seats by number
            turn = wording.acting(loaded)[1]
            message = _("it is not your turn (it is {names}'s)", names=wording.joined(self._names(loaded), turn))
        why = paragraph(_("not applied: {move}: {reason}.", move=said, reason=_sentence(message or code)))
        examples = self._examples(loaded, seat) if seat in wording.acting(loaded)[0] else []
        if examples:
            why.append(_("legal moves now, for example: {moves}", moves=_("; ").join(examples)))
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
