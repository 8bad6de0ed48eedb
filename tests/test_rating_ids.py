"""A mail-only player is named in the public record (and so in the ratings)
by a random id the server drew once for the address: never the address, nor
a digest of it that a guessed address could be tested against."""
from __future__ import annotations

import hashlib
import json

from pbem.trust import signing


def header(service, game_id: str) -> dict:
    return json.loads(next(iter(service.record_lines(game_id, None))))


def test_mail_seats_are_named_by_an_id_drawn_once_per_address(service):
    address = "Ann@Example.test"
    games = []
    for _ in range(2):
        game = service.create_game("wakanda", 2)
        _private, public = signing.generate_key()
        service.join(game["id"], 0, None, "Ann", email=address)
        service.join(game["id"], 1, public, "Bob")
        games.append(game["id"])
    other = service.create_game("wakanda", 2)
    service.join(other["id"], 0, None, "Cy", email="cy@example.test")

    first, second = (header(service, g) for g in games)
    ann = {s["seat"]: s for s in first["seats"]}[0]["rated_as"]
    assert ann.startswith("mail:") and ann == {s["seat"]: s for s in second["seats"]}[0]["rated_as"]
    cy = {s["seat"]: s for s in header(service, other["id"])["seats"]}[0]["rated_as"]
    assert cy.startswith("mail:") and cy != ann
    record = "\n".join(service.record_lines(games[0], None))
    for form in (address, address.lower()):
        assert form not in record and form.lower() not in record.lower()
        assert hashlib.sha256(form.encode()).hexdigest()[:16] not in record
        assert hashlib.sha256(form.strip().lower().encode()).hexdigest()[:16] not in record
