"""Who stole in secret is nobody's business but the thief's, through the
real server: real Redis, a real worker applying the moves and sending the
notices, the API and the pages over real HTTP, the stream process, a real
SMTP server and a real webhook receiver on loopback.

Two games with the same seed and the same moves up to a Cartoona bluff
theft (``cheat_cards``, ``allow_bluff_steal``), then the same tile taken by
one seat in one game and by another seat in the other: the victim, a third
seat and a spectator are shown the same bytes in both games (the game's id,
move ids, signatures and times aside) by every read path: the game and its
board, the events, every state, the record, the withheld move's status,
the stream, the game's page parts and picture, the next player's webhook
and turn mail. The thief is shown its own secret."""
from __future__ import annotations

import json
import re

from pbem.trust import signing
from pbem.client import Client
from pbem.games.base import SPECTATOR

from .conftest import wait_until
from .stream_support import Collector, stream_world  # noqa: F401  (a fixture)
from .test_notify_support import Receiver, notify_env, smtp  # noqa: F401  (fixtures)

OPTIONS = {"cheat_cards": True, "allow_bluff_steal": True}
NAMES = ["Ann", "Bob", "Cy", "Dee"]
KEYS = [signing.generate_key() for _ in NAMES]  # the same seats in both games
#: What differs between two games whatever happens in them: ids, times, signatures.
UNSTABLE = {"signature", "submitted", "settled", "created", "timestamp", "logged", "id_token"}


def stable(value, game_id: str) -> str:
    """``value`` as JSON without what differs between any two games."""
    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if k not in UNSTABLE}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v
    return words(json.dumps(strip(value), sort_keys=True), game_id)


def words(text: str, game_id: str) -> str:
    text = text.replace(game_id, "GAME")
    text = re.sub(r"\b[0-9a-f]{24}\b", "MOVE", text)                   # move ids hash the game's id
    text = re.sub(r"https?://[^\s\"'<>)]+", "URL", text)               # links carry per-game tokens
    text = re.sub(r"\b\d{4}-\d\d-\d\d[T ][\d:.]+(Z|[+-]\d\d:?\d\d)?", "TIME", text)
    text = re.sub(r"\bweb-[\w-]{16,}", "NONCE", text)                     # a page's form: a fresh nonce
    return re.sub(r"p(\d)\.g\d@", r"p\1@", text)                       # each game's mail addresses


class Branch:
    """One game: seated by HTTP (mail and, for some seats, webhooks), the
    same seed as the other, moves signed with fixed nonces."""

    def __init__(self, service, world, tag: int, hooks: Receiver):
        self.api = Client(world.api)
        self.world = world
        self.id = service.create_game("cartoona", len(NAMES), OPTIONS, seed=b"who-stole")["id"]
        self.tag = tag
        for seat, name in enumerate(NAMES):
            self.api.join(self.id, seat, KEYS[seat][1], name, email=f"p{seat}.g{tag}@example.test",
                          webhook_url=hooks.url)
        self.streams = {}
        self.nonce = 0

    def open_streams(self, viewers):
        for viewer in viewers:
            self.streams[viewer] = Collector(self.world.open(self.id, self.token(viewer)))

    def token(self, viewer):
        return None if viewer is SPECTATOR else self.api.tokens[(self.id, viewer)]

    def move(self, seat: int, move: dict) -> dict:
        version = self.api.game(self.id, seat)["version"]
        self.nonce += 1
        envelope = signing.make_envelope(self.id, seat, version, move, KEYS[seat][0], nonce=f"nonce-{self.nonce:04d}")
        out = self.api.submit(envelope, wait=10)
        assert out["status"] == "applied", out
        return out

    def get(self, path: str, viewer, **params):
        token = self.token(viewer)
        resp = self.api.session.get(f"{self.world.api}{path}", params=params,
                                    headers={"Authorization": f"Bearer {token}"} if token else {})
        assert resp.status_code == 200, (path, resp.text)
        return resp

    def seen_by(self, viewer, theft_id: str, version: int) -> dict:
        """Everything ``viewer`` is shown of this game, each read path apart."""
        g = f"/games/{self.id}"
        out = {
            "game": self.get(g, viewer).json(),
            "whole board": self.get(g, viewer, board="whole").json()["board"],
            "events": self.get(f"{g}/events", viewer, limit=1000).json(),
            "states": [self.get(f"{g}/states/{v}", viewer).json() for v in range(version + 1)],
            "record": [json.loads(line) for line in self.get(f"{g}/record", viewer).text.splitlines()],
            "theft's status": self.get(f"{g}/moves/{theft_id}", viewer).json(),
            "page": self.get(f"/g/{self.id}/live", viewer, log=1).json(),
            "picture": self.get(f"/g/{self.id}/v/{version}.svg", viewer).text,
            "stream": [ev.data for ev in self.streams[viewer].until(version) if ev.event == "event"],
        }
        if viewer is not SPECTATOR:
            out["legal moves"] = self.get(f"{g}/legal-moves", viewer).json()
        return {part: stable(value, self.id) for part, value in out.items()}


def hooks_of(receiver: Receiver, seat: int) -> list[dict]:
    payloads = [json.loads(r["body"])["data"] for r in receiver.requests]
    return sorted((p for p in payloads if p["seat"] == seat), key=lambda p: (p["game"]["version"], p["kind"]))


def mails_of(smtp, seat: int, tag: int) -> list[str]:
    out = []
    for msg in smtp.to(f"p{seat}.g{tag}@example.test"):
        text = msg.get_body(preferencelist=("plain",)).get_content()
        out.append(f"{msg['Subject']}\n{msg['X-Pbem-Kind']}\n{text}")
    return out


def test_nobody_but_the_thief_is_shown_who_stole(notify_env, stream_world, service, start_worker, smtp):
    start_worker()
    with Receiver([200]) as hooks_1, Receiver([200]) as hooks_2:
        branches = [Branch(service, stream_world, 1, hooks_1), Branch(service, stream_world, 2, hooks_2)]
        first = branches[0].api.game(branches[0].id)
        active = first["view"]["active"]
        victim, nxt = active, (active + 1) % 4
        thieves = [(active + 2) % 4, (active + 3) % 4]  # both free to act out of the active seat's turn
        outsiders = [victim, nxt, SPECTATOR]
        for branch in branches:
            branch.open_streams(outsiders)
        # the same tile placed in both games, a new creature of the active seat
        legal = branches[0].api.legal_moves(branches[0].id, active)["moves"]
        place = next(m["move"] for m in legal if m["move"]["type"] == "place_tile")
        theft = {"type": "cheat", "tile": place["tile"], "card": None}
        thefts = []
        for branch, thief in zip(branches, thieves):
            branch.move(active, place)
            assert theft in [m["move"] for m in branch.api.legal_moves(branch.id, thief)["moves"]]
            thefts.append(branch.move(thief, theft))
            branch.move(active, {"type": "end_turn"})  # the next seat's turn: a turn mail and a webhook
        version = branches[0].api.game(branches[0].id)["version"]
        assert branches[1].api.game(branches[1].id)["version"] == version

        # the thief sees its own secret (events, and the webhook after its move)
        for branch, thief, hooks in zip(branches, thieves, (hooks_1, hooks_2)):
            mine = [e["event"] for e in branch.api.events(branch.id, thief, limit=1000)["events"]
                    if e["event"]["type"] == "TileVanished"]
            assert mine == [{**mine[0], "secret": {"thief": thief, "card": None}, "to": [thief]}]
            told = wait_until(lambda: [e for p in hooks_of(hooks, thief) for e in p["events"]
                                       if e["event"]["type"] == "TileVanished"], timeout=20)
            assert told[0]["event"]["secret"]["thief"] == thief and "You took it" in told[0]["text"]
        # the next seat's webhook and turn mail have come, in both games
        for branch, hooks in zip(branches, (hooks_1, hooks_2)):
            wait_until(lambda: any(p["game"]["version"] == version for p in hooks_of(hooks, nxt)), timeout=20)
            wait_until(lambda: any("vanished" in m for m in mails_of(smtp, nxt, branch.tag)), timeout=20)

        # every outsider is shown the same bytes in both games, and nothing names the thief
        for viewer in outsiders:
            seen = [branch.seen_by(viewer, move["id"], version) for branch, move in zip(branches, thefts)]
            for part in seen[0]:
                assert seen[0][part] == seen[1][part], f"{part} tells viewer {viewer} who stole"
            vanished = [e["event"] for e in json.loads(seen[0]["events"])["events"]
                        if e["event"]["type"] == "TileVanished"]
            assert vanished and all("to" not in e and "secret" not in e for e in vanished)
            assert json.loads(seen[0]["theft's status"])["envelope_withheld"] is True
        assert [words(stable(p, branches[0].id), branches[0].id) for p in hooks_of(hooks_1, nxt)] == \
            [words(stable(p, branches[1].id), branches[1].id) for p in hooks_of(hooks_2, nxt)]
        assert [words(m, branches[0].id) for m in mails_of(smtp, nxt, 1)] == \
            [words(m, branches[1].id) for m in mails_of(smtp, nxt, 2)]
        for branch in branches:
            for collector in branch.streams.values():
                collector.stream.close()


def test_a_secret_theft_does_not_restart_the_thiefs_public_deadline(notify_env, api_server, service, start_worker):
    """The deadlines are public (GET /games/{id}/deadline), and every move of
    the seat whose turn it is starts its clock again: after a secret theft
    by that seat, a restarted clock would name the thief. It does not
    restart (a public move of the same seat does)."""
    start_worker()
    api = Client(api_server.url)
    game_id = service.create_game("cartoona", 3, OPTIONS, seed=b"whose-clock")["id"]
    with Receiver([200]) as hooks:
        for seat, name in enumerate(NAMES[:3]):
            api.join(game_id, seat, KEYS[seat][1], name, webhook_url=hooks.url)
            if seat == 0:
                r = api.session.put(f"{api_server.url}/games/{game_id}/deadline", json={"turn_seconds": 1000},
                                    headers={"Authorization": f"Bearer {api.tokens[(game_id, 0)]}"})
                assert r.status_code == 200, r.text

        def clock(seat: int, version: int) -> dict:
            """``seat``'s deadline, once the notices up to ``version`` are handled."""
            wait_until(lambda: any(p["game"]["version"] >= version for p in json_of(hooks)), timeout=20)
            return wait_until(lambda: next((d for d in api.session.get(f"{api_server.url}/games/{game_id}/deadline")
                                            .json()["deadlines"] if d["seat"] == seat), None), timeout=20)

        def move(seat: int, move: dict) -> int:
            out = api.move(game_id, move, KEYS[seat][0], seat)
            assert out["status"] == "applied", out
            return out["version"]

        first = api.game(game_id)["view"]["active"]
        place = next(m["move"] for m in api.legal_moves(game_id, first)["moves"] if m["move"]["type"] == "place_tile")
        move(first, place)
        version = move(first, {"type": "end_turn"})
        thief = (first + 1) % 3
        assert api.game(game_id)["view"]["active"] == thief
        started = clock(thief, version)
        assert started["since_version"] == version
        version = move(thief, {"type": "cheat", "tile": place["tile"], "card": None})
        wait_until(lambda: any(p["seat"] == thief and p["game"]["version"] == version for p in json_of(hooks)),
                   timeout=20)  # the thief is told (its notice handled)
        assert clock(thief, version) == started, "the thief's clock started again: it names the thief"
        # a public move of the seat whose turn it is does start its clock again
        legal = [m["move"] for m in api.legal_moves(game_id, thief)["moves"] if m["move"]["type"] == "place_tile"]
        version = move(thief, legal[0])
        wait_until(lambda: clock(thief, version)["since_version"] == version, timeout=20)


def json_of(receiver: Receiver) -> list[dict]:
    return [json.loads(r["body"])["data"] for r in receiver.requests]
