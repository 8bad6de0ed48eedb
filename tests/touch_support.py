"""The touch contract (pbem/pictures/__init__.py ``touch``), checked on one
answer: what the Kachina, Wakanda and Cartoona path tests share."""
from __future__ import annotations

import xml.etree.ElementTree as ET


def picks(svg: str) -> list:
    """The keys a picture draws to be touched (``data-pick``), in order."""
    return [e.get("data-pick") for e in ET.fromstring(svg).iter() if e.get("data-pick") is not None]


def check_touch(found: dict, legal: list, svg: str) -> None:
    """``found`` answers ``legal`` as the contract says: one path per move,
    none alike, none the start of another, 1 to 4 keys; every key labelled;
    the off-board keys among them; and ``svg`` (the seat's picture with its
    moves) draws exactly the others."""
    paths = [tuple(p) for p in found["paths"]]
    assert len(paths) == len(legal)
    assert len(set(paths)) == len(paths), "two moves with one path"
    assert all(1 <= len(p) <= 4 for p in paths)
    whole = set(paths)
    for p in paths:
        assert not any(p[:i] in whole for i in range(1, len(p))), f"{p} extends another path"
    keys = {k for p in paths for k in p}
    assert set(found["labels"]) == keys
    assert all(isinstance(t, str) and t.strip() for t in found["labels"].values())
    off = set(found["offboard"])
    assert off <= keys
    assert set(picks(svg)) == keys - off, "a key neither drawn nor off the board (or drawn and off)"
