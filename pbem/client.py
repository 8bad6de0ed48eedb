"""A small Python client for the pbem API: what the ``pbem`` command, bots
and the tests use.

    from pbem.client import Client, generate_key
    private, public = generate_key()
    c = Client("http://127.0.0.1:8000")                  # lang="zh-Hant": texts in Chinese
    game = c.create_game("wakanda", players=2)
    seat = c.join(game["id"], 0, public, "Ann")          # keeps the seat's token
    c.move(game["id"], {"type": "claim", "village": 1}, private, seat=0, wait=5)
    for ev in c.stream(game["id"], seat=0):               # the live event stream
        if ev.event == "end":
            break
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterator

import requests

from .trust.signing import generate_key, join_proof, make_envelope, public_key_of, token_request  # noqa: F401  (re-exported)


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, details: dict | None = None):
        self.status, self.code, self.message, self.details = status, code, message, details or {}
        super().__init__(f"{status} {code}: {message}")


@dataclass
class Client:
    base_url: str
    tokens: dict = field(default_factory=dict)  # (game, seat) -> bearer token
    creator_tokens: dict = field(default_factory=dict)  # game -> the creator's token
    timeout: float = 30.0
    session: requests.Session = field(default_factory=requests.Session)
    #: The language to read the server's texts in (``en``, ``zh-Hant``):
    #: sent as ``Accept-Language`` on every request, and as the ``lang`` of
    #: a game created and a seat joined (unless they are given another).
    #: A seat's own language still wins for what its token reads.
    lang: str | None = None

    def _call(self, method: str, path: str, token: str | None = None, raw: bool = False, **kw) -> Any:
        headers = kw.pop("headers", {})
        if self.lang:
            headers.setdefault("Accept-Language", self.lang)
        if token:
            headers["Authorization"] = f"Bearer {token}"
        resp = self.session.request(method, self.base_url.rstrip("/") + path, headers=headers,
                                    timeout=self.timeout, **kw)
        if resp.status_code >= 400:
            try:
                err = resp.json()["error"]
            except Exception:
                raise ApiError(resp.status_code, "http_error", resp.text[:200]) from None
            raise ApiError(resp.status_code, err["code"], err["message"], err.get("details"))
        return resp if raw else resp.json()

    def token(self, game_id: str, seat: int | None) -> str | None:
        return self.tokens.get((game_id, seat)) if seat is not None else None

    # -- games ---------------------------------------------------------------

    def game_types(self) -> list[dict]:
        return self._call("GET", "/game-types")["games"]

    def create_game(self, game: str, players: int, options: dict | None = None, title: str = "",
                    invitations: list[dict] | None = None, *, invite: list[dict] | None = None,
                    lang: str | None = None, open: bool = False, bots: dict | None = None) -> dict:
        """Create a game (keeps its creator token), optionally inviting
        ``[{"email", "seat"?, "name"?, "lang"?, "tz"?}]`` in the same call
        (``invite``: the old name of ``invitations``). ``lang``: the game's
        language (default: the client's). ``open``: opened to anyone
        (listed by GET /games and on the lobby page)."""
        body = {"game": game, "players": players, "options": options or {}, "title": title}
        if open:
            body["open"] = True
        if lang or self.lang:
            body["lang"] = lang or self.lang
        if invitations or invite:
            body["invitations"] = invitations or invite
        if bots:
            body["bots"] = {str(seat): level for seat, level in bots.items()}  # the server's bots: {seat: level}
        out = self._call("POST", "/games", json=body)
        if out.get("creator_token"):
            self.creator_tokens[out["id"]] = out["creator_token"]
        return out

    def _inviter(self, game_id: str, token: str | None) -> str | None:
        return token or self.creator_tokens.get(game_id) or next(
            (t for (g, _), t in self.tokens.items() if g == game_id), None)

    def invite(self, game_id: str, invitations: list[dict], token: str | None = None) -> dict:
        """Invite seats by email (``[{"email", "seat"?, "name"?}]``), as the
        game's creator (or with ``token``, any seat's token)."""
        return self._call("POST", f"/games/{game_id}/invitations", token=self._inviter(game_id, token),
                          json={"invitations": invitations})

    def withdraw_invitation(self, game_id: str, seat: int, token: str | None = None) -> dict:
        """Withdraw a seat's invitation (the game's creator only)."""
        return self._call("DELETE", f"/games/{game_id}/invitations/{seat}",
                          token=token or self.creator_tokens.get(game_id))

    def list_games(self, status: str | None = None, player: str | None = None) -> list[dict]:
        params = {k: v for k, v in (("status", status), ("player", player)) if v}
        return self._call("GET", "/games", params=params or None)["games"]

    def join(self, game_id: str, seat: int, public_key: str | None, name: str, email: str | None = None,
             webhook_url: str | None = None, *, private_key: str | None = None,
             invitation: str | None = None, lang: str | None = None, tz: str | None = None) -> dict:
        """Take a seat. With ``private_key`` the join is signed (its public
        key is ``public_key``'s, which may then be None): sent again after a
        lost answer it answers again, with a new token. ``invitation``: the
        token of the seat's invitation (a seat kept for it). ``lang`` and
        ``tz``: the seat's language (default: the client's) and time zone."""
        if private_key is not None:
            public_key = public_key_of(private_key)
        body = {"public_key": public_key, "name": name}
        if email:
            body["email"] = email
        if webhook_url:
            body["webhook_url"] = webhook_url
        if invitation:
            body["invitation"] = invitation
        if lang or self.lang:
            body["lang"] = lang or self.lang
        if tz:
            body["tz"] = tz
        if private_key is not None:
            body["proof"] = join_proof(game_id, seat, private_key)
        out = self._call("POST", f"/games/{game_id}/seats/{seat}", json=body)
        self.tokens[(game_id, seat)] = out["token"]
        return out

    def set_language(self, game_id: str, seat: int, lang: str | None = None, tz: str | None = None) -> dict:
        """Change a seat's language and/or time zone (with that seat's token)."""
        body = {k: v for k, v in (("lang", lang), ("tz", tz)) if v is not None}
        return self._call("PATCH", f"/games/{game_id}/seats/{seat}", token=self.token(game_id, seat), json=body)

    def seat_token(self, game_id: str, seat: int, private_key: str) -> dict:
        """A new bearer token for a seat this key holds (the old one stops
        working): a signed request, each one answered once."""
        out = self._call("POST", f"/games/{game_id}/seats/{seat}/token",
                         json=token_request(game_id, seat, private_key))
        self.tokens[(game_id, seat)] = out["token"]
        return out

    def game(self, game_id: str, seat: int | None = None, whole: bool = False) -> dict:
        """The game as ``seat`` sees it (``whole``: all of the text board)."""
        return self._call("GET", f"/games/{game_id}", token=self.token(game_id, seat),
                          params={"board": "whole"} if whole else None)

    def seat_view(self, game_id: str, seat: int) -> dict:
        """A seat's private view (its token only)."""
        return self._call("GET", f"/games/{game_id}/seats/{seat}/view", token=self.token(game_id, seat))

    def legal_moves(self, game_id: str, seat: int) -> dict:
        return self._call("GET", f"/games/{game_id}/legal-moves", token=self.token(game_id, seat))

    def parse(self, game_id: str, seat: int, text: str) -> dict:
        return self._call("POST", f"/games/{game_id}/parse", token=self.token(game_id, seat), json={"text": text})

    def events(self, game_id: str, seat: int | None = None, after: int = 0, limit: int = 100) -> dict:
        return self._call("GET", f"/games/{game_id}/events", token=self.token(game_id, seat),
                          params={"after": after, "limit": limit})

    def state_at(self, game_id: str, version: int, seat: int | None = None) -> dict:
        return self._call("GET", f"/games/{game_id}/states/{version}", token=self.token(game_id, seat))

    def record(self, game_id: str, seat: int | None = None) -> str:
        return self._call("GET", f"/games/{game_id}/record", token=self.token(game_id, seat), raw=True).text

    # -- moves ---------------------------------------------------------------

    def submit(self, envelope: dict, wait: float = 0) -> dict:
        headers = {"Prefer": f"wait={wait:g}"} if wait else {}
        return self._call("POST", f"/games/{envelope['game']}/moves", json=envelope, headers=headers)

    def move(self, game_id: str, move: dict, private_key: str, seat: int,
             expected_version: int | None = None, wait: float = 10) -> dict:
        """Sign and submit a move at the current version; wait for its outcome."""
        if expected_version is None:
            expected_version = self.game(game_id, seat)["version"]
        envelope = make_envelope(game_id, seat, expected_version, move, private_key)
        return self.submit(envelope, wait=wait)

    def stream(self, game_id: str, seat: int | None = None, after: int | None = None,
               last_event_id: str | int | None = None, timeout: float = 60, comments: bool = False) -> EventStream:
        """The game's live event stream, as this seat (or a spectator) sees
        it: events after ``after`` (or ``last_event_id``), then each new one,
        then ``end``. ``timeout``: the longest silence tolerated (a stream
        sends a keep-alive every 15 s)."""
        return open_stream(self.session, f"{self.base_url.rstrip('/')}/games/{game_id}/events/stream",
                           self.token(game_id, seat), after, last_event_id, timeout=timeout, comments=comments,
                           lang=self.lang)

    def move_status(self, game_id: str, move_id: str, seat: int | None = None, wait: int = 0) -> dict:
        """A move's status; its envelope only if this seat (or anyone) may see it."""
        return self._call("GET", f"/games/{game_id}/moves/{move_id}", self.token(game_id, seat),
                          params={"wait": wait})

    # -- the operator's (PBEM_ADMIN_TOKEN) ------------------------------------

    def admin_game(self, token: str, game_id: str) -> dict:
        """A game's queue: moves and notices waiting, deadlines, failed deliveries."""
        return self._call("GET", f"/admin/games/{game_id}", token=token)

    def admin_abandon(self, token: str, game_id: str, why: str = "") -> dict:
        return self._call("POST", f"/admin/games/{game_id}/abandon", token=token, json={"why": why})

    def admin_delete(self, token: str, game_id: str) -> dict:
        return self._call("DELETE", f"/admin/games/{game_id}", token=token)

    def admin_compact(self, token: str, game_id: str) -> dict:
        return self._call("POST", f"/admin/games/{game_id}/compact", token=token)

    def admin_deliveries(self, token: str, game_id: str | None = None, kind: str | None = None,
                         limit: int = 100) -> list[dict]:
        params = {"limit": limit, **({"game": game_id} if game_id else {}), **({"kind": kind} if kind else {})}
        return self._call("GET", "/admin/deliveries", token=token, params=params)["deliveries"]

    def admin_retry(self, token: str, failure_id: str) -> dict:
        return self._call("POST", f"/admin/deliveries/{failure_id}/retry", token=token)

    def admin_sweep(self, token: str) -> dict:
        return self._call("POST", "/admin/sweep", token=token)


@dataclass(frozen=True)
class SseEvent:
    """One server-sent event: ``event`` is ``event`` (``data`` an item of
    ``GET /games/{id}/events``), ``end`` (the game is over), or ``comment``
    (a keep-alive, with ``comments=True``)."""

    event: str
    id: str | None
    data: Any
    comment: str | None = None


class EventStream:
    """An open ``GET /games/{id}/events/stream``; iterate for its events."""

    def __init__(self, resp: requests.Response, comments: bool = False):
        self.resp, self.comments = resp, comments
        self.last_id: str | None = None

    def __iter__(self) -> Iterator[SseEvent]:
        name, data, event_id = "", [], None
        # chunk_size=None: each chunk as it arrives (an event is not held
        # back waiting for a buffer to fill).
        for raw in self.resp.iter_lines(chunk_size=None):
            line = raw.decode("utf-8")
            if not line:
                if data:
                    if event_id is not None:
                        self.last_id = event_id
                    yield SseEvent(name or "message", event_id, json.loads("\n".join(data)))
                name, data, event_id = "", [], None
                continue
            field_name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field_name == "":
                if self.comments:
                    yield SseEvent("comment", None, None, value)
            elif field_name == "event":
                name = value
            elif field_name == "data":
                data.append(value)
            elif field_name == "id":
                event_id = value

    def close(self) -> None:
        self.resp.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def open_stream(session: requests.Session, url: str, token: str | None = None, after: int | None = None,
                last_event_id: str | int | None = None, ticket: str | None = None, timeout: float = 60,
                comments: bool = False, lang: str | None = None, chat: int | None = None) -> EventStream:
    """Open an event stream at ``url`` (the API's path, which answers 307 to
    the stream process and turns a bearer token into a ticket, or the
    stream process's own URL); ``chat``: with the game's chat after that
    message number (ids then ``<version>:<n>``, docs/chat.md)."""
    headers = {"Accept": "text/event-stream"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    if lang:
        headers["Accept-Language"] = lang
    params = {k: v for k, v in (("after", after), ("ticket", ticket), ("chat", chat)) if v is not None}
    resp = session.get(url, headers=headers, params=params, stream=True, timeout=(5, timeout))
    if resp.status_code >= 400:
        try:
            err = resp.json()["error"]
        except Exception:
            raise ApiError(resp.status_code, "http_error", resp.text[:200]) from None
        finally:
            resp.close()
        raise ApiError(resp.status_code, err["code"], err["message"], err.get("details"))
    return EventStream(resp, comments)
