"""People who play only by mail (no tests here): they read the server's
mails from the maildir, answer invitations with ``join``, and reply to a
mail by pasting a line it offers, the way a mail client replies (quoting
the mail below, keeping its subject and threading headers)."""
from __future__ import annotations

import random
import re

from pbem.games.i18n import ENGLISH, _, reading
from pbem.mail_in import invites
from pbem.notify.mail import EXAMPLES_HEADING, PASTE_HINT

from .mail_reader import text_of
from .test_mail_in_support import reply, reply_address

#: A Kachina game of 16 tiles (each kind twice), short enough for a whole game by mail.
KACHINA_ORDER = ["chief", "sun", "ogre", "eagle", "wolf", "warrior", "hummingbird", "koshari"] * 2


def heading(message: str, lang: str = ENGLISH) -> str:
    """A mail's heading as a reader of ``lang`` sees it."""
    with reading(lang):
        return _(message)


def offered_examples(text: str, lang: str = ENGLISH) -> list[str]:
    """The lines a mail lists under its examples heading."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.strip() == heading(EXAMPLES_HEADING, lang):
            out = []
            for nxt in lines[i + 1:]:
                if not nxt.startswith("  ") or not nxt.strip():
                    break
                out.append(nxt.strip())
            return out
    return []


def board_of(text: str, lang: str = ENGLISH) -> str:
    """The board as a mail shows it: from its heading to the examples (or
    the reply hint)."""
    start = text.find(heading("The board as you see it:", lang))
    if start < 0:
        return ""
    rest = text[start:]
    ends = [rest.find(m) for m in (heading(EXAMPLES_HEADING, lang), heading(PASTE_HINT, lang)[:12], "Reply to this mail",
                                   "\nDeadline:", "\nThere is no deadline", "\nThe game's page: ",
                                   heading("What happened:", lang))]
    ends = [e for e in ends if e > 0]
    return rest[:min(ends)] if ends else rest


def offered_board_lines(text: str, legal_texts: list[str], lang: str = ENGLISH) -> list[str]:
    """The board's own lines offered as moves: those that start with a
    legal move's text (the protocol's rule for ``render``)."""
    out = []
    for line in board_of(text, lang).split("\n"):
        line = line.strip()
        if any(line == t or re.match(re.escape(t) + r"\s", line) for t in legal_texts):
            out.append(line)
    return out


def choose(game_name: str, lines: list[str], rng: random.Random) -> str:
    """What a player picks: Cartoona's players head for the target (score,
    place, end the turn; now and then a card, to open reaction windows);
    the others pick any offered line."""
    if game_name == "cartoona":
        for prefix, chance in (("score", 1), ("place", 1), ("play", 0.3), ("discard", 1), ("pass", 1),
                               ("end turn", 1)):
            picks = [x for x in lines if x.startswith(prefix)]
            if picks and rng.random() < chance:
                return rng.choice(picks)
    return rng.choice(lines)


def invite_all(service, game_id: str, players: list[tuple[str, str]]) -> None:
    """Invite each (name, address) to the next free seat."""
    invites.invite(service, game_id, [{"email": address, "name": name} for name, address in players])


def answer(msg, line: str, sender: str):
    """A reply to ``msg`` with ``line`` on top and ``msg`` quoted below."""
    return reply(msg, line, sender)


__all__ = ["KACHINA_ORDER", "offered_examples", "choose", "board_of", "offered_board_lines", "invite_all", "answer",
           "reply_address", "text_of"]
