"""An invitation's rules in words name the starting seat as the invited player can
read it: "your seat", the name of a player who took that seat already, or else its
number (nobody has a name for it yet)."""
from __future__ import annotations

from pbem import games
from pbem.mail_in.invites import invitation_mail


def rules_line(text: str) -> str:
    start = text.index("The rules in play:")
    return " ".join(text[start:text.index("\n\n", start)].split())


def test_the_starting_seat_reads_your_seat_a_name_or_its_number():
    game = games.get("carcassonne")
    options = {"start_player": 1}
    _subject, text = invitation_mail(game, "g1", 1, 3, "Evening", "creator", options)
    assert "; your seat starts." in rules_line(text)
    _subject, text = invitation_mail(game, "g1", 0, 3, "Evening", "creator", options, {1: "Bob"})
    assert "; Bob starts." in rules_line(text) and "seat 1" not in rules_line(text)
    _subject, text = invitation_mail(game, "g1", 2, 3, "Evening", "creator", options, {0: "Ann"})
    assert "; seat 1 starts." in rules_line(text)
    # the subject stays fixed words, whoever took a seat
    assert _subject == "[pbem] Invitation to play Carcassonne (game g1, seat 2)"
