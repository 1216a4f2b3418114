#!/usr/bin/env python3
"""Independent judge for Core Image's transition filters (Tests/DaguerreImageTests/
TransitionFilterTests.swift). Core Image publishes no formulas for them; each is computed here in
numpy from the definition the filter's doc comment states, vectorised over the whole image.

Input: --dir DIR with manifest.json {"width", "height", "image": file, "target": file,
"cases": [{"id", "filter", "params", "file"}]}; images are tightly packed little-endian float32
RGBA, premultiplied linear (extended linear sRGB), rows in the order the engine writes them,
all on the same width x height canvas at origin (0, 0).
Output: {"results": [{"id", "max_abs_diff", "mean_abs_diff", "edge_pixels"}]}, differences in
linear values; pixels whose centre lies within 0.01 px of a swipe edge are left out (counted in
edge_pixels), as float32 and float64 may put them on either side. Colours are given in sRGB and
decoded with the sRGB curve into the linear working space.
"""
import argparse
import json
import os

import numpy as np


def load(d, f, w, h):
    return np.fromfile(os.path.join(d, f), dtype="<f4").astype(np.float64).reshape(h, w, 4)


def dissolve(a, b, p):
    t = min(max(p["time"], 0.0), 1.0)
    return a + (b - a) * t


def srgb_to_linear(c):
    c = np.asarray(c, dtype=float)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def swipe_geometry(p, w, h):
    """Projection s of each pixel centre, the edge e and the band width (SwipeGeometry)."""
    a = p["angle"]
    c, s_ = np.cos(a), np.sin(a)
    x0, y0, ew, eh = p["extent"]
    corners = [(x0, y0), (x0 + ew, y0), (x0, y0 + eh), (x0 + ew, y0 + eh)]
    proj = [cx * c + cy * s_ for cx, cy in corners]
    s0, s1 = min(proj), max(proj)
    t = min(max(p["time"], 0.0), 1.0)
    e = s0 + t * (s1 - s0 + p["width"])
    yy, xx = np.mgrid[0:h, 0:w] + 0.5
    return xx * c + yy * s_, e, p["width"]


def swipe(a, b, p):
    s, e, width = swipe_geometry(p, a.shape[1], a.shape[0])
    tint = np.append(srgb_to_linear(p["color"]), 1.0)
    alpha = min(max(p["opacity"], 0.0), 1.0)
    band = b + (tint - b) * alpha
    out = np.where((s >= e)[..., None], a, np.where((s >= e - width)[..., None], band, b))
    edges = (np.abs(s - e) < 0.01) | (np.abs(s - (e - width)) < 0.01)
    return out, edges


FILTERS = {"DissolveTransition": dissolve, "SwipeTransition": swipe}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    d = ap.parse_args().dir
    m = json.load(open(os.path.join(d, "manifest.json")))
    w, h = m["width"], m["height"]
    a, b = load(d, m["image"], w, h), load(d, m["target"], w, h)
    results = []
    for c in m["cases"]:
        expected = FILTERS[c["filter"]](a, b, c["params"])
        edges = np.zeros((h, w), dtype=bool)
        if isinstance(expected, tuple):
            expected, edges = expected
        diff = np.abs(load(d, c["file"], w, h) - expected)[~edges]
        results.append({"id": c["id"], "max_abs_diff": float(diff.max()), "mean_abs_diff": float(diff.mean()),
                        "edge_pixels": int(edges.sum())})
    print(json.dumps({"results": results}))


main()
