"""What a client written from api_spec/ and docs/ alone relies on, checked
against the server: the move id recipe, who `viewer` is, the record's lines
against their documented schemas, the seed commitment's worked example."""
from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import marshmallow as ma
import pytest

from pbem.trust import record as game_record
from pbem.trust import signing
from pbem.api.record_schemas import Event, RecordEnd, RecordHeader, RecordStep

from .conftest import drain
from .test_service import new_game, play_out

ROOT = Path(__file__).resolve().parent.parent
SPEC = json.loads((ROOT / "api_spec" / "openapi.json").read_text())


def documented_move_id(game: str, player: int, nonce: str) -> str:
    """The recipe as docs/record.md and the Envelope schema state it, written
    here from the text, not from the server's code."""
    return hashlib.sha256(game.encode() + b"\x00" + str(player).encode() + b"\x00" + nonce.encode()).hexdigest()[:24]


def auth(token):
    return {"Authorization": f"Bearer {token}"} if token else {}


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)  # the API on a cluster too
def test_a_client_knows_its_move_id_before_it_asks(api_server, http, service):
    game_id, keys, tokens = new_game(service)
    state = http.get(f"{api_server.url}/games/{game_id}").json()
    seat = state["to_act"][0]
    move = http.get(f"{api_server.url}/games/{game_id}/legal-moves", headers=auth(tokens[seat])).json()["moves"][0]
    nonce = "my-nonce-Ünïcode-0001"  # any 8-128 characters; UTF-8 in the hash
    expected = documented_move_id(game_id, seat, nonce)
    envelope = signing.make_envelope(game_id, seat, state["version"], move["move"], keys[seat], nonce=nonce)
    answer = http.post(f"{api_server.url}/games/{game_id}/moves", json=envelope)
    assert answer.status_code == 202, answer.text
    assert answer.json()["id"] == expected
    assert answer.headers["Location"] == f"/games/{game_id}/moves/{expected}"
    # the id computed beforehand finds the move, and the same nonce again names it
    assert http.get(f"{api_server.url}/games/{game_id}/moves/{expected}").status_code == 200
    again = http.post(f"{api_server.url}/games/{game_id}/moves", json=envelope)
    assert again.status_code == 409 and again.json()["error"]["details"]["move_id"] == expected
    # the spec's worked example is the recipe's
    description = SPEC["components"]["schemas"]["Envelope"]["description"]
    assert documented_move_id("abc", 1, "n0nce-123") in description


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)  # the API on a cluster too
def test_viewer_is_the_caller_and_sees_all_says_the_game_is_public(api_server, http, service):
    game_id, keys, tokens = new_game(service)
    url = f"{api_server.url}/games/{game_id}"
    for token, seat in ((None, None), (tokens[0], 0), (tokens[1], 1)):
        game = http.get(url, headers=auth(token)).json()
        assert game["viewer"] == seat and game["sees_all"] is False
        header = json.loads(http.get(f"{url}/record", headers=auth(token)).text.splitlines()[0])
        assert header["viewer"] == seat and header["sees_all"] is False
    play_out(service, game_id, keys, tokens, random.Random(3))
    for token, seat in ((None, None), (tokens[0], 0), (tokens[1], 1)):
        game = http.get(url, headers=auth(token)).json()
        assert game["status"] == "finished"
        assert game["viewer"] == seat and game["sees_all"] is True  # never '*'
        assert game["seed"]
        header = json.loads(http.get(f"{url}/record", headers=auth(token)).text.splitlines()[0])
        assert header["viewer"] == seat and header["sees_all"] is True
    props = SPEC["components"]["schemas"]["GameSummary"]["properties"]
    assert props["viewer"]["type"] == ["integer", "null"] and "'*'" not in props["viewer"]["description"]
    assert props["sees_all"]["type"] == "boolean"


def record_of(http, url: str, token=None) -> list[dict]:
    answer = http.get(f"{url}/record", headers=auth(token))
    assert answer.status_code == 200
    assert answer.headers["Content-Type"].startswith("application/x-ndjson")
    assert answer.text.endswith("\n")
    return [json.loads(line) for line in answer.text.splitlines()]


def check_lines(rows: list[dict], finished: bool) -> None:
    """Each line loads with its documented schema, which refuses any field it does not name."""
    RecordHeader().load(rows[0])
    steps = rows[1:-1] if finished else rows[1:]
    for row in steps:
        RecordStep().load(row)
    if finished:
        RecordEnd().load(rows[-1])
    assert rows[0]["record"] == "pbem-game" and all("move_id" in r for r in steps)


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)  # the API on a cluster too
def test_record_lines_match_their_schemas_for_every_kind_of_step(api_server, http, service):
    # a hidden-information game in play, with a signed move, a mail-token move and a deadline move
    game_id, keys, tokens = new_game(service, "kachina", 2)
    url = f"{api_server.url}/games/{game_id}"
    for auth_kind in ("ed25519", "mail-token", "deadline"):
        loaded = service.load(game_id)
        seat = sorted(loaded.game.to_act(loaded.state))[0]
        move = loaded.game.legal_moves(loaded.state, seat)[0]
        if auth_kind == "ed25519":
            service.submit(game_id, signing.make_envelope(game_id, seat, loaded.version, move, keys[seat]))
        else:
            service.submit_trusted(game_id, seat, move, loaded.version, auth_kind, f"{auth_kind}-nonce-1")
        drain(service)
    for token in (None, tokens[0], tokens[1]):
        rows = record_of(http, url, token)
        check_lines(rows, finished=False)
        kinds = [r.get("auth") for r in rows[1:]]
        assert len(kinds) == 4 and kinds[0] == "setup", kinds
        for expected, row in zip(["setup", "ed25519", "mail-token", "deadline"], rows[1:]):
            # a withheld step names neither its envelope nor its auth; the header lists it
            assert row.get("auth") == expected or (row.get("envelope_withheld") and row["move_id"] in rows[0]["withheld"])
        assert "envelope" not in rows[1]  # the setup has none
        signed = rows[2].get("envelope")
        assert signed is None or "signature" in signed
        for row in rows[3:]:
            assert "envelope_withheld" in row or "signature" not in row["envelope"]
        # the events' secrets are withheld from everyone but the seats in `to`
        for row in rows[1:]:
            for event in row["events"]:
                Event().load(event)
                assert "secret" not in event or (token and tokens.index(token) in event["to"])
        assert game_record.verify_lines([json.dumps(r) for r in rows]).ok
    # a finished game (here: a forfeit, a step with no envelope)
    from pbem.notify.deadlines import forfeit

    loaded = service.load(game_id)
    assert forfeit(service, loaded, sorted(loaded.game.to_act(loaded.state))[0])
    rows = record_of(http, url)
    check_lines(rows, finished=True)
    assert rows[-2]["auth"] == "forfeit" and "envelope" not in rows[-2]
    assert rows[-2]["events"][0]["type"] == "SeatForfeited"
    assert rows[-1]["end"] is True and rows[-1]["result"]["reason"] == "forfeit"


def test_an_undocumented_field_would_fail_the_check():
    header = {"record": "pbem-game", "format": 1, "id": "g", "game": "wakanda", "rules_version": 1,
              "players": 2, "options": {}, "title": "t", "created": 1.0, "seed_sha256": "00", "seats": [],
              "viewer": None, "sees_all": False, "withheld": []}
    RecordHeader().load(header)
    with pytest.raises(ma.ValidationError):
        RecordHeader().load({**header, "surprise": 1})


@pytest.mark.parametrize("redis_client", ["plain", "cluster"], indirect=True)  # the API on a cluster too
def test_seed_sha256_hashes_the_seed_bytes_as_the_worked_example_says(api_server, http, service):
    seed = bytes(range(32))
    game = service.create_game("wakanda", 2, {}, seed=seed)
    assert game["seed_sha256"] == hashlib.sha256(seed).hexdigest() != hashlib.sha256(seed.hex().encode()).hexdigest()
    doc = (ROOT / "docs" / "record.md").read_text()
    assert seed.hex() in doc and hashlib.sha256(seed).hexdigest() in doc
    assert hashlib.sha256(seed.hex().encode()).hexdigest() in doc  # the wrong reading, named as such
    assert "decoded" in SPEC["components"]["schemas"]["GameMeta"]["properties"]["seed_sha256"]["description"]
    assert "decoded" in SPEC["components"]["schemas"]["RecordHeader"]["properties"]["seed_sha256"]["description"]


EXAMPLE = ROOT / "docs" / "examples" / "wakanda.record.jsonl"


def test_the_example_record_verifies_and_its_lines_match_the_schemas():
    lines = EXAMPLE.read_text().splitlines()
    report = game_record.verify_lines(lines)
    assert report.ok and report.seed_checked and report.signatures_checked > 10, report.problems
    check_lines([json.loads(line) for line in lines], finished=True)
    # a renamed step no longer verifies (the id is derived from the envelope)
    rows = [json.loads(line) for line in lines]
    rows[2]["move_id"] = "0" * 24
    assert not game_record.verify_lines([json.dumps(r) for r in rows]).ok


def test_a_records_result_is_checked_by_what_decides_it_not_its_words():
    rows = [json.loads(line) for line in EXAMPLE.read_text().splitlines()]
    reworded = json.loads(json.dumps(rows))
    reworded[-1]["result"]["reason"] = "worded by another server"
    reworded[-1]["result"].pop("outcome", None)
    assert game_record.verify_lines([json.dumps(r) for r in reworded]).ok
    for key, value in (("scores", [99, 0]), ("winners", [1]), ("placings", [2, 1]), ("outcome", "no_winner")):
        changed = json.loads(json.dumps(rows))
        changed[-1]["result"][key] = value
        report = game_record.verify_lines([json.dumps(r) for r in changed])
        assert not report.ok and "the recorded result differs from the replayed one" in report.problems, key


def test_record_md_examples_are_lines_of_the_example_record():
    import re

    doc = (ROOT / "docs" / "record.md").read_text()
    blocks = re.findall(r"```json\n(.*?)\n```", doc, re.S)
    lines = set(EXAMPLE.read_text().splitlines())
    assert len(blocks) == 3
    header, step, end = (json.loads(b) for b in blocks)
    assert blocks[0] in lines and blocks[1] in lines  # quoted as they are
    RecordHeader().load(header)
    RecordStep().load(step)
    RecordEnd().load(end)
    real_end = json.loads(EXAMPLE.read_text().splitlines()[-1])
    assert {k: v for k, v in end["result"].items() if k != "detail"} == \
        {k: v for k, v in real_end["result"].items() if k != "detail"}
    assert end["seed"] == real_end["seed"] and end["version"] == real_end["version"]
    # the worked examples in the text are right
    envelope = step["envelope"]
    assert signing.move_id_for(envelope["game"], envelope["player"], envelope["nonce"]) == step["move_id"]
    assert documented_move_id(envelope["game"], envelope["player"], envelope["nonce"]) in doc
    assert signing.signed_bytes(envelope).decode() in doc


def test_a_stale_move_is_refused_at_once_or_after_its_202_as_documented(api_server, http, service):
    game_id, keys, tokens = new_game(service)
    url = f"{api_server.url}/games/{game_id}"
    state = http.get(url).json()
    seat, version = state["to_act"][0], state["version"]
    moves = http.get(f"{url}/legal-moves", headers=auth(tokens[seat])).json()["moves"]
    first = signing.make_envelope(game_id, seat, version, moves[0]["move"], keys[seat])
    second = signing.make_envelope(game_id, seat, version, moves[-1]["move"], keys[seat])
    # Both are checked against version `version` and accepted: the second is stale in the queue.
    assert http.post(f"{url}/moves", json=first).status_code == 202
    queued = http.post(f"{url}/moves", json=second)
    assert queued.status_code == 202, queued.text
    drain(service)
    outcome = http.get(api_server.url + queued.headers["Location"]).json()
    assert outcome["status"] == "rejected" and outcome["error"]["code"] == "stale_version"
    # Signed at the old version again, now that the game has moved on: refused at once.
    third = signing.make_envelope(game_id, seat, version, moves[0]["move"], keys[seat])
    refused = http.post(f"{url}/moves", json=third)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "stale_version"
    assert refused.json()["error"]["details"]["version"] > version
    described = SPEC["paths"]["/games/{game_id}/moves"]["post"]["description"]
    assert "409 `stale_version`" in described and "after a 202" in described
