"""A join whose answer is lost does not lose the seat's token (issue 25,
item 4), through the real server (real Redis, the API over HTTP on
loopback, a real worker): the same signed join sent again by the key that
holds the seat answers 201 again with a working token (the earlier one
stops working); a key that lost its token gets a fresh one by a signed
request (``POST /games/{id}/seats/{seat}/token``), each request once; any
other key, an unsigned repeat, a move's signature, an old or replayed
request are refused, and nothing stored changes when they are."""
from __future__ import annotations

import time

from pbem.trust import signing
from pbem.trust.signing import generate_key, join_proof, make_envelope, token_request

from .conftest import api_server  # noqa: F401
from .redis_contents import every_key, settled_keys, stored_keys


def error(r) -> str:
    return r.json()["error"]["code"]


def view(http, url, game_id, seat, token):
    return http.get(f"{url}/games/{game_id}/seats/{seat}/view", headers={"Authorization": f"Bearer {token}"})


def test_the_same_signed_join_sent_twice_answers_twice_with_a_working_token(api_server, start_worker, http,
                                                                           redis_client):
    start_worker().wait_registered(redis_client)
    url = api_server.url
    game_id = http.post(f"{url}/games", json={"game": "wakanda", "players": 2}).json()["id"]
    private, public = generate_key()
    body = {"public_key": public, "name": "Ann", "proof": join_proof(game_id, 0, private)}
    first = http.post(f"{url}/games/{game_id}/seats/0", json=body)
    assert first.status_code == 201, first.text
    again = http.post(f"{url}/games/{game_id}/seats/0", json=body)  # the first answer was lost, say
    assert again.status_code == 201, again.text
    assert again.json()["game"] == game_id and again.json()["seat"] == 0
    assert again.json()["token"] != first.json()["token"]
    assert view(http, url, game_id, 0, again.json()["token"]).status_code == 200
    r = view(http, url, game_id, 0, first.json()["token"])  # one seat, one token: the latest
    assert r.status_code == 401 and error(r) == "bad_token"
    before = settled_keys(redis_client)  # the worker may still be telling of the join
    # the same key unsigned: refused, and told how to get a token
    r = http.post(f"{url}/games/{game_id}/seats/0", json={"public_key": public, "name": "Ann"})
    assert r.status_code == 409 and error(r) == "seat_taken" and "/token" in r.json()["error"]["message"], r.text
    # another key, signed with its own: refused
    other, other_public = generate_key()
    r = http.post(f"{url}/games/{game_id}/seats/0", json={"public_key": other_public, "name": "Eve",
                                                          "proof": join_proof(game_id, 0, other)})
    assert r.status_code == 409 and error(r) == "seat_taken", r.text
    # Ann's public key (it is public: the record shows it) with someone else's signature: refused
    r = http.post(f"{url}/games/{game_id}/seats/0", json={"public_key": public, "name": "Eve",
                                                          "proof": join_proof(game_id, 0, other)})
    assert r.status_code == 401 and error(r) == "bad_signature", r.text
    # Ann's signed join for another seat or game is no join for this one
    r = http.post(f"{url}/games/{game_id}/seats/1", json=body)
    assert r.status_code == 401 and error(r) == "bad_signature", r.text
    # too old
    stale = {**body, "proof": join_proof(game_id, 0, private, issued_at=int(time.time()) - 3600)}
    r = http.post(f"{url}/games/{game_id}/seats/0", json=stale)
    assert r.status_code == 401 and error(r) == "request_expired", r.text
    assert stored_keys(redis_client) == before  # nothing stored for any refusal

    # The last seat's join, repeated: the game was dealt once, and the repeat answers too.
    bob, bob_public = generate_key()
    last = {"public_key": bob_public, "name": "Bob", "proof": join_proof(game_id, 1, bob)}
    assert http.post(f"{url}/games/{game_id}/seats/1", json=last).status_code == 201
    game = http.get(f"{url}/games/{game_id}").json()
    assert game["status"] == "active"
    repeat = http.post(f"{url}/games/{game_id}/seats/1", json=last)
    assert repeat.status_code == 201, repeat.text
    assert http.get(f"{url}/games/{game_id}").json()["version"] == game["version"]  # dealt once
    # the new token plays: legal moves for it, and a signed move goes through
    seat = game["to_act"][0]
    token = {0: again.json()["token"], 1: repeat.json()["token"]}[seat]
    legal = http.get(f"{url}/games/{game_id}/legal-moves", headers={"Authorization": f"Bearer {token}"}).json()
    key = {0: private, 1: bob}[seat]
    envelope = make_envelope(game_id, seat, legal["version"], legal["moves"][0]["move"], key)
    # a token request's signature is no move (nor a signed join's); the worker may still be
    # draining after the deal: the snapshot waits for it
    before = settled_keys(redis_client)
    for signed in (token_request(game_id, seat, key, nonce=envelope["nonce"]), join_proof(game_id, seat, key)):
        r = http.post(f"{url}/games/{game_id}/moves", json={**envelope, "signature": signed["signature"]})
        assert r.status_code == 401 and error(r) == "bad_signature", r.text
    assert stored_keys(redis_client) == before
    r = http.post(f"{url}/games/{game_id}/moves", json=envelope, headers={"Prefer": "wait=10"})
    assert r.status_code == 200 and r.json()["status"] == "applied", r.text


def test_a_lost_token_is_asked_for_again_by_a_signed_request(api_server, http, redis_client):
    url = api_server.url
    game_id = http.post(f"{url}/games", json={"game": "wakanda", "players": 2}).json()["id"]
    private, public = generate_key()
    lost = http.post(f"{url}/games/{game_id}/seats/0", json={"public_key": public, "name": "Ann"}).json()["token"]
    path = f"{url}/games/{game_id}/seats/0/token"
    asked = token_request(game_id, 0, private)
    r = http.post(path, json=asked)
    assert r.status_code == 200, r.text
    fresh = r.json()["token"]
    assert r.json() == {"game": game_id, "seat": 0, "token": fresh}
    assert view(http, url, game_id, 0, fresh).status_code == 200
    assert error(view(http, url, game_id, 0, lost)) == "bad_token"  # the old one stops working

    before = every_key(redis_client)
    r = http.post(path, json=asked)  # replayed: answered once only
    assert r.status_code == 409 and error(r) == "nonce_reused", r.text
    other, _ = generate_key()
    refusals = [
        (path, token_request(game_id, 0, other), 401, "bad_signature"),                 # another key
        (f"{url}/games/{game_id}/seats/1/token", token_request(game_id, 0, private), 409, "seat_free"),
        (f"{url}/games/{game_id}/seats/1/token", token_request(game_id, 1, private), 409, "seat_free"),
        (path, token_request(game_id, 0, private, issued_at=int(time.time()) - 3600), 401, "request_expired"),
        (path, {**token_request(game_id, 0, private), "nonce": "another-nonce"}, 401, "bad_signature"),
        (f"{url}/games/nosuchgame/seats/0/token", token_request("nosuchgame", 0, private), 404, "unknown_game"),
        (f"{url}/games/{game_id}/seats/7/token", token_request(game_id, 7, private), 404, "unknown_seat"),
    ]
    # a signed join is not a token request, nor is a move's signature
    proof = join_proof(game_id, 0, private)
    refusals.append((path, {"issued_at": proof["issued_at"], "nonce": "n0nce-123", "signature": proof["signature"]},
                     401, "bad_signature"))
    move = make_envelope(game_id, 0, 0, {"type": "pass"}, private, nonce="n0nce-123")
    refusals.append((path, {"issued_at": int(time.time()), "nonce": "n0nce-123", "signature": move["signature"]},
                     401, "bad_signature"))
    for url_, body, status, code in refusals:
        r = http.post(url_, json=body)
        assert r.status_code == status and error(r) == code, (body, r.text)
    assert every_key(redis_client) == before  # nothing stored for any refusal
    # a new request (a new nonce) is answered
    r = http.post(path, json=token_request(game_id, 0, private))
    assert r.status_code == 200 and view(http, url, game_id, 0, r.json()["token"]).status_code == 200


def test_a_mail_only_seat_has_no_token_to_ask_for(service, api_server, http):
    game_id = service.create_game("wakanda", 2)["id"]
    service.join(game_id, 0, None, "Ann", email="ann@example.test")
    private, _ = generate_key()
    r = http.post(f"{api_server.url}/games/{game_id}/seats/0/token", json=token_request(game_id, 0, private))
    assert r.status_code == 403 and error(r) == "mail_only_seat", r.text


def test_signed_requests_are_signed_for_their_purpose():
    private, public = generate_key()
    fields = {"game": "g", "seat": 0, "nonce": "n0nce-123", "issued_at": 1}
    sig = signing.sign_request(signing.SEAT_TOKEN, fields, private)
    signing.verify_request(signing.SEAT_TOKEN, fields, sig, public)
    for purpose in (signing.JOIN, "pbem-move"):
        try:
            signing.verify_request(purpose, fields, sig, public)
        except signing.SignatureError as err:
            assert err.code == "bad_signature"
        else:
            raise AssertionError(f"a {signing.SEAT_TOKEN} signature verified as {purpose}")
