#!/usr/bin/env python3
"""Judges rendered text against Pillow's (FreeType's) rendering of the same string and font.

usage: text_judge.py CASES.json

CASES.json: {"cases": [{"name", "ours": raw 8-bit coverage path, "width", "height", "font": file,
"size": pixels, "text", "padding"}]}. Pillow draws each line with its anchor at the ascender
("la"), lines one font line height apart, from (padding, padding). Prints JSON
{"results": [{"name", "correlation", "ink_ratio", "bbox_ours", "bbox_pillow"}]}: the Pearson
correlation of the two coverage images, our ink (sum of coverage) over Pillow's, and each ink
bounding box [x0, y0, x1, y1].

A case with "runs" ([{"text", "font", "size", "color": [r, g, b] 0…1}]) is attributed text,
"ours" then raw premultiplied RGBA8: Pillow draws each run in its colour on a transparent RGBA
image, runs following on Pillow's advances (getlength), each line's baseline under its tallest
ascender, lines as tall as their tallest run's font height; compared channel by channel, and
for each run the ink-weighted mean colour of the pixels only it covers.
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


def attributed(c):
    w, h = c["width"], c["height"]
    ours = np.fromfile(c["ours"], np.uint8).reshape(h, w, 4).astype(np.float64)
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(im)
    # Split the runs into lines of (run index, piece).
    lines = [[]]
    for i, run in enumerate(c["runs"]):
        for k, piece in enumerate(run["text"].split("\n")):
            if k > 0:
                lines.append([])
            lines[-1].append((i, piece))
    fonts = [ImageFont.truetype(r["font"], size=r["size"]) for r in c["runs"]]
    owner = np.full((h, w), -1)
    top = c["padding"]
    for line in lines:
        ascent = max(fonts[i].getmetrics()[0] for i, _ in line)
        height = max(max(fonts[i].font.height, sum(fonts[i].getmetrics())) for i, _ in line)
        x = c["padding"]
        for i, piece in line:
            fill = tuple(int(round(v * 255)) for v in c["runs"][i]["color"]) + (255,)
            before = np.asarray(im)[..., 3].copy()
            draw.text((x, top + ascent), piece, font=fonts[i], fill=fill, anchor="ls")
            after = np.asarray(im)[..., 3]
            owner[(after > 0) & (before == 0)] = i
            x += fonts[i].getlength(piece)
        top += height
    theirs = np.asarray(im).astype(np.float64)  # straight alpha: Pillow keeps the ink's colour
    theirs[..., :3] *= theirs[..., 3:] / 255
    corr = [float(np.corrcoef(ours[..., k].ravel(), theirs[..., k].ravel())[0, 1]) for k in range(4)]
    colours = []
    for i, run in enumerate(c["runs"]):
        mask = (owner == i) & (ours[..., 3] > 128)
        a = ours[..., 3][mask].sum()
        colours.append([float(ours[..., k][mask].sum() / max(a, 1)) for k in range(3)])
    return {
        "name": c["name"], "correlation": min(v for v in corr if np.isfinite(v)), "channel_correlation": corr,
        "ink_ratio": float(ours[..., 3].sum() / max(theirs[..., 3].sum(), 1)),
        "bbox_ours": bbox(ours[..., 3]), "bbox_pillow": bbox(theirs[..., 3]), "run_colours": colours,
    }


def main():
    spec = json.load(open(sys.argv[1]))
    results = []
    for c in spec["cases"]:
        if "runs" in c:
            results.append(attributed(c))
            continue
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
