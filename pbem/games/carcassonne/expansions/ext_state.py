"""An expansion's own part of the state (``state.ext[name]``): what it reads,
and a copy of the state with that part changed (states are never changed in
place once made)."""
from __future__ import annotations


def part_of(state, name: str) -> dict:
    return state.ext.get(name) or {}


def with_part(state, name: str, **changes):
    new = state.copy()
    new.ext = {**state.ext, name: {**part_of(state, name), **changes}}
    return new
