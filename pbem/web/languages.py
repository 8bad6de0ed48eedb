"""The pages' language: which one a page is read in, the switch between
them, and the messages the templates and the pages' scripts look up.

Which language a page is in, first found wins:

1. ``?lang=`` in the address (then remembered in a cookie: the switch on
   every page is a link with it), or that cookie;
2. the seat's own language, on a page for a seat (a turn mail's play link);
3. the browser's ``Accept-Language`` (zh-TW, zh-HK, zh-Hant: Chinese);
4. the game's language;
5. English.

The page is then rendered inside ``reading(lang)`` (``pbem.games.i18n``),
so the games' own texts on it (the board, the log, the legal moves) come
in that language too. The templates call ``_`` and ``ngettext`` with
named ``{}`` placeholders, as Python code does; the scripts get the
messages they use, translated, in a JSON block of the page (``js_catalog``)
and look them up with functions of the same names (static/i18n.js).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from babel.messages.extract import extract
from markupsafe import Markup, escape

from ..games.i18n import ENGLISH, N_, _, best_language, language, language_of, translations

#: The cookie that remembers a language chosen with ``?lang=``.
COOKIE = "pbem_lang"
COOKIE_MAX_AGE_S = 365 * 86400
#: The switch on every page: each language named in itself, never translated
#: (a reader who cannot read the page's language still finds their own).
SWITCH = (("en", "English"), ("zh-Hant", "中文"))
STATIC = Path(__file__).resolve().parent / "static"
#: The games' names as the pages show them.
GAME_TITLES = {"carcassonne": N_("Carcassonne"), "kachina": N_("Kachina"), "cartoona": N_("Cartoona"),
               "wakanda": N_("Wakanda")}
# The message functions the scripts call (the same names and arguments as Python's).
_JS_KEYWORDS = {"_": None, "ngettext": (1, 2)}


def asked_language(args, cookies) -> str | None:
    """The language the reader chose: ``?lang=``, else the remembered one."""
    return language_of(args.get("lang")) or language_of(cookies.get(COOKIE))


def page_language(asked: str | None, seat_lang=None, accept: str | None = None, game_lang=None) -> str:
    """The one rule (see the module's doc) for which language a page is in."""
    return (asked or language_of(seat_lang) or best_language(accept) or language_of(game_lang)
            or ENGLISH)


def game_title(name: str) -> str:
    """A game's name in the reader's language ("carcassonne" -> "卡卡頌")."""
    title = GAME_TITLES.get(name)
    return _(title) if title else str(name).title()


# -- the templates' message functions ------------------------------------------------------------

def _filled(text: str, args: dict, html: bool):
    if html:  # the message is markup the catalog trusts; what fills it is escaped
        return Markup(text).format(**{k: v if isinstance(v, Markup) else escape(v) for k, v in args.items()}) \
            if args else Markup(text)
    return text.format(**args) if args else text


def template_functions(html: bool = True) -> dict:
    """``_`` and ``ngettext`` for templates: a message may hold markup
    (``version <b>{n}</b> of {last}``); its placeholders' values are
    escaped. Babel extracts the calls from the templates
    (``jinja2.ext:babel_extract``, pbem/docgen/catalogs.py)."""
    def gettext(message: str, /, **args):
        return _filled(translations(language()).gettext(message), args, html)

    def ngettext(singular: str, plural: str, n: int, /, **args):
        return _filled(translations(language()).ngettext(singular, plural, n), {"n": n, **args}, html)

    return {"_": gettext, "gettext": gettext, "ngettext": ngettext}


# -- the scripts' messages --------------------------------------------------------------------------

@lru_cache(maxsize=1)
def js_messages() -> tuple[tuple, tuple]:
    """Every message the pages' scripts look up (read from the scripts, as
    ``make i18n`` reads them): (singulars, (singular, plural) pairs)."""
    singles, plurals = set(), set()
    for path in sorted(STATIC.glob("*.js")):
        with path.open("rb") as f:
            for _line, message, _comments, _context in extract("javascript", f, keywords=_JS_KEYWORDS):
                if isinstance(message, tuple):
                    plurals.add(message[:2])
                else:
                    singles.add(message)
    return tuple(sorted(singles)), tuple(sorted(plurals))


@lru_cache(maxsize=8)
def js_catalog(lang: str) -> dict:
    """The scripts' messages in ``lang``, for the page's JSON block: English
    needs none (the messages are English)."""
    out = {"lang": lang, "messages": {}, "plurals": {}}
    if lang == ENGLISH:
        return out
    found = translations(lang)
    singles, plurals = js_messages()
    out["messages"] = {m: found.gettext(m) for m in singles}
    out["plurals"] = {s: [found.ngettext(s, p, 1), found.ngettext(s, p, 2)] for s, p in plurals}
    return out


def switch_links(current: str) -> list[dict]:
    """The language switch: each language, its link, whether it is the page's."""
    return [{"lang": lang, "name": name, "href": f"?lang={lang}", "current": lang == current}
            for lang, name in SWITCH]


def sentence(message: str) -> str:
    """An error's message as a sentence: a capital first letter and a full
    stop in English; a Chinese one ends with 。 (the API's messages have no
    full stop of their own)."""
    text = (message or "").strip()
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    last = text[-1]
    if last in ".!?。！？」）":
        return text
    return text + ("。" if ord(last) >= 0x2E80 else ".")

