#!/usr/bin/env python3
"""Independent decoder judge for DaguerreFormats tests.

usage: decode.py pillow|pillow-draft-N|pillow-heif|cv2|tinytiff IN OUT [PILLOW_MODE]

Decodes IN with Pillow (optionally .convert(PILLOW_MODE)), a JPEG with Pillow's draft mode at
1/N of its size (libjpeg's DCT scaling, N = 2, 4 or 8), Pillow with pillow-heif (HEIF/HEIC,
through the libheif pillow-heif bundles: rotation and mirroring applied, as viewers show it), OpenCV (IMREAD_UNCHANGED, channels
reordered to RGB(A)) or the small pure-Python TIFF reader in tiny_tiff.py, writes the pixels to
OUT as raw little-endian samples (rows top to bottom, channels interleaved) and prints JSON:
{"width", "height", "channels", "dtype", "mode"}.
"""
import json
import sys

import numpy as np


def main():
    lib, path, out = sys.argv[1], sys.argv[2], sys.argv[3]
    mode = sys.argv[4] if len(sys.argv) > 4 else None
    meta = {}
    if lib in ("pillow", "pillow-heif") or lib.startswith("pillow-draft-"):
        from PIL import Image
        if lib == "pillow-heif":
            import pillow_heif
            pillow_heif.register_heif_opener()
        im = Image.open(path)
        if lib.startswith("pillow-draft-"):
            n = int(lib.rsplit("-", 1)[1])
            w, h = im.size
            # Pillow picks the largest libjpeg scale that keeps at least this size: 1/n.
            im.draft(im.mode, (w // n, h // n))
        meta["mode"] = im.mode
        if im.format == "JPEG":
            from PIL import JpegImagePlugin
            meta["sampling"] = JpegImagePlugin.get_sampling(im)   # 0 = 4:4:4, 2 = 4:2:0
        if mode:
            im = im.convert(mode)
        arr = np.asarray(im)
    elif lib == "cv2":
        import cv2
        arr = cv2.imread(path, cv2.IMREAD_UNCHANGED)
        if arr is None:
            print(json.dumps({"error": "OpenCV could not read " + path}))
            sys.exit(2)
        if arr.ndim == 3 and arr.shape[2] == 3:
            arr = arr[:, :, ::-1]
        elif arr.ndim == 3 and arr.shape[2] == 4:
            arr = arr[:, :, [2, 1, 0, 3]]
    elif lib == "tinytiff":
        import os
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import tiny_tiff
        arr, tags = tiny_tiff.read(path)
        meta["tags"] = {str(k): (v if isinstance(v, (int, str)) else list(v)[:8]) for k, v in tags.items() if k != 34675}
    else:
        raise SystemExit("unknown decoder " + lib)
    arr = np.ascontiguousarray(arr)
    arr.astype(arr.dtype.newbyteorder("<"), copy=False).tofile(out)
    meta.update({"width": int(arr.shape[1]), "height": int(arr.shape[0]),
                 "channels": 1 if arr.ndim == 2 else int(arr.shape[2]), "dtype": str(arr.dtype)})
    print(json.dumps(meta))


if __name__ == "__main__":
    main()
