"""Make the pictures' fonts (``make fonts``): DejaVu Sans and DejaVu Sans
Bold cut to Latin (``LATIN``), and a subset of Noto Sans CJK TC Regular with
Taiwan's common characters and every character the zh-Hant catalogs and
pbem's own sources use that DejaVu (drawn first) lacks. Re-run it after
adding Chinese messages: ``tests/pictures/test_fonts.py`` names any catalog
character the shipped fonts cannot draw.

    python -m pbem.docgen.font_subset [--cjk-source NotoSansCJK-Regular.ttc]

The sources are Debian's ``fonts-dejavu-core`` and ``fonts-noto-cjk``
(``SOURCES``): the installed files if there are, else the packages fetched
with ``apt-get download`` and unpacked with ``dpkg-deb``. The output is
deterministic (the fonts' dates are kept), so re-running it changes a file
only when its characters change.

The common characters: Big5's level-1 block (0xA440-0xC67E, 5,401
characters, decoded with Python's ``big5`` codec) was drawn up from the
Ministry of Education's 4,808 standard common characters
(常用國字標準字體表) and holds 4,807 of them; the one it spells another way,
彞 (U+5F5E, Big5 has 彝 U+5F5D), is added (``MOE_NOT_IN_BIG5``).
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

FONT_DIR = Path(__file__).resolve().parents[1] / "pictures" / "fonts"
ROOT = FONT_DIR.parents[2]
CJK_OUTPUT = FONT_DIR / "NotoSansCJKtc-Regular-subset.otf"
CJK_FAMILY = "Noto Sans CJK TC"
LATIN_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
#: package -> (version, the file(s) used from it)
SOURCES = {
    "fonts-dejavu-core": ("2.37-6", tuple(f"usr/share/fonts/truetype/dejavu/{n}" for n in LATIN_FONTS)),
    "fonts-noto-cjk": ("1:20220127+repack1-1", ("usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",)),
}
#: DejaVu's part: Latin (with Latin Extended-B and Additional: pinyin's ǎ,
#: Vietnamese), Greek and Cyrillic for player names; punctuation, arrows, a
#: few shapes (▶ □), ≠ ≤ ≥, the pseudo-locale's ⟦ ⟧
LATIN = [(0x20, 0x7E), (0xA0, 0x24F), (0x2B0, 0x2FF), (0x370, 0x3FF), (0x400, 0x45F), (0x1E00, 0x1EFF),
         (0x2010, 0x2027), (0x2030, 0x203A), (0x2190, 0x2195), (0x21BB, 0x21BB), (0x2212, 0x2212), (0x2260, 0x2265),
         (0x2605, 0x2605), (0x2713, 0x2713), (0x25A0, 0x25CF), (0x27E6, 0x27E7)]

#: the Ministry of Education's common characters that Big5 level 1 lacks
MOE_NOT_IN_BIG5 = "\u5f5e"  # 彞
#: variants players type that a notation accepts (榖倉 for 穀倉), named
#: before the games' tables that hold them reach this branch
TYPED_VARIANTS = "\u6996"  # 榖
#: besides the ideographs: CJK punctuation, bopomofo, kana, full-width forms
RANGES = [
    (0x3000, 0x303F),   # CJK symbols and punctuation (、。「」『』【】〈〉)
    (0x3041, 0x30FF),   # hiragana and katakana (names in Japanese kana)
    (0x3105, 0x312F),   # bopomofo (zhuyin)
    (0xFE30, 0xFE4F),   # CJK compatibility forms (﹏ and the like)
    (0xFE50, 0xFE6B),   # small forms (﹐﹑﹔)
    (0xFF01, 0xFF60),   # full-width ASCII (，：（）０-９ Ａ-Ｚ)
    (0xFFE0, 0xFFE6),   # full-width signs (￥￡)
]
#: Chinese in code: ideographs, CJK punctuation, bopomofo, kana, full-width forms
_CHINESE = re.compile("[\u3000-\u30ff\u3100-\u312f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
                      "\ufe30-\ufe6f\uff00-\uffef\U00020000-\U0003134f]")


def big5_block(first: int, last: int) -> set:
    """The characters of Big5 codes ``first``..``last`` (two bytes each)."""
    out = set()
    for code in range(first, last + 1):
        hi, lo = divmod(code, 256)
        if not (0x40 <= lo <= 0x7E or 0xA1 <= lo <= 0xFE):
            continue
        try:
            out.add(bytes((hi, lo)).decode("big5"))
        except UnicodeDecodeError:
            pass
    return out


def common_characters() -> set:
    """Big5's symbols (0xA140-0xA3BF) and level 1, and the one common
    character it lacks."""
    return big5_block(0xA140, 0xA3BF) | big5_block(0xA440, 0xC67E) | set(MOE_NOT_IN_BIG5) | set(TYPED_VARIANTS)


def catalog_characters(root: Path = ROOT) -> set:
    """Every character of the zh-Hant catalogs' translations."""
    from babel.messages.pofile import read_po
    out = set()
    for po in sorted((root / "pbem" / "locale").glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as f:
            catalog = read_po(f)
        for message in catalog:
            strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
            for text in strings:
                out.update(text or "")
    return out


def source_characters(root: Path = ROOT) -> set:
    """The Chinese characters and punctuation written in pbem's own code and
    templates (the games' Chinese notation words are tables in code, not
    messages)."""
    out = set()
    for pattern in ("**/*.py", "**/*.html", "**/*.js"):
        for path in (root / "pbem").glob(pattern):
            out.update(_CHINESE.findall(path.read_text(encoding="utf-8", errors="replace")))
    return out


def wanted(root: Path = ROOT) -> set:
    chars = common_characters() | catalog_characters(root) | source_characters(root)
    for first, last in RANGES:
        chars.update(chr(c) for c in range(first, last + 1))
    return chars


def _codes(ranges) -> set:
    return {c for first, last in ranges for c in range(first, last + 1)}


def _fetch(package: str, workdir: Path) -> list:
    """The package's font files: installed, or fetched and unpacked."""
    version, files = SOURCES[package]
    installed = [Path("/") / f for f in files]
    if all(p.exists() for p in installed):
        return installed
    if not shutil.which("apt-get") or not shutil.which("dpkg-deb"):
        sys.exit(f"no {installed[0]}: install Debian's {package} or pass its file")
    subprocess.run(["apt-get", "download", f"{package}={version}"], cwd=workdir, check=True)
    deb = next(workdir.glob(f"{package}_*.deb"))
    subprocess.run(["dpkg-deb", "-x", str(deb), str(workdir / package)], check=True)
    return [workdir / package / f for f in files]


def _face_number(source: Path, family: str) -> int:
    """Which face of a collection is ``family`` (0 for a single font)."""
    from fontTools.ttLib import TTCollection
    if source.suffix.lower() not in (".ttc", ".otc"):
        return 0
    for number, font in enumerate(TTCollection(str(source), lazy=True).fonts):
        if font["name"].getDebugName(1) == family:
            return number
    sys.exit(f"{source} has no {family} face")


def _subset(source: Path, codes, output: Path, font_number: int = 0, **options) -> tuple:
    """Keep ``codes`` (those the font has), as pyftsubset does; returns
    (how many kept, the codes the font lacks, bytes written)."""
    from fontTools import subset
    opts = subset.Options(hinting=False, recalc_timestamp=False, font_number=font_number, **options)
    font = subset.load_font(str(source), opts)
    cmap = font.getBestCmap()
    kept = sorted(c for c in codes if c in cmap)
    subsetter = subset.Subsetter(opts)
    subsetter.populate(unicodes=kept)
    subsetter.subset(font)
    subset.save_font(font, str(output), opts)
    font.close()
    lacking = sorted(c for c in set(codes) - set(cmap) if unicodedata.category(chr(c)) != "Cn")
    return len(kept), lacking, output.stat().st_size


def make_latin(sources: list) -> list:
    return [(name, *_subset(src, _codes(LATIN), FONT_DIR / name, desubroutinize=True,
                            layout_features=["kern", "liga"]))
            for name, src in zip(LATIN_FONTS, sources)]


def make_cjk(source: Path) -> tuple:
    """The characters wanted that DejaVu (as cut) lacks, from the CJK face."""
    from fontTools import subset
    from fontTools.ttLib import TTFont
    with TTFont(str(FONT_DIR / LATIN_FONTS[0]), lazy=True) as latin:
        codes = {ord(c) for c in wanted() if unicodedata.category(c) not in ("Cc", "Cn")}
        codes -= set(latin.getBestCmap())
    return CJK_OUTPUT.name, *_subset(
        source, codes, CJK_OUTPUT, _face_number(source, CJK_FAMILY),
        layout_features=[],            # no shaping is applied: drop GSUB/GPOS
        desubroutinize=False,          # subroutines keep CFF small
        notdef_outline=True,
        drop_tables=subset.Options().drop_tables + ["vhea", "vmtx", "VORG", "BASE"],   # horizontal only
        name_IDs=[0, 1, 2, 3, 4, 5, 6, 13, 14])                                       # keep the licence


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cjk-source", type=Path, help="NotoSansCJK-Regular.ttc (or a Noto Sans CJK TC .otf)")
    parser.add_argument("--latin-source", type=Path, nargs=2, help="DejaVuSans.ttf DejaVuSans-Bold.ttf")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        results = make_latin(args.latin_source or _fetch("fonts-dejavu-core", Path(tmp)))
        results.append(make_cjk(args.cjk_source or _fetch("fonts-noto-cjk", Path(tmp))[0]))
    for name, kept, lacking, size in results:
        print(f"{name}: {kept} characters, {size / 1024:.0f} KiB")
        if lacking:
            print("  not in its source (other fonts or a placeholder draw them): "
                  + " ".join(f"U+{c:04X}" for c in lacking))


if __name__ == "__main__":
    main()
