"""Finding English a reader of another language would see: a text built in
the pseudo-locale (``x-pseudo``: every looked-up message ⟦àççéñtéd⟧) has
plain English words left only where a text was never looked up."""
from __future__ import annotations

import re

_WRAPPED = re.compile(r"⟦[^⟦⟧]*⟧")
_WORD = re.compile(r"(?<![\w/.#@-])[A-Za-z]{2,}(?![\w/@-])")


def leftover_english(text: str, allowed_texts=(), allowed_words=()) -> list[str]:
    """The English words of ``text`` outside the pseudo-locale's brackets,
    once every ``allowed_texts`` (names, move lines that must paste back as
    typed) is taken out and ``allowed_words`` (the notation's words) left be."""
    for inner in range(3):  # a message nested in another: ⟦a ⟦b⟧ c⟧
        text = _WRAPPED.sub(" ", text)
    for allowed in sorted((a for a in allowed_texts if a), key=len, reverse=True):
        text = text.replace(allowed, " ")
    keep = {w.lower() for w in allowed_words}
    return [w for w in _WORD.findall(text) if w.lower() not in keep]


def notation_words(texts) -> set[str]:
    """The words the move lines ``texts`` are written with (they stay English
    in the pseudo-locale: they must paste back)."""
    return {w.lower() for t in texts for w in re.findall(r"[A-Za-z]{2,}", t)}
