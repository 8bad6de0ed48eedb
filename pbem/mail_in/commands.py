"""Every line a player may write by mail, as one whole: which command a
line is read as (``read_as``, ``lobby_word``, ``announcement_word``), and the
``help`` answer's list of them, grouped, one example each in the reader's
words with the other language's word beside it (``help_lines``).

Each feature reads its own lines in its own module (chat_command,
vacation_command, digest_command, language_command, rematch, my_games,
subscriptions, pbem/games/takeback.py); this module only asks them, so a
line means one thing wherever it is read. tests/test_mail_commands.py feeds
every word of every feature through the mail reader and checks that each is
read as exactly one command, in both languages and typed full width.
"""
from __future__ import annotations

from ..games import handover, takeback
from ..games.base import plain_width
from ..games.i18n import CHINESE, N_, _, notation_language
from . import chat_command, digest_command, language_command, my_games, rematch, vacation_command

# The commands of a reply to a game's mail that are single words, in either
# language (a reader is shown their own: pbem/mail_in/words.py). "指令" is no
# help word: it is Cartoona's standing order in Chinese.
HELP_WORDS = ("help", "?", "commands", "說明", "幫助")
BOARD_WORDS = ("board", "show", "status", "盤面")
MOVES_WORDS = ("moves", "legal", "options", "動作", "合法動作")
JOIN_WORDS = ("join", "加入")
# Written to the lobby's address or in a reply to an announcement
# (pbem/mail_in/subscriptions.py); in a reply to a game's mail they are
# answered with where they work, never taken for a note.
SUBSCRIBE_WORDS = ("subscribe", "訂閱")
UNSUBSCRIBE_WORDS = ("unsubscribe", "取消訂閱", "退訂")


def _said(line: str) -> str:
    return " ".join(plain_width(line or "").lower().split())


def command_word_of(line: str, words) -> tuple[str | None, str]:
    """(the command word ``line`` starts with, the rest), or (None, line).
    An English word ends at a space; a Chinese one may be followed by its
    argument without one (``訂閱卡卡頌``, ``加入安``), the longest word first
    (``取消訂閱`` is not ``訂閱``)."""
    text = " ".join(plain_width(line or "").split())
    word, _sep, rest = text.partition(" ")
    if word.lower() in words:
        return word.lower(), rest.strip()
    for known in sorted((w for w in words if not w.isascii()), key=len, reverse=True):
        if text.startswith(known):
            return known, text[len(known):].strip(" :：")
    return None, text


def _first(line: str, words) -> bool:
    return command_word_of(line, words)[0] is not None


#: What a line of a reply to a game's mail is read as, asked of every
#: feature (the mail reader tries them in pbem/mail_in/process.py ``_one``;
#: a takeback word is a move, read by the game's notation: ``takeback.parse``).
READERS = (
    ("help", lambda line: _said(line) in HELP_WORDS),
    ("board", lambda line: _said(line) in BOARD_WORDS),
    ("moves", lambda line: _said(line) in MOVES_WORDS),
    ("join", lambda line: _said(line).split(" ")[0] in JOIN_WORDS),
    ("lang", language_command.is_language_line),
    ("digest", digest_command.is_digest_line),
    ("vacation", lambda line: vacation_command.is_vacation_line(line) and not vacation_command.is_back_line(line)),
    ("back", vacation_command.is_back_line),
    ("say", chat_command.is_chat_line),
    ("rematch", lambda line: rematch.is_rematch_line(line) and rematch.accepts(line)),
    ("no rematch", lambda line: rematch.is_rematch_line(line) and not rematch.accepts(line)),
    ("games", my_games.is_games_line),
    ("takeback", lambda line: (takeback.parse(line) or {}).get("takeback") == "request"),
    ("accept", lambda line: (takeback.parse(line) or {}).get("takeback") == "accept"),
    ("refuse", lambda line: (takeback.parse(line) or {}).get("takeback") == "refuse"),
    # a handover's words (pbem/games/handover.py): moves too, above every game
    ("bot", lambda line: (handover.parse(line) or {}).get("handover") == "request"),
    ("accept bot", lambda line: (handover.parse(line) or {}).get("handover") == "accept"),
    ("refuse bot", lambda line: (handover.parse(line) or {}).get("handover") == "refuse"),
    ("seat back", lambda line: (handover.parse(line) or {}).get("handover") == "return"),
    ("subscribe", lambda line: _first(line, SUBSCRIBE_WORDS) and not _first(line, UNSUBSCRIBE_WORDS)),
    ("unsubscribe", lambda line: _first(line, UNSUBSCRIBE_WORDS)),
)


def read_as(line: str) -> list[str]:
    """The commands a line of a reply to a game's mail is read as: one, or
    none (a move, or a note); never two."""
    return [name for name, reads in READERS if reads(line)]


def elsewhere(line: str) -> bool:
    """A line that works at another address than a game's (subscriptions)."""
    return bool(set(read_as(line)) & {"subscribe", "unsubscribe"})


def lobby_word(line: str) -> tuple[str | None, str]:
    """The command of a mail to the lobby's address (``subscribe``,
    ``unsubscribe``, as written) and its rest."""
    return command_word_of(line, (*UNSUBSCRIBE_WORDS, *SUBSCRIBE_WORDS))


def announcement_word(line: str) -> tuple[str | None, str]:
    """The command of a reply to an announcement (``join``,
    ``unsubscribe``, as written) and its rest (a name to sit as)."""
    return command_word_of(line, (*UNSUBSCRIBE_WORDS, *JOIN_WORDS))


# -- the help answer ------------------------------------------------------------------------------

#: The words shown, in each language (the first of each feature's words).
WORDS = {"help": ("help", "說明"), "board": ("board", "盤面"), "moves": ("moves", "動作"),
         "say": ("say", "說"), "takeback": ("takeback", "悔棋"), "accept": ("accept", "接受"),
         "refuse": ("refuse", "拒絕"), "rematch": ("rematch", "再來一局"), "no rematch": ("no rematch", "不再來"),
         "vacation": ("vacation", "休假"), "back": ("back", "收假"), "digest": ("digest", "摘要"),
         "games": ("games", "我的遊戲"), "lang": ("lang", "語言"), "subscribe": ("subscribe", "訂閱"),
         "unsubscribe": ("unsubscribe", "取消訂閱"), "join": ("join", "加入"),
         "bot": ("bot", "機器人"), "accept bot": ("accept bot", "接受機器人"),
         "refuse bot": ("refuse bot", "拒絕機器人"), "seat back": ("seat back", "收回座位")}
#: A command's argument in each language: the example's words typed after it.
_ARGS = {"digest daily": ("daily", "每天"), "digest off": ("off", "關閉"), "lang": ("zh", "中文"),
         "lang en": ("en", "英文"), "bot greedy": ("greedy", "貪婪")}

#: What the chat examples say (messages: outside the f-strings the catalogs are read from).
GOOD_LUCK, YOUR_MOVE = N_("Good luck!"), N_("Your move!")

GROUPS = (
    (N_("Moves:"), (("move", N_("a move (several: one per line)")),
                    ("moves", N_("your legal moves now")),
                    ("board", N_("the board as you see it")),
                    ("help", N_("this list")))),
    (N_("Talking to the players:"), (("say", N_("said to every player")),
                                     ("say @", N_("said to one player only")))),
    (N_("The game:"), (("takeback", N_("ask to take back your last move")),
                       ("accept", N_("accept a takeback")),
                       ("refuse", N_("refuse a takeback")),
                       ("rematch", N_("game over: offer or accept a rematch")),
                       ("no rematch", N_("decline the rematch")),
                       ("bot greedy", N_("ask the others to let a bot (random, greedy or search) play your seat "
                                         "for a while")),
                       ("accept bot", N_("accept that a bot plays another player's seat")),
                       ("refuse bot", N_("refuse it")),
                       ("seat back", N_("take your seat back from the bot")))),
    (N_("You:"), (("vacation", N_("7 days away: your games' deadlines pause")),
                  ("back", N_("back from vacation")),
                  ("digest daily", N_("one mail a day for all your games (or hourly, or off)")),
                  ("games", N_("your games, with a link to them")),
                  ("lang", N_("your mails in Chinese")),
                  ("lang en", N_("your mails in English")))),
)
FINDING = (("subscribe", N_("a mail for each new open game of this kind")),
           ("unsubscribe", N_("no more of them")),
           ("join", N_("take a seat (a reply to an announcement or invitation)")))


def _word(command: str, lang: str | None = None) -> str:
    return WORDS[command][1 if (lang or notation_language()) == CHINESE else 0]


def _other(command: str) -> str:
    return WORDS[command][0 if notation_language() == CHINESE else 1]


def example(key: str, move: str = "", other_name: str = "", game_type: str = "") -> str:
    """The line a reader would write, in their own words."""
    zh = notation_language() == CHINESE
    if key == "move":
        return move
    if key == "say":
        return f"{_word('say')} {_(GOOD_LUCK)}"
    if key == "say @":
        return f"{_word('say')} @{other_name} {_(YOUR_MOVE)}"
    if key == "vacation":
        return f"{_word('vacation')} 7"
    if key in _ARGS:
        return f"{_word(key.split(' ')[0])} {_ARGS[key][1 if zh else 0]}"
    if key == "subscribe":
        return f"{_word('subscribe')} {game_type}"
    return _word(key)


def _noted(key: str) -> str:
    """The other language's word, where the line has one of its own."""
    base = key.split(" ")[0] if key not in WORDS else key
    return _other(base) if base in WORDS and key != "say @" else ""


def _item(key: str, what: str, **kw) -> str:
    line, other = example(key, **kw), _noted(key)
    if other:
        return "  " + _("{line}: {what} (also {other})", line=line, what=_(what), other=other)
    return "  " + _("{line}: {what}", line=line, what=_(what))


def help_lines(move: str, other_name: str, game_type: str, lobby: str) -> list[str]:
    """The help answer's list of every line a player may write, grouped:
    ``move`` an example move of this game, ``other_name`` another player's
    name, ``game_type`` this game's kind as a subscription names it, and
    ``lobby`` the address subscriptions are written to."""
    lines = [_("The lines you may write, one per line:")]
    for heading, items in GROUPS:
        lines += ["", _(heading)]
        lines += [_item(key, what, move=move, other_name=other_name) for key, what in items
                  if key != "move" or move]
    lines += ["", _("Finding games (write to {address}):", address=lobby)]
    lines += [_item(key, what, game_type=game_type) for key, what in FINDING]
    return lines


def subscription_name(game) -> str:
    """How a subscription names ``game``'s kind for the reader: its name in
    English, its title in Chinese (both are read from everyone)."""
    return game.title_text() if notation_language() == CHINESE else game.name

