"""What the ratings page and "my games" show of the ratings (pbem/ratings):
the table of a game type, and the ratings of the players holding a
browser's seats."""
from __future__ import annotations

from ..ratings import projection
from ..service import Service
from ..service.bots import bot_name
from ..service.records import rated_as
from .languages import game_title


def shown_name(row: dict) -> str:
    """A row's name; a bot's in the reader's language ("Bot (search)")."""
    return bot_name(row["bot"]) if row["kind"] == "bot" else row["name"]


def ratings_page(service: Service, game: str) -> dict:
    table = projection.table(service, game)
    rows = [{**row, "rank": i + 1, "shown": shown_name(row)} for i, row in enumerate(table["ratings"])]
    return {"game": game, "title": game_title(game), "rows": rows, "games_rated": table["games_rated"],
            "types": [(name, game_title(name)) for name in projection.game_types()]}


def my_ratings(service: Service, held: dict[str, set[int]]) -> list[dict]:
    """The ratings of whoever holds the browser's seats (their keys, their
    addresses), one row per player and game type, best first. Ratings are
    public: naming a seat shows nothing private."""
    who: dict[str, str] = {}
    for game_id, seats in held.items():
        try:
            data = service.store.seats(game_id)
        except Exception:  # noqa: BLE001  (a game gone: nothing to rate)
            continue
        for seat in seats:
            ident = rated_as(data.get(seat) or {})
            if ident and not ident.startswith("bot:"):
                who.setdefault(ident, data[seat]["name"])
    if not who:
        return []
    tables = {name: projection.table(service, name) for name in projection.game_types()}
    out = []
    for name, table in tables.items():
        for row in table["ratings"]:
            if row["player"] in who:
                out.append({**row, "game": name, "title": game_title(name), "shown": shown_name(row)})
    return sorted(out, key=lambda r: (r["title"], -r["rating"]))
