"""The links a mail carries: the game's page and its record, under
``PBEM_PUBLIC_URL`` (the address players reach the server by; without it,
``http://HOST:PORT``, which only works on the server's own machine)."""
from __future__ import annotations


def links(public_url: str, game_id: str, seat: int | None, secret: bytes) -> dict:
    base = public_url.rstrip("/")
    return {"game": f"{base}/games/{game_id}", "record": f"{base}/games/{game_id}/record"}
