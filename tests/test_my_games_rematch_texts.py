"""The texts of "my games" and of the rematch, built in the pseudo-locale
(``x-pseudo``): the ``games`` mail's answer, the rematch's mail answers and
notices, the player's page and a finished game's rematch box leave no
English a reader of another language would see (names, titles, addresses
and links aside)."""
from __future__ import annotations

import re

from pbem.games.i18n import reading
from pbem.mail_in import my_games as games_mail
from pbem.mail_in import rematch as rematch_mail
from pbem.notify import rematch as rematch_notices
from pbem.notify.kinds import REMATCH_OFF, REMATCH_OFFERED, REMATCH_STARTED
from pbem.notify.readers import Reader
from pbem.trust import address_links

from .pages_support import SECRET, pages_app, seated, stream_port  # noqa: F401
from .pseudo_support import leftover_english
from .test_my_games import ANN, anns_games, one_move
from .test_notify_support import notify_env, smtp  # noqa: F401

PSEUDO = "x-pseudo"
KEEP = ["Ann", "Bob", "Over", "Bob to play", "Ann to play, older", "Ann to play, newer", "Not Ann's", "Two tiles",
        "pbem", "English"]


def left(text: str) -> list[str]:
    text = re.sub(r"\S+@\S+|https?://\S+|/\S+", " ", text)
    return leftover_english(text, KEEP)


def test_the_mails_texts_leave_no_english(service, notify_env):
    games = anns_games(service)
    with reading(PSEUDO):
        ok, lines = games_mail.answer(service, ANN, Reader(PSEUDO), b"s", "http://pbem.test", 10)
        assert ok and left("\n".join(lines)) == []
        for line in ("rematch", "no rematch"):
            assert left("\n".join(rematch_mail.answer(service, games["finished"], 0, line)[1])) == []
        assert left("\n".join(rematch_mail.answer(service, games["bobs_turn"], 0, "rematch")[1])) == [] \
            # refused: the game is not over
        loaded = service.load(games["finished"])
        for kind in (REMATCH_OFFERED, REMATCH_STARTED, REMATCH_OFF):
            assert left(rematch_notices._message(kind, loaded, 0, 1, ["Ann", "Bob"], games["finished"])) == []


def test_the_pages_texts_leave_no_english(service, pages_app):
    games = anns_games(service)
    client = pages_app.test_client()
    signin = client.get(f"/my-games/signin/{address_links.make(SECRET.encode(), 'link', ANN, 600)}")
    assert signin.status_code == 303
    page = client.get(f"/my-games?lang={PSEUDO}", headers={"Accept": "text/html"}).get_data(as_text=True)
    assert 'id="mine-waiting"' in page
    text = re.sub(r"<[^>]+>", " ", page.split("<main", 1)[1].split(">", 1)[1].split("</main>")[0])
    assert left(text) == [], text
    # a finished game's rematch box, before and after an offer
    game_id, keys, tokens = seated(service, "carcassonne", options={"draw_order": ["U", "V"], "start_player": 0},
                                   title="Two tiles")
    one_move(service, game_id, keys)
    one_move(service, game_id, keys)
    for offer in (False, True):
        if offer:
            service.answer_rematch(game_id, 0)
        html = client.get(f"/g/{game_id}?lang={PSEUDO}").get_data(as_text=True)
        box = re.sub(r"<[^>]+>", " ", html.split('<section id="rematch"', 1)[1].split("</section>")[0])
        assert left(box.split(">", 1)[1]) == [], box
