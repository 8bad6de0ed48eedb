"""The ``pbem`` command: play from a terminal, and check records offline.

    pbem keygen                              make your Ed25519 key (kept in $PBEM_HOME)
    pbem types                               the games this server plays
    pbem games [--status S] [--mine]         the games opened to anyone (--mine: where your key sits)
    pbem create wakanda --players 2 [-o hidden_future_villages=true] [--open]
                                             --open: listed to anyone, who may join a free seat
    pbem create wakanda --players 2 --seat 1 --name Ann --invite bob@example.org[:0]
                                             keep seat 1 yourself, keep another for Bob (mailed)
    pbem join GAME SEAT --name Ann           take a seat with your key (--invitation TOKEN: a seat kept for you)
    pbem invite GAME EMAIL [--seat N]        invite by email: the seat is kept for the invitee
    pbem uninvite GAME SEAT                  withdraw a seat's invitation (the game's creator)
    pbem token GAME SEAT                     a new token for a seat your key holds (lost the old one)
    pbem show GAME                           the board as you see it, and whose turn
    pbem show GAME --svg board.svg           ... and its picture (--png board.png for a PNG)
    pbem moves GAME                          your legal moves, in text notation
    pbem move GAME "claim 2"                 sign and send a move; wait for the outcome
    pbem log GAME                            what happened, in words
    pbem record GAME > game.jsonl            the signed record
    pbem verify game.jsonl                   check every signature, the seed and every draw
    pbem replay game.jsonl [--version N]     the board at any version, offline
    pbem replay --html game.jsonl > game.html  the whole game as one page, with a replay slider
    pbem run                                 the server with embedded defaults (make run)
    pbem admin queue GAME                    (operator) a game's waiting moves, notices, deadlines
    pbem admin abandon GAME [--why TEXT]     (operator) end a game in play as abandoned
    pbem admin delete GAME --yes             (operator) remove a game and everything of it
    pbem admin compact GAME                  (operator) compact a finished game now
    pbem admin deliveries [--game G] [--kind K]   (operator) deliveries that gave up
    pbem admin retry ID                      (operator) try one of them again
    pbem admin sweep                         (operator) expire, compact and deal now

The server is ``--server`` or $PBEM_SERVER (default http://127.0.0.1:8000);
the operator's commands take ``--token`` or $PBEM_ADMIN_TOKEN. ``--lang``
(or $PBEM_LANG: en, zh-Hant) is the language you read: this command's
words, the server's texts, and a game you create or a seat you join.
Your key, seat tokens and the creator tokens of your games live in $PBEM_HOME
(default ~/.pbem), readable only by you.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

import requests

from . import games
from .games import takeback
from .trust import record as game_record
from .client import ApiError, Client
from .games.i18n import N_, _, language, language_of, reading
from .settings.registry import env
from .trust.signing import generate_key, public_key_of


def home() -> Path:
    path = env("PBEM_HOME") or Path.home() / ".pbem"
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def _read(name: str, default):
    path = home() / name
    return json.loads(path.read_text()) if path.exists() else default


def _write_private(name: str, data) -> None:
    path = home() / name
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        json.dump(data, fh, indent=2)


def load_key() -> str:
    data = _read("key.json", None)
    if not data:
        raise SystemExit(_("no key yet: run 'pbem keygen' first"))
    return data["private_key"]


class Profile:
    """Seat tokens, and the creator tokens of games you created, by server
    and game, so later commands know who you are."""

    def __init__(self, server: str):
        self.server = server.rstrip("/")
        self.data = _read("seats.json", {})
        self.created = _read("created.json", {})

    def seats(self, game_id: str) -> dict:
        return self.data.get(self.server, {}).get(game_id, {})

    def remember(self, game_id: str, seat: int, token: str) -> None:
        self.data.setdefault(self.server, {}).setdefault(game_id, {})[str(seat)] = token
        _write_private("seats.json", self.data)

    def creator_token(self, game_id: str) -> str | None:
        return self.created.get(self.server, {}).get(game_id)

    def remember_creator(self, game_id: str, token: str) -> None:
        self.created.setdefault(self.server, {})[game_id] = token
        _write_private("created.json", self.created)

    def client(self, game_id: str | None = None) -> Client:
        client = Client(self.server, lang=language())
        if game_id:
            for seat, token in self.seats(game_id).items():
                client.tokens[(game_id, int(seat))] = token
            if self.creator_token(game_id):
                client.creator_tokens[game_id] = self.creator_token(game_id)
        return client

    def my_seat(self, game_id: str, seat: int | None) -> int:
        mine = sorted(int(s) for s in self.seats(game_id))
        if seat is not None:
            if seat not in mine:
                raise SystemExit(_("you hold no token for seat {seat} of game {game}", seat=seat, game=game_id))
            return seat
        if not mine:
            raise SystemExit(_("you have no seat in game {game}: 'pbem join {game} SEAT --name NAME'", game=game_id))
        return mine[0]


def parse_option(text: str) -> tuple[str, object]:
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError("options are name=value")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def list_options(options: dict, described: list[dict]) -> dict:
    """``-o expansions=inns_cathedrals,king_robber``: a list option given as
    text is its comma-separated elements (one value is a one-element list,
    an empty one the empty list); a JSON list passes as it is. ``described``
    is the game's options as ``GET /game-types`` gives them."""
    kinds = {o["name"]: o.get("type") for o in described}
    out = dict(options)
    for name, value in options.items():
        if kinds.get(name) == "list" and isinstance(value, str):
            out[name] = [item.strip() for item in value.split(",") if item.strip()]
        elif kinds.get(name) == "list" and not isinstance(value, list) and value is not None:
            out[name] = [value]  # a lone number or word JSON read as a scalar: "-o fixed_bag=3" is [3]
    return out


def unreachable(server: str, err: Exception) -> str:
    """One line for a server that does not answer: what failed, what to check."""
    text = str(err)
    found = re.search(r"(Connection refused|Name or service not known|nodename nor servname|"
                      r"No route to host|Network is unreachable|timed out|Temporary failure in name resolution|"
                      r"Connection reset by peer|Remote end closed connection)", text)
    why = found.group(1).lower() if found else type(err).__name__
    if isinstance(err, requests.exceptions.Timeout):
        why = _("no answer in time")
    return _("pbem: cannot reach the server at {server} ({why}): check the server URL (--server, or PBEM_SERVER) "
             "and that the server is running", server=server, why=why)


def cmd_keygen(args, out) -> int:
    if _read("key.json", None) and not args.force:
        print(_("you already have a key (public: {key}); --force replaces it", key=_read("key.json", {})["public_key"]),
              file=out)
        return 1
    private, public = generate_key()
    _write_private("key.json", {"private_key": private, "public_key": public})
    print(_("public key: {key}", key=public), file=out)
    return 0


def cmd_types(args, out) -> int:
    for t in Profile(args.server).client().game_types():
        print(_("{name}@{version}  {title}  ({low}-{high} players)", name=t["name"], version=t["version"],
                title=t["title"], low=t["min_players"], high=t["max_players"]), file=out)
        if t.get("concurrency_doc"):  # an older server does not say
            print(_("    moves: {concurrency}: {doc}", concurrency=t["concurrency"], doc=t["concurrency_doc"]), file=out)
        for o in t["options"]:
            print(f"    {o['name']} = {json.dumps(o['default'])}  {o['doc']}", file=out)
    return 0


def cmd_games(args, out) -> int:
    player = public_key_of(load_key()) if args.mine else None
    for g in Profile(args.server).client().list_games(args.status, player):
        print(f"{g['id']}  {g['game']}  {_(STATUSES.get(g['status'], g['status']))}  v{g['version']}  {g['title']}",
              file=out)
    return 0


#: A game's status in words.
STATUSES = {"open": N_("waiting for players"), "active": N_("in play"), "finished": N_("over")}


def invitation_arg(text: str) -> dict:
    """``EMAIL`` or ``EMAIL:SEAT`` (an address has no colon)."""
    email, sep, seat = text.rpartition(":")
    if sep and seat.isdigit():
        return {"email": email, "seat": int(seat)}
    return {"email": text}


def _print_invited(done: dict, out) -> None:
    for item in done["invitations"]:
        print(_("invited {email} to seat {seat}", email=item["email"], seat=item["seat"]), file=out)


def cmd_create(args, out) -> int:
    if args.seat is not None and not args.name:
        raise SystemExit(_("--seat needs --name (your name at that seat)"))
    profile = Profile(args.server)
    client = profile.client()
    options = dict(args.option or [])
    if options:
        versions = [t for t in client.game_types() if t["name"] == args.game]
        described = max(versions, key=lambda t: t["version"])["options"] if versions else []  # create plays the newest
        options = list_options(options, described)
    private = load_key() if args.seat is not None else None  # before anything is made: no key, nothing made
    game = client.create_game(args.game, args.players, options, args.title or "", open=args.open)
    profile.remember_creator(game["id"], game["creator_token"])  # invitations and the clock, later too
    print(_("created {game} ({title}); seed sha256 {seed}", game=game["id"], title=game["title"],
            seed=game["seed_sha256"]), file=out)
    if args.seat is not None:  # the creator's own seat first: the invitations then fill the others
        joined = client.join(game["id"], args.seat, None, args.name, private_key=private)
        profile.remember(game["id"], args.seat, joined["token"])
        print(_("you sit at seat {seat} of {game}", seat=args.seat, game=game["id"]), file=out)
    if args.invite:  # play by email: each invited address gets a mail; its reply "join" takes the seat
        _print_invited(client.invite(game["id"], args.invite), out)
    return 0


def cmd_invite(args, out) -> int:
    profile = Profile(args.server)
    invitation = {"email": args.email, **({"seat": args.seat} if args.seat is not None else {}),
                  **({"name": args.name} if args.name else {})}
    _print_invited(profile.client(args.game_id).invite(args.game_id, [invitation]), out)
    return 0


def cmd_uninvite(args, out) -> int:
    Profile(args.server).client(args.game_id).withdraw_invitation(args.game_id, args.seat)
    print(_("withdrew the invitation to seat {seat} of {game}", seat=args.seat, game=args.game_id), file=out)
    return 0


def cmd_join(args, out) -> int:
    profile = Profile(args.server)
    # Signed: should the answer be lost, the same command run again answers again.
    joined = profile.client().join(args.game_id, args.seat, None, args.name, args.email, private_key=load_key(),
                                   invitation=args.invitation, tz=args.tz)
    profile.remember(args.game_id, args.seat, joined["token"])
    print(_("you sit at seat {seat} of {game}", seat=args.seat, game=args.game_id), file=out)
    return 0


def cmd_token(args, out) -> int:
    profile = Profile(args.server)
    fresh = profile.client().seat_token(args.game_id, args.seat, load_key())
    profile.remember(args.game_id, args.seat, fresh["token"])
    print(_("a new token for seat {seat} of {game} (the old one no longer works)", seat=args.seat, game=args.game_id),
          file=out)
    return 0


def _board(summary: dict, out) -> None:
    print(_("{title}  [{game}, {status}, version {version}]", title=summary["title"], game=summary["game"],
            status=_(STATUSES.get(summary["status"], summary["status"])), version=summary["version"]), file=out)
    if summary.get("board"):
        print(summary["board"], file=out)
    if summary["status"] == "active":
        names = {s["seat"]: s["name"] for s in summary["seats"]}
        acting = _(", ").join(_("{name} (seat {seat})", name=names[s], seat=s) for s in summary["to_act"])
        active = summary.get("active")
        if active is not None and any(s != active for s in summary["to_act"]):   # a dragon step, a bid...
            line = _("to act: {seats}, in {name}'s turn", seats=acting,
                     name=names.get(active) or _("seat {n}", n=active))
        else:
            line = _("to act: {seats}", seats=acting)
        print(line, file=out)
    if summary.get("result"):
        r = summary["result"]
        names = [s["name"] for s in summary["seats"]]
        print(_("result: {scores}", scores=_(", ").join(
            _("seat {seat}: {score} (place {place})", seat=i, score=score, place=p)
            for i, (score, p) in enumerate(zip(r["scores"], r["placings"])))), file=out)
        try:  # the result in words, by the game's own rules module
            game = games.get(summary["game"], summary.get("rules_version"))
            print(game.describe_result(r, names), file=out)
        except games.GameError:
            pass


def cmd_show(args, out) -> int:
    profile = Profile(args.server)
    seats = profile.seats(args.game_id)
    seat = profile.my_seat(args.game_id, args.seat) if seats else None
    client = profile.client(args.game_id)
    summary = client.game(args.game_id, seat, whole=args.whole)
    _board(summary, out)
    if args.svg or args.png:
        return _picture(client, summary, seat, args, out)
    return 0


def _picture(client, summary: dict, seat, args, out) -> int:
    """The picture of the caller's view, with the caller's legal moves marked
    when it is their turn."""
    from . import pictures

    if not summary.get("view"):
        print(_("no picture: the game has not started"), file=out)
        return 1
    if not pictures.has_picture(summary["game"]):
        print(_("no picture for {game}", game=summary["game"]), file=out)
        return 1
    legal = None
    if seat is not None and summary["status"] == "active" and seat in summary["to_act"]:
        legal = [m["move"] for m in client.legal_moves(args.game_id, seat)["moves"]]
    names = [s["name"] for s in summary["seats"]]
    text = pictures.svg(summary["game"], summary["view"], names=names, viewer=summary.get("viewer"), legal=legal)
    if args.svg:
        Path(args.svg).write_text(text, encoding="utf-8")
        print(_("wrote {file}", file=args.svg), file=out)
    if args.png:
        Path(args.png).write_bytes(pictures.png(text, scale=args.scale))
        print(_("wrote {file}", file=args.png), file=out)
    return 0


def cmd_moves(args, out) -> int:
    profile = Profile(args.server)
    seat = profile.my_seat(args.game_id, args.seat)
    legal = profile.client(args.game_id).legal_moves(args.game_id, seat)
    if not legal["to_act"]:
        print(_("it is not your turn"), file=out)
        return 0
    for m in legal["moves"]:
        print(m["text"], file=out)
    return 0


def cmd_move(args, out) -> int:
    profile = Profile(args.server)
    seat = profile.my_seat(args.game_id, args.seat)
    client = profile.client(args.game_id)
    parsed = client.parse(args.game_id, seat, args.text)
    result = client.move(args.game_id, parsed["move"], load_key(), seat, expected_version=parsed["version"], wait=args.wait)
    if result["status"] == "applied":
        print(_("applied: {move} (now version {version})", move=parsed["text"], version=result["version"]), file=out)
        return 0
    if result["status"] == "rejected":
        print(_("rejected: {message} [{code}]", message=result["error"]["message"], code=result["error"]["code"]),
              file=out)
        return 1
    print(_("queued as {id}; check with 'pbem show {game}'", id=result["id"], game=args.game_id), file=out)
    return 0


def cmd_log(args, out) -> int:
    profile = Profile(args.server)
    seats = profile.seats(args.game_id)
    seat = profile.my_seat(args.game_id, args.seat) if seats else None
    after = 0
    client = profile.client(args.game_id)
    while after is not None:
        page = client.events(args.game_id, seat, after=after, limit=500)
        for e in page["events"]:
            print(f"{e['version']:4}  {e['text']}", file=out)
        after = page["next_after"]
    return 0


def cmd_record(args, out) -> int:
    profile = Profile(args.server)
    seats = profile.seats(args.game_id)
    seat = profile.my_seat(args.game_id, args.seat) if seats else None
    out.write(profile.client(args.game_id).record(args.game_id, seat))
    return 0


def _lines(path: str) -> list[str]:
    return (sys.stdin if path == "-" else open(path, encoding="utf-8")).read().splitlines()


def cmd_verify(args, out) -> int:
    report = game_record.verify_lines(_lines(args.file))
    if report.ok:
        withheld = (f", {report.envelopes_withheld} envelopes withheld until the game ends"
                    if report.envelopes_withheld else "")
        print(f"ok: game {report.game}, {report.version} events, {report.signatures_checked} signatures, "
              f"{report.moves_checked} steps re-run" + (", seed checked" if report.seed_checked else
                                                         ", seed not yet revealed (game in play)") + withheld
              + (f", {report.chat} chat lines (not signed)" if report.chat else ""),
              file=out)
        return 0
    for problem in report.problems:
        print(f"FAIL: {problem}", file=out)
    return 1


def cmd_replay(args, out) -> int:
    if args.html:  # one self-contained page: every version's picture, the slider, the log
        from .web.standalone import replay_html
        out.write(replay_html(_lines(args.file)))
        return 0
    rows = [json.loads(line) for line in _lines(args.file) if line.strip()]
    header = rows[0]
    game = games.get(header["game"], header["rules_version"])
    state = game.start(header["players"], header["options"])
    states = [state]  # by version: a takeback goes back to one of them
    for step in rows[1:]:
        if "move_id" not in step or (args.version is not None and step["version_after"] > args.version):
            continue
        for event in step["events"]:
            state = takeback.fold(game, state, event, lambda at: states[at])
            states.append(state)
    names = [None] * header["players"]
    for seat in header.get("seats", []):
        if 0 <= seat.get("seat", -1) < len(names):
            names[seat["seat"]] = seat.get("name")
    print(game.render(state, games.OMNISCIENT if header.get("sees_all") else header.get("viewer"), names,
                      whole=args.whole), file=out)
    return 0


def cmd_bot(args, out) -> int:
    """Play seats your key holds with a bot, through the public API (until the game ends)."""
    from .bots.runner import BotSeat, play_game

    profile = Profile(args.server)
    client = profile.client(args.game_id)
    key = load_key()
    seats = [BotSeat(seat, key, args.level, profile.seats(args.game_id).get(str(seat))) for seat in args.seat]
    print(_("a {level} bot plays seat(s) {seats} of {game}; Ctrl-C stops it", level=args.level,
            seats=", ".join(str(s) for s in args.seat), game=args.game_id), file=out, flush=True)
    final = play_game(client, args.game_id, seats, seed=args.seed, budget_s=args.budget)
    for bot in seats:
        profile.remember(args.game_id, bot.seat, bot.token)
    _board(final, out)
    return 0


def cmd_run(args, out) -> int:
    from .server.run import main as run_main

    return run_main()


def cmd_mail_in(args, out) -> int:
    from .mail_in.listener import main as mail_in_main

    return mail_in_main()


def _operator(args) -> tuple[Client, str]:
    token = args.token or env("PBEM_ADMIN_TOKEN")
    if not token:
        raise SystemExit("the operator's commands need --token or PBEM_ADMIN_TOKEN")
    return Client(args.server), token


def cmd_admin(args, out) -> int:
    client, token = _operator(args)
    if args.action == "queue":
        q = client.admin_game(token, args.game_id)
        print(f"{q['game']}  {q['status']}  v{q['version']}" + ("  (compacted)" if q["archived"] else ""), file=out)
        print(f"moves queued: {len(q['queued_moves'])}; submissions waiting: {q['submissions_waiting']}; "
              f"notices waiting: {q['notices_waiting']}", file=out)
        for m in q["queued_moves"]:
            print(f"  move {m['id']}  seat {m['seat']}  {m['auth']}  signed at v{m['expected_version']}", file=out)
        if q["paused"]:
            print(f"clock paused by {q['paused'].get('by')}", file=out)
        for d in q["deadlines"]:
            print(f"  deadline: seat {d['seat']} at {d['at']:.0f} ({d.get('action')}), since v{d['since_version']}",
                  file=out)
        for f in q["failed_deliveries"]:
            print(f"  failed {f['kind']} {f['id']}: {f['error']}", file=out)
    elif args.action == "abandon":
        g = client.admin_abandon(token, args.game_id, args.why or "")
        print(f"abandoned {g['id']} at version {g['version']}", file=out)
    elif args.action == "delete":
        if not args.yes:
            raise SystemExit(f"deleting {args.game_id} removes it and everything of it: add --yes")
        d = client.admin_delete(token, args.game_id)
        print(f"deleted {d['game']} ({d['keys']} keys)", file=out)
    elif args.action == "compact":
        print(f"{args.game_id}: {client.admin_compact(token, args.game_id)['outcome']}", file=out)
    elif args.action == "deliveries":
        for f in client.admin_deliveries(token, args.game, args.kind):
            where = f.get("url") or f.get("to") or ""
            print(f"{f['id']}  {f['kind']:10}  game {f['game']}  seat {f['seat']}  {where}  "
                  f"after {f['attempts']} attempts: {f['error']}", file=out)
    elif args.action == "retry":
        done = client.admin_retry(token, args.failure_id)
        print(f"retrying {done['retried']['kind']} {done['retried']['id']} (job {done['job']})", file=out)
    elif args.action == "sweep":
        swept = client.admin_sweep(token)
        print(f"expired {len(swept['expired'])} open games, compacted {len(swept['compacted'])} finished games"
              + (f", dealt {len(swept['dealt'])} full games" if swept.get("dealt") else ""), file=out)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pbem", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default=env("PBEM_SERVER"))
    parser.add_argument("--lang", default=env("PBEM_LANG"),
                        help="the language you read (en, zh-Hant): this command's words, the server's texts, and a "
                             "game you create or a seat you join (default $PBEM_LANG, else en)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("keygen", help="make your Ed25519 key")
    p.add_argument("--force", action="store_true")
    p.set_defaults(fn=cmd_keygen)
    sub.add_parser("types", help="the games this server plays").set_defaults(fn=cmd_types)
    p = sub.add_parser("games", help="list the games opened to anyone (--mine: yours, opened or not)")
    p.add_argument("--status", choices=["open", "active", "finished"])
    p.add_argument("--mine", action="store_true", help="only the games where your key holds a seat")
    p.set_defaults(fn=cmd_games)
    p = sub.add_parser("create", help="create a game")
    p.add_argument("game")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("-o", "--option", action="append", type=parse_option,
                   help="name=value (JSON values; a list option also as a,b or one value)")
    p.add_argument("--title")
    p.add_argument("--open", action="store_true",
                   help="open the game to anyone: listed by `pbem games` and on the lobby page")
    p.add_argument("--seat", type=int, help="take this seat yourself, with your key (needs --name)")
    p.add_argument("--name", help="your name at --seat")
    p.add_argument("--invite", action="append", metavar="EMAIL[:SEAT]", type=invitation_arg,
                   help="invite by email; the seat is kept for the invitee (repeat; without :SEAT, the free seats "
                        "in order)")
    p.set_defaults(fn=cmd_create)
    p = sub.add_parser("join", help="take a seat")
    p.add_argument("game_id")
    p.add_argument("seat", type=int)
    p.add_argument("--name", required=True)
    p.add_argument("--email")
    p.add_argument("--invitation", metavar="TOKEN", help="the invitation's token (its link's last part): a seat "
                                                        "kept for you")
    p.add_argument("--tz", metavar="ZONE", help="your time zone (IANA, such as Asia/Taipei), for the times you read")
    p.set_defaults(fn=cmd_join)
    p = sub.add_parser("invite", help="invite by email (the game's creator, or a seated player)")
    p.add_argument("game_id")
    p.add_argument("email")
    p.add_argument("--seat", type=int, help="the seat to keep for the invitee (default: the first free one)")
    p.add_argument("--name", help="the invitee's name, as the seats list shows it")
    p.set_defaults(fn=cmd_invite)
    p = sub.add_parser("uninvite", help="withdraw a seat's invitation (the game's creator)")
    p.add_argument("game_id")
    p.add_argument("seat", type=int)
    p.set_defaults(fn=cmd_uninvite)
    p = sub.add_parser("token", help="a new token for a seat your key holds")
    p.add_argument("game_id")
    p.add_argument("seat", type=int)
    p.set_defaults(fn=cmd_token)
    for name, fn, help_ in (("show", cmd_show, "the board as you see it"), ("moves", cmd_moves, "your legal moves"),
                            ("log", cmd_log, "the events in words"), ("record", cmd_record, "the signed record")):
        p = sub.add_parser(name, help=help_)
        p.add_argument("game_id")
        p.add_argument("--seat", type=int)
        if name == "show":
            p.add_argument("--whole", action="store_true",
                           help="all of the board (a big Carcassonne board is otherwise shown around the last tile)")
            p.add_argument("--svg", metavar="FILE", help="also write the picture of your view as SVG")
            p.add_argument("--png", metavar="FILE", help="also write the picture of your view as PNG")
            p.add_argument("--scale", type=float, default=1.0, help="PNG size multiplier (default 1)")
        p.set_defaults(fn=fn)
    p = sub.add_parser("move", help="sign and send a move in text notation")
    p.add_argument("game_id")
    p.add_argument("text")
    p.add_argument("--seat", type=int)
    p.add_argument("--wait", type=float, default=10)
    p.set_defaults(fn=cmd_move)
    p = sub.add_parser("bot", help="let a bot play seats your key holds, through the API, until the game ends")
    p.add_argument("game_id")
    p.add_argument("--seat", type=int, action="append", required=True, help="a seat your key holds (repeat)")
    p.add_argument("--level", default="random", choices=["random", "greedy", "search"])
    p.add_argument("--budget", type=float, default=2.0, help="seconds to think per move (search)")
    p.add_argument("--seed", default="0", help="the bot's seed (the same seed, the same choices)")
    p.set_defaults(fn=cmd_bot)
    p = sub.add_parser("verify", help="check a record offline")
    p.add_argument("file")
    p.set_defaults(fn=cmd_verify)
    p = sub.add_parser("replay", help="the board at a version, offline (--html: the whole game as one page)")
    p.add_argument("file")
    p.add_argument("--version", type=int)
    p.add_argument("--html", action="store_true",
                   help="write one self-contained HTML file: every version's picture, a replay slider, the log")
    p.add_argument("--whole", action="store_true", help="all of the board")
    p.set_defaults(fn=cmd_replay)
    sub.add_parser("run", help="the server with embedded defaults").set_defaults(fn=cmd_run)
    sub.add_parser("mail-in", help="the inbound SMTP listener (play by email)").set_defaults(fn=cmd_mail_in)
    admin = sub.add_parser("admin", help="the operator's commands (PBEM_ADMIN_TOKEN)")
    admin.add_argument("--token", help="the operator's token (default: $PBEM_ADMIN_TOKEN)")
    actions = admin.add_subparsers(dest="action", required=True)
    for name, help_ in (("queue", "a game's waiting moves, notices, deadlines"),
                        ("abandon", "end a game in play as abandoned"), ("delete", "remove a game entirely"),
                        ("compact", "compact a finished game now")):
        p = actions.add_parser(name, help=help_)
        p.add_argument("game_id")
        if name == "abandon":
            p.add_argument("--why")
        if name == "delete":
            p.add_argument("--yes", action="store_true")
    p = actions.add_parser("deliveries", help="deliveries that gave up")
    p.add_argument("--game")
    p.add_argument("--kind", choices=["webhook", "mail", "answer", "invitation"])
    p = actions.add_parser("retry", help="try a delivery that gave up again")
    p.add_argument("failure_id")
    actions.add_parser("sweep", help="expire open games, compact finished ones, deal full ones, now")
    admin.set_defaults(fn=cmd_admin)
    return parser


def main(argv: list[str] | None = None, out=None) -> int:
    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    if args.lang and not language_of(args.lang):
        print(f"pbem: no language {args.lang!r}: en (English) or zh-Hant (Traditional Chinese)", file=sys.stderr)
        return 2
    with reading(args.lang):
        try:
            return args.fn(args, out)
        except ApiError as err:
            print(_("error {status} {code}: {message}", status=err.status, code=err.code, message=err.message),
                  file=sys.stderr)
            examples = err.details.get("examples") if isinstance(err.details, dict) else None
            if examples:
                print(_("for example: {moves}", moves="; ".join(examples[:5])), file=sys.stderr)
            return 2
        except requests.exceptions.RequestException as err:
            print(unreachable(args.server, err), file=sys.stderr)
            return 3


if __name__ == "__main__":
    sys.exit(main())
