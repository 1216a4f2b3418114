#!/usr/bin/env python3
"""Independent judge of Live Photo movies (OpenCV, numpy, ffmpeg).

usage:
  live_photo_judge.py jitter MOVIE
      Tracks corner features (OpenCV goodFeaturesToTrack + pyramidal Lucas-Kanade) from each
      frame to the next; prints {"frames", "rms"}: the RMS of the per-frame median displacement
      in pixels (on a still scene, the camera's residual jitter).
  live_photo_judge.py disc PATH [PATH...] | MOVIE --frames i,j,k
      The centroid of the saturated red disc (R - max(G, B) > 60) in images, or in the given
      frames of a movie, as fractions of the width and height; null where there is none.
  live_photo_judge.py tone MOVIE FREQ
      Decodes the audio with ffmpeg to 44.1 kHz mono; prints {"seconds", "peak_db"}: the power
      at FREQ over the median power of the spectrum around it (Welch-style averaged periodogram).
"""
import json
import subprocess
import sys

import cv2
import numpy as np


def frames(path):
    cap = cv2.VideoCapture(path)
    out = []
    while True:
        ok, f = cap.read()
        if not ok:
            break
        out.append(f)
    return out


def jitter(path):
    fs = frames(path)
    steps = []
    for a, b in zip(fs, fs[1:]):
        ga = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY)
        gb = cv2.cvtColor(b, cv2.COLOR_BGR2GRAY)
        pts = cv2.goodFeaturesToTrack(ga, maxCorners=400, qualityLevel=0.01, minDistance=8)
        if pts is None:
            continue
        nxt, st, _ = cv2.calcOpticalFlowPyrLK(ga, gb, pts, None, winSize=(21, 21), maxLevel=3)
        good = st.reshape(-1) == 1
        if good.sum() < 10:
            continue
        d = (nxt[good] - pts[good]).reshape(-1, 2)
        steps.append(np.median(d, axis=0))
    steps = np.array(steps)
    rms = float(np.sqrt((steps ** 2).sum(axis=1).mean())) if len(steps) else None
    return {"frames": len(fs), "rms": rms}


def centroid(bgr):
    b, g, r = [bgr[..., i].astype(np.int32) for i in range(3)]
    mask = (r - np.maximum(g, b)) > 60
    if mask.sum() < 4:
        return None
    ys, xs = np.nonzero(mask)
    h, w = mask.shape
    return [float(xs.mean() + 0.5) / w, float(ys.mean() + 0.5) / h]


def tone(path, freq):
    pcm = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", path, "-vn", "-ac", "1", "-ar", "44100", "-f", "s16le", "-"],
        check=True, capture_output=True).stdout
    x = np.frombuffer(pcm, dtype="<i2").astype(np.float64) / 32768
    n = 4096
    if len(x) < n:
        return {"seconds": len(x) / 44100, "peak_db": None}
    win = np.hanning(n)
    segs = [x[i:i + n] * win for i in range(0, len(x) - n + 1, n // 2)]
    power = np.mean([np.abs(np.fft.rfft(s)) ** 2 for s in segs], axis=0)
    k = int(round(freq * n / 44100))
    peak = power[max(0, k - 2):k + 3].max()
    around = np.median(power[max(1, k - 200):k + 200])
    return {"seconds": len(x) / 44100, "peak_db": float(10 * np.log10((peak + 1e-30) / (around + 1e-30)))}


def main():
    cmd = sys.argv[1]
    if cmd == "jitter":
        print(json.dumps(jitter(sys.argv[2])))
    elif cmd == "disc":
        if "--frames" in sys.argv:
            wanted = [int(i) for i in sys.argv[sys.argv.index("--frames") + 1].split(",")]
            fs = frames(sys.argv[2])
            print(json.dumps({"frames": len(fs), "positions": [centroid(fs[i]) if i < len(fs) else None for i in wanted],
                              "any": [i for i, f in enumerate(fs) if centroid(f) is not None]}))
        else:
            print(json.dumps({"positions": [centroid(cv2.imread(p)) for p in sys.argv[2:]]}))
    elif cmd == "tone":
        print(json.dumps(tone(sys.argv[2], float(sys.argv[3]))))
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
