#!/usr/bin/env python3
"""Judges rendered text against Pillow's (FreeType's) rendering of the same string and font.

usage: text_judge.py CASES.json

CASES.json: {"cases": [{"name", "ours": raw 8-bit coverage path, "width", "height", "font": file,
"size": pixels, "text", "padding"}]}. Pillow draws each line with its anchor at the ascender
("la"), lines one font line height apart, from (padding, padding). Prints JSON
{"results": [{"name", "correlation", "ink_ratio", "bbox_ours", "bbox_pillow"}]}: the Pearson
correlation of the two coverage images, our ink (sum of coverage) over Pillow's, and each ink
bounding box [x0, y0, x1, y1].
"""
import json
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont


def bbox(a):
    ys, xs = np.nonzero(a > 32)
    if len(xs) == 0:
        return None
    return [int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())]


def main():
    spec = json.load(open(sys.argv[1]))
    results = []
    for c in spec["cases"]:
        w, h = c["width"], c["height"]
        ours = np.fromfile(c["ours"], np.uint8).reshape(h, w).astype(np.float64)
        font = ImageFont.truetype(c["font"], size=c["size"])
        ascent, descent = font.getmetrics()
        im = Image.new("L", (w, h), 0)
        draw = ImageDraw.Draw(im)
        for i, line in enumerate(c["text"].split("\n")):
            draw.text((c["padding"], c["padding"] + i * c["line_height"]), line, font=font, fill=255, anchor="la")
        theirs = np.asarray(im).astype(np.float64)
        corr = float(np.corrcoef(ours.ravel(), theirs.ravel())[0, 1])
        results.append({
            "name": c["name"], "correlation": corr, "ink_ratio": float(ours.sum() / max(theirs.sum(), 1)),
            "bbox_ours": bbox(ours), "bbox_pillow": bbox(theirs), "pillow_ascent": ascent, "pillow_descent": descent,
        })
    print(json.dumps({"results": results}))


if __name__ == "__main__":
    main()
