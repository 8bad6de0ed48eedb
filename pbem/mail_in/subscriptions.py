"""Announcements of open games by mail, per game type (issue 29).

A player writes ``subscribe carcassonne`` (``訂閱 carcassonne``) to the
lobby's address ``move+games@MAIL_DOMAIN``. Nothing is subscribed yet: the
server mails that address a confirmation whose reply address is a token
(``move+s.NONCE.MAC``); only a reply to it subscribes the address (double
opt-in: the From header of a mail proves nothing, a reply to a mail sent
there does). A confirmation not answered within ``CONFIRM_TTL_S`` is
forgotten, and an address the relay refuses is never asked again: either
way it is never subscribed. ``unsubscribe`` (``取消訂閱``), with or
without a game type, is answered with the one-click unsubscribe links of
that address's subscriptions, mailed to that address (so nobody
unsubscribes another).

Each new open game (``open: true``) is announced to the confirmed
subscribers of its game type (the ``pbem-mail`` job ``announce``), each in
their language, with a reply address of their own
(``move+a.GAME.HASH.MAC``): a reply ``join`` (``加入``; ``join Ann`` names
the seat) takes a free seat as a mail player, as an invitation accepted by
mail does; ``unsubscribe`` there ends that game type's announcements. Every
announcement has a one-click unsubscribe link (``/unsubscribe/TOKEN``) and
the ``List-Unsubscribe`` and ``List-Unsubscribe-Post:
List-Unsubscribe=One-Click`` headers (RFC 8058).

The mails about subscriptions one address is sent are bounded
(``PBEM_SUBSCRIBE_MAILS_PER_HOUR``): more requests are dropped, unanswered.

    pbem:subs:pending:NONCE       string  a confirmation asked for (JSON: email, game, lang; TTL)
    pbem:subs:type:GAME_TYPE      hash    address hash -> JSON subscriber (email, lang, since)
    pbem:subs:rl:HASH             string  subscription mails sent to an address this hour (TTL)
    pbem:{g:ID}:mail:announced    hash    address hash -> JSON subscriber the game was announced to
"""
from __future__ import annotations

import json
import logging
import time
from email import message_from_bytes
from email.policy import default as default_policy
from email.utils import parseaddr

from rq import Queue

from .. import games
from ..errors import ServiceError, TooManyRequests, Unprocessable
from ..games.i18n import CHINESE, ENGLISH, _, ngettext, reading
from ..notify import transport
from ..notify.config import NotifySettings
from ..notify.mail import header_text, paragraph
from ..notify.readers import quoted
from ..notify.tokens import reply_address
from ..store import dumps, key
from ..store.connections import rq_connection
from . import JOB_OPTS, QUEUE, commands, compose, reading as mail_reading
from .invites import check_email
from .outbox import retry_answer
from .words import command_word
from .subscription_tokens import (LOBBY, address_hash, announce_token, confirm_token, new_nonce,
                                  unsubscribe_token)

log = logging.getLogger(__name__)

KINDS = ("lobby", "confirm", "announce")
SUBSCRIBE_WORDS, UNSUBSCRIBE_WORDS = commands.SUBSCRIBE_WORDS, commands.UNSUBSCRIBE_WORDS
JOIN_WORDS = commands.JOIN_WORDS
#: How long a confirmation waits for its reply, seconds.
CONFIRM_TTL_S = 2 * 86400
ANNOUNCEMENT = "announcement"
SUBSCRIPTION = "subscription"


class Subscribers:
    """The subscriptions in Redis (keys: the module's docstring)."""

    def __init__(self, client):
        self.redis = client

    def take_mail_slot(self, hashed: str, per_hour: int) -> bool:
        k = f"pbem:subs:rl:{hashed}"
        pipe = self.redis.pipeline(transaction=True)
        pipe.set(k, 0, ex=3600, nx=True)
        pipe.incr(k)
        return pipe.execute()[1] <= per_hour

    def ask(self, nonce: str, record: dict) -> None:
        self.redis.set(f"pbem:subs:pending:{nonce}", dumps(record), ex=CONFIRM_TTL_S)

    def take_pending(self, nonce: str) -> dict | None:
        """The confirmation asked for with this nonce, once (then it is gone)."""
        raw = self.redis.getdel(f"pbem:subs:pending:{nonce}")
        return json.loads(raw) if raw else None

    def add(self, game_type: str, record: dict) -> None:
        self.redis.hset(f"pbem:subs:type:{game_type}", address_hash(record["email"]), dumps(record))

    def remove(self, game_type: str, hashed: str) -> bool:
        return bool(self.redis.hdel(f"pbem:subs:type:{game_type}", hashed))

    def of_type(self, game_type: str) -> dict[str, dict]:
        return {h.decode(): json.loads(v) for h, v in self.redis.hgetall(f"pbem:subs:type:{game_type}").items()}

    def types_of(self, hashed: str) -> list[str]:
        """The game types an address is subscribed to."""
        names = sorted({g.name for g in games.latest_games()})
        pipe = self.redis.pipeline(transaction=False)
        for name in names:
            pipe.hexists(f"pbem:subs:type:{name}", hashed)
        return [name for name, there in zip(names, pipe.execute()) if there]

    def announced(self, game_id: str, hashed: str, record: dict) -> None:
        self.redis.hset(key(game_id, "mail:announced"), hashed, dumps(record))

    def announced_to(self, game_id: str, hashed: str) -> dict | None:
        raw = self.redis.hget(key(game_id, "mail:announced"), hashed)
        return json.loads(raw) if raw else None


def game_type(word: str) -> str | None:
    """A game type named by its name or its title in either language."""
    word = word.strip().lower()
    for g in games.latest_games():
        titles = {g.name.lower()}
        for lang in (ENGLISH, CHINESE):
            with reading(lang):
                titles.add(g.title_text().lower())
        if word in titles:
            return g.name
    return None


def unsubscribe_link(conf: NotifySettings, game: str, hashed: str, lang: str | None = None) -> str:
    """The one-click link; its page reads in the subscriber's language (``lang``)."""
    query = f"?lang={lang}" if lang else ""
    return f"{str(conf.public_url).rstrip('/')}/unsubscribe/{unsubscribe_token(conf.secret(), game, hashed)}{query}"


def _lobby_address(conf: NotifySettings) -> str:
    return f"move+{LOBBY}@{conf.mail_domain}"


def _send(conf: NotifySettings, *, to: str, subject: str, lines: list[str], reply_to: str | None, kind: str,
          game_id: str, in_reply_to: str | None = None, unsubscribe: str | None = None,
          offered: list[str] | None = None, outbox=None) -> bool:
    """Send one mail; False if the relay refused it. ``outbox`` (a Redis
    client): then kept and sent again later (pbem/mail_in/outbox.py), as an
    announcement is; a confirmation is not (an address the relay refuses
    is never subscribed)."""
    msg = compose.message(kind=kind, to_addr=to, sender=conf.sender, subject=subject, text="\n".join(lines),
                          domain=conf.mail_domain, game_id=game_id, reply_to=reply_to, in_reply_to=in_reply_to,
                          offered=offered)
    if unsubscribe:
        # RFC 8058: a mail client's one-click unsubscribe POSTs "List-Unsubscribe=One-Click" to the link.
        msg["List-Unsubscribe"] = f"<{unsubscribe}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    try:
        transport.send(msg, conf.smtp_url, conf.data_dir)
        return True
    except Exception as err:  # the relay refused: an address that cannot be reached is never subscribed
        log.warning("%s mail to an address failed%s: %s", kind, ", sent again later" if outbox else "", err)
        if outbox is not None:
            retry_answer(outbox, msg)
        return False


# -- mail in: the lobby's address, a confirmation's, an announcement's -----------------------------


def process(processor, raw: bytes, recipient, out, step):
    """One inbound mail to a subscription address (``recipient.kind`` in
    ``KINDS``): ``out``, the Outcome pbem/mail_in/process.py made for it
    (``step``: its Step), filled in."""
    incoming = mail_reading.read(raw, None, processor.conf.max_commands)
    out.message_id = incoming.message_id
    out.game_id = recipient.game_id if recipient.kind == "announce" else None
    if incoming.auto:
        out.status, out.reason = "ignored", incoming.auto
        return out
    if not processor.store.first_time(recipient.game_id, recipient.token, incoming.message_id,
                                      processor.conf.dedupe_ttl):
        out.status, out.reason = "duplicate", "this Message-ID was processed already"
        return out
    first = (incoming.commands[0] if incoming.commands else "").strip()
    # one reading of the words everywhere (pbem/mail_in/commands.py): ``訂閱卡卡頌`` needs no space
    word, rest = (commands.announcement_word if recipient.kind == "announce" else commands.lobby_word)(first)
    word = word or ""
    if first:
        out.steps.append(step(first, True))
    conf = processor.nconf
    store = Subscribers(processor.service.store.redis)
    if recipient.kind == "confirm":
        return _confirmed(conf, store, recipient, incoming, out)
    if recipient.kind == "announce":
        return _announce_reply(processor, store, recipient, incoming, word, rest, out)
    return _lobby(processor, store, raw, incoming, word, rest, out)


def _lobby(processor, store: Subscribers, raw: bytes, incoming, word: str, rest: str, out):
    """``subscribe TYPE`` or ``unsubscribe [TYPE]`` to the lobby's address:
    answered to the From address only (what it asks needs that address's
    reply, or its click), within the address's hourly bound."""
    conf = processor.nconf
    try:
        sender = parseaddr(str(message_from_bytes(raw, policy=default_policy).get("From", "") or ""))[1]
        email = check_email(sender)
    except (ServiceError, Exception):
        out.status, out.reason = "refused", "no usable From address"
        return out
    hashed = address_hash(email)
    lang = CHINESE if word in ("訂閱", "取消訂閱", "退訂") else ENGLISH
    if not store.take_mail_slot(hashed, processor.conf.subscribe_mails_per_hour):
        out.status, out.reason = "refused", "too many subscription mails for this address this hour"
        return out
    with reading(lang):
        names = ", ".join(sorted(g.name for g in games.latest_games()))
        if word in SUBSCRIBE_WORDS:
            kind = game_type(rest)
            if kind is None:
                out.status, out.reason = "refused", "unknown_game"
                lines = paragraph(_("pbem has no game {name}: write {example}, with one of: {names}.",
                                    name=quoted(rest.strip()[:40]), example=quoted(f"{word} carcassonne"),
                                    names=names))
                _send(conf, to=email, subject="[pbem] " + _("Not subscribed: unknown game"), lines=lines,
                      reply_to=_lobby_address(conf), kind=SUBSCRIPTION, game_id="subscriptions",
                      in_reply_to=incoming.message_id)
                return out
            nonce = new_nonce()
            store.ask(nonce, {"email": email, "game": kind, "lang": lang, "asked": time.time()})
            sent = _send(conf, to=email, **_confirmation(conf, kind, nonce), kind=SUBSCRIPTION,
                         game_id="subscriptions", in_reply_to=incoming.message_id)
            if not sent:
                store.take_pending(nonce)  # an address that cannot be reached is never subscribed
                out.status, out.reason = "refused", "subscription_unconfirmable"
            else:
                out.status = "confirmation_sent"
            return out
        if word in UNSUBSCRIBE_WORDS:
            named = game_type(rest) if rest.strip() else None
            kinds = [named] if named else store.types_of(hashed)
            kinds = [k for k in kinds if k in store.types_of(hashed)]
            if kinds:
                lines = [*paragraph(ngettext("To end this subscription, open its link:",
                                             "To end these subscriptions, open their links:", len(kinds))), ""]
                lines += [f"{games.get(k).title_text()}: {unsubscribe_link(conf, k, hashed, lang)}" for k in kinds]
            else:
                lines = paragraph(_("This address is subscribed to no announcement: nothing to end."))
            _send(conf, to=email, subject="[pbem] " + _("Your announcements"), lines=lines,
                  reply_to=_lobby_address(conf), kind=SUBSCRIPTION, game_id="subscriptions",
                  in_reply_to=incoming.message_id)
            out.status = "unsubscribe_links_sent"
            return out
        out.status, out.reason = "refused", "no subscription command"
        lines = paragraph(_("To get a mail each time a new open game waits for players, write {example} (one of: "
                            "{names}); to stop, {stop}.", example=quoted("subscribe carcassonne"), names=names,
                            stop=quoted("unsubscribe")))
        _send(conf, to=email, subject="[pbem] " + _("Announcements of open games"), lines=lines,
              reply_to=_lobby_address(conf), kind=SUBSCRIPTION, game_id="subscriptions",
              in_reply_to=incoming.message_id)
        return out


def ask(client, conf: NotifySettings, per_hour: int, email: str, game: str, lang: str) -> dict:
    """``POST /subscriptions``: mail ``email`` the confirmation of a
    subscription to ``game`` (in ``lang``). Nothing is subscribed until the
    confirmation is answered. ``422 bad_email`` / ``unknown_game`` before
    anything is counted or stored; ``429 too_many_requests`` past the
    address's hourly bound; ``422 subscription_unconfirmable`` when the
    confirmation cannot be delivered (nothing kept: never subscribed)."""
    email = check_email(email)
    kind = game_type(game)
    if kind is None:
        raise Unprocessable("unknown_game", _("pbem has no game {name}: one of {names}", name=repr(game[:40]),
                                              names=", ".join(sorted(g.name for g in games.latest_games()))))
    store = Subscribers(client)
    if not store.take_mail_slot(address_hash(email), per_hour):
        raise TooManyRequests(_("this address was sent {n} mails about subscriptions this hour already: try again "
                                "later", n=per_hour), 3600)
    nonce = new_nonce()
    store.ask(nonce, {"email": email, "game": kind, "lang": lang, "asked": time.time()})
    with reading(lang):
        sent = _send(conf, to=email, **_confirmation(conf, kind, nonce), kind=SUBSCRIPTION, game_id="subscriptions")
    if not sent:
        store.take_pending(nonce)
        raise Unprocessable("subscription_unconfirmable", _("the confirmation could not be mailed to this address: "
                                                            "it is not subscribed"))
    return {"email": email, "game": kind, "status": "confirmation_sent", "expires_in_s": CONFIRM_TTL_S}


def _confirmation(conf: NotifySettings, kind: str, nonce: str) -> dict:
    """The confirmation mail's subject, lines, reply address and offered reply."""
    title = games.get(kind).title_text()
    lines = [*paragraph(_("Someone, we hope you, asked for a mail from pbem each time a new open game of "
                          "{game} waits for players.", game=title)), "",
             *paragraph(_("To confirm, reply to this mail (a reply with {yes} is enough) within two days. "
                          "Until you do, nothing is sent to you; if it was not you, ignore this mail.",
                          yes=quoted(_("yes")))), ""]
    return {"subject": "[pbem] " + _("Confirm: announcements of {game}", game=title), "lines": lines,
            "reply_to": f"move+{confirm_token(conf.secret(), nonce)}@{conf.mail_domain}", "offered": [_("yes")]}


def _confirmed(conf: NotifySettings, store: Subscribers, recipient, incoming, out):
    """A reply to a confirmation: the address receives mail; it is subscribed
    (once: the confirmation is gone after). One no longer waiting (answered
    already, or older than ``CONFIRM_TTL_S``) subscribes nobody and is not
    answered: the sender is not known to own any address."""
    pending = store.take_pending(recipient.nonce)
    if pending is None:
        out.status, out.reason = "refused", "subscription_unconfirmable"
        return out
    record = {"email": pending["email"], "lang": pending["lang"], "since": time.time()}
    store.add(pending["game"], record)
    with reading(pending["lang"]):
        title = games.get(pending["game"]).title_text()
        link = unsubscribe_link(conf, pending["game"], address_hash(pending["email"]), pending["lang"])
        lines = [*paragraph(_("You will get a mail each time a new open game of {game} waits for players; reply "
                              "{join} to one to take a seat.", game=title, join=quoted(command_word("join")))), "",
                 *paragraph(_("To stop, open this link: {url}", url=link))]
        _send(conf, to=pending["email"], subject="[pbem] " + _("Subscribed: announcements of {game}", game=title),
              lines=lines, reply_to=_lobby_address(conf), kind=SUBSCRIPTION, game_id="subscriptions",
              in_reply_to=incoming.message_id, unsubscribe=link)
    out.status = "subscribed"
    return out


def _announce_reply(processor, store: Subscribers, recipient, incoming, word: str, rest: str, out):
    """A reply to an announcement: ``join`` takes a free seat (the first one
    neither taken nor invited) as a mail-only seat with the subscriber's
    address; ``unsubscribe`` ends the game type's announcements."""
    service, conf = processor.service, processor.nconf
    subscriber = store.announced_to(recipient.game_id, recipient.nonce)
    meta = service.store.meta(recipient.game_id)
    if subscriber is None or meta is None:
        out.status, out.reason = "refused", "unknown announcement"
        return out
    email = subscriber["email"]
    with reading(subscriber.get("lang") or ENGLISH):
        title = header_text(meta.get("title") or recipient.game_id)
        if word in UNSUBSCRIBE_WORDS:
            store.remove(meta["game"], recipient.nonce)
            out.status = "unsubscribed"
            lines = paragraph(_("You will get no more announcements of {game}.",
                                game=games.get(meta["game"]).title_text()))
            _send(conf, to=email, subject="[pbem] " + _("Unsubscribed"), lines=lines, reply_to=None,
                  kind=SUBSCRIPTION, game_id=recipient.game_id, in_reply_to=incoming.message_id)
            return out
        if word not in JOIN_WORDS:
            out.status, out.reason = "no_join", "no join command"
            lines = paragraph(_("To take a seat of {title}, reply with the word {join} on the first line.",
                                title=quoted(title), join=quoted(command_word("join"))))
            _send(conf, to=email, subject="[pbem] " + _("Not joined: {title}", title=title), lines=lines,
                  reply_to=f"move+{recipient.token}@{conf.mail_domain}", kind=compose.JOIN_REPLY,
                  game_id=recipient.game_id, in_reply_to=incoming.message_id)
            return out
        seat, problem = _join_free_seat(service, recipient.game_id, header_text(rest.strip(), 64) or
                                        email.split("@")[0][:32], email, subscriber.get("lang"))
        if seat is None:
            out.status, out.reason = "refused", problem[0]
            lines = paragraph(_("You could not take a seat of {title}: {reason}.", title=quoted(title),
                                reason=problem[1]))
            _send(conf, to=email, subject="[pbem] " + _("Not joined: {title}", title=title), lines=lines,
                  reply_to=None, kind=compose.JOIN_REPLY, game_id=recipient.game_id,
                  in_reply_to=incoming.message_id)
            return out
        out.status, out.seat = "joined", seat
        lines = [*paragraph(_("You sit at seat {seat} of {title}. The game starts when every seat is taken; then "
                              "your turn mails come to this address, and you play by replying to them.",
                              seat=seat, title=quoted(title)))]
        _send(conf, to=email, subject="[pbem] " + _("You joined {title}", title=title), lines=lines,
              reply_to=reply_address(conf.secret(), conf.mail_domain, recipient.game_id, seat),
              kind=compose.JOIN_REPLY, game_id=recipient.game_id, in_reply_to=incoming.message_id)
        return out


def _join_free_seat(service, game_id: str, name: str, email: str, lang: str | None):
    """(seat, None) once a free seat is taken, else (None, (code, reason))."""
    for _attempt in range(4):  # a seat taken meanwhile: the next one
        meta = service.store.meta(game_id)
        if meta is None or meta.get("status") != "open":
            return None, ("game_started", _("the game has started: its seats are taken"))
        rows = service.seat_rows(game_id, int(meta["players"]), "open", service.store.seats(game_id), meta)
        free = [r["seat"] for r in rows if not r["joined"] and not r.get("invited")]
        if not free:
            return None, ("no_free_seat", _("every seat is taken or kept for an invitation"))
        try:
            service.join(game_id, free[0], None, name, email=email, lang=lang)
            return free[0], None
        except ServiceError as err:
            if err.code not in ("seat_taken", "seat_invited"):
                return None, (err.code, err.message)
    return None, ("busy", _("the seats kept changing; try again"))


# -- announcements -------------------------------------------------------------------------------


def enqueue_announcement(client, game_id: str) -> None:
    """Announce a game just opened to anyone (the ``announce`` job)."""
    Queue(QUEUE, connection=rq_connection(client)).enqueue("workers.mail_jobs.announce", game_id, **JOB_OPTS)


def announce(service, game_id: str, conf: NotifySettings | None = None) -> int:
    """Mail the game's announcement to every confirmed subscriber of its
    type, each in their language; how many were sent at once (one the relay
    refused goes to the outbox, sent again later). Only while the game is
    open to anyone and has seats free."""
    conf = conf or NotifySettings()
    meta = service.store.meta(game_id)
    if meta is None or meta.get("status") != "open" or meta.get("listed") != "1":
        return 0
    store = Subscribers(service.store.redis)
    game = games.get(meta["game"], int(meta["rules_version"]))
    players = int(meta["players"])
    sent = 0
    for hashed, subscriber in store.of_type(meta["game"]).items():
        if store.announced_to(game_id, hashed):
            continue  # a job run again: announced once
        store.announced(game_id, hashed, subscriber)
        with reading(subscriber.get("lang") or ENGLISH):
            link = unsubscribe_link(conf, meta["game"], hashed, subscriber.get("lang") or ENGLISH)
            free = players - len(service.store.seats(game_id))
            title = header_text(meta.get("title") or game_id)
            lines = [*paragraph(_("A new open game of {game} waits for players: {title}.", game=game.title_text(),
                                  title=quoted(title))), "",
                     *paragraph(_("The rules in play: {rules}",
                                  rules=game.describe_setup(game.check_options(players, meta.get("options") or {}),
                                                            players))),
                     *paragraph(ngettext("{free} of {n} seat is free.", "{free} of {n} seats are free.", players,
                                         free=free)), "",
                     *paragraph(_("To take a seat, reply to this mail with the word {join} on the first line (or "
                                  "{join_name}). The game starts when every seat is taken.",
                                  join=quoted(command_word("join")), join_name=quoted(_("{join} Your Name", join=command_word("join"))))), "",
                     f"{str(conf.public_url).rstrip('/')}/g/{game_id}", "",
                     *paragraph(_("You get this mail because you subscribed to announcements of {game}. To stop, "
                                  "open this link: {url}", game=game.title_text(), url=link))]
            ok = _send(conf, to=subscriber["email"],
                       subject="[pbem] " + _("New open game of {game}: {title}", game=game.title_text(), title=title),
                       lines=lines, reply_to=f"move+{announce_token(conf.secret(), game_id, hashed)}@"
                                             f"{conf.mail_domain}",
                       kind=ANNOUNCEMENT, game_id=game_id, unsubscribe=link, offered=[command_word("join")],
                       outbox=service.store.redis)
        sent += ok
    return sent


def unsubscribe(client, game_type: str, hashed: str) -> bool:
    """End one address's announcements of a game type (the one-click link)."""
    return Subscribers(client).remove(game_type, hashed)
