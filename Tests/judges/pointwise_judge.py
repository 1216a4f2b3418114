#!/usr/bin/env python3
"""Independent judge for Daguerre's two-image and colour-data point-wise filters
(Tests/DaguerreImageTests/PointwiseFilterTests.swift): Mix, the BlendWith{Red,Blue}Mask blends,
ColorAbsoluteDifference, ColorThreshold, DepthToDisparity, DisparityToDepth, Palettize and Dither
(with the RandomGenerator's noise as generator_judge.py computes it) from the formulas their doc
comments state, in numpy; ColorThresholdOtsu with scikit-image's
threshold_otsu on the same luminance histogram; ConvertRGBtoLab, ConvertLabToRGB and LabDeltaE through colour-science (sRGB primaries, D65,
CIE 1994 graphic-arts weights); ToneMapHeadroom as BT.2390's EETF over colour-science's ST 2084.

Input: --dir DIR with manifest.json {"width", "height", "images": {name: file},
"cases": [{"id", "op", "params", "inputs": [names], "file"}]}; images are tightly packed
little-endian float32 RGBA, premultiplied linear working-space values (extended linear sRGB).
Output: {"results": [{"id", "max_abs_diff", "mean_abs_diff", "left_out"}]}.
"""
import argparse
import json
import os
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import colour  # noqa: E402
from skimage import filters  # noqa: E402

from generator_judge import random_pixels  # noqa: E402

D65 = colour.CCS_ILLUMINANTS["CIE 1931 2 Degree Standard Observer"]["D65"]
# The matrix derived from the sRGB primaries and D65 (as Daguerre's working space defines it),
# not IEC 61966-2-1's four-decimal one, which differs by up to 1e-4.
SRGB = colour.RGB_COLOURSPACES["sRGB"].copy()
SRGB.use_derived_transformation_matrices(True)


def unpremultiply(img):
    a = img[..., 3:4]
    return np.where(a > 0, img[..., :3] / np.where(a > 0, a, 1), img[..., :3]), a


def to_lab(rgb):
    xyz = colour.RGB_to_XYZ(rgb, SRGB, apply_cctf_decoding=False)
    return colour.XYZ_to_Lab(xyz, D65)


def from_lab(lab):
    return colour.XYZ_to_RGB(colour.Lab_to_XYZ(lab, D65), SRGB, apply_cctf_encoding=False)


def run(op, p, ims):
    a = ims[0]
    none = np.zeros(a.shape[:2], dtype=bool)
    if op == "mix":
        b = ims[1]
        return b + (a - b) * p["amount"], none
    if op == "maskBlend":
        b, m = ims[1], ims[2]
        w = np.clip(m[..., {"red": 0, "blue": 2}[p["channel"]]], 0, 1)[..., None]
        return b + (a - b) * w, none
    if op == "absDiff":
        (u, al), (v, be) = unpremultiply(a), unpremultiply(ims[1])
        alpha = al * be
        return np.concatenate([np.abs(u - v) * alpha, alpha], axis=-1), none
    if op == "threshold":
        u, al = unpremultiply(a)
        t = p["threshold"]
        out = np.concatenate([(u > t) * al, al], axis=-1)
        return out, (np.abs(u - t) < 1e-6).any(axis=-1)
    if op == "otsu":
        u, al = unpremultiply(a)
        lum = u @ np.array([0.2126, 0.7152, 0.0722])
        counts = np.histogram(np.clip(lum, 0, 1), bins=256, range=(0, 1))[0]
        t = filters.threshold_otsu(hist=(counts, (np.arange(256) + 0.5) / 256))
        out = np.concatenate([(u > t) * al, al], axis=-1)
        return out, (np.abs(u - t) < 1e-6).any(axis=-1)
    if op == "dither":
        u, al = unpremultiply(a)
        n = random_pixels(0, 0, a.shape[1], a.shape[0])[..., :3] - 0.5

        def encode(x):
            v = np.abs(x)
            return np.sign(x) * np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)

        def decode(x):
            v = np.abs(x)
            return np.sign(x) * np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)
        moved = decode(encode(u) + p["intensity"] * n)
        return np.concatenate([moved * al, al], axis=-1), (al[..., 0] <= 0)
    if op == "reciprocal":
        rgb = a[..., :3]
        out = np.where(rgb > 0, 1 / np.where(rgb > 0, rgb, 1), 0.0)
        return np.concatenate([out, a[..., 3:4]], axis=-1), none
    if op == "palettize":
        u, al = unpremultiply(a)
        palette = np.array(p["palette"], dtype=np.float64)  # unpremultiplied linear RGB
        here, there = (to_lab(u), to_lab(palette)) if p["perceptual"] else (u, palette)
        d = ((here[..., None, :] - there[None, None, :, :]) ** 2).sum(axis=-1)
        order = np.sort(d, axis=-1)
        pick = palette[np.argmin(d, axis=-1)]  # the first of equals
        # Pixels with two palette colours equally near (to float32) may go either way.
        ties = (order[..., 1] - order[..., 0]) < 1e-4 * np.maximum(order[..., 0], 1e-6)
        return np.concatenate([pick * al, al], axis=-1), ties
    if op == "toLab":
        u, al = unpremultiply(a)
        lab = to_lab(u)
        if p["normalize"]:
            lab = lab / np.array([100, 128, 128])
        return np.concatenate([lab * al, al], axis=-1), none
    if op == "fromLab":
        u, al = unpremultiply(a)
        lab = u * (np.array([100, 128, 128]) if p["normalize"] else 1)
        return np.concatenate([from_lab(lab) * al, al], axis=-1), none
    if op == "deltaE":
        (u, _), (v, _) = unpremultiply(a), unpremultiply(ims[1])
        e = colour.delta_E(to_lab(u), to_lab(v), method="CIE 1994")[..., None]
        return np.concatenate([e, e, e, np.ones_like(e)], axis=-1), none
    if op == "toneMap":
        return tone_map(a, p["source"], p["target"]), none
    if op == "systemToneMap":
        u, _ = unpremultiply(a)
        return tone_map(a, max(1.0, float(u.max())), p["target"]), none
    raise SystemExit(f"unknown op {op}")


def tone_map(img, source, target):
    """ITU-R BT.2390's EETF (no black lift) on each pixel's max(R, G, B), SDR white 203 cd/m2
    (BT.2408), through colour-science's ST 2084 functions; R, G, B scaled alike."""
    white = 203.0
    code = lambda x: colour.models.eotf_inverse_ST2084(np.maximum(x, 0) * white)
    src, tgt = code(source), code(target)
    max_lum = tgt / src
    ks = 1.5 * max_lum - 0.5
    u, al = unpremultiply(img)
    peak = u.max(axis=-1)
    e1 = np.minimum(code(peak) / src, 1)
    t = (e1 - ks) / (1 - ks)
    spline = (2 * t**3 - 3 * t**2 + 1) * ks + (t**3 - 2 * t**2 + t) * (1 - ks) + (-2 * t**3 + 3 * t**2) * max_lum
    e2 = np.where(e1 > ks, spline, e1)
    mapped = np.where(e1 > ks, colour.models.eotf_ST2084(e2 * src) / white, peak)
    k = np.where(peak > 0, mapped / np.where(peak > 0, peak, 1), 1)[..., None]
    return np.concatenate([u * k * al, al], axis=-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    d = ap.parse_args().dir
    m = json.load(open(os.path.join(d, "manifest.json")))
    w, h = m["width"], m["height"]

    def load(f):
        return np.fromfile(os.path.join(d, f), dtype="<f4").astype(np.float64).reshape(h, w, 4)

    images = {k: load(f) for k, f in m["images"].items()}
    results = []
    for c in m["cases"]:
        expected, left_out = run(c["op"], c["params"], [images[n] for n in c["inputs"]])
        diff = np.abs(load(c["file"]) - expected)[~left_out]
        results.append({"id": c["id"], "max_abs_diff": float(diff.max()), "mean_abs_diff": float(diff.mean()),
                        "left_out": int(left_out.sum())})
    print(json.dumps({"results": results}))


if __name__ == "__main__":
    main()
