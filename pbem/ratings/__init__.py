"""Ratings: one table per game type, computed from finished games' records.

The rules (docs/bots.md, "Ratings", says them to players):

* Who is rated: each seat's ``rated_as`` in its record's header
  (pbem/service/records.py): ``key:<public key>`` for a seat that joined
  with a key, ``mail:<id>`` for a seat that joined by mail (its
  address, confirmed by the reply that joined it, named by a random id drawn
  once per address: pbem/store/addresses.py; never the address or a digest
  of it), ``bot:<level>`` for a bot seat. A seat of an older
  record without ``rated_as`` is rated by its public key.
* Which games count: finished ones with a result, at least two seats, and
  every seat rated as someone different (nobody plays themself: a key that
  holds two seats, or two bots of one level, make the game unrated).
  Abandoned games (the operator's ``game_abandoned``) do not count: nobody
  lost them. A forfeit counts as its result says (the forfeiting seat last).
  A game with a takeback counts like any other: a takeback is only made when
  the other players accept it, so the result is one every player agreed to
  play to.
* How: openskill's Plackett-Luce model, each seat its own team, ranked by the
  result's placings (ties shared), the games in the order they were created
  (then by id), so the same records always give the same table.
* The anchor: the ``random`` bot is fixed at mu 25, sigma 1 (``ANCHOR``):
  it is rated with that rating in every game it plays and never moves, so a
  rating says how far above a uniformly random player someone is, and
  tables rebuilt from other sets of games stay comparable.
* The number shown (``rating``) is openskill's ordinal, mu - 3 sigma: low
  until a player has played enough games for the rating to be sure.

Everything here is pure: records in, table out (``rate``). The stored
projection and the API read it through pbem/ratings/projection.py; ``python
-m pbem.ratings rebuild`` recomputes it (from the server, or offline from
record files).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

ANCHOR = "bot:random"
ANCHOR_MU, ANCHOR_SIGMA = 25.0, 1.0
#: The event that ends a game abandoned (pbem/games/base.py GAME_ABANDONED).
ABANDONED = "game_abandoned"


@dataclass
class Entry:
    who: str
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0

    @property
    def rating(self) -> float:
        return self.mu - 3 * self.sigma

    def as_dict(self) -> dict:
        kind, _, ident = self.who.partition(":")
        return {"player": self.who, "kind": kind, "name": self.name, "bot": ident if kind == "bot" else None,
                "rating": round(self.rating, 2), "mu": round(self.mu, 3), "sigma": round(self.sigma, 3),
                "games": self.games, "wins": self.wins}


@dataclass
class Table:
    game: str
    entries: dict[str, Entry] = field(default_factory=dict)
    rated: list[str] = field(default_factory=list)  # game ids, in the order they were rated
    skipped: dict[str, str] = field(default_factory=dict)  # game id -> why it is not rated

    def as_dict(self) -> dict:
        rows = sorted(self.entries.values(), key=lambda e: (-e.rating, e.who))
        return {"game": self.game, "anchor": {"player": ANCHOR, "mu": ANCHOR_MU, "sigma": ANCHOR_SIGMA},
                "games_rated": len(self.rated), "ratings": [e.as_dict() for e in rows]}


def parse_record(text: str) -> dict:
    """A record's JSON lines: ``{"header", "steps", "end"}``."""
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    if not rows or rows[0].get("record") != "pbem-game":
        raise ValueError("not a pbem game record")
    return {"header": rows[0], "steps": [r for r in rows[1:] if "move_id" in r],
            "end": next((r for r in rows[1:] if r.get("end")), None)}


def why_unrated(record: dict) -> str | None:
    """None if the game counts, else why not (the rules above)."""
    header, end = record["header"], record["end"]
    if end is None or not (end.get("result") or {}).get("placings"):
        return "not finished"
    if any(e.get("type") == ABANDONED for step in record["steps"] for e in step.get("events", [])):
        return "abandoned"
    who = [identity(seat) for seat in header["seats"]]
    if len(who) < 2:
        return "one seat"
    if None in who:
        return "a seat nobody can be rated as"
    if len(set(who)) != len(who):
        return "one player at two seats"
    return None


def identity(seat: dict) -> str | None:
    if seat.get("rated_as"):
        return seat["rated_as"]
    if seat.get("bot"):
        return f"bot:{seat['bot']}"
    return f"key:{seat['public_key']}" if seat.get("public_key") else None


def rate(records: list[dict]) -> dict[str, Table]:
    """Tables by game type from parsed records (any order: sorted here)."""
    model = PlackettLuce()
    tables: dict[str, Table] = {}
    ratings: dict[tuple[str, str], object] = {}
    for record in sorted(records, key=lambda r: (r["header"].get("created") or 0, r["header"]["id"])):
        header = record["header"]
        table = tables.setdefault(header["game"], Table(header["game"]))
        why = why_unrated(record)
        if why:
            table.skipped[header["id"]] = why
            continue
        seats = sorted(header["seats"], key=lambda s: s["seat"])
        placings = record["end"]["result"]["placings"]
        who = [identity(s) for s in seats]
        teams = []
        for w, seat in zip(who, seats):
            if w not in table.entries:
                anchor = w == ANCHOR
                table.entries[w] = Entry(w, seat.get("name") or w, ANCHOR_MU if anchor else model.mu,
                                         ANCHOR_SIGMA if anchor else model.sigma)
            entry = table.entries[w]
            entry.name = seat.get("name") or entry.name  # the latest name a player used
            teams.append([ratings.get((header["game"], w)) or model.rating(mu=entry.mu, sigma=entry.sigma, name=w)])
        new = model.rate(teams, ranks=[placings[s["seat"]] for s in seats])
        for w, seat, team in zip(who, seats, new):
            entry = table.entries[w]
            entry.games += 1
            entry.wins += placings[seat["seat"]] == 1
            if w == ANCHOR:
                continue  # the anchor never moves
            entry.mu, entry.sigma = team[0].mu, team[0].sigma
            ratings[(header["game"], w)] = team[0]
        table.rated.append(header["id"])
    return tables
