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

import cv2
import numpy as np
from scipy import special


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


def splitmix(z):
    """splitmix64's output function on uint64 arrays (wrapping arithmetic)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def random_pixels(x, y, w, h):
    """RandomGenerator: key = x << 32 | y (32-bit words), two splitmix64 hashes, 24 bits each channel."""
    xs = (np.arange(x, x + w, dtype=np.int64) & 0xFFFFFFFF).astype(np.uint64)
    ys = (np.arange(y, y + h, dtype=np.int64) & 0xFFFFFFFF).astype(np.uint64)
    key = (xs[None, :] << np.uint64(32)) | ys[:, None]
    golden = np.uint64(0x9E3779B97F4A7C15)
    with np.errstate(over="ignore"):
        h1 = splitmix(key + golden)
        h2 = splitmix(key + np.uint64(2) * golden)
    m = np.uint64(0xFFFFFF)
    chans = [h1 >> np.uint64(40), (h1 >> np.uint64(8)) & m, h2 >> np.uint64(40), (h2 >> np.uint64(8)) & m]
    return np.stack([c.astype(np.float64) / 2**24 for c in chans], axis=-1)


def striation(X, Y, contrast, t):
    th = np.arctan2(Y, X)
    ph = 2 * np.pi * t
    n = (np.sin(13 * th + ph) + np.sin(29 * th - 2 * ph) + np.sin(47 * th + 3 * ph)) / 3
    return np.clip(0.5 + 0.5 * contrast * n, 0, 1)


def light(name, p, X, Y):
    """The three light generators as their doc comments define them (premultiplied RGBA)."""
    num = lambda k, d: p.get(k, [d])[0]
    cx, cy = p.get("inputCenter", [150, 150])
    X, Y = X - cx, Y - cy
    r = np.hypot(X, Y)
    if name == "SunbeamsGenerator":
        c = colour(p, "inputColor", [1, 0.5, 0, 1])
        R, M = num("inputSunRadius", 40), num("inputMaxStriationRadius", 2.58)
        strength = num("inputStriationStrength", 0.5)
        S = striation(X, Y, num("inputStriationContrast", 1.375), num("inputTime", 0))
        I = np.clip(R + 0.5 - r, 0, 1)
        if R > 0:
            rho = r / R
            glow = 0.5 / np.maximum(rho, 1) ** 2
            fall = np.clip(1 - (rho - 1) / (M - 1), 0, 1) if M > 1 else 0 * rho
            I = np.minimum(I + glow + strength * S * fall, 1)
        return c * I[..., None]
    if name == "StarShineGenerator":
        c = colour(p, "inputColor", [1, 0.8, 0.6, 1])
        radius, width = num("inputRadius", 50), num("inputCrossWidth", 2.5)
        angle = num("inputCrossAngle", 0.6)
        L = num("inputCrossScale", 15) * radius * 2 ** num("inputEpsilon", -2)
        o = 2 ** (num("inputCrossOpacity", -2) / 2)
        I = 1 / (1 + 16 * r * r / radius**2) if radius > 0 else 0 * r
        if width > 0 and L > 0:
            u = X * np.cos(angle) + Y * np.sin(angle)
            v = -X * np.sin(angle) + Y * np.cos(angle)
            arm = lambda a, b: o * np.exp(-b * b / (2 * width * width)) / (1 + (a / L) ** 2)
            I = I + arm(u, v) + arm(v, u)
        return c * np.minimum(I, 1)[..., None]
    if name == "LenticularHaloGenerator":
        c = colour(p, "inputColor", [1, 0.9, 0.8, 1])
        H, half = num("inputHaloRadius", 70), num("inputHaloWidth", 87) / 2
        spread = (1 - min(num("inputHaloOverlap", 0.77), 1)) * half
        strength = num("inputStriationStrength", 0.5)
        S = striation(X, Y, num("inputStriationContrast", 1), num("inputTime", 0))
        if half <= 0:
            return np.zeros(X.shape + (4,))
        layers = [np.maximum(0, 1 - ((r - Rk) / half) ** 2) for Rk in (H + spread, H, H - spread)]
        Ik = np.clip(np.stack(layers, axis=-1) * (1 - strength + strength * S)[..., None], 0, 1)
        return np.concatenate([c[:3] * Ik, c[3] * Ik.max(axis=-1, keepdims=True)], axis=-1)
    raise SystemExit(f"unknown light {name}")


def expected(name, p, x, y, w, h):
    xs = x + np.arange(w) + 0.5
    ys = y + np.arange(h) + 0.5
    X, Y = np.meshgrid(xs, ys)
    if name == "RandomGenerator":
        return random_pixels(x, y, w, h)
    if name in ("SunbeamsGenerator", "StarShineGenerator", "LenticularHaloGenerator"):
        return light(name, p, X, Y)
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
    elif name == "MeshGenerator":
        # colour x clamp(width/2 + 1/2 - d): d the distance to the nearest segment
        c = colour(p, "inputColor", [1, 1, 1, 1])
        half = p.get("inputWidth", [1.5])[0] / 2
        m = np.array(p.get("inputMesh", []), dtype=np.float64).reshape(-1, 4)
        d = np.full(X.shape, np.inf)
        for x0, y0, x1, y1 in m:
            dx, dy = x1 - x0, y1 - y0
            l2 = dx * dx + dy * dy
            t = np.clip(((X - x0) * dx + (Y - y0) * dy) / l2, 0, 1) if l2 > 0 else np.zeros_like(X)
            d = np.minimum(d, np.hypot(X - (x0 + t * dx), Y - (y0 + t * dy)))
        return c * np.clip(half + 0.5 - d, 0, 1)[..., None]
    elif name in ("RoundedRectangleGenerator", "RoundedRectangleStrokeGenerator", "BlurredRectangleGenerator"):
        # colour x coverage: clamp(1/2 - d) of the signed distance d to the rounded box (the
        # stroke: |d| - width/2), or the box convolved with a Gaussian in closed form.
        c = colour(p, "inputColor", [1, 1, 1, 1])
        x0, y0, ew, eh = p.get("inputExtent", [0, 0, 100, 100])
        sigma = p.get("inputSigma", [10])[0]
        if name == "BlurredRectangleGenerator" and sigma > 0:
            def band(v, lo, hi):
                return special.ndtr((v - lo) / sigma) - special.ndtr((v - hi) / sigma)
            cover = band(X, x0, x0 + ew) * band(Y, y0, y0 + eh)
            cover = np.where((X > x0 - 4 * sigma) & (X < x0 + ew + 4 * sigma) & (Y > y0 - 4 * sigma) & (Y < y0 + eh + 4 * sigma),
                             cover, 0)
        else:
            r = 0 if name == "BlurredRectangleGenerator" else min(p.get("inputRadius", [10])[0], ew / 2, eh / 2)
            qx = np.abs(X - (x0 + ew / 2)) - (ew / 2 - r)
            qy = np.abs(Y - (y0 + eh / 2)) - (eh / 2 - r)
            d = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0) - r
            if name == "RoundedRectangleStrokeGenerator":
                d = np.abs(d) - p.get("inputWidth", [10])[0] / 2
            cover = np.clip(0.5 - d, 0, 1)
        return c * cover[..., None]
    elif name == "BlurredRoundedRectangleGenerator":
        # The rounded box with superellipse corners (exponent 2 + 2 smoothness, the n-norm of the
        # overshoot), antialiased as above, then OpenCV's GaussianBlur (2 ceil(3 sigma) + 1 taps,
        # zero outside) on a canvas grown past the blur's reach.
        c = colour(p, "color", [1, 1, 1, 1])
        x0, y0, ew, eh = p.get("extent", [0, 0, 100, 100])
        sigma, n = p.get("sigma", [10])[0], 2 + 2 * p.get("smoothness", [0])[0]
        r = min(max(p.get("radius", [10])[0], 0), ew / 2, eh / 2)
        k = int(np.ceil(3 * sigma)) + 2
        gx = x + np.arange(-k, w + k) + 0.5
        gy = y + np.arange(-k, h + k) + 0.5
        GX, GY = np.meshgrid(gx, gy)
        qx = np.abs(GX - (x0 + ew / 2)) - (ew / 2 - r)
        qy = np.abs(GY - (y0 + eh / 2)) - (eh / 2 - r)
        over = (np.maximum(qx, 0) ** n + np.maximum(qy, 0) ** n) ** (1 / n)
        d = over + np.minimum(np.maximum(qx, qy), 0) - r
        cover = np.clip(0.5 - d, 0, 1)
        if sigma > 0:
            t = 2 * int(np.ceil(3 * sigma)) + 1
            cover = cv2.GaussianBlur(cover, (t, t), sigma, borderType=cv2.BORDER_CONSTANT)
        return c * cover[k:k + h, k:k + w][..., None]
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
        r = {"name": case["name"], "label": case.get("label", ""), "max_abs_diff": float(diff.max()),
             "mean_abs_diff": float(diff.mean())}
        if case["name"] == "RandomGenerator":
            # Uniform on [0, 1): mean 1/2, variance 1/12 per channel; neighbours and channels
            # uncorrelated (Pearson's r).
            flat = ours.reshape(-1, 4)
            r["mean"] = [float(v) for v in flat.mean(axis=0)]
            r["variance"] = [float(v) for v in flat.var(axis=0)]
            corr = [np.corrcoef(ours[:, 1:, k].ravel(), ours[:, :-1, k].ravel())[0, 1] for k in range(4)]
            corr += [np.corrcoef(ours[1:, :, k].ravel(), ours[:-1, :, k].ravel())[0, 1] for k in range(4)]
            cc = np.corrcoef(flat.T)
            corr += [cc[i, j] for i in range(4) for j in range(i + 1, 4)]
            r["max_abs_correlation"] = float(np.max(np.abs(corr)))
            r["min"], r["max"] = float(ours.min()), float(ours.max())
        out.append(r)
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
        if name == "CMYKHalftone":
            want, steep = cmyk(src, p, X, Y)
            diff = np.abs(ours - want)
            out.append({"name": name, "label": case.get("label", ""), "max_abs_diff": float(diff[~steep].max()),
                        "mean_abs_diff": float(diff.mean()), "on_threshold": int(steep.sum())})
            continue
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


def cmyk(src, p, X, Y):
    """CMYKHalftone as its doc comment defines it (dots whose area is the ink's coverage); X, Y: offsets from the centre. Returns the
    expected premultiplied RGBA and the pixels where an ink sits on its threshold."""
    width = max(p.get("inputWidth", [6])[0], 1)
    angle = p.get("inputAngle", [0])[0]
    sharp = p.get("inputSharpness", [0.7])[0]
    gcr, ucr = p.get("inputGCR", [1])[0], p.get("inputUCR", [0.5])[0]
    a = src[..., 3]
    rgb = np.clip(src[..., :3] / np.where(a > 0, a, 1)[..., None], 0, 1)
    cmy0 = 1 - rgb
    k = np.clip(gcr * cmy0.min(axis=-1), 0, 1)
    cmy = np.clip(cmy0 - ucr * k[..., None], 0, 1)
    cover = np.concatenate([cmy, k[..., None]], axis=-1)
    eps = min(max(1 - sharp, 2 / width), 1)
    # the ramp's middle, so that the mean ink over a cell (A uniform on [0, 1]) is the coverage
    edge = np.where(cover < eps / 2, np.sqrt(2 * eps * cover) - eps / 2,
                    np.where(cover > 1 - eps / 2, 1 + eps / 2 - np.sqrt(2 * eps * np.maximum(1 - cover, 0)), cover))
    paper = np.empty_like(cover)
    steep = np.zeros(a.shape, dtype=bool)
    frac = lambda t: t - np.round(t)
    for j, deg in enumerate([15, 75, 0, 45]):
        th = angle + np.radians(deg)
        fu = frac((X * np.cos(th) + Y * np.sin(th)) / width)
        fv = frac((-X * np.sin(th) + Y * np.cos(th)) / width)
        r2 = fu * fu + fv * fv
        r = np.sqrt(r2)
        with np.errstate(invalid="ignore"):
            outer = np.pi * r2 - 4 * (r2 * np.arccos(np.minimum(0.5 / np.maximum(r, 1e-12), 1)) - 0.5 * np.sqrt(np.maximum(r2 - 0.25, 0)))
        area = np.minimum(np.where(r2 <= 0.25, np.pi * r2, outer), 1)
        paper[..., j] = np.clip(0.5 + (area - edge[..., j]) / eps, 0, 1)
        steep |= np.abs(area - edge[..., j]) < 1e-5
    out = np.stack([paper[..., 0] * paper[..., 3], paper[..., 1] * paper[..., 3], paper[..., 2] * paper[..., 3]], axis=-1)
    out = np.concatenate([out * a[..., None], a[..., None]], axis=-1)
    return np.where((a > 0)[..., None], out, src), steep


def comic(manifest):
    """Each case: {"input", "file", "x", "y", "w", "h"}: our input rendered with a one-pixel
    margin ((w + 2) x (h + 2), from (x - 1, y - 1)) and our output of (x, y, w, h), float32
    RGBA, linear, premultiplied. ComicEffect's recipe as its doc comment states it: posterize
    (6 levels) on the sRGB encoding (IEC 61966-2-1), CMYKHalftone (defaults), black ink of alpha clamp((|Sobel Y| - 0.1) * 50, 0, 1)
    over it."""
    out = []
    for case in manifest:
        w, h = case["w"], case["h"]
        big = np.fromfile(case["input"], dtype=np.float32).reshape(h + 2, w + 2, 4).astype(np.float64)
        ours = np.fromfile(case["file"], dtype=np.float32).reshape(h, w, 4).astype(np.float64)
        src = big[1:-1, 1:-1]
        a = src[..., 3]
        n = 6
        un = src[..., :3] / np.where(a > 0, a, 1)[..., None]
        enc = lambda c: np.where(c <= 0.0031308, 12.92 * c, 1.055 * np.abs(c) ** (1 / 2.4) - 0.055)
        # LinearToSRGBToneCurve and SRGBToneCurveToLinear look the curve up by the value's
        # half-float bit pattern: the curve is exact at the half-float nearest the value.
        half = lambda c: c.astype(np.float16).astype(np.float64)
        scaled = np.clip(enc(half(un)), 0, 1) * n
        poster = srgb_to_linear(half(np.minimum(np.floor(scaled), n - 1) / (n - 1)))
        # float32 rounding may put a value on the other side of a level's edge
        level = np.round(scaled)
        near_level = np.any((np.abs(scaled - level) < 1e-4) & (level >= 1) & (level <= n - 1), axis=-1)
        flat = np.concatenate([poster * a[..., None], a[..., None]], axis=-1)
        X, Y = np.meshgrid(case["x"] + np.arange(w) + 0.5 - 150, case["y"] + np.arange(h) + 0.5 - 150)
        printed, steep = cmyk(flat, {}, X, Y)
        lum = big[..., :3] @ np.array([0.2126, 0.7152, 0.0722])
        gx = (lum[:-2, 2:] + 2 * lum[1:-1, 2:] + lum[2:, 2:]) - (lum[:-2, :-2] + 2 * lum[1:-1, :-2] + lum[2:, :-2])
        gy = (lum[2:, :-2] + 2 * lum[2:, 1:-1] + lum[2:, 2:]) - (lum[:-2, :-2] + 2 * lum[:-2, 1:-1] + lum[:-2, 2:])
        e = np.hypot(gx, gy)
        ink = np.clip((e - 0.3) * 10, 0, 1)
        near_ink = np.zeros(e.shape, dtype=bool)  # the ramp (x10) is gentle enough for float32
        want = printed * (1 - ink[..., None])
        want[..., 3] += ink
        diff = np.abs(ours - want)
        skip = steep | near_level | near_ink
        out.append({"label": case.get("label", ""), "max_abs_diff": float(diff[~skip].max()),
                    "mean_abs_diff": float(diff.mean()), "skipped": int(skip.sum()),
                    "ink_fraction": float((ink > 0.5).mean()), "differing": int((diff.max(axis=-1) > 1e-3).sum())})
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
    result = {"patterns": patterns, "halftone": halftone, "comic": comic, "codes": codes}[mode](manifest)
    print(json.dumps({"cases": result}))


if __name__ == "__main__":
    main()
