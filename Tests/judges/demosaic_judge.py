#!/usr/bin/env python3
"""Demosaic judge for the L protocol (Tests/Resources/kodak24/README.md), through LibRaw (rawpy):

  demosaic_judge.py SPEC.json

SPEC.json: {"pairs": [[DNG, PNG], ...], "methods": ["AHD", "DHT", ...], "offset": N (optional)}.
Each DNG holds the PNG's linear-light mosaic (16-bit, black 0, white 65535, camera space = linear
sRGB; RGGB, or X-Trans 6x6), the PNG placed N photosites in from its top-left corner (0 unless
given: an X-Trans mosaic is padded, since LibRaw's X-Trans demosaic refuses images under 512
pixels). LibRaw demosaics it with linear, raw-colour, unit-white-balance output; the result is
encoded with the sRGB curve, rounded to 8 bits, and compared with the PNG by colour PSNR with a
10-pixel border left out. Prints {"METHOD": {"mean": dB, "per_image": [...]}, ...,
"raw_pattern": the first DNG's pattern as LibRaw reads it, "color_desc": its colours}.
"""
import json
import sys

import numpy as np
import rawpy
from PIL import Image


def encode(x):
    x = np.clip(x, 0, 1)
    return np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1 / 2.4) - 0.055)


def cpsnr(a, b, border=10):
    a = a[border:-border, border:-border].astype(np.float64)
    b = b[border:-border, border:-border].astype(np.float64)
    mse = np.mean((a - b) ** 2)
    return float(10 * np.log10(255.0 ** 2 / mse)) if mse > 0 else 99.0


def main():
    spec = json.load(open(sys.argv[1]))
    out = {}
    offset = int(spec.get("offset", 0))
    with rawpy.imread(spec["pairs"][0][0]) as r:
        out["raw_pattern"] = r.raw_pattern.tolist()
        out["color_desc"] = r.color_desc.decode()
    for method in spec["methods"]:
        algo = getattr(rawpy.DemosaicAlgorithm, method)
        scores = []
        for dng, png in spec["pairs"]:
            truth = np.asarray(Image.open(png).convert("RGB"))
            with rawpy.imread(dng) as r:
                rgb = r.postprocess(demosaic_algorithm=algo, output_color=rawpy.ColorSpace.raw, gamma=(1, 1),
                                    no_auto_bright=True, output_bps=16, user_wb=[1, 1, 1, 1], user_black=0,
                                    user_sat=65535, adjust_maximum_thr=0.0, highlight_mode=rawpy.HighlightMode.Clip,
                                    user_flip=0)
            ours = np.round(encode(rgb.astype(np.float64) / 65535.0) * 255).astype(np.uint8)
            h, w = truth.shape[:2]
            scores.append(cpsnr(ours[offset:offset + h, offset:offset + w], truth))
        out[method] = {"mean": float(np.mean(scores)), "per_image": scores}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
