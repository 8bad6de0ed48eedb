"""/docs renders the interactive reference (Swagger UI 5, served from the
package) in a real headless browser, from the live server's /openapi.json."""
from __future__ import annotations

import pytest


def test_docs_renders_the_operations(api_server, browser, screenshots):
    page = browser.new_page(viewport={"width": 1280, "height": 2000})
    failed = []
    # Nothing may come from outside the server: the page works offline.
    page.on("request", lambda r: None if r.url.startswith(api_server.url) or r.url.startswith("data:")
            else failed.append(r.url))
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{api_server.url}/docs", wait_until="load")
        page.wait_for_selector(".opblock", timeout=20_000)
        text = page.inner_text("body")
        assert "does not specify a valid version field" not in text
        paths = [p.strip() for p in page.locator(".opblock-summary-path").all_inner_texts()]
        for path in ("/games", "/games/{game_id}/moves", "/games/{game_id}/record", "/game-types"):
            assert path in paths, (path, paths[:40])
        # Swagger UI 5 read the document as OpenAPI 3.1 (4.x could not).
        assert "OAS 3.1" in page.inner_text(".info"), page.inner_text(".info")[:200]
        page.screenshot(path=str(screenshots / "docs.png"), full_page=False)
        # An operation opens: its parameters and responses render.
        page.locator(".opblock-summary-path", has_text="/games/{game_id}/moves").first.click()
        page.wait_for_selector(".opblock.is-open .responses-table", timeout=10_000)
        page.screenshot(path=str(screenshots / "docs-moves.png"), full_page=False)
    finally:
        page.close()
    assert errors == []
    assert failed == []


def test_docs_open_with_the_operations_and_the_error_table_after_them(api_server, browser, screenshots):
    """The reader meets the operations first: the API's description, with
    its long table of error codes, comes after the last operation."""
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    try:
        page.goto(f"{api_server.url}/docs", wait_until="load")
        page.wait_for_selector(".opblock", timeout=20_000)
        page.wait_for_selector("#description .info table", timeout=10_000)
        found = page.evaluate("""() => {
            const ops = [...document.querySelectorAll('.opblock')], last = ops[ops.length - 1];
            const table = [...document.querySelectorAll('.info table')]
                .find(t => t.innerText.includes('stale_version'));
            const after = (a, b) => !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
            const info = document.querySelector('.info');
            return {ops: ops.length, table: !!table, tableAfterLastOp: !!table && after(last, table),
                    infoAfterFirstOp: after(ops[0], info),
                    firstOpTop: ops[0].getBoundingClientRect().top,
                    tableTop: table ? table.getBoundingClientRect().top : -1};
        }""")
        assert found["ops"] > 20 and found["table"], found
        assert found["tableAfterLastOp"] and found["infoAfterFirstOp"], found
        assert found["firstOpTop"] < 1000 < found["tableTop"], found  # the first screen shows operations
        page.screenshot(path=str(screenshots / "docs-top.png"), full_page=False)
        assert page.locator('link[rel="icon"][href="/favicon.svg"]').count() == 1
    finally:
        page.close()


def test_docs_do_not_scroll_sideways_on_a_phone(api_server, browser, screenshots):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(f"{api_server.url}/docs", wait_until="load")
        page.wait_for_selector("#description .info table", timeout=20_000)
        assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
        page.screenshot(path=str(screenshots / "docs-390.png"), full_page=False)
        page.locator("#description table").first.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / "docs-390-errors.png"), full_page=False)
    finally:
        page.close()
