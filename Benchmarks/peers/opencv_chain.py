#!/usr/bin/env python3
"""The benchmark chain with OpenCV: JPEG → Gaussian σ=2 → 3×3 colour matrix → Lanczos 0.5× → JPEG Q90.

usage: opencv_chain.py IN.jpg OUT.jpg
"""
import sys

import cv2
import numpy as np

# The matrix in RGB order (rows: output R, G, B).
M_RGB = np.array([[0.9, 0.1, 0.0],
                  [0.05, 0.9, 0.05],
                  [0.0, 0.1, 0.9]], dtype=np.float32)
# OpenCV holds pixels as BGR: reverse both the output rows and the input columns.
M_BGR = M_RGB[::-1, ::-1].copy()

src, dst = sys.argv[1], sys.argv[2]
img = cv2.imread(src, cv2.IMREAD_COLOR)
if img is None:
    sys.exit(f"opencv_chain.py: cannot read {src}")
img = cv2.GaussianBlur(img, (0, 0), 2)
img = cv2.transform(img, M_BGR)            # uint8 in, saturated uint8 out
img = cv2.resize(img, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_LANCZOS4)
if not cv2.imwrite(dst, img, [cv2.IMWRITE_JPEG_QUALITY, 90]):
    sys.exit(f"opencv_chain.py: cannot write {dst}")
