"""Plays bot seats through the public HTTP API, as any third party could.

A seat is played with what its holder has: its Ed25519 key (a fresh bearer
token comes from a signed token request when it has none, or its token
stopped working), its token to read the seat's view and legal moves, and
signed envelopes for its moves (sent with ``Prefer: wait``). Between turns it
listens to the game's event stream: a new event is the cue to look whether
one of its seats must act. The move itself is chosen by ``pbem.bots.choose``
from the seat's view and legal moves only.

``play_game`` is what ``pbem bot`` (pbem/cli.py) runs for the seats given on
its command line; the bot process (``python -m pbem.bots``, pbem/bots/__main__.py)
runs it in a thread per game for the bot seats the server made.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field

import requests

from . import choose
from ..client import ApiError, Client

log = logging.getLogger("pbem.bots")

#: The longest a bot waits on the event stream before it looks again anyway
#: (a stream lost without an error, a move the stream did not show it).
LISTEN_S = 20.0
#: How long a move is waited for (``Prefer: wait``).
MOVE_WAIT_S = 10.0
#: Rejected moves in a row at one version before a bot gives up on a game
#: (a bug: the bot process's loop tries the game again a second later).
MAX_REJECTED = 5


@dataclass
class BotSeat:
    seat: int
    private_key: str
    level: str = "random"
    token: str | None = None
    #: Moves the server rejected at the version it was last asked at: the
    #: next choice is made with another seed (never the same refusal forever).
    rejected: int = 0
    rejected_at: int = -1
    #: The game's events as this seat reads them, for the games whose state a
    #: view alone cannot rebuild (Carcassonne's expansions: pbem/bots/determinize),
    #: read once each, in pages, as the game goes on.
    events: list = field(default_factory=list)
    events_after: int = 0


def game_key(summary: dict) -> str:
    """The registered game key ``choose`` takes: ``wakanda`` or ``wakanda@2``."""
    version = summary.get("rules_version") or 1
    return summary["game"] if int(version) == 1 else f"{summary['game']}@{version}"


def _token(client: Client, game_id: str, bot: BotSeat) -> None:
    if bot.token:
        client.tokens[(game_id, bot.seat)] = bot.token
    else:
        bot.token = client.seat_token(game_id, bot.seat, bot.private_key)["token"]


def play_turn(client: Client, game_id: str, summary: dict, bot: BotSeat, seed: int | str, budget_s: float) -> bool:
    """One move for ``bot`` if it must act now; whether it moved."""
    try:
        legal = client.legal_moves(game_id, bot.seat)
    except ApiError as err:
        if err.code != "bad_token":
            raise
        bot.token = None  # its token was replaced (a signed join or token request elsewhere)
        _token(client, game_id, bot)
        legal = client.legal_moves(game_id, bot.seat)
    if not legal["to_act"] or not legal["moves"]:
        return False
    view = client.seat_view(game_id, bot.seat)
    moves = [item["move"] for item in legal["moves"]]
    if bot.rejected_at != legal["version"]:
        bot.rejected, bot.rejected_at = 0, legal["version"]
    if bot.rejected >= MAX_REJECTED:
        raise RuntimeError(f"seat {bot.seat} of {game_id}: {bot.rejected} moves rejected at version {legal['version']}")
    options = summary.get("options") or {}
    events = _events(client, game_id, bot) if needs_events(game_key(summary), options) else None
    move = choose(game_key(summary), options, summary["players"], bot.seat, view.get("view"),
                  moves, bot.level, f"{seed}:{legal['version']}:{bot.rejected}", budget_s, events=events)
    try:
        out = client.move(game_id, move, bot.private_key, bot.seat, expected_version=legal["version"],
                          wait=MOVE_WAIT_S)
    except ApiError as err:
        if err.code in ("stale_version", "busy", "game_over", "game_not_started"):
            return False  # someone moved first: look again
        raise
    if out.get("status") == "rejected":
        bot.rejected += 1
        log.warning("pbem bot: seat %d of %s: move rejected: %s", bot.seat, game_id, out.get("error"))
    return True


def needs_events(game: str, options: dict) -> bool:
    """Whether ``choose`` needs the public log to think: Carcassonne with an
    expansion, whose extra state no view carries (docs/bots.md)."""
    return game.split("@")[0] == "carcassonne" and bool(options.get("expansions"))


def _events(client: Client, game_id: str, bot: BotSeat) -> list:
    """The game's events as the seat reads them, the new ones read now."""
    while True:
        page = client.events(game_id, bot.seat, after=bot.events_after, limit=500)
        for item in page.get("events") or []:
            bot.events.append(item["event"])
            bot.events_after = item["version"]
        if page.get("next_after") is None:
            return bot.events


def play_game(client: Client, game_id: str, bots: list[BotSeat], seed: int | str = 0, budget_s: float = 2.0,
              stop: threading.Event | None = None, listen_s: float = LISTEN_S) -> dict:
    """Play ``bots``' seats of a game until it is over (or ``stop`` is set);
    the game's last summary."""
    stop = stop or threading.Event()
    for bot in bots:
        _token(client, game_id, bot)
    while not stop.is_set():
        summary = client.game(game_id, bots[0].seat)
        if summary["status"] == "finished":
            return summary
        moved = False
        if summary["status"] == "active":
            for bot in bots:
                if bot.seat in summary["to_act"]:
                    moved = play_turn(client, game_id, summary, bot, seed, budget_s) or moved
        if not moved:
            wait_for_news(client, game_id, bots[0].seat, summary["version"], listen_s, stop)
    return client.game(game_id, bots[0].seat)


def wait_for_news(client: Client, game_id: str, seat: int, version: int, listen_s: float,
                  stop: threading.Event) -> None:
    """Until the game's next event after ``version`` (or ``listen_s``)."""
    deadline = time.monotonic() + listen_s
    try:
        with client.stream(game_id, seat, after=version, timeout=min(listen_s, 16.0)) as stream:
            for ev in stream:
                if ev.event in ("event", "end") or stop.is_set() or time.monotonic() > deadline:
                    return
    except (requests.RequestException, ApiError) as err:
        # No stream (the stream process restarting): wait a little, look again.
        log.info("pbem bot: no event stream for %s (%s)", game_id, err)
        stop.wait(min(1.0, listen_s))
