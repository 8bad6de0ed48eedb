"""Reading mail as a person's mail client does (no tests here): messages
from the server's maildir parsed with the email package, their text and
HTML parts, the inline picture an HTML part shows by ``cid:``, and a PNG
decoded far enough to know it is a whole, sound image of a given size."""
from __future__ import annotations

import email
import re
import struct
import time
import zlib
from email.policy import default as default_policy
from pathlib import Path

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Maildir:
    """The server's maildir (``$PBEM_DATA_DIR/maildir``), read like a mail
    client reads it: every message once, in the order they arrived."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.seen: set[str] = set()

    def _files(self) -> list[Path]:
        files = []
        for sub in ("new", "cur"):
            folder = self.path / sub
            if folder.is_dir():
                files += [p for p in folder.iterdir() if p.is_file()]
        return sorted(files, key=lambda p: (p.stat().st_mtime_ns, p.name))

    def all(self) -> list:
        return [read(p) for p in self._files()]

    def new(self) -> list:
        """Messages not returned before, with the time each file appeared."""
        out = []
        for p in self._files():
            if p.name not in self.seen:
                self.seen.add(p.name)
                msg = read(p)
                msg.arrived = p.stat().st_mtime
                out.append(msg)
        return out

    def to(self, address: str, kind: str | None = None) -> list:
        return [m for m in self.all() if address in str(m["To"]) and (kind is None or m["X-Pbem-Kind"] == kind)]

    def wait_for(self, predicate, timeout: float = 15.0) -> list:
        """New messages, waiting until one of them satisfies ``predicate``."""
        got: list = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got += self.new()
            if any(predicate(m) for m in got):
                return got
            time.sleep(0.02)
        raise AssertionError(f"no such mail within {timeout}s; got {[(m['To'], m['Subject']) for m in got]}")


def read(path: Path):
    return email.message_from_bytes(Path(path).read_bytes(), policy=default_policy)


def text_of(msg) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def html_of(msg) -> str:
    return msg.get_body(("html",)).get_content().replace("\r\n", "\n")


def picture_of(msg) -> tuple[str, bytes]:
    """The picture the HTML part shows: it must be a ``multipart/related``
    part holding the HTML and an ``image/png`` whose Content-ID is the one
    the HTML's ``<img src="cid:...">`` names. Returns (cid, PNG bytes)."""
    related = [p for p in msg.walk() if p.get_content_type() == "multipart/related"]
    assert len(related) == 1, [p.get_content_type() for p in msg.walk()]
    parts = list(related[0].iter_parts())
    assert [p.get_content_type() for p in parts] == ["text/html", "image/png"], parts
    page, image = parts
    cids = re.findall(r"<img[^>]*\ssrc=\"cid:([^\"]+)\"", page.get_content())
    assert len(cids) == 1, cids
    assert image["Content-ID"] == f"<{cids[0]}>", (image["Content-ID"], cids)
    return cids[0], image.get_content()


def png_size(data: bytes) -> tuple[int, int]:
    """Decode a PNG far enough to trust it: the signature, every chunk's
    CRC, IHDR first and IEND last, and the image data inflating to exactly
    the rows its size and colour type need. Returns (width, height)."""
    assert data[:8] == PNG_SIGNATURE, data[:8]
    at, chunks = 8, []
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        crc = struct.unpack(">I", data[at + 8 + length:at + 12 + length])[0]
        assert zlib.crc32(kind + body) == crc, f"bad CRC in {kind!r}"
        chunks.append((kind, body))
        at += 12 + length
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND", [k for k, _ in chunks]
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert depth == 8 and interlace == 0 and colour in (2, 6), (depth, colour, interlace)
    pixels = zlib.decompress(b"".join(b for k, b in chunks if k == b"IDAT"))
    channels = 4 if colour == 6 else 3
    assert len(pixels) == height * (1 + width * channels), "the image data does not fill the image"
    return width, height


def html_with_images(msg, folder: Path, stem: str) -> Path:
    """The HTML part as a file a browser opens, as a mail app shows it: each
    ``cid:`` the HTML names resolved to its part, written beside it as a
    file. Returns the HTML file's path."""
    folder.mkdir(parents=True, exist_ok=True)
    page = html_of(msg)
    for i, part in enumerate(p for p in msg.walk() if p["Content-ID"]):
        cid = part["Content-ID"].strip("<>")
        name = f"{stem}-{i}.{part.get_content_subtype()}"
        (folder / name).write_bytes(part.get_content())
        page = page.replace(f"cid:{cid}", name)
    assert "cid:" not in page, "an image the HTML names is not in the mail"
    path = folder / f"{stem}.html"
    path.write_text(page, encoding="utf-8")
    return path
