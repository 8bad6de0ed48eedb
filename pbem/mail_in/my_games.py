"""A reply's ``games`` line (``my games``, ``我的遊戲``): the answer lists
every game of the seat's own address (the seats taken with it), in the
order of the "my games" page (pbem/service/mine.py: those waiting for you
first, then the others, then the finished ones, with the last move's time
in the reader's language and zone), and carries a link that opens that
page signed in for the address for an hour (pbem/trust/address_links.py).

The answer goes to the seat's own address, never to the mail's From (the
mail processor's rule for every answer): the link proves that its holder
reads that address's mail. ``PBEM_MY_GAMES_PER_HOUR`` lists an address
may be sent an hour (``too_many_lists``)."""
from __future__ import annotations

import hashlib

from .. import games
from ..errors import ServiceError
from ..games.i18n import _
from ..service.mine import ordered, seats_of_address
from ..trust import address_links

WORDS = {"games", "my games", "list games", "我的遊戲", "遊戲列表"}


def is_games_line(line: str) -> bool:
    return " ".join((line or "").lower().split()).strip(".!。！") in WORDS


def _allowed(redis, address: str, per_hour: int) -> bool:
    key = "pbem:mygames:asked:" + hashlib.sha256(address.strip().lower().encode()).hexdigest()
    count = redis.incr(key)
    if count == 1:
        redis.expire(key, 3600)
    return count <= per_hour


def answer(service, address: str | None, reader, secret: bytes, public_url: str,
           per_hour: int) -> tuple[bool, list[str]]:
    """(done, the answer's lines) for a ``games`` line of a seat whose
    address is ``address``; ``reader`` (pbem.notify.readers.Reader) writes the times."""
    if not address:
        return False, [_("not done: this seat has no mail address to list the games of.")]
    if not _allowed(service.store.redis, address, per_hour):
        err = ServiceError("too_many_lists", _("your games were listed {n} times this hour already; try again "
                                               "later", n=per_hour))
        return False, [_("not done: {reason} ({code}).", reason=err.message, code=err.code)]
    held = seats_of_address(service, address)
    groups = ordered(service.listing_of(list(held)), held)
    base = str(public_url).rstrip("/")
    link = f"{base}/my-games/signin/{address_links.make(secret, 'link', address, address_links.LINK_TTL_S)}"
    lines = [_("The games of {address}:", address=address)]
    headings = (("waiting", _("Waiting for you:")), ("others", _("Your other games:")),
                ("finished", _("Your finished games:")))
    for group, heading in headings:
        if not groups[group]:
            continue
        lines += ["", heading]
        for row in groups[group]:
            lines += _row(row, reader, base)
    if not held:
        lines += ["", _("No game has a seat taken with this address yet.")]
    lines += ["", _("Your games on the web, signed in for this address (the link works for an hour; keep it to "
                    "yourself):"), link]
    return True, lines


def _row(row: dict, reader, base: str) -> list[str]:
    names = [s["name"] or _("seat {n}", n=s["seat"]) for s in row["seats"]]
    try:
        kind = games.get(row["game"]).title_text()
    except Exception:  # a game no longer registered: its name as stored
        kind = row["game"]
    if row["waiting"]:
        where = _("your turn")
    elif row["status"] == "active":
        where = _("{names} to play", names=_(", ").join(names[s] for s in row["to_act"] if s < len(names)))
    elif row["status"] == "finished":
        where = _("over")
    else:
        where = _("waiting for players")
    moved = row.get("moved") or row.get("created")
    when = _("last move {when}", when=reader.when(moved)) if row.get("moved") else \
        _("created {when}", when=reader.when(moved)) if moved else ""
    head = _("{title} ({game}, {players}): {where}", title=row["title"] or row["id"], game=kind,
             players=_(", ").join(names), where=where)
    return [f"- {head}" + (_("; ") + when if when else ""), f"  {base}/g/{row['id']}"]
