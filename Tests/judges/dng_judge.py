#!/usr/bin/env python3
"""DNG judge, through LibRaw (rawpy):

  dng_judge.py raw FILE OUT.u16      writes raw_image (uint16, little-endian) to OUT.u16 and
                                     prints its shape, CFA pattern, black and white levels;
                                     for LinearRaw files (LibRaw's "stack" of colour planes)
                                     the first num_colors planes, interleaved
  dng_judge.py develop FILE SPEC.json
                                     develops FILE (camera white balance, sRGB primaries,
                                     linear gamma, no auto-bright, 16-bit) and compares the
                                     patches listed in SPEC.json with their XYZ truth by
                                     CIEDE2000 (colour-science); prints mean and max
  dng_judge.py strips OUT.dng [TOP,LEFT]
                                     writes an uncompressed 16-bit RGGB DNG of 60×45 in strips
                                     of 7 rows (the last one short), with tifffile, as other
                                     tools write them; with TOP,LEFT an ActiveArea from there
  dng_judge.py strips-big-endian OUT.dng
                                     the same in big-endian byte order (MM)
  dng_judge.py handover OUT.dng KIND
                                     writes a 96×64 RGGB DNG that Daguerre's reader refuses,
                                     with tifffile: KIND "planecolor" is uncompressed 16-bit
                                     whose CFAPlaneColor lists the planes as green, red, blue
                                     (CFAPattern 1 0 0 2 then means RGGB, which LibRaw reads),
                                     KIND "lossycfa" has 8-bit lossy JPEG tiles (Compression
                                     34892, which DNG allows only for LinearRaw); KIND
                                     "nomatrix", which Daguerre reads, is a flat mid-grey
                                     without ColorMatrix1 or AsShotNeutral; prints the
                                     size and the CFA colours of the first 2×2 photosites as
                                     LibRaw reads them ("error" when it cannot)
  dng_judge.py compare FILE OURS.tif
                                     develops FILE as above and compares it with OURS.tif
                                     (16-bit, linear sRGB, same size) after matching exposure
                                     (the median ratio of green): prints the exposure ratio,
                                     the per-channel mean ratio and the mean CIEDE2000 over
                                     pixels below clipping in both
"""
import json
import sys

import numpy as np
import rawpy


def raw(path, out):
    with rawpy.imread(path) as r:
        img = r.raw_image
        stacked = img.ndim == 3
        if stacked:
            img = img[:, :, :r.num_colors]
        img = np.ascontiguousarray(img, dtype="<u2")
        img.tofile(out)
        print(json.dumps({
            "height": int(img.shape[0]), "width": int(img.shape[1]),
            "samples_per_pixel": int(img.shape[2]) if stacked else 1,
            "raw_pattern": r.raw_pattern.tolist() if r.raw_pattern is not None else None,
            "color_desc": r.color_desc.decode(),
            "black_level_per_channel": [int(v) for v in r.black_level_per_channel],
            "white_level": int(r.white_level),
            "camera_whitebalance": [float(v) for v in r.camera_whitebalance],
            "top_margin": int(r.sizes.top_margin), "left_margin": int(r.sizes.left_margin),
            # The colour of the first 2×2 visible photosites: 0 red, 1 green, 2 blue, 3 second green.
            "visible_colors": r.raw_colors_visible[:2, :2].tolist() if not stacked else None,
        }))


def develop(path, spec_path):
    import colour
    spec = json.load(open(spec_path))
    with rawpy.imread(path) as r:
        pattern = r.raw_pattern.tolist() if r.raw_pattern is not None else None
        rgb = r.postprocess(use_camera_wb=True, output_color=rawpy.ColorSpace.sRGB, gamma=(1, 1),
                            no_auto_bright=True, output_bps=16, user_flip=0, adjust_maximum_thr=0.0,
                            demosaic_algorithm=rawpy.DemosaicAlgorithm.AHD)
    rgb = rgb.astype(np.float64) / 65535.0 / spec["exposure"]
    srgb_to_xyz = np.array(colour.RGB_COLOURSPACES["sRGB"].matrix_RGB_to_XYZ)
    white = colour.CCS_ILLUMINANTS["CIE 1931 2 Degree Standard Observer"]["D65"]
    des = []
    for p in spec["patches"]:
        x, y, s = p["x"], p["y"], p["size"]
        m = rgb[y + s // 4: y + 3 * s // 4, x + s // 4: x + 3 * s // 4].reshape(-1, 3).mean(axis=0)
        xyz = srgb_to_xyz @ m
        lab_out = colour.XYZ_to_Lab(xyz, white)
        lab_truth = colour.XYZ_to_Lab(np.array(p["xyz"]), white)
        des.append(float(colour.delta_E(lab_truth, lab_out, method="CIE 2000")))
    print(json.dumps({"mean": float(np.mean(des)), "max": float(np.max(des)), "per_patch": des, "raw_pattern": pattern}))


def strips(out, active_area=None, byteorder="<"):
    import tifffile
    h, w = 45, 60
    y, x = np.mgrid[0:h, 0:w]
    dn = (512 + (x * 97 + y * 131) % 15000).astype(np.uint16)
    tags = [
        (33421, 3, 2, (2, 2), True), (33422, 1, 4, (0, 1, 1, 2), True), (50706, 1, 4, (1, 4, 0, 0), True),
        (50708, 2, 0, "Daguerre strip test", True), (50714, 4, 1, 512, True), (50717, 4, 1, 16383, True),
        (50721, 10, 9, (1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 1), True), (50778, 3, 1, 21, True),
    ]
    if active_area:   # "top,left": an ActiveArea from there to the end (CFAPattern counts from it)
        top, left = (int(v) for v in active_area.split(","))
        tags.append((50829, 4, 4, (top, left, h, w), True))
    tifffile.imwrite(out, dn, photometric=32803, compression=None, subfiletype=0, rowsperstrip=7, extratags=tags, metadata=None,
                     byteorder=byteorder)
    with tifffile.TiffFile(out) as tf:
        page = tf.pages[0]
        print(json.dumps({"width": w, "height": h, "rows_per_strip": int(page.tags["RowsPerStrip"].value),
                          "strips": len(page.dataoffsets), "last_strip_bytes": int(page.databytecounts[-1])}))


def handover(out, kind):
    import io
    import tifffile
    from PIL import Image
    h, w = 64, 96
    y, x = np.mgrid[0:h, 0:w]
    level = 0.2 + 0.6 * (x + y) / (w + h)
    tags = [(33421, 3, 2, (2, 2), True), (33422, 1, 4, (0, 1, 1, 2), True), (50706, 1, 4, (1, 4, 0, 0), True),
            (50708, 2, 0, "Daguerre hand-over test", True),
            (50721, 10, 9, (1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 1), True), (50778, 3, 1, 21, True),
            (50728, 5, 3, (1, 1, 1, 1, 1, 1), True)]
    if kind == "nomatrix":   # Daguerre reads it: a flat mid-grey, no ColorMatrix1, no AsShotNeutral
        tags = [t for t in tags if t[0] not in (50721, 50728)] + [(50717, 4, 1, 65535, True)]
        tifffile.imwrite(out, np.full((h, w), 26214, np.uint16), photometric=32803, compression=None, subfiletype=0,
                         extratags=tags, metadata=None)
    elif kind == "planecolor":
        tags = [t for t in tags if t[0] != 33422]
        tags += [(33422, 1, 4, (1, 0, 0, 2), True), (50710, 1, 3, (1, 0, 2), True), (50717, 4, 1, 65535, True)]
        tifffile.imwrite(out, (level * 65535).astype(np.uint16), photometric=32803, compression=None, subfiletype=0,
                         extratags=tags, metadata=None)
    else:
        tags += [(50717, 4, 1, 255, True)]
        v8 = (level * 255).astype(np.uint8)
        tiles = []
        for ty in range(0, h, 32):
            for tx in range(0, w, 32):
                buf = io.BytesIO()
                Image.fromarray(v8[ty:ty + 32, tx:tx + 32]).save(buf, "JPEG", quality=95)
                tiles.append(buf.getvalue())
        # tifffile encodes lossy JPEG only through imagecodecs: the tiles are already encoded.
        tifffile.TIFF.COMPRESSORS._codecs[34892] = lambda data, *args, **kwargs: data
        tifffile.imwrite(out, iter(tiles), shape=(h, w), dtype=np.uint8, tile=(32, 32), compression=34892,
                         photometric=32803, subfiletype=0, extratags=tags, metadata=None)
    try:
        with rawpy.imread(out) as r:
            colors = r.raw_colors_visible[:2, :2].tolist()
    except Exception as e:
        colors = f"error: {e}"
    print(json.dumps({"width": w, "height": h, "libraw_colors": colors}))


def compare(path, ours_path):
    import colour
    import cv2
    with rawpy.imread(path) as r:
        ref = r.postprocess(use_camera_wb=True, output_color=rawpy.ColorSpace.sRGB, gamma=(1, 1),
                            no_auto_bright=True, output_bps=16, user_flip=0, adjust_maximum_thr=0.0)
    ref = ref.astype(np.float64) / 65535.0
    ours = cv2.imread(ours_path, cv2.IMREAD_UNCHANGED)[:, :, ::-1].astype(np.float64) / 65535.0
    if ours.shape != ref.shape:
        print(json.dumps({"error": f"sizes differ: ours {ours.shape}, LibRaw {ref.shape}"}))
        return
    a, b = ref.reshape(-1, 3), ours.reshape(-1, 3)
    ok = (a.max(axis=1) < 0.95) & (b.max(axis=1) < 0.95) & (a[:, 1] > 0.005) & (b[:, 1] > 0.005)
    scale = float(np.median(b[ok, 1] / a[ok, 1]))
    b = b / scale
    ratio = (b[ok].mean(axis=0) / a[ok].mean(axis=0)).tolist()
    m = colour.RGB_COLOURSPACES["sRGB"].matrix_RGB_to_XYZ
    white = colour.CCS_ILLUMINANTS["CIE 1931 2 Degree Standard Observer"]["D65"]
    sample = np.flatnonzero(ok)[:: max(1, ok.sum() // 20000)]
    lab_a = colour.XYZ_to_Lab(a[sample] @ np.array(m).T, white)
    lab_b = colour.XYZ_to_Lab(b[sample] @ np.array(m).T, white)
    de = colour.delta_E(lab_a, lab_b, method="CIE 2000")
    print(json.dumps({"exposure_ratio": scale, "channel_ratio": ratio, "mean_delta_e": float(np.mean(de)), "pixels": int(ok.sum())}))


if __name__ == "__main__":
    {"raw": raw, "develop": develop, "compare": compare, "strips": strips, "handover": handover,
     "strips-big-endian": lambda out: strips(out, None, ">")}[sys.argv[1]](*sys.argv[2:])
