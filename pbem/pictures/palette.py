"""Seat colours every picture shares, so seat 2 is the same colour in every game.

Taken from the Okabe-Ito palette, which stays distinguishable with the
common colour-vision deficiencies; still, no picture tells seats apart by
colour alone: each also writes the seat's number (or a letter) on its pieces.
The order keeps the most different colours for the first seats.
"""
from __future__ import annotations

from pbem.games.base import seat_label

#: (fill, ink for text on that fill, name) by seat
SEATS = (
    ("#0072B2", "#ffffff", "blue"),
    ("#D55E00", "#ffffff", "vermilion"),
    ("#F0E442", "#000000", "yellow"),
    ("#CC79A7", "#000000", "purple"),
    ("#56B4E9", "#000000", "sky blue"),
    ("#1a1a1a", "#ffffff", "black"),
    ("#E69F00", "#000000", "orange"),
    ("#009E73", "#ffffff", "green"),
)
#: outline around a seat's pieces, so a light colour shows on a light ground
OUTLINE = "#111111"
NEUTRAL = ("#9a9a9a", "#000000", "grey")


def seat_fill(seat) -> str:
    return SEATS[seat % len(SEATS)][0] if isinstance(seat, int) else NEUTRAL[0]


def seat_ink(seat) -> str:
    return SEATS[seat % len(SEATS)][1] if isinstance(seat, int) else NEUTRAL[1]


def seat_name(seat, names=None) -> str:
    """A seat's player name, or "seat N"."""
    if names and isinstance(seat, int) and seat < len(names) and names[seat]:
        return str(names[seat])
    return seat_label(seat) if isinstance(seat, int) else str(seat)
