"""The message catalogs: made from the code as it is, every message
translated into Traditional Chinese, and no translation that asks for a
placeholder the original does not give (or drops one it gives)."""
from __future__ import annotations

import string
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po

from pbem.docgen.catalogs import ROOT, po_path
from pbem.games import i18n
from pbem.games.i18n import CATALOG_LOCALES, DOMAINS, _, join_words, ngettext, reading


def _catalogs():
    for domain in DOMAINS:
        for locale in CATALOG_LOCALES.values():
            path = po_path(domain, locale)
            with path.open("rb") as f:
                yield domain, locale, read_po(f, locale=locale, domain=domain)


def _fields(text: str) -> set:
    """The named placeholders of a brace-format message ({{ }} are not)."""
    return {name.split(".")[0].split("[")[0] for _lit, name, _spec, _conv in string.Formatter().parse(text)
            if name is not None}


def test_catalogs_are_made_from_the_code_as_it_is():
    run = subprocess.run([sys.executable, "-m", "pbem.docgen.catalogs", "--check"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_message_has_its_traditional_chinese_translation():
    missing = []
    for domain, locale, cat in _catalogs():
        for msg in cat:
            if not msg.id:
                continue
            strings = msg.string if isinstance(msg.string, (tuple, list)) else (msg.string,)
            if msg.fuzzy or not all(s and s.strip() for s in strings):
                missing.append(f"{domain} {locale}: {msg.id!r}")
    assert not missing, f"{len(missing)} untranslated:\n" + "\n".join(missing[:40])


def test_translations_keep_the_placeholders_of_their_message():
    wrong = []
    for domain, locale, cat in _catalogs():
        for msg in cat:
            if not msg.id or not msg.string:
                continue
            ids = msg.id if isinstance(msg.id, (tuple, list)) else (msg.id,)
            strings = msg.string if isinstance(msg.string, (tuple, list)) else (msg.string,)
            want = set().union(*(_fields(i) for i in ids))
            for s in strings:
                if not s:
                    continue
                try:
                    got = _fields(s)
                except ValueError as e:  # an unbalanced brace
                    wrong.append(f"{domain}: {msg.id!r} -> {s!r}: {e}")
                    continue
                # a plural's one Chinese form may leave {n} out ("一張"), never add one
                if got - want or (want - got - {"n"}):
                    wrong.append(f"{domain}: {msg.id!r} -> {s!r}: {sorted(want)} vs {sorted(got)}")
    assert not wrong, "\n".join(wrong[:40])


@pytest.mark.parametrize("tag, lang", [
    ("zh-TW", "zh-Hant"), ("zh_Hant", "zh-Hant"), ("zh-HK", "zh-Hant"), ("中文", "zh-Hant"), ("zh", "zh-Hant"),
    ("en-GB", "en"), ("EN", "en"), ("zh-CN", None), ("zh-Hans", None), ("fr", None), (None, None), ("", None),
])
def test_language_tags_read_as_the_language_pbem_has(tag, lang):
    assert i18n.language_of(tag) == lang


def test_accept_language_is_read_by_its_preferences():
    assert i18n.best_language("fr;q=0.9, zh-TW;q=0.8, en;q=0.5") == "zh-Hant"
    assert i18n.best_language("en;q=0.4, zh-HK") == "zh-Hant"
    assert i18n.best_language("zh-CN, en-US;q=0.7") == "en"
    assert i18n.best_language("zh-TW;q=0, en;q=0.1") == "en"
    assert i18n.best_language("de, fr") is None
    assert i18n.best_language("x-pseudo") is None  # never chosen by a browser


def test_a_message_reads_in_the_language_of_its_reader():
    with reading("zh-Hant"):
        assert join_words(["甲", "乙", "丙"]) == "甲、乙和丙"
        with reading("en"):
            assert join_words(["a", "b"]) == "a and b"
        assert _("nobody") == "沒有人"
    assert join_words(["a", "b", "c"]) == "a, b and c"
    assert ngettext("{n} point", "{n} points", 1) == "1 point"
    assert ngettext("{n} point", "{n} points", 2) == "2 points"


def test_the_pseudo_locale_marks_every_message_and_keeps_placeholders_and_markup():
    with reading(i18n.PSEUDO):
        text = _("<b>{name}</b> scored {n} points, see https://example.org/x", name="Ann", n=3)
    assert text.startswith("⟦") and text.endswith("⟧")
    assert "<b>Ann</b>" in text and " 3 " in text and "https://example.org/x" in text
    assert "scored" not in text and "sçöréd" in text
    with reading(i18n.PSEUDO):
        assert i18n.notation_language() == "en"  # the move lines must still paste back


def test_a_reader_reads_the_first_language_chosen_for_them():
    assert i18n.reader_language(None, "zh-TW") == "zh-Hant"
    assert i18n.reader_language("en", "zh-Hant") == "en"
    assert i18n.reader_language("klingon", None) == "en"


def test_times_read_in_the_readers_language_and_zone():
    from pbem.when import when
    moment = 1796312580  # 2026-12-03 15:43 UTC
    assert when(moment, lang="en").replace("\u202f", " ") == "Dec 3, 2026 3:43 PM UTC"  # CLDR's narrow space before PM
    assert when(moment, lang="zh-Hant").startswith("2026年12月3日") and "11:43" in when(moment, lang="zh-Hant")
    assert when(moment, lang="zh-Hant").endswith("台北標準時間")  # the zone is said
    assert "10:43\u202fAM America/New_York" in when(moment, "America/New_York", lang="en")
    assert when(moment, "Not/AZone", lang="en").endswith("UTC")
