"""The documentation holds together: every relative link in the README, docs/
and deploy/ points at a file or folder that exists, the README is an
entrance (the two commands first, under 250 lines) and names every page of
docs/ a reader would look for."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Markdown links and images: [text](target) and ![alt](target "title").
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
#: Text inside code spans and fences is code, not links.
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "deploy").rglob("*.md"))]


def relative_links(path: Path) -> list[str]:
    text = CODE.sub("", path.read_text())
    return [t for t in LINK.findall(text)
            if not re.match(r"^[a-z][a-z0-9+.-]*:", t, re.I) and not t.startswith("#")]


def test_the_link_finder_sees_links_and_skips_code(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("[a](docs/a.md) ![b](img/b.png \"B\") [c](https://x.test/c) [d](#d) [e](mailto:x@y.test)\n"
                    "`[f](nowhere.md)`\n```\n[g](nowhere.md)\n```\n[h](../up.md#part)\n")
    assert relative_links(page) == ["docs/a.md", "img/b.png", "../up.md#part"]


def test_every_relative_link_points_at_something():
    broken = []
    for path in pages():
        for target in relative_links(path):
            where = target.split("#", 1)[0]
            if where and not (path.parent / where).exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert not broken, "links that point nowhere:\n" + "\n".join(broken)


def test_the_readme_is_an_entrance():
    lines = (ROOT / "README.md").read_text().split("\n")
    assert len(lines) < 250, f"the README has {len(lines)} lines: the reference belongs in docs/"
    commands = [line.strip().split("#")[0].strip() for line in lines[:6] if line.startswith("    ")]
    assert commands[:2] == ["make run", "make test"]
    linked = set(relative_links(ROOT / "README.md"))
    for page in ("docs/api.md", "docs/operations.md", "docs/architecture.md", "docs/performance.md",
                 "docs/testing.md", "docs/playing.md", "docs/img/game-page.png", "docs/img/turn-mail.png"):
        assert page in linked, f"the README does not lead to {page}"


#: A merge's conflict markers at the start of a line (what a half-finished merge leaves).
CONFLICT = re.compile(r"^(<{7} |={7}$|>{7} )", re.M)


def test_no_page_or_module_holds_a_merge_conflict():
    texts = [*pages(), *sorted((ROOT / "pbem").rglob("*.py")), *sorted((ROOT / "pbem").rglob("*.html")),
             *sorted((ROOT / "pbem").rglob("*.js")), *sorted((ROOT / "tests").rglob("*.py"))]
    left = [f"{p.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}"
            for p in texts for text in [p.read_text(errors="replace")] for m in CONFLICT.finditer(text)]
    assert not left, "merge conflict markers left in:\n" + "\n".join(left)
