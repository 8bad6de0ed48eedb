"""Columns of plain text in either script: a Chinese character takes two
columns of a terminal or a mail in a fixed font, a Latin letter one, and
Chinese breaks between any two characters where English breaks at spaces
(the text board and the help keep to 80 columns in both)."""
from __future__ import annotations

import re
import textwrap
import unicodedata
from functools import lru_cache

WIDTH = 80


def width(text: str) -> int:
    """The columns ``text`` takes in a fixed-width font."""
    # Measured often (a line is measured again as each word is added): no ASCII
    # character is wide, so only the others are looked up, each adding a column.
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for ch in _NOT_ASCII.findall(text) if unicodedata.east_asian_width(ch) in "WF")


_NOT_ASCII = re.compile(r"[^\x00-\x7f]")


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in "WF"


#: a run of wide characters at most this long is one word (a notation word: 城市, 大修道院);
#: a longer one is a sentence, cut between any two characters
_WORD_RUN = 5
#: joins words that must stay on one line (``notation``: a move quoted in a sentence)
GLUE = "\ue002"
_NO_BREAK_BEFORE = "，。：；、」）！？"
_NO_BREAK_AFTER = "「（"


def _runs(word: str) -> list:
    """A word (no space) as runs: narrow characters, and wide ones cut after
    each full-width mark (which stays with the character before it)."""
    runs, cur, wide = [], "", None
    for ch in word:
        w = _wide(ch)
        if cur and (w != wide or cur[-1] in _NO_BREAK_BEFORE) and not (w and ch in _NO_BREAK_BEFORE):
            runs.append(cur)
            cur = ""
        cur, wide = cur + ch, w
    return runs + [cur] if cur else runs


def pieces(text: str) -> list:
    """``text`` cut where a line may break: after spaces (kept at the
    piece's end), after a full-width mark, and inside a long run of wide
    characters (a Chinese sentence) between any two of them; a short run
    is a word (a notation word: 城市, 大修道院) and stays whole."""
    out = []
    for word in text.split(" "):
        if GLUE in word:            # words joined to stay on one line (a move in a sentence)
            out.append(word + " ")
            continue
        pieces = [""]
        for run in _runs(word):
            if _wide(run[0]) and len(run.rstrip(_NO_BREAK_BEFORE)) > _WORD_RUN:
                for ch in run:
                    if pieces[-1] and ch not in _NO_BREAK_BEFORE and pieces[-1][-1] not in _NO_BREAK_AFTER:
                        pieces.append("")
                    pieces[-1] += ch
            else:
                if pieces[-1] and (_wide(run[0]) or _wide(pieces[-1][-1])) and pieces[-1][-1] not in _NO_BREAK_AFTER:
                    pieces.append("")
                pieces[-1] += run
        out += [p for p in pieces if p]
        if out:
            out[-1] += " "
    if out and not text.endswith(" "):
        out[-1] = out[-1][:-1]
    return out


def wrap(text: str, limit: int = WIDTH, indent: str = "  ") -> list:
    """``text`` in lines of at most ``limit`` columns (a piece longer than
    that stands alone); the lines after the first start with ``indent``
    added to the first's own indent."""
    return list(_wrapped(text, limit, indent))


# A board's lines come back text after text (each viewer's board, with names
# and without, the next step's mostly the same): each is cut once and kept.
@lru_cache(maxsize=4096)
def _wrapped(text: str, limit: int, indent: str) -> tuple:
    return tuple(_wrap(text, limit, indent))


def _wrap(text: str, limit: int, indent: str) -> list:
    if width(text) <= limit:
        return [text]
    if width(text) == len(text):        # no wide character: as textwrap has always cut it
        lead = text[:len(text) - len(text.lstrip())]
        return textwrap.wrap(text, limit, initial_indent="", subsequent_indent=lead + indent,
                             break_on_hyphens=False, break_long_words=False) or [text]
    lead = text[:len(text) - len(text.lstrip())]
    lines, line = [], ""
    for piece in pieces(text.lstrip()):
        start = lead if not lines else lead + indent
        if line and width(start + (line + piece).rstrip()) > limit:
            lines.append(start + line.rstrip())
            line = ""
        line += piece
    if line.strip():
        lines.append((lead if not lines else lead + indent) + line.rstrip())
    return lines or [text]


def pad(text: str, columns: int) -> str:
    """``text`` with spaces after it to take ``columns`` columns."""
    return text + " " * max(0, columns - width(text))
