#!/usr/bin/env python3
"""Judges Daguerre's warp filters (GeometryAdjustment, TileEffect, DistortionEffect).

Each filter's mapping (output point -> input point, in Daguerre's coordinates: y down, pixel
centres at half-integers) is implemented here independently in numpy from the definition its
doc comment states (OpenCV's getPerspectiveTransform for the projective ones), and the input is
sampled with OpenCV's bilinear cv2.remap. One run judges every case of a manifest:

  warp_judge.py --manifest cases.json

The manifest lists {"name", "params", "ours" (raw RGBA float32), "window" [x, y, w, h]} and the
input ("input": PNG path, "crop": [x, y, w, h]); a case may add "aux" {"input", "crop"}, a
second image at the origin (DisplacementDistortion's map, GlassDistortion's texture). Prints a JSON object {"results": [...]}, one per
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


def rotation_homography(p, size):
    """H = K R K^-1: K the pinhole with f = focal / 36 x the longer side, centred; R = Rz Rx Ry."""
    w, h = size
    f = p.get("inputFocalLength", 28) / 36 * max(w, h)
    K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    a, b, c = p.get("inputPitch", 0), p.get("inputYaw", 0), p.get("inputRoll", 0)
    Rx = np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])
    Ry = np.array([[np.cos(b), 0, np.sin(b)], [0, 1, 0], [-np.sin(b), 0, np.cos(b)]])
    Rz = np.array([[np.cos(c), -np.sin(c), 0], [np.sin(c), np.cos(c), 0], [0, 0, 1]])
    return K @ Rz @ Rx @ Ry @ np.linalg.inv(K)


def perspective_rotate(p, X, Y, size):
    w, h = size
    return homography_map(rotation_homography(p, size), X, Y, (w / 2, h / 2), size)


def keystone(which):
    """The camera turn found numerically (scipy's least_squares, not the filter's closed form):
    vertical, the pitch that makes the guide's left and right edges parallel; horizontal, the
    yaw that makes its top and bottom parallel; combined, the roll, pitch and yaw that make the
    left and right edges vertical and the top and bottom parallel. Then mapped as
    perspective_rotate."""
    from scipy.optimize import least_squares

    def f(p, X, Y, size):
        if "inputTopLeft" not in p:  # no guide: no turn
            return perspective_rotate(p, X, Y, size)
        q = corners(p).astype(np.float64).reshape(-1, 1, 2)
        unit = lambda v: v / np.linalg.norm(v)
        cross = lambda a, b: a[0] * b[1] - a[1] * b[0]

        def turned(angles):
            keys = {"vertical": ["inputPitch"], "horizontal": ["inputYaw"],
                    "combined": ["inputPitch", "inputYaw", "inputRoll"]}[which]
            return dict(p, **dict(zip(keys, angles)))

        def residual(angles):
            tl, tr, br, bl = cv2.perspectiveTransform(q, rotation_homography(turned(angles), size)).reshape(-1, 2)
            if which == "vertical":
                return [cross(unit(bl - tl), unit(br - tr))]
            if which == "horizontal":
                return [cross(unit(tr - tl), unit(br - bl))]
            return [unit(bl - tl)[0], unit(br - tr)[0], cross(unit(tr - tl), unit(br - bl))]

        n = 3 if which == "combined" else 1
        sol = least_squares(residual, np.zeros(n), xtol=1e-15, ftol=1e-15, gtol=1e-15)
        return perspective_rotate(turned(sol.x), X, Y, size)
    return f


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


def bump_linear(p, X, Y, size):
    cx, cy = p["inputCenter"]
    R, s, a = p["inputRadius"], p["inputScale"], p["inputAngle"]
    nx, ny = -math.sin(a), math.cos(a)
    t = (X - cx) * nx + (Y - cy) * ny
    f = np.clip(1 - (t / R) ** 2, 0, None)
    move = np.where(np.abs(t) < R, t * s * f * f, 0.0)
    return X - nx * move, Y - ny * move


def circular_wrap(p, X, Y, size):
    cx, cy = p["inputCenter"]
    R, a = p["inputRadius"], p["inputAngle"]
    dx, dy = X - cx, Y - cy
    r = np.hypot(dx, dy)
    # angle from straight up (y down), clockwise, less the turn, into (-pi, pi]
    phi = np.angle(np.exp(1j * (np.arctan2(dy, dx) + math.pi / 2 - a)))
    sx, sy = cx + R * phi, cy - (r - R)
    sx[r < R] = np.nan
    sy[r < R] = np.nan
    return sx, sy


def stretch_crop(p, X, Y, size):
    w, h = size
    W, H = round(p["inputSize"][0]), round(p["inputSize"][1])
    c, k = p["inputCropAmount"], p["inputCenterStretchAmount"]
    cw = w + c * (min(w, h * W / H) - w)
    ch = h + c * (min(h, w * H / W) - h)
    ex, ey = W / cw, H / ch
    e = max(ex, ey) / min(ex, ey)
    a = min(2.0, e / (1 + k * (e - 1)))
    u = (X - W / 2) / (W / 2)
    v = (Y - H / 2) / (H / 2)
    if ex > ey:
        u = u * (a + (1 - a) * np.abs(u))
    else:
        v = v * (a + (1 - a) * np.abs(v))
    sx, sy = w / 2 + u * cw / 2, h / 2 + v * ch / 2
    out = (X < 0) | (X > W) | (Y < 0) | (Y > H)
    sx[out] = np.nan
    sy[out] = np.nan
    return sx, sy


def light_tunnel(p, X, Y, size):
    cx, cy = p["inputCenter"]
    R, t = p["inputRadius"], p["inputRotation"]
    dx, dy = X - cx, Y - cy
    r = np.hypot(dx, dy)
    outside = r > R
    k = np.where(outside, R / np.maximum(r, 1e-300), 1.0)
    turn = np.where(outside, t * r / R, t)
    c, s = np.cos(turn), np.sin(turn)
    return cx + k * (c * dx - s * dy), cy + k * (s * dx + c * dy)


def torus(r, R, p):
    half = p["inputWidth"] / 2
    k = min(max(1 - 1 / p["inputRefraction"], -1), 1) if p["inputRefraction"] > 0 else -1
    t = (r - R) / half
    inside = (np.abs(t) < 1) & (r > 0)
    f = np.ones_like(r)
    ti = t[inside]
    f[inside] = (R + half * ti * (1 - k * (1 - ti * ti))) / r[inside]
    return f, 0.0


def displacement(p, X, Y, size):
    m = p["_aux"]
    h, w = m.shape[:2]
    ix, iy = np.floor(X).astype(int), np.floor(Y).astype(int)
    ok = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
    r = np.zeros(X.shape)
    g = np.zeros(X.shape)
    r[ok] = np.clip(m[iy[ok], ix[ok], 0], 0, 1) - 0.5
    g[ok] = 0.5 - np.clip(m[iy[ok], ix[ok], 1], 0, 1)
    s = p["inputScale"]
    return X + s * r * ok, Y + s * g * ok


def glass_lozenge(p, X, Y, size):
    a = np.array(p["inputPoint0"], float)
    b = np.array(p["inputPoint1"], float)
    R = p["inputRadius"]
    n = p["inputRefraction"]
    k = min(max(1 - 1 / n, -1), 1) if n > 0 else -1
    ax = b - a
    L2 = float(ax @ ax)
    s = np.clip(((X - a[0]) * ax[0] + (Y - a[1]) * ax[1]) / L2, 0, 1) if L2 > 0 else np.zeros_like(X)
    qx, qy = a[0] + ax[0] * s, a[1] + ax[1] * s
    dx, dy = X - qx, Y - qy
    r2 = dx * dx + dy * dy
    f = np.where(r2 < R * R, 1 - k * (1 - r2 / (R * R)), 1.0)
    return qx + dx * f, qy + dy * f


REC709 = np.array([0.2126, 0.7152, 0.0722])


def glass_distortion(p, X, Y, size):
    tex = p["_aux"]
    th, tw = tex.shape[:2]
    h = np.clip(tex[..., :3].astype(np.float64) @ REC709, 0, 1)
    cx, cy = p["inputCenter"]
    shx, shy = math.floor(cx - tw / 2), math.floor(cy - th / 2)
    ix = np.floor(X).astype(int) - shx
    iy = np.floor(Y).astype(int) - shy

    def height(i, j):
        return h[np.mod(j, th), np.mod(i, tw)]

    gx = height(ix + 1, iy) - height(ix - 1, iy)
    gy = height(ix, iy + 1) - height(ix, iy - 1)
    s = p["inputScale"] / 2
    return X + s * gx, Y + s * gy


def droste(p, X, Y, size):
    w, h = size
    p0 = np.array(p["inputInsetPoint0"], float)
    p1 = np.array(p["inputInsetPoint1"], float)
    c = (p0 + p1) / 2
    hx, hy = np.abs(p1 - p0) / 2
    rho = min(w / (2 * hx), h / (2 * hy))
    if rho <= 1.000001:
        return X.copy(), Y.copy()
    L = math.log(rho)
    r0 = math.log(min(hx, hy))
    gamma = p["inputPeriodicity"] - 1j * p["inputStrands"] * L / (2 * math.pi)
    z = ((X - c[0]) + 1j * (Y - c[1])) * np.exp(-1j * p["inputRotation"]) / p["inputZoom"]
    with np.errstate(divide="ignore", invalid="ignore"):
        ws = gamma * np.log(z)
    ws = r0 + np.mod(ws.real - r0, L) + 1j * ws.imag
    zs = np.exp(ws)
    inner = (np.abs(zs.real) < hx) & (np.abs(zs.imag) < hy)
    zs = np.where(inner, zs * rho, zs)
    sx, sy = c[0] + zs.real, c[1] + zs.imag
    sx[z == 0] = np.nan
    sy[z == 0] = np.nan
    return sx, sy


MAPS = {
    "PerspectiveTransform": perspective_transform,
    "PerspectiveRotate": perspective_rotate,
    "KeystoneCorrectionVertical": keystone("vertical"),
    "KeystoneCorrectionHorizontal": keystone("horizontal"),
    "KeystoneCorrectionCombined": keystone("combined"),
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
    "BumpDistortionLinear": bump_linear,
    "CircularWrap": circular_wrap,
    "StretchCrop": stretch_crop,
    "LightTunnel": light_tunnel,
    "TorusLensDistortion": radial(torus),
    "DisplacementDistortion": displacement,
    "GlassLozenge": glass_lozenge,
    "GlassDistortion": glass_distortion,
    "Droste": droste,
}

BORDERS = {"transparent": cv2.BORDER_CONSTANT, "clamp": cv2.BORDER_REPLICATE, "wrap": cv2.BORDER_WRAP}


def finite(v):
    return float(v) if np.isfinite(v) else None


def judge(case, src):
    x0, y0, w, h = case["window"]
    X, Y = np.meshgrid(np.arange(w) + x0 + 0.5, np.arange(h) + y0 + 0.5)
    params = dict(case["params"])
    if "aux" in case:
        params["_aux"] = load_input(case["aux"]["input"], case["aux"]["crop"])
    interpolation = cv2.INTER_LINEAR
    if "then" in case:  # the filter marks the image; the transform after it samples nearest
        sx, sy = affine_inverse({"inputTransform": case["then"]}, X, Y, None)
        interpolation = cv2.INTER_NEAREST
    else:
        sx, sy = MAPS[case["name"]](params, X, Y, (src.shape[1], src.shape[0]))
    clear = ~(np.isfinite(sx) & np.isfinite(sy))
    if interpolation == cv2.INTER_NEAREST:  # the pixel containing the point: whole maps, no tie to round
        sx, sy = np.floor(sx) + 0.5, np.floor(sy) + 0.5
    mx = np.where(clear, -10, sx - 0.5).astype(np.float32)
    my = np.where(clear, -10, sy - 0.5).astype(np.float32)
    border = BORDERS[case.get("edge", "transparent")]
    ref = cv2.remap(src, mx, my, interpolation, borderMode=border, borderValue=(0, 0, 0, 0))
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
        "worst": [int(wx + x0), int(wy + y0)],
        "worst_values": [[round(float(v) * 255, 2) for v in ours[wy, wx]], [round(float(v) * 255, 2) for v in ref[wy, wx]]], "worst_source": [finite(sx[wy, wx]), finite(sy[wy, wx])],
        "masked": int(band.sum()), "pixels": int(w * h),
        "nonzero_fraction": float((np.abs(ref[..., 3]) > 0).mean()),
        "exact_fraction": float((full[~band] < 1e-3).mean()) if diff.size else 1.0,
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
