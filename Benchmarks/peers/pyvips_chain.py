#!/usr/bin/env python3
"""The benchmark chain with pyvips: JPEG → Gaussian σ=2 → 3×3 colour matrix → Lanczos 0.5× → JPEG Q90.

usage: pyvips_chain.py IN.jpg OUT.jpg
"""
import sys

import pyvips

MATRIX = [[0.9, 0.1, 0.0],
          [0.05, 0.9, 0.05],
          [0.0, 0.1, 0.9]]

src, dst = sys.argv[1], sys.argv[2]
img = pyvips.Image.new_from_file(src, access="sequential")
img = img.gaussblur(2).recomb(MATRIX).resize(0.5, kernel="lanczos3")
img.cast("uchar").write_to_file(dst, Q=90)
