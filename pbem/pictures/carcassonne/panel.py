"""Beside the board: the players (name, colour, score, what is left in their
supply), public state the expansions add (``hooks.SUPPLIES``,
``hooks.PANEL_LINES``), and the drawn tile in each of its distinct rotations,
labelled with the notation (``r90``), the ones that fit nowhere greyed."""
from __future__ import annotations

from ...games.carcassonne.notation import expansion_text, feature_name, seat_name
from ...games.carcassonne.orient import TILES, oriented
from ...games.carcassonne.rules import turn_number
from ...games.i18n import N_, _, ngettext
from .. import markup as m
from ..metrics import wrap
from . import hooks
from .board import distinct_rotations
from .expansion_marks import GOODS, good_icon
from .figures import figure_svg
from .terrain import tile_body
from .tile_art import art_of

WIDTH = 260
PAD = 14
PREVIEW = 56
#: what the by-category tallies are called (the others are a feature's name, or their key)
CATEGORY = {"king_robber": N_("King & Robber"), "goods": N_("goods"), "fairy": N_("fairy"), "barn": N_("barns"),
            "castle": N_("castles"), "bridges_castles_bazaars": N_("bazaar"), "ransom": N_("ransom"),
            "count": N_("the City"), "pig": N_("pig")}


def _category(key: str) -> str:
    if key in CATEGORY:
        return _(CATEGORY[key])
    return feature_name(key) if key in ("city", "road", "cloister", "field") else key.replace("_", " ")


def _placing(rank: int) -> str:
    """1st, 2nd, 3rd, 4th... in the reader's language."""
    return {1: _("1st"), 2: _("2nd"), 3: _("3rd")}.get(rank) or _("{n}th", n=rank)


def _fit(text: str, size: float, width: float, bold: bool = False) -> str:
    while len(text) > 1 and m.text_width(text, size, bold) > width:
        text = text[:-2] + "…"
    return text


class Panel:
    def __init__(self, view: dict, names, viewer, legal, shown: set = frozenset()):
        self.view = view
        self.names = names
        self.viewer = viewer
        self.legal = legal or []
        self.shown = shown              # what the board shows (for the key)
        self.parts: list = []
        self.labels = m.Labels()
        self.y = 0.0
        self.x = 0.0

    def add(self, svg: str) -> None:
        self.parts.append(svg)

    def label(self, x, y, content, **style) -> None:
        self.labels.add(x, y, content, **style)

    def svg(self, x: float) -> tuple:
        """(SVG, height) of the panel with its left side at x."""
        self.x = x
        v = self.view
        self.y = PAD + 16
        self.label(x + PAD, self.y, _("Carcassonne"), size=17, weight="bold")
        expansions = [expansion_text(e)[0] for e in v.get("options", {}).get("expansions", [])]
        if expansions:
            for line in _wrap(_(", ").join(expansions), 10.5):
                self.y += 14
                self.label(x + PAD, self.y, line, size=10.5, fill="#555")
        self.y += 18
        if v.get("over"):
            status = _("Game over: final scores")
        else:
            turn = turn_number(v.get("turn", 0), v.get("step", "start_turn"), False)  # as the text board numbers it
            status = ngettext("Turn {turn} · {n} tile left in the pile", "Turn {turn} · {n} tiles left in the pile",
                              v.get("tiles_left", 0), turn=turn)
        self.label(x + PAD, self.y, status, size=12, fill="#333")
        self.y += 10
        for seat in range(v["players"]):
            self.seat_block(seat)
        for line_fn in hooks.PANEL_LINES:
            for text in line_fn(v, self.names):
                for line in _wrap(text, 11.5):
                    self.y += 15
                    self.label(x + PAD, self.y, line, size=11.5, fill="#333")
        for kind in dict.fromkeys(mv.get("type") for mv in self.legal):
            if kind in hooks.DECISIONS:
                text = hooks.DECISIONS[kind]
                if callable(text):
                    text = text([mv for mv in self.legal if mv.get("type") == kind])
                for line in _wrap(text, 11.5, bold=True):
                    self.y += 15
                    self.label(x + PAD, self.y, line, size=11.5, fill="#1f4fbf", weight="bold")
        board = v.get("board") or []
        if len(board) > 1:
            t = board[-1]
            letter, bridged, _axis = str(t["tile"]).partition("~")   # a bridged tile: "U~NS"
            self.y += 18
            args = dict(tile=letter, at=f"{t['x']},{t['y']}", rotation=f"r{t['rotation']}")
            self.label(x + PAD, self.y, _("Last tile: {tile} (bridge) at {at} {rotation}", **args) if bridged else
                       _("Last tile: {tile} at {at} {rotation}", **args), size=11.5, fill="#333")
        if v.get("tile") and not v.get("over"):
            self.drawn_tile()
        self.legend()
        return "".join(self.parts) + self.labels.svg(), self.y + PAD

    # -- players ------------------------------------------------------------------

    def seat_block(self, seat: int) -> None:
        v, x = self.view, self.x
        to_act = seat in v.get("to_act", ())
        top = self.y + 8
        items = self._supplies(seat)
        rows = _rows(items, WIDTH - 2 * PAD - 30)
        totals = self._categories(seat) if v.get("over") else []
        height = 26 + 18 * len(rows) + 14 * len(totals) + 4
        fill = "#fff4c2" if to_act else "#f6f3ec"
        self.add(m.rect(x + PAD - 4, top, WIDTH - 2 * PAD + 8, height, rx=6, fill=fill,
                        stroke="#c9a227" if to_act else "#ddd6c6", stroke_width=1.5 if to_act else 1))
        self.add(figure_svg("follower", seat, "knight", x + PAD + 10, top + 15, 20))
        name = seat_name(seat, self.names)
        if seat == self.viewer:
            name = _("{name} (you)", name=name)
        if to_act:
            name = "▶ " + name
        placing = ""
        if v.get("over"):
            scores = v.get("scores", [])
            rank = 1 + sum(1 for s in scores if s > scores[seat])
            placing = _placing(rank) + "  "
        score = f"{placing}{v['scores'][seat]}"
        self.label(x + WIDTH - PAD, top + 19, score, size=16, weight="bold", anchor="end")
        room = WIDTH - 2 * PAD - 30 - m.text_width(score, 16, True) - 8
        self.label(x + PAD + 26, top + 18, _fit(name, 13.5, room, True), size=13.5, weight="bold")
        cy = top + 38
        for row in rows:
            cx = x + PAD + 26
            for draw, count, width in row:
                self.add(draw(cx + 6, cy - 4))
                self.label(cx + 15, cy, count, size=11.5, fill="#222")
                cx += width
            cy += 18
        for line in totals:
            self.label(x + PAD + 26, cy - 2, line, size=10.5, fill="#444")
            cy += 14
        self.y = top + height

    def _supplies(self, seat: int) -> list:
        """(draw(x, y), count text, width) for each piece the seat has in hand:
        followers, each expansion's pieces, goods."""
        v = self.view
        items = [("follower", v["supply"][seat])]
        for key, figure, _label in hooks.SUPPLIES:
            if callable(key):
                counts = key(v)
                if counts is not None:
                    items.append((figure, counts[seat]))
            elif key in v:
                items.append((figure, v[key][seat]))
        out = []
        for figure, count in items:
            if figure == "abbey":
                draw = self._abbey_icon
            else:
                draw = (lambda f: lambda px, py: figure_svg(f, seat, "knight", px, py, 12.5))(figure)
            out.append((draw, str(count), 22 + m.text_width(str(count), 11.5)))
        for kind in GOODS:
            if kind in (v.get("goods") or {}):
                n = str(v["goods"][kind][seat])
                out.append(((lambda k: lambda px, py: good_icon(k, px, py, 5.5))(kind), n, 22 + m.text_width(n, 11.5)))
        return out

    def _categories(self, seat: int) -> list:
        """A finished game: the seat's points by category, on lines that fit."""
        parts = [_("{category} {n}", category=_category(k), n=pts[seat])
                 for k, pts in (self.view.get("by_category") or {}).items() if pts[seat]]
        if not parts:
            return [_("no points")]
        lines, line = [], ""
        for part in parts:          # break between categories, never inside one
            joined = f"{line} · {part}" if line else part
            if line and m.text_width(joined, 10.5) > WIDTH - 2 * PAD - 30:
                lines.append(line)
                joined = part
            line = joined
        return lines + [line]

    def _abbey_icon(self, x, y) -> str:
        return (m.rect(x - 5.5, y - 5.5, 11, 11, fill="#b9b3a6", stroke="#111", stroke_width=0.8)
                + m.polygon([(x - 3.5, y), (x, y - 4), (x + 3.5, y)], fill="#b8432f")
                + m.rect(x - 2.5, y, 5, 3.5, fill="#efe3c4"))

    # -- the drawn tile -----------------------------------------------------------------

    def drawn_tile(self) -> None:
        v, x = self.view, self.x
        letter = v["tile"]
        if letter not in TILES:
            return
        seat = v.get("active")
        places = [mv for mv in self.legal if mv.get("type") == "place_tile"]
        self.y += 22
        drew = (_("You draw tile {tile}", tile=letter) if seat == self.viewer and places else
                _("{player} draws tile {tile}", player=seat_name(seat, self.names), tile=letter))
        self.label(x + PAD, self.y, _fit(drew, 13, WIDTH - 2 * PAD, True), size=13, weight="bold")
        same = distinct_rotations(letter)
        shown = sorted(set(same.values()))
        if not places:
            shown = [0]
        fitting = {mv["rotation"] // 90 for mv in places}
        self.y += 8
        # four rotations fill the width; fewer stand apart, so "r0=r180" labels do not touch
        gap = min(24.0, (WIDTH - 2 * PAD - 4 * PREVIEW) / 3) if len(shown) == 4 else 24.0
        for i, r in enumerate(shown):
            px = x + PAD + i * (PREVIEW + gap)
            py = self.y
            art = art_of(letter)
            scale = PREVIEW / 60
            fits = not places or any(same[q] == r for q in fitting)
            opacity = "" if fits else ' opacity="0.35"'
            self.add(f'<g transform="translate({px:.1f},{py:.1f}) scale({scale:.3f})"{opacity}>'
                     f'{tile_body(art, 60, r)}</g>')
            self.add(m.rect(px, py, PREVIEW, PREVIEW, fill="none", stroke="#333", stroke_width=1, cls="preview",
                            data_rotation=r * 90, data_fits="yes" if fits else "no"))
            if places:
                self.add(self._segment_labels(letter, r, px, py))
            twins = [q for q in range(4) if same[q] == r and q != r]
            turned = "r" + str(r * 90)
            label = (_("{rotation} (any)", rotation=turned) if len(twins) == 3 else
                     turned + "".join(f"=r{q * 90}" for q in twins))
            self.label(px + PREVIEW / 2, py + PREVIEW + 13, label, size=11, anchor="middle",
                            weight="bold" if fits else None, fill="#222" if fits else "#888")
        self.y += PREVIEW + 18
        if places:
            self.y += 14
            for line in _wrap(_("Blue frames on the board: where it fits."), 10.5):
                self.label(x + PAD, self.y, line, size=10.5, fill="#1f4fbf")
                self.y += 13
            self.y -= 13

    def legend(self) -> None:
        """What the figures and marks mean (the ones these expansions use)."""
        from .legend import entries
        items = entries(self.view.get("options", {}).get("expansions", []), self.shown)
        self.y += 24
        self.label(self.x + PAD, self.y, _("Key"), size=12, weight="bold", fill="#333")
        col = (WIDTH - 2 * PAD) / 2
        for i, (draw, label) in enumerate(items):
            cx = self.x + PAD + (i % 2) * col
            cy = self.y + 20 + (i // 2) * 21
            self.add(draw(cx + 9, cy - 4))
            self.label(cx + 21, cy, _fit(_(label), 10, col - 21), size=10, fill="#333")
        self.y += 20 + ((len(items) + 1) // 2) * 21 - 10

    def _segment_labels(self, letter: str, r: int, px: float, py: float) -> str:
        """The notation's name of each segment (N, EL, cloister...) where a figure would stand."""
        o = oriented(letter, r)
        art = art_of(letter)
        out = []
        for k, label in enumerate(o.labels):
            ux, uy = art.anchor(k, r)
            short = "C" if label == "cloister" else label.split(" ")[-1]
            tx, ty = px + ux * PREVIEW, py + uy * PREVIEW + 3
            out.append(m.text(tx, ty, short, size=8.5, anchor="middle", weight="bold", fill="#111",
                              stroke="#ffffff", stroke_width=2.2, paint_order="stroke"))
        return "".join(out)


def _rows(items: list, width: float) -> list:
    rows, row, used = [], [], 0.0
    for item in items:
        if row and used + item[2] > width:
            rows.append(row)
            row, used = [], 0.0
        row.append(item)
        used += item[2]
    if row:
        rows.append(row)
    return rows


def _wrap(text: str, size: float, width: float = WIDTH - 2 * PAD, bold: bool = False) -> list:
    """The text in lines no wider than ``width`` pixels at font size ``size``
    (between words, and between Chinese characters: ``metrics.wrap``)."""
    return wrap(text, size, width, bold)
