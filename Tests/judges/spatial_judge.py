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
    out = cv2.filter2D(img, -1, k, borderType=cv2.BORDER_REPLICATE) + np.float32(p["bias"])
    if p.get("rgb_only"):
        out[..., 3] = img[..., 3]  # the RGB forms keep each pixel's alpha
    return out


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


# ---- Stylize ----------------------------------------------------------------------------------

def sample_clamped(img, xs, ys):
    h, w = img.shape[:2]
    return bilinear(img, np.clip(xs, 0.5, w - 0.5), np.clip(ys, 0.5, h - 0.5))


def pixellate(img, p):
    (cx, cy), s = p["center"], p["scale"]
    h, w = img.shape[:2]
    xs, ys = centres(w, h)
    return sample_clamped(img, cx + (np.floor((xs - cx) / s) + 0.5) * s, cy + (np.floor((ys - cy) / s) + 0.5) * s)


def hexpixellate(img, p):
    # Nearest point of the lattice c + i·(s, 0) + j·(s/2, s·√3/2), by brute force around a rounded guess.
    (cx, cy), s = p["center"], p["scale"]
    hh = s * math.sqrt(3) / 2
    h, w = img.shape[:2]
    xs, ys = centres(w, h)
    j0 = np.round((ys - cy) / hh)
    i0 = np.round((xs - cx) / s - j0 / 2)
    best = np.full(xs.shape, np.inf)
    bx, by = np.zeros(xs.shape), np.zeros(xs.shape)
    for dj in range(-2, 3):
        for di in range(-2, 3):
            qx = cx + (i0 + di) * s + (j0 + dj) * s / 2
            qy = cy + (j0 + dj) * hh
            d = (xs - qx) ** 2 + (ys - qy) ** 2
            closer = d < best
            best = np.where(closer, d, best)
            bx, by = np.where(closer, qx, bx), np.where(closer, qy, by)
    return sample_clamped(img, bx, by)


def wang(x):
    x = (x ^ np.uint32(61)) ^ (x >> np.uint32(16))
    x = x * np.uint32(9)
    x = x ^ (x >> np.uint32(4))
    x = x * np.uint32(0x27D4EB2D)
    return x ^ (x >> np.uint32(15))


def crystallize(img, p, dots=False):
    from scipy.spatial import cKDTree
    (cx, cy), radius = p["center"], p["radius"]
    r = 2 * radius if dots else radius
    h, w = img.shape[:2]
    i = np.arange(math.floor(-cx / r) - 3, math.floor((w - cx) / r) + 4)
    j = np.arange(math.floor(-cy / r) - 3, math.floor((h - cy) / r) + 4)
    ii, jj = np.meshgrid(i, j)
    with np.errstate(over="ignore"):
        key = (ii.astype(np.int64) & 0xFFFFFFFF).astype(np.uint32) * np.uint32(0x8DA6B343) ^ \
            (jj.astype(np.int64) & 0xFFFFFFFF).astype(np.uint32) * np.uint32(0xD8163841)
        u = wang(key).astype(np.float64) / 2 ** 32
        v = wang(key ^ np.uint32(0xCB1AB31F)).astype(np.float64) / 2 ** 32
    seeds = np.stack([cx + (ii + u) * r, cy + (jj + v) * r], axis=-1).reshape(-1, 2)
    xs, ys = centres(w, h)
    dist, k = cKDTree(seeds).query(np.stack([xs.ravel(), ys.ravel()], axis=-1))
    q = seeds[k].reshape(h, w, 2)
    out = sample_clamped(img, q[..., 0], q[..., 1])
    if dots:  # Pointillize: only within the radius of the seed
        out[dist.reshape(h, w) > radius] = 0
    return out


def pointillize(img, p):
    return crystallize(img, p, dots=True)


LUMA = np.array([0.2126, 0.7152, 0.0722])


def gaussian(x, sigma):
    taps = int(round(sigma * 6 + 1)) | 1
    return cv2.GaussianBlur(x.astype(np.float32), (taps, taps), sigma, borderType=cv2.BORDER_REPLICATE).astype(np.float64)


def heightfield(img, p):
    y = img[..., :3].astype(np.float64) @ LUMA
    g = gaussian(y, p["radius"]) if p["radius"] > 0 else y
    h = np.clip(2 * g - 1, 0, 1)
    return np.stack([h, h, h, np.ones_like(h)], axis=-1)


def noisereduction(img, p):
    x = img.astype(np.float64)
    b = gaussian(img, 1.0)
    d = x - b
    k = np.clip(np.abs(d[..., :3] @ LUMA) / p["level"], 0, 1)[..., None]
    out = b + d * k * (1 + p["sharpness"] * k)
    out[..., 3] = x[..., 3]
    return out


def shaded(img, p):
    h, w = img.shape[:2]
    sh = load(p["shading"], p["sw"], p["sh"]).astype(np.float64)
    y = np.pad(img[..., :3].astype(np.float64) @ LUMA, 1, mode="edge")
    dx = (y[1:-1, 2:] - y[1:-1, :-2]) / 2
    dy = (y[2:, 1:-1] - y[:-2, 1:-1]) / 2
    n = np.stack([-p["scale"] * dx, -p["scale"] * dy, np.ones_like(dx)], axis=-1)
    n /= np.linalg.norm(n, axis=-1, keepdims=True)
    sw, shh = p["sw"], p["sh"]
    qx = np.clip(sw / 2 + n[..., 0] * sw / 2, 0.5, sw - 0.5)
    qy = np.clip(shh / 2 + n[..., 1] * shh / 2, 0.5, shh - 0.5)
    return bilinear(sh, qx, qy)


def edgework(img, p):
    y = img[..., :3].astype(np.float64) @ LUMA
    g = gaussian(y, p["radius"])
    v = np.clip(1 + (y - g) / 0.02, 0, 1)
    return np.stack([v, v, v, np.ones_like(v)], axis=-1)


def lineoverlay(img, p):
    cleaned = noisereduction(img, {"level": p["level"], "sharpness": p["sharpness"]})
    y = (cleaned[..., :3] @ LUMA).astype(np.float32)
    gx = cv2.Sobel(y, cv2.CV_32F, 1, 0, ksize=3, borderType=cv2.BORDER_REPLICATE).astype(np.float64)
    gy = cv2.Sobel(y, cv2.CV_32F, 0, 1, ksize=3, borderType=cv2.BORDER_REPLICATE).astype(np.float64)
    e = np.sqrt(gx * gx + gy * gy) * p["intensity"]
    a = np.clip((e - p["threshold"]) * p["contrast"], 0, 1)
    return np.stack([np.zeros_like(a)] * 3 + [a], axis=-1)


def depthoffield(img, p):
    x = img.astype(np.float64)
    y = x[..., :3] @ LUMA
    sat = x.copy()
    sat[..., :3] = y[..., None] + p["saturation"] * (x[..., :3] - y[..., None])
    focused = sat + (sat - gaussian(sat, p["um_radius"])) * p["um_intensity"]
    focused[..., 3] = sat[..., 3]
    far = gaussian(sat, p["radius"])
    (ax, ay), (bx, by) = p["point0"], p["point1"]
    length = math.hypot(bx - ax, by - ay)
    h, w = img.shape[:2]
    xs, ys = centres(w, h)
    d = np.abs((xs - ax) * -(by - ay) / length + (ys - ay) * (bx - ax) / length)
    wgt = np.clip(d / (length / 2), 0, 1)[..., None]
    return focused + (far - focused) * wgt


def maskedvariable(img, p):
    h, w = img.shape[:2]
    mask = load(p["mask"], w, h).astype(np.float64)
    sigma = p["radius"] * np.clip(mask[..., :3] @ LUMA, 0, 1)
    reach = int(math.ceil(3 * p["radius"]))
    n = np.minimum(np.ceil(3 * sigma), reach)
    safe = np.maximum(sigma, 0.05)
    pad = np.pad(img.astype(np.float64), ((reach, reach), (reach, reach), (0, 0)), mode="edge")
    acc = np.zeros(img.shape)
    total = np.zeros((h, w))
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            wgt = np.where((abs(dx) <= n) & (abs(dy) <= n), np.exp(-(dx * dx + dy * dy) / (2 * safe * safe)), 0)
            acc += wgt[..., None] * pad[reach + dy:reach + dy + h, reach + dx:reach + dx + w]
            total += wgt
    out = acc / total[..., None]
    keep = sigma < 0.05
    out[keep] = img[keep]
    return out


def edges(img, p):
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=3, borderType=cv2.BORDER_REPLICATE).astype(np.float64)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=3, borderType=cv2.BORDER_REPLICATE).astype(np.float64)
    out = np.sqrt(gx * gx + gy * gy) * p["intensity"]
    out[..., 3] = 1
    return out


def glow(img, p):
    sigma = p["radius"]
    taps = int(round(sigma * 6 + 1)) | 1
    blur = cv2.GaussianBlur(img, (taps, taps), sigma, borderType=cv2.BORDER_REPLICATE).astype(np.float64)
    x = img.astype(np.float64)
    target = np.maximum(x, blur) if p["bloom"] else np.minimum(x, blur)
    return x + (target - x) * p["intensity"]


def spotlight(img, p):
    h, w = img.shape[:2]
    xs, ys = centres(w, h)
    L, A = np.array(p["position"], float), np.array(p["at"], float)
    a = (A - L) / np.linalg.norm(A - L)
    to = np.stack([L[0] - xs, L[1] - ys, np.full(xs.shape, L[2])], axis=-1)
    d = to / np.linalg.norm(to, axis=-1, keepdims=True)
    k = p["brightness"] * np.maximum(d[..., 2], 0) * np.maximum(-(d @ a), 0) ** (1 / p["concentration"])
    out = img.astype(np.float64).copy()
    out[..., :3] *= np.array(p["color"], float) * k[..., None]
    return out


def spotcolor(img, p):
    x = img.astype(np.float64)
    a = x[..., 3:4]
    rgb = np.where(a > 0, x[..., :3] / np.where(a > 0, a, 1), 0)
    best = np.zeros(rgb.shape[:2])
    target = rgb.copy()
    for centre, repl, close, contrast in p["pairs"]:
        dist = np.linalg.norm(rgb - np.array(centre, float), axis=-1)
        wgt = np.clip((close - dist) / (close * (1 - contrast)), 0, 1)
        better = wgt > best
        best = np.where(better, wgt, best)
        target = np.where(better[..., None], np.array(repl, float), target)
    out = rgb + (target - rgb) * best[..., None]
    return np.concatenate([out * a, a], axis=-1)


# ---- Reductions -------------------------------------------------------------------------------

def region(img, p):
    x, y, w, h = p["region"]
    return img[y:y + h, x:x + w].astype(np.float64)


def amax(img, p):
    return region(img, p).max(axis=(0, 1)).reshape(1, 1, 4)


def amin(img, p):
    return region(img, p).min(axis=(0, 1)).reshape(1, 1, 4)


def sobelgrad(img, p):
    """OpenCV's Sobel per colour channel (edges replicated); red: the horizontal gradient of the
    channel largest in magnitude, green: the vertical one in the y-up sense (minus OpenCV's dy)."""
    gx = cv2.Sobel(img[..., :3].astype(np.float64), cv2.CV_64F, 1, 0, ksize=3, borderType=cv2.BORDER_REPLICATE)
    gy = -cv2.Sobel(img[..., :3].astype(np.float64), cv2.CV_64F, 0, 1, ksize=3, borderType=cv2.BORDER_REPLICATE)

    def strongest(g):
        k = np.argmax(np.abs(g), axis=-1)  # the first of equals, as red, green, blue
        return np.take_along_axis(g, k[..., None], axis=-1)[..., 0]
    out = np.zeros(img.shape[:2] + (4,))
    out[..., 0], out[..., 1], out[..., 3] = strongest(gx), strongest(gy), 1
    return out


def distgrad(img, p):
    """scipy's exact Euclidean distance transform to the mask (red > 0.5), on a canvas padded
    past the reach (outside the image is not mask), as min(d, D) / D in RGB, alpha 1. Signed:
    mask pixels get minus their distance to the nearest pixel outside the mask, likewise."""
    D = p["distance"]
    pad = int(np.ceil(D)) + 2
    mask = np.pad(img[..., 0] > 0.5, pad)
    d = ndimage.distance_transform_edt(~mask)[pad:-pad, pad:-pad]
    v = np.minimum(d, D) / D
    if p.get("signed"):
        inner = ndimage.distance_transform_edt(mask)[pad:-pad, pad:-pad]
        inside = mask[pad:-pad, pad:-pad]
        v = np.where(inside, -np.minimum(inner, D) / D, v)
    return np.stack([v, v, v, np.ones_like(v)], axis=-1)


def gaborgrad(img, p):
    """The 5x5 odd Gabor kernel exp(-(x^2+y^2)/(2 sigma^2)) sin(2 pi x / lambda), sigma 1.25,
    lambda 8, scaled so a unit ramp gives 1, applied with OpenCV's filter2D (edges replicated);
    the vertical kernel reads upward. Red, green: the strongest channel's gradient, as Sobel's."""
    r = np.arange(-2, 3)
    X, Y = np.meshgrid(r, r)
    k = np.exp(-(X ** 2 + Y ** 2) / (2 * 1.25 ** 2)) * np.sin(2 * np.pi * X / 8)
    k /= (k * X).sum()
    ky = np.flipud(k.T)  # its weight at (dx, dy) is k's at (-dy, dx): upward is positive
    rgb = img[..., :3].astype(np.float64)
    gx = cv2.filter2D(rgb, cv2.CV_64F, k, borderType=cv2.BORDER_REPLICATE)
    gy = cv2.filter2D(rgb, cv2.CV_64F, ky, borderType=cv2.BORDER_REPLICATE)

    def strongest(g):
        i = np.argmax(np.abs(g), axis=-1)
        return np.take_along_axis(g, i[..., None], axis=-1)[..., 0]
    out = np.zeros(img.shape[:2] + (4,))
    out[..., 0], out[..., 1], out[..., 3] = strongest(gx), strongest(gy), 1
    return out


def bokeh(img, p):
    """The aperture kernel from BokehBlur's doc comment, built here, with OpenCV's filter2D
    (transparent outside)."""
    r, amount, size, soft = p["radius"], p["ring_amount"], p["ring_size"], max(p["softness"], 1e-9)
    reach = int(np.ceil(r + soft / 2))
    d = np.arange(-reach, reach + 1)
    X, Y = np.meshgrid(d, d)
    rho = np.hypot(X, Y)
    disc = np.clip((r - rho) / soft + 0.5, 0, 1)
    rim = np.clip((rho - r * (1 - size)) / soft + 0.5, 0, 1)
    k = disc * (1 + amount * rim)
    k /= k.sum()
    return cv2.filter2D(img.astype(np.float64), cv2.CV_64F, k, borderType=cv2.BORDER_CONSTANT)


def aminmax(img, p):
    r = region(img, p)
    return np.stack([r.min(axis=(0, 1)), r.max(axis=(0, 1))]).reshape(1, 2, 4)


def aboundsred(img, p):
    x0, y0 = p["region"][:2]
    ys, xs = np.nonzero(region(img, p)[..., 0] > 0)
    if len(xs) == 0:
        return np.zeros((1, 1, 4))
    return np.array([x0 + xs.min(), y0 + ys.min(), xs.max() - xs.min() + 1, ys.max() - ys.min() + 1], dtype=float).reshape(1, 1, 4)


def aavgmaxred(img, p):
    r = region(img, p)[..., 0]
    return np.array([r.mean(), r.max(), 0, 1]).reshape(1, 1, 4)


def aminmaxred(img, p):
    r = region(img, p)[..., 0]
    return np.array([r.min(), r.max(), 0, 1]).reshape(1, 1, 4)


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


def histalpha(img, p):
    """Unpremultiplied values (alpha itself for alpha), each pixel weighted by its alpha."""
    r = region(img, p).reshape(-1, 4).astype(np.float64)
    a = r[:, 3]
    v = np.concatenate([np.where(a[:, None] > 0, r[:, :3] / np.where(a > 0, a, 1)[:, None], r[:, :3]), a[:, None]], axis=1)
    bins, scale = p["bins"], p["scale"]
    out = np.stack([np.histogram(np.clip(v[:, c], 0, 1), bins=bins, range=(0, 1), weights=a)[0] for c in range(4)], axis=-1)
    return (out * (scale / len(r))).reshape(1, bins, 4)


def histlog(img, p):
    """Bins equal in stops: floor((log2 v - lo) / (hi - lo) * bins), clamped; v <= 0 in the first."""
    r = region(img, p).reshape(-1, 4).astype(np.float64)
    bins, scale, lo, hi = p["bins"], p["scale"], p["min_stop"], p["max_stop"]
    with np.errstate(divide="ignore", invalid="ignore"):
        pos = np.where(r > 0, (np.log2(np.where(r > 0, r, 1)) - lo) / (hi - lo) * bins, -1)
    b = np.clip(np.floor(pos), 0, bins - 1).astype(int)
    out = np.stack([np.bincount(b[:, c], minlength=bins) for c in range(4)], axis=-1)
    return (out * (scale / len(r))).reshape(1, bins, 4)


def histdisplay(img, p):
    hst = hist(img, p)[0, :, :3]
    m = hst.max()
    lo, hi, rows = p["low"], p["high"], p["height"]
    bar = np.clip((hst / m - lo) / (hi - lo), 0, 1)
    level = (np.arange(rows)[::-1] + 0.5) / rows  # row 0 is the top
    lit = (level[:, None, None] < bar[None, :, :]).astype(np.float64)
    return np.concatenate([lit, np.ones((rows, hst.shape[0], 1))], axis=-1)


OPS = {"histdisplay": histdisplay, "conv": conv, "median": median, "disc": disc, "motion": motion, "zoom": zoom, "amax": amax, "amin": amin, "aminmax": aminmax, "bokeh": bokeh, "gaborgrad": gaborgrad, "distgrad": distgrad, "sobelgrad": sobelgrad, "aminmaxred": aminmaxred, "aavgmaxred": aavgmaxred, "aboundsred": aboundsred,
       "amaxalpha": amaxalpha, "pixellate": pixellate, "hexpixellate": hexpixellate,
       "crystallize": crystallize, "pointillize": pointillize, "heightfield": heightfield,
       "noisereduction": noisereduction, "maskedvariable": maskedvariable, "depthoffield": depthoffield, "shaded": shaded,
       "edgework": edgework, "lineoverlay": lineoverlay, "edges": edges, "glow": glow, "spotlight": spotlight, "spotcolor": spotcolor, "aminalpha": aminalpha, "rowavg": rowavg, "histalpha": histalpha, "histlog": histlog, "colavg": colavg, "hist": hist}


def main():
    cases = json.load(open(sys.argv[1]))
    results = []
    for c in cases:
        img = load(c["input"], c["w"], c["h"])
        ours = load(c["out"], c["ow"], c["oh"]).astype(np.float64)
        ref = np.asarray(OPS[c["op"]](img, c["params"]), dtype=np.float64)
        if c["op"] in ("amax", "amin", "aminmax", "aminmaxred", "aboundsred", "amaxalpha", "aminalpha", "rowavg", "colavg", "hist", "histalpha", "histlog", "histdisplay"):
            ref = ref[:c["oh"], :c["ow"]]
        else:
            ref = ref[c["oy"]:c["oy"] + c["oh"], c["ox"]:c["ox"] + c["ow"]]
        if ref.shape != ours.shape:
            results.append({"id": c["id"], "error": f"shape {ours.shape} vs reference {ref.shape}"})
            continue
        d = np.abs(ours - ref)
        # How much of the image the operation changes (so a test that changes nothing shows).
        changed = float((np.abs(ref - img).max(axis=-1) > 1e-3).mean()) if ref.shape == img.shape else 1.0
        results.append({"id": c["id"], "max_abs_diff": float(d.max()), "mean_abs_diff": float(d.mean()),
                        "changed": changed, "reference_range": [float(ref.min()), float(ref.max())]})
    print(json.dumps({"cases": results}))


if __name__ == "__main__":
    main()
