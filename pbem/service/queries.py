"""Reads: who is asking (a seat, the creator, a spectator), and everything
a viewer may see (summaries, views, legal moves, parsing, events, past
states, move statuses), each through the game's filter."""
from __future__ import annotations

import secrets
import time

from .. import games
from ..errors import Forbidden, NotFound, Unauthorized, Unprocessable
from ..games import handover, takeback
from ..games.base import OMNISCIENT, SPECTATOR, GameError
from ..store import invitation_live
from .common import (CREATOR, Loaded, Part, SeatProof, game_of, names_of, seat_of_token, shown_events, token_hash,
                     unknown_seat)
from ..games.i18n import _
from .common import game_language, seat_language


class Queries(Part):
    def viewer(self, game_id: str, token: str | None, meta: dict | None = None) -> int | None:
        """The seat a bearer token belongs to; None (spectator) without one."""
        if isinstance(token, SeatProof):
            return self._proved(game_id, token.seat)
        if token is None:
            return SPECTATOR
        return seat_of_token(self.store.seats(game_id), token)

    def _proved(self, game_id: str, seat: int) -> int:
        """A proved seat still names a taken seat of the game (a link outlives nothing)."""
        if seat not in self.store.seats(game_id):  # one read: a taken seat is a seat of the game
            raise Unauthorized("bad_link", _("game {game} has no seat {seat} taken", game=game_id, seat=seat))
        return seat

    def actor(self, game_id: str, token: str | None) -> str | int:
        """Whom a bearer token speaks for in a game: ``CREATOR`` (the token
        ``create_game`` gave) or a seat; 401 without a token or with another."""
        meta = self._meta(game_id)
        if token is None:
            raise Unauthorized("missing_token", _("send the game's creator token or a seat's bearer token"))
        creator = meta.get("creator_token_sha256")
        if creator and secrets.compare_digest(creator, token_hash(token)):
            return CREATOR
        return self.viewer(game_id, token)

    def seat_viewer(self, game_id: str, seat: int, token: str | None) -> int:
        """The viewer for a seat's private view: only that seat's token opens it."""
        meta = self._meta(game_id)
        if not 0 <= seat < meta["players"]:
            raise unknown_seat(game_id, meta)
        if token is None:
            raise Unauthorized("missing_token", _("a seat's private view needs that seat's bearer token"))
        viewer = self.viewer(game_id, token)
        if viewer != seat:
            raise Forbidden("not_your_seat", _("this token does not belong to seat {seat}", seat=seat))
        return viewer

    @staticmethod
    def _effective(loaded: Loaded, viewer):
        """A finished game is public: nothing is hidden from anyone."""
        return OMNISCIENT if loaded.finished else viewer

    def _public_meta(self, meta: dict) -> dict:
        out = {k: meta.get(k) for k in ("id", "game", "title", "players", "options", "status",
                                         "version", "created", "seed_sha256")}
        out["lang"] = game_language(meta)
        out["open"] = meta.get("listed") == "1"  # opened to anyone (pbem/service/open_games.py)
        out["rules_version"] = int(meta["rules_version"])
        if meta.get("status") == "finished":
            out["result"] = meta.get("result")
        return out

    def seat_names(self, game_id: str, players: int, seats: dict | None = None) -> list:
        """The players' names by seat (None where a seat is free), for the
        games' texts: they name a seat by its player's name."""
        return names_of(self.store.seats(game_id) if seats is None else seats, players)

    def seat_rows(self, game_id: str, players: int, status: str, seats: dict, meta: dict | None = None) -> list[dict]:
        """The public list of seats: each one's player's name and whether it
        is taken, the language it reads (its own, else the game's: ``meta``)
        and its time zone (null: none chosen); while the game is open,
        ``invited`` too: a seat reserved for a live invitation, with the
        name its inviter gave (never the address; null when none was
        given), else null."""
        meta = meta if meta is not None else self._meta(game_id)
        rows = [{"seat": s, "name": seats[s]["name"] if s in seats else None, "joined": s in seats,
                 "lang": seat_language(seats.get(s), meta), "tz": (seats.get(s) or {}).get("tz"),
                 "bot": (seats.get(s) or {}).get("bot"), "handed_over": (seats.get(s) or {}).get("handed_over")}
                for s in range(players)]
        if status == "open":
            invitations = self.store.invitations(game_id)
            now = time.time()
            for row in rows:
                invitation = invitations.get(row["seat"])
                live = not row["joined"] and invitation_live(invitation, now)
                row["invited"] = {"name": invitation.get("public_name"), "expires": invitation.get("expires")} \
                    if live else None
        return rows

    def summary(self, loaded: Loaded, viewer, whole: bool = False, board: bool = True) -> dict:
        """The game now as ``viewer`` may see it; without ``board``, its
        view and text board are left out (null: a page showing a past
        version draws that one instead)."""
        seats = self.store.seats(loaded.id)
        if loaded.meta["status"] == "open" and len(seats) >= loaded.meta["players"] and \
                self.deal(loaded.id, loaded.meta, seats):
            loaded = self.load(loaded.id)  # its last joiner died before the deal: dealt now
        game, state = loaded.game, loaded.state
        out = self._public_meta(loaded.meta)
        names = self.seat_names(loaded.id, loaded.meta["players"], seats)
        out["seats"] = self.seat_rows(loaded.id, loaded.meta["players"], loaded.meta["status"], seats, loaded.meta)
        # Who the caller is (a seat, or None for a spectator), always; once the
        # game is over everything is public, which ``sees_all`` says.
        out["viewer"] = viewer
        out["sees_all"] = loaded.finished
        if loaded.meta["status"] in ("active", "finished"):
            out["to_act"] = sorted(game.to_act(state))
            out["active"] = game.active_seat(state) if loaded.meta["status"] == "active" else None
            seen = self._effective(loaded, viewer)
            out["view"] = game.view(state, seen) if board else None
            out["board"] = game.render(state, seen, names, whole=whole) if board else None
            result = game.result(state)
            out["result"] = result.as_dict() if result else loaded.meta.get("result")  # a forfeit: the server's result
        else:
            out["to_act"], out["view"], out["board"], out["result"] = [], None, None, None
            out["active"] = None
        if loaded.finished:
            out["seed"] = self._seed(loaded.id).hex()
        return out

    def listing(self, status: str, offset: int = 0, limit: int = 50) -> list[dict]:
        """``list_games`` with what a lobby shows of each: the seats' names,
        for a game in play who is to act (its state is loaded for that,
        from the cache as a rule), and ``moved``, when its last event was
        settled (None before the deal). Nothing private: no view."""
        return self._listed(self.list_games(status, offset, limit))

    def listing_of(self, game_ids: list[str]) -> list[dict]:
        """``listing``'s rows for these games, in the order given (a
        browser's own games: the lobby's "my games"); an id of no game is
        left out."""
        metas = self.store.metas(list(game_ids))
        return self._listed([self._public_meta(m) for m in metas if m is not None])

    def _listed(self, items: list[dict]) -> list[dict]:
        out = []
        for item in items:
            seats = self.store.seats(item["id"])
            if item["status"] == "open" and len(seats) >= item["players"] and self.deal(item["id"]):
                item.update(self._public_meta(self._meta(item["id"])))  # its last joiner died before the deal
            item["seats"] = self.seat_rows(item["id"], item["players"], item["status"], seats, item)
            item["to_act"] = []
            if item["status"] == "active":
                loaded = self.load(item["id"])
                item["to_act"] = sorted(loaded.game.to_act(loaded.state))
            out.append(item)
        moved = self.store.last_moves([item["id"] for item in out])
        for item in out:
            item["moved"] = moved.get(item["id"])
        return out

    def invitation_state(self, game_id: str, seat: int, nonce: str) -> dict:
        """What the holder of an invitation's token may see of it (its page,
        ``/join/TOKEN``): the game, its seats, the seat, the name the
        invitation gave, and ``state``: ``open`` (the seat waits for them),
        ``joined`` (the seat is held), ``withdrawn`` (the token names an
        invitation the seat no longer has), ``expired`` or ``started``."""
        meta = self._meta(game_id)
        invitation = self.store.invitation(game_id, seat)
        seats = self.store.seats(game_id)
        current = invitation is not None and invitation.get("nonce", "") == nonce
        if not current:
            state = "withdrawn"
        elif seat in seats:
            state = "joined"
        elif meta["status"] != "open":
            state = "started"
        elif not invitation_live(invitation):
            state = "expired"
        else:
            state = "open"
        return {"game": game_id, "kind": meta["game"], "title": meta["title"], "players": meta["players"],
                "seat": seat, "state": state, "name": invitation.get("name") if current else None,
                "expires": invitation.get("expires") if current else None,
                "seats": self.seat_rows(game_id, meta["players"], meta["status"], seats, meta)}

    def roster(self, game_id: str) -> dict:
        """The game's type and its seats' names by seat (None: free): public,
        and cheaper than ``get_game`` for a page that only labels a picture."""
        meta = self._meta(game_id)
        seats = self.store.seats(game_id)
        return {"game": meta["game"], "status": meta["status"],
                "names": [seats[s]["name"] if s in seats else None for s in range(meta["players"])]}

    def get_game(self, game_id: str, token: str | None, whole: bool = False, board: bool = True) -> dict:
        loaded = self.load(game_id)
        return self.summary(loaded, self.viewer(game_id, token), whole, board)

    def seat_view(self, game_id: str, seat: int, token: str | None, whole: bool = False) -> dict:
        viewer = self.seat_viewer(game_id, seat, token)
        return self.summary(self.load(game_id), viewer, whole)

    def legal_moves(self, game_id: str, token: str | None) -> dict:
        viewer = self.viewer(game_id, token)
        if viewer is SPECTATOR:
            raise Unauthorized("missing_token", _("legal moves are listed for a seat: send its bearer token"))
        loaded = self.load(game_id)
        game = loaded.game
        acting = loaded.meta["status"] == "active" and viewer in game.to_act(loaded.state)
        moves = game.legal_moves(loaded.state, viewer) if acting else []
        names = self.seat_names(game_id, loaded.meta["players"]) if moves else None
        return {"version": loaded.version, "seat": viewer, "to_act": acting,
                "moves": [{"move": m, "text": game.describe(m, viewer, names)} for m in moves]}

    def parse(self, game_id: str, token: str | None, text: str) -> dict:
        viewer = self.viewer(game_id, token)
        if viewer is SPECTATOR:
            raise Unauthorized("missing_token", _("moves are parsed for a seat: send its bearer token"))
        loaded = self.load(game_id)
        names = self.seat_names(game_id, loaded.meta["players"])
        try:
            # the takeback words (takeback, accept, refuse) above every game's notation
            move = takeback.parse(text) or handover.parse(text) or loaded.game.parse(text, loaded.state, viewer,
                                                                                     names)
        except GameError as err:
            raise Unprocessable(err.code, err.message, **err.details) from None
        return {"move": move, "text": takeback.describe_item(loaded.game, move, viewer, names),
                "version": loaded.version}

    def events(self, game_id: str, token: str | None, after: int = 0, limit: int = 100) -> dict:
        meta = self._meta(game_id)
        viewer = self.viewer(game_id, token)
        rows = self.store.events(game_id, after, None, limit)
        names = self.seat_names(game_id, meta["players"]) if rows else None
        items = shown_events(game_of(meta), viewer, meta.get("status") == "finished", rows, names)
        return {"version": meta["version"], "events": items,
                "next_after": rows[-1][0] if rows and rows[-1][0] < meta["version"] else None}

    def state_at(self, game_id: str, token: str | None, version: int) -> dict:
        """The game as it was at ``version``, as the caller may see it (the
        game's filter for the caller's seat; everything once the game is
        over): its view and text board, who was to act, and, for the pages,
        the moment's ``status`` (``active`` until the last version of a
        finished game), ``active`` seat and ``result``."""
        viewer = self.viewer(game_id, token)
        meta = self._meta(game_id)
        loaded = self.load(game_id, version, meta)
        seen = OMNISCIENT if meta.get("status") == "finished" else viewer
        game = loaded.game
        names = self.seat_names(game_id, meta["players"])
        last = version == int(meta["version"])
        result = game.result(loaded.state)
        result = result.as_dict() if result else (meta.get("result") if last else None)  # a forfeit: the server's
        status = meta["status"] if last else "finished" if result else "active"
        return {"version": version, "to_act": sorted(game.to_act(loaded.state)),
                "view": game.view(loaded.state, seen), "text": game.render(loaded.state, seen, names),
                "status": status, "active": game.active_seat(loaded.state) if status == "active" else None,
                "result": result}

    def move_status(self, game_id: str, move_id: str, token: str | None = None, wait: float = 0) -> dict:
        """A move's outcome (optionally waiting for it to settle), for anyone
        who may see the game; its envelope as the caller may see it."""
        meta = self._meta(game_id)
        viewer = self.viewer(game_id, token)
        record = (self.store.wait_settled(game_id, move_id, wait) if wait > 0
                  else self.store.move(game_id, move_id, durable=True))
        if record is None:
            raise NotFound("unknown_move_id", _("no move {move} in game {game}", move=repr(move_id), game=game_id))
        return self._shown_record(meta, record, viewer)

    def wait_submitted(self, game_id: str, record: dict, wait: float) -> dict:
        """The outcome of a move just submitted, waiting up to ``wait`` s."""
        # The caller sent this envelope: showing it back to them hides nothing.
        return self.store.wait_settled(game_id, record["id"], wait, queued=record)

    #: What a withheld move's record keeps: that it exists and how it ended,
    #: not who sent it, how, what it was, or why it was refused.
    WITHHELD_KEEPS = ("id", "status", "submitted", "settled", "version_before", "version")

    def _shown_record(self, meta: dict, record: dict, viewer, events: list | None = None) -> dict:
        """A move's record as ``viewer`` may see it: whole, or with its
        envelope withheld, as the game's ``redact_move`` says (from the
        events the move made, read here when the caller has not). The
        mover sees their own move, and a finished game hides nothing."""
        envelope = record.get("envelope")
        if not envelope or meta.get("status") == "finished" or envelope.get("player") == viewer:
            return record
        game = games.get(meta["game"], int(meta["rules_version"]))
        if events is None and record.get("status") == "applied" and game.filters_moves:
            rows = self.store.events(meta["id"], record["version_before"], record["version"])
            events = [event for _version, event, move_id in rows if move_id == record["id"]]
        if game.redact_move(envelope["move"], envelope["player"], viewer, events) is not None:
            return record
        return {k: record[k] for k in self.WITHHELD_KEEPS if k in record} | {"envelope_withheld": True}
