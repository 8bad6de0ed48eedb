"""Lines as people paste them from the mails they got.

The mails offer moves in lists: the examples, the answer to ``moves``, a
board's own list of legal placements (``place -1,1 r90  + follower on: city
N, road E``), the notation help (``place t17 new            start a creature
with tile 17``), and quote them in the HTML as code or list items. A line
copied from any of these must mean the move it shows. So a line that does
not read as a move as it stands is read again without what surrounds the
move in those lists: a bullet in front, quotes around it (straight, curly,
or 「」 as an answer to a Chinese reader quotes a move), and a note beside
it (after a gap of three spaces or more, or after two before ``+``, ``(``,
``#``, ``--``, ``e.g.``: the way the mails and help set notes apart). Only a
line that fails as written is read again, and the answer says what was left
out, so nothing is silently dropped from a line that reads.
"""
from __future__ import annotations

import re

_BULLET = re.compile(r"^(?:[-*\u2022\u25aa\u2023]\s+)")
_QUOTED = re.compile(r"^(['\"`\u2018\u201c\u300c\u300e])(.+)(['\"`\u2019\u201d\u300d\u300f])$")  # 「」『』 too
_NOTE = re.compile(r"\s{3,}\S|\s{2,}(?:\+|\(|#|--|e\.g\.)")


def readings(line: str) -> list[tuple[str, str]]:
    """The ways to read ``line``, in order: (the text to parse, what was
    left out). The first is the line as it stands."""
    out = [(line, "")]
    text = line.strip()
    bullet = _BULLET.match(text)
    if bullet:
        text = text[bullet.end():]
    note = _NOTE.search(text)
    left = ""
    if note:
        text, left = text[:note.start()].rstrip(), text[note.start():].strip()
    quoted = _QUOTED.match(text)
    if quoted:
        text = quoted.group(2).strip()
    if text and text != line.strip():
        out.append((text, left))
    return out
