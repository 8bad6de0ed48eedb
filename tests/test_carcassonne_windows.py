"""Carcassonne's decisions by seats other than the active one (the dragon's steps, the
Count's city, the bazaar's hosts and bidders, the tower's capture and prisoner
exchange, a castle and what it scores), played through the service on a real Redis with signed
envelopes, and each once left to its deadline: the server's default move (the
rules' ``default_move``, what a deadline with ``default_action`` = ``pass`` plays)
goes through the same pipeline."""
from __future__ import annotations

from pbem.trust import signing
from pbem.notify import deadlines

from .conftest import drain
from .test_service import submit

SECRET = b"windows"

# The scripted setups (draw order, expansions, options, and the moves that reach a window,
# as (seat, notation) pairs); tests/test_carcassonne_windows_by_mail.py plays them by mail.
#: seat 0's third tile is a dragon tile: the dragon flies, seats 0, 1, 0, ... a step each
DRAGON = (["PD1", "W", "PD7", "E"], ["princess_dragon"], {},
          [(0, "place 0,1 r0"), (1, "place 1,0 r0 follower road W"), (0, "place -1,0 r0")])
#: seat 1's tile completes seat 0's city (6 points): seat 1, scoring nothing, may enter the City
COUNT = (["N", "E", "E", "U"], ["count"], {}, [(0, "place 2,1 r0 follower city N"), (1, "place 2,0 r180")])
#: seat 0's bazaar tile: seat 1 hosts the bazaar (tiles U and V)
BAZAAR = (["BB6", "U", "V", "E"], ["bridges_castles_bazaars"], {}, [(0, "place 0,1 r0")])
#: seat 1 builds the tower at 2,0, next to seat 0's thief at 1,0: seat 1 may capture
TOWER = (["U", "E", "TO2", "TO11", "V", "B", "B", "U"], ["tower", "inns_cathedrals"], {},
         [(0, "place 1,0 r0 follower road E"), (1, "place 1,-1 r0 follower city N"),
          (0, "place 1,1 r0 big farmer NL"), (1, "place 2,0 r0"), (1, "tower 2,0")])
#: after seat 1's capture of seat 0's thief: three more captures on the tower at 1,1, the last
#: of which leaves seat 0 holding a follower of seat 1 while seat 1 holds two of seat 0's
TOWER_CAPTURES = [(0, "place 0,1 r0"), (0, "tower 1,1"), (0, "capture none"), (1, "place 2,1 r0"),
                  (1, "tower 1,1"), (1, "capture 1,1 field NL seat 0 big"), (0, "place 3,1 r0"),
                  (0, "tower 1,1"), (0, "capture 1,-1 city N seat 1")]
#: seat 0's castle; seat 1's L at 1,0 completes a road (3, seat 1's thief) and a city (8)
#: next to it: seat 0 chooses what its castle scores while seat 1 is the active seat
CASTLE_CHOICE = (["E", "W", "N", "N", "K", "L", "B"], ["bridges_castles_bazaars"],
                 {"castle_feature_choice": "owner_choice"},
                 [(0, "place 0,-1 r180 follower city S"), (0, "castle 0,-1 city S"), (1, "place -1,0 r0"),
                  (0, "place 1,-1 r180"), (1, "place 2,-1 r270"), (0, "place 2,0 r0"),
                  (1, "place 1,0 r0 follower road W")])


class OnService:
    """A game on the service (``service``, ``id``): its state now and who is to act."""

    @property
    def loaded(self):
        return self.service.load(self.id)

    def to_act(self) -> list:
        loaded = self.loaded
        return sorted(loaded.game.to_act(loaded.state))


class Table(OnService):
    """A scripted 2-seat Carcassonne game on the service."""

    def __init__(self, service, order, expansions, **options):
        self.service = service
        game = service.create_game("carcassonne", 2, {"draw_order": list(order), "start_player": 0,
                                                      "expansions": list(expansions), **options})
        self.id = game["id"]
        self.keys, self.tokens = [], []
        for seat in range(2):
            private, public = signing.generate_key()
            self.tokens.append(service.join(self.id, seat, public, f"P{seat}")["token"])
            self.keys.append(private)

    def play(self, seat: int, text: str) -> None:
        """Seat ``seat`` (it must be the one to act) signs and sends the move in notation."""
        assert self.to_act() == [seat], (text, self.to_act())
        parsed = self.service.parse(self.id, self.tokens[seat], text) if hasattr(self.service, "parse") else None
        move = parsed["move"] if isinstance(parsed, dict) and "move" in parsed else \
            self.loaded.game.parse(text, self.loaded.state, seat)
        record = submit(self.service, self.id, seat, self.keys, move)
        drain(self.service)
        assert self.service.move_status(self.id, record["id"])["status"] == "applied", text

    def deadline(self, seat: int) -> dict:
        """Let seat ``seat``'s deadline pass: the move the server plays, then played."""
        loaded = self.loaded
        assert loaded.game.to_act(loaded.state) == {seat}
        move = deadlines.choose_move(loaded, seat, "pass", SECRET)
        deadlines.submit_default(self.service, loaded, seat, move, "pass", loaded.version)
        drain(self.service)
        assert self.loaded.version > loaded.version
        return move

    def view(self, seat=0):
        return self.service.get_game(self.id, self.tokens[seat])["view"]

    def script(self, moves) -> "Table":
        for seat, text in moves:
            self.play(seat, text)
        return self


def scripted(service, setup, **more) -> Table:
    """A table of one of the scripted setups, its moves played."""
    order, expansions, options, moves = setup
    return Table(service, order, expansions, **options, **more).script(moves)


def test_the_dragon_flies_one_step_a_seat_and_a_deadline_takes_the_first_step(service):
    t = scripted(service, DRAGON)
    assert t.view()["dragon_flight"]["movers"] == [0, 1, 0, 1, 0, 1]
    t.play(0, "dragon N")
    # seat 1 (not the active seat) owes the next step: E or W; its deadline takes the first, E
    summary = t.service.get_game(t.id, t.tokens[1])
    assert summary["to_act"] == [1] and summary["active"] == 0   # in seat 0's turn
    assert [s["direction"] for s in t.view(1)["dragon_flight"]["steps_now"]] == ["E", "W"]
    assert t.deadline(1) == {"type": "dragon", "direction": "E"}
    assert t.view()["dragon"] == {"x": 1, "y": 0}
    assert t.view()["scores"] == [0, 0]                  # the thief was eaten before the road scored


def test_the_dragon_after_scoring_flies_at_the_turns_end_and_a_deadline_takes_the_first_step(service):
    t = scripted(service, DRAGON, dragon_move_timing="after_scoring")
    # the road was scored before the flight: seat 1's thief scored and went home
    assert t.view()["scores"] == [0, 3] and t.view()["dragon_flight"]["movers"] == [0, 1, 0, 1, 0, 1]
    assert t.view()["step"] == "end_turn"
    t.play(0, "dragon N")
    assert [s["direction"] for s in t.view(1)["dragon_flight"]["steps_now"]] == ["E", "W"]
    assert t.deadline(1) == {"type": "dragon", "direction": "E"}
    assert t.view()["dragon"] == {"x": 1, "y": 0} and t.view()["scores"] == [0, 3]


def _count_table(service):
    return scripted(service, COUNT)


def test_the_count_entry_and_leaving_through_the_service(service):
    t = _count_table(service)
    t.play(1, "enter castle count market")
    assert t.view()["count"]["quarters"]["castle"] == [{"player": 1, "figure": "follower"}]
    t.play(0, "place -2,2 r0 follower city N")
    assert t.view()["count"]["leaving"] == [1, 0] and t.to_act() == [1]
    t.play(1, "leave castle -2,2 city N")
    assert t.view()["scores"] == [10, 4]


def test_the_count_windows_left_to_their_deadlines(service):
    t = _count_table(service)
    assert t.deadline(1) == {"type": "count", "pass": True}          # stay out
    assert t.view()["count"]["quarters"]["castle"] == [] and t.to_act() == [0]
    t = _count_table(service)
    t.play(1, "enter castle count market")
    t.play(0, "place -2,2 r0 follower city N")
    assert t.deadline(1) == {"type": "count_move", "pass": True}     # move nobody
    assert t.view()["scores"] == [10, 0]


def test_the_bazaar_hosts_and_bidders_through_the_service(service):
    t = scripted(service, BAZAAR)
    assert t.view()["bazaar"]["host"] == 1 and t.view()["bazaar"]["phase"] == "pick"
    t.play(1, "bazaar 0 bid 2")
    t.play(0, "bid 3")
    assert t.view()["bazaar"]["phase"] == "deal"
    t.play(1, "sell")
    assert t.view()["scores"] == [-3, 3] and t.view()["bazaar_tiles"] == ["U", None]


def test_the_bazaar_left_to_its_deadlines(service):
    t = scripted(service, BAZAAR)
    assert t.deadline(1) == {"type": "bazaar", "tile": 0, "bid": 0}  # the first tile, bid 0
    assert t.deadline(0) == {"type": "bazaar", "pass": True}         # a bidder passes
    # the host's own bid stood: it buys, for 0; the last tile to seat 0 for nothing
    assert t.view()["scores"] == [0, 0] and t.view()["bazaar"] is None
    t = scripted(service, BAZAAR)
    t.play(1, "bazaar 1 bid 1")
    t.play(0, "bid 2")
    assert t.deadline(1) == {"type": "bazaar", "deal": "sell"}       # someone else bid: sell
    assert t.view()["scores"] == [-2, 2]



def test_the_draft_bazaar_left_to_its_deadline(service):
    t = scripted(service, BAZAAR, bazaar_mode="draft")
    assert t.view()["bazaar"]["mode"] == "draft" and t.view()["bazaar"]["phase"] == "pick"
    assert t.deadline(1) == {"type": "bazaar", "tile": 0}           # the first tile left
    # seat 0 takes the last tile; no points; seat 1 plays its U now
    assert t.view()["scores"] == [0, 0] and t.view()["bazaar"] is None
    assert t.view()["bazaar_tiles"] == ["V", None] and t.view()["tile"] == "U"
    t = scripted(service, BAZAAR, bazaar_mode="draft")
    t.play(1, "bazaar 1")
    assert t.view()["bazaar_tiles"] == ["U", None] and t.view()["tile"] == "V"


def _tower_table(service):
    return scripted(service, TOWER)


def test_the_capture_and_the_prisoner_exchange_through_the_service(service):
    t = _tower_table(service)
    t.play(1, "capture 1,0 road E seat 0")
    t.script(TOWER_CAPTURES)
    # seat 1 holds seat 0's follower and big follower: seat 0 picks which comes back
    assert t.to_act() == [0] and len(t.view()["tower"]["prisoners"]) == 3
    t.play(0, "exchange big")
    assert t.view()["tower"]["prisoners"] == [{"captor": 1, "player": 0, "figure": "follower"}]


def test_the_capture_and_the_exchange_left_to_their_deadlines(service):
    t = _tower_table(service)
    assert t.deadline(1) == {"type": "capture", "pass": True}        # capture nobody
    t = _tower_table(service)
    t.play(1, "capture 1,0 road E seat 0")
    t.script(TOWER_CAPTURES)
    assert t.deadline(0) == {"type": "exchange", "figure": "follower"}   # the one captured earliest
    assert t.view()["tower"]["prisoners"] == [{"captor": 1, "player": 0, "figure": "big"}]


def test_a_castle_decision_and_its_deadline(service):
    t = Table(service, ["E", "U"], ["bridges_castles_bazaars"])
    t.play(0, "place 0,-1 r180 follower city S")
    assert t.view()["castle_decision"] == {"player": 0, "x": 0, "y": -1, "on": "city S"}
    assert t.deadline(0) == {"type": "castle", "pass": True}         # keep the city: it scores
    assert t.view()["scores"][0] == 4


def _castle_choice_table(service):
    """The castle owner's choice (``CASTLE_CHOICE``)."""
    t = scripted(service, CASTLE_CHOICE)
    assert t.to_act() == [0] and t.view(1)["active"] == 1
    assert [o["points"] for o in t.view(1)["castle_feature_decision"]["options"]] == [8, 3]
    return t


def test_the_castle_owner_chooses_what_its_castle_scores_through_the_service(service):
    t = _castle_choice_table(service)
    t.play(0, "castle points 1,0 road W")
    assert t.view()["scores"] == [3, 3] and t.view()["castle_feature_decision"] is None
    assert t.to_act() == [0] and t.view()["tile"] == "B"


def test_the_castle_owner_choice_left_to_its_deadline_scores_the_highest(service):
    t = _castle_choice_table(service)
    assert t.deadline(0) == {"type": "choose_castle_feature", "x": 1, "y": 0, "on": "city N"}
    assert t.view()["scores"] == [8, 3] and t.to_act() == [0]
