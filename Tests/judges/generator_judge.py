#!/usr/bin/env python3
"""Judges Daguerre's generators in one run (called by GeneratorFilterTests.swift).

  generator_judge.py patterns MANIFEST.json
      Each case: {"name", "params", "file", "x", "y", "w", "h"}; the file is our render of the
      region (x, y, w, h) as float32 RGBA, linear sRGB primaries. The expected image is the
      filter's documented definition computed here in float64 numpy (sRGB colours decoded with
      the IEC 61966-2-1 curve). Prints {"cases": [{"name", "max_abs_diff", "mean_abs_diff"}]}.

  generator_judge.py codes MANIFEST.json
      Each case: {"name", "file", "w", "h", "message_hex", "format", "level"?}; the file is our
      render as 8-bit RGB. zxing-cpp (and OpenCV's QR detector for QR codes) decode it after a
      white margin is added and it is scaled up 4x nearest-neighbour. Prints per case the
      decoded bytes, the format, the QR error-correction level and whether only black and
      white were drawn.
"""
import json
import sys

import numpy as np


def srgb_to_linear(c):
    c = np.asarray(c, dtype=np.float64)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def colour(params, key, default):
    v = params.get(key, default)
    rgb = srgb_to_linear(v[:3])
    a = v[3] if len(v) > 3 else 1.0
    return np.array([*(rgb * a), a])


def square_wave(u, width, sharpness):
    """+1 on [0, w), -1 on [w, 2w) of each period, ramps of half-width k across the edges."""
    k = max(0.5, (1 - min(max(sharpness, 0), 1)) * width / 2)
    m = np.mod(u, 2 * width)
    edge = np.minimum(np.minimum(m, np.abs(width - m)), 2 * width - m)
    sign = np.where(m < width, 1.0, -1.0)
    return sign * np.minimum(edge / k, 1.0)


def expected(name, p, x, y, w, h):
    xs = x + np.arange(w) + 0.5
    ys = y + np.arange(h) + 0.5
    X, Y = np.meshgrid(xs, ys)
    if name in ("CheckerboardGenerator", "StripesGenerator"):
        c0 = colour(p, "inputColor0", [1, 1, 1, 1])
        c1 = colour(p, "inputColor1", [0, 0, 0, 1])
        cx, cy = p.get("inputCenter", [150, 150])
        width = p.get("inputWidth", [80])[0]
        sharp = p.get("inputSharpness", [1])[0]
        fx = square_wave(X - cx, width, sharp)
        f = fx * square_wave(Y - cy, width, sharp) if name == "CheckerboardGenerator" else fx
        t = (1 - f) / 2
    elif name == "SmoothLinearGradient":
        c0 = colour(p, "inputColor0", [1, 1, 1, 1])
        c1 = colour(p, "inputColor1", [0, 0, 0, 1])
        p0 = np.array(p.get("inputPoint0", [0, 0]), dtype=np.float64)
        p1 = np.array(p.get("inputPoint1", [200, 200]), dtype=np.float64)
        d = p1 - p0
        s = np.clip(((X - p0[0]) * d[0] + (Y - p0[1]) * d[1]) / (d @ d), 0, 1)
        t = s * s * (3 - 2 * s)
    elif name == "GaussianGradient":
        # color1 + (color0 - color1) * exp(-d^2 / (2 sigma^2)), sigma = radius / 3
        c0 = colour(p, "inputColor0", [1, 1, 1, 1])
        c1 = colour(p, "inputColor1", [0, 0, 0, 0])
        cx, cy = p.get("inputCenter", [150, 150])
        sigma = p.get("inputRadius", [300])[0] / 3
        g = np.exp(-((X - cx) ** 2 + (Y - cy) ** 2) / (2 * sigma * sigma))
        t = 1 - g
    else:
        raise SystemExit(f"unknown pattern {name}")
    return c0 + (c1 - c0) * t[..., None]


def patterns(manifest):
    out = []
    for case in manifest:
        w, h = case["w"], case["h"]
        ours = np.fromfile(case["file"], dtype=np.float32).reshape(h, w, 4).astype(np.float64)
        want = expected(case["name"], case["params"], case["x"], case["y"], w, h)
        diff = np.abs(ours - want)
        out.append({"name": case["name"], "label": case.get("label", ""), "max_abs_diff": float(diff.max()),
                    "mean_abs_diff": float(diff.mean())})
    return out


def halftone(manifest):
    """Each case: {"name", "params", "input", "file", "x", "y", "w", "h"}: our input and output of
    the region as float32 RGBA (linear, premultiplied). The screens as HalftoneScreen documents."""
    out = []
    for case in manifest:
        w, h, p = case["w"], case["h"], case["params"]
        src = np.fromfile(case["input"], dtype=np.float32).reshape(h, w, 4).astype(np.float64)
        ours = np.fromfile(case["file"], dtype=np.float32).reshape(h, w, 4).astype(np.float64)
        cx, cy = p.get("inputCenter", [150, 150])
        angle = p.get("inputAngle", [0])[0]
        width = p.get("inputWidth", [6])[0]
        sharp = p.get("inputSharpness", [0.7])[0]
        X, Y = np.meshgrid(case["x"] + np.arange(w) + 0.5 - cx, case["y"] + np.arange(h) + 0.5 - cy)
        frac = lambda t: t - np.round(t)
        fu = frac((X * np.cos(angle) + Y * np.sin(angle)) / width)
        fv = frac((-X * np.sin(angle) + Y * np.cos(angle)) / width)
        name = case["name"]
        if name == "DotScreen":
            s_ = 1 - 2 * (fu * fu + fv * fv)
        elif name == "LineScreen":
            s_ = 1 - 2 * np.abs(fv)
        elif name == "HatchedScreen":
            s_ = np.maximum(1 - 2 * np.abs(fv), 1 - 2 * np.abs(fu))
        else:
            s_ = 1 - 2 * np.abs(frac(np.hypot(X, Y) / width))
        a = src[..., 3]
        lum = np.clip((src[..., :3] @ np.array([0.2126, 0.7152, 0.0722])) / np.where(a > 0, a, 1), 0, 1)
        eps = max(1 - sharp, 2 / width)
        o = np.clip(0.5 + (lum - s_) / eps, 0, 1) * a
        want = np.stack([o, o, o, a], axis=-1)
        diff = np.abs(ours - want)
        # A pixel whose luminance sits on the screen's threshold within float32 rounding may
        # land either side of a steep ramp: count those apart.
        steep = np.abs(lum - s_) < 1e-5
        out.append({"name": name, "label": case.get("label", ""), "max_abs_diff": float(diff[~steep].max()),
                    "mean_abs_diff": float(diff.mean()), "on_threshold": int(steep.sum())})
    return out


def codes(manifest):
    import cv2
    import zxingcpp

    out = []
    for case in manifest:
        w, h = case["w"], case["h"]
        rgb = np.fromfile(case["file"], dtype=np.uint8).reshape(h, w, 3)
        grey = rgb[..., 0]
        binary = bool(np.all((rgb == 0) | (rgb == 255)) and np.all(rgb[..., 0:1] == rgb))
        big = np.pad(grey, 12, constant_values=255).repeat(4, 0).repeat(4, 1)
        results = zxingcpp.read_barcodes(big)
        r = {"label": case["label"], "binary": binary, "decoded": len(results)}
        if results:
            res = results[0]
            r["bytes_hex"] = bytes(res.bytes).hex()
            r["format"] = str(res.format).split(".")[-1].replace(" ", "")
            r["ec_level"] = res.ec_level
        if case["format"] == "QRCode":
            text, _, _ = cv2.QRCodeDetector().detectAndDecode(big)
            r["opencv_text_hex"] = text.encode("utf-8").hex() if text else ""
        out.append(r)
    return out


def main():
    mode, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        manifest = json.load(f)
    result = {"patterns": patterns, "halftone": halftone, "codes": codes}[mode](manifest)
    print(json.dumps({"cases": result}))


if __name__ == "__main__":
    main()
