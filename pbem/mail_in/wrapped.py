"""Lines a mail program broke in two.

Mail programs wrap long lines. Sent ``format=flowed`` (Thunderbird, Apple
Mail) the breaks are marked and ``reading.unflow`` joins them exactly; a hard
wrap (Outlook, Gmail's plain text, phones) leaves two lines, and the first
half of a move can be a move itself: ``place -2,0 r0 follower city N`` broken
after ``r0`` is a placement without the follower. So before a line is
applied, the line below it is looked at, on the state it would be read on:

* a command of its own (it starts with a word a command starts with, or it
  reads as a move as it stands): each is a command, as written;
* else, when the two joined by a space read as one move: they are that one
  command (and so on, for a line broken more than once: up to
  ``MAX_PARTS`` lines make one);
* else, when the line itself reads as a move and the line below starts
  with a word that some longer legal move goes on with after this one
  (``place -2,0 r0`` and then ``follower citi N``, mistyped): it is not
  applied, and the mail's reading stops there (the line below may be its
  broken-off rest: a move is never applied from part of what the player
  wrote). The answer says so;
* else the line below is no part of a move (``Cheers, Ann``, ``謝謝``): the
  move is applied as written and the line below is read on its own.

A line below that does not read is never joined blindly: the joined text
must read as a move, checked by the game's own parser (a greeting does not).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass
class Command:
    text: str                    # what to apply: one line, or lines joined
    lines: list[str]             # the lines it was read from
    dangling: str | None = None  # the line below, maybe its rest: then it is not applied


#: Lines below a command looked at for its rest (a line of at most
#: ``reading.MAX_LINE`` characters, wrapped at 72 columns, makes 3).
MAX_PARTS = 4


def command_at(lines: list[str], i: int, reads: Callable[[str], bool],
               starts_command: Callable[[str], bool],
               continues: Callable[[str, str], bool] = lambda text, below: True) -> Command:
    """The command that starts at ``lines[i]``. ``continues(text, below)``:
    whether ``below`` may be the rest of the move ``text`` (its first word
    is one a longer legal move goes on with after ``text``)."""
    text, used, pending = lines[i], [lines[i]], []
    for below in lines[i + 1:i + MAX_PARTS]:
        if starts_command(below) or reads(below):
            break
        pending.append(below)
        joined = " ".join([text, *pending])
        if reads(joined):
            text, used, pending = joined, used + pending, []
    if pending and reads(text) and continues(text, pending[0]):
        return Command(text, used, pending[0])
    return Command(text, used)


def first_word(line: str) -> str:
    words = line.strip().lower().split()
    return words[0] if words else ""


def next_words(text: str, longer: list[str]) -> set[str]:
    """The words that the moves of ``longer`` that go on from ``text`` put
    right after it (``place -2,0 r0`` in ``place -2,0 r0 follower city N``:
    ``follower``)."""
    start = " ".join(text.lower().split())
    out = set()
    for other in longer:
        words = " ".join(other.lower().split())
        if words.startswith(start + " "):
            out.add(first_word(words[len(start) + 1:]))
    return out - {""}
