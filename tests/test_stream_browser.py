"""A real browser's EventSource (headless chromium) on a page of the API's
origin: it gets a seat's ticket from the API (fetch, bearer token), opens
that seat's stream on the stream process (another origin: CORS), and sees
exactly what GET /events shows that seat, its secrets included."""
from __future__ import annotations

from .stream_support import seated, stream_world  # noqa: F401  (a fixture)

OPEN_STREAM = """async ([api, gameId, token, count]) => {
  const answer = await fetch(`${api}/games/${gameId}/seats/0/ticket`,
                             {method: "POST", headers: {Authorization: `Bearer ${token}`}});
  const ticket = await answer.json();
  return await new Promise((resolve, reject) => {
    const got = [];
    const source = new EventSource(ticket.stream_url);
    source.addEventListener("event", (e) => {
      got.push({id: e.lastEventId, data: JSON.parse(e.data)});
      if (got.length >= count) { source.close(); resolve(got); }
    });
    source.onerror = () => { source.close(); reject(new Error(`EventSource failed, state ${source.readyState}`)); };
    setTimeout(() => { source.close(); reject(new Error(`only ${got.length} events`)); }, 15000);
  });
}"""


def test_a_page_opens_its_seats_stream_with_a_ticket(stream_world, browser):
    c, game_id, _ = seated(stream_world.api, "kachina", players=2)
    version = c.game(game_id)["version"]
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        # A page of the API's origin (the lobby: its policy lets it fetch from there and
        # listen to the stream's origin; a JSON answer opened as a document may do neither).
        page.goto(f"{stream_world.api}/")
        got = page.evaluate(OPEN_STREAM, [stream_world.api, game_id, c.tokens[(game_id, 0)], version])
    finally:
        page.close()
    assert errors == []
    assert [int(e["id"]) for e in got] == list(range(1, version + 1))
    mine = c.events(game_id, 0)["events"]
    assert [e["data"] for e in got] == mine
    assert any("secret" in item["event"] and 0 in item["event"]["to"] for item in mine), "seat 0's own deal"
    assert [e["data"] for e in got] != c.events(game_id)["events"], "a spectator sees less"
