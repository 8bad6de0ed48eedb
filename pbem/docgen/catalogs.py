"""The message catalogs (``make i18n``): extract every message of each part
of pbem into ``pbem/locale/<domain>.pot``, merge it into each language's
``.po`` (new messages arrive untranslated, gone ones are dropped) and
compile the ``.mo`` files the server reads (``pbem.games.i18n``).
``--check`` only says which file is stale (the tests run it).

Locations are written without line numbers, so a catalog changes only when
a message does, not when code moves (fewer conflicts between branches).
"""
from __future__ import annotations

import io
import sys
from datetime import datetime, timezone
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from pbem.docgen import ROOT
from pbem.games.i18n import CATALOG_LOCALES, DOMAINS, LOCALE_DIR

#: What each catalog holds: (folder under ROOT, its files' patterns and how
#: each is read; the first pattern a file matches decides). The domains
#: share no file: "ignore" keeps the others' files out of the wide "core".
_PY = ("**.py", "python")
SOURCES: dict[str, list] = {
    "carcassonne": [("pbem/games/carcassonne", [_PY]), ("pbem/pictures/carcassonne", [_PY])],
    "cartoona": [("pbem/games/cartoona", [_PY]),
                 ("pbem/pictures", [("cartoona.py", "python"), ("cartoona_*.py", "python")])],
    "kachina": [("pbem/games", [("kachina.py", "python")]), ("pbem/pictures", [("kachina.py", "python")])],
    "wakanda": [("pbem/games", [("wakanda.py", "python")]), ("pbem/pictures", [("wakanda.py", "python")])],
    "web": [("pbem/web", [_PY, ("templates/**.html", "jinja2.ext:babel_extract"), ("static/**.js", "javascript")])],
    "mail": [("pbem/notify", [_PY]), ("pbem/mail_in", [_PY])],
    "core": [("pbem", [("games/carcassonne/**", "ignore"), ("games/cartoona/**", "ignore"),
                       ("games/kachina.py", "ignore"), ("games/wakanda.py", "ignore"),
                       ("pictures/carcassonne/**", "ignore"), ("pictures/cartoona.py", "ignore"),
                       ("pictures/cartoona_*.py", "ignore"),
                       ("pictures/kachina.py", "ignore"), ("pictures/wakanda.py", "ignore"),
                       ("web/**", "ignore"), ("notify/**", "ignore"), ("mail_in/**", "ignore"),
                       ("docgen/**", "ignore"), _PY])],
}
assert set(SOURCES) == set(DOMAINS)

#: The message functions (``pbem.games.i18n``; the pages' scripts call theirs by the same names).
KEYWORDS = {
    "_": None, "N_": None, "gettext": None,
    "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3),
}
_OPTIONS = {"**.html": {"extensions": "jinja2.ext.i18n", "trimmed": "true"}}
# Fixed dates: a catalog is the same bytes whenever it is made from the same messages.
_EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)
_HEADER = "# pbem's messages ({domain}). Made by `make i18n`; translate in the .po files."


def template(domain: str) -> Catalog:
    """Every message of ``domain``'s sources, as a template (no translations)."""
    cat = Catalog(project="pbem", version="1", creation_date=_EPOCH, revision_date=_EPOCH,
                  msgid_bugs_address="", copyright_holder="pbem", fuzzy=False,
                  header_comment=_HEADER.format(domain=domain))
    for folder, methods in SOURCES[domain]:
        base = ROOT / folder
        if not base.exists():
            continue
        for filename, lineno, message, comments, context in extract_from_dir(
                str(base), method_map=methods, options_map=_OPTIONS, keywords=KEYWORDS,
                comment_tags=("i18n:",), strip_comment_tags=True):
            path = (base / filename).relative_to(ROOT).as_posix()
            if not message or (isinstance(message, str) and not message.strip()):
                continue
            flags = ("python-brace-format",) if "{" in (message if isinstance(message, str) else message[0]) else ()
            cat.add(message, locations=[(path, None)], auto_comments=comments, context=context, flags=flags)
    return cat


def _po_bytes(cat: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, cat, width=100, sort_output=True, include_lineno=False, ignore_obsolete=True)
    return out.getvalue()


def _mo_bytes(cat: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, cat, use_fuzzy=False)
    return out.getvalue()


def po_path(domain: str, locale: str) -> Path:
    return LOCALE_DIR / locale / "LC_MESSAGES" / f"{domain}.po"


def targets() -> dict[Path, bytes]:
    """Every catalog file as ``make i18n`` would write it now."""
    out: dict[Path, bytes] = {}
    for domain in DOMAINS:
        pot = template(domain)
        out[LOCALE_DIR / f"{domain}.pot"] = _po_bytes(pot)
        for locale in CATALOG_LOCALES.values():
            path = po_path(domain, locale)
            if path.exists():
                with path.open("rb") as f:
                    po = read_po(f, locale=locale, domain=domain)
            else:
                po = Catalog(locale=locale, domain=domain, project="pbem", version="1",
                             creation_date=_EPOCH, revision_date=_EPOCH, fuzzy=False,
                             header_comment=_HEADER.format(domain=domain))
            po.update(pot, no_fuzzy_matching=True, update_header_comment=True)
            po.creation_date = po.revision_date = _EPOCH
            out[path] = _po_bytes(po)
            out[path.with_suffix(".mo")] = _mo_bytes(po)
    return out


def main(argv: list[str]) -> int:
    # refresh() compares and writes text: catalogs are UTF-8, .mo files are
    # bytes, so compare bytes here and hand refresh the stale ones only.
    files = targets()
    stale = {p: b for p, b in files.items() if not p.exists() or p.read_bytes() != b}
    if "--check" in argv:
        for p in stale:
            print(f"{p.relative_to(ROOT)} is stale: run `make i18n`")
        return 1 if stale else 0
    for p, data in stale.items():
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
        print(f"wrote {p.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
