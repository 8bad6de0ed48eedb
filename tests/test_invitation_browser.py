"""An invitation's link in a real browser (Playwright driving Debian's
chromium): the page shows the game and the seat kept for its holder, who
takes it with a key the browser makes; the answer to that join lost on the
way, the same click again still takes it (the join is signed, so the
server answers it again with a new token)."""
from __future__ import annotations

from email.utils import parseaddr

import pytest

from .conftest import api_server  # noqa: F401
from .test_mail_in_support import run_jobs, text_of
from .test_notify_support import notify_env, smtp  # noqa: F401

pytestmark = pytest.mark.timeout(180)
BOB = "bob@example.test"


def test_the_invitee_takes_the_seat_from_the_link_even_when_the_first_answer_is_lost(
        notify_env, api_server, http, redis_client, smtp, browser, screenshots):
    url = api_server.url
    game = http.post(f"{url}/games", json={"game": "wakanda", "players": 2, "title": "Garden game",
                                           "invitations": [{"email": BOB, "seat": 1, "name": "Bob"}]}).json()
    game_id = game["id"]
    run_jobs(redis_client)
    mail = smtp.to(BOB, "invitation")[-1]
    token = parseaddr(str(mail["Reply-To"]))[1].split("@")[0].removeprefix("move+")
    assert f"http://pbem.test/join/{token}" in text_of(mail)

    context = browser.new_context()
    page = context.new_page()
    errors: list = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    lost = []

    def lose_the_first_answer(route):
        if not lost:
            lost.append(route.fetch())  # the server takes the seat and answers...
            route.abort()               # ... and the answer never arrives
        else:
            route.continue_()

    page.route(f"**/games/{game_id}/seats/1", lose_the_first_answer)
    page.goto(f"{url}/join/{token}")
    assert "Garden game" in page.inner_text("h1")
    assert page.input_value("#join-name") == "Bob"
    page.screenshot(path=str(screenshots / "invitation.png"), full_page=True)
    page.click("form.invitation-join button[type=submit]")
    # A key made now: its one copy is offered before the seat is taken with it.
    page.wait_for_selector("#backup-done")
    page.screenshot(path=str(screenshots / "invitation-backup.png"), full_page=True)
    page.click("#backup-show")
    assert len(page.inner_text("#backup-text")) >= 43
    page.click("#backup-done")
    page.wait_for_selector("#sent.bad")
    assert lost and lost[0].status == 201
    seats = http.get(f"{url}/games/{game_id}").json()["seats"]
    assert seats[1]["joined"] and seats[1]["name"] == "Bob"  # taken, though the browser was not told
    page.click("form.invitation-join button[type=submit]")  # again
    page.wait_for_url(f"**/g/{game_id}")
    page.wait_for_selector("#who:has-text('You play Bob')")
    held = service_seat(redis_client, game_id, 1)
    assert held["public_key"] and len(held["public_key"]) == 43 and held["email"] is None
    assert errors == []
    context.close()


def service_seat(redis_client, game_id: str, seat: int) -> dict:
    from pbem.store import Store
    return Store(redis_client).seats(game_id)[seat]
