"""The Cartoona Game object: options, setup, views, results, resampling."""
from __future__ import annotations

import functools
import random
from typing import Any

from ..base import (
    OMNISCIENT, SPECTATOR, BadOptions, Game, IllegalMove, Option, Result, SnapshotOutdated, name_seat, placings_from_keys,
    plain_names, plain_width,
)
from ..i18n import N_, _, join_words, ngettext
from . import creatures as cr
from . import moves as mv
from . import notation, text
from .data import (
    CARDS, NORMAL_IDS, PARTS, SINGLE_IDS, START_CARDS, START_TILES, TEAM_LAYOUTS,
)
from .names import points
from .rules import creature_points, evolve, same_team, team_game

#: Version of ``dump``'s format (2: creature tiles as ordered pairs).
SNAPSHOT_FORMAT = 2
MODES = ("full", "basic", "basic_team", "solo", "kids")
FULL_LAYOUTS = ("2x2", "3x2", "2x3", "2x4")
BASIC_TEAM_LAYOUTS = ("2x2", "3x2", "2x3", "2x4", "4x2")


def parse_kids_target(value: str) -> str:
    kind, _sep, arg = value.partition(":")
    if kind == "min_tiles":
        if not arg.isdigit() or not 2 <= int(arg) <= 8:
            raise BadOptions("bad_kids_target", _("The kids' goal “min_tiles:N” needs N from 2 to 8."))
    elif kind == "single_colour":
        if arg:
            raise BadOptions("bad_kids_target", _("The kids' goal “single_colour” takes nothing after it."))
    elif kind == "parts":
        parts = [x for x in arg.split(",") if x]
        if not parts or any(x not in PARTS or x == "single" for x in parts):
            raise BadOptions("bad_kids_target", _("The kids' goal “parts:…” lists parts from {parts}.",
                                                  parts=", ".join(p for p in PARTS if p != "single")))
    else:
        raise BadOptions("bad_kids_target",
                         _("The kids' goal is “min_tiles:N”, “single_colour” or “parts:…”."))
    return value


#: The setup's first words, for each way to play.
SETUP_TITLES = {
    "full": N_("Cartoona, the full game with cards"),
    "basic": N_("Cartoona, the basic game"),
    "basic_team": N_("Cartoona, the basic team game"),
    "solo": N_("Cartoona for one player (the solo game)"),
    "kids": N_("Cartoona for kids"),
}


class Cartoona(Game):
    name = "cartoona"
    version = 2
    title = "Cartoona"
    min_players = 1
    max_players = 8
    hidden_information = True
    error_codes = {
        "unknown_move": "the move's type is not a move of this game's mode",
        "not_now": "no move of this type is possible now",
        "illegal_<move type>": "this move of that type is not legal here (an example legal one is in the "
                               "message), e.g. illegal_place_tile",
        "bad_teams": "the team layout does not fit the mode",
        "bad_kids_target": "the kids_target option is not `min_tiles:N` with N from 2 to 8",
        "not_text": "a move is a line of text",
        "empty": "no move given",
        "unknown_command": "the text names no command of the notation",
        "tile_expected": "the command needs exactly one tile, like t17",
        "card_expected": "the command needs a card, like k12",
        "colour_expected": "a two-colour tile needs a colour: `... as yellow`",
        "bad_colour": "the colour is not yellow, blue, magenta or purple",
        "creature_expected": "score names a creature, like c3",
        "seat_expected": "call cheat names a seat, like `call cheat on seat 2`",
        "forfeit_expected": "call cheat names the card given up if the call is wrong",
        "bad_order": "the standing order is not one of the orders",
    }
    view_fields = {
        "target_score": "full game: the score that wins at once",
        "placings": "once the game is over: each seat's placing (1 = first; tied seats share one)",
        "mode": "the game mode: full, basic, basic_team, solo or kids",
        "players": "the number of seats",
        "turn": "turns played so far",
        "active": "the seat whose turn it is",
        "phase": "the step of the active seat's turn",
        "to_act": "the seats to act now (others may answer a reaction window)",
        "scores": "per seat",
        "stack": "tiles left in the draw stack",
        "hand_sizes": "per seat, tiles in hand",
        "creatures": "the creatures on the table: `id`, `owner`, `tiles` (socket to tile), `open` sockets, "
                     "`complete`, and where they apply `colour`, `cards` attached, `points`",
        "end": "how the game ended (null while it runs)",
        "teams": "team games: each seat's team",
        "team_scores": "team games: per team",
        "tile_discard": "full and basic modes: tiles in the discard",
        "set_aside": "full and basic modes: tiles set aside",
        "last_turn": "full and basic modes: true during the last round",
        "deck": "full mode: cards left in the deck",
        "card_counts": "full mode: per seat, cards in hand",
        "card_discard": "full mode: the discarded cards",
        "face_down_cards": "full mode: cards played face down",
        "placed": "full mode: whether the active seat has placed its tile this turn",
        "played": "full mode: whether the active seat has played a card this turn",
        "out_of_turn_used": "full mode: seats that used their out-of-turn play",
        "out_of_turn_passed": "full mode: seats that passed on it",
        "called": "full mode: cheat calls made",
        "orders": "full mode: per seat, its standing orders",
        "thefts": "full mode: secret thefts not yet safe (`id`, `tile`, `creature`, `victim`; once the game is "
                  "over also `thief`, `card` and the `turn` it was made in)",
        "window": "full mode: the open reaction window (`id`, `player`, `card`, `kind`, `eligible`, "
                  "`pending`, `answered`, this seat's `my_answer`), or null",
        "instant": "full mode: an instant play under way (`player`; `tile` for that seat), or null",
        "drawn": "solo mode: the tile drawn",
        "discarded": "solo mode: the tiles set aside",
        "pool": "kids mode: the tiles in the centre",
        "held": "kids mode: the tile held, or null",
        "target": "kids mode: the goal",
        "hand": "this seat's own tiles (a seat's view only)",
        "cards": "full mode: this seat's own cards",
        "my_theft": "full mode: this seat's own pending theft (as in `thefts`, with `thief`, `card`, `turn`), or null",
        "hands": "every seat's tiles (once the game is over)",
        "stack_order": "the draw stack in order (once the game is over)",
        "card_hands": "full mode: every seat's cards (once the game is over)",
    }
    notation_help = text.HELP

    def notation_help_for(self, options: dict) -> str:
        return text.help_for(options)

    def notation_examples(self, options: dict) -> list:
        return text.examples_for(options)

    def describe_setup(self, options: dict, players: int | None = None) -> str:
        mode = options.get("mode", "full")
        parts = [_(SETUP_TITLES.get(mode, SETUP_TITLES["full"]))]
        if players is not None:
            parts.append(ngettext("{n} player", "{n} players", players))
        if options.get("teams", "none") != "none":
            t, size = TEAM_LAYOUTS[options["teams"]]
            parts.append(_("{teams} teams of {size}, teammates seated together", teams=t, size=size)
                         if options.get("team_turn_order", "together") == "together" else
                         _("{teams} teams of {size}, teammates seated in turn with the other teams", teams=t,
                           size=size))
        if mode == "full":
            parts.append(_("first to {n} points wins", n=options.get("target_score", 50)))
            parts.append(_("a Block answers any other player's card") if options.get("block_out_of_turn", True)
                         else _("out of turn only Instant and Special cards (a Block only on your own turn)"))
            if options.get("cheat_cards"):
                parts.append(_("Cheat cards and secret thefts, bluffs allowed") if options.get("allow_bluff_steal")
                             else _("Cheat cards and secret thefts"))
        if options.get("use_single_creatures"):
            parts.append(_("with the single-tile creatures"))
        if mode == "kids":
            parts.append(_("the goal: {goal}", goal=text.kids_goal(options.get("kids_target", "min_tiles:4"))))
        if mode in ("basic", "basic_team") and not options.get("basic_must_place", True):
            parts.append(_("placing a tile is up to you"))
        return _("{setup}.", setup=_("; ").join(parts))

    def describe_result(self, result, names=None) -> str:
        data = result.as_dict() if isinstance(result, Result) else dict(result or {})
        outcome = data.get("outcome", "won")
        reason = text.end_words(data.get("reason"))
        scores = data.get("scores") or []
        detail = data.get("detail") or {}
        if outcome == "lost":
            return _("{name} lost ({points}): {reason}.", name=name_seat(0, names),
                     points=points(scores[0] if scores else 0), reason=reason)
        if outcome == "no_winner":
            return _("No winner: {reason}.", reason=reason)
        winners = join_words([name_seat(w, names) for w in data.get("winners") or []])
        if data.get("reason") in ("kids_target", "kids_time_up") or not scores:
            return _("{names} won: {reason}.", names=winners, reason=reason)
        if len(scores) == 1:
            return _("{names} won ({points}): {reason}.", names=winners, points=points(scores[0]), reason=reason)
        teams = detail.get("teams")
        if teams:
            totals = {}
            for q, team in enumerate(teams):
                totals.setdefault(team, scores[q])
            tally = _(", ").join(_("team {n} {score}", n=team + 1, score=x) for team, x in sorted(totals.items()))
        else:
            tally = _(", ").join(f"{name_seat(q, names)} {x}" for q, x in enumerate(scores))
        return _("{names} won ({tally}): {reason}.", names=winners, tally=tally, reason=reason)
    concurrency = "window"
    concurrency_doc = ("Full game: each seat answering a reaction window, or free to act in a turn (the active "
                       "player, out-of-turn plays), may sign at any version since that window or turn began; "
                       "the basic, solo and kids' games are strict.")
    options = (
        Option("block_out_of_turn", False, N_("full game: a Block may answer any other player's card, out of turn "
               "too (the rule of cartoona@1). Off, the rulebook's rule: only Instant and Special cards are played "
               "out of turn, so a Block answers only a card played during your own turn")),
        Option("mode", "full", N_("how to play: full (with cards, first to 50 points), basic (2 to 5 "
               "players: draw two tiles, place one, discard one), basic_team (4, 6 or 8 players in teams), solo "
               "(1 player), kids (1 to 6 players)"), str, choices=MODES),
        Option("teams", "none", N_("teams as TEAMSxSIZE: 2x2, 3x2, 2x3, 2x4 (full or basic_team), 4x2 "
               "(basic_team only), or none"), str, choices=("none",) + BASIC_TEAM_LAYOUTS),
        Option("team_turn_order", "together", N_("teammates seated together (the rulebook) or alternating with the "
               "other teams"), str,
               choices=("together", "alternating")),
        Option("use_single_creatures", False, N_("include the 3 single-tile creatures (full and basic games)")),
        Option("cheat_cards", False, N_("include the 4 Cheat cards and the secret theft (full game)")),
        Option("cheat_timing", "any_time", N_("when a secret theft may be made: any_time (whenever you may act "
               "and no card waits for answers: the thief stays unknown) or own_turn (as your turn's card "
               "play)"), str, choices=("any_time", "own_turn")),
        Option("allow_bluff_steal", False, N_("allow a secret theft without a Cheat card (-25 if caught)")),
        Option("false_call_penalty", "discard_one", N_("penalty for calling cheat on an innocent player"), str,
               choices=("discard_one", "none")),
        Option("double_includes_cards", False, N_("the single-colour doubling also doubles point cards")),
        Option("limit_counts_completed", False,
               N_("completed creatures not yet scored count toward the creature limit")),
        Option("team_any_member_scores", False, N_("any team member may score a team creature")),
        Option("basic_must_place", True, N_("basic games: you must place a tile when you can")),
        Option("basic_auto_score", True, N_("basic games: completed creatures score at once")),
        Option("allow_creature_merge", True, N_("a tile that plugs into two creatures merges them")),
        Option("tie_break", "shared", N_("ties share the placing"), str, choices=("shared",)),
        Option("target_score", 50, N_("full game: points (team total) that win at once"), int, minimum=1, maximum=1000),
        Option("kids_target", "min_tiles:4", N_("kids' goal: min_tiles:N, single_colour or parts:head,tail,..."), str),
        Option("kids_solo_turn_limit", 20, N_("kids' game with one child: turns before time is up"), int,
               minimum=1, maximum=1000),
        Option("kids_turn_limit", 40, N_("kids' game with 2 or more children: rounds before it ends with no "
               "winner (0: no limit)"),
               int, minimum=0, maximum=1000),
    )
    sample_setups = (
        (2, {}),
        (3, {"cheat_cards": True, "use_single_creatures": True}),
        (4, {"cheat_cards": True, "allow_bluff_steal": True, "cheat_timing": "own_turn"}),
        (5, {"target_score": 30}),
        (4, {"teams": "2x2"}),
        (6, {"teams": "3x2", "cheat_cards": True, "team_any_member_scores": True}),
        (6, {"teams": "2x3", "team_turn_order": "alternating", "use_single_creatures": True}),
        (8, {"teams": "2x4", "target_score": 30}),
        (2, {"mode": "basic"}),
        (3, {"mode": "basic", "use_single_creatures": True, "basic_auto_score": False}),
        (4, {"mode": "basic"}),
        (5, {"mode": "basic", "basic_must_place": False, "allow_creature_merge": False}),
        (4, {"mode": "basic_team", "teams": "2x2", "use_single_creatures": True}),
        (6, {"mode": "basic_team", "teams": "3x2", "team_turn_order": "alternating"}),
        (6, {"mode": "basic_team", "teams": "2x3"}),
        (8, {"mode": "basic_team", "teams": "2x4"}),
        (8, {"mode": "basic_team", "teams": "4x2"}),
        (1, {"mode": "solo"}),
        (1, {"mode": "kids"}),
        (2, {"mode": "kids"}),
        (3, {"mode": "kids", "kids_target": "single_colour"}),
        (4, {"mode": "kids", "kids_target": "min_tiles:3"}),
        (5, {"mode": "kids", "kids_target": "min_tiles:5", "kids_turn_limit": 15}),
        (6, {"mode": "kids", "kids_target": "parts:head,body_front", "kids_turn_limit": 10}),
        (3, {"block_out_of_turn": True, "cheat_cards": True, "allow_bluff_steal": True}),
    )

    #: one setup per way to play, for bench/engines.py
    bench_setups = (
        (3, {}),
        (4, {"cheat_cards": True, "allow_bluff_steal": True}),
        (4, {"teams": "2x2"}),
        (3, {"mode": "basic"}),
        (6, {"mode": "basic_team", "teams": "3x2"}),
        (1, {"mode": "solo"}),
        (4, {"mode": "kids"}),
    )

    # ---------------------------------------------------------------- options

    def check_setup(self, players: int, options: dict) -> None:
        mode, teams = options["mode"], options["teams"]
        if mode == "full":
            if teams == "none":
                if not 2 <= players <= 5:
                    raise BadOptions("bad_player_count", _("The individual full game takes 2 to 5 players."))
            elif teams not in FULL_LAYOUTS:
                raise BadOptions("bad_teams", _("The full team game is played as {layouts}.",
                                                  layouts=", ".join(FULL_LAYOUTS)))
        elif mode == "basic":
            if teams != "none":
                raise BadOptions("bad_teams", _("The basic individual game has no teams; teams play mode basic_team."))
            if not 2 <= players <= 5:
                raise BadOptions("bad_player_count", _("The basic individual game takes 2 to 5 players."))
        elif mode == "basic_team":
            if teams == "none":
                raise BadOptions("bad_teams", _("The basic team game needs teams: {layouts}.",
                                                  layouts=", ".join(BASIC_TEAM_LAYOUTS)))
        elif mode == "solo":
            if teams != "none" or players != 1:
                raise BadOptions("bad_player_count", _("The solo game is for 1 player, without teams."))
        elif mode == "kids":
            if teams != "none":
                raise BadOptions("bad_teams", _("The kids' game has no teams."))
            if not 1 <= players <= 6:
                raise BadOptions("bad_player_count", _("The kids' game takes 1 to 6 players."))
            parse_kids_target(options["kids_target"])
        if teams != "none":
            t, size = TEAM_LAYOUTS[teams]
            if players != t * size:
                raise BadOptions("bad_player_count", _("Teams {teams} means {t} teams of {size}: {need} players, "
                                                       "not {players}.", teams=teams, t=t, size=size,
                                                       need=t * size, players=players))
        if options["cheat_cards"] and mode != "full":
            raise BadOptions("bad_option_value", _("Cheat cards are played in the full game only (mode full)."))
        if options["allow_bluff_steal"] and not options["cheat_cards"]:
            raise BadOptions("bad_option_value", _("Bluffs (allow_bluff_steal) need the Cheat cards (cheat_cards)."))
        if options["use_single_creatures"] and mode in ("solo", "kids"):
            raise BadOptions("bad_option_value", _("The single-tile creatures are not used in the solo or kids' game."))

    # ---------------------------------------------------------------- life cycle

    def start(self, players: int, options: dict):
        o = dict(options)
        if o["teams"] != "none":
            t, size = TEAM_LAYOUTS[o["teams"]]
            team = [p // size if o["team_turn_order"] == "together" else p % t for p in range(players)]
        else:
            team = list(range(players))
        return {
            "mode": o["mode"], "n": players, "opts": o, "team": team,
            "stack": [], "tdisc": [], "aside": [], "hands": [[] for _seat in range(players)],
            "deck": [], "chands": [[] for _seat in range(players)], "cdisc": [], "cdown": [],
            "cre": {}, "next_cid": 1, "att": {}, "fixed": {},
            "scores": [0] * players, "active": 0, "start_player": 0, "turn": 0, "phase": "setup",
            "placed": False, "played": False, "used": [], "passed": [], "called": [],
            "window": None, "next_window": 1, "instant": None, "thefts": [], "next_theft": 1,
            "orders": [[] for _seat in range(players)], "last": False, "end": None,
            "drawn": None, "pool": [], "held": None,
        }

    def setup(self, state, rng: random.Random):
        s = state
        o = s["opts"]
        em = mv.Emitter(s, rng)
        start = rng.randrange(s["n"])
        em({"type": "GameStarted", "mode": s["mode"], "players": s["n"], "teams": o["teams"],
            "start": start})
        tiles = list(NORMAL_IDS) + (list(SINGLE_IDS) if o["use_single_creatures"] else [])
        rng.shuffle(tiles)
        em({"type": "TilesShuffled", "count": len(tiles), "secret": {"order": tiles}, "to": []})
        if s["mode"] == "full":
            cards = [c["id"] for c in CARDS if o["cheat_cards"] or c["kind"] != "cheat"]
            rng.shuffle(cards)
            em({"type": "CardsShuffled", "count": len(cards), "secret": {"order": cards}, "to": []})
        if s["mode"] in ("full", "basic", "basic_team"):
            for p in range(s["n"]):
                em({"type": "TilesDealt", "player": p, "count": START_TILES,
                    "secret": {"tiles": em.s["stack"][:START_TILES]}, "to": [p]})
                if s["mode"] == "full":
                    em({"type": "CardsDealt", "player": p, "count": START_CARDS,
                        "secret": {"cards": em.s["deck"][:START_CARDS]}, "to": [p]})
        mv.begin_turn(em, start)
        return em.events

    def evolve(self, state, event):
        return evolve(state, event)

    def to_act(self, state) -> frozenset:
        return mv.to_act(state)

    def turn_of(self, state) -> frozenset:
        """Full game, free play: only the active player's turn. The seats that
        may play out of turn then (``anytime``) are to act, but the turn does
        not wait for them (the active player's ``end turn`` ends it). A
        reaction window waits for every seat still to answer it, an Instant's
        tile for its player; the other modes have one seat to act."""
        s = state
        if s["mode"] == "full" and s["end"] is None and mv.free_phase(s):
            return frozenset((s["active"],))
        return mv.to_act(s)

    def active_seat(self, state):
        """The active player: a reaction window's answers are made in their turn."""
        return None if state["end"] is not None else state["active"]

    def legal_moves(self, state, player):
        return mv.legal_moves(state, player)

    def decide(self, state, player, move, rng):
        if state["end"] is None and player not in mv.to_act(state):
            from .refusals import not_your_turn
            raise IllegalMove("not_your_turn", not_your_turn(state, player))
        self.check_turn(state, player)
        return mv.decide(state, player, move, rng)

    def default_move(self, state, player):
        s = state
        legal = mv.legal_moves(s, player)
        if not legal:
            return None
        by_type = {}
        for m in legal:
            by_type.setdefault(m["type"], m)
        if s["mode"] == "full":
            for kind in ("pass", "keep", "end_turn"):
                if kind in by_type:
                    return by_type[kind]
        if s["mode"] == "kids":
            for kind in ("draw", "take", "place_tile", "pool_tile"):
                if kind in by_type:
                    return by_type[kind]
        if s["mode"] == "solo":
            return by_type.get("place_tile") or by_type.get("discard_tile")
        for kind in ("place_tile", "discard_tile", "end_turn"):
            if kind in by_type:
                return by_type[kind]
        return legal[0]

    # ---------------------------------------------------------------- concurrency

    def window(self, state):
        """Full game: an open reaction window (by its id), an Instant's tile
        waiting (until the next card), or else the turn's free play (the
        active player and the seats free to act out of turn). A move signed
        in one of these still stands while the seat acts in the same one
        (``Game.concurrent_ok``); the free play of a turn is the same window
        again once a reaction window closes. The other modes: one seat acts."""
        s = state
        if s["mode"] != "full" or s["end"] is not None:
            return None
        if s["window"] is not None:
            return ["reaction", s["turn"], s["window"]["id"]]
        if s["instant"] is not None:
            return ["instant", s["turn"], s["next_window"]]
        return ["turn", s["turn"]]

    # ---------------------------------------------------------------- views

    def redact_move(self, move, mover, viewer, events=None):
        """Withhold the moves that name what their events keep face down:
        the tile of a face-down discard; the card of a block, and so also a
        pass in a reaction window (answers are secret until the window
        resolves, and a pass must look like a block); who made a secret
        theft and with which card; and the card a caught cheat's caller
        offered to forfeit (only a failed call shows it). Until a move is
        applied its events are unknown, so these kinds are withheld while
        queued or refused whatever they would have done."""
        kind = move.get("type") if isinstance(move, dict) else None
        if viewer in (mover, OMNISCIENT):
            return move
        if kind in ("block", "cheat"):
            return None
        if kind == "discard_tile" and (events is None or any(_keeps_secret(e, viewer) for e in events)):
            return None
        if kind == "pass" and (events is None or any(e.get("type") == "ReactionAnswered" for e in events)):
            return None
        if kind == "call_cheat" and (events is None or not any(e.get("type") == "CheatCallFailed" for e in events)):
            return None
        return move

    def view(self, state, viewer: Any) -> dict:
        s = state
        full = s["mode"] == "full"
        v = {
            "mode": s["mode"], "players": s["n"], "turn": s["turn"], "active": s["active"],
            "phase": s["phase"], "to_act": sorted(mv.to_act(s)), "scores": list(s["scores"]),
            "stack": len(s["stack"]), "hand_sizes": [len(h) for h in s["hands"]],
            "creatures": [self._creature_view(s, s["cre"][k]) for k in sorted(s["cre"], key=int)],
            "end": s["end"],
        }
        if s["end"] is not None:
            v["placings"] = list(self.result(s).placings)
        if team_game(s):
            v["teams"] = list(s["team"])
            v["team_scores"] = [sum(s["scores"][q] for q in range(s["n"]) if s["team"][q] == t)
                                for t in range(max(s["team"]) + 1)]
        if s["mode"] in ("full", "basic", "basic_team"):
            v["tile_discard"] = len(s["tdisc"])
            v["set_aside"] = len(s["aside"])
            v["last_turn"] = s["last"]
        if s["mode"] in ("basic", "basic_team"):
            pass
        if full:
            v.update({
                "deck": len(s["deck"]), "card_counts": [len(h) for h in s["chands"]],
                "target_score": s["opts"]["target_score"],
                "card_discard": list(s["cdisc"]), "face_down_cards": len(s["cdown"]),
                "placed": s["placed"], "played": s["played"], "out_of_turn_used": list(s["used"]),
                "out_of_turn_passed": list(s["passed"]), "called": list(s["called"]),
                "orders": [list(o) for o in s["orders"]],
                "thefts": [{k: th[k] for k in ("id", "tile", "creature", "victim")} for th in s["thefts"]],
            })
            w = s["window"]
            if w is not None:
                wv = {k: w[k] for k in ("id", "player", "card", "kind", "eligible", "pending") if k in w}
                for k in ("tile", "with"):
                    if k in w:
                        wv[k] = w[k]
                wv["answered"] = sorted(int(q) for q in w["answers"])
                if viewer == OMNISCIENT:
                    wv["answers"] = dict(w["answers"])
                elif viewer is not None and str(viewer) in w["answers"]:
                    wv["my_answer"] = w["answers"][str(viewer)]
                v["window"] = wv
            else:
                v["window"] = None
            inst = s["instant"]
            if inst is not None:
                v["instant"] = {"player": inst["player"]}
                if viewer == OMNISCIENT or viewer == inst["player"]:
                    v["instant"]["tile"] = inst["tile"]
            else:
                v["instant"] = None
        if s["mode"] == "solo":
            v["drawn"] = s["drawn"]
            v["discarded"] = list(s["aside"])
        if s["mode"] == "kids":
            v.update({"pool": list(s["pool"]), "held": s["held"], "target": s["opts"]["kids_target"]})
        if viewer == OMNISCIENT:
            v["hands"] = [list(h) for h in s["hands"]]
            v["stack_order"] = list(s["stack"])
            if full:
                v["card_hands"] = [list(h) for h in s["chands"]]
                v["thefts"] = [dict(th) for th in s["thefts"]]
        elif isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < s["n"]:
            v["hand"] = list(s["hands"][viewer])
            if full:
                v["cards"] = list(s["chands"][viewer])
                mine = [th for th in s["thefts"] if th["thief"] == viewer]
                v["my_theft"] = dict(mine[0]) if mine else None
        return v

    def _creature_view(self, s, c):
        tiles = c["tiles"]
        shown, open_, complete = _shape(tuple(tiles.items()))
        out = {"id": c["id"], "owner": c["owner"], "tiles": dict(shown),
               "open": list(open_), "complete": complete}
        if "colour" in c:
            out["colour"] = c["colour"]
        if s["att"]:
            cards = {str(t): list(s["att"][str(t)]) for _part, t in shown if str(t) in s["att"]}
            if cards:
                out["cards"] = cards
        if out["complete"]:
            out["points"] = creature_points(s, c)["total"]
        return out

    # ---------------------------------------------------------------- results

    def result(self, state):
        s = state
        if s["end"] is None:
            return None
        end = s["end"]
        n = s["n"]
        if s["mode"] == "solo":
            total = sum(creature_points(s, c)["total"] for c in s["cre"].values() if cr.is_complete(c["tiles"]))
            won = bool(end.get("won"))
            return Result((total,), (1,), "won" if won else "lost",
                          {"won": won, "reason": end["reason"]}, outcome="won" if won else "lost")
        if s["mode"] == "kids":
            w = end.get("winner")
            scores = tuple(1 if p == w else 0 for p in range(n))
            # a kids' game out of time has no winner (every seat shares the placing)
            return Result(scores, placings_from_keys(list(scores)), end["reason"], {"winner": w},
                          outcome="won" if w is not None else "no_winner")
        if team_game(s):
            totals = [sum(s["scores"][q] for q in range(n) if s["team"][q] == s["team"][p]) for p in range(n)]
        else:
            totals = list(s["scores"])
        return Result(tuple(totals), placings_from_keys(totals), end["reason"],
                      {"individual": list(s["scores"]), "teams": list(s["team"]) if team_game(s) else None,
                       "winner": end.get("winner")})

    # ---------------------------------------------------------------- hidden information

    def resample(self, state, viewer, rng: random.Random):
        if viewer == OMNISCIENT:
            return state
        s = dict(state)
        me = viewer if isinstance(viewer, int) and not isinstance(viewer, bool) else None
        # tiles: stack, face-down discard and other players' hands
        pinned_t = set()
        if s["instant"] is not None and s["instant"]["player"] != me:
            pinned_t.add(s["instant"]["tile"])
        slots = [("stack", None), ("tdisc", None)] + [("hands", q) for q in range(s["n"]) if q != me]
        s = self._redeal(s, slots, pinned_t, rng)
        if s["mode"] == "full":
            pinned_c = set()
            for th in s["thefts"]:
                if th["thief"] != me and th["card"] is not None:
                    pinned_c.add(th["card"])
            if s["window"] is not None:
                for q, c in s["window"]["answers"].items():
                    if int(q) != me and c is not None:
                        pinned_c.add(c)
            slots = [("deck", None), ("cdown", None)] + [("chands", q) for q in range(s["n"]) if q != me]
            s = self._redeal(s, slots, pinned_c, rng)
            if s["thefts"] and s["opts"]["cheat_timing"] != "own_turn":
                s = self._move_thefts(s, me, pinned_c, rng)
        return s

    @staticmethod
    def _move_thefts(s, me, pinned, rng):
        """Each pending theft of another seat given, at random, to a seat
        that could have made it (the viewer cannot tell who stole): not the
        viewer, not on the victim's team, without a pending theft of its
        own, and none whose turn has begun since (it would have been made
        safe then). A theft made with a Cheat card takes the card along, the
        new thief giving one of its own cards back so every count stays. With
        ``cheat_timing: own_turn`` the thief was the active seat of its turn,
        public: kept."""
        thefts = [dict(th) for th in s["thefts"]]
        chands = [list(h) for h in s["chands"]]
        busy = {th["thief"] for th in thefts}
        for th in thefts:
            thief, card = th["thief"], th["card"]
            if thief == me or thief is None:
                continue
            since = max(0, s["turn"] - th.get("turn", s["turn"]))
            began = {(s["active"] - k) % s["n"] for k in range(min(since, s["n"]))}

            def spare(q):  # cards q could give the thief for the Cheat card
                return [c for c in chands[q] if c not in pinned]

            seats = [q for q in range(s["n"])
                     if q == thief or (q != me and q not in busy and q not in began
                                       and not same_team(s, q, th["victim"]) and (card is None or spare(q)))]
            q = rng.choice(seats)
            if q == thief:
                continue
            if card is not None:
                given = rng.choice(spare(q))
                chands[thief] = [given if c == card else c for c in chands[thief]]
                chands[q] = [card if c == given else c for c in chands[q]]
            busy = (busy - {thief}) | {q}
            th["thief"] = q
        return {**s, "thefts": thefts, "chands": chands}

    @staticmethod
    def _redeal(s, slots, pinned, rng):
        pool = []
        for key, q in slots:
            lst = s[key] if q is None else s[key][q]
            pool.extend(x for x in lst if x not in pinned)
        rng.shuffle(pool)
        for key, q in slots:
            lst = s[key] if q is None else s[key][q]
            kept = [x for x in lst if x in pinned]
            k = len(lst) - len(kept)
            new = kept + pool[:k]
            del pool[:k]
            if q is None:
                s[key] = new
            else:
                outer = list(s[key])
                outer[q] = new
                s[key] = outer
        return s

    # ---------------------------------------------------------------- snapshots

    def dump(self, state):
        """The state as JSON, keeping the one order a JSON object loses: the
        order a creature's tiles joined it (``tiles`` as [part, tile] pairs).
        The store sorts object keys, and what iterates a creature's tiles
        (the cards a CreatureScored lists, the tile discard's order and so
        the next reshuffle, the order of the legal card plays) must answer
        from a snapshot exactly as from the state it was made of."""
        cre = {k: {**c, "tiles": [[part, t] for part, t in c["tiles"].items()]} for k, c in state["cre"].items()}
        return {**state, "cre": cre, "format": SNAPSHOT_FORMAT}

    def load(self, data):
        if data.get("format") != SNAPSHOT_FORMAT and any(len(c["tiles"]) > 1 for c in data["cre"].values()):
            # An older dump (tiles as an object: their order is lost); the
            # server replays the log instead.
            raise SnapshotOutdated("a Cartoona dump from before creature tile order was kept")
        state = {k: v for k, v in data.items() if k != "format"}
        # Creatures by id, as the live state holds them (a new creature takes
        # the next id); a JSON object read back sorts "10" before "2".
        state["cre"] = {k: {**data["cre"][k], "tiles": dict(data["cre"][k]["tiles"])}
                        for k in sorted(data["cre"], key=int)}
        return state

    # ---------------------------------------------------------------- text

    def describe(self, item: dict, viewer: Any = SPECTATOR, names=None) -> str:
        return text.describe(item, viewer, names)

    def parse(self, text_in: str, state, player, names=None):
        return notation.parse(self, plain_width(text_in), state, player, plain_names(names))

    def render(self, state, viewer: Any = SPECTATOR, names=None, whole=False) -> str:
        return text.render(self, state, viewer, names)


GAME = Cartoona()


# Every view shows every creature on the table, and a creature's tiles stay
# as they are for many turns: its shape (its tiles in the parts' order, not in
# the order they joined: see ``dump``; its open sockets; whether complete) is
# worked out once per set of tiles. A pure function of the tiles; bounded.
@functools.lru_cache(maxsize=4096)
def _shape(tiles: tuple) -> tuple:
    as_dict = dict(tiles)
    return tuple(cr.in_part_order(as_dict)), tuple(cr.open_sockets(as_dict)), cr.is_complete(as_dict)


def _keeps_secret(event: dict, viewer: Any) -> bool:
    return "secret" in event and viewer != OMNISCIENT and viewer not in event.get("to", ())


class CartoonaV1(Cartoona):
    """``cartoona@1``, the rules of the games created before ``cartoona@2``:
    a Block may answer another seat's card out of turn (the digest's
    reading; ``@2`` has it as the ``block_out_of_turn`` option and plays the
    source's by default). Kept so that games in progress, and their
    records, play on as they began."""

    version = 1
    options = tuple(o for o in Cartoona.options if o.name != "block_out_of_turn")
    sample_setups = ((3, {"cheat_cards": True, "use_single_creatures": True}), (4, {"teams": "2x2"}))
    bench_setups = ()
