"""Draw the PWA icons (a round green table with three cards) as PNG and SVG, standard library only.

Run: ``python docs/make_icons.py`` — writes ``pwa/icons/icon-192.png``, ``icon-512.png``,
``maskable-512.png`` (content inside the 80 % safe zone, full-bleed background) and ``icon.svg``.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "pwa" / "icons"
BACKGROUND = (0x1D, 0x5C, 0x3F)
TABLE = (0x2E, 0x8B, 0x5E)
CARD = (0xFF, 0xFD, 0xF8)
INK = (0xB3, 0x26, 0x1E)
Colour = tuple[int, int, int]


def pixel(x: float, y: float, size: int, scale: float, rounded: bool) -> Colour | None:
    """The colour at (x, y) in a 0..1 square; None outside a rounded icon's corners."""
    u, v = x / size, y / size
    corner = 0.18
    if rounded:
        cx, cy = min(max(u, corner), 1 - corner), min(max(v, corner), 1 - corner)
        if (u - cx) ** 2 + (v - cy) ** 2 > corner**2:
            return None
    # Shrink the drawing towards the centre so a maskable icon keeps it inside the safe zone.
    u, v = 0.5 + (u - 0.5) / scale, 0.5 + (v - 0.5) / scale
    colour = BACKGROUND
    if (u - 0.5) ** 2 + (v - 0.55) ** 2 < 0.36**2:
        colour = TABLE
    for left, top in ((0.26, 0.22), (0.40, 0.18), (0.54, 0.22)):
        if left <= u <= left + 0.2 and top <= v <= top + 0.3:
            inside = left + 0.02 <= u <= left + 0.18 and top + 0.02 <= v <= top + 0.28
            colour = CARD if inside else BACKGROUND
            if inside and (u - left - 0.1) ** 2 + (v - top - 0.15) ** 2 < 0.04**2:
                colour = INK
    return colour


def png(size: int, scale: float, rounded: bool) -> bytes:
    rows = bytearray()
    for y in range(size):
        rows.append(0)
        for x in range(size):
            colour = pixel(x + 0.5, y + 0.5, size, scale, rounded)
            rows.extend((*colour, 255) if colour else (0, 0, 0, 0))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))


SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
<rect width="100" height="100" rx="18" fill="#1d5c3f"/>
<circle cx="50" cy="55" r="36" fill="#2e8b5e"/>
<g fill="#fffdf8" stroke="#1d5c3f" stroke-width="2"><rect x="27" y="23" width="18" height="28"/>
<rect x="41" y="19" width="18" height="28"/><rect x="55" y="23" width="18" height="28"/></g>
<circle cx="64" cy="37" r="4" fill="#b3261e"/></svg>
"""


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    (ICONS / "icon-192.png").write_bytes(png(192, 1.0, rounded=True))
    (ICONS / "icon-512.png").write_bytes(png(512, 1.0, rounded=True))
    (ICONS / "maskable-512.png").write_bytes(png(512, 1.25, rounded=False))
    (ICONS / "icon.svg").write_text(SVG, encoding="utf-8")


if __name__ == "__main__":
    main()
