"""The `pbem` command where no server answers, and its list options (no
server needed: a closed loopback port, and the parsing alone)."""
from __future__ import annotations

import socket
import subprocess
import sys

from pbem import cli


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again once the socket is: nothing listens there


def test_an_unreachable_server_is_one_line_naming_what_to_check(tmp_path):
    url = f"http://127.0.0.1:{closed_port()}"
    run = subprocess.run([sys.executable, "-m", "pbem.cli", "--server", url, "games"], capture_output=True,
                         text=True, env={"PBEM_HOME": str(tmp_path), "PATH": ""}, timeout=60)
    assert run.returncode == 3
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert url in lines[0] and "PBEM_SERVER" in lines[0] and "connection refused" in lines[0]
    assert "Traceback" not in run.stderr and not run.stdout


def test_list_options_take_comma_separated_text():
    described = [{"name": "expansions", "type": "list"}, {"name": "start_player", "type": "int"},
                 {"name": "fixed_bag", "type": "list"}]
    assert cli.list_options({"expansions": "inns_cathedrals"}, described) == {"expansions": ["inns_cathedrals"]}
    assert cli.list_options({"expansions": "inns_cathedrals, king_robber"}, described) == {
        "expansions": ["inns_cathedrals", "king_robber"]}
    assert cli.list_options({"expansions": ""}, described) == {"expansions": []}
    assert cli.list_options({"expansions": ["cult"]}, described) == {"expansions": ["cult"]}  # JSON stays
    assert cli.list_options({"fixed_bag": 3, "start_player": 1}, described) == {"fixed_bag": [3], "start_player": 1}
    # what -o gives: name=value, JSON where it reads as JSON
    assert cli.parse_option("expansions=inns_cathedrals") == ("expansions", "inns_cathedrals")
    assert cli.parse_option('expansions=["cult"]') == ("expansions", ["cult"])
