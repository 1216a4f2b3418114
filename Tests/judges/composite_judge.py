#!/usr/bin/env python3
"""Independent judge for Core Image's CompositeOperation filters (Tests/DaguerreImageTests).

The blend modes and Porter-Duff operators are transcribed from W3C *Compositing and Blending
Level 1* (https://www.w3.org/TR/compositing-1/) in numpy, vectorised over whole images: the
blend B(Cb, Cs) on unpremultiplied colours, mixed into the source by the backdrop's alpha and
composited source-over,

    co = cs (1 - ab) + cb (1 - as) + as ab B(Cb, Cs),   ao = as + ab - as ab;

Porter-Duff as co = Fa cs + Fb cb on all four premultiplied channels. The modes W3C does not
define use the formulas the filters' doc comments state.

The BlendWith…Mask filters are judged here too: background + (source - background)·m, m the
mask's Rec. 709 luminance or its alpha, clamped to [0, 1].

Input: a directory with manifest.json {"width", "height", "source": {file, x, y, w, h},
"background": {...}, "mask": {...}, "cases": [{name, file}]}; the images are tightly packed little-endian
float32 RGBA, premultiplied linear (extended linear sRGB). Every case is placed on the
width x height canvas (origin 0, 0). Output: {"results": [{name, max_abs_diff, mean_abs_diff}]}
where the difference is in 8-bit sRGB-encoded steps of (a) the premultiplied colour (the
result over black) and alpha, and (b) the straight colour where the result's alpha >= 0.5.
"""
import argparse
import json
import os

import numpy as np


def place(d, spec, w, h):
    a = np.fromfile(os.path.join(d, spec["file"]), dtype="<f4").astype(np.float64)
    a = a.reshape(spec["h"], spec["w"], 4)
    canvas = np.zeros((h, w, 4))
    x, y = spec["x"], spec["y"]
    canvas[y:y + spec["h"], x:x + spec["w"]] = a
    return canvas


def unpremultiply(p):
    a = p[..., 3:4]
    return np.where(a > 0, p[..., :3] / np.where(a > 0, a, 1), 0.0)


# W3C separable blend functions B(Cb, Cs)
def multiply(cb, cs): return cb * cs
def screen(cb, cs): return cb + cs - cb * cs
def hard_light(cb, cs): return np.where(cs <= 0.5, multiply(cb, 2 * cs), screen(cb, 2 * cs - 1))
def overlay(cb, cs): return hard_light(cs, cb)
def darken(cb, cs): return np.minimum(cb, cs)
def lighten(cb, cs): return np.maximum(cb, cs)


def color_dodge(cb, cs):
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.minimum(1.0, cb / (1 - cs))
    return np.where(cb == 0, 0.0, np.where(cs >= 1, 1.0, q))


def color_burn(cb, cs):
    with np.errstate(divide="ignore", invalid="ignore"):
        q = 1 - np.minimum(1.0, (1 - cb) / cs)
    return np.where(cb >= 1, 1.0, np.where(cs <= 0, 0.0, q))


def soft_light(cb, cs):
    d = np.where(cb <= 0.25, ((16 * cb - 12) * cb + 4) * cb, np.sqrt(np.maximum(cb, 0)))
    return np.where(cs <= 0.5, cb - (1 - 2 * cs) * cb * (1 - cb), cb + (2 * cs - 1) * (d - cb))


def difference(cb, cs): return np.abs(cb - cs)
def exclusion(cb, cs): return cb + cs - 2 * cb * cs


# W3C non-separable helpers
def lum(c): return 0.3 * c[..., 0] + 0.59 * c[..., 1] + 0.11 * c[..., 2]


def clip_color(c):
    l = lum(c)[..., None]
    n = c.min(axis=-1, keepdims=True)
    x = c.max(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where((n < 0) & (l - n > 0), l + (c - l) * l / (l - n), c)
        c = np.where((x > 1) & (x - l > 0), l + (c - l) * (1 - l) / (x - l), c)
    return c


def set_lum(c, l):
    return clip_color(c + (l - lum(c))[..., None])


def sat(c): return c.max(axis=-1) - c.min(axis=-1)


def set_sat(c, s):
    # W3C: Cmax > Cmin -> Cmid = (Cmid - Cmin) s / (Cmax - Cmin), Cmax = s; else 0; Cmin = 0.
    out = np.zeros_like(c)
    order = np.argsort(c, axis=-1, kind="stable")
    lo = np.take_along_axis(c, order[..., 0:1], -1)[..., 0]
    mid = np.take_along_axis(c, order[..., 1:2], -1)[..., 0]
    hi = np.take_along_axis(c, order[..., 2:3], -1)[..., 0]
    ok = hi > lo
    with np.errstate(divide="ignore", invalid="ignore"):
        new_mid = np.where(ok, (mid - lo) * s / (hi - lo), 0.0)
    new_hi = np.where(ok, s, 0.0)
    np.put_along_axis(out, order[..., 1:2], new_mid[..., None], -1)
    np.put_along_axis(out, order[..., 2:3], new_hi[..., None], -1)
    np.put_along_axis(out, order[..., 0:1], np.zeros_like(lo)[..., None], -1)
    return out


def hue(cb, cs): return set_lum(set_sat(cs, sat(cb)), lum(cb))
def saturation(cb, cs): return set_lum(set_sat(cb, sat(cs)), lum(cb))
def color(cb, cs): return set_lum(cs, lum(cb))
def luminosity(cb, cs): return set_lum(cb, lum(cs))


# Modes W3C does not define: the formulas the filters document.
def subtract(cb, cs): return np.maximum(0.0, cb - cs)


def divide(cb, cs):
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.minimum(1.0, cb / cs)
    return np.where(cs > 0, q, np.where(cb > 0, 1.0, 0.0))


def linear_burn(cb, cs): return np.maximum(0.0, cb + cs - 1)
def linear_dodge(cb, cs): return np.minimum(1.0, cb + cs)
def linear_light(cb, cs): return np.clip(cb + 2 * cs - 1, 0, 1)
def vivid_light(cb, cs): return np.where(cs <= 0.5, color_burn(cb, 2 * cs), color_dodge(cb, 2 * cs - 1))
def pin_light(cb, cs): return np.where(cs <= 0.5, np.minimum(cb, 2 * cs), np.maximum(cb, 2 * cs - 1))


BLENDS = {
    "MultiplyBlendMode": multiply, "ScreenBlendMode": screen, "OverlayBlendMode": overlay,
    "DarkenBlendMode": darken, "LightenBlendMode": lighten, "ColorDodgeBlendMode": color_dodge,
    "ColorBurnBlendMode": color_burn, "HardLightBlendMode": hard_light, "SoftLightBlendMode": soft_light,
    "DifferenceBlendMode": difference, "ExclusionBlendMode": exclusion, "HueBlendMode": hue,
    "SaturationBlendMode": saturation, "ColorBlendMode": color, "LuminosityBlendMode": luminosity,
    "SubtractBlendMode": subtract, "DivideBlendMode": divide, "LinearBurnBlendMode": linear_burn,
    "LinearDodgeBlendMode": linear_dodge, "PinLightBlendMode": pin_light,
    "LinearLightBlendMode": linear_light, "VividLightBlendMode": vivid_light,
}


def blend(S, B, f):
    as_, ab = S[..., 3:4], B[..., 3:4]
    mixed = f(unpremultiply(B), unpremultiply(S))
    co = S[..., :3] * (1 - ab) + B[..., :3] * (1 - as_) + as_ * ab * mixed
    return np.concatenate([co, as_ + ab - as_ * ab], axis=-1)


def porter_duff(S, B, fa, fb):
    return fa * S + fb * B


def expected(name, S, B, M):
    as_, ab = S[..., 3:4], B[..., 3:4]
    if name == "BlendWithMask":
        # the mask's Rec. 709 luminance (premultiplied linear), clamped; 0 keeps the background
        m = np.clip(M[..., :3] @ np.array([0.2126, 0.7152, 0.0722]), 0, 1)[..., None]
        return B + (S - B) * m
    if name == "BlendWithAlphaMask":
        return B + (S - B) * np.clip(M[..., 3:4], 0, 1)
    if name in BLENDS:
        return blend(S, B, BLENDS[name])
    if name == "SourceOverCompositing":
        return porter_duff(S, B, 1, 1 - as_)
    if name == "SourceInCompositing":
        return porter_duff(S, B, ab, 0)
    if name == "SourceOutCompositing":
        return porter_duff(S, B, 1 - ab, 0)
    if name == "SourceAtopCompositing":
        return porter_duff(S, B, ab, 1 - as_)
    if name == "AdditionCompositing":
        r = S + B
        r[..., 3] = np.minimum(r[..., 3], 1)
        return r
    if name == "MultiplyCompositing":
        return S * B
    if name == "MaximumCompositing":
        return np.maximum(S, B)
    if name == "MinimumCompositing":
        return np.minimum(S, B)
    raise SystemExit(f"unknown composite {name}")


def encode8(linear):
    import colour
    return np.round(np.clip(colour.cctf_encoding(np.clip(linear, 0, 1), function="sRGB"), 0, 1) * 255).astype(int)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dir", required=True)
    a = p.parse_args()
    m = json.load(open(os.path.join(a.dir, "manifest.json")))
    w, h = m["width"], m["height"]
    S = place(a.dir, m["source"], w, h)
    B = place(a.dir, m["background"], w, h)
    M = place(a.dir, m["mask"], w, h)
    results = []
    for case in m["cases"]:
        ours = place(a.dir, {"file": case["file"], "x": 0, "y": 0, "w": w, "h": h}, w, h)
        ref = expected(case["name"], S, B, M)
        # (a) premultiplied colour (over black) and alpha, 8-bit
        d = np.abs(encode8(ours[..., :3]) - encode8(ref[..., :3]))
        da = np.abs(np.round(np.clip(ours[..., 3], 0, 1) * 255) - np.round(np.clip(ref[..., 3], 0, 1) * 255))
        # (b) straight colour where the result is at least half opaque
        solid = ref[..., 3] >= 0.5
        ds = np.abs(encode8(unpremultiply(ours)) - encode8(unpremultiply(ref)))[solid]
        worst = max(int(d.max()), int(da.max()), int(ds.max()) if ds.size else 0)
        results.append({"name": case["name"], "max_abs_diff": worst, "mean_abs_diff": float(d.mean()),
                         "straight_max_abs_diff": int(ds.max()) if ds.size else 0,
                         "alpha_max_abs_diff": int(da.max())})
    print(json.dumps({"results": results}))


if __name__ == "__main__":
    main()
