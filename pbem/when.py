"""Dates and times as their reader reads them: in the reader's language
(Babel's CLDR formats) and time zone, the zone named where a time is shown
(a mail read in Taipei says 台北標準時間; an English one says UTC unless
the seat chose a zone)."""
from __future__ import annotations

from datetime import datetime, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel import Locale
from babel.dates import format_date, format_datetime, format_time, format_timedelta

from pbem.games.i18n import CHINESE, language

#: The zone a reader who chose none reads times in, by language.
DEFAULT_ZONES = {CHINESE: "Asia/Taipei"}
_LOCALES = {CHINESE: "zh_Hant_TW"}


def zone_of(name: str | None, lang: str | None = None) -> ZoneInfo:
    """The zone ``name`` (IANA, "Asia/Taipei"), else the language's usual
    one, else UTC. An unknown name reads as if none was given."""
    for candidate in (name, DEFAULT_ZONES.get(lang or language())):
        if candidate:
            try:
                return ZoneInfo(candidate)
            except (ZoneInfoNotFoundError, ValueError):
                continue
    return ZoneInfo("UTC")


def valid_zone(name) -> bool:
    try:
        ZoneInfo(name)
        return isinstance(name, str)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        return False


def _locale(lang: str | None) -> Locale:
    return _parsed(_LOCALES.get(lang or language(), "en"))


@lru_cache(maxsize=8)
def _parsed(name: str) -> Locale:
    # Parsed once: Babel parses a locale's name on every call given a string
    # (most of the time of a date, and the lobby shows hundreds).
    return Locale.parse(name)


def when(moment: float | datetime, zone: str | None = None, lang: str | None = None) -> str:
    """A moment (a Unix time or a datetime) as the reader reads it, its
    zone named: "Dec 3, 2026 3:43 PM UTC", "2026年12月3日 下午11:43 台北標準時間"."""
    lang = lang or language()
    at = moment if isinstance(moment, datetime) else datetime.fromtimestamp(moment, timezone.utc)
    tz = zone_of(zone, lang)
    locale = _locale(lang)
    day_time = f"{format_date(at.astimezone(tz), 'medium', locale=locale)} {format_time(at, 'short', tzinfo=tz, locale=locale)}"
    zone_name = format_datetime(at, "zzzz", tzinfo=tz, locale=locale) if lang == CHINESE else tz.key
    return f"{day_time} {zone_name}"


def how_long(seconds: float, lang: str | None = None) -> str:
    """A span as the reader says it: "3 days", "3天"."""
    return format_timedelta(seconds, threshold=1.0, locale=_locale(lang))
