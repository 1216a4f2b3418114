#!/usr/bin/env python3
"""Independent judge for KMeans (Tests/DaguerreImageTests/KMeansTests.swift): Lloyd's k-means
written here in numpy (float64) from the filter's documented definition: seeds from the means
strip then evenly spaced greys, nearest centre by squared Euclidean distance in linear RGB or
CIE L*a*b* (pointwise_judge.py's colour-science conversion: sRGB primaries, D65), the first of equals,
transparent pixels left out, empty clusters kept, a last assignment for the weights.

Input: --dir DIR with manifest.json {"width", "height", "input": file, "means": file,
"means_count", "cases": [{"id", "params", "file"}]}; float32 RGBA premultiplied linear.
PaletteCentroid ("op": "centroid"): the same nearest-colour rule, the mean pixel centre per
colour. Output: {"results": [{"id", "max_abs_diff", "weights"}]}.
"""
import argparse
import json
import os

import numpy as np

from pointwise_judge import from_lab, to_lab, unpremultiply


def kmeans(img, seeds, p):
    x, y, w, h = p["region"]
    pix = img[y:y + h, x:x + w].reshape(-1, 4)
    pix = pix[pix[:, 3] > 0]
    place = to_lab if p["perceptual"] else (lambda v: v)
    pts = place(unpremultiply(pix)[0])
    k = p["count"] if p["count"] > 0 else len(seeds)
    centres = list(place(unpremultiply(seeds[:k])[0]))
    while len(centres) < k:
        g = len(centres) / (k - 1) if k > 1 else 0.5
        centres.append(place(np.array([g, g, g])))
    centres = np.array(centres, dtype=np.float64)
    for step in range(p["passes"] + 1):
        d = ((pts[:, None, :] - centres[None, :, :]) ** 2).sum(axis=-1)
        label = np.argmin(d, axis=1)
        counts = np.bincount(label, minlength=k).astype(np.float64)
        if step < p["passes"]:
            for j in range(k):
                if counts[j] > 0:
                    centres[j] = pts[label == j].mean(axis=0)
    weights = counts / max(counts.sum(), 1)
    rgb = from_lab(centres) if p["perceptual"] else centres
    return np.concatenate([rgb * weights[:, None], weights[:, None]], axis=1), weights


def centroid(img, palette, p):
    """PaletteCentroid: each pixel to its nearest palette colour; per colour the mean pixel centre
    (x, y), the fraction of pixels, 1."""
    h, w = img.shape[:2]
    place = to_lab if p["perceptual"] else (lambda v: v)
    ys, xs = np.mgrid[0:h, 0:w] + 0.5
    keep = img[..., 3] > 0
    pts = place(unpremultiply(img[keep])[0])
    cols = place(unpremultiply(palette)[0])
    label = np.argmin(((pts[:, None, :] - cols[None, :, :]) ** 2).sum(axis=-1), axis=1)
    out = np.tile(np.array([0, 0, 0, 1.0]), (len(palette), 1))
    for k in range(len(palette)):
        sel = label == k
        if sel.any():
            out[k] = [xs[keep][sel].mean(), ys[keep][sel].mean(), sel.sum() / len(pts), 1]
    return out, out[:, 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    d = ap.parse_args().dir
    m = json.load(open(os.path.join(d, "manifest.json")))
    w, h = m["width"], m["height"]
    img = np.fromfile(os.path.join(d, m["input"]), dtype="<f4").astype(np.float64).reshape(h, w, 4)
    seeds = np.fromfile(os.path.join(d, m["means"]), dtype="<f4").astype(np.float64).reshape(-1, 4)
    results = []
    for c in m["cases"]:
        if c["params"].get("op") == "centroid":
            ref, weights = centroid(img, seeds, c["params"])
        else:
            ref, weights = kmeans(img, seeds, c["params"])
        ours = np.fromfile(os.path.join(d, c["file"]), dtype="<f4").astype(np.float64).reshape(-1, 4)
        results.append({"id": c["id"], "max_abs_diff": float(np.abs(ours - ref).max()) if ours.shape == ref.shape else 99.0,
                        "weights": [float(v) for v in weights]})
    print(json.dumps({"results": results}))


main()
