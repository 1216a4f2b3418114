#!/usr/bin/env python3
"""Independent judge for Core Image's transition filters (Tests/DaguerreImageTests/
TransitionFilterTests.swift). Core Image publishes no formulas for them; each is computed here in
numpy from the definition the filter's doc comment states, vectorised over the whole image.

Input: --dir DIR with manifest.json {"width", "height", "image": file, "target": file,
"cases": [{"id", "filter", "params", "file"}]}; images are tightly packed little-endian float32
RGBA, premultiplied linear (extended linear sRGB), rows in the order the engine writes them,
all on the same width x height canvas at origin (0, 0); "extra": [file, ...] lists further images
that cases use: a page curl's backside and shading images (named in its params), the ripple's
shading image ("shading.f32", when its params say "lit") and the disintegration's mask
("mask.f32").
Output: {"results": [{"id", "max_abs_diff", "mean_abs_diff", "edge_pixels"}]}, differences in
linear values; pixels whose centre lies within 0.01 px of a swipe edge, or of a page curl's
line or its cylinder's silhouette, are left out (counted in edge_pixels), as float32 and float64
may put them on either side. Colours are given in sRGB and decoded with the sRGB curve into the
linear working space.
"""
import argparse
import json
import os

import cv2
import numpy as np
from scipy.ndimage import correlate1d


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


def bars_swipe(a, b, p):
    h, w = a.shape[:2]
    g = dict(p, extent=[0, 0, w, h], width=p["bar_offset"])
    s, e, lag = swipe_geometry(g, w, h)
    yy, xx = np.mgrid[0:h, 0:w] + 0.5
    q = (yy * np.cos(p["angle"]) - xx * np.sin(p["angle"])) / p["width"]
    bar = np.floor(q).astype(int)
    edge = np.where(bar % 2 == 0, e, e - lag)
    out = np.where((s < edge)[..., None], b, a)
    edges = (np.abs(s - edge) < 0.01) | (np.abs(q - np.round(q)) * p["width"] < 0.01)
    return out, edges


def copy_machine(a, b, p):
    h, w = a.shape[:2]
    s, e, width = swipe_geometry(p, w, h)
    light = np.append(srgb_to_linear(p["color"]), 1.0)
    middle = e - width / 2
    l = np.clip(p["opacity"] * (1 - np.abs(2 * (s - middle) / width)), 0, 1)[..., None]
    band = b + (light - b) * l
    out = np.where((s >= e)[..., None], a, np.where((s >= e - width)[..., None], band, b))
    out = crop(out, p["extent"])
    edges = (np.abs(s - e) < 0.01) | (np.abs(s - (e - width)) < 0.01)
    return out, edges


def crop(img, extent):
    """Clear outside the rectangle [x, y, w, h] (whole pixels here)."""
    h, w = img.shape[:2]
    x0, y0, ew, eh = extent
    yy, xx = np.mgrid[0:h, 0:w]
    inside = (xx >= x0) & (xx < x0 + ew) & (yy >= y0) & (yy < y0 + eh)
    return np.where(inside[..., None], img, 0.0)


def mod(a, b, p):
    h, w = a.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w] + 0.5
    x, y = xx - p["center"][0], yy - p["center"][1]
    c, s = np.cos(p["angle"]), np.sin(p["angle"])
    u = (x * c + y * s) / p["radius"]
    v = (y * c - x * s) / p["compression"]
    du = u - 2 * np.floor(u / 2 + 0.5)
    dv = v - 2 * np.floor(v / 2 + 0.5)
    m = np.hypot(du, dv) / np.sqrt(2)
    out = np.where((m < p["time"])[..., None], b, a)
    edges = np.abs(m - p["time"]) < 1e-5
    return out, edges


def flash(a, b, p):
    h, w = a.shape[:2]
    colour = np.append(srgb_to_linear(p["color"]), 1.0)
    t, fth = p["time"], p["fade_threshold"]
    if t > fth:
        return crop(colour + (b - colour) * ((t - fth) / (1 - fth)), p["extent"])
    x0, y0, ew, eh = p["extent"]
    cx, cy = p["center"]
    rmax = max(np.hypot(px - cx, py - cy) for px, py in [(x0, y0), (x0 + ew, y0), (x0, y0 + eh), (x0 + ew, y0 + eh)])
    radius = rmax * t / fth
    yy, xx = np.mgrid[0:h, 0:w] + 0.5
    dx, dy = xx - cx, yy - cy
    rho = np.hypot(dx, dy) / radius
    reach = p["max_striation_radius"]
    amount = np.ones_like(rho)
    outside = rho > 1
    if reach > 1:
        wgt = (reach - rho) / (reach - 1)
        g = (0.5 + 0.5 * np.cos(24 * np.arctan2(dy, dx))) ** p["striation_contrast"]
        streak = np.clip(wgt * (1 - p["striation_strength"] * (1 - g) * (1 - wgt)), 0, 1)
        amount = np.where(outside, np.where(rho < reach, streak, 0.0), 1.0)
    else:
        amount = np.where(outside, 0.0, 1.0)
    return crop(a + (colour - a) * amount[..., None], p["extent"])


# Extra images a case names in its params ("backside", "shading": a file of the manifest's
# directory, on the same canvas), loaded by main().
EXTRA = {}


def bilinear(img, X, Y):
    """img sampled bilinearly at points (X, Y) (pixel centres at half-integers), transparent off
    the array; weights in float64."""
    h, w = img.shape[:2]
    fx, fy = X - 0.5, Y - 0.5
    ok = np.isfinite(fx) & np.isfinite(fy)
    fx, fy = np.where(ok, fx, -10.0), np.where(ok, fy, -10.0)
    x0, y0 = np.floor(fx), np.floor(fy)
    ax, ay = (fx - x0)[..., None], (fy - y0)[..., None]
    x0, y0 = x0.astype(np.int64), y0.astype(np.int64)

    def at(xi, yi):
        inside = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
        v = img[np.clip(yi, 0, h - 1), np.clip(xi, 0, w - 1)]
        return np.where(inside[..., None], v, 0.0)

    top = at(x0, y0) * (1 - ax) + at(x0 + 1, y0) * ax
    bottom = at(x0, y0 + 1) * (1 - ax) + at(x0 + 1, y0 + 1) * ax
    return np.where(ok[..., None], top * (1 - ay) + bottom * ay, 0.0)


def over(top, under):
    return top + under * (1 - top[..., 3:4])


def page_curl(a, b, p):
    """The page curl of PageCurlTransition's and PageCurlWithShadowTransition's doc comments,
    written out from them: the curl line e sweeps along m; behind it (x = e - s > 0) the page
    rolls round a cylinder of radius R and then lies face down; the front reads the image on the
    page's pixels at P = p + (x - u) m, the back the backside mirrored left to right."""
    h, w = a.shape[:2]
    R = p["radius"]
    m = np.array([np.cos(p["angle"]), np.sin(p["angle"])])
    x0, y0, ew, eh = p["extent"]
    W = p.get("shadow_size", 0.0) * R if "shadow_amount" in p else 0.0
    corners = [(x0, y0), (x0 + ew, y0), (x0, y0 + eh), (x0 + ew, y0 + eh)]
    proj = [cx * m[0] + cy * m[1] for cx, cy in corners]
    s0, s1 = min(proj), max(proj)
    e = s0 + p["time"] * (s1 - s0 + R + W)
    Y, X = np.mgrid[0:h, 0:w] + 0.5
    x = e - (X * m[0] + Y * m[1])
    # The page: the extent's whole pixels; the image and the backside restricted to it.
    X0, Y0, X1, Y1 = np.floor(x0), np.floor(y0), np.ceil(x0 + ew), np.ceil(y0 + eh)
    ix, iy = np.mgrid[0:h, 0:w][1], np.mgrid[0:h, 0:w][0]
    on_page = ((ix >= X0) & (ix < X1) & (iy >= Y0) & (iy < Y1))[..., None]
    front_img = np.where(on_page, a, 0.0)
    back_img = np.where(on_page, EXTRA[p["backside"]] if p.get("backside") else a, 0.0)
    shading = EXTRA[p["shading"]] if p.get("shading") else None

    def shade(layer, n):
        if shading is None:
            return layer
        sh, sw = shading.shape[:2]
        cx, cy = sw / 2, sh / 2
        f = bilinear(shading, cx + n * (sw - 1) / 2, np.full_like(n, cy))
        k = np.concatenate([np.clip(f[..., :3], 0, 1), np.ones(f.shape[:2] + (1,))], axis=-1)
        return layer * k

    def page_point(offset):
        return X + offset * m[0], Y + offset * m[1]

    def back(offset, n):
        px, py = page_point(offset)
        return shade(bilinear(back_img, X0 + X1 - px, py), n)

    # The target, in shadow where the shadow falls.
    t = b.copy()
    if "shadow_amount" in p:
        sx, sy, sw_, sh_ = p["shadow_extent"] if p.get("shadow_extent") else p["extent"]
        inside = (X >= sx) & (X < sx + sw_) & (Y >= sy) & (Y < sy + sh_)
        if W > 0:
            reach = np.clip(1 - (x - R) / W, 0, 1)
        else:
            reach = (x <= R).astype(float)
        reach = np.where(x <= R, 1.0, reach)
        d = np.where(inside, p["shadow_amount"] * reach, 0.0)[..., None]
        t = t * (1 - d) + np.concatenate([np.zeros(d.shape[:2] + (3,)), d], axis=-1)
    t = np.where((x >= 0)[..., None], t, 0.0)

    roll = np.pi * R
    # x < 0: face down over the flat page.
    ahead = over(back(2 * x - roll, np.zeros_like(x)), a)
    # 0 <= x <= R: the upper half over the lower half over the target.
    phi = np.arcsin(np.clip(x / R, -1, 1))
    lower = shade(bilinear(front_img, *page_point(x - R * phi)), x / R)
    upper = back(x - R * (np.pi - phi), -x / R)
    rolled = over(upper, over(lower, t))
    out = np.where((x < 0)[..., None], ahead, np.where((x <= R)[..., None], rolled, t))
    edges = (np.abs(x) < 0.01) | (np.abs(x - R) < 0.01)
    return crop(out, p["extent"]), edges



def ripple(a, b, p):
    shading = EXTRA["shading.f32"] if p.get("lit") else None
    h, w = a.shape[:2]
    x0, y0, ew, eh = p["extent"]
    cx, cy = p["center"]
    far = max(np.hypot(px - cx, py - cy) for px, py in [(x0, y0), (x0 + ew, y0), (x0, y0 + eh), (x0 + ew, y0 + eh)])
    width = p["width"]
    front = p["time"] * (far + width)
    yy, xx = np.mgrid[0:h, 0:w] + 0.5
    dx, dy = xx - cx, yy - cy
    d = np.hypot(dx, dy)
    u = np.clip((front - d) / width, 0, 1)
    safe = np.where(d > 0, d, 1)
    rx, ry = np.where(d > 0, dx / safe, 0), np.where(d > 0, dy / safe, 0)
    move = p["scale"] * np.sin(np.pi * u)
    qx, qy = xx + rx * move, yy + ry * move
    sa, sb = bilinear(a, qx, qy), bilinear(b, qx, qy)
    wave = sa + (sb - sa) * u[..., None]
    if shading is not None:
        sh, sw = shading.shape[:2]
        lx, ly, lr = sw / 2, sh / 2, min(sw, sh) / 2
        tilt = np.cos(np.pi * u) * lr
        shade = bilinear(shading, lx + rx * tilt, ly + ry * tilt)
        wave[..., :3] += shade[..., :3] * np.sin(np.pi * u)[..., None]
    out = np.where((d >= front)[..., None], a, np.where((d < front - width)[..., None], b, wave))
    edges = (np.abs(d - front) < 0.01) | (np.abs(d - (front - width)) < 0.01)
    return crop(out, p["extent"]), edges


def luminance(img):
    """Rec. 709 luminance of premultiplied linear values, clamped to [0, 1]."""
    return np.clip(img[..., 0] * 0.2126 + img[..., 1] * 0.7152 + img[..., 2] * 0.0722, 0, 1)


def disintegrate(a, b, p):
    mask = EXTRA["mask.f32"]
    t, sigma = p["time"], p["shadow_radius"]
    m = luminance(mask)
    pieces = (m >= t).astype(np.float64)
    # The blur reaches past the mask's edge, and the offset brings that part in: work on a
    # canvas padded by both, then cut the image's rectangle out.
    h, w = pieces.shape
    ox, oy = int(p["shadow_offset"][0]), int(-p["shadow_offset"][1])  # Core Image's y-up: rows down by -oy
    r = int(round(6 * sigma + 1)) | 1 if sigma > 0 else 1
    pad = r + abs(ox) + abs(oy)
    canvas = np.pad(pieces, pad)
    if sigma > 0:
        # OpenCV's Gaussian weights, round(6 sigma + 1) | 1 taps (GaussianBlur's); zero outside.
        k = cv2.getGaussianKernel(r, sigma, ktype=cv2.CV_64F).ravel()
        canvas = correlate1d(correlate1d(canvas, k, axis=0, mode="constant"), k, axis=1, mode="constant")
    shadow = canvas[pad - oy:pad - oy + h, pad - ox:pad - ox + w]
    k = 1 - p["shadow_density"] * shadow
    darkened = b * np.stack([k, k, k, np.ones_like(k)], axis=-1)
    out = np.where((m < t)[..., None], darkened, a)
    return out, np.abs(m - t) < 1e-6


def accordion(a, b, p):
    h, w = a.shape[:2]
    t = p["time"]
    bottom = min(max(p["bottom_height"], 0), h)
    folded = h - bottom
    height = folded * (1 - t)
    flat_top = h - bottom
    fold_top = flat_top - height
    panel = height / (2 * round(p["folds"]))
    dark = 1 - p["shadow"] * np.sqrt(1 - (1 - t) ** 2)
    yy, xx = np.mgrid[0:h, 0:w] + 0.5
    sy = np.where(yy >= flat_top, yy, np.where(yy <= fold_top, 0.0, (yy - fold_top) * folded / max(height, 1e-300)))
    panels = np.floor((yy - fold_top) / panel)
    shade = np.where(panels % 2 == 1, dark, 1.0)[..., None] * np.array([1, 1, 1, 0]) + np.array([0, 0, 0, 1.0])
    folding = bilinear(a, xx, sy) * shade
    f = np.where((yy >= flat_top)[..., None], a, np.where((yy >= fold_top)[..., None], folding, 0.0))
    over = f + b * (1 - f[..., 3:4])
    out = b + (over - b) * (1 - t)
    pos = (yy - fold_top) / panel
    edges = (np.abs(pos - np.round(pos)) * panel < 0.01) | (np.abs(yy - flat_top) < 0.01)
    return out, edges

FILTERS = {
    "DissolveTransition": dissolve,
    "SwipeTransition": swipe,
    "BarsSwipeTransition": bars_swipe,
    "FlashTransition": flash,
    "ModTransition": mod,
    "CopyMachineTransition": copy_machine,
    "PageCurlTransition": page_curl,
    "PageCurlWithShadowTransition": page_curl,
    "RippleTransition": ripple,
    "DisintegrateWithMaskTransition": disintegrate,
    "AccordionFoldTransition": accordion,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    d = ap.parse_args().dir
    m = json.load(open(os.path.join(d, "manifest.json")))
    w, h = m["width"], m["height"]
    a, b = load(d, m["image"], w, h), load(d, m["target"], w, h)
    for name in m.get("extra", []):
        EXTRA[name] = load(d, name, w, h)
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
