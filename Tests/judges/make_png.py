#!/usr/bin/env python3
"""PNG maker judge: make_png.py interlaced|palette OUT RAW_OUT

interlaced: a 37x29 random RGB 8-bit image written as an Adam7-interlaced PNG by this script
(Pillow cannot write interlaced PNGs), with the pixels raw to RAW_OUT.
palette: a 33x21 palette image with a tRNS chunk, written by Pillow, and its RGBA pixels
(Pillow's own expansion) raw to RAW_OUT.
"""
import json
import struct
import sys
import zlib

import numpy as np


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def adam7(arr):
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    raw = b""
    for x0, y0, dx, dy in passes:
        sub = arr[y0::dy, x0::dx]
        if sub.size == 0:
            continue
        for row in sub:
            raw += b"\0" + row.tobytes()
    return raw


kind, out, rawout = sys.argv[1:4]
rng = np.random.default_rng(3)
if kind == "interlaced":
    h, w = 29, 37
    arr = rng.integers(0, 256, size=(h, w, 3), dtype=np.uint8)
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 1)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(adam7(arr))) + chunk(b"IEND", b"")
    open(out, "wb").write(png)
    arr.tofile(rawout)
    print(json.dumps({"width": w, "height": h, "channels": 3}))
elif kind == "palette":
    from PIL import Image
    h, w = 21, 33
    idx = rng.integers(0, 16, size=(h, w), dtype=np.uint8)
    im = Image.fromarray(idx, "P")
    pal = rng.integers(0, 256, size=48).tolist()
    im.putpalette(pal)
    im.info["transparency"] = bytes([0, 128] + [255] * 14)
    im.save(out, transparency=bytes([0, 128] + [255] * 14))
    np.asarray(Image.open(out).convert("RGBA")).tofile(rawout)
    print(json.dumps({"width": w, "height": h, "channels": 4}))
