#!/usr/bin/env python3
"""Pillow JPEG encoder judge: encode_jpeg.py IN OUT QUALITY SUBSAMPLING GRAY [CROP_BYTES]

Writes IN (any image Pillow reads) as a JPEG with Pillow (libjpeg-turbo): QUALITY 1-100,
SUBSAMPLING 0 (4:4:4), 1 (4:2:2) or 2 (4:2:0), GRAY 1 to convert to L first. Prints JSON with
the size written.
"""
import json
import os
import sys

from PIL import Image

src, out, q, ss, gray = sys.argv[1:6]
im = Image.open(src)
im = im.convert("L" if gray == "1" else "RGB")
im.save(out, "JPEG", quality=int(q), subsampling=int(ss))
print(json.dumps({"bytes": os.path.getsize(out), "mode": im.mode, "width": im.width, "height": im.height}))
