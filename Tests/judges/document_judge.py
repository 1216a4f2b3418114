#!/usr/bin/env python3
"""Independent judge for DocumentEnhancer (Tests/DaguerreImageTests/DocumentEnhancerTests.swift),
from its doc comment's definition with scipy: the paper's light is scipy.ndimage's
maximum_filter, minimum_filter (a closing) then uniform_filter over a (2r + 1)-square, mode
'nearest', r = max(2,
round(shorter side / 100)); each colour divided by it, capped at 1, then
v -> max(0, 1 - (1 - v)(1 + amount)); alpha kept.

usage: document_judge.py MANIFEST.json; MANIFEST: {"cases": [{"input", "ours", "width",
"height", "amount"}]}, images tightly packed float32 premultiplied RGBA. Prints {"results":
[{"max_abs_diff", "mean_abs_diff", "radius"}]}.
"""
import json
import sys

import numpy as np
from scipy import ndimage


def enhance(img, amount):
    h, w = img.shape[:2]
    r = max(2, int(np.floor(min(w, h) / 100 + 0.5)))
    size = (2 * r + 1, 2 * r + 1)
    out = img.copy()
    for c in range(3):
        closed = ndimage.minimum_filter(ndimage.maximum_filter(img[..., c], size=size, mode="nearest"), size=size, mode="nearest")
        paper = ndimage.uniform_filter(closed, size=size, mode="nearest")
        flat = np.minimum(img[..., c] / np.maximum(paper, 1e-4), 1)
        out[..., c] = np.maximum(0, 1 - (1 - flat) * (1 + amount)) * img[..., 3]
    return out, r


def main():
    m = json.load(open(sys.argv[1]))
    results = []
    for c in m["cases"]:
        shape = (c["height"], c["width"], 4)
        img = np.fromfile(c["input"], "<f4").astype(np.float64).reshape(shape)
        ours = np.fromfile(c["ours"], "<f4").astype(np.float64).reshape(shape)
        ref, r = enhance(img, c["amount"])
        d = np.abs(ours - ref)
        results.append({"max_abs_diff": float(d.max()), "mean_abs_diff": float(d.mean()), "radius": r})
    print(json.dumps({"results": results}))


if __name__ == "__main__":
    main()
