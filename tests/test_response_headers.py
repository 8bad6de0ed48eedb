"""The headers every answer carries, over real HTTP: the docs page (it
shares the pages' origin) with a policy that lets Swagger UI work and
nothing else, the SVG pictures (documents, if opened directly) and the
API's JSON answers with nosniff and a policy that runs and loads nothing;
the docs and a picture rendered by chromium under their policies; and the
request lines in the API's JSON log, read back, without a play link's MAC."""
from __future__ import annotations

import io
import json
import logging
import random

import pytest

from pbem.telemetry import logs
from pbem.trust import play_links as links

from .pages_support import SECRET, pages_app, pages_server, stream_port, play, seated  # noqa: F401

pytestmark = pytest.mark.timeout(120)

NOTHING = "default-src 'none'; frame-ancestors 'none'"
PICTURE = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"

#: Collects the page's Content-Security-Policy violations (in any document,
#: an SVG one too) into window.__violations.
VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", e => window.__violations.push(
    e.violatedDirective + " " + e.blockedURI + " " + (e.sample || "")));
"""


def policy(resp) -> dict[str, str]:
    """The Content-Security-Policy's directives by name."""
    return {d.split()[0]: d.strip() for d in resp.headers["Content-Security-Policy"].split(";") if d.strip()}


def test_the_docs_and_their_spec_send_a_policy_no_framing_and_nosniff(api_server, http):
    docs = http.get(api_server.url + "/docs")
    assert docs.status_code == 200 and docs.headers["Content-Type"].startswith("text/html")
    assert docs.headers["X-Content-Type-Options"] == "nosniff" and docs.headers["X-Frame-Options"] == "DENY"
    assert docs.headers["Referrer-Policy"] == "same-origin"
    csp = policy(docs)
    assert csp["default-src"] == "default-src 'none'" and csp["frame-ancestors"] == "frame-ancestors 'none'"
    # Scripts: this server's only (the page configures Swagger UI from /_web/api_docs.js), never inline script.
    script = csp["script-src"].split()
    assert script == ["script-src", "'self'"]
    assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script
    assert csp["connect-src"] == "connect-src 'self'" and csp["base-uri"] == "base-uri 'none'"
    spec = http.get(api_server.url + "/openapi.json")
    assert spec.status_code == 200 and spec.headers["Content-Security-Policy"] == NOTHING
    assert spec.headers["X-Content-Type-Options"] == "nosniff" and spec.headers["X-Frame-Options"] == "DENY"
    asset = http.get(api_server.url + "/_swagger-ui/swagger-ui-bundle.js")
    assert asset.status_code == 200 and asset.headers["X-Content-Type-Options"] == "nosniff"


def test_the_docs_render_under_their_policy(api_server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 1200})
    page.add_init_script(VIOLATIONS)
    page.goto(f"{api_server.url}/docs", wait_until="load")
    page.wait_for_selector(".opblock", timeout=20_000)
    # "Try it out" fetches from this origin, as connect-src allows.
    page.locator(".opblock-summary-path", has_text="/health").first.click()
    page.click(".opblock.is-open button.try-out__btn")
    page.click(".opblock.is-open button.execute")
    page.wait_for_selector(".opblock.is-open .live-responses-table tr.response .response-col_status", timeout=10_000)
    assert "200" in page.inner_text(".opblock.is-open .live-responses-table tr.response .response-col_status")
    assert page.evaluate("window.__violations") == []
    page.close()


def test_api_json_answers_send_nosniff_and_a_policy_that_allows_nothing(api_server, http, service):
    game_id = service.create_game("wakanda", 2, {}, "")["id"]
    answers = [http.get(f"{api_server.url}/games/{game_id}"), http.get(f"{api_server.url}/games/nosuchgame"),
               http.post(f"{api_server.url}/games", json={"game": "nosuch"}), http.get(f"{api_server.url}/health"),
               http.get(f"{api_server.url}/game-types")]
    assert [a.status_code for a in answers] == [200, 404, 422, 200, 200]
    for answer in answers:
        assert answer.headers["Content-Type"].startswith("application/json"), answer.url
        assert answer.headers["X-Content-Type-Options"] == "nosniff", answer.url
        assert answer.headers["Content-Security-Policy"] == NOTHING, answer.url
        assert answer.headers["X-Frame-Options"] == "DENY", answer.url


def test_the_stream_process_answers_with_nosniff_and_a_policy_that_allows_nothing(service, pages_server,
                                                                                  stream_port, http):
    game_id = service.create_game("wakanda", 2, {}, "")["id"]
    base = f"http://127.0.0.1:{stream_port}/games/{game_id}/events/stream"
    refused = http.get(base + "?ticket=not-a-ticket")
    assert refused.status_code == 401 and refused.headers["Content-Type"].startswith("application/json")
    with http.get(base, stream=True) as events:
        assert events.status_code == 200 and events.headers["Content-Type"].startswith("text/event-stream")
        answers = [refused, events]
    for answer in answers:
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Content-Security-Policy"] == NOTHING and answer.headers["X-Frame-Options"] == "DENY"


def link_conf(url: str):
    class Conf:
        public_url = url
        secret = staticmethod(lambda: SECRET.encode())
    return Conf


def test_pictures_and_the_pages_parts_send_their_policies(service, pages_server, http, browser, screenshots):
    game_id, keys, tokens = seated(service, "carcassonne")
    play(service, game_id, keys, tokens, random.Random(3), moves=4)
    link = links.play_link(link_conf(pages_server.url), game_id, 0)
    svgs = [http.get(f"{pages_server.url}/g/{game_id}/v/3.svg"), http.get(f"{link}/v/3.svg"),
            http.get(f"{pages_server.url}/g/{game_id}/v/3.svg", headers={"Authorization": f"Bearer {tokens[1]}"})]
    for svg in svgs:
        assert svg.status_code == 200 and svg.headers["Content-Type"].startswith("image/svg+xml")
        assert svg.headers["Content-Security-Policy"] == PICTURE and svg.headers["X-Content-Type-Options"] == "nosniff"
    live = http.get(f"{pages_server.url}/g/{game_id}/live")
    assert live.headers["Content-Security-Policy"] == NOTHING and live.headers["X-Content-Type-Options"] == "nosniff"
    # The pages keep their own policy (scripts from here only).
    page = http.get(f"{pages_server.url}/g/{game_id}")
    assert policy(page)["script-src"] == "script-src 'self'" and page.headers["X-Frame-Options"] == "DENY"
    # A picture opened by itself draws as it did, under its policy.
    tab = browser.new_page(viewport={"width": 1280, "height": 900})
    tab.add_init_script(VIOLATIONS)
    tab.goto(f"{pages_server.url}/g/{game_id}/v/3.svg")
    assert tab.evaluate("document.documentElement.localName") == "svg"
    size = tab.evaluate("(() => { const b = document.documentElement.getBBox(); return [b.width, b.height]; })()")
    assert size[0] > 100 and size[1] > 100
    assert tab.evaluate("document.querySelectorAll('use, rect, path').length") > 10
    tab.screenshot(path=str(screenshots / "picture-alone.png"))
    assert tab.evaluate("window.__violations") == []
    tab.close()


def test_the_request_lines_leave_out_a_play_links_mac(service, pages_server, http):
    """The API's JSON request lines, read back after a play link's page, its
    parts and a picture were asked for: the game and seat, never the MAC."""
    game_id, keys, tokens = seated(service, "wakanda")
    link = links.play_link(link_conf(pages_server.url), game_id, 0)
    mac = link.rsplit(".", 1)[1]
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logs.JsonFormatter("api"))
    level = logs.activity.level
    logs.activity.addHandler(handler)
    logs.activity.setLevel(logging.INFO)
    try:
        for url in (link, f"{link}/live", f"{link}/v/0.svg", f"{pages_server.url}/invitations/invitesecret7"):
            http.get(url)
        assert http.post(f"{link}/ticket").status_code == 200
    finally:
        logs.activity.removeHandler(handler)
        logs.activity.setLevel(level)
    text = out.getvalue()
    paths = [json.loads(line)["path"] for line in text.splitlines()]
    shown = f"/play/{game_id}.0.REDACTED"
    assert paths == [shown, f"{shown}/live", f"{shown}/v/0.svg", "/invitations/REDACTED", f"{shown}/ticket"]
    assert mac not in text and "invitesecret7" not in text
