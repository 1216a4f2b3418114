#!/usr/bin/env python3
"""Judges grey-scale morphology against OpenCV's dilate, erode and morphologyEx.

usage: morphology_judge.py CASES.json

CASES.json: {"width", "height", "input": raw RGB8 path, "cases": [{"name", "ours": raw RGB8 path,
"op": "max"|"min"|"gradient", "shape": "disc"|"rect", "radius" | "width","height"}]}.
The element is built here from its definition: a disc holds the offsets with dx² + dy² ≤ r², a
rectangle is w×h (each made odd). OpenCV's default border leaves pixels outside the image out
of the window. Prints JSON: {"results": [{"name", "max_abs_diff", "mean_abs_diff"}]}.
"""
import json
import sys

import cv2
import numpy as np


def element(case):
    if case["shape"] == "disc":
        r = float(case["radius"])
        n = int(np.floor(r))
        y, x = np.mgrid[-n:n + 1, -n:n + 1]
        return ((x * x + y * y) <= r * r).astype(np.uint8)
    w = int(round(case["width"])) | 1
    h = int(round(case["height"])) | 1
    return np.ones((h, w), np.uint8)


def main():
    spec = json.load(open(sys.argv[1]))
    w, h = spec["width"], spec["height"]
    src = np.fromfile(spec["input"], np.uint8).reshape(h, w, 3)
    results = []
    for case in spec["cases"]:
        k = element(case)
        if case["op"] == "max":
            ref = cv2.dilate(src, k)
        elif case["op"] == "min":
            ref = cv2.erode(src, k)
        else:
            ref = cv2.morphologyEx(src, cv2.MORPH_GRADIENT, k)
        ours = np.fromfile(case["ours"], np.uint8).reshape(h, w, 3)
        d = np.abs(ours.astype(int) - ref.astype(int))
        results.append({"name": case["name"], "max_abs_diff": int(d.max()), "mean_abs_diff": float(d.mean())})
    print(json.dumps({"results": results}))


if __name__ == "__main__":
    main()
