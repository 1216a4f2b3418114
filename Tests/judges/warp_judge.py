#!/usr/bin/env python3
"""Judges Daguerre's warp filters (GeometryAdjustment, TileEffect, DistortionEffect).

Each filter's mapping (output point -> input point, in Daguerre's coordinates: y down, pixel
centres at half-integers) is implemented here independently in numpy from the definition its
doc comment states (OpenCV's getPerspectiveTransform for the projective ones), and the input is
sampled with OpenCV's bilinear cv2.remap. One run judges every case of a manifest:

  warp_judge.py --manifest cases.json

The manifest lists {"name", "params", "ours" (raw RGBA float32), "window" [x, y, w, h]} and the
input ("input": PNG path, "crop": [x, y, w, h]). Prints a JSON object {"results": [...]}, one per
case with max/mean |ours - judge| in 1/255 units over all four channels, outside a band of 1
pixel around the mapping's discontinuities (where neighbouring output pixels' source points are
more than 3 pixels apart), and how many pixels that band masked.
"""
import argparse
import json
import math

import cv2
import numpy as np


def load_input(path, crop):
    bgr = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB).astype(np.float32) / 255.0
    x, y, w, h = crop
    rgb = rgb[y:y + h, x:x + w]
    return np.dstack([rgb, np.ones(rgb.shape[:2], np.float32)])


# ---- mappings: (X, Y) output point grids -> (sx, sy) source points, NaN = transparent ----

def homography_map(H, X, Y, ref, size, clip=True):
    """Inverse-maps through H (source -> output); NaN beyond the vanishing line (w of the other
    sign than at ref, a source point) and off the output extent, the whole-pixel bounding box of
    the input's corners' images."""
    w, h = size
    img = cv2.perspectiveTransform(rect_corners(0, 0, w, h).reshape(-1, 1, 2).astype(np.float64), H).reshape(-1, 2)
    x0, y0 = np.floor(img.min(axis=0))
    x1, y1 = np.ceil(img.max(axis=0))
    Hi = np.linalg.inv(H)
    c = H @ np.array([ref[0], ref[1], 1.0])
    c = c / c[2]
    sign = np.sign((Hi @ c)[2])
    w = Hi[2, 0] * X + Hi[2, 1] * Y + Hi[2, 2]
    sx = (Hi[0, 0] * X + Hi[0, 1] * Y + Hi[0, 2]) / w
    sy = (Hi[1, 0] * X + Hi[1, 1] * Y + Hi[1, 2]) / w
    bad = w * sign <= 0
    if clip:
        bad |= (X < x0) | (X > x1) | (Y < y0) | (Y > y1)
    sx[bad] = np.nan
    sy[bad] = np.nan
    return sx, sy


def corners(p):
    return np.float32([p["inputTopLeft"], p["inputTopRight"], p["inputBottomRight"], p["inputBottomLeft"]])


def rect_corners(x, y, w, h):
    return np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])


def perspective_transform(p, X, Y, size):
    w, h = size
    H = cv2.getPerspectiveTransform(rect_corners(0, 0, w, h), corners(p)).astype(np.float64)
    return homography_map(H, X, Y, (w / 2, h / 2), size)


def perspective_transform_with_extent(p, X, Y, size):
    x, y, w, h = p["inputExtent"]
    H = cv2.getPerspectiveTransform(rect_corners(x, y, w, h), corners(p)).astype(np.float64)
    return homography_map(H, X, Y, (x + w / 2, y + h / 2), size)


def perspective_correction(p, X, Y, size):
    q = corners(p).astype(np.float64)
    tl, tr, br, bl = q
    width = max(np.linalg.norm(tr - tl), np.linalg.norm(br - bl))
    height = max(np.linalg.norm(bl - tl), np.linalg.norm(br - tr))
    x0, y0 = q[:, 0].min(), q[:, 1].min()
    H = cv2.getPerspectiveTransform(q.astype(np.float32), rect_corners(x0, y0, width, height)).astype(np.float64)
    sx, sy = homography_map(H, X, Y, q.mean(axis=0), size)
    if p.get("inputCrop"):
        out = (X < x0) | (X > x0 + width) | (Y < y0) | (Y > y0 + height)
        sx[out] = np.nan
        sy[out] = np.nan
    return sx, sy


def straighten(p, X, Y, size):
    w, h = size
    t = p["inputAngle"]
    s = abs(math.cos(t)) + abs(math.sin(t)) * max(w / h, h / w)
    cx, cy = w / 2, h / 2
    # forward: q = c + s R (x - c), R = [[cos, -sin], [sin, cos]] (clockwise on screen, y down)
    dx, dy = (X - cx) / s, (Y - cy) / s
    c, sn = math.cos(t), math.sin(t)
    sx = cx + c * dx + sn * dy
    sy = cy - sn * dx + c * dy
    out = (X < 0) | (X > w) | (Y < 0) | (Y > h)
    sx[out] = np.nan
    sy[out] = np.nan
    return sx, sy


# -- lattice tiles: p = centre + a e1 + b e2 --

def lattice(p, acute=None):
    t = p["inputAngle"]
    w = p["inputWidth"]
    al = p.get("inputAcuteAngle", math.pi / 2) if acute is None else acute
    e1 = w * np.array([math.cos(t), math.sin(t)])
    e2 = w * np.array([math.cos(t + al), math.sin(t + al)])
    return np.array(p["inputCenter"], float), np.column_stack([e1, e2])


def tile_map(fold, acute=None):
    def f(p, X, Y, size):
        c, B = lattice(p, acute)
        Bi = np.linalg.inv(B)
        dx, dy = X - c[0], Y - c[1]
        a = Bi[0, 0] * dx + Bi[0, 1] * dy
        b = Bi[1, 0] * dx + Bi[1, 1] * dy
        a, b = fold(a, b)
        return c[0] + B[0, 0] * a + B[0, 1] * b, c[1] + B[1, 0] * a + B[1, 1] * b
    return f


def tri(x):
    return np.abs(x - 2 * np.round(x / 2))


def fold_translate(a, b):
    return a - np.floor(a), b - np.floor(b)


def fold_mirror(a, b):
    return tri(a), tri(b)


def fold_pinwheel(a, b):
    a = np.mod(a, 2)
    b = np.mod(b, 2)
    ra, rb = a.copy(), b.copy()
    m = (a >= 1) & (b < 1)
    ra[m], rb[m] = b[m], 2 - a[m]
    m = (a >= 1) & (b >= 1)
    ra[m], rb[m] = 2 - a[m], 2 - b[m]
    m = (a < 1) & (b >= 1)
    ra[m], rb[m] = 2 - b[m], a[m]
    return ra, rb


def fold_eightfold(a, b):
    a, b = tri(a), tri(b)
    return np.maximum(a, b), np.minimum(a, b)


def fold_glide(a, b):
    b = np.mod(b, 2)
    odd = b >= 1
    return np.where(odd, np.mod(a + 0.5, 1), np.mod(a, 1)), np.where(odd, 2 - b, b)


def perspective_tile(p, X, Y, size):
    w, h = size
    H = cv2.getPerspectiveTransform(rect_corners(0, 0, w, h), corners(p)).astype(np.float64)
    return homography_map(H, X, Y, (w / 2, h / 2), size, clip=False)


def affine_inverse(p, X, Y, size):
    a, b, c, d, tx, ty = p["inputTransform"]
    # forward: x' = a x + c y + tx, y' = b x + d y + ty
    M = np.array([[a, c], [b, d]], float)
    Mi = np.linalg.inv(M)
    u, v = X - tx, Y - ty
    return Mi[0, 0] * u + Mi[0, 1] * v, Mi[1, 0] * u + Mi[1, 1] * v


def clamp(p, X, Y, size):
    x, y, w, h = p["inputExtent"]
    return np.clip(X, x + 0.5, x + w - 0.5), np.clip(Y, y + 0.5, y + h - 0.5)


def kaleidoscope(p, X, Y, size):
    n = max(1.0, round(p["inputCount"]))
    wedge = 2 * math.pi / n
    cx, cy = p["inputCenter"]
    t = p["inputAngle"]
    dx, dy = X - cx, Y - cy
    r = np.hypot(dx, dy)
    psi = np.arctan2(dy, dx) - t
    phi = t + np.abs(psi - wedge * np.round(psi / wedge))
    return cx + r * np.cos(phi), cy + r * np.sin(phi)


def radial(fn):
    """fn(r, R, p) -> (factor or None for transparent, turn angle) per point, vectorized."""
    def f(p, X, Y, size):
        cx, cy = p["inputCenter"]
        R = p["inputRadius"]
        dx, dy = X - cx, Y - cy
        r = np.hypot(dx, dy)
        k, turn = fn(r, R, p)
        c, s = np.cos(turn), np.sin(turn)
        sx = cx + k * (c * dx - s * dy)
        sy = cy + k * (s * dx + c * dy)
        return sx, sy
    return f


def twirl(power):
    def fn(r, R, p):
        t = np.clip(1 - r / R, 0, None)
        return np.ones_like(r), p["inputAngle"] * t ** power
    return fn


def pinch(r, R, p):
    e = 1 / (1 + p["inputScale"])
    inside = (r < R) & (r > 0)
    k = np.ones_like(r)
    k[inside] = R * (r[inside] / R) ** e / r[inside]
    return k, 0.0


def bump(r, R, p):
    f = np.clip(1 - (r / R) ** 2, 0, None)
    return 1 - p["inputScale"] * f * f, 0.0


def hole(r, R, p):
    with np.errstate(invalid="ignore", divide="ignore"):
        k = np.sqrt(r * r - R * R) / r
    k[r < R] = np.nan
    return k, 0.0


def splash(r, R, p):
    k = np.ones_like(r)
    out = r > R
    k[out] = R / r[out]
    return k, 0.0


R3 = math.sqrt(3)


def reflect_until(a, b, mirrors, limit=2000):
    """Reflects every point in the first mirror (n, offset: inside where n.q <= offset) it lies
    beyond, until every point is inside all of them (no translation step)."""
    for _ in range(limit):
        moved = False
        for n, off in mirrors:
            d = n[0] * a + n[1] * b - off
            m = d > 1e-12
            if m.any():
                a = np.where(m, a - 2 * d * n[0], a)
                b = np.where(m, b - 2 * d * n[1], b)
                moved = True
        if not moved:
            break
    return a, b


TRIANGLE = [((0.0, -1.0), 0.0), ((R3 / 2, 0.5), R3 / 2), ((-R3 / 2, 0.5), 0.0)]


def fold_triangle(a, b):
    return reflect_until(a, b, TRIANGLE)


def fold_twelvefold(a, b):
    a, b = fold_triangle(a, b)
    return reflect_until(a, b, [((-0.5, R3 / 2), 0.0), ((1.0, 0.0), 0.5)])


def fold_sixfold(a, b):
    # nearest hexagon centre by cube-coordinate rounding
    j = b * 2 / R3
    i = a - j / 2
    k = -i - j
    ri, rj, rk = np.round(i), np.round(j), np.round(k)
    di, dj, dk = np.abs(ri - i), np.abs(rj - j), np.abs(rk - k)
    fix_i = (di > dj) & (di > dk)
    fix_j = ~fix_i & (dj > dk)
    ri = np.where(fix_i, -rj - rk, ri)
    rj = np.where(fix_j, -ri - rk, rj)
    da = a - (ri + rj / 2)
    db = b - rj * R3 / 2
    phi = np.arctan2(db, da)
    turn = -np.floor(phi / (math.pi / 3)) * (math.pi / 3)
    return np.cos(turn) * da - np.sin(turn) * db, np.sin(turn) * da + np.cos(turn) * db


MAPS = {
    "PerspectiveTransform": perspective_transform,
    "PerspectiveTransformWithExtent": perspective_transform_with_extent,
    "PerspectiveCorrection": perspective_correction,
    "StraightenFilter": straighten,
    "FourfoldTranslatedTile": tile_map(fold_translate),
    "ParallelogramTile": tile_map(fold_mirror),
    "FourfoldReflectedTile": tile_map(fold_mirror),
    "FourfoldRotatedTile": tile_map(fold_pinwheel, math.pi / 2),
    "EightfoldReflectedTile": tile_map(fold_eightfold, math.pi / 2),
    "GlideReflectedTile": tile_map(fold_glide, math.pi / 2),
    "TriangleTile": tile_map(fold_triangle, math.pi / 2),
    "TwelvefoldReflectedTile": tile_map(fold_twelvefold, math.pi / 2),
    "SixfoldRotatedTile": tile_map(fold_sixfold, math.pi / 2),
    "AffineTile": affine_inverse,
    "AffineClamp": affine_inverse,
    "Clamp": clamp,
    "Kaleidoscope": kaleidoscope,
    "PerspectiveTile": perspective_tile,
    "TwirlDistortion": radial(twirl(2)),
    "VortexDistortion": radial(twirl(4)),
    "PinchDistortion": radial(pinch),
    "BumpDistortion": radial(bump),
    "HoleDistortion": radial(hole),
    "CircleSplashDistortion": radial(splash),
}

BORDERS = {"transparent": cv2.BORDER_CONSTANT, "clamp": cv2.BORDER_REPLICATE, "wrap": cv2.BORDER_WRAP}


def finite(v):
    return float(v) if np.isfinite(v) else None


def judge(case, src):
    x0, y0, w, h = case["window"]
    X, Y = np.meshgrid(np.arange(w) + x0 + 0.5, np.arange(h) + y0 + 0.5)
    sx, sy = MAPS[case["name"]](case["params"], X, Y, (src.shape[1], src.shape[0]))
    clear = ~(np.isfinite(sx) & np.isfinite(sy))
    mx = np.where(clear, -10, sx - 0.5).astype(np.float32)
    my = np.where(clear, -10, sy - 0.5).astype(np.float32)
    border = BORDERS[case.get("edge", "transparent")]
    ref = cv2.remap(src, mx, my, cv2.INTER_LINEAR, borderMode=border, borderValue=(0, 0, 0, 0))
    ref[clear] = 0
    ours = np.fromfile(case["ours"], np.float32).reshape(h, w, 4)
    # The band around the mapping's discontinuities (between pixels both mapped somewhere).
    jump = np.zeros((h, w), bool)
    with np.errstate(invalid="ignore"):
        d = np.hypot(np.diff(sx, axis=1), np.diff(sy, axis=1)) > 3
        jump[:, 1:] |= d
        jump[:, :-1] |= d
        d = np.hypot(np.diff(sx, axis=0), np.diff(sy, axis=0)) > 3
        jump[1:, :] |= d
        jump[:-1, :] |= d
    band = cv2.dilate(jump.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    full = np.abs(ours.astype(np.float64) - ref).max(axis=2) * 255
    full[band] = 0
    wy, wx = np.unravel_index(np.argmax(full), full.shape)
    diff = np.abs(ours.astype(np.float64) - ref)[~band] * 255
    return {
        "name": case["name"], "label": case.get("label", ""),
        "max_abs_diff": float(diff.max()) if diff.size else 0.0,
        "mean_abs_diff": float(diff.mean()) if diff.size else 0.0,
        "worst": [int(wx + x0), int(wy + y0)], "worst_source": [finite(sx[wy, wx]), finite(sy[wy, wx])],
        "masked": int(band.sum()), "pixels": int(w * h),
        "nonzero_fraction": float((np.abs(ref[..., 3]) > 0).mean()),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    args = ap.parse_args()
    m = json.load(open(args.manifest))
    src = load_input(m["input"], m["crop"])
    print(json.dumps({"results": [judge(c, src) for c in m["cases"]]}))


if __name__ == "__main__":
    main()
