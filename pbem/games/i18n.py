"""The reader's language: every text a player reads is looked up here.

Why a context and not a parameter: a game's texts are built deep inside its
helpers (a refusal three calls down, a board's legend), and the language is a
fact about who reads, not about the game; so the edge that knows the reader
(a request with a seat's token, a mail to one seat, a page) says
``with reading("zh-Hant"):`` and everything built inside reads that
language, games included, with no parameter threaded through every helper.
The standard library's ``gettext`` reads the catalogs Babel compiles
(``make i18n``), so ``pbem/games/`` stays standard-library only.

How a text is written:

- ``_("{name} placed a tile", name=who)``: a message with named ``{}``
  placeholders, filled after translation (a translation may move them);
- ``ngettext("{n} point", "{n} points", n)``: a plural (``n`` is passed
  as a placeholder too); never "point(s)";
- ``pgettext("cartoona", "block")``: where the same English needs a
  different word in one game (the context keeps them apart);
- ``N_("...")``: a message defined before anybody reads it (an option's
  doc, a table of names), translated where it is shown with ``_(text)``.

The notation (the words a move is typed with) is not a message: each game
keeps its own table of words in both languages, parses both always, and
writes the one ``notation_language()`` names.

Catalogs: ``pbem/locale/<domain>.pot`` (extracted), and
``pbem/locale/zh_Hant/LC_MESSAGES/<domain>.po`` / ``.mo``; one domain per
part (``DOMAINS``), so the parts are translated apart. A message is looked
up in every domain, the first that has it wins.
"""
from __future__ import annotations

import contextvars
import gettext
import re
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

ENGLISH = "en"
CHINESE = "zh-Hant"
#: Every accented, bracketed English message: shows what was not looked up
#: (a text left in plain English on a page rendered in it was never
#: translated). Accepted wherever a language is, for translators and tests.
PSEUDO = "x-pseudo"
#: The languages a player may choose (``PSEUDO`` aside).
LANGUAGES = (ENGLISH, CHINESE)
#: The catalogs, one per part of pbem, in lookup order.
DOMAINS = ("core", "web", "mail", "carcassonne", "cartoona", "kachina", "wakanda")
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: The gettext locale directory name of each language with a catalog.
CATALOG_LOCALES = {CHINESE: "zh_Hant"}

_reading: contextvars.ContextVar = contextvars.ContextVar("pbem_reading", default=ENGLISH)

# What a reader or a browser may call each language (compared without case,
# "_" read as "-"): Taiwan's and Hong Kong's Chinese are written in
# Traditional characters; plain "zh" is taken as the only Chinese pbem has.
_ALIASES = {
    "en": ENGLISH, "english": ENGLISH, "英文": ENGLISH, "英語": ENGLISH, "英语": ENGLISH,
    "zh": CHINESE, "zh-hant": CHINESE, "zh-tw": CHINESE, "zh-hk": CHINESE, "zh-mo": CHINESE,
    "zh-hant-tw": CHINESE, "zh-hant-hk": CHINESE, "zh-hant-mo": CHINESE,
    "chinese": CHINESE, "中文": CHINESE, "繁中": CHINESE, "繁體": CHINESE, "繁體中文": CHINESE,
    "正體中文": CHINESE, "國語": CHINESE, "华语": CHINESE, "華語": CHINESE,
    PSEUDO: PSEUDO,
}


def language_of(tag) -> str | None:
    """The language pbem has for ``tag`` ("zh-TW" -> "zh-Hant", "en-GB" ->
    "en", "中文" -> "zh-Hant"), or None for one it has not (Simplified
    Chinese included: "zh-CN", "zh-Hans" are not read as Traditional)."""
    if not isinstance(tag, str):
        return None
    key = tag.strip().replace("_", "-").lower()
    if key in _ALIASES:
        return _ALIASES[key]
    head = key.split("-", 1)[0]
    if head == "en":
        return ENGLISH
    return None


def best_language(accept: str | None) -> str | None:
    """The language an ``Accept-Language`` header prefers among those pbem
    has (by its q-values, the header's order breaking ties), or None."""
    if not accept:
        return None
    ranked = []
    for order, part in enumerate(accept.split(",")):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _eq, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        lang = language_of(tag)
        if lang and lang != PSEUDO and q > 0:
            ranked.append((-q, order, lang))
    return min(ranked)[2] if ranked else None


class _Later:
    """A reader's language looked for when a text first needs it: a request
    names its reader by a seat's token, and finding that seat's language
    costs a read of the store that most answers (a move queued) never need."""

    __slots__ = ("find", "lang")

    def __init__(self, find):
        self.find, self.lang = find, None

    def get(self) -> str:
        if self.lang is None:
            self.lang = ENGLISH  # whatever happens while looking (a text of an error) reads English
            try:
                self.lang = language_of(self.find()) or ENGLISH
            except Exception:  # the store away: the reader reads English, the error is the caller's to meet
                pass
        return self.lang


def _now() -> str:
    lang = _reading.get()
    return lang if isinstance(lang, str) else lang.get()


def language() -> str:
    """The language of whoever reads the text being built now."""
    return _now()


def language_if_known() -> str | None:
    """``language()`` if it is known without looking (a ``reading`` given a
    function that was not called yet: None)."""
    lang = _reading.get()
    return lang if isinstance(lang, str) else lang.lang


def notation_language() -> str:
    """The language the move lines being built now are written in (the
    pseudo-locale writes English ones: they must paste back)."""
    return CHINESE if _now() == CHINESE else ENGLISH


@contextmanager
def reading(lang):
    """Build texts inside for a reader of ``lang`` (any tag ``language_of``
    knows; an unknown one or None reads English). ``lang`` may be a
    function that finds the tag: it is called once, when a text inside
    first asks for the language (``language_if_known`` tells whether it was)."""
    token = _reading.set(_Later(lang) if callable(lang) else (language_of(lang) or ENGLISH))
    try:
        yield
    finally:
        _reading.reset(token)


def read_on_in(lang) -> None:
    """From here to the end of the enclosing ``reading`` block, texts read
    ``lang`` (a reader who changed language while being answered: a mail's
    ``lang zh`` line, whose answer goes on in the new language)."""
    _reading.set(language_of(lang) or ENGLISH)


class _Pseudo(gettext.NullTranslations):
    """Every message accented and bracketed, placeholders and markup kept."""

    def gettext(self, message):
        return pseudo(message)

    def ngettext(self, singular, plural, n):
        return pseudo(singular if n == 1 else plural)

    def pgettext(self, context, message):
        return pseudo(message)

    def npgettext(self, context, singular, plural, n):
        return pseudo(singular if n == 1 else plural)


_ACCENTS = str.maketrans("aceinouyACEINOUY", "áçéîñöúýÁÇÉÎÑÖÚÝ")
# placeholders ({name}, {n:,}), markup (<b>, &amp;) and URLs stay as they are
_KEEP = re.compile(r"(\{[^{}]*\}|<[^<>]*>|&[a-z#0-9]+;|https?://\S+)")


def pseudo(message: str) -> str:
    """``message`` as the pseudo-locale shows it: ⟦àççéñtéd⟧."""
    if not message:
        return message
    parts = _KEEP.split(message)
    return "⟦" + "".join(p if i % 2 else p.translate(_ACCENTS) for i, p in enumerate(parts)) + "⟧"


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """The catalogs of ``lang``, every domain chained (English has none:
    the messages are English)."""
    if lang == PSEUDO:
        return _Pseudo()
    chain = gettext.NullTranslations()
    locale = CATALOG_LOCALES.get(lang)
    if locale is None:
        return chain
    first = None
    for domain in DOMAINS:
        try:
            found = gettext.translation(domain, localedir=str(LOCALE_DIR), languages=[locale])
        except OSError:  # a part with no catalog yet reads English
            continue
        if first is None:
            first = found
        else:
            first.add_fallback(found)
    return first or chain


def _fill(text: str, args: dict) -> str:
    return text.format(**args) if args else text


# Each lookup's answer kept: a board or a mail looks up the same few hundred
# messages thousands of times, and a zh-Hant lookup walks the chain of seven
# catalogs (the pseudo-locale rewrites the message each time). The catalogs
# are read once per process (``translations``), so an answer never changes;
# bounded, in case a caller translates texts it did not write.
@lru_cache(maxsize=8192)
def _gettext(lang: str, message: str) -> str:
    return translations(lang).gettext(message)


@lru_cache(maxsize=8192)
def _ngettext(lang: str, singular: str, plural: str, n: int) -> str:
    return translations(lang).ngettext(singular, plural, n)


@lru_cache(maxsize=8192)
def _pgettext(lang: str, context: str, message: str) -> str:
    return translations(lang).pgettext(context, message)


def _(message: str, /, **args) -> str:
    """``message`` in the reader's language, its ``{placeholders}`` filled."""
    # (``_now`` and ``_fill`` written out: a board calls this thousands of times)
    lang = _reading.get()
    text = _gettext(lang if isinstance(lang, str) else lang.get(), message)
    return text.format(**args) if args else text


def ngettext(singular: str, plural: str, n: int, /, **args) -> str:
    """The plural form for ``n`` in the reader's language (``{n}`` filled)."""
    return _fill(_ngettext(_now(), singular, plural, n), {"n": n, **args})


def pgettext(context: str, message: str, /, **args) -> str:
    """``message`` as it reads in ``context`` (a game's own word)."""
    lang = _reading.get()  # (``_now`` and ``_fill`` written out, as in ``_``)
    text = _pgettext(lang if isinstance(lang, str) else lang.get(), context, message)
    return text.format(**args) if args else text


def npgettext(context: str, singular: str, plural: str, n: int, /, **args) -> str:
    return _fill(translations(_now()).npgettext(context, singular, plural, n), {"n": n, **args})


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs; it is translated where it is shown."""
    return message


def join_words(words: list) -> str:
    """"a", "a and b", "a, b and c" in the reader's language ("a、b 和 c")."""
    words = [str(w) for w in words]
    if not words:
        return _("nobody")
    if len(words) == 1:
        return words[0]
    return _("{items} and {last}", items=_(", ").join(words[:-1]), last=words[-1])


def reader_language(*choices) -> str:
    """The first of ``choices`` that names a language pbem has (a seat's
    own, then its game's, say), else English: who reads what is decided
    once, here, for mails, pages and the API alike."""
    for choice in choices:
        lang = language_of(choice)
        if lang:
            return lang
    return ENGLISH
