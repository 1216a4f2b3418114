#!/usr/bin/env python3
"""Colour of a real camera file against LibRaw's develop (rawpy, colour-science):

  camera_colour_judge.py FILE OURS.tif

Develops FILE with LibRaw: the camera's white balance when LibRaw gives one (all of red, green
and blue multipliers positive), else LibRaw's fallback, its daylight multipliers (pre_mul);
sRGB primaries, linear, no auto-brightening, 16-bit, LibRaw's own orientation. OURS.tif is the
same file developed by Daguerre at its defaults, written as 16-bit linear sRGB. Where the sizes
differ (a DNG's DefaultCrop against LibRaw's visible area) both are cropped to the common
centre. Both are averaged over 4×4 blocks (the comparison is of colour, not of demosaics),
matched in exposure (the median ratio of green over blocks below clipping in both), and
compared in CIELAB (D65) over blocks below clipping with some signal.

Prints JSON: white ("camera" or "daylight"), LibRaw's multipliers, exposure_ratio (ours /
LibRaw's), mean_delta_e (CIEDE2000), mean_da, mean_db (ours − LibRaw's a*, b*), blocks.
"""
import json
import sys

import colour
import cv2
import numpy as np
import rawpy


def blocks(img, n=4):
    h, w = (img.shape[0] // n) * n, (img.shape[1] // n) * n
    return img[:h, :w].reshape(h // n, n, w // n, n, 3).mean(axis=(1, 3))


def centre(img, h, w):
    y, x = (img.shape[0] - h) // 2, (img.shape[1] - w) // 2
    return img[y:y + h, x:x + w]


def main(path, ours_path):
    with rawpy.imread(path) as r:
        cam = [float(v) for v in r.camera_whitebalance]
        day = [float(v) for v in r.daylight_whitebalance]
        camera = all(v > 0 for v in cam[:3])
        ref = r.postprocess(use_camera_wb=camera, use_auto_wb=False, output_color=rawpy.ColorSpace.sRGB, gamma=(1, 1),
                            no_auto_bright=True, output_bps=16, adjust_maximum_thr=0.0)
    ref = ref.astype(np.float64) / 65535.0
    ours = cv2.imread(ours_path, cv2.IMREAD_UNCHANGED)
    if ours is None:
        print(json.dumps({"error": f"cannot read {ours_path}"}))
        return
    ours = ours[:, :, ::-1].astype(np.float64) / 65535.0
    h, w = min(ref.shape[0], ours.shape[0]), min(ref.shape[1], ours.shape[1])
    a, b = blocks(centre(ref, h, w)).reshape(-1, 3), blocks(centre(ours, h, w)).reshape(-1, 3)
    ok = (a.max(axis=1) < 0.9) & (b.max(axis=1) < 0.9) & (a[:, 1] > 0.01) & (b[:, 1] > 0.01)
    scale = float(np.median(b[ok, 1] / a[ok, 1]))
    b = b / scale
    ok &= b.max(axis=1) < 0.9
    m = np.array(colour.RGB_COLOURSPACES["sRGB"].matrix_RGB_to_XYZ)
    white = colour.CCS_ILLUMINANTS["CIE 1931 2 Degree Standard Observer"]["D65"]
    lab_a = colour.XYZ_to_Lab(a[ok] @ m.T, white)
    lab_b = colour.XYZ_to_Lab(b[ok] @ m.T, white)
    de = colour.delta_E(lab_a, lab_b, method="CIE 2000")
    print(json.dumps({
        "white": "camera" if camera else "daylight", "camera_multipliers": cam, "daylight_multipliers": day,
        "exposure_ratio": scale, "mean_delta_e": float(np.mean(de)),
        "mean_da": float(np.mean(lab_b[:, 1] - lab_a[:, 1])), "mean_db": float(np.mean(lab_b[:, 2] - lab_a[:, 2])),
        "blocks": int(ok.sum()), "size": [h, w],
    }))


if __name__ == "__main__":
    main(*sys.argv[1:])
