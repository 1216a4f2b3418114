#!/usr/bin/env python3
"""Independent judge for CannyEdgeDetector (Tests/DaguerreImageTests/CannyEdgeTests.swift).

Two references: the definition in the filter's doc comment computed here with OpenCV's
GaussianBlur and Sobel (edges replicated) and numpy for the thinning, thresholds and bounded
hysteresis, compared pixel by pixel; and scikit-image's canny (its own smoothing and a full,
connected hysteresis, thresholds scaled to its Sobel's units), compared within one pixel.

Input: --dir DIR with manifest.json {"width", "height", "input": file,
"cases": [{"id", "params", "file"}]}; float32 RGBA, premultiplied linear, tightly packed.
Output: {"results": [{"id", "differing", "edge_fraction", "skimage_dice"}]}: the fraction of
pixels that differ from the definition, the fraction that are edges, and the Dice coefficient
with scikit-image's edges, each side counted as found when the other has an edge within a pixel.
"""
import argparse
import json
import math
import os

import cv2
import numpy as np
from scipy import ndimage
from skimage import feature


def luminance(img, perceptual):
    a = img[..., 3:4]
    u = np.where(a > 0, img[..., :3] / np.where(a > 0, a, 1), img[..., :3])
    lum = u @ np.array([0.2126, 0.7152, 0.0722])
    if perceptual:
        v = np.abs(lum)
        lum = np.sign(lum) * np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)
    return lum


def definition(lum, p):
    sigma = p["sigma"]
    if sigma > 0:
        k = int(round(6 * sigma + 1)) | 1
        lum = cv2.GaussianBlur(lum, (k, k), sigma, borderType=cv2.BORDER_REPLICATE)
    gx = cv2.Sobel(lum, cv2.CV_64F, 1, 0, ksize=3, borderType=cv2.BORDER_REPLICATE) / 8
    gy = cv2.Sobel(lum, cv2.CV_64F, 0, 1, ksize=3, borderType=cv2.BORDER_REPLICATE) / 8
    m = np.hypot(gx, gy)
    mp = np.pad(m, 1, mode="edge")
    h, w = m.shape

    def at(dx, dy):
        return mp[1 + dy:1 + dy + h, 1 + dx:1 + dx + w]
    ax, ay = np.abs(gx), np.abs(gy)
    t22, t67 = math.tan(math.pi / 8), math.tan(3 * math.pi / 8)
    horizontal = ay <= ax * t22
    vertical = ~horizontal & (ay >= ax * t67)
    rising = ~horizontal & ~vertical & ((gx > 0) == (gy > 0))
    a = np.where(horizontal, at(-1, 0), np.where(vertical, at(0, -1), np.where(rising, at(-1, -1), at(1, -1))))
    b = np.where(horizontal, at(1, 0), np.where(vertical, at(0, 1), np.where(rising, at(1, 1), at(-1, 1))))
    kept = (m >= a) & (m >= b) & (m > 0)
    state = np.where(kept & (m >= p["high"]), 1.0, np.where(kept & (m >= p["low"]), 0.5, 0.0))
    for _ in range(p["passes"]):
        strong = ndimage.maximum_filter((state == 1).astype(np.uint8), size=3, mode="nearest") > 0
        state = np.where((state == 0.5) & strong, 1.0, state)
    return state == 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    d = ap.parse_args().dir
    m = json.load(open(os.path.join(d, "manifest.json")))
    w, h = m["width"], m["height"]
    img = np.fromfile(os.path.join(d, m["input"]), dtype="<f4").astype(np.float64).reshape(h, w, 4)
    results = []
    for c in m["cases"]:
        p = c["params"]
        ours = np.fromfile(os.path.join(d, c["file"]), dtype="<f4").reshape(h, w, 4)[..., 0] > 0.5
        lum = luminance(img, p["perceptual"])
        ref = definition(lum, p)
        sk = feature.canny(lum, sigma=p["sigma"], low_threshold=8 * p["low"], high_threshold=8 * p["high"], mode="nearest")
        near = np.ones((3, 3), dtype=bool)
        found = (ours & ndimage.binary_dilation(sk, near)).sum() + (sk & ndimage.binary_dilation(ours, near)).sum()
        dice = found / max(ours.sum() + sk.sum(), 1)
        results.append({"id": c["id"], "differing": float((ours != ref).mean()), "edge_fraction": float(ours.mean()),
                        "skimage_dice": float(dice)})
    print(json.dumps({"results": results}))


main()
