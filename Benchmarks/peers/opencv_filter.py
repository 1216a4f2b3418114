#!/usr/bin/env python3
"""One filter with OpenCV, for the filters benchmark: JPEG → OP → JPEG Q90.

usage: opencv_filter.py OP IN.jpg OUT.jpg   (OP: see OPS; multiply blends IN with a second read of IN)
The parameters match the daguerre filters the benchmark runs (Benchmarks/README.md, "Filters").
"""
import sys

import cv2
import numpy as np


def unsharp(img):
    blur = cv2.GaussianBlur(img, (0, 0), 2.5)
    return cv2.addWeighted(img, 1.5, blur, -0.5, 0)


OPS = {
    "gaussian": lambda img: cv2.GaussianBlur(img, (0, 0), 5),
    "box": lambda img: cv2.blur(img, (11, 11)),
    "median": lambda img: cv2.medianBlur(img, 3),
    "dilate": lambda img: cv2.dilate(img, np.ones((5, 5), np.uint8)),
    "unsharp": unsharp,
    "convolution": lambda img: cv2.filter2D(img, -1, np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], np.float32)),
    "multiply": lambda img: cv2.multiply(img, cv2.imread(sys.argv[2], cv2.IMREAD_COLOR), scale=1 / 255),
    "colormatrix": lambda img: cv2.transform(
        img, np.array([[0.9, 0.1, 0.0], [0.05, 0.9, 0.05], [0.0, 0.1, 0.9]], np.float32)[::-1, ::-1].copy()),
    "resize": lambda img: cv2.resize(img, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_LANCZOS4),
}

op, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
img = cv2.imread(src, cv2.IMREAD_COLOR)
if img is None:
    sys.exit(f"opencv_filter.py: cannot read {src}")
if not cv2.imwrite(dst, OPS[op](img), [cv2.IMWRITE_JPEG_QUALITY, 90]):
    sys.exit(f"opencv_filter.py: cannot write {dst}")
