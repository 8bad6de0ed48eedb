"""Stream tickets (pbem/trust/tickets.py): genuine ones name their seat until they
expire; anything else, a single character changed included, is refused."""
from __future__ import annotations

import pytest

from pbem.errors import Unauthorized
from pbem.trust.tickets import check_ticket, make_ticket

SECRET = b"k" * 32


def refused(ticket: str, game_id: str = "abc234", now: float | None = None) -> str:
    with pytest.raises(Unauthorized) as err:
        check_ticket(SECRET, ticket, game_id, now=now)
    assert err.value.status == 401
    return err.value.code


def test_a_ticket_names_its_seat_until_it_expires():
    ticket, expires = make_ticket(SECRET, "abc234", 3, 300, now=1_000_000)
    assert expires == 1_000_300
    assert check_ticket(SECRET, ticket, "abc234", now=1_000_299) == 3
    assert refused(ticket, now=1_000_300) == "ticket_expired"
    assert refused(ticket, "abc235", now=1_000_000) == "bad_ticket"  # another game
    assert check_ticket(b"other", make_ticket(b"other", "abc234", 3, 60)[0], "abc234") == 3
    assert refused(make_ticket(b"other", "abc234", 3, 60)[0]) == "bad_ticket"  # another server's secret


def test_every_single_character_change_is_refused():
    ticket, _ = make_ticket(SECRET, "abc234", 1, 300, now=1_000_000)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."
    for i, char in enumerate(ticket):
        for other in alphabet:
            if other != char:
                changed = ticket[:i] + other + ticket[i + 1:]
                with pytest.raises(Unauthorized):
                    check_ticket(SECRET, changed, "abc234", now=1_000_000)
    for bad in ("", ".", ticket + "x", ticket[:-1], " " + ticket, ticket.upper()):
        assert refused(bad, now=1_000_000) == "bad_ticket"


def test_a_reply_token_is_no_ticket():
    """Both are HMACs with the same secret: their prefixes keep them apart."""
    from pbem.notify.tokens import reply_token

    token = reply_token(SECRET, "abc234", 1)
    assert refused(token) == "bad_ticket"
