"""The generated documentation, each from the registry it describes, with a
``--check`` the tests run: the error codes (``error_docs``: docs/api.md's
list, docs/errors.md, the OpenAPI document's ``x-error-codes``; ``make
errors``), the games' views (``view_docs``: docs/views/; ``make docs``) and
the settings table (``settings_docs``: docs/operations.md; ``make
settings``); and two generated assets: the message catalogs (``catalogs``:
pbem/locale; ``make i18n``) and the pictures' font subsets
(``font_subset``: pbem/pictures/fonts; ``make fonts``)."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def refresh(targets: dict[Path, str], argv: list[str], make_target: str) -> int:
    """Write the ``targets`` (path -> text) that are stale; with ``--check``
    in ``argv`` only name them and answer 1 if any is."""
    stale = [p for p, text in targets.items() if not p.exists() or p.read_text() != text]
    if "--check" in argv:
        for p in stale:
            print(f"{p.relative_to(ROOT)} is stale: run `make {make_target}`")
        return 1 if stale else 0
    for p in stale:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(targets[p])
        print(f"wrote {p.relative_to(ROOT)}")
    return 0
