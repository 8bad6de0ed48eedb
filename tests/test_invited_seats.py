"""An invited seat is its invitee's (issue 25, item 2), through the real
server (real Redis, the API over HTTP on loopback, the invitation mails
through a real SMTP server, the invitee's reply through the real inbound
listener): until the invitee takes it, the creator withdraws it or it
expires, nobody else may take it (409 seat_invited, nothing stored); the
invitee takes it by the mail reply, by the API with the invitation's token
or by its link; a withdrawn or replaced invitation's token stops working;
the public lists name the invitee, never the address."""
from __future__ import annotations

import re
import time
from email.utils import parseaddr

import pytest

from rq import Queue
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from pbem.mail_in import QUEUE as MAIL_QUEUE
from pbem.server.embedded_redis import free_port
from pbem.trust.signing import generate_key

from .conftest import api_server  # noqa: F401
from .redis_contents import every_key
from .test_mail_in_support import mail_env, mail_in, reply, reply_address, run_jobs, text_of  # noqa: F401
from .test_notify_support import notify_env, smtp  # noqa: F401

ANN, BOB, CY = "ann@example.test", "bob@example.test", "cy@example.test"


def create(http, url, players=2, game="wakanda", **extra) -> dict:
    r = http.post(f"{url}/games", json={"game": game, "players": players, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def join(http, url, game_id, seat, name="Eve", **extra):
    return http.post(f"{url}/games/{game_id}/seats/{seat}",
                     json={"public_key": generate_key()[1], "name": name, **extra})


def invitation_token(smtp, address: str) -> str:
    """The token of the latest invitation mailed to ``address``: its reply
    address's, which its link names too."""
    mail = smtp.to(address, "invitation")[-1]
    local = parseaddr(str(mail["Reply-To"]))[1].split("@")[0]
    token = local.removeprefix("move+")
    assert f"http://pbem.test/join/{token}" in text_of(mail)
    return token


def error(r) -> str:
    return r.json()["error"]["code"]


def test_an_invited_seat_is_refused_to_anyone_else(notify_env, api_server, http, redis_client):
    url = api_server.url
    game = create(http, url, invitations=[{"email": BOB, "seat": 0, "name": "Bob"}], open=True)  # listed too
    game_id = game["id"]
    assert game["seats"][0]["invited"]["name"] == "Bob" and game["seats"][1]["invited"] is None
    before = every_key(redis_client)
    r = join(http, url, game_id, 0)
    assert r.status_code == 409 and error(r) == "seat_invited", r.text
    assert r.json()["error"]["details"]["invited"] == "Bob"
    assert "Bob" in r.json()["error"]["message"] and BOB not in r.text
    assert every_key(redis_client) == before  # refused: nothing stored
    # the public game and list say the seat is invited, by the name given, never the address
    shown = http.get(f"{url}/games/{game_id}")
    seats = shown.json()["seats"]
    assert seats[0]["joined"] is False and seats[0]["invited"]["name"] == "Bob"
    assert seats[0]["invited"]["expires"] > time.time() + 6 * 86400
    assert seats[1]["invited"] is None
    listed = http.get(f"{url}/games", params={"status": "open"})
    for text in (shown.text, listed.text, http.get(f"{url}/").text, http.get(f"{url}/g/{game_id}").text):
        assert "bob@" not in text and "example.test" not in text
    # the free seat is anyone's
    assert join(http, url, game_id, 1, "Ann").status_code == 201


def test_the_invitee_takes_it_by_replying_join(mail_env, api_server, http, redis_client, smtp, mail_in):
    url = api_server.url
    game_id = create(http, url, invitations=[{"email": BOB, "seat": 0}])["id"]
    run_jobs(redis_client)
    assert join(http, url, game_id, 0).status_code == 409  # a stranger first: refused
    invitation = smtp.to(BOB, "invitation")[-1]
    mail_in.send(reply(invitation, "join Bob", BOB), reply_address(invitation), BOB)
    run_jobs(redis_client)
    seats = http.get(f"{url}/games/{game_id}").json()["seats"]
    assert seats[0]["joined"] and seats[0]["name"] == "Bob" and seats[0]["invited"] is None
    assert any("You have joined the game as Bob." in text_of(m) for m in smtp.to(BOB, "join_reply"))
    assert join(http, url, game_id, 1, "Ann").status_code == 201
    assert http.get(f"{url}/games/{game_id}").json()["status"] == "active"


def test_the_invitee_takes_it_by_the_api_with_the_token(notify_env, api_server, http, redis_client, smtp):
    url = api_server.url
    game_id = create(http, url, invitations=[{"email": BOB, "seat": 1}, {"email": ANN, "seat": 0}])["id"]
    run_jobs(redis_client)
    bob, ann = invitation_token(smtp, BOB), invitation_token(smtp, ANN)
    before = every_key(redis_client)
    for seat, token, code in [(0, bob, "bad_invitation"),            # Bob's token is for seat 1
                              (1, bob[:-1] + ("a" if bob[-1] != "a" else "b"), "bad_invitation"),  # changed
                              (1, "x" * 40, "bad_invitation")]:
        r = join(http, url, game_id, seat, invitation=token)
        assert r.status_code == 401 and error(r) == code, r.text
    assert every_key(redis_client) == before
    r = join(http, url, game_id, 1, "Bob", invitation=bob)
    assert r.status_code == 201, r.text
    assert http.get(f"{url}/games/{game_id}", headers={"Authorization": f"Bearer {r.json()['token']}"}).json()[
        "viewer"] == 1
    r = join(http, url, game_id, 0, "Ann", invitation=ann.upper())  # a mail address may come back in capitals
    assert r.status_code == 201, r.text
    assert http.get(f"{url}/games/{game_id}").json()["status"] == "active"


def test_a_withdrawn_or_replaced_invitation_stops_working(mail_env, api_server, http, redis_client, smtp, mail_in):
    url = api_server.url
    game = create(http, url, players=3, game="kachina", invitations=[{"email": BOB, "seat": 0, "name": "Bob"}])
    game_id, creator = game["id"], game["creator_token"]
    run_jobs(redis_client)
    old = invitation_token(smtp, BOB)
    old_mail = smtp.to(BOB, "invitation")[-1]
    seated = join(http, url, game_id, 2, "Dee").json()["token"]
    before = every_key(redis_client)
    withdraw = f"{url}/games/{game_id}/invitations/0"
    for headers, status, code in [({}, 401, "missing_token"), ({"Authorization": "Bearer nope"}, 401, "bad_token"),
                                  ({"Authorization": f"Bearer {seated}"}, 403, "creator_only")]:
        r = http.delete(withdraw, headers=headers)
        assert r.status_code == status and error(r) == code, r.text
    assert every_key(redis_client) == before
    by_creator = {"Authorization": f"Bearer {creator}"}
    r = http.delete(withdraw, headers=by_creator)
    assert r.status_code == 200 and r.json() == {"game": game_id, "seat": 0, "withdrawn": True}, r.text
    assert http.get(f"{url}/games/{game_id}").json()["seats"][0]["invited"] is None
    r = http.delete(withdraw, headers=by_creator)
    assert r.status_code == 404 and error(r) == "not_invited"
    # withdrawn: its token no longer takes the seat (nothing stored)
    before = every_key(redis_client)
    r = join(http, url, game_id, 0, "Bob", invitation=old)
    assert r.status_code == 401 and error(r) == "bad_invitation", r.text
    assert every_key(redis_client) == before
    # the seat invited again, to someone else: the old token, link and reply stay dead
    r = http.post(f"{url}/games/{game_id}/invitations", headers=by_creator,
                  json={"invitations": [{"email": CY, "seat": 0, "name": "Cy"}]})
    assert r.status_code == 201, r.text
    run_jobs(redis_client)
    new = invitation_token(smtp, CY)
    assert new != old and new.split(".")[:2] == old.split(".")[:2]  # same game and seat, another invitation
    r = join(http, url, game_id, 0, "Bob", invitation=old)
    assert r.status_code == 401 and error(r) == "bad_invitation", r.text
    page = http.get(f"{url}/join/{old}")
    assert page.status_code == 200 and "withdrawn" in page.text and "join-name" not in page.text
    mail_in.send(reply(old_mail, "join", BOB), reply_address(old_mail), BOB)
    run_jobs(redis_client)
    assert not http.get(f"{url}/games/{game_id}").json()["seats"][0]["joined"]
    assert smtp.to(CY, "join_reply") == []  # no answer to the new invitee for the old one's reply
    r = join(http, url, game_id, 0, "Cy", invitation=new)
    assert r.status_code == 201, r.text
    r = http.delete(withdraw, headers=by_creator)
    assert r.status_code == 409 and error(r) == "seat_taken", r.text


def test_an_invitation_replaced_before_its_mail_went_is_mailed_once(mail_env, api_server, http, redis_client, smtp):
    """Withdrawn and invited again (to someone else, then back to the first
    address) before any mail went: each queued job sends only the invitation
    it was queued for, so only the live one is mailed, once."""
    url = api_server.url
    game = create(http, url, players=3, game="kachina", invitations=[{"email": BOB, "seat": 0, "name": "Bob"}])
    by_creator = {"Authorization": f"Bearer {game['creator_token']}"}
    withdraw, invite = f"{url}/games/{game['id']}/invitations/0", f"{url}/games/{game['id']}/invitations"
    for address in (CY, BOB):
        assert http.delete(withdraw, headers=by_creator).status_code == 200
        r = http.post(invite, headers=by_creator, json={"invitations": [{"email": address, "seat": 0}]})
        assert r.status_code == 201, r.text
    assert len(redis_client.lrange("rq:queue:pbem-mail", 0, -1)) >= 3  # three invitation jobs, none run yet
    run_jobs(redis_client)
    assert smtp.to(CY, "invitation") == []
    assert len(smtp.to(BOB, "invitation")) == 1
    r = join(http, url, game["id"], 0, "Bob", invitation=invitation_token(smtp, BOB))
    assert r.status_code == 201, r.text


def test_an_invitation_the_relay_refused_is_tried_again_while_it_is_the_seats(mail_env, monkeypatch, api_server,
                                                                                http, redis_client, smtp):
    """The relay down: the invitation mail is tried again later, for the
    invitation it was sent for; once that invitation is replaced, its retry
    sends nothing (the new one has its own)."""
    url = api_server.url
    registry = ScheduledJobRegistry(queue=Queue(MAIL_QUEUE, connection=redis_client))

    def retries() -> list:
        return [j for j in (Job.fetch(i, connection=redis_client) for i in registry.get_job_ids())
                if j.func_name.endswith(".send_invitation")]

    def mailed_to(address: str) -> list:
        return smtp.to(address, "invitation")

    monkeypatch.setenv("SMTP_URL", f"smtp://127.0.0.1:{free_port()}")
    game = create(http, url, players=3, game="kachina", invitations=[{"email": BOB, "seat": 0}])
    run_jobs(redis_client)
    [first] = retries()
    assert list(first.args) == [game["id"], 0, 2] and set(first.kwargs) == {"nonce"}
    monkeypatch.setenv("SMTP_URL", smtp.url)
    assert first.func(*first.args, **first.kwargs) is True  # the relay is back: it goes
    assert len(mailed_to(BOB)) == 1
    registry.remove(first)
    by_creator = {"Authorization": f"Bearer {game['creator_token']}"}
    assert http.delete(f"{url}/games/{game['id']}/invitations/0", headers=by_creator).status_code == 200
    monkeypatch.setenv("SMTP_URL", f"smtp://127.0.0.1:{free_port()}")
    r = http.post(f"{url}/games/{game['id']}/invitations", headers=by_creator,
                  json={"invitations": [{"email": CY, "seat": 0}]})
    assert r.status_code == 201, r.text
    run_jobs(redis_client)
    [second] = retries()
    assert second.kwargs["nonce"] != first.kwargs["nonce"]
    monkeypatch.setenv("SMTP_URL", smtp.url)
    assert first.func(*first.args, **first.kwargs) is False  # Bob's retry, replaced: nothing sent
    assert second.func(*second.args, **second.kwargs) is True
    assert len(mailed_to(BOB)) == 1 and len(mailed_to(CY)) == 1


def test_an_expired_invitation_no_longer_keeps_the_seat(notify_env, monkeypatch, api_server, http, redis_client,
                                                        smtp):
    monkeypatch.setenv("PBEM_INVITATION_TTL_S", "3")
    url = api_server.url
    game = create(http, url, invitations=[{"email": BOB, "seat": 0, "name": "Bob"}])
    game_id = game["id"]
    assert error(join(http, url, game_id, 0)) == "seat_invited"
    run_jobs(redis_client)
    token = invitation_token(smtp, BOB)
    time.sleep(max(0.0, game["seats"][0]["invited"]["expires"] - time.time()) + 0.2)
    assert http.get(f"{url}/games/{game_id}").json()["seats"][0]["invited"] is None
    before = every_key(redis_client)
    r = join(http, url, game_id, 0, "Bob", invitation=token)
    assert r.status_code == 401 and error(r) == "invitation_expired", r.text
    assert every_key(redis_client) == before
    # expired, the seat may be invited again...
    r = http.post(f"{url}/games/{game_id}/invitations", headers={"Authorization": f"Bearer {game['creator_token']}"},
                  json={"invitations": [{"email": CY, "seat": 0}]})
    assert r.status_code == 201, r.text
    time.sleep(3.2)
    # ... or taken by anyone
    assert join(http, url, game_id, 0, "Eve").status_code == 201


def test_the_body_key_is_invitations_on_both_operations(notify_env, api_server, http, redis_client):
    url = api_server.url
    game = create(http, url, players=4, game="kachina", invitations=[{"email": ANN}])
    assert game["seats"][0]["invited"] == {"name": None, "expires": game["seats"][0]["invited"]["expires"]}
    old = create(http, url, invite=[{"email": ANN}])  # the old name still works (deprecated)
    assert old["seats"][0]["invited"] is not None
    r = http.post(f"{url}/games", json={"game": "wakanda", "players": 2, "invite": [{"email": ANN}],
                                        "invitations": [{"email": BOB}]})
    assert r.status_code == 422 and error(r) == "invalid_request", r.text
    by_creator = {"Authorization": f"Bearer {game['creator_token']}"}
    path = f"{url}/games/{game['id']}/invitations"
    r = http.post(path, headers=by_creator, json={"invitations": [{"email": BOB}]})
    assert r.status_code == 201 and r.json()["invitations"][0]["seat"] == 1, r.text
    r = http.post(path, headers=by_creator, json={"invites": [{"email": CY}]})
    assert r.status_code == 201 and r.json()["invitations"][0]["seat"] == 2, r.text
    for body in ({"invites": [{"email": ANN}], "invitations": [{"email": BOB}]}, {}, {"invitations": []}):
        r = http.post(path, headers=by_creator, json=body)
        assert r.status_code == 422 and error(r) == "invalid_request", (body, r.text)


def test_the_pages_show_an_invited_seat_by_name_and_the_link_opens_a_join_page(notify_env, api_server, http,
                                                                               redis_client, smtp):
    url = api_server.url
    game_id = create(http, url, title="Tea time", invitations=[{"email": BOB, "seat": 0, "name": "Bob"}],
                     open=True)["id"]
    run_jobs(redis_client)
    lobby = http.get(f"{url}/").text
    row = lobby.split(f'href="/g/{game_id}"')[1].split("</li>")[0]
    assert "invited: Bob" in row and "1 of 2 seats free" in row
    page = http.get(f"{url}/g/{game_id}").text
    assert "invited: Bob" in page
    assert 'class="join-seat" data-seat="0"' not in page and 'class="join-seat" data-seat="1"' in page
    token = invitation_token(smtp, BOB)
    invited = http.get(f"{url}/join/{token}")
    assert invited.status_code == 200, invited.text
    assert invited.headers["Cache-Control"] == "no-store" and invited.headers["Referrer-Policy"] == "no-referrer"
    assert "Tea time" in invited.text and "seat 0" in invited.text and 'id="join-name"' in invited.text
    assert 'value="Bob"' in invited.text and BOB not in invited.text
    bad = http.get(f"{url}/join/{token[:-2]}")
    assert bad.status_code == 401 and "bad_invitation" in bad.text


@pytest.mark.parametrize("args,seats", [
    (["--seat", "1", "--name", "Ann", "--invite", BOB], {1: "Ann", 0: "bob"}),
    (["--seat", "0", "--name", "Ann", "--invite", f"{BOB}:2", "--invite", CY], {0: "Ann", 2: "bob", 1: "cy"}),
])
def test_the_cli_creator_keeps_a_seat_and_invites_to_chosen_seats(notify_env, api_server, http, redis_client,
                                                                  tmp_path, args, seats):
    from .test_cli import run

    home = tmp_path / "ann"
    assert run(home, api_server.url, "keygen")[0] == 0
    players = str(len(seats))
    code, out = run(home, api_server.url, "create", "kachina" if len(seats) > 2 else "wakanda", "--players", players,
                    *args)
    assert code == 0, out
    game_id = re.search(r"created (\w+)", out).group(1)
    shown = http.get(f"{api_server.url}/games/{game_id}").json()["seats"]
    for seat, name in seats.items():
        if name == "Ann":
            assert shown[seat]["joined"] and shown[seat]["name"] == "Ann"
        else:
            assert shown[seat]["invited"] is not None and f"invited {name}@example.test to seat {seat}" in out
    # pbem invite: another seat, by number, after a withdrawn one
    free = [s["seat"] for s in shown if not s["joined"] and not s["invited"]]
    if free:
        code, out = run(home, api_server.url, "invite", game_id, "dee@example.test", "--seat", str(free[0]))
        assert code == 0 and f"invited dee@example.test to seat {free[0]}" in out, out
    invited = next(s for s, n in seats.items() if n != "Ann")
    code, out = run(home, api_server.url, "uninvite", game_id, str(invited))
    assert code == 0 and f"withdrew the invitation to seat {invited}" in out, out
    code, out = run(home, api_server.url, "invite", game_id, "eve@example.test", "--seat", str(invited),
                    "--name", "Eve")
    assert code == 0, out
    assert http.get(f"{api_server.url}/games/{game_id}").json()["seats"][invited]["invited"]["name"] == "Eve"
