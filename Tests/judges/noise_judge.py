#!/usr/bin/env python3
"""Noise judge for raw noise reduction (SPEC X3), through LibRaw (rawpy).

The N protocol of the project's noise research, written here independently of Daguerre:

Scene: kodim01..kodim12 (500x500 crops in Tests/Resources/kodak24) tiled row-major 4 across,
  3 down (2000x1500), decoded with the sRGB EOTF to linear light: the scene truth.
Sensor: RGGB, unity white balance; W_e = 300/0.18 e- at white (ISO 1600) or 150/0.18 (ISO 3200),
  so 18 % grey gives 300 / 150 e-; e = Poisson(W_e x) + N(0, 3^2) with numpy default_rng(ISO)
  drawn over the whole frame; 14-bit ADC, black 512, white 16383,
  DN = clip(round(512 + e/g), 0, 16383), g = W_e/15871. The noise-free DNG uses e = W_e x.
DNG: uncompressed CFA (tifffile), CFAPattern RGGB, AsShotNeutral 1 1 1, ColorMatrix1 = XYZ->linear
  sRGB (so camera RGB is linear sRGB: a colour-managed developer adds no colour change, and LibRaw's
  raw-colour output is the same space), NoiseProfile S = 1/W_e, O = (9 + g^2/12)/W_e^2; the
  noise-free DNG carries NoiseProfile 0 0. A crop (even offsets) cuts the full-frame data.
Slanted edge: a 512x512 neutral edge 5 degrees off vertical, 0.10/0.40 (4:1) or 0.15/0.20 (low
  contrast), ideal box pixel aperture (16x16 supersampling), through the same sensor with seeds
  1000+i; e-SFR on linear luminance of a 400x400 ROI with the edge line from the chart geometry,
  ESF binned at 1/4 px, central-difference LSF, Hamming window, |FFT| with the derivative's
  sinc correction; MTF50 of the mean of the renders over the seeds.
Scoring: renders clipped to [0,1], encoded round(255 * sRGB OETF); PSNR over R, G, B jointly
  (peak 255), 10-pixel border excluded, one MSE over the frame. "vs clean": a developer's noisy
  render against its own render of the noise-free DNG (no NR on that); "vs truth": against the scene.
LibRaw: AHD (or as named), linear, raw colour, camera WB, 16-bit, adjust_maximum_thr 0, clipped
  highlights. rawpy >= 0.26 (LibRaw 0.22) crashes in its wavelet denoise (noise_thr), so the NR
  settings run under rawpy 0.25.1 (LibRaw 0.21.4) from $DAGUERRE_RAWPY025 or the venv that
  `scripts/setup --judges` makes; without it only LibRaw's no-NR figures are given.

  noise_judge.py make OUT_DIR [--crop R0 R1 C0 C1] [--edges 4:1,low] [--seeds N] [--low-seeds N]
      writes the DNGs and truth; prints {"scene": {"1600_noisy": dng, ...}, "charts": [...], ...}
  noise_judge.py tile OUT.dng WIDTH HEIGHT ISO
      the noisy frame tiled to a big DNG (for timing the develop)
  noise_judge.py levels OUT_DIR [--crop R0 R1 C0 C1] [--grain-free]
      the same frame (or crop; with --grain-free, its photographs without the scans' film grain,
      removed by OpenCV's non-local means) at six noise levels (4800, 2400, 1200, 600, 300 and 150 e- at 18 % grey, seed
      = the level): per level a noise-free DNG, the noisy one with its NoiseProfile and the noisy
      one without it; prints {"levels": {"4800": {"clean": dng, "stated": dng, "unstated": dng}, ...}}
  noise_judge.py score-levels SPEC.json
      SPEC: {"renders": {level: {"clean": f32, "stated": f32, "unstated": f32, "off": f32}}}, "off"
      the noisy file without noise reduction; prints each noisy render's PSNR vs the clean render
  noise_judge.py score SPEC.json
      SPEC: the make output plus "ours": {name: render.f32} for every scene DNG and chart DNG
      (render.f32: int32 width, int32 height, then float32 linear RGB rows) and "libraw":
      "full" (the 72-setting grid per ISO) or "issue" (the issue's settings); prints the figures.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import tifffile
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
KODAK = os.path.join(os.path.dirname(HERE), "Resources", "kodak24")
IMAGES = [f"kodim{i:02d}" for i in range(1, 13)]
BLACK, WHITE, READ_E, BORDER = 512, 16383, 3.0, 10
ISOS = {1600: 300.0 / 0.18, 3200: 150.0 / 0.18}
LEVELS = [4800, 2400, 1200, 600, 300, 150]  # e- at 18 % grey
EDGES = {"4:1": (0.10, 0.40), "low": (0.15, 0.20)}
ANGLE = 5.0
# XYZ -> linear sRGB (IEC 61966-2-1), as DNG ColorMatrix1 (XYZ -> camera).
XYZ_TO_SRGB = np.linalg.inv(np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]))


def rawpy025():
    env = os.environ.get("DAGUERRE_RAWPY025")
    if env and os.path.exists(env):
        return env
    cache = os.environ.get("XDG_CACHE_HOME", os.path.join(os.path.expanduser("~"), ".cache"))
    p = os.path.join(cache, "daguerre", "venv-rawpy-0.25.1", "bin", "python")
    return p if os.path.exists(p) else None


# ------------------------------------------------------------------ scene, sensor, DNG
def eotf(v):
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def oetf(x):
    x = np.clip(x, 0.0, 1.0)
    return np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1 / 2.4) - 0.055)


def scene_linear(grain_free=False):
    tiles = [np.asarray(Image.open(os.path.join(KODAK, n + ".png")).convert("RGB")) for n in IMAGES]
    if grain_free:
        # The film grain of the scans removed (OpenCV's non-local means, strength 7): photographs
        # whose flattest parts are smooth, as a digital camera's scene is.
        import cv2
        tiles = [cv2.fastNlMeansDenoisingColored(np.ascontiguousarray(t), None, 7, 7, 7, 21) for t in tiles]
    rows = [np.concatenate(tiles[r * 4:(r + 1) * 4], axis=1) for r in range(3)]
    return eotf(np.concatenate(rows, axis=0) / 255.0)


def mosaic(lin):
    h, w, _ = lin.shape
    cfa = np.empty((h, w))
    cfa[0::2, 0::2] = lin[0::2, 0::2, 0]
    cfa[0::2, 1::2] = lin[0::2, 1::2, 1]
    cfa[1::2, 0::2] = lin[1::2, 0::2, 1]
    cfa[1::2, 1::2] = lin[1::2, 1::2, 2]
    return cfa


def sensor(lin, iso, noisy, seed, we=None):
    we = we or ISOS[iso]
    g = we / (WHITE - BLACK)
    e = we * mosaic(lin)
    if noisy:
        rng = np.random.default_rng(seed)
        e = rng.poisson(e).astype(np.float64) + rng.normal(0.0, READ_E, e.shape)
        profile = (1.0 / we, (READ_E ** 2 + g * g / 12.0) / we ** 2)
    else:
        profile = (0.0, 0.0)
    return np.clip(np.round(BLACK + e / g), 0, WHITE).astype(np.uint16), profile


def write_dng(path, dn, profile, stated=True):
    srat = []
    for v in XYZ_TO_SRGB.ravel():
        srat += [int(round(v * 1000000)), 1000000]
    tags = [
        (271, 2, 0, "Daguerre", True), (272, 2, 0, "Noise judge", True),
        (33421, 3, 2, (2, 2), True), (33422, 1, 4, (0, 1, 1, 2), True),
        (50706, 1, 4, (1, 4, 0, 0), True), (50707, 1, 4, (1, 1, 0, 0), True),
        (50708, 2, 0, "Daguerre noise judge", True),
        (50714, 4, 1, BLACK, True), (50717, 4, 1, WHITE, True),
        (50721, 10, 9, tuple(srat), True), (50778, 3, 1, 21, True),
        (50728, 5, 3, (1, 1, 1, 1, 1, 1), True),
    ]
    if stated:
        tags.append((51041, 12, 2, tuple(float(v) for v in profile), True))
    tifffile.imwrite(path, dn, photometric=32803, compression=None, subfiletype=0, extratags=tags, metadata=None)


def chart(lo, hi, n=512, ss=16):
    t = np.tan(np.radians(ANGLE))
    o = (np.arange(ss) + 0.5) / ss
    c = (np.arange(n)[:, None] + o[None, :]).reshape(-1)
    yy, xx = np.meshgrid(c, c, indexing="ij")
    v = np.where(xx > n / 2 + t * (yy - n / 2), hi, lo).reshape(n, ss, n, ss).mean(axis=(1, 3))
    return np.repeat(v[:, :, None], 3, axis=2)


def make(out, crop, edges, seeds, low_seeds):
    os.makedirs(out, exist_ok=True)
    lin = scene_linear()
    r0, r1, c0, c1 = crop or (0, lin.shape[0], 0, lin.shape[1])
    scene = {}
    for iso in ISOS:
        for noisy in (True, False):
            dn, profile = sensor(lin, iso, noisy, iso)
            p = os.path.join(out, f"iso{iso}_{'noisy' if noisy else 'clean'}.dng")
            write_dng(p, dn[r0:r1, c0:c1], profile)
            scene[f"{iso}_{'noisy' if noisy else 'clean'}"] = p
    np.save(os.path.join(out, "truth.npy"), lin[r0:r1, c0:c1].astype(np.float32))
    charts = []
    for edge in edges:
        lo, hi = EDGES[edge]
        c = chart(lo, hi)
        p = os.path.join(out, f"edge_{edge.replace(':', '-')}_clean.dng")
        dn, profile = sensor(c, 1600, False, 0)
        write_dng(p, dn, profile)
        charts.append({"edge": edge, "iso": 0, "seed": 0, "dng": p})
        for iso in ISOS:
            for s in range(seeds if edge == "4:1" else low_seeds):
                p = os.path.join(out, f"edge_{edge.replace(':', '-')}_{iso}_{s}.dng")
                dn, profile = sensor(c, iso, True, 1000 + s)
                write_dng(p, dn, profile)
                charts.append({"edge": edge, "iso": iso, "seed": s, "dng": p})
    return {"dir": out, "crop": [r0, r1, c0, c1], "scene": scene, "charts": charts}


def make_levels(out, crop=None, grain_free=False):
    os.makedirs(out, exist_ok=True)
    lin = scene_linear(grain_free)
    r0, r1, c0, c1 = crop or (0, lin.shape[0], 0, lin.shape[1])
    levels = {}
    for e in LEVELS:
        we = e / 0.18
        noisy, profile = sensor(lin, None, True, e, we)
        clean, zero = sensor(lin, None, False, 0, we)
        paths = {k: os.path.join(out, f"level{e}_{k}.dng") for k in ("clean", "stated", "unstated")}
        write_dng(paths["clean"], clean[r0:r1, c0:c1], zero)
        write_dng(paths["stated"], noisy[r0:r1, c0:c1], profile)
        write_dng(paths["unstated"], noisy[r0:r1, c0:c1], profile, stated=False)
        levels[str(e)] = paths
    return {"levels": levels}


def score_levels(spec):
    res = {}
    for level, renders in spec["renders"].items():
        clean = read_f32(renders["clean"])
        res[level] = {k: psnr8(read_f32(v), clean) for k, v in renders.items() if k != "clean"}
    return res


# ------------------------------------------------------------------ scoring
def psnr8(a, b):
    a8 = np.round(oetf(a) * 255.0)[BORDER:-BORDER, BORDER:-BORDER]
    b8 = np.round(oetf(b) * 255.0)[BORDER:-BORDER, BORDER:-BORDER]
    return float(10 * np.log10(255.0 ** 2 / np.mean((a8 - b8) ** 2)))


def read_f32(path):
    with open(path, "rb") as f:
        w, h = np.frombuffer(f.read(8), np.int32)
        return np.frombuffer(f.read(), np.float32).reshape(h, w, 3).astype(np.float64)


def mtf50(rgb, roi=(56, 456, 56, 456), osf=4, n=512):
    r0, r1, c0, c1 = roi
    y = rgb[r0:r1, c0:c1] @ np.array([0.2126, 0.7152, 0.0722])
    h, w = y.shape
    t = np.tan(np.radians(ANGLE))
    a = n / 2 - c0 - 0.5 + t * (r0 + 0.5 - n / 2)
    dist = (np.arange(w)[None, :] - (a + t * np.arange(h)[:, None])) * np.cos(np.arctan(t))
    idx = np.round(dist * osf).astype(int)
    lo = idx.min()
    cnt = np.bincount((idx - lo).ravel(), None)
    s = np.bincount((idx - lo).ravel(), y.ravel(), len(cnt))
    good = cnt > 0
    esf = np.interp(np.arange(len(cnt)), np.nonzero(good)[0], s[good] / np.maximum(cnt[good], 1))
    centre, half = -lo, (w // 2 - 20) * osf
    esf = esf[max(centre - half, 0):centre + half]
    lsf = np.zeros_like(esf)
    lsf[1:-1] = 0.5 * (esf[2:] - esf[:-2])
    pk, m = np.argmax(np.abs(lsf)), len(lsf)
    k = np.arange(m)
    win = 0.54 + 0.46 * np.cos(np.pi * (k - pk) / max(pk, m - 1 - pk))
    f_ = np.abs(np.fft.rfft(lsf * win))
    f_ /= f_[0]
    f = np.fft.rfftfreq(m, d=1.0 / osf)
    corr = np.sinc(2 * f / osf)
    corr[corr < 0.1] = 0.1
    mtf = f_ / corr
    i = np.nonzero(mtf < 0.5)[0][0]
    return float(f[i - 1] + (0.5 - mtf[i - 1]) * (f[i] - f[i - 1]) / (mtf[i] - mtf[i - 1]))


LIBRAW_WORKER = r"""
import json, sys
import numpy as np, rawpy
jobs = json.load(open(sys.argv[1]))
for j in jobs:
    kw = dict(demosaic_algorithm=getattr(rawpy.DemosaicAlgorithm, j["algo"]), output_color=rawpy.ColorSpace.raw,
              gamma=(1, 1), no_auto_bright=True, output_bps=16, use_camera_wb=True, use_auto_wb=False,
              adjust_maximum_thr=0.0, highlight_mode=rawpy.HighlightMode.Clip, bright=1.0, user_flip=0)
    if j.get("noise_thr"): kw["noise_thr"] = float(j["noise_thr"])
    if j.get("median"): kw["median_filter_passes"] = int(j["median"])
    if j.get("dcb"): kw["dcb_iterations"] = 2; kw["dcb_enhance"] = True
    with rawpy.imread(j["dng"]) as r:
        np.save(j["out"], r.postprocess(**kw))
print(json.dumps({"rawpy": rawpy.__version__, "libraw": ".".join(map(str, rawpy.libraw_version))}))
"""


def libraw(jobs, python):
    """Runs LibRaw jobs under `python`; returns the version string."""
    with tempfile.TemporaryDirectory() as d:
        worker, spec = os.path.join(d, "worker.py"), os.path.join(d, "jobs.json")
        open(worker, "w").write(LIBRAW_WORKER)
        json.dump(jobs, open(spec, "w"))
        r = subprocess.run([python, worker, spec], capture_output=True, text=True, check=True)
        v = json.loads(r.stdout.strip().splitlines()[-1])
        return f"rawpy {v['rawpy']} / LibRaw {v['libraw']}"


def label(algo, thr, med, dcb):
    s = "DCB 2 it + enhance" if dcb else algo
    return s + (f", noise_thr {thr}" if thr else ", no NR") + (f", {med} median passes" if med else "")


def score(spec):
    out = {}
    tmp = tempfile.mkdtemp(prefix="noise-judge-")
    truth = np.load(os.path.join(spec["dir"], "truth.npy")).astype(np.float64)
    ours = {k: read_f32(v) for k, v in spec["ours"].items()}
    res = {}
    for iso in ISOS:
        noisy, clean = ours[f"{iso}_noisy"], ours[f"{iso}_clean"]
        res[f"ours {iso}"] = {"vs_clean": psnr8(noisy, clean), "vs_truth": psnr8(noisy, truth)}
        for extra in [k for k in ours if k.startswith(f"{iso}_noisy_")]:
            res[f"ours {iso} {extra[len(str(iso)) + 7:]}"] = {"vs_clean": psnr8(ours[extra], clean), "vs_truth": psnr8(ours[extra], truth)}
    # LibRaw: AHD without NR from the installed rawpy; NR settings from rawpy 0.25.1 when present.
    settings = [("AHD", 0, 0, False)]
    old = rawpy025()
    if old:
        if spec.get("libraw") == "full":
            for algo, dcb in (("AHD", False), ("DCB", True), ("PPG", False), ("VNG", False)):
                for thr in (0, 200, 400, 600, 800, 1000):
                    for med in (0, 1, 3):
                        settings.append((algo, thr, med, dcb))
            settings += [("AHD", t, 0, False) for t in (340, 560)]
        else:
            settings += [("AHD", 340, 0, False), ("AHD", 560, 0, False), ("DCB", 400, 0, True), ("AHD", 800, 3, False)]
    settings = list(dict.fromkeys(settings))
    jobs_new, jobs_old, names = [], [], []
    for iso in ISOS:
        for kind in ("noisy", "clean"):
            for (algo, thr, med, dcb) in settings:
                if kind == "clean" and (thr or med):
                    continue
                o = os.path.join(tmp, f"{iso}_{kind}_{algo}_{thr}_{med}_{int(dcb)}.npy")
                job = {"dng": spec["scene"][f"{iso}_{kind}"], "out": o, "algo": algo, "noise_thr": thr, "median": med, "dcb": dcb}
                (jobs_old if (thr or med or dcb or algo != "AHD") else jobs_new).append(job)
                names.append((iso, kind, (algo, thr, med, dcb), o))
    if old:   # the clean references of the other demosaics come from the same (old) LibRaw
        for iso in ISOS:
            for (algo, thr, med, dcb) in {(a, 0, 0, d) for (a, _, _, d) in settings if a != "AHD" or d}:
                o = os.path.join(tmp, f"{iso}_clean_{algo}_0_0_{int(dcb)}.npy")
                if not any(n[3] == o for n in names):
                    jobs_old.append({"dng": spec["scene"][f"{iso}_clean"], "out": o, "algo": algo, "noise_thr": 0, "median": 0, "dcb": dcb})
                    names.append((iso, "clean", (algo, 0, 0, dcb), o))
    out["libraw_version"] = libraw(jobs_new, sys.executable)
    if jobs_old:
        out["libraw_nr_version"] = libraw(jobs_old, old)
    else:
        out["libraw_nr_version"] = None
    # One render in memory at a time besides the clean references (the full grid is 150 renders).
    paths = {(iso, kind, s): o for iso, kind, s, o in names}
    cleans = {}
    for (iso, kind, s), o in paths.items():
        if kind != "noisy":
            continue
        algo, thr, med, dcb = s
        ref = (iso, "clean", (algo, 0, 0, dcb))
        if ref not in cleans:
            cleans[ref] = np.load(paths[ref]).astype(np.float64) / 65535.0
        img = np.load(o).astype(np.float64) / 65535.0
        res[f"libraw {iso} {label(*s)}"] = {"vs_clean": psnr8(img, cleans[ref]), "vs_truth": psnr8(img, truth)}
        os.remove(o)
    cleans.clear()
    for iso in ISOS:
        cands = {k: v for k, v in res.items() if k.startswith(f"libraw {iso} ")}
        out[f"libraw_best_vs_clean_{iso}"] = max(cands.items(), key=lambda kv: kv[1]["vs_clean"])
        out[f"libraw_best_vs_truth_{iso}"] = max(cands.items(), key=lambda kv: kv[1]["vs_truth"])
    out["psnr"] = res
    # Slanted edges: MTF50 of the mean render per (edge, ISO, developer), summed as they come.
    groups = {}

    def add(key, img):
        total, n = groups.get(key, (0.0, 0))
        groups[key] = (total + img, n + 1)

    lr_jobs = []
    for c in spec["charts"]:
        key = (c["edge"], c["iso"])
        for dev, path in spec["ours_charts"].get(c["dng"], {}).items():
            add(key + (dev,), read_f32(path))
        thrs = [0] + ([340, 560] if old and c["iso"] else [])
        for thr in thrs:
            o = os.path.join(tmp, os.path.basename(c["dng"]) + f"_{thr}.npy")
            lr_jobs.append(({"dng": c["dng"], "out": o, "algo": "AHD", "noise_thr": thr}, key + (f"LibRaw AHD, noise_thr {thr}",)))
    for python, want_nr in ((sys.executable, False), (old, True)):
        batch = [(j, k) for j, k in lr_jobs if bool(j["noise_thr"]) == want_nr]
        if not batch or python is None:
            continue
        for i in range(0, len(batch), 32):     # 32 renders on disk at a time
            part = batch[i:i + 32]
            libraw([j for j, _ in part], python)
            for j, k in part:
                add(k, np.load(j["out"]).astype(np.float64) / 65535.0)
                os.remove(j["out"])
    out["mtf50"] = {f"{e} {iso} {dev}": {"mtf50": mtf50(total / n), "renders": n} for (e, iso, dev), (total, n) in groups.items()}
    for f in os.listdir(tmp):
        os.remove(os.path.join(tmp, f))
    os.rmdir(tmp)
    return out


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "make":
        args = sys.argv[3:]
        crop, edges, seeds, low = None, ["4:1"], 8, 0
        i = 0
        while i < len(args):
            if args[i] == "--crop":
                crop = [int(v) for v in args[i + 1:i + 5]]
                i += 5
            elif args[i] == "--edges":
                edges = [e for e in args[i + 1].split(",") if e]
                i += 2
            elif args[i] == "--seeds":
                seeds = int(args[i + 1])
                i += 2
            elif args[i] == "--low-seeds":
                low = int(args[i + 1])
                i += 2
            else:
                raise SystemExit(f"unknown option {args[i]}")
        print(json.dumps(make(sys.argv[2], crop, edges, seeds, low)))
    elif len(sys.argv) == 6 and sys.argv[1] == "tile":
        # A big noisy DNG for timing: the ISO 1600 (or 3200) noisy frame tiled to WIDTH x HEIGHT.
        w, h, iso = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        dn, profile = sensor(scene_linear(), iso, True, iso)
        reps = (-(-h // dn.shape[0]), -(-w // dn.shape[1]))
        write_dng(sys.argv[2], np.tile(dn, reps)[:h & ~1, :w & ~1], profile)
        print(json.dumps({"dng": sys.argv[2], "width": w & ~1, "height": h & ~1}))
    elif len(sys.argv) >= 3 and sys.argv[1] == "levels":
        args = sys.argv[3:]
        grain_free = "--grain-free" in args
        args = [a for a in args if a != "--grain-free"]
        crop = [int(v) for v in args[1:5]] if len(args) == 5 and args[0] == "--crop" else None
        inside = crop is not None and 0 <= crop[0] < crop[1] <= 1500 and 0 <= crop[2] < crop[3] <= 2000
        if args and (not inside or any(v % 2 for v in crop)):
            raise SystemExit("levels: --crop takes four even numbers R0 R1 C0 C1 inside the 2000x1500 frame")
        print(json.dumps(make_levels(sys.argv[2], crop, grain_free)))
    elif len(sys.argv) == 3 and sys.argv[1] == "score-levels":
        print(json.dumps(score_levels(json.load(open(sys.argv[2])))))
    elif len(sys.argv) == 3 and sys.argv[1] == "score":
        print(json.dumps(score(json.load(open(sys.argv[2])))))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
