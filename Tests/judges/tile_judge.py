#!/usr/bin/env python3
"""Judges Daguerre's OpTile, SixfoldReflectedTile and TriangleKaleidoscope.

Each filter's mapping (output point -> input point, in Daguerre's coordinates: y down, pixel
centres at half-integers) is implemented here independently in numpy from the definition its
doc comment states, and the input is sampled with OpenCV's bilinear cv2.remap (transparent
outside). The fold into the mirror triangle reflects in whichever of the triangle's three sides
a point lies beyond until none is left (no lattice translation, unlike Daguerre's fold); the
number of mirror lines crossed is counted by Daguerre's rule but here from the Hesse distances
to the three side lines. One run judges every case of a manifest:

  tile_judge.py --manifest cases.json

The manifest lists {"name", "params", "ours" (raw RGBA float32), "window" [x, y, w, h]} and the
input ("input": PNG path, "crop": [x, y, w, h]). Prints {"results": [...]}, one per case with
max/mean |ours - judge| in 1/255 over all four channels, outside a band of 1 pixel around the
mapping's discontinuities (neighbouring output pixels whose source points are more than 3 pixels
apart, or whose fade factors differ), and how many pixels that band masked.
"""
import argparse
import json
import math

import cv2
import numpy as np

from warp_judge import TRIANGLE, load_input, reflect_until

R3 = math.sqrt(3.0)


def frame(corner, angle, width):
    """World <-> local coordinates of a square frame: p = corner + width * R(angle) (u, v)."""
    c, s = math.cos(angle), math.sin(angle)

    def to_local(X, Y):
        dx, dy = X - corner[0], Y - corner[1]
        return (c * dx + s * dy) / width, (-s * dx + c * dy) / width

    def to_world(u, v):
        return corner[0] + width * (c * u - s * v), corner[1] + width * (s * u + c * v)

    return to_local, to_world


# The triangle (0, 0), (1, 0), (1/2, sqrt(3)/2) as three half-planes n.q <= off, and the fold
# into it by reflections alone: warp_judge's (its tile judges use the same).
SIDES = TRIANGLE


def reflect_into_triangle(u, v):
    return reflect_until(u, v, SIDES, limit=4000)


def op_tile(p, X, Y):
    to_local, to_world = frame(p["inputCenter"], p["inputAngle"], p["inputWidth"])
    u, v = to_local(X, Y)
    mu, mv = np.floor(u) + 0.5, np.floor(v) + 0.5
    s = p["inputScale"]
    sx, sy = to_world(mu + s * (u - mu), mv + s * (v - mv))
    return sx, sy, None


def sixfold_reflected(p, X, Y):
    to_local, to_world = frame(p["inputCenter"], p["inputAngle"], p["inputWidth"])
    u, v = reflect_into_triangle(*to_local(X, Y))
    # The 120-degree wedge at the centroid facing the side v = 0: directions 210..330 degrees.
    cu, cv = 0.5, R3 / 6
    du, dv = u - cu, v - cv
    phi = np.degrees(np.arctan2(dv, du)) % 360.0
    k = np.where((phi >= 210) & (phi < 330), 0, np.where((phi >= 330) | (phi < 90), 1, 2))
    # Turning by -120 k degrees brings [330, 90) (k = 1) and [90, 210) (k = 2) into [210, 330).
    t = np.radians(-120.0 * k)
    ru = np.cos(t) * du - np.sin(t) * dv
    rv = np.sin(t) * du + np.cos(t) * dv
    sx, sy = to_world(cu + ru, cv + rv)
    return sx, sy, None


def triangle_kaleidoscope(p, X, Y):
    size, rot = p["inputSize"], p["inputRotation"]
    c, s = math.cos(rot), math.sin(rot)
    P = np.array(p["inputPoint"], float)
    # First corner: point + size R(rot) (-1/2, -sqrt(3)/6).
    lu, lv = -0.5, -R3 / 6
    corner = P + size * np.array([c * lu - s * lv, s * lu + c * lv])
    to_local, to_world = frame(corner, rot, size)
    u0, v0 = to_local(X, Y)
    # Lines crossed: for each side's line family (spacing sqrt(3)/2), the signed distance from the
    # side line into the triangle, floored in units of the spacing.
    h = R3 / 2
    n = np.zeros_like(u0)
    for nrm, off in SIDES:
        inside = (off - (nrm[0] * u0 + nrm[1] * v0)) / h  # 0 on the side, 1 at the opposite corner
        n += np.abs(np.floor(inside))
    u, v = reflect_into_triangle(u0, v0)
    sx, sy = to_world(u, v)
    return sx, sy, np.power(p["inputDecay"], n)


MAPS = {"OpTile": op_tile, "SixfoldReflectedTile": sixfold_reflected, "TriangleKaleidoscope": triangle_kaleidoscope}


def finite(v):
    return float(v) if np.isfinite(v) else None


def judge(case, src):
    x0, y0, w, h = case["window"]
    X, Y = np.meshgrid(np.arange(w) + x0 + 0.5, np.arange(h) + y0 + 0.5)
    sx, sy, fade = MAPS[case["name"]](case["params"], X, Y)
    mx = (sx - 0.5).astype(np.float32)
    my = (sy - 0.5).astype(np.float32)
    ref = cv2.remap(src, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    if fade is not None:
        ref[..., :3] *= fade[..., None].astype(np.float32)
    ours = np.fromfile(case["ours"], np.float32).reshape(h, w, 4)
    jump = np.zeros((h, w), bool)
    for axis in (0, 1):
        d = np.hypot(np.diff(sx, axis=axis), np.diff(sy, axis=axis)) > 3
        if fade is not None:
            d |= np.diff(fade, axis=axis) != 0
        if axis == 1:
            jump[:, 1:] |= d
            jump[:, :-1] |= d
        else:
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
        "mean_level": float(ref[..., :3].mean()),
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
