"""A player's games, wherever they are known from: the seats a browser holds
(its tokens stay in the browser: it names GAME.SEAT), the keys it holds (a
key's seats, pbem/store/indexes.py), an address confirmed by mail (the
seats taken with that address, pbem/store/addresses.py); and the one order
"my games" shows them in, on the page and in the ``games`` mail: those
waiting for one of the player's seats first, then the others in play or
open, then the finished ones, each group by its last move, latest first."""
from __future__ import annotations

from ..store.addresses import Addresses

#: How many games one list may name (a player has few; a browser sends its own).
MAX_GAMES = 200
#: How many keys one browser may name.
MAX_KEYS = 16


def merge(*helds: dict[str, set[int]]) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {}
    for held in helds:
        for game_id, seats in held.items():
            out.setdefault(game_id, set()).update(seats)
    return out


def seats_of_keys(service, keys: list[str]) -> dict[str, set[int]]:
    """The seats held by these public keys (base64url), by game."""
    out: dict[str, set[int]] = {}
    for key in list(dict.fromkeys(keys))[:MAX_KEYS]:
        for game_id in service.store.indexes.of_player(key, 0, MAX_GAMES):
            for seat, data in service.store.seats(game_id).items():
                if data.get("public_key") == key:
                    out.setdefault(game_id, set()).add(seat)
    return out


def seats_of_address(service, address: str | None) -> dict[str, set[int]]:
    """The seats taken with this mail address, by game."""
    out: dict[str, set[int]] = {}
    if not address:
        return out
    wanted = address.strip().lower()
    for game_id in Addresses(service.store.redis).games(address, MAX_GAMES):
        for seat, data in service.store.seats(game_id).items():
            if (data.get("email") or "").strip().lower() == wanted:
                out.setdefault(game_id, set()).add(seat)
    return out


def ordered(rows: list[dict], held: dict[str, set[int]]) -> dict[str, list[dict]]:
    """Rows of ``Service.listing_of`` (or rows made of them, with ``id``,
    ``status``, ``to_act``, ``moved``, ``created``) in the three groups,
    each row told its seats (``mine``) and whether it waits for one of them."""
    for row in rows:
        row["mine"] = sorted(held.get(row["id"], ()))
        row["waiting"] = row["status"] == "active" and bool(set(row["to_act"]) & held.get(row["id"], set()))

    def latest(row):
        return -(row["moved"] or row["created"] or 0)
    return {"waiting": sorted((r for r in rows if r["waiting"]), key=latest),
            "others": sorted((r for r in rows if not r["waiting"] and r["status"] != "finished"), key=latest),
            "finished": sorted((r for r in rows if r["status"] == "finished"), key=latest)}
