"""Game records: JSON lines that anyone can verify offline.

A record is a header (game, options, seats with their public keys,
sha256 of the seed), one line per step of the log (the move's signed
envelope and the events it produced) and, once the game is over, the seed
and the result. ``verify_lines`` checks every signature, and when the seed
is known re-runs the rules from it: setup and every decision must produce
exactly the logged events, so neither the server nor a player could have
changed a draw or a move.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from .. import games
from . import signing
from ..games import handover, takeback
from ..games.base import GAME_ABANDONED, SEAT_FORFEITED, GameError, abandoned_result, canonical, forfeit_result, rng_for


@dataclass
class Report:
    ok: bool = True
    game: str = ""
    version: int = 0
    moves_checked: int = 0
    signatures_checked: int = 0
    #: Steps whose envelope the server withheld from this record's reader
    #: while the game runs: their signatures can be checked once it is over.
    envelopes_withheld: int = 0
    seed_checked: bool = False
    #: Chat lines read: not signed (the players' words are the server's
    #: report), checked only to sit where they say, numbered in order, between
    #: seats of the game.
    chat: int = 0
    result: dict | None = None
    problems: list[str] = field(default_factory=list)

    def fail(self, message: str) -> None:
        self.ok = False
        self.problems.append(message)


def verify_lines(lines: list[str]) -> Report:
    report = Report()
    rows = [json.loads(line) for line in lines if line.strip()]
    if not rows or rows[0].get("record") != "pbem-game":
        report.fail("not a pbem game record")
        return report
    header, lines = rows[0], rows[1:]
    end = next((r for r in rows[1:] if r.get("end")), None)
    report.game = header["id"]
    try:
        game = games.get(header["game"], header["rules_version"])
    except GameError as err:
        report.fail(err.message)
        return report
    keys = {s["seat"]: s["public_key"] for s in header["seats"]}
    seed = None
    if end:
        seed = bytes.fromhex(end["seed"])
        if hashlib.sha256(seed).hexdigest() != header["seed_sha256"]:
            report.fail("the revealed seed does not match the published sha256")
            seed = None
        else:
            report.seed_checked = True
    state = game.start(header["players"], header["options"])
    version = 0
    # The states a takeback goes back to (kept as the replay passes them), and
    # the steps so far, on which a takeback move is decided again.
    # (A forged ``to_version`` names a state not kept: its takeback fails to verify.)
    wanted = {e["to_version"] for s in lines for e in (s.get("events") or ()) if isinstance(e, dict)
              and e.get("type") in (takeback.TAKEBACK_REQUESTED, takeback.TAKEBACK_APPLIED)
              and isinstance(e.get("to_version"), int)}
    kept = {0: state} if 0 in wanted else {}
    history: list[takeback.Step] = []
    logged: list = []  # every event so far, for the handovers (who may sign for a seat)
    bots = {s["seat"] for s in header["seats"] if s.get("bot")}

    def state_at(at: int):
        if at not in kept:
            raise GameError("illegal_move", f"a takeback names version {at}, which no step ends at")
        return kept[at]
    forfeited = None  # a seat that forfeited ends the game with the server's result
    abandoned = None  # so does the operator's abandoning it
    said = 0  # the last chat message's number
    for step in lines:
        if "chat" in step:
            said = _check_chat(report, step, header, version, said)
            continue
        if "move_id" not in step:
            continue
        if step["version_before"] != version:
            report.fail(f"step {step['move_id']} starts at {step['version_before']}, the log is at {version}")
            return report
        envelope = step.get("envelope")
        if step.get("envelope_withheld"):
            report.envelopes_withheld += 1
        handed = handover.standing(logged) if envelope is not None else None
        if envelope is not None and step.get("auth") == "ed25519":
            # A seat handed over may sign with its bot's key too, a game move only.
            bot = (handed.handed.get(envelope.get("player")) or {}).get("bot_key")
            allowed = [keys.get(envelope.get("player"))] + ([bot] if bot and not handover.is_handover(
                envelope.get("move")) else [])
            if not any(_signed_by(envelope, k) for k in allowed if k):
                report.fail(f"move {step['move_id']}: bad signature")
            else:
                report.signatures_checked += 1
            if envelope.get("game") != header["id"]:
                report.fail(f"move {step['move_id']}: signed for another game")
        if envelope is not None and step["move_id"] != signing.move_id_for(
                header["id"], envelope.get("player"), envelope.get("nonce")):
            # Every envelope's id is derived from it: a step cannot be renamed.
            report.fail(f"move {step['move_id']}: the id is not the one its game, seat and nonce give")
        if envelope is not None and handover.is_handover(envelope.get("move")):
            # Decided again on the log so far, with the bot key the log names:
            # no chance in it, so checked before the seed is known too.
            named = [e.get("bot_key") for e in step["events"] if isinstance(e, dict)
                     and e.get("type") == handover.SEAT_HANDED_OVER]
            try:
                expected = handover.decide(header["players"], handed, envelope["player"], envelope["move"],
                                           bots, named[0] if named else None)
            except GameError as err:
                report.fail(f"move {step['move_id']}: the handover rules refuse it ({err.code})")
                return report
            report.moves_checked += 1
            if canonical(expected) != canonical(step["events"]):
                report.fail(f"move {step['move_id']}: logged events differ from what the handover rules give")
        elif any(handover.is_event(e) for e in step["events"]):
            report.fail(f"move {step['move_id']}: handover events in a step that is no handover move")
        elif seed is not None:
            rng = rng_for(seed, version)
            try:
                if step.get("auth") == "setup":
                    expected = game.setup(state, rng)
                elif envelope is not None and takeback.is_takeback(envelope.get("move")):
                    # Consent is checked like the rules: on the log so far.
                    expected = takeback.decide(game, header["players"], history, envelope["player"],
                                               envelope["move"], state_at)
                elif envelope is not None:
                    # Signed or not (a mail reply, a deadline's default), the
                    # move must give exactly the logged events.
                    expected = game.decide(state, envelope["player"], envelope["move"], rng)
                else:
                    expected = None
            except GameError as err:
                report.fail(f"move {step['move_id']}: the rules refuse it ({err.code})")
                return report
            if expected is not None:
                report.moves_checked += 1
                if canonical(expected) != canonical(step["events"]):
                    report.fail(f"move {step['move_id']}: logged events differ from what the rules give")
        try:
            for event in step["events"]:
                state = takeback.fold(game, state, event, state_at)
        except GameError as err:
            report.fail(f"move {step['move_id']}: {err.message}")
            return report
        logged.extend(step["events"])
        version = step["version_after"]
        if version in wanted:
            kept[version] = state
        history.append(takeback.Step((envelope or {}).get("player"), (envelope or {}).get("move"),
                                     step["version_before"], list(step["events"])))
        forfeits = [e for e in step["events"] if e.get("type") == SEAT_FORFEITED]
        if forfeits and forfeited is None:
            forfeited = forfeits[0]
        ends = [e for e in step["events"] if e.get("type") == GAME_ABANDONED]
        if ends and abandoned is None and forfeited is None:
            abandoned = ends[0]
    report.version = version
    if end:
        if forfeited:
            result = forfeit_result(header["players"], forfeited["player"], forfeited.get("reason", ""))
        elif abandoned:
            result = abandoned_result(header["players"], abandoned.get("why", ""))
        else:
            result = game.result(state)
        report.result = result.as_dict() if result else None
        recorded = end.get("result")
        if recorded is not None and report.result is not None and not same_decision(recorded, report.result):
            report.fail("the recorded result differs from the replayed one")
        elif recorded is not None and report.result is None:
            report.fail("the record ends with a result the replayed game does not reach")
    return report


def _signed_by(envelope: dict, public_key: str) -> bool:
    try:
        signing.verify(envelope, public_key)
        return True
    except signing.SignatureError:
        return False


def _check_chat(report: Report, line: dict, header: dict, version: int, said: int) -> int:
    """A chat line: numbered after the one before, said at the version the
    record is at there, by a seat of the game to another (or to all)."""
    report.chat += 1
    n, seat, to = line.get("chat"), line.get("seat"), line.get("to")
    players = header["players"]
    if not isinstance(n, int) or n <= said:
        report.fail(f"chat line {n!r} is not numbered after {said}")
    if line.get("version") != version:
        report.fail(f"chat {n!r} says version {line.get('version')!r} where the record is at {version}")
    if not isinstance(seat, int) or not 0 <= seat < players or not (
            to is None or (isinstance(to, int) and 0 <= to < players and to != seat)):
        report.fail(f"chat {n!r}: not between seats of the game")
    if not isinstance(line.get("text"), str):
        report.fail(f"chat {n!r}: no text")
    return n if isinstance(n, int) else said


#: What decides a game's result: the scores, the placings, who won, and the
#: outcome. The words (``reason``) and breakdowns (``detail``) improve as the
#: server does, and a record written by an older server must still verify, so
#: they are not compared. ``outcome`` is newer than the first records: a
#: record without it is read as its server meant it, the seats placed first
#: winning.
_REQUIRED = ("scores", "placings")


def same_decision(recorded: dict, replayed: dict) -> bool:
    """Whether a recorded result says what the replayed one does."""
    if not isinstance(recorded, dict) or any(k not in recorded for k in _REQUIRED):
        return False  # a result's own fields are never left out
    if any(canonical(recorded[k]) != canonical(replayed.get(k)) for k in _REQUIRED):
        return False
    if "outcome" in recorded:
        return (canonical(recorded["outcome"]) == canonical(replayed.get("outcome"))
                and canonical(recorded.get("winners", replayed.get("winners"))) == canonical(replayed.get("winners")))
    first = [i for i, p in enumerate(replayed["placings"]) if p == 1]
    return canonical(recorded.get("winners", first)) == canonical(first)
