"""What the seats are told of a takeback (pbem/games/takeback.py): the seats
asked get a mail to answer (``accept`` / ``refuse``, in their language's
words), everyone else the outcome. The seat whose move made the news needs
no mail about it (a mail's mover is answered with the board). A takeback
that gives a seat its turn back gets it a turn mail (``after_move``), which
lists the takeback among what happened: that seat is not mailed "taken
back" as well for the same change (its webhook still is told both)."""
from __future__ import annotations

from ..games import handover, takeback
from ..games.i18n import _, reading
from . import digests, wording
from .kinds import (HANDOVER_ASKED, HANDOVER_NEWS, TAKEBACK_ASKED, TAKEBACK_DONE, TAKEBACK_REFUSED, YOUR_TURN,
                    mail_wanted, newly_to_act)
from .readers import quoted


def tell(notifier, game_id: str, before_version: int, version: int, mover: int | None) -> dict:
    """Mail and webhook each seat the news of the takeback events in
    ``(before_version, version]``; returns what each seat was told."""
    service = notifier.service
    events = [e for _v, e, _m in service.store.events(game_id, before_version, version) if takeback.is_meta(e)]
    if not events:
        return {}
    loaded = service.load(game_id, version)
    if loaded.meta.get("status") != "active":
        return {}
    players = int(loaded.meta["players"])
    names = wording.seat_names(service.store.seats(game_id), players)
    out: dict = {}
    for event in events:
        if event["type"] == takeback.TAKEBACK_REQUESTED:
            told, kind = [s for s in event["asked"] if s != mover], TAKEBACK_ASKED
        elif event["type"] == takeback.TAKEBACK_ANSWERED and event["answer"] == "refuse":
            told, kind = [s for s in range(players) if s != mover], TAKEBACK_REFUSED
        elif event["type"] == takeback.TAKEBACK_APPLIED:
            told, kind = [s for s in range(players) if s != mover], TAKEBACK_DONE
        elif event["type"] == handover.HANDOVER_REQUESTED:
            told, kind = [s for s in event["asked"] if s != mover], HANDOVER_ASKED
        elif event["type"] in (handover.SEAT_HANDED_OVER, handover.SEAT_TAKEN_BACK) or (
                event["type"] == handover.HANDOVER_ANSWERED and event["answer"] == "refuse"):
            told, kind = [s for s in range(players) if s != mover], HANDOVER_NEWS
        else:
            continue
        turn_mailed = _turn_mailed(notifier, game_id, before_version, loaded, mover) if kind == TAKEBACK_DONE \
            else set()
        for seat in told:
            with reading(notifier.reader(loaded, seat).lang):
                message = _message(event, kind, names)
            if seat in turn_mailed:
                notifier.webhook(notifier.notice(loaded, seat, kind, before_version, message))
                out[seat] = YOUR_TURN
                continue
            notifier.tell(loaded, seat, kind, before_version, message)
            out[seat] = kind
    return out


def _turn_mailed(notifier, game_id: str, before_version: int, loaded, mover: int | None) -> set:
    """The seats whose turn this change gave back and that ``after_move``
    mails "your turn" for it, by the same rule: newly their turn (and still),
    not the mover, with an address, turn mails wanted one by one (not a
    digest, not a seat handed to a bot)."""
    service = notifier.service
    _acting, before_turn = wording.acting(service.load(game_id, before_version))
    _acting, after_turn = wording.acting(loaded)
    _acting, still_turn = wording.acting(service.load(game_id))
    seats = service.store.seats(game_id)
    out = set()
    for seat in newly_to_act(before_turn, after_turn, mover):
        held = seats.get(seat) or {}
        ch = notifier.store.channels(game_id, seat, held)
        if (seat != mover and seat in still_turn and ch.get("email") and not held.get("handed_over")
                and not digests.wanted(ch) and mail_wanted(YOUR_TURN, ch.get("preference", "every"))):
            out.add(seat)
    return out


def _message(event: dict, kind: str, names: list) -> str:
    if kind == HANDOVER_ASKED:
        return _("{player} asks that a bot ({level}) play their seat for a while. Reply with {accept} to accept "
                 "or {refuse} to refuse; the bot plays only if every other player accepts, and {player} may take "
                 "the seat back at any time.", player=names[event["seat"]],
                 level=handover.level_name(event["level"]), accept=quoted(handover.word("accept")),
                 refuse=quoted(handover.word("refuse")))
    if kind == HANDOVER_NEWS:
        return handover.describe(event, names)
    if kind == TAKEBACK_ASKED:
        return _("{player} asks to take back their last move. Reply with {accept} to accept or {refuse} to "
                 "refuse. The game goes back to before that move only if every other player accepts; a move "
                 "made meanwhile declines it.", player=names[event["by"]], accept=quoted(takeback.word("accept")),
                 refuse=quoted(takeback.word("refuse")))
    if kind == TAKEBACK_REFUSED:
        return _("{player} refused the takeback: the move stands.", player=names[event["by"]])
    return _("Every other player accepted: the last move is taken back, and the game goes on from version "
             "{version}.", version=event["to_version"])
