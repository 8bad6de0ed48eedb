"""Invisible format characters (Unicode Cf: bidirectional controls, zero
width spaces, the BOM, tags...) are refused in names and titles at the API,
taken out of names that arrive by mail, and never reach a mail header from
what was stored before; the joiners scripts need (ZWJ, ZWNJ) are kept."""
from __future__ import annotations

import unicodedata

import pytest

from pbem.trust import signing
from pbem.mail_in import invites

from .conftest import api_server  # noqa: F401
from .test_mail_in_support import mail_env, mail_in, reply, reply_address, run_jobs, text_of  # noqa: F401
from .test_notify_support import new_game, notify_env, smtp, to_act  # noqa: F401
from .test_odd_inputs import SOME_TOKEN, field_errors, one_line_fields, put_text, stored

#: Right-to-left override (the issue's), isolates, marks, zero width space,
#: BOM, soft hyphen, Arabic letter mark, a tag character.
INVISIBLE = ["\u202e", "\u202a", "\u2066", "\u2069", "\u200e", "\u200f", "\u200b", "\ufeff", "\u00ad",
             "\u061c", "\U000e0041"]
#: Names that need a joiner: Devanagari with ZWJ, Persian with ZWNJ, an emoji family.
JOINED_NAMES = ["\u0915\u094d\u200d\u0937", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
                "\U0001f468\u200d\U0001f469\u200d\U0001f467"]


def no_format_characters(text: str) -> bool:
    return not any(unicodedata.category(c) == "Cf" and c not in "\u200c\u200d" for c in text)


def test_invisible_characters_are_refused_in_one_line_fields(service, api_server, http, redis_client):
    game_id = service.create_game("wakanda", 2)["id"]
    before = stored(redis_client)
    for method, path, body, field in one_line_fields(game_id):
        for ch in INVISIBLE:
            text = f"Game {ch}dlrow olleh"
            if field in ("email", "webhook_url", "url"):
                text = "http://a.test/" + ch if "url" in field else f"a{ch}@b.test"
            r = http.request(method, api_server.url + path, json=put_text(body, text), headers=SOME_TOKEN)
            assert r.status_code == 422, (path, field, repr(text), r.text)
            error = r.json()["error"]
            assert error["code"] == "invalid_request" and field in field_errors(error), (path, field, r.text)
    assert stored(redis_client) == before


def test_the_refusal_names_the_character(api_server, http):
    r = http.post(f"{api_server.url}/games", json={"game": "wakanda", "players": 2, "title": "Game \u202e"})
    assert r.status_code == 422
    assert r.json()["error"]["details"]["fields"]["json"]["title"] == [
        "U+202E (an invisible format character, such as a bidirectional control) is not allowed in this field"]


def test_names_that_need_a_joiner_are_kept(api_server, http):
    r = http.post(f"{api_server.url}/games", json={"game": "kachina", "players": 3, "title": JOINED_NAMES[1]})
    assert r.status_code == 201, r.text
    game_id = r.json()["id"]
    for seat, name in enumerate(JOINED_NAMES):
        r = http.post(f"{api_server.url}/games/{game_id}/seats/{seat}",
                      json={"public_key": signing.generate_key()[1], "name": name})
        assert r.status_code == 201, r.text
    summary = http.get(f"{api_server.url}/games/{game_id}").json()
    assert [s["name"] for s in summary["seats"]] == JOINED_NAMES and summary["title"] == JOINED_NAMES[1]


def test_stored_invisible_characters_never_reach_a_header(notify_env, service, redis_client, smtp):
    """A title and names stored before the API refused them: the mails'
    Subject and To carry the words without the characters."""
    game_id, _, _ = new_game(service, title="Game \u202edlrow\u200b olleh", names=("Ann\u2066", "\ufeffBob\u200d"))
    run_jobs(redis_client)
    seat = to_act(service, game_id)[0]
    mails = smtp.to(f"p{seat}@example.test", "your_turn")
    assert len(mails) == 1
    subject, name = str(mails[0]["Subject"]), mails[0]["To"].addresses[0].display_name
    assert "Game dlrow olleh" in subject and no_format_characters(subject)
    assert name == ("Ann", "Bob\u200d")[seat]  # the joiner stays
    assert no_format_characters(text_of(mails[0]).split("\n", 1)[0])


@pytest.mark.parametrize("ch", ["\u202e", "\u2067", "\u200b"])
def test_a_name_sent_with_join_by_mail_loses_them(ch, service, redis_client, smtp, mail_in):
    game_id = service.create_game("wakanda", 2, {}, "Mail game")["id"]
    invites.invite(service, game_id, [{"email": "ann@example.test"}, {"email": "bob@example.test"}])
    run_jobs(redis_client)
    invitation = smtp.to("ann@example.test", "invitation")[-1]
    mail_in.send(reply(invitation, f"join Ann {ch}eht Great", "ann@example.test"), reply_address(invitation),
                 "ann@example.test")
    run_jobs(redis_client)
    assert service.store.seats(game_id)[0]["name"] == "Ann eht Great"
    answer = text_of(smtp.to("ann@example.test", "join_reply")[-1])
    assert "You have joined the game as Ann eht Great." in answer
