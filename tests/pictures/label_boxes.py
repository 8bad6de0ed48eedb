"""Where a picture's labels are: each ``<text>`` (and ``<tspan>``) of an SVG
as a box in the picture's pixels, from its position, anchor, size and the
width the shipped fonts give its text (``metrics.text_width``), through the
translations and scales of the groups around it."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from pbem.pictures.metrics import text_width

SVG = "{http://www.w3.org/2000/svg}"
_TRANSFORM = re.compile(r"(translate|scale|rotate|matrix)\(([^)]*)\)")
#: a label's ink above and below its baseline, in em (Chinese glyphs reach
#: 0.88 above and 0.12 below; Latin descenders 0.24)
ASCENT, DESCENT = 0.88, 0.24


@dataclass
class Label:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: "Label", slack: float = 0.5) -> bool:
        return (self.x0 + slack < other.x1 and other.x0 + slack < self.x1
                and self.y0 + slack < other.y1 and other.y0 + slack < self.y1)

    def inside(self, width: float, height: float, slack: float = 2.0) -> bool:
        return self.x0 >= -slack and self.y0 >= -slack and self.x1 <= width + slack and self.y1 <= height + slack


def _affine(transform: str | None, outer: tuple) -> tuple | None:
    """(a, d, e, f) of x' = a x + e, y' = d y + f; None under a rotation."""
    a, d, e, f = outer
    for op, args in _TRANSFORM.findall(transform or ""):
        nums = [float(v) for v in re.split(r"[\s,]+", args.strip()) if v]
        if op == "translate":
            tx, ty = nums[0], nums[1] if len(nums) > 1 else 0.0
            e, f = e + a * tx, f + d * ty
        elif op == "scale":
            sx = nums[0]
            sy = nums[1] if len(nums) > 1 else sx
            a, d = a * sx, d * sy
        else:
            return None
    return a, d, e, f


def labels(svg: str) -> tuple:
    """(width, height, [Label]) of an SVG document."""
    root = ET.fromstring(svg)
    out: list = []
    _walk(root, (1.0, 1.0, 0.0, 0.0), {}, out)
    return float(root.get("width")), float(root.get("height")), out


def _walk(node, affine, style: dict, out: list) -> None:
    affine = _affine(node.get("transform"), affine)
    if affine is None:
        return
    style = {**style, **{k: node.get(k) for k in ("font-size", "text-anchor", "font-weight") if node.get(k)}}
    if node.tag == SVG + "text":
        spans = [s for s in node if s.tag == SVG + "tspan"]
        if spans:
            for span in spans:
                _label(span.get("x", node.get("x")), span.get("y", node.get("y")), span.text or "", style,
                       affine, out)
        else:
            _label(node.get("x"), node.get("y"), node.text or "", style, affine, out)
        return
    for child in node:
        _walk(child, affine, style, out)


def _label(x, y, text: str, style: dict, affine, out: list) -> None:
    text = " ".join(text.split())
    if not text or x is None or y is None:
        return
    a, d, e, f = affine
    size = float(style.get("font-size", 12))
    w = text_width(text, size, style.get("font-weight") in ("bold", "700"))
    anchor = style.get("text-anchor", "start")
    left = float(x) - (w / 2 if anchor == "middle" else w if anchor == "end" else 0)
    top, bottom = float(y) - ASCENT * size, float(y) + DESCENT * size
    out.append(Label(text, a * left + e, d * top + f, a * (left + w) + e, d * bottom + f))
