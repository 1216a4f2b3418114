#!/usr/bin/env python3
"""Sanity check of the benchmark outputs: size, mean colour, and distance to a reference output.

usage: check_outputs.py REF.jpg OUT.jpg [OUT.jpg ...]

Prints one JSON object per line: path, width, height, mean [R, G, B], and, against REF,
the mean absolute difference and PSNR (dB) over the common centre (an output a few pixels
larger than REF, like daguerre's, whose blur grows the extent, is compared centre to centre),
leaving out an 8-pixel margin where edge handling legitimately differs.
"""
import json, sys

import numpy as np
from PIL import Image

Image.MAX_IMAGE_PIXELS = None


def load(path):
    return np.asarray(Image.open(path).convert("RGB"), dtype=np.float64)


def centre(a, h, w):
    y = (a.shape[0] - h) // 2
    x = (a.shape[1] - w) // 2
    return a[y:y + h, x:x + w]


ref = load(sys.argv[1])
for path in sys.argv[1:]:
    rec = {"path": path}
    try:
        a = load(path)
    except Exception as e:  # report, do not stop: the harness prints what it got
        rec["error"] = str(e)
        print(json.dumps(rec), flush=True)
        continue
    rec["width"], rec["height"] = a.shape[1], a.shape[0]
    rec["mean"] = [round(float(v), 2) for v in a.reshape(-1, 3).mean(0)]
    h, w = min(a.shape[0], ref.shape[0]), min(a.shape[1], ref.shape[1])
    m = 8
    d = centre(a, h, w)[m:h - m, m:w - m] - centre(ref, h, w)[m:h - m, m:w - m]
    mse = float((d ** 2).mean())
    rec["meanAbsVsRef"] = round(float(np.abs(d).mean()), 3)
    rec["psnrVsRef"] = None if mse == 0 else round(10 * np.log10(255.0 ** 2 / mse), 2)
    print(json.dumps(rec), flush=True)
