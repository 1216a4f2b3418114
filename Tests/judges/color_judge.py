#!/usr/bin/env python3
"""Independent judge for Core Image's colour adjustments and colour effects that are formulas
on linear light (Tests/DaguerreImageTests/ColorAdjustmentFilterTests.swift,
ColorLookFilterTests.swift).

Each case names a Kodak image, a crop (x, y, w, h in image coordinates, rows top down) and an
operation; the judge decodes the crop with colour-science's sRGB EOTF, applies the operation
in numpy from its published or documented formula, encodes with colour-science's inverse EOTF
and compares with Daguerre's 8-bit render (tightly packed RGB, or for "rgbaf" cases
float32 RGBA in extended linear sRGB, compared in 8-bit steps of each channel).

Input: --manifest FILE, JSON {"cases": [{"id", "op", "params", "input", "crop", "ours", "format"}]}.
Output: {"results": [{"id", "max_abs_diff", "mean_abs_diff"}]}.
"""
import argparse
import json

import numpy as np
import colour
from PIL import Image

REC709 = np.array([0.2126, 0.7152, 0.0722])


def decode(v): return colour.eotf(v, function="sRGB")


def encode(v):
    # the extended curve: mirrored for negative values, continued above 1
    return np.sign(v) * colour.eotf_inverse(np.abs(v), function="sRGB")


def srgb_color(c):
    return decode(np.array(c[:3], dtype=float))


def smoothstep(x):
    x = np.clip(x, 0, 1)
    return x * x * (3 - 2 * x)


def ramp(lin, stops):
    stops = np.array(stops, dtype=float)
    t = np.clip(encode(lin @ REC709), 0, 1) * (len(stops) - 1)
    k = np.minimum(np.floor(t).astype(int), len(stops) - 2)
    f = (t - k)[..., None]
    return decode(stops[k] + (stops[k + 1] - stops[k]) * f)


THERMAL = [(0, 0, 0), (0.15, 0, 0.45), (0.5, 0, 0.55), (0.85, 0.15, 0.15), (1, 0.5, 0), (1, 0.85, 0.1), (1, 1, 1)]
XRAY = [(0.92, 0.97, 1), (0, 0.02, 0.06)]


def apply(op, p, lin, xs, ys, extent):
    """lin: HxWx3 linear RGB (opaque); xs, ys: pixel centres in image coordinates."""
    if op == "polynomial":
        out = np.empty_like(lin)
        for c, key in enumerate(["red", "green", "blue"]):
            a = p[key]
            x = lin[..., c]
            out[..., c] = a[0] + a[1] * x + a[2] * x ** 2 + a[3] * x ** 3
        return out
    if op == "crossPolynomial":
        r, g, b = lin[..., 0], lin[..., 1], lin[..., 2]
        terms = np.stack([r, g, b, r * r, g * g, b * b, r * g, g * b, b * r, np.ones_like(r)], axis=-1)
        return np.stack([terms @ np.array(p[k]) for k in ["red", "green", "blue"]], axis=-1)
    if op == "hue":
        # W3C Filter Effects Module Level 1, feColorMatrix type="hueRotate"
        th = p["angle"]
        L = np.array([[0.213, 0.715, 0.072]] * 3)
        C = np.array([[0.787, -0.715, -0.072], [-0.213, 0.285, -0.072], [-0.213, -0.715, 0.928]])
        S = np.array([[-0.213, -0.715, 0.928], [0.143, 0.140, -0.283], [-0.787, 0.715, 0.072]])
        M = L + np.cos(th) * C + np.sin(th) * S
        return lin @ M.T
    if op == "linearToSRGB":
        return encode(lin)
    if op == "sRGBToLinear":
        return decode(lin)
    if op == "whitePoint":
        return lin * srgb_color(p["color"])
    if op == "falseColor":
        c0, c1 = srgb_color(p["color0"]), srgb_color(p["color1"])
        return c0 + (c1 - c0) * (lin @ REC709)[..., None]
    if op == "thermal":
        return ramp(lin, THERMAL)
    if op == "xRay":
        return ramp(lin, XRAY)
    if op == "vignette":
        ex, ey, ew, eh = extent
        d = np.hypot(xs - (ex + ew / 2), ys - (ey + eh / 2)) / (np.hypot(ew, eh) / 2)
        s = smoothstep(d / p["radius"])
        return lin * (1 - p["intensity"] * s * s)[..., None]
    if op == "vignetteEffect":
        cx, cy = p["center"]
        d = np.hypot(xs - cx, ys - cy)
        inner, outer = p["radius"] * (1 - p["falloff"]), p["radius"]
        t = smoothstep((d - inner) / (outer - inner))
        return lin * (1 - p["intensity"] * t)[..., None]
    if op == "cube":
        # colour-science's LUT3D (trilinear); the data is RGBA, red fastest, then green, blue
        d = p["dimension"]
        data = np.fromfile(p["file"], dtype="<f4").reshape(d, d, d, 4).transpose(2, 1, 0, 3)
        lut = colour.LUT3D(table=data[..., :3].astype(float))
        if p.get("space") == "sRGB":
            return decode(lut.apply(np.clip(encode(lin), 0, 1)))
        return lut.apply(np.clip(lin, 0, 1))
    if op == "cubesMixed":
        # two LUT3Ds on the sRGB encoding, mixed by the mask's (here the input's own) luminance
        d = p["dimension"]
        luts = [colour.LUT3D(table=np.fromfile(p[f], dtype="<f4").reshape(d, d, d, 4).transpose(2, 1, 0, 3)[..., :3].astype(float))
                for f in ("file", "file1")]
        a, b = (decode(lut.apply(np.clip(encode(lin), 0, 1))) for lut in luts)
        m = np.clip(lin @ REC709, 0, 1)[..., None]
        return a + (b - a) * m
    if op == "curves":
        # each channel of the sRGB encoding through its table, linear between entries
        table = np.array(p["table"], dtype=float).reshape(-1, 3)
        d0, d1 = p["domain"]
        n = len(table)
        u = np.clip((encode(lin) - d0) / (d1 - d0) * (n - 1), 0, n - 1)
        out = np.stack([np.interp(u[..., c], np.arange(n), table[:, c]) for c in range(3)], axis=-1)
        return decode(out)
    if op == "colorMap":
        # the gradient's middle row, its pixel centres at Y = 0 ... 1, linear in between
        w, h = p["width"], p["height"]
        row = np.fromfile(p["file"], dtype="<f4").reshape(h, w, 4)[(h - 1) // 2, :, :3].astype(float)
        u = np.clip(lin @ REC709, 0, 1) * (w - 1)
        k = np.minimum(np.floor(u).astype(int), w - 2)
        f = (u - k)[..., None]
        return row[k] + (row[k + 1] - row[k]) * f
    if op == "look":
        # the PhotoEffect looks as PhotoEffectLook documents them, on sRGB-encoded values
        x = np.clip(encode(lin), 0, 1)
        y = (x @ REC709)[..., None]
        x = np.repeat(y, 3, axis=-1) if p.get("mono") else y + p["saturation"] * (x - y)
        k = p["contrast"]
        x = x - k * x * (1 - x) * (1 - 2 * x)
        x = np.array(p["lift"]) + np.array(p["gain"]) * x
        return decode(x)
    if op == "maskToAlpha":
        a = np.clip(lin @ REC709, 0, 1)
        return np.stack([a, a, a, a], axis=-1)
    raise SystemExit(f"unknown op {op}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    a = ap.parse_args()
    m = json.load(open(a.manifest))
    results = []
    cache = {}
    for case in m["cases"]:
        if case["input"] not in cache:
            cache[case["input"]] = np.asarray(Image.open(case["input"]).convert("RGB")).astype(float) / 255
        x, y, w, h = case["crop"]
        src = cache[case["input"]][y:y + h, x:x + w]
        lin = decode(src)
        ys, xs = np.mgrid[0:h, 0:w].astype(float)
        ref = apply(case["op"], case.get("params", {}), lin, xs + x + 0.5, ys + y + 0.5, (x, y, w, h))
        if case.get("format") == "rgbaf":
            ours = np.fromfile(case["ours"], dtype="<f4").reshape(h, w, 4)
            d = np.abs(np.round(np.clip(ours, 0, 1) * 255) - np.round(np.clip(ref, 0, 1) * 255))
        else:
            ours = np.fromfile(case["ours"], dtype=np.uint8).reshape(h, w, 3).astype(int)
            expect = np.round(np.clip(encode(ref), 0, 1) * 255).astype(int)
            d = np.abs(ours - expect)
        results.append({"id": case["id"], "max_abs_diff": int(d.max()), "mean_abs_diff": float(d.mean())})
    print(json.dumps({"results": results}))


if __name__ == "__main__":
    main()
