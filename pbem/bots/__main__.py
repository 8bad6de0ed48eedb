"""The bot process (``python -m pbem.bots``, run by ``make run``'s supervisor).

It plays the bot seats the server made when a game was created with
``bots``: it reads which games have them and each seat's key and token
(pbem/service/bots.py: kept where only this process reads them), then plays
each such game in a thread of its own through the public HTTP API
(pbem/bots/runner.py), exactly as ``pbem bot`` run by anyone would. A game
over leaves the list. Killed and restarted, it finds its games again.

A seat handed to a bot for a while (pbem/service/handovers.py) joins its
game's bot seats, and leaves them when its player takes it back: a game
whose bot seats change has its thread stopped and started again with them.
Each round also makes the seats of the games with handovers say what their
logs say (a worker killed between a handover's append and that is caught up).
"""
from __future__ import annotations

import logging
import signal
import threading

from ..client import Client
from ..service import Service
from ..store import Store
from ..service import bots as bot_seats
from ..service.handovers import HANDOVER_GAMES
from ..settings.config import check_environment, settings as load_settings
from ..store.connections import connect
from ..telemetry import logs
from .runner import BotSeat, play_game

log = logging.getLogger("pbem.bots")

#: How often the list of games with bot seats is read again.
SCAN_S = 1.0


def api_url(conf) -> str:
    """The API on this machine (a bot needs no public address)."""
    host = conf.host if conf.host not in ("0.0.0.0", "::", "") else "127.0.0.1"
    return f"http://{host}:{conf.port}"


def play_one(redis, base: str, game_id: str, stop: threading.Event) -> None:
    credentials = bot_seats.bot_credentials(redis, game_id)
    if not credentials:
        bot_seats.forget_game(redis, game_id)
        return
    bots = [BotSeat(seat, c["private_key"], c["level"], c.get("token")) for seat, c in sorted(credentials.items())]
    try:
        summary = play_game(Client(base), game_id, bots, seed=game_id, stop=stop)
    except Exception as err:  # noqa: BLE001  (one game's trouble never stops the others; looked at again soon)
        log.warning("pbem bots: game %s: %s", game_id, err)
        stop.wait(SCAN_S)
        return
    if summary["status"] == "finished":
        bot_seats.forget_game(redis, game_id)


def main() -> None:
    check_environment("pbem-bots")
    logs.setup("bots", logging.WARNING)
    conf = load_settings()
    redis = connect(conf.redis_url)
    base = api_url(conf)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    playing: dict[str, threading.Thread] = {}
    stops: dict[str, threading.Event] = {}  # each game's own: set when its bot seats change
    seen: dict[str, list] = {}  # each game's bot seats as its thread started with them
    # The server's side of bots: only to seat bots in open games whose
    # wait (``bots_after_s``) is over; the seats are then played over HTTP.
    service = Service(Store(redis))
    while not stop.is_set():
        try:
            bot_seats.fill_due(service)
            for game_id in sorted(g.decode() for g in redis.smembers(HANDOVER_GAMES)):
                service.reconcile_handovers(game_id)
            for game_id in bot_seats.bot_games(redis):
                now = sorted(bot_seats.bot_credentials(redis, game_id))
                if game_id in playing and playing[game_id].is_alive() and seen.get(game_id) != now:
                    stops[game_id].set()  # a seat handed over or taken back: started again with its seats
                    continue
                if game_id not in playing or not playing[game_id].is_alive():
                    stops[game_id], seen[game_id] = threading.Event(), now
                    playing[game_id] = threading.Thread(target=play_one, args=(redis, base, game_id, stops[game_id]),
                                                        name=f"bot-{game_id}", daemon=True)
                    playing[game_id].start()
            for game_id in [g for g, t in playing.items() if not t.is_alive()]:
                del playing[game_id]
                stops.pop(game_id, None)
        except Exception as err:  # noqa: BLE001  (Redis away: try again)
            log.warning("pbem bots: %s", err)
        stop.wait(SCAN_S)
    for game_stop in stops.values():
        game_stop.set()


if __name__ == "__main__":
    main()
