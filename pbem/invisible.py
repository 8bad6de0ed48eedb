"""Invisible format characters (Unicode category Cf) in names and titles.

Bidirectional controls (U+202A-U+202E, U+2066-U+2069, U+200E/F, U+061C)
reorder the text after them where it is shown, so a title ``Game \\u202e``
reverses the words that follow it in a mail client's subject line; zero
width spaces, the BOM, soft hyphens and tag characters hide text. Only the
zero width joiner and non-joiner are kept: Indic and Arabic-script names
(and emoji sequences) need them.
"""
from __future__ import annotations

import unicodedata

#: ZWNJ and ZWJ: format characters that scripts need.
KEPT = frozenset("\u200c\u200d")


def is_invisible_format(ch: str) -> bool:
    return ch not in KEPT and unicodedata.category(ch) == "Cf"


def first_invisible_format(text: str) -> str | None:
    """The first refused format character of ``text``, or None."""
    return next((ch for ch in text if is_invisible_format(ch)), None)


def without_invisible_format(text: str) -> str:
    """``text`` with the refused format characters taken out."""
    if text.isascii():
        return text
    return "".join(ch for ch in text if not is_invisible_format(ch))
