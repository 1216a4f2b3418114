#!/usr/bin/env python3
"""Independent judge for Daguerre's spatial filters (convolutions, blurs, reductions, stylize).

Usage: spatial_judge.py MANIFEST.json

The manifest is a JSON list of cases. Each names an input (raw float32 RGBA, premultiplied
linear values, tightly packed rows, `w`×`h`), Daguerre's output (same layout, `ow`×`oh`, whose
top-left pixel is the input's pixel (`ox`, `oy`)), an operation and its parameters. For each
case the reference is computed here from the input alone, with OpenCV where it has the operator
and numpy/scipy from the published or documented definition otherwise, and compared. Prints one
JSON object: {"cases": [{"id", "max_abs_diff", "mean_abs_diff", ...}, ...]}.
"""
import json
import math
import sys

import cv2
import numpy as np
from scipy import ndimage


def load(path, w, h):
    a = np.fromfile(path, dtype=np.float32)
    if a.size != w * h * 4:
        raise SystemExit(f"{path}: expected {w * h * 4} floats, found {a.size}")
    return a.reshape(h, w, 4)


def bilinear(img, xs, ys):
    """Bilinear samples at image coordinates (pixel centres at half-integers), zero outside."""
    coords = [ys - 0.5, xs - 0.5]
    return np.stack([ndimage.map_coordinates(img[..., c].astype(np.float64), coords, order=1, mode="grid-constant", cval=0.0)
                     for c in range(4)], axis=-1)


def centres(w, h):
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    return xs + 0.5, ys + 0.5


# ---- Convolutions and blurs -------------------------------------------------------------------

def conv(img, p):
    k = np.array(p["weights"], dtype=np.float32).reshape(p["kh"], p["kw"])
    return cv2.filter2D(img, -1, k, borderType=cv2.BORDER_REPLICATE) + np.float32(p["bias"])


def median(img, p):
    return cv2.medianBlur(img, 3)


def disc(img, p):
    r = p["radius"]
    n = int(math.floor(r))
    yy, xx = np.mgrid[-n:n + 1, -n:n + 1]
    k = ((xx * xx + yy * yy) <= r * r).astype(np.float32)
    return cv2.filter2D(img, -1, k / k.sum(), borderType=cv2.BORDER_CONSTANT)


def motion(img, p):
    r, a = p["radius"], p["angle"]
    n = 2 * int(math.ceil(r)) + 1
    if a == 0 and r == int(r):
        # A horizontal box of 2r + 1 taps.
        return cv2.filter2D(img, -1, np.full((1, n), 1 / n, np.float32), borderType=cv2.BORDER_CONSTANT)
    h, w = img.shape[:2]
    xs, ys = centres(w, h)
    acc = np.zeros(img.shape, np.float64)
    for k in range(n):
        t = -r + 2 * r * k / (n - 1)
        acc += bilinear(img, xs + t * math.cos(a), ys - t * math.sin(a))
    return acc / n


def zoom(img, p):
    cx, cy = p["center"]
    amount = p["amount"]
    n = int(math.ceil(abs(amount))) + 1
    h, w = img.shape[:2]
    xs, ys = centres(w, h)
    acc = np.zeros(img.shape, np.float64)
    for i in range(n):
        f = 1 - amount / 100 * i / (n - 1)
        acc += bilinear(img, cx + (xs - cx) * f, cy + (ys - cy) * f)
    return acc / n


# ---- Reductions -------------------------------------------------------------------------------

def region(img, p):
    x, y, w, h = p["region"]
    return img[y:y + h, x:x + w].astype(np.float64)


def amax(img, p):
    return region(img, p).max(axis=(0, 1)).reshape(1, 1, 4)


def amin(img, p):
    return region(img, p).min(axis=(0, 1)).reshape(1, 1, 4)


def amaxalpha(img, p):
    r = region(img, p).reshape(-1, 4)
    return r[np.argmax(r[:, 3])].reshape(1, 1, 4)  # argmax: the first of equals, reading order


def aminalpha(img, p):
    r = region(img, p).reshape(-1, 4)
    return r[np.argmin(r[:, 3])].reshape(1, 1, 4)


def rowavg(img, p):
    return region(img, p).mean(axis=1).reshape(-1, 1, 4)


def colavg(img, p):
    return region(img, p).mean(axis=0).reshape(1, -1, 4)


def hist(img, p):
    r = region(img, p).reshape(-1, 4)
    bins, scale = p["bins"], p["scale"]
    out = np.stack([np.histogram(np.clip(r[:, c], 0, 1), bins=bins, range=(0, 1))[0] for c in range(4)], axis=-1)
    return (out * (scale / len(r))).reshape(1, bins, 4)


OPS = {"conv": conv, "median": median, "disc": disc, "motion": motion, "zoom": zoom, "amax": amax, "amin": amin,
       "amaxalpha": amaxalpha, "aminalpha": aminalpha, "rowavg": rowavg, "colavg": colavg, "hist": hist}


def main():
    cases = json.load(open(sys.argv[1]))
    results = []
    for c in cases:
        img = load(c["input"], c["w"], c["h"])
        ours = load(c["out"], c["ow"], c["oh"]).astype(np.float64)
        ref = np.asarray(OPS[c["op"]](img, c["params"]), dtype=np.float64)
        if c["op"] in ("amax", "amin", "amaxalpha", "aminalpha", "rowavg", "colavg", "hist"):
            ref = ref[:c["oh"], :c["ow"]]
        else:
            ref = ref[c["oy"]:c["oy"] + c["oh"], c["ox"]:c["ox"] + c["ow"]]
        if ref.shape != ours.shape:
            results.append({"id": c["id"], "error": f"shape {ours.shape} vs reference {ref.shape}"})
            continue
        d = np.abs(ours - ref)
        results.append({"id": c["id"], "max_abs_diff": float(d.max()), "mean_abs_diff": float(d.mean()),
                        "reference_range": [float(ref.min()), float(ref.max())]})
    print(json.dumps({"cases": results}))


if __name__ == "__main__":
    main()
