"""Bots through a real server (``python -m pbem.server.run``, its bot process
under the supervisor): every game played to its end by bots alone; a third
party's bot (pbem/bots/runner.py, only a key and the public API) against a
server bot, then the ratings that game gives, by the API and
rebuilt offline from the records; bad input."""
from __future__ import annotations

import json
import time

import pytest
import redis
import requests

from pbem import bots
from pbem.api.record_schemas import RecordHeader
from pbem.bots.runner import BotSeat, play_game
from pbem.client import ApiError, Client
from pbem.errors import Unprocessable
from pbem.ratings import ANCHOR_MU, ANCHOR_SIGMA, parse_record, rate
from pbem.service import bots as bot_seats
from pbem.trust.record import verify_lines
from pbem.trust.signing import generate_key

from .run_support import bot_server

#: (game, players, options): small games, so each is quick.
GAMES = [("wakanda", 2, {}), ("kachina", 2, {}), ("carcassonne", 2, {}), ("cartoona", 2, {"mode": "basic"})]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from bot_server(tmp_path_factory, "bots")


def wait_finished(client: Client, game_id: str, timeout: float = 90) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game = client.game(game_id)
        if game["status"] == "finished":
            return game
        time.sleep(0.1)
    raise AssertionError(f"{game_id} not finished in {timeout} s: {client.game(game_id)['version']}")


def test_the_service_knows_the_bots_levels():
    assert bot_seats.LEVELS == bots.LEVELS


@pytest.mark.parametrize("game,players,options", GAMES, ids=[g[0] for g in GAMES])
def test_bots_alone_play_a_whole_game(server, game, players, options):
    c = Client(server.base)
    created = c.create_game(game, players, options, bots={seat: "random" for seat in range(players)}, open=True)
    assert created["status"] == "active"  # every seat a bot: dealt at once
    assert [(s["name"], s["bot"]) for s in created["seats"]] == [("Bot (random)", "random")] * players
    final = wait_finished(c, created["id"])
    assert final["result"]["placings"]
    record = c.record(created["id"])
    report = verify_lines(record.splitlines())
    assert report.ok and report.seed_checked and report.signatures_checked > 0, report.problems
    header = json.loads(record.splitlines()[0])
    assert [(s["bot"], s["rated_as"]) for s in header["seats"]] == [("random", "bot:random")] * players
    RecordHeader().load(header)  # as the record's schema documents it
    # Every move signed by the seat's own key (ed25519), none an internal shortcut.
    steps = [json.loads(line) for line in record.splitlines()[1:] if "move_id" in line]
    assert {s["auth"] for s in steps} <= {"setup", "ed25519"} and any(s["auth"] == "ed25519" for s in steps)


def test_a_third_partys_bot_against_a_server_bot_and_the_ratings(server, tmp_path):
    c = Client(server.base)
    created = c.create_game("wakanda", 2, bots={1: "random"}, open=True)
    assert created["status"] == "open" and created["seats"][1]["bot"] == "random"
    private, public = generate_key()
    c.join(created["id"], 0, public, "Ann")
    # The third party's program: its key, a fresh token from a signed
    # request, the seat's view and legal moves, signed moves, the stream.
    final = play_game(Client(server.base), created["id"], [BotSeat(0, private, "random")], seed=7)
    assert final["status"] == "finished"
    table = requests.get(f"{server.base}/ratings/wakanda", timeout=10).json()
    rows = {r["player"]: r for r in table["ratings"]}
    assert table["anchor"] == {"player": "bot:random", "mu": ANCHOR_MU, "sigma": ANCHOR_SIGMA}
    assert rows["bot:random"]["mu"] == ANCHOR_MU and rows["bot:random"]["sigma"] == ANCHOR_SIGMA
    assert rows["bot:random"]["bot"] == "random" and rows["bot:random"]["games"] >= 1
    ann = rows[f"key:{public}"]
    assert ann["name"] == "Ann" and ann["games"] == 1 and ann["sigma"] < 25 / 3
    won = final["result"]["placings"][0] == 1
    assert ann["wins"] == int(won) and (ann["mu"] > 25) == won
    # Bots-only games (one identity at two seats) are not rated.
    assert table["games_rated"] == 1
    # Offline: the same table from the finished games' records.
    finished = c.list_games("finished")
    records = [parse_record(c.record(g["id"])) for g in finished if g["game"] == "wakanda"]
    offline = rate(records)["wakanda"].as_dict()
    assert offline == table


@pytest.mark.parametrize("bots_asked,code", [
    ({"1": "genius"}, "unknown_bot_level"),
    ({"2": "random"}, "bad_bot_seat"),
    ({"x": "random"}, "bad_bot_seat"),
])
def test_bad_bot_seats_are_refused_and_nothing_is_stored(server, bots_asked, code):
    c = Client(server.base)
    store = redis.Redis(port=server.redis_port)
    # The games with any key stored (not the keys: the last test's finished game may still get its
    # snapshot or its pictures from the background worker meanwhile).
    games_stored = lambda: {k.split(b"}", 1)[0] for k in store.scan_iter("pbem:{g:*}:*")}  # noqa: E731
    before = games_stored()
    with pytest.raises(ApiError) as err:
        c._call("POST", "/games", json={"game": "wakanda", "players": 2, "bots": bots_asked})
    assert (err.value.status, err.value.code) == (422, code) and err.value.message
    assert games_stored() == before


def test_a_bot_seat_cannot_also_be_invited(server):
    c = Client(server.base)
    with pytest.raises(ApiError) as err:
        c.create_game("wakanda", 2, invitations=[{"email": "bo@example.test", "seat": 1}], bots={1: "random"})
    assert (err.value.status, err.value.code) == (422, "bad_bot_seat")


def test_a_game_type_without_bots_is_refused():
    with pytest.raises(Unprocessable) as err:
        bot_seats.check_bots("chess", 2, {"1": "random"})
    assert err.value.code == "no_bots"


def test_the_ratings_of_an_unknown_game_type(server):
    resp = requests.get(f"{server.base}/ratings/chess", timeout=10)
    assert resp.status_code == 404 and resp.json()["error"]["code"] == "unknown_game_type"


def test_the_bot_process_killed_is_restarted_and_plays_on(server):
    import os
    import signal

    c = Client(server.base)
    created = c.create_game("carcassonne", 2, bots={0: "random", 1: "random"})
    deadline = time.monotonic() + 30
    while c.game(created["id"])["version"] < 20:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    before = server.children()["bots"]
    os.kill(before[0], signal.SIGKILL)
    final = wait_finished(c, created["id"])
    assert final["result"]["placings"]
    after = server.children()["bots"]
    assert len(after) == 1 and after[0] != before[0]


def test_pbem_bot_plays_a_seat_from_the_terminal_and_the_ratings_rebuild_offline(server, tmp_path):
    import subprocess
    import sys

    from .conftest import ROOT
    from .test_cli import run

    c = Client(server.base)
    game_id = c.create_game("kachina", 2, bots={1: "random"}, open=True)["id"]
    home = tmp_path / "cy"
    assert run(home, server.base, "keygen")[0] == 0
    assert run(home, server.base, "join", game_id, "0", "--name", "Cy")[0] == 0
    code, out = run(home, server.base, "bot", game_id, "--seat", "0", "--level", "random", "--seed", "3")
    assert code == 0 and "a random bot plays seat(s) 0 of " + game_id in out and "result: " in out, out
    assert c.game(game_id)["status"] == "finished"
    # The server's table, and the same rebuilt offline from the records by anyone.
    table = requests.get(f"{server.base}/ratings/kachina", timeout=10).json()
    assert {r["name"] for r in table["ratings"]} == {"Cy", "Bot (random)"} and table["games_rated"] == 1
    files = []
    for g in c.list_games("finished"):
        path = tmp_path / f"{g['id']}.jsonl"
        path.write_text(c.record(g["id"]))
        files.append(str(path))
    done = subprocess.run([sys.executable, "-m", "pbem.ratings", "rebuild", *files], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["kachina"] == table


def test_bots_fill_the_empty_seats_of_an_open_game_after_its_wait(server):
    c = Client(server.base)
    created = c._call("POST", "/games", json={"game": "wakanda", "players": 2, "open": True, "bots_after_s": 60,
                                              "bots_level": "random"})
    private, public = generate_key()
    c.join(created["id"], 0, public, "Dee")
    store = redis.Redis(port=server.redis_port)
    due = store.zscore(bot_seats.FILL, created["id"])
    assert due is not None and due - time.time() > 50  # a minute from its creation
    assert c.game(created["id"])["status"] == "open"
    store.zadd(bot_seats.FILL, {created["id"]: time.time()})  # the wait is over now (the test's clock)
    deadline = time.monotonic() + 15
    while c.game(created["id"])["status"] == "open":
        assert time.monotonic() < deadline, "no bot took the free seat"
        time.sleep(0.05)
    seats = c.game(created["id"])["seats"]
    assert [(s["name"], s["bot"]) for s in seats] == [("Dee", None), ("Bot (random)", "random")]  # the level asked
    while store.zscore(bot_seats.FILL, created["id"]) is not None or store.hget(bot_seats.FILL_LEVELS, created["id"]):
        # its wait and level done with (after the seat is taken)
        assert time.monotonic() < deadline
        time.sleep(0.05)
    # and the bot plays its seat: Dee's bot (the runner) against it, to the end
    final = play_game(Client(server.base), created["id"], [BotSeat(0, private, "random")], seed=1)
    assert final["status"] == "finished"


def test_bots_for_free_seats_at_an_unknown_level_are_refused(server):
    store = redis.Redis(port=server.redis_port)

    def games_stored() -> set:  # the games with anything stored (others' keys may come and go meanwhile)
        return {k.split(b"}")[0] for k in store.scan_iter("pbem:{g:*}:meta")}
    before = (store.zcard(bot_seats.FILL), games_stored())
    with pytest.raises(ApiError) as err:
        Client(server.base)._call("POST", "/games", json={"game": "wakanda", "players": 2, "open": True,
                                                          "bots_after_s": 60, "bots_level": "genius"})
    assert (err.value.status, err.value.code) == (422, "unknown_bot_level")
    assert err.value.details["levels"] == list(bot_seats.LEVELS)
    assert (store.zcard(bot_seats.FILL), games_stored()) == before
    # the default level, when none is asked for
    assert bot_seats.fill_level(store, "no-such-game") == bot_seats.FILL_LEVEL == "greedy"


def test_a_seat_handed_to_a_bot_for_a_vacation_and_taken_back(server):
    """Ann hands her seat to a bot (Bob accepts, both by signed moves through
    the API); the bot process plays it with the bot's own key; Ann takes it
    back and finishes the game herself; the record verifies offline across
    the handover, the bot's moves signed by the key the log names."""
    from pbem.games import handover
    from pbem.trust import signing

    c = Client(server.base)
    game_id = c.create_game("wakanda", 2)["id"]
    (ann, ann_pub), (bob, bob_pub) = generate_key(), generate_key()
    c.join(game_id, 0, ann_pub, "Ann")
    c.join(game_id, 1, bob_pub, "Bob")
    assert c.move(game_id, {"handover": "request", "level": "random"}, ann, 0)["status"] == "applied"
    with pytest.raises(ApiError) as err:  # a second request while one waits
        c.move(game_id, {"handover": "request", "level": "greedy"}, bob, 1)
    assert (err.value.status, err.value.code) == (422, "handover_pending")
    assert c.move(game_id, {"handover": "accept"}, bob, 1)["status"] == "applied"
    seats = wait_handed(c, game_id, 0, "random")
    assert [(s["name"], s["bot"], s["handed_over"]) for s in seats] == [("Ann", None, "random"), ("Bob", None, None)]
    # Bob plays his turns; the bot process plays Ann's, until it has made two moves.
    deadline = time.monotonic() + 30

    def bot_moves() -> int:
        steps = [json.loads(line) for line in c.record(game_id).splitlines()[1:] if "move_id" in line]
        return sum(1 for s in steps if (s.get("envelope") or {}).get("player") == 0
                   and not handover.is_handover(s["envelope"]["move"]))
    while bot_moves() < 2:
        assert time.monotonic() < deadline, "the bot did not play Ann's seat"
        if 1 in c.game(game_id)["to_act"] and c.game(game_id)["status"] == "active":
            play_one_turn(c, game_id, 1, bob)
        time.sleep(0.05)
    assert c.move(game_id, {"handover": "return"}, ann, 0)["status"] == "applied"
    wait_handed(c, game_id, 0, None)
    store = redis.Redis(port=server.redis_port)
    assert 0 not in bot_seats.bot_credentials(store, game_id)
    final = play_game(Client(server.base), game_id, [BotSeat(0, ann, "random"), BotSeat(1, bob, "random")], seed=5)
    assert final["status"] == "finished"
    record = c.record(game_id)
    report = verify_lines(record.splitlines())
    assert report.ok and report.seed_checked, report.problems
    rows = [json.loads(line) for line in record.splitlines()]
    bot_key = next(e["bot_key"] for r in rows for e in r.get("events", ()) if e.get("type") == "SeatHandedOver")
    by_bot = [r for r in rows if (r.get("envelope") or {}).get("player") == 0 and r.get("auth") == "ed25519"
              and _verifies(signing, r["envelope"], bot_key)]
    assert len(by_bot) >= 2 and all(not handover.is_handover(r["envelope"]["move"]) for r in by_bot)
    kinds = [e["type"] for r in rows for e in r.get("events", ()) if handover.is_event(e)]
    assert kinds == ["HandoverRequested", "HandoverAnswered", "SeatHandedOver", "SeatTakenBack"]


def wait_handed(c: Client, game_id: str, seat: int, level) -> list:
    """The seats once ``seat`` shows ``handed_over: level`` (the seat's record
    follows the log's event a moment after the move's outcome is told)."""
    deadline = time.monotonic() + 10
    while (seats := c.game(game_id)["seats"])[seat]["handed_over"] != level:
        assert time.monotonic() < deadline, seats
        time.sleep(0.02)
    return seats


def _verifies(signing, envelope, key) -> bool:
    try:
        signing.verify(envelope, key)
        return True
    except signing.SignatureError:
        return False


def play_one_turn(c: Client, game_id: str, seat: int, private: str) -> None:
    """The seat's first legal move, signed by its key (its token, from its join, to read them)."""
    legal = c.legal_moves(game_id, seat)
    if legal["to_act"] and legal["moves"]:
        try:
            c.move(game_id, legal["moves"][0]["move"], private, seat, expected_version=legal["version"])
        except ApiError as err:
            if err.code not in ("stale_version", "not_your_turn"):
                raise


def test_greedy_bots_play_carcassonne_with_an_expansion_from_its_public_log(server):
    """A view alone cannot rebuild an expansion's state: the runner reads the
    public log for it (in pages) and a greedy bot thinks from that."""
    from pbem.bots import runner

    c = Client(server.base)
    options = {"expansions": ["inns_cathedrals"]}
    created = c.create_game("carcassonne", 2, options, bots={"0": "greedy", "1": "greedy"}, open=True)
    final = wait_finished(c, created["id"], timeout=150)
    assert final["result"]["placings"]
    assert runner.needs_events(runner.game_key(final), final["options"])
    assert not runner.needs_events("carcassonne", {}) and not runner.needs_events("wakanda", options)
    seat = runner.BotSeat(seat=0, private_key="")
    read = runner._events(c, created["id"], seat)
    assert len(read) == final["version"] > 200 and seat.events_after == final["version"]
    assert runner._events(c, created["id"], seat) is read and len(read) == final["version"]  # nothing read twice
