#!/usr/bin/env python3
"""One filter with pyvips (libvips), for the filters benchmark: JPEG → OP → JPEG Q90, streamed.

usage: pyvips_filter.py OP IN.jpg OUT.jpg
The parameters match the daguerre filters the benchmark runs (Benchmarks/README.md, "Filters").
"""
import sys

import pyvips


def box(img):
    mask = pyvips.Image.new_from_list([[1] * 11], scale=11)
    return img.convsep(mask)


def unsharp(img):
    return img * 1.5 - img.gaussblur(2.5) * 0.5


def multiply(img):
    # A second read of the same file, as the others blend with.
    other = pyvips.Image.new_from_file(sys.argv[2], access="sequential")
    return img * other / 255


OPS = {
    "gaussian": lambda img: img.gaussblur(5),
    "box": box,
    "median": lambda img: img.median(3),
    "dilate": lambda img: img.rank(5, 5, 24),
    "unsharp": unsharp,
    "convolution": lambda img: img.conv(pyvips.Image.new_from_list([[0, -1, 0], [-1, 5, -1], [0, -1, 0]]), precision="float"),
    "multiply": multiply,
    "colormatrix": lambda img: img.recomb([[0.9, 0.1, 0.0], [0.05, 0.9, 0.05], [0.0, 0.1, 0.9]]),
    "resize": lambda img: img.resize(0.5, kernel="lanczos3"),
}

op, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
img = pyvips.Image.new_from_file(src, access="sequential")
OPS[op](img).cast("uchar").write_to_file(dst, Q=90)
