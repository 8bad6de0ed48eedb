"""What to notify: the kinds of notice, who must be told after a move, and
the ``Notice`` every channel renders (already filtered for its reader)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..games.i18n import N_, _
from .links import for_programs

YOUR_TURN = "your_turn"
REMINDER = "reminder"
DEADLINE_PASSED = "deadline_passed"
MOVE_REJECTED = "move_rejected"
GAME_OVER = "game_over"
DIGEST = "digest"
#: A player of the game went on vacation or came back (pbem.notify.vacations):
#: the message says which, and what became of the deadlines.
VACATION = "vacation"
#: Mail only: a seat that may act out of turn (a reaction the game does not
#: wait for) is told so once, in words; webhooks get ``your_turn`` for it.
MAY_REACT = "may_react"
#: A finished game's rematch (pbem/service/rematch.py, pbem/notify/rematch.py):
#: offered to the seats that have not answered, begun (told on the new
#: game, to each of its seats), called off.
REMATCH_OFFERED = "rematch_offered"
REMATCH_STARTED = "rematch_started"
REMATCH_OFF = "rematch_off"
#: The ``auth`` of a move made by mail (``pbem.mail_in``): its mover is
#: answered with the board, so it needs no turn mail of its own.
MAIL_AUTH = "mail-token"
#: The ``auth`` of a move the server made at a seat's deadline (``pbem.notify.deadlines``):
#: its seat is told what was played once it is applied.
DEADLINE_AUTH = "deadline"
#: Takebacks (pbem/notify/takeback_news.py): asked of the other seats; refused; made.
TAKEBACK_ASKED = "takeback_asked"
TAKEBACK_REFUSED = "takeback_refused"
TAKEBACK_DONE = "takeback_done"
#: A seat handed to a bot for a while (pbem/games/handover.py): asked of the other seats; what came of it.
HANDOVER_ASKED = "handover_asked"
HANDOVER_NEWS = "handover_news"
KINDS = (YOUR_TURN, REMINDER, DEADLINE_PASSED, MOVE_REJECTED, GAME_OVER, REMATCH_OFFERED, REMATCH_STARTED,
         REMATCH_OFF)

#: A notice's subject words (translated where the mail is built: ``subject_of``).
SUBJECTS = {
    YOUR_TURN: N_("your turn"),
    REMINDER: N_("reminder: your turn"),
    DEADLINE_PASSED: N_("the deadline passed"),
    MOVE_REJECTED: N_("your move was rejected"),
    GAME_OVER: N_("game over"),
    DIGEST: N_("daily digest"),
    MAY_REACT: N_("you may act out of turn"),
    TAKEBACK_ASKED: N_("a takeback is asked of you"),
    TAKEBACK_REFUSED: N_("the takeback was refused"),
    TAKEBACK_DONE: N_("a move was taken back"),
    HANDOVER_ASKED: N_("a player asks that a bot play for them"),
    HANDOVER_NEWS: N_("a seat played by a bot"),
    VACATION: N_("a player's vacation"),
    REMATCH_OFFERED: N_("a rematch is offered"),
    REMATCH_STARTED: N_("the rematch has begun"),
    REMATCH_OFF: N_("the rematch is off"),
}


#: The subjects of a turn notice to a seat that owes a decision in another seat's turn.
OTHERS_TURN_SUBJECTS = {YOUR_TURN: N_("your decision"), REMINDER: N_("reminder: your decision")}


def in_others_turn(active: int | None, seat: int) -> bool:
    """Whether ``seat`` acts in another seat's turn (``Game.active_seat``): a
    decision the game waits for, though it is not that seat's turn."""
    return active is not None and active != seat


def subject_of(n: "Notice") -> str:
    """A notice's subject words in the reader's language: "your decision",
    not "your turn", to a seat the game waits for in another seat's turn."""
    if in_others_turn(n.active, n.seat) and n.kind in OTHERS_TURN_SUBJECTS:
        return _(OTHERS_TURN_SUBJECTS[n.kind])
    return _(SUBJECTS[n.kind]) if n.kind in SUBJECTS else n.kind


def newly_to_act(before: list[int], after: list[int], mover: int | None) -> list[int]:
    """Seats told "your turn": those who must act now and did not before, and
    the mover if they must act again (a turn of several steps)."""
    was = set(before)
    return sorted(s for s in after if s not in was or s == mover)


def mail_wanted(kind: str, preference: str) -> bool:
    """Whether a kind of notice goes out as its own mail under a preference
    (``every``: all; ``reminder``: no turn mails; ``digest``: turn mails are
    gathered into one mail a day). Webhooks get every kind."""
    if kind in (YOUR_TURN, MAY_REACT):
        return preference == "every"
    return True


@dataclass
class Notice:
    kind: str
    game_id: str
    game: str
    title: str
    seat: int
    seat_name: str                                        # the reader's name (unique among the seats)
    version: int
    status: str
    to_act: list[int]
    events: list[dict] = field(default_factory=list)      # [{"version", "event", "text"}], redacted
    board: str = ""                                       # render(state, viewer)
    examples: list[dict] = field(default_factory=list)    # [{"move", "text"}]
    deadline: float | None = None
    result: dict | None = None
    message: str = ""                                     # rejection reason, default action taken...
    links: dict = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)        # digest lines
    names: list[str] = field(default_factory=list)        # every seat's name (pbem.notify.wording.seat_names)
    game_title: str = ""                                  # the game's name in words ("Carcassonne")
    turn: list[int] = field(default_factory=list)         # the seats whose turn it is (game.turn_of)
    active: int | None = None                             # whose turn of the round (game.active_seat)
    result_text: str = ""                                 # the result in words (game.describe_result)
    picture: bytes | None = None                          # the board as the reader sees it (PNG; mail only)
    lang: str = "en"                                      # the language its texts are built in (pbem.notify.readers)
    tz: str | None = None                                 # the zone the reader chose (times: pbem.when)
    chat: list[str] = field(default_factory=list)         # chat since the reader's last move, worded (mail only)

    def as_payload(self) -> dict:
        """The stable JSON ``data`` of a webhook (see docs/notifications.md)."""
        return {"kind": self.kind, "lang": self.lang, "game": {"id": self.game_id, "type": self.game, "title": self.title,
                                            "status": self.status, "version": self.version,
                                            "to_act": self.to_act, "active": self.active},
                "seat": self.seat, "events": self.events, "board": self.board,
                "legal_moves": self.examples, "deadline": self.deadline, "result": self.result,
                "message": self.message, "links": for_programs(self.links)}
