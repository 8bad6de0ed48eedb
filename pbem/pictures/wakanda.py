"""The Wakanda table as a picture, drawn from one viewer's view.

Top to bottom: what happens now, the two players (headdresses left, the
pieces they hold or how many, points so far), then the row of six villages,
each with its pole built bottom to top, its owner's headdress on a claimed
pole, and closed or face-down villages shown as such; then the bag.

Touching the board (``touch``, the pages' generic chooser): a piece the
viewer holds, then a village, builds it there; the viewer's headdress, then
a village, claims that village's pole. Keys:

- ``piece:KIND`` (``piece:fur``): the viewer's held pieces of that kind;
- ``headdress``: the viewer's next headdress;
- ``village:N`` (``village:4``): the village at position N, its pole and card;
- ``pass``: off the board (a button beside it).
"""
from __future__ import annotations

from ..games.i18n import N_, _, ngettext, pgettext
from ..games.wakanda import end_words, score_breakdown, title
from .svgkit import (
    INK, LINE, MUTED, PANEL, Svg, and_list, fit, header, name_column, player_row, seat_colour,
    seat_frame, seat_name, text_width, winners_text, wrap,
)

WIDTH = 640

#: the setups ``bench/pictures.py`` measures (the first is the headline figure)
BENCH_SETUPS = ((2, {}), (2, {"hidden_held_pieces": True, "hidden_future_villages": True}))
MARGIN = 16

#: piece -> (fill, text colour)
PIECES = {
    "eagle": ("#34558b", "#ffffff"),
    "chief": ("#9b2226", "#ffffff"),
    "tomahawk": ("#5f6b73", "#ffffff"),
    "fur": ("#7b5436", "#ffffff"),
    "tipi": ("#e3d3ad", "#222222"),
    "sun": ("#f5c518", "#222222"),
}

#: village -> its scoring rule on the card, a line break where it needs two (translated where drawn)
RULES = {
    "eagle": N_("8 per Eagle"),
    "chief": N_("5 per Chief"),
    "tomahawk": N_("4 per\nTomahawk"),
    "fur": N_("3 per Fur"),
    "tipi": N_("2 per Tipi"),
    "sun": N_("+1 per Sun\n(not −1)"),
    "variety": N_("2 per kind\nof piece"),
    "height": N_("2 per piece\ntallest pole"),
}

#: the panels' width on a phone (``draw(narrow=True)``): near a phone's picture (about 356 CSS px)
NARROW = 330
PIECE_H = 24
CARD_H = 92


def _piece(svg: Svg, x, y, w, h, piece: str, count: int = 1) -> None:
    fill, ink = PIECES.get(piece, ("#999999", "#ffffff"))
    svg.rect(x, y, w, h, fill=fill, stroke="#00000066", sw=1, rx=5)
    label = title(piece) if count == 1 else f"{title(piece)} ×{count}"
    size = max(9.0, min(13.0, h * 0.56, (w - 8) / max(text_width(label, 1, True), 0.1)))
    svg.text(x + w / 2, y + h / 2 + size * 0.36, fit(label, size, w - 4, bold=True),
             size=size, fill=ink, anchor="middle", bold=True)


def _chip_width(piece: str) -> float:
    return text_width(title(piece), 12, True) + 14


def _headdress(svg: Svg, cx, base, w, colour: str, hollow=False) -> None:
    """A feathered headdress: a band and five feathers fanned above it."""
    h = w * 0.62
    # a placed headdress (hollow) is pale, so the ones left stand out
    fill = "#ffffff" if hollow else colour
    stroke = "#c4bcad" if hollow else "#00000088"
    for i in range(5):
        fx = cx + (i - 2) * w * 0.17
        top = base - h + abs(i - 2) * h * 0.16
        svg.polygon(((fx - w * 0.085, base - h * 0.2), (fx, top), (fx + w * 0.085, base - h * 0.2)),
                    fill=fill, stroke=stroke, sw=1.2)
    svg.rect(cx - w / 2, base - h * 0.24, w, h * 0.24, fill=fill, stroke=stroke, sw=1.2, rx=2)


def _status(view: dict, names) -> tuple[str, str]:
    if view.get("finished"):
        scores = view.get("scores") or []
        tally = "-".join(str(x) for x in sorted(scores, reverse=True))
        reason = _("Why it ended: {reason}.", reason=end_words(view["end_reason"])) if view.get("end_reason") else ""
        return _("Game over: {winners} {tally}", winners=winners_text(names, view.get("placings")), tally=tally), reason
    current = view.get("current")
    who = seat_name(names, current) if isinstance(current, int) else "?"
    return (_("{who} to play", who=who),
            ngettext("Turn {turn} · bag: {n} piece", "Turn {turn} · bag: {n} pieces", view["bag_count"],
                     turn=view["turn"]))


def draw(view: dict, *, names=None, viewer=None, legal=None, narrow=False) -> str:
    """``narrow``: the panels drawn twice, as here and NARROW wide for a phone (``Svg.narrow_panel``)."""
    svg = Svg()
    status, detail = _status(view, names)
    layout = "wide" if narrow else None
    svg.part("panel", layout=layout)   # the header and the players: below the villages on a phone
    y = header(svg, WIDTH, _("WAKANDA"), status, detail)
    picks = _pick_keys(view, viewer, legal)
    y = _players(svg, view, y, names, viewer, picks)
    svg.end_part()
    svg.part("board")
    y = _villages(svg, view, y + 6, names, picks)
    svg.end_part()
    svg.part("panel", layout=layout)
    y = _footer(svg, view, y, names)
    svg.end_part()
    if narrow:
        top = Svg()
        h = header(top, NARROW, _("WAKANDA"), status, detail)
        svg.narrow_panel(top, NARROW, _narrow_players(top, view, h, names, viewer, picks))
        foot = Svg()
        svg.narrow_panel(foot, NARROW, _footer(foot, view, 0, names, NARROW))
    return svg.document(WIDTH, y, title=_("Wakanda"))


def _players_heading(svg: Svg, view: dict, y, names, viewer, width, size, room) -> tuple:
    """The players' block's heading ("points so far") and what both layouts
    read: (finished, scores, placings, the name column's width)."""
    finished = view.get("finished")
    svg.text(width - MARGIN - 4, y + 8, _("points") if finished else _("points so far"), size=size, fill=MUTED,
             anchor="end")
    labels = [_("{name} (you)", name=seat_name(names, p)) if p == viewer else seat_name(names, p) for p in (0, 1)]
    return (finished, view.get("scores") or [None, None], view.get("placings"),
            name_column(labels, width - 2 * MARGIN - room))


def _narrow_players(svg: Svg, view: dict, y, names, viewer, picks=frozenset()) -> float:
    """The players as a phone shows them: per player, the name and points,
    then the headdresses left, then the pieces held, on lines of their own,
    big enough to read and (the seat to act's) to touch: each touch spot at
    least 42 units (44 CSS px on a 390 px phone) with a gap to the next."""
    width = NARROW
    finished, scores, placings, name_w = _players_heading(svg, view, y, names, viewer, width, 13, 60)
    for pl in view["players"]:
        p = pl["seat"]
        y += 32
        acting = not finished and view.get("current") == p
        top = y - 20
        player_row(svg, MARGIN, y, width - 2 * MARGIN, p, seat_name(names, p), score=scores[p],
                   acting=acting, you=p == viewer, place=placings[p] if placings else None, name_w=name_w)
        # headdresses left (filled) and placed (outlined)
        y += 40
        hx = MARGIN + 44 + 15
        left = pl["headdresses"]
        for i in range(3):
            _headdress(svg, hx + i * 46, y + 4, 26, seat_colour(p), hollow=i >= left)
            if p == viewer and i == left - 1 and "headdress" in picks:   # the one a claim takes
                svg.hit(hx + i * 46 - 22, y - 23, 44, 44, "headdress", rx=5)
        svg.text(hx + 2 * 46 + 26, y, fit(ngettext("{n} headdress left", "{n} headdresses left", left), 13,
                                         width - MARGIN - (hx + 2 * 46 + 26)), size=13, fill=MUTED)
        # held pieces: shown when the view shows them, else only their number
        y += 34
        x0 = MARGIN + 44
        holds = _("holds")
        svg.text(x0, y + 1, holds, size=13, fill=MUTED)
        x = x0 + max(44, text_width(holds, 13) + 8)
        held = pl.get("held")
        if held is None:
            count = pl.get("held_count", 0)
            for i in range(min(count, 6)):
                svg.rect(x + i * 16, y - 13, 14, 18, fill="#8a8a8a", stroke="#555555", sw=1, rx=3)
            svg.text(x + min(count, 6) * 16 + 6, y + 1,
                     fit(ngettext("{n} hidden piece", "{n} hidden pieces", count), 13, width - MARGIN - x - 102),
                     size=13, fill=MUTED)
        elif not held:
            svg.text(x, y + 1, pgettext("wakanda", "nothing"), size=13, fill=MUTED)
        else:
            mine = p == viewer and any(k.startswith("piece:") for k in picks)
            shown = _grouped(held) if mine else [(piece, 1) for piece in held]
            if mine:   # the chips to touch: big, on lines of their own below the word
                x, y = x0, y + 12
                for piece, count in shown:
                    w = max(_chip_width(piece) + (22 if count > 1 else 0), 42)
                    if x + w > width - MARGIN:
                        x, y = x0, y + 50
                    _piece(svg, x, y, w, 42, piece, count)
                    if f"piece:{piece}" in picks:
                        svg.hit(x - 2, y - 2, w + 4, 46, f"piece:{piece}", rx=5)
                    x += w + 8
                y += 42 + 4
            else:
                for piece, count in shown:
                    w = _chip_width(piece)
                    if x + w > width - MARGIN:
                        x, y = x0, y + 24
                    _piece(svg, x, y - 14, w, 19, piece, count)
                    x += w + 5
        y += 12
        if acting:   # the seat to act's block, highlighted behind (drawn under what is above)
            svg.parts.insert(0, f'<rect x="{MARGIN}" y="{top:.1f}" width="{width - 2 * MARGIN}" '
                                f'height="{y - top:.1f}" rx="6" fill="#fff1b8"/>')
    return y + 8


def _players(svg: Svg, view: dict, y, names, viewer, picks=frozenset()) -> float:
    finished, scores, placings, name_w = _players_heading(svg, view, y, names, viewer, WIDTH, 12, 120)
    for pl in view["players"]:
        p = pl["seat"]
        y += 32
        acting = not finished and view.get("current") == p
        if acting:
            svg.rect(MARGIN, y - 20, WIDTH - 2 * MARGIN, 54, fill="#fff1b8", rx=6)
        player_row(svg, MARGIN, y, WIDTH - 2 * MARGIN, p, seat_name(names, p), score=scores[p],
                   acting=acting, you=p == viewer, place=placings[p] if placings else None, name_w=name_w)
        # headdresses left (filled) and placed (outlined)
        hx = MARGIN + 44 + name_w + 12
        left = pl["headdresses"]
        for i in range(3):
            mark = p == viewer and i == left - 1 and "headdress" in picks
            _headdress(svg, hx + i * 30, y + 1, 24, seat_colour(p), hollow=i >= left)
            if mark:   # the last one left: the one a claim takes
                svg.hit(hx + i * 30 - 15, y - 19, 30, 24, "headdress", rx=5)
        svg.text(hx + 84, y, ngettext("{n} headdress left", "{n} headdresses left", left), size=13, fill=MUTED)
        # held pieces: shown when the view shows them, else only their number
        y += 24
        x = MARGIN + 44
        holds = _("holds")
        svg.text(x, y + 1, holds, size=13, fill=MUTED)
        x += max(44, text_width(holds, 13) + 8)
        held = pl.get("held")
        if held is None:
            count = pl.get("held_count", 0)
            for i in range(min(count, 8)):
                svg.rect(x + i * 16, y - 13, 14, 18, fill="#8a8a8a", stroke="#555555", sw=1, rx=3)
            svg.text(x + min(count, 8) * 16 + 6, y + 1, ngettext("{n} hidden piece", "{n} hidden pieces", count),
                     size=13, fill=MUTED)
        elif not held:
            svg.text(x, y + 1, pgettext("wakanda", "nothing"), size=13, fill=MUTED)
        else:
            mine = p == viewer and any(k.startswith("piece:") for k in picks)
            # the seat to act sees one chip per kind it holds (its count beside it),
            # so that each can be touched; others see the pieces in the order drawn
            shown = _grouped(held) if mine else [(piece, 1) for piece in held]
            for piece, count in shown:
                w = _chip_width(piece) + (22 if count > 1 else 0)
                if x + w > WIDTH - MARGIN:
                    svg.text(x, y + 1, "…", size=13, fill=MUTED)
                    break
                _piece(svg, x, y - 14, w, 19, piece, count)
                if mine and f"piece:{piece}" in picks:
                    svg.hit(x - 2, y - 18, w + 4, 27, f"piece:{piece}", rx=5)
                x += w + 5
        y += 10
    return y + 8


def _villages(svg: Svg, view: dict, y, names, picks=frozenset()) -> float:
    villages = view["villages"]
    col = (WIDTH - 2 * MARGIN) / len(villages)
    tallest = max((len(v["pole"]) for v in villages), default=0)
    claimed = any(v["state"] == "claimed" for v in villages)
    # as tall as the tallest pole (room for one piece at least, and for the
    # "empty" label): no empty band above the villages early in the game
    pole_h = max(tallest, 1) * PIECE_H + (40 if claimed else 12)
    svg.rect(MARGIN - 6, y, WIDTH - 2 * MARGIN + 12, pole_h + CARD_H + 40, fill=PANEL, rx=8)
    base = y + 10 + pole_h  # the top of the village cards; poles stand on it
    closed_next = min((v["position"] for v in villages if v["state"] == "closed"), default=None)
    for i, v in enumerate(villages):
        x = MARGIN + i * col
        cx = x + col / 2
        pw = col - 16
        # the pole, bottom to top
        for k, piece in enumerate(v["pole"]):
            _piece(svg, cx - pw / 2, base - (k + 1) * PIECE_H, pw, PIECE_H - 2, piece)
        top = base - len(v["pole"]) * PIECE_H
        if v["state"] == "claimed" and isinstance(v.get("owner"), int):
            _headdress(svg, cx, top - 2, 44, seat_colour(v["owner"]))
        elif not v["pole"] and v["state"] == "open":
            svg.text(cx, base - 10, _("empty"), size=12, fill=MUTED, anchor="middle", italic=True)
        _card(svg, x + 4, base + 4, col - 8, v, names, v["position"] == closed_next)
        key = f"village:{v['position']}"
        if key in picks:
            svg.hit(x + 1, y + 3, col - 2, pole_h + CARD_H + 34, key, rx=5)
    return base + CARD_H + 44


def _card(svg: Svg, x, y, w, v: dict, names, opens_next: bool) -> None:
    name = v.get("village")
    state = v["state"]
    owner = v.get("owner")
    if name is None:
        # face down: the card's back
        svg.rect(x, y, w, CARD_H, fill="#4a3b2a", stroke="#2e241a", sw=1.5, rx=7)
        svg.rect(x + 5, y + 5, w - 10, CARD_H - 10, stroke="#a08660", sw=1, rx=5, dash="3,3")
        svg.text(x + w / 2, y + 52, "?", size=30, fill="#e8d9b8", anchor="middle", bold=True)
    else:
        fill = "#ffffff" if state != "closed" else "#e4e0d8"
        svg.rect(x, y, w, CARD_H, fill=fill, stroke=LINE, sw=1.5, rx=7)
        if state == "claimed" and isinstance(owner, int):
            seat_frame(svg, x, y, w, CARD_H, owner, rx=7)
        ink = INK if state != "closed" else MUTED
        heading = title(name)
        size = max(11.0, min(15.0, (w - 10) / text_width(heading, 1, True)))
        svg.text(x + w / 2, y + 44, fit(heading, size, w - 6, bold=True), size=size, fill=ink,
                 anchor="middle", bold=True)
        line1, _sep, line2 = _(RULES[name]).partition("\n") if name in RULES else ("", "", "")
        svg.text(x + w / 2, y + 61, fit(line1, 11.5, w - 6), size=11.5, fill=MUTED, anchor="middle")
        if line2:
            svg.text(x + w / 2, y + 75, fit(line2, 11.5, w - 6), size=11.5, fill=MUTED, anchor="middle")
        if state == "closed":
            svg.line(x + 6, y + CARD_H - 6, x + w - 6, y + 22, stroke="#b9b2a5", sw=1.2)
    # the number, the notation's name for the village
    svg.circle(x + 15, y + 15, 11, fill=INK if state != "closed" else "#9a948a")
    svg.text(x + 15, y + 20, str(v["position"]), size=13, fill="#ffffff", anchor="middle", bold=True)
    if state == "claimed" and isinstance(owner, int):
        # the owner's name in ink, after a dot of their colour
        label = fit(seat_name(names, owner), 13, w - 14, bold=True)
        lw = text_width(label, 13, True)
        svg.circle(x + w / 2 - lw / 2 - 2, y + CARD_H + 13.5, 5, fill=seat_colour(owner), stroke="#111111", sw=0.8)
        svg.text(x + w / 2 + 6, y + CARD_H + 18, label, size=13, anchor="middle", bold=True)
        return
    elif state == "closed":
        label, colour = (_("opens next") if opens_next else pgettext("wakanda", "closed")), MUTED
    else:
        label, colour = pgettext("wakanda", "open"), "#2a7a2a"
    svg.text(x + w / 2, y + CARD_H + 18, fit(label, 13, w + 4, bold=True), size=13, fill=colour,
             anchor="middle", bold=True)


def _tally(view: dict, seat: int, names) -> str:
    """How a seat's points add up: each owned village's line, the Sun penalty."""
    owned = [v for v in view["villages"] if v["state"] == "claimed" and v.get("owner") == seat and v.get("village")]
    b = score_breakdown([v["village"] for v in owned], [v["pole"] for v in owned])
    parts = [f"{title(name)} {pts}" for name, pts in b["villages"].items()]
    if b["sun_penalty"]:
        # i18n: the Sun penalty in a seat's tally: "Ann: Eagle 8 + Height 6 − Suns 2 = 12"
        parts.append(_("− Suns {n}", n=-b["sun_penalty"]))
    if not parts:
        return _("{who}: no village yet", who=seat_name(names, seat))
    return _("{who}: {sum} = {total}", who=seat_name(names, seat),
             sum=" + ".join(parts).replace("+ −", "−"), total=b["total"])


def _footer(svg: Svg, view: dict, y, names, width=WIDTH) -> float:
    lines = [_tally(view, p, names) for p in (0, 1)]
    unseen = view.get("unseen") or {}
    if not view.get("finished"):
        if unseen:
            tally = _(", ").join(f"{title(p)} ×{n}" for p, n in unseen.items())
            hidden = any(p.get("held") is None for p in view["players"])
            lines.append(_("Not in sight (the bag and hidden hands): {pieces}", pieces=tally) if hidden
                         else _("Not in sight (the bag): {pieces}", pieces=tally))
        else:
            lines.append(_("The bag is empty."))
    removed = view.get("removed_villages")
    if removed:
        lines.append(_("Back in the box: {villages}", villages=and_list([title(r) for r in removed])))
    lines.append(_("A player without the Sun village loses 1 for each Sun on their poles."))
    y += 12
    for line in lines:
        # on a phone's narrow panel, wrapped (there is no room to cut a line short)
        for part in wrap(line, 13, width - 2 * MARGIN) if width < WIDTH else [fit(line, 13, width - 2 * MARGIN)]:
            svg.text(MARGIN, y + 4, part, size=13, fill=MUTED)
            y += 19
    return y + 8


# -- touching the board ------------------------------------------------------------

#: the keys a page shows as buttons beside the board
OFFBOARD = ("pass",)


def _grouped(held: list) -> list:
    """(piece, how many) in the order each kind was first drawn."""
    out: dict = {}
    for piece in held:
        out[piece] = out.get(piece, 0) + 1
    return list(out.items())


def touch_path(move: dict) -> list:
    """The touches that make ``move`` (a legal move of the viewer)."""
    kind = move.get("type")
    if kind == "build":
        return [f"piece:{move['piece']}", f"village:{move['village']}"]
    if kind == "claim":
        return ["headdress", f"village:{move['village']}"]
    return [str(kind)]


def _moves(legal) -> list:
    return [m["move"] if isinstance(m, dict) and "move" in m else m for m in legal or ()]


def _pick_keys(view: dict, viewer, legal) -> set:
    """The keys drawn with ``data-pick`` (only for the seat to act)."""
    if not legal or viewer not in (0, 1) or isinstance(viewer, bool) or view.get("current") != viewer:
        return set()
    return {k for m in _moves(legal) for k in touch_path(m) if k not in OFFBOARD}


def touch(view: dict, legal: list, viewer, names) -> dict:
    """The touch paths of ``legal`` (the API's ``[{"move", "text"}]``), their
    keys' labels, and the keys shown off the board."""
    paths = [touch_path(m) for m in _moves(legal)]
    villages = {v["position"]: v for v in view["villages"]}
    labels = {}
    for key in {k for p in paths for k in p}:
        if key.startswith("piece:"):
            labels[key] = _("your {piece}", piece=title(key[6:]))
        elif key.startswith("village:"):
            n = int(key[8:])
            v = villages.get(n) or {}
            pole = v.get("pole") or []
            height = ngettext("{n} piece on its pole", "{n} pieces on its pole", len(pole))
            labels[key] = (_("village {n}, {village}, {height}", n=n, village=title(v["village"]), height=height)
                           if v.get("village") else _("village {n}, {height}", n=n, height=height))
        elif key == "headdress":
            labels[key] = _("your headdress (to claim a village)")
        else:
            labels[key] = {"pass": _("Pass")}.get(key, key)
    offboard = sorted(k for k in labels if k in OFFBOARD)
    return {"paths": paths, "labels": labels, "offboard": offboard}
