"""The `pbem` command against a real server and worker: two people play a
whole game from their terminals, then verify and replay the record offline."""
from __future__ import annotations

import io
import json
import random

from pbem import cli


def run(home, server, *args) -> tuple[int, str]:
    out = io.StringIO()
    import os
    old = os.environ.get("PBEM_HOME")
    os.environ["PBEM_HOME"] = str(home)
    try:
        code = cli.main(["--server", server, *args], out=out)
    finally:
        if old is None:
            os.environ.pop("PBEM_HOME", None)
        else:
            os.environ["PBEM_HOME"] = old
    return code, out.getvalue()


def test_two_people_play_from_the_terminal(api_server, start_worker, tmp_path):
    start_worker()
    ann, bob = tmp_path / "ann", tmp_path / "bob"
    url = api_server.url
    for home in (ann, bob):
        code, out = run(home, url, "keygen")
        assert code == 0 and out.startswith("public key: ")
        assert oct((home / "key.json").stat().st_mode & 0o777) == "0o600"
    code, out = run(ann, url, "types")
    assert "wakanda@1" in out and "moves: window: " in out and "moves: strict: " in out
    code, out = run(ann, url, "create", "wakanda", "--players", "2", "-o", "hidden_held_pieces=true")
    game_id = out.split()[1]
    assert run(ann, url, "join", game_id, "0", "--name", "Ann")[0] == 0
    assert run(bob, url, "join", game_id, "1", "--name", "Bob")[0] == 0
    rng = random.Random(4)
    for _ in range(200):
        code, shown = run(ann, url, "show", game_id)
        if ", over, " in shown.splitlines()[0]:
            break
        for home in (ann, bob):
            code, moves = run(home, url, "moves", game_id)
            if "not your turn" in moves:
                continue
            choice = rng.choice(moves.splitlines())
            code, out = run(home, url, "move", game_id, choice)
            assert code == 0 and out.startswith("applied"), out
            break
    else:
        raise AssertionError("the game did not end")
    assert "result:" in shown
    code, out = run(ann, url, "move", game_id, "fly to the moon")
    assert code == 2  # the game is over: refused with a code, nothing sent
    code, log = run(ann, url, "log", game_id)
    assert code == 0 and "Game over" in log
    code, record = run(ann, url, "record", game_id)
    path = tmp_path / "game.jsonl"
    path.write_text(record)
    code, out = run(ann, url, "verify", str(path))
    assert code == 0 and "seed checked" in out, out
    code, board = run(ann, url, "replay", str(path), "--version", "6")
    assert code == 0 and "Village" in board
    # a tampered record fails verification
    rows = [json.loads(line) for line in record.splitlines()]
    step = next(r for r in rows if r.get("envelope"))
    step["envelope"]["move"] = {"type": "pass"}
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    code, out = run(ann, url, "verify", str(path))
    assert code == 1 and "FAIL" in out


def test_a_list_option_is_given_as_comma_separated_text(api_server, tmp_path):
    home = tmp_path / "ann"
    code, out = run(home, api_server.url, "create", "carcassonne", "--players", "2",
                    "-o", "expansions=inns_cathedrals,king_robber", "-o", "start_player=1")
    assert code == 0, out
    game_id = out.split()[1]
    code, out = run(home, api_server.url, "create", "carcassonne", "--players", "2", "-o", "expansions=cult")
    assert code == 0, out
    from pbem.client import Client
    client = Client(api_server.url)
    assert client.game(game_id)["options"]["expansions"] == ["inns_cathedrals", "king_robber"]
    assert client.game(out.split()[1])["options"]["expansions"] == ["cult"]
