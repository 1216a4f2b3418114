#!/usr/bin/env python3
"""Writes a 10-bit HEIC with alpha through pillow-heif (its bundled libheif and x265), and that
file's decode by pillow-heif, for the HEIF reader's deep-sample and alpha tests.

usage: make_heic.py OUT.heic OUT.raw WIDTH HEIGHT

The image: red rising left to right, green top to bottom, blue along the diagonal, an alpha
checkerboard of 16-pixel squares (opaque and about 30 %). OUT.raw holds pillow-heif's decode as
little-endian uint16 RGBA samples at 10 bits (0...1023), rows top to bottom. Prints JSON:
{"width", "height", "bit_depth", "mode"}.
"""
import json
import sys

import numpy as np
import pillow_heif


def main():
    out, raw, w, h = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    y, x = np.mgrid[0:h, 0:w]
    rgba = np.zeros((h, w, 4), np.uint16)
    rgba[..., 0] = x * 65535 // max(1, w - 1)
    rgba[..., 1] = y * 65535 // max(1, h - 1)
    rgba[..., 2] = (x + y) * 65535 // max(1, w + h - 2)
    rgba[..., 3] = np.where((x // 16 + y // 16) % 2 == 0, 65535, 20000)
    pillow_heif.from_bytes(mode="RGBA;16", size=(w, h), data=rgba.tobytes()).save(out, quality=90, bit_depth=10)
    back = pillow_heif.open_heif(out, convert_hdr_to_8bit=False)
    # pillow-heif returns 10-bit samples shifted to the top of 16-bit words.
    samples = np.frombuffer(bytes(back.data), np.uint16).reshape(h, back.stride // 2)[:, : w * 4] >> 6
    samples.astype("<u2").tofile(raw)
    print(json.dumps({"width": back.size[0], "height": back.size[1], "bit_depth": back.info.get("bit_depth"), "mode": back.mode}))


if __name__ == "__main__":
    main()
