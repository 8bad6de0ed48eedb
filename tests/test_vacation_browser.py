"""The game page's vacation control (static/vacation.js), in a real browser
against the real server: the seat the browser plays goes on vacation and
comes back, its game's deadline pausing and running again; then chooses a
daily digest; in English and in Chinese, at 390 px with nothing to scroll
sideways."""
from __future__ import annotations

import json

import pytest

from pbem.notify import install
from pbem.notify.config import NotifySettings
from pbem.notify.notifier import Notifier

from .conftest import wait_until
from .pages_support import pages_app, pages_server, seated, stream_port  # noqa: F401
from .test_pages_browser import PHONE, shot, watch

pytestmark = pytest.mark.timeout(300)


def test_the_page_sends_the_player_on_vacation_and_back(browser, service, pages_server, screenshots):
    install(service)
    game_id, _keys, tokens = seated(service, "wakanda", options={"start_player": 0}, title="Away game")
    notifier_channels = Notifier(service, NotifySettings())
    notifier_channels.store.save_channels(game_id, 0, {**notifier_channels.channels(game_id, 0),
                                                       "email": "ann@example.test"})
    notifier = Notifier(service, NotifySettings())
    notifier.store.save_game_settings(game_id, {"turn_seconds": 86400, "reminder_seconds": 0,
                                                "default_action": "pass"})
    notifier.schedule_deadline(game_id, 0, service.load(game_id).version)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors = watch(page)
    page.goto(pages_server.url + "/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"pbem.token.{game_id}.0", json.dumps({"token": tokens[0], "name": "Ann"})])

    page.goto(f"{pages_server.url}/g/{game_id}?lang=en")
    page.wait_for_selector("#vacation:not([hidden])")
    assert page.inner_text("#vacation-state") == "30 vacation days left this year."
    page.fill("#vacation-days", "2")
    page.click("#vacation-go button")
    page.wait_for_selector("#vacation-said.good")
    assert page.inner_text("#vacation-state").startswith("You are on vacation until ")
    assert "28 vacation days left this year." in page.inner_text("#vacation-state")
    assert notifier.store.paused(game_id)["by"] == "vacation" and not notifier.store.deadlines(game_id)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("#vacation").scroll_into_view_if_needed()
    shot(page, screenshots, "on-vacation-en", full=False)

    page.goto(f"{pages_server.url}/g/{game_id}?lang=zh-Hant")
    page.wait_for_selector("#vacation-back:not([hidden])")
    assert page.inner_text("#vacation h2") == "休假"
    assert "你正在休假，直到" in page.inner_text("#vacation-state") and "今年還剩28天休假。" in \
        page.inner_text("#vacation-state")
    page.click("#vacation-back")
    page.wait_for_selector("#vacation-said.good")
    assert page.inner_text("#vacation-said") == "歡迎回來：你的遊戲的期限重新開始計時。"
    wait_until(lambda: notifier.store.paused(game_id) is None and notifier.store.deadlines(game_id), timeout=5)
    assert page.inner_text("#vacation-state") == "今年還剩29天休假。"  # the day begun counts, not the next
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("#vacation").scroll_into_view_if_needed()
    shot(page, screenshots, "back-zh", full=False)
    # the digest choice beside it (pbem.notify.digests): a seat whose mails go somewhere
    page.wait_for_selector("#digest:not([hidden])")
    page.select_option("#digest-choice", "daily")
    page.click("#digest-form button")
    page.wait_for_selector("#digest-said.good")
    assert page.inner_text("#digest-said") == "已儲存。"
    assert notifier.channels(game_id, 0)["digest"] == "daily"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("#digest").scroll_into_view_if_needed()
    shot(page, screenshots, "digest-zh", full=False)
    assert errors == []
    context.close()
