"""``pbem show GAME --svg FILE --png FILE`` against a real server: the
caller's view, with the caller's legal spots when it is their turn."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from tests.test_cli import run

from .png_pixels import decode


def test_show_writes_the_picture_of_the_callers_view(api_server, start_worker, tmp_path):
    start_worker()
    ann, bob = tmp_path / "ann", tmp_path / "bob"
    url = api_server.url
    for home in (ann, bob):
        assert run(home, url, "keygen")[0] == 0
    code, out = run(ann, url, "create", "carcassonne", "--players", "2",
                    "-o", 'draw_order=["E", "U", "V"]', "-o", "start_player=0")
    assert code == 0, out
    game_id = out.split()[1]
    assert run(ann, url, "join", game_id, "0", "--name", "Ann")[0] == 0
    assert run(bob, url, "join", game_id, "1", "--name", "Bob")[0] == 0
    svg, image = tmp_path / "ann.svg", tmp_path / "ann.png"
    code, out = run(ann, url, "show", game_id, "--svg", str(svg), "--png", str(image), "--scale", "1.5")
    assert code == 0, out
    assert f"wrote {svg}" in out and f"wrote {image}" in out
    assert "Ann" in out or "seat 0" in out          # the text board is still printed
    root = ET.fromstring(svg.read_text())
    texts = " ".join("".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}tspan"))
    assert "Ann (you)" in texts and "Bob" in texts
    legal = [e for e in root.iter() if e.get("class") == "legal"]
    code, moves = run(ann, url, "moves", game_id)
    cells = {line.split()[1] for line in moves.splitlines() if line.startswith("place ")}
    assert {f"{e.get('data-x')},{e.get('data-y')}" for e in legal} == cells
    width, height, _ = decode(image.read_bytes())
    # 1.5 times the SVG's size (the renderer rounds a half pixel up)
    assert abs(width - float(root.get("width")) * 1.5) <= 0.5 and abs(height - float(root.get("height")) * 1.5) <= 0.5
    # Bob is not to act: his picture marks nothing
    code, out = run(bob, url, "show", game_id, "--svg", str(tmp_path / "bob.svg"))
    assert code == 0
    bob_root = ET.fromstring((tmp_path / "bob.svg").read_text())
    assert not [e for e in bob_root.iter() if e.get("class") == "legal"]
