"""The ratings as a stored projection of the finished games' records.

The tables (pbem/ratings/__init__.py ``rate``) are kept in Redis, one JSON
value per game type, with a digest of the finished games they were computed
from. A read whose digest no longer matches the finished games (a game ended
since, one was deleted) rebuilds every table first: the projection is never
the truth, only the records are, and ``python -m pbem.ratings rebuild``
makes it again from them at any time.
"""
from __future__ import annotations

import hashlib
import json

from .. import games
from ..errors import NotFound
from ..games.i18n import _
from . import Table, parse_record, rate

KEY = "pbem:ratings:{game}"
SEEN = "pbem:ratings:seen"
PAGE = 200


def game_types() -> list[str]:
    return sorted({g.name for g in games.all_games()})


def check_game_type(name: str) -> str:
    if name not in game_types():
        raise NotFound("unknown_game_type", _("no game type {game}: the game types are {types}", game=repr(name),
                                              types=", ".join(game_types())))
    return name


def finished_ids(service) -> list[str]:
    out: list[str] = []
    while True:
        page = service.store.list_games(len(out), PAGE, "finished")
        out.extend(page)
        if len(page) < PAGE:
            return out


def digest(ids: list[str]) -> str:
    return hashlib.sha256("\n".join(sorted(ids)).encode()).hexdigest()


def records(service, ids: list[str]) -> list[dict]:
    out = []
    for game_id in ids:
        try:
            out.append(parse_record("\n".join(service.record_lines(game_id, None))))
        except Exception:  # noqa: BLE001  (a game deleted while read: not rated)
            continue
    return out


def rebuild(service) -> dict[str, dict]:
    """Every table again from the finished games' records; stored."""
    ids = finished_ids(service)
    tables = rate(records(service, ids))
    out = {name: (tables.get(name) or Table(name)).as_dict() for name in game_types()}
    redis = service.store.redis
    for name, table in out.items():
        redis.set(KEY.format(game=name), json.dumps(table))
    redis.set(SEEN, digest(ids))
    return out


def table(service, game: str) -> dict:
    """A game type's table, rebuilt first if games finished since (404 for an unknown type)."""
    check_game_type(game)
    redis = service.store.redis
    seen = redis.get(SEEN)
    if seen is None or seen.decode() != digest(finished_ids(service)):
        return rebuild(service)[game]
    raw = redis.get(KEY.format(game=game))
    return json.loads(raw) if raw else Table(game).as_dict()


def ratings_of(service, who: str) -> dict[str, dict]:
    """A player's row in each game type's table where they are rated."""
    out = {}
    for name in game_types():
        row = next((r for r in table(service, name)["ratings"] if r["player"] == who), None)
        if row:
            out[name] = row
    return out
