"""The HTML part of a mail as a mail app shows it: building blocks with
inline styles only.

Mail apps drop or rewrite a ``<style>`` element (Gmail keeps it only in
some views, Outlook's reader rewrites it) but keep ``style`` attributes, so
every block carries its own. The column is at most ``COLUMN`` px wide and
shrinks with the screen; the picture has a ``width`` attribute (for
clients that ignore CSS) and ``max-width:100%; height:auto`` (for those
that do), so nothing widens the mail past a phone's screen. The lines a
reader may reply with each stand in a block of their own that one tap
selects whole (``user-select: all``), with a ``mailto:`` link that opens a
reply holding that line. Every text given here is escaped here.
"""
from __future__ import annotations

import html
import re
import struct
from urllib.parse import quote

from ..games.i18n import _, language

#: The column's widest, in CSS px: a picture is drawn 640 px wide (docs/pictures.md).
COLUMN = 640
#: Readable type in every mail app: the system's sans-serif, with the CJK
#: faces phones and desktops ship (else a client's default serif shows).
FONT = ("-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,'Helvetica Neue',Arial,'Noto Sans',"
        "'PingFang TC','Microsoft JhengHei','Noto Sans CJK TC',sans-serif")
MONO = "ui-monospace,Menlo,Consolas,'Liberation Mono','Noto Sans Mono CJK TC',monospace"
INK, MUTED, LINE, TINT, ACCENT = "#1f2328", "#59636e", "#d0d7de", "#f3f6fa", "#0b5cad"

e = html.escape


def page(body: str) -> str:
    """A whole HTML part: its language said (``<html lang>``), a phone's
    width, and one column of readable type, centred on a wide screen."""
    return (f"<!doctype html><html lang=\"{e(language())}\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"></head>"
            f"<body style=\"margin:0;padding:0;background:#ffffff;color:{INK};font-family:{FONT};"
            "font-size:16px;line-height:1.5;-webkit-text-size-adjust:100%\">"
            # Outlook on Windows (Word's engine) ignores max-width: a fixed table there only
            f"<!--[if mso]><table role=\"presentation\" width=\"{COLUMN}\" align=\"center\"><tr><td><![endif]-->"
            f"<div style=\"max-width:{COLUMN}px;margin:0 auto;padding:12px\">{body}</div>"
            "<!--[if mso]></td></tr></table><![endif]--></body></html>\n")


def small(text: str) -> str:
    """A quiet line: what the mail is about, under its headline."""
    return f"<p style=\"margin:0 0 8px;color:{MUTED};font-size:14px\">{e(text)}</p>"


def headline(text: str) -> str:
    return f"<h1 style=\"margin:4px 0 8px;font-size:22px;line-height:1.3;font-weight:700\">{e(text)}</h1>"


def heading(text: str, first: bool = False) -> str:
    """A section's heading (``first``: at the top of a box, no space above)."""
    return (f"<h2 style=\"margin:{0 if first else 20}px 0 6px;font-size:18px;line-height:1.3;font-weight:700\">"
            f"{e(text)}</h2>")


def para(text: str, strong: bool = False) -> str:
    weight = "font-weight:700;" if strong else ""
    return f"<p style=\"margin:0 0 10px;{weight}\">{e(text)}</p>"


def lines_para(lines: list[str]) -> str:
    """Lines of one paragraph, each on its own line."""
    return f"<p style=\"margin:0 0 10px\">{'<br>'.join(e(x) for x in lines)}</p>"


def bullets(items: list[str]) -> str:
    return ("<ul style=\"margin:0 0 10px;padding-left:22px\">" +
            "".join(f"<li style=\"margin:2px 0\">{e(x)}</li>" for x in items) + "</ul>")


def png_width(png: bytes | None) -> int | None:
    """A PNG's width from its header (IHDR comes first), for the ``width`` attribute."""
    if not png or len(png) < 24 or png[12:16] != b"IHDR":
        return None
    return struct.unpack(">I", png[16:20])[0]


def picture(cid: str, alt: str, width: int | None = None) -> str:
    """The picture, by its part's Content-ID (``cid`` without <>): as wide
    as the column at most, its height following."""
    shown = min(width or COLUMN, COLUMN)
    return (f"<p style=\"margin:12px 0\"><img src=\"cid:{e(cid)}\" alt=\"{e(alt)}\" width=\"{shown}\" "
            "style=\"display:block;width:100%;max-width:" f"{shown}px;height:auto;border:0;outline:none\"></p>")


def mailto(address: str, subject: str, body: str) -> str:
    """A ``mailto:`` URI (RFC 6068): every field percent-encoded as UTF-8,
    so no text can add a header or a field of its own."""
    return f"mailto:{quote(address, safe='@+.')}?subject={quote(subject, safe='')}&body={quote(body, safe='')}"


def reply_lines(lines: list[str], address: str | None = None, subject: str = "") -> str:
    """The lines a reply may hold, one block each: a tap selects the line
    whole; with ``address``, a link under it opens a reply holding it."""
    label = _("Reply with this line")
    out = []
    for line in lines:
        link = ""
        if address:
            link = (f"<a href=\"{e(mailto(address, subject, line))}\" style=\"display:inline-block;margin-top:4px;"
                    f"font-family:{FONT};font-size:14px;color:{ACCENT};text-decoration:underline\">{e(label)}</a>")
        out.append(f"<div style=\"margin:0 0 8px;padding:8px 12px;background:{TINT};border:1px solid {LINE};"
                   "border-radius:6px\">"
                   f"<div style=\"font-family:{MONO};font-size:15px;line-height:1.4;word-break:break-word;"
                   "overflow-wrap:anywhere;user-select:all;-webkit-user-select:all;-moz-user-select:all\">"
                   f"{e(line)}</div>{link}</div>")
    return "".join(out)


def box(inner: str) -> str:
    """What the reader is asked to do, set off from the rest."""
    return (f"<div style=\"margin:14px 0;padding:12px;border:2px solid {ACCENT};border-radius:8px\">"
            f"{inner}</div>")


def buttons(links: dict) -> str:
    """``links``: {what it is in words: its URL}, as buttons a thumb can hit."""
    return ("<p style=\"margin:12px 0\">" + "".join(
        f"<a href=\"{e(url)}\" style=\"display:inline-block;margin:0 8px 8px 0;padding:8px 14px;"
        f"border-radius:6px;background:{ACCENT};color:#ffffff;text-decoration:none;font-weight:600;"
        f"font-size:15px\">{e(what)}</a>" for what, url in links.items()) + "</p>")


def link(what: str, url: str) -> str:
    return f"<a href=\"{e(url)}\" style=\"color:{ACCENT}\">{e(what)}</a>"


def log(events: list[dict]) -> str:
    """What happened, numbered by version, in smaller type."""
    return (f"<ol style=\"margin:0 0 10px;padding-left:40px;color:{INK};font-size:14px\">" +
            "".join(f"<li value=\"{int(ev['version'])}\" style=\"margin:1px 0\">{e(ev['text'])}</li>"
                    for ev in events) + "</ol>")


def text_board(board: str) -> str:
    """The board as text: it keeps its columns and scrolls inside its own
    box when wider than the screen, never widening the mail."""
    return (f"<pre style=\"margin:0 0 10px;padding:8px;max-width:100%;box-sizing:border-box;overflow-x:auto;"
            f"background:{TINT};border:1px solid {LINE};border-radius:6px;font-family:{MONO};font-size:12px;"
            f"line-height:1.3;white-space:pre\">{e(board)}</pre>")


_URL = re.compile(r"https?://[^\s<>\"'“”「」]+")


def prose(text: str) -> str:
    """A text part's words as they are (an answer's), wrapped to the
    screen, its web addresses links."""
    body = "".join(part if i % 2 == 0 else link(part, part) for i, part in
                   enumerate(_split_urls(text)))
    return (f"<div style=\"margin:0 0 10px;font-family:{FONT};white-space:pre-wrap;word-break:break-word;"
            f"overflow-wrap:anywhere\">{body}</div>")


def _split_urls(text: str) -> list[str]:
    """``text`` cut at its URLs: escaped text at even places, URLs (raw,
    ``link`` escapes them) at odd ones."""
    out, at = [], 0
    for m in _URL.finditer(text):
        url = m.group(0).rstrip(".,;:)")
        out += [e(text[at:m.start()]), url]
        at = m.start() + len(url)
    return out + [e(text[at:])]
