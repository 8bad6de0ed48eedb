"""The words of Carcassonne's notation in both languages.

The notation is not a message: a move line must paste back as the move it
names, whoever reads it, so its words are a fixed table here, not the
catalogs. ``localize`` writes an English move line (as the describe
functions build it) in the words of ``notation_language()``; ``english``
reads a line typed in either language, or both mixed word by word, back as
the English line the parsers read. Coordinates (``1,0``), rotations
(``r90``), edges (``N``, ``NL``), numbers and names stay as they are.

The Chinese words are the glossary's (``docs/rules/carcassonne.md``, "In
Chinese"): 放置 place, 隨從 follower, 城市 city... A Chinese word is one
token without spaces, so a line keeps the English word order and one
grammar reads both; Chinese typed without spaces ("放置1,0 r90 隨從城市N")
is cut into the table's words, the longest first.
"""
from __future__ import annotations

import re

from ..i18n import CHINESE, notation_language

#: (English word or phrase as the notation writes it, the Chinese word written
#: for it, other Chinese words read as it). A phrase ("no castle") is written
#: as one Chinese word.
WORDS = (
    ("place", "放置", ("放",)),
    ("follower", "隨從", ("米寶", "小隨從", "小人")),
    ("knight", "騎士", ()),
    ("thief", "強盜", ("盜賊",)),
    ("monk", "修道士", ()),
    ("farmer", "農夫", ()),
    ("city", "城市", ()),
    ("road", "道路", ()),
    ("cloister", "修道院", ()),
    ("field", "田地", ("農地", "草地")),
    ("big", "大隨從", ("大人", "大米寶")),
    ("builder", "建築師", ("工程師",)),
    ("pig", "小豬", ()),
    ("heretic", "異教徒", ()),
    ("shrine", "異教神殿", ("神殿",)),
    ("escape", "逃脫", ()),
    ("no escape", "不逃脫", ()),
    ("abbey", "大修道院", ()),
    ("draw", "抽", ("抽板塊",)),
    ("mayor", "市長", ()),
    ("wagon", "馬車", ()),
    ("barn", "穀倉", ("榖倉",)),
    ("home", "收回", ("回家",)),
    ("dragon", "火龍", ()),
    ("fairy", "仙女", ("仙子",)),
    ("princess", "公主", ()),
    ("portal", "傳送門", ("任意門",)),
    ("seat", "座位", ()),
    ("tower", "高塔", ()),
    ("top", "頂端", ("塔頂",)),
    ("capture", "俘虜", ("捕獲",)),
    ("none", "無", ("沒有",)),
    ("exchange", "交換", ()),
    ("ransom", "買回", ("贖回",)),
    ("enter", "進入", ()),
    ("leave", "離開", ()),
    ("stay out", "留在城外", ()),
    ("count", "伯爵", ()),
    ("blacksmith", "鐵匠區", ()),
    ("cathedral", "大教堂區", ()),
    ("market", "市集區", ()),
    ("bridge", "橋樑", ("橋",)),
    ("castle", "城堡", ("城堡區",)),
    ("no castle", "不建城堡", ()),
    ("points", "計分", ()),
    ("bazaar", "市集", ()),
    ("bid", "出價", ("競標",)),
    ("pass", "跳過", ("不出價",)),
    ("buy", "買下", ()),
    ("sell", "賣出", ("賣給",)),
    ("tile", "板塊", ()),
    ("catapult", "攻城車", ("投石器",)),
    ("knockout", "擊倒", ()),
    ("seduction", "誘拐", ()),
    ("shoot", "發射", ("射擊",)),
    ("no shot", "不發射", ()),
    ("tunnel", "隧道", ("隧道圓片",)),
    ("no tunnel", "不放隧道", ()),
    ("red", "紅色", ("紅",)),
    ("blue", "藍色", ("藍",)),
    ("green", "綠色", ("綠",)),
    ("yellow", "黃色", ("黃",)),
    ("black", "黑色", ("黑",)),
    ("grey", "灰色", ("灰",)),
    ("N", "北", ()),
    ("E", "東", ()),
    ("S", "南", ()),
    ("W", "西", ()),
)
#: English words written differently in a line of the Count (the districts).
DISTRICT_WORDS = {"castle": "城堡區"}
#: words written only in the Chinese help's placeholders (never moves)
_WRITE_ONLY = {"N", "E", "S", "W"}

_TO_CHINESE = {en: zh for en, zh, _more in WORDS if en not in _WRITE_ONLY}
_PHRASES = sorted((en for en in _TO_CHINESE if " " in en), key=len, reverse=True)
_TO_ENGLISH = {}
for _en, _zh, _more in WORDS:
    for _word in (_zh, *_more):
        _TO_ENGLISH.setdefault(_word, _en)
_LONGEST = max(len(w) for w in _TO_ENGLISH)
#: a run of Chinese characters (the notation's Chinese words are all Han)
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_TOKEN = re.compile(r"\b[A-Za-z]+\b")   # a word, also inside "[follower" or "farmer]"


def chinese(word: str) -> str:
    """The Chinese notation word for an English one (itself where there is none)."""
    return _TO_CHINESE.get(word, word)


def localize(line: str) -> str:
    """An English move line in the words of ``notation_language()`` (English:
    unchanged). Word by word, so ``seat 1``, ``1,0``, ``r90``, ``N`` stay."""
    if notation_language() != CHINESE or not line:
        return line
    for phrase in _PHRASES:
        line = re.sub(r"(?<!\S)" + re.escape(phrase) + r"(?!\S)", _TO_CHINESE[phrase], line)
    line = re.sub(r"\bseat (\d+)\b", "座位\\1", line)   # as the other games write a seat: 座位2
    district = line.split(" ", 1)[0] in ("enter", "leave")
    return _TOKEN.sub(lambda m: (DISTRICT_WORDS.get(m.group(0)) if district else None)
                      or _TO_CHINESE.get(m.group(0), m.group(0)), line)


def _english_run(run: str) -> str:
    """A run of Chinese characters as English words, cut into the table's
    words (the longest first); a character no word starts with stays."""
    out, i = [], 0
    while i < len(run):
        for size in range(min(_LONGEST, len(run) - i), 0, -1):
            word = _TO_ENGLISH.get(run[i:i + size])
            if word is not None:
                out.append(word)
                i += size
                break
        else:
            out.append(run[i])
            i += 1
    return " " + " ".join(out) + " "


def english(text: str) -> str:
    """A line typed in Chinese, English or both, as the English line the
    parsers read (the text unchanged where it has no Chinese word)."""
    if not isinstance(text, str) or not _HAN.search(text):
        return text
    return " ".join(_HAN.sub(lambda m: _english_run(m.group(0)), text).split())
