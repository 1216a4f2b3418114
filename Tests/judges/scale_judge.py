#!/usr/bin/env python3
"""Independent judge for Daguerre's scale filters (Tests/DaguerreImageTests/ScaleFilterTests.swift).

BicubicScaleTransform: a separable resampler written here in numpy from the definition in the
filter's doc comment (Mitchell-Netravali cubic with B and C, widened by 1/scale when
shrinking, taps centred at (X + 0.5)/scale, normalised, transparent black past the edges); and,
for B 0, C 0.5 (Catmull-Rom), Pillow's BICUBIC resize of each channel as a float image, on the
pixels whose taps all fall inside the image (Pillow renormalises at the edges instead).
MaximumScaleTransform: the largest value over the input pixels each output pixel's rectangle
overlaps, in numpy. GuidedFilter: He's guided filter with scipy's uniform_filter.

Input: --dir DIR with manifest.json {"width", "height", "input": file,
"cases": [{"id", "op", "params", "file", "w", "h"}]}; images tightly packed little-endian
float32 RGBA. Output: {"results": [{"id", "max_abs_diff", "mean_abs_diff", "pixels"}]}.
"""
import argparse
import json
import math
import os

import numpy as np
from PIL import Image
from scipy.ndimage import uniform_filter


def cubic(b, c):
    def k(x):
        x = np.abs(x)
        near = ((12 - 9 * b - 6 * c) * x ** 3 + (-18 + 12 * b + 6 * c) * x ** 2 + (6 - 2 * b)) / 6
        far = ((-b - 6 * c) * x ** 3 + (6 * b + 30 * c) * x ** 2 + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6
        return np.where(x < 1, near, np.where(x < 2, far, 0.0))
    return k


def matrix(n_out, n_in, scale, kernel, radius=2):
    """The (n_out x n_in) resampling matrix, and which outputs have all taps inside."""
    fs = max(1.0, 1.0 / scale)
    support = radius * fs
    m = np.zeros((n_out, n_in))
    inside = np.zeros(n_out, dtype=bool)
    for x in range(n_out):
        u = (x + 0.5) / scale
        lo, hi = math.floor(u - support + 0.5), math.floor(u + support + 0.5)
        js = np.arange(lo, max(lo + 1, hi))
        w = kernel((js - u + 0.5) / fs)
        w = w / w.sum()
        keep = (js >= 0) & (js < n_in)
        m[x, js[keep]] = w[keep]
        inside[x] = keep.all()
    return m, inside


def bicubic(img, p, w, h):
    k = cubic(p["b"], p["c"])
    mx, ix = matrix(w, img.shape[1], p["scale"] * p["aspect"], k)
    my, iy = matrix(h, img.shape[0], p["scale"], k)
    out = np.einsum("yY,YXc,xX->yxc", my, img, mx)
    return out, iy[:, None] & ix[None, :]


def pillow(img, p, w, h):
    out, inside = bicubic(img, dict(p, b=0, c=0.5), w, h)
    chans = [np.asarray(Image.fromarray(img[..., k].astype(np.float32), mode="F").resize((w, h), Image.BICUBIC))
             for k in range(4)]
    return np.stack(chans, axis=-1).astype(np.float64), inside


def maximum(img, p, w, h):
    sx, sy = p["scale"] * p["aspect"], p["scale"]
    H, W = img.shape[:2]
    out = np.zeros((h, w, 4))
    for y in range(h):
        j0, j1 = max(math.floor(y / sy), 0), min(math.ceil((y + 1) / sy), H)
        for x in range(w):
            i0, i1 = max(math.floor(x / sx), 0), min(math.ceil((x + 1) / sx), W)
            if j1 > j0 and i1 > i0:
                out[y, x] = img[j0:j1, i0:i1].reshape(-1, 4).max(axis=0)
    return out, np.ones((h, w), dtype=bool)


def guided(img, p, w, h, guide):
    """He's guided filter: windows of 2r + 1 with edges repeated (scipy's uniform_filter,
    mode 'nearest'), the guide's Rec. 709 luminance, the image first resampled bilinearly (the
    triangle kernel, taps as the bicubic's) to the guide's size if it is smaller."""
    src = img
    if p.get("upsample"):
        src = img[:h // 2, :w // 2]
        tri = lambda x: np.maximum(0, 1 - np.abs(x))  # noqa: E731
        mx, _ = matrix(w, w // 2, 2.0, tri, radius=1)
        my, _ = matrix(h, h // 2, 2.0, tri, radius=1)
        src = np.einsum("yY,YXc,xX->yxc", my, src, mx)
    a = guide[..., 3:4]
    g = np.where(a > 0, guide[..., :3] / np.where(a > 0, a, 1), guide[..., :3]) @ np.array([0.2126, 0.7152, 0.0722])
    size = 2 * int(round(p["radius"])) + 1

    def m(x):
        return uniform_filter(x, size=size, mode="nearest")
    eps = p["epsilon"]
    gi = g[..., None]
    mi, mii = m(g)[..., None], m(g * g)[..., None]
    mp = np.stack([m(src[..., c]) for c in range(4)], axis=-1)
    mip = np.stack([m(src[..., c] * g) for c in range(4)], axis=-1)
    slope = (mip - mi * mp) / (mii - mi * mi + eps)
    offset = mp - slope * mi
    ma = np.stack([m(slope[..., c]) for c in range(4)], axis=-1)
    mb = np.stack([m(offset[..., c]) for c in range(4)], axis=-1)
    return ma * gi + mb, np.ones((h, w), dtype=bool)


OPS = {"bicubic": bicubic, "pillow": pillow, "maximum": maximum}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    d = ap.parse_args().dir
    m = json.load(open(os.path.join(d, "manifest.json")))
    img = np.fromfile(os.path.join(d, m["input"]), dtype="<f4").astype(np.float64).reshape(m["height"], m["width"], 4)
    results = []
    for c in m["cases"]:
        w, h = c["w"], c["h"]
        ours = np.fromfile(os.path.join(d, c["file"]), dtype="<f4").astype(np.float64).reshape(h, w, 4)
        if c["op"] == "guided":
            guide = np.fromfile(os.path.join(d, m["guide"]), dtype="<f4").astype(np.float64).reshape(h, w, 4)
            ref, judged = guided(img, c["params"], w, h, guide)
        else:
            ref, judged = OPS[c["op"]](img, c["params"], w, h)
        diff = np.abs(ours - ref)[judged]
        results.append({"id": c["id"], "max_abs_diff": float(diff.max()), "mean_abs_diff": float(diff.mean()),
                        "pixels": int(judged.sum())})
    print(json.dumps({"results": results}))


main()
