#!/usr/bin/env python3
"""Independent judges for the image engine's tests (Tests/DaguerreImageTests).

Each subcommand compares Daguerre's raw output (tightly packed rows) with what a library
nobody here wrote computes from the same input, and prints one JSON object:

  gaussian  OpenCV cv2.GaussianBlur, replicated border           -> max/mean abs difference (8-bit)
  lanczos   Pillow Image.resize(LANCZOS)                          -> PSNR in dB
  decode    Pillow's JPEG decode                                  -> number of differing bytes
  color     colour-science RGB_to_RGB, and lcms2 (via the test)   -> CIEDE2000 statistics
  sepia     the W3C Filter Effects sepia() matrix in linear light,
            colour-science's sRGB curves                          -> max/mean abs difference (8-bit)
"""
import argparse
import json
import sys

import numpy as np


def load_raw(path, w, h, c, dtype):
    a = np.fromfile(path, dtype=dtype)
    if a.size != w * h * c:
        sys.exit(f"{path}: expected {w*h*c} values, found {a.size}")
    return a.reshape(h, w, c)


def gaussian(a):
    import cv2
    from PIL import Image
    src = np.asarray(Image.open(a.input).convert("RGB"))
    ref = cv2.GaussianBlur(src, (0, 0), a.sigma, borderType=cv2.BORDER_REPLICATE)
    ours = load_raw(a.ours, ref.shape[1], ref.shape[0], 3, np.uint8)
    d = np.abs(ref.astype(int) - ours.astype(int))
    print(json.dumps({"max_abs_diff": int(d.max()), "mean_abs_diff": float(d.mean()),
                      "fraction_differing": float((d > 0).mean()), "kernel_size": int(round(a.sigma * 6 + 1)) | 1}))


def lanczos(a):
    from PIL import Image
    im = Image.open(a.input).convert("RGB")
    w, h = round(im.width * a.scale), round(im.height * a.scale)
    ref = np.asarray(im.resize((w, h), Image.LANCZOS)).astype(float)
    ours = load_raw(a.ours, w, h, 3, np.uint8).astype(float)
    mse = ((ref - ours) ** 2).mean()
    b = a.border
    inner = ((ref[b:h-b, b:w-b] - ours[b:h-b, b:w-b]) ** 2).mean()
    psnr = lambda m: float("inf") if m == 0 else float(10 * np.log10(255 ** 2 / m))
    print(json.dumps({"psnr": psnr(mse), "psnr_without_border": psnr(inner), "width": w, "height": h}))


def decode(a):
    from PIL import Image
    ref = np.asarray(Image.open(a.input).convert("RGB"))
    ours = load_raw(a.ours, ref.shape[1], ref.shape[0], 3, np.uint8)
    print(json.dumps({"differing_bytes": int((ref != ours).sum()), "pillow": Image.__version__ if hasattr(Image, "__version__") else ""}))


SPACES = {"sRGB": "sRGB", "Display P3": "Display P3", "Adobe RGB (1998)": "Adobe RGB (1998)", "ITU-R BT.2020": "ITU-R BT.2020"}


def color(a):
    import colour
    n = a.grid
    g = np.linspace(0, 1, n)
    grid = np.stack(np.meshgrid(g, g, g, indexing="ij"), -1).reshape(-1, 3)   # r slowest, b fastest
    src = colour.RGB_COLOURSPACES[SPACES[a.src]]
    dst = colour.RGB_COLOURSPACES[SPACES[a.dst]]
    # The reference in linear light: colour-science's matrices, no encoding (well defined for
    # out-of-gamut colours too), and its encoded values for the in-gamut check of lcms2.
    ref_lin = colour.RGB_to_RGB(grid, src, dst, apply_cctf_decoding=True, apply_cctf_encoding=False,
                                chromatic_adaptation_transform=None)
    ref_enc = dst.cctf_encoding(np.clip(ref_lin, 0, None))
    in_gamut = np.all((ref_lin >= -1e-9) & (ref_lin <= 1 + 1e-9), axis=1)
    white = dst.whitepoint

    def lab(lin):
        return colour.XYZ_to_Lab(colour.RGB_to_XYZ(lin, dst, apply_cctf_decoding=False), white)

    ref_lab = lab(ref_lin)
    ours = np.fromfile(a.ours, dtype=np.float32).reshape(-1, 3).astype(float)
    # Daguerre's extended curves mirror through zero (Apple's extended spaces): decode with the
    # exact inverse of the encoding it applied, then compare colours.
    ours_lin = np.sign(ours) * dst.cctf_decoding(np.abs(ours))
    de = colour.delta_E(lab(ours_lin), ref_lab, method="CIE 2000")
    out = {"points": int(len(grid)), "in_gamut": int(in_gamut.sum()),
           "daguerre": {"max": float(de.max()), "mean": float(de.mean()),
                        "max_in_gamut": float(de[in_gamut].max()) if in_gamut.any() else 0.0,
                        "max_encoded_difference_in_gamut": float(np.abs(ours - ref_enc)[in_gamut].max()) if in_gamut.any() else 0.0}}
    if a.lcms:
        # lcms2 continues curves differently outside [0, 1]; compare where colours are in gamut.
        lc = np.fromfile(a.lcms, dtype=np.float32).reshape(-1, 3).astype(float)
        lc_lab = lab(dst.cctf_decoding(np.clip(lc, 0, 1)))
        de_l = colour.delta_E(lc_lab, ref_lab, method="CIE 2000")
        de_ol = colour.delta_E(lab(ours_lin), lc_lab, method="CIE 2000")
        out["lcms2"] = {"max_in_gamut": float(de_l[in_gamut].max()) if in_gamut.any() else 0.0}
        out["daguerre_vs_lcms2_in_gamut_max"] = float(de_ol[in_gamut].max()) if in_gamut.any() else 0.0
    print(json.dumps(out))


def sepia(a):
    """SepiaTone's documented formula computed independently: decode sRGB to linear light,
    apply (1 - k) I + k S with S the W3C Filter Effects sepia matrix, encode, round to 8 bits."""
    import colour
    from PIL import Image
    src = np.asarray(Image.open(a.input).convert("RGB")).astype(float) / 255
    w3c = np.array([[0.393, 0.769, 0.189],
                    [0.349, 0.686, 0.168],
                    [0.272, 0.534, 0.131]])
    m = (1 - a.intensity) * np.eye(3) + a.intensity * w3c
    linear = colour.models.eotf_sRGB(src) @ m.T
    ref = np.round(colour.models.eotf_inverse_sRGB(np.clip(linear, 0, 1)) * 255).astype(int)
    ours = load_raw(a.ours, ref.shape[1], ref.shape[0], 3, np.uint8).astype(int)
    d = np.abs(ref - ours)
    print(json.dumps({"max_abs_diff": int(d.max()), "mean_abs_diff": float(d.mean()),
                      "fraction_differing": float((d > 0).mean()),
                      "clipped_fraction": float((linear > 1).any(axis=2).mean())}))


def pointwise(a):
    """A colour effect's formula computed independently on linear light (colour-science's sRGB
    curves), rounded to 8 bits: invert, max, min, posterize LEVELS, monochrome R,G,B,K."""
    import colour
    from PIL import Image
    src = np.asarray(Image.open(a.input).convert("RGB")).astype(float) / 255
    lin = colour.models.eotf_sRGB(src)
    op, *args = a.op.split(":")
    if op == "invert":
        out = 1 - lin
    elif op == "max":
        out = np.repeat(lin.max(axis=2, keepdims=True), 3, axis=2)
    elif op == "min":
        out = np.repeat(lin.min(axis=2, keepdims=True), 3, axis=2)
    elif op == "posterize":
        n = max(2, round(float(args[0])))
        out = np.minimum(np.floor(np.clip(lin, 0, 1) * n), n - 1) / (n - 1)
    elif op == "monochrome":
        r, g, b, k = (float(x) for x in args[0].split(","))
        c = colour.models.eotf_sRGB(np.array([r, g, b]))
        w = np.array([0.2126, 0.7152, 0.0722])
        mono = c[None, None, :] * ((lin @ w) / (c @ w))[:, :, None]
        out = lin + (mono - lin) * k
    else:
        raise SystemExit(f"unknown op {op}")
    ref = np.round(colour.models.eotf_inverse_sRGB(np.clip(out, 0, 1)) * 255).astype(int)
    ours = load_raw(a.ours, ref.shape[1], ref.shape[0], 3, np.uint8).astype(int)
    d = np.abs(ref - ours)
    print(json.dumps({"max_abs_diff": int(d.max()), "mean_abs_diff": float(d.mean()),
                      "fraction_differing": float((d > 0).mean())}))


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ["gaussian", "lanczos", "decode"]:
        s = sub.add_parser(name)
        s.add_argument("--input", required=True)
        s.add_argument("--ours", required=True)
        s.add_argument("--sigma", type=float, default=2)
        s.add_argument("--scale", type=float, default=0.5)
        s.add_argument("--border", type=int, default=4)
    s = sub.add_parser("color")
    s.add_argument("--src", required=True)
    s.add_argument("--dst", required=True)
    s.add_argument("--ours", required=True)
    s.add_argument("--lcms")
    s.add_argument("--grid", type=int, default=17)
    s = sub.add_parser("sepia")
    s.add_argument("--input", required=True)
    s.add_argument("--ours", required=True)
    s.add_argument("--intensity", type=float, default=1)
    s = sub.add_parser("pointwise")
    s.add_argument("--input", required=True)
    s.add_argument("--ours", required=True)
    s.add_argument("--op", required=True)
    a = p.parse_args()
    {"gaussian": gaussian, "lanczos": lanczos, "decode": decode, "color": color, "sepia": sepia,
     "pointwise": pointwise}[a.cmd](a)


if __name__ == "__main__":
    main()
