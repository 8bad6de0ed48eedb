"""Open games: those their creator opened to anyone (``open: true`` at
creation), the only games a stranger is listed (``GET /games`` without
``player``, the lobby). A game not opened is reached only by its link, its
invitations or a key that holds a seat in it.

The listed index (pbem/store/keys.py ``LISTED_INDEX``) holds the opened
games by creation time in every status; a listing by status reads it newest
first, in chunks, and keeps the games with that status (opened games are
few next to all games, and an open one that nobody joins expires)."""
from __future__ import annotations

from .common import Part

#: How many listed ids one read of the index takes.
CHUNK = 200
#: How far a listing by status reads the listed index at most (ids).
SCAN_MAX = 20_000


class OpenGames(Part):
    def public_games(self, status: str | None = None, offset: int = 0, limit: int = 50) -> list[dict]:
        """The games opened to anyone, newest first: all, or those with
        ``status`` (``open``: seats free, nobody dealt yet)."""
        out: list[dict] = []
        skipped, start = 0, 0
        while len(out) < limit and start < SCAN_MAX:
            ids = self.store.listed_games(start, CHUNK)
            if not ids:
                break
            start += len(ids)
            for game_id, meta in zip(ids, self.store.metas(ids)):
                if meta is None:
                    self.store.unlist(game_id)  # gone (expired, deleted): its entry goes too
                    continue
                if status and meta.get("status") != status:
                    continue
                if skipped < offset:
                    skipped += 1
                    continue
                out.append(self._public_meta(meta))
                if len(out) == limit:
                    break
        return out

    def public_listing(self, status: str, offset: int = 0, limit: int = 50) -> list[dict]:
        """``public_games`` with what a lobby shows of each (``listing``'s rows)."""
        return self._listed(self.public_games(status, offset, limit))
