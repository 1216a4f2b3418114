#!/usr/bin/env python3
"""A deliberately small TIFF reader and tiled-TIFF writer, independent of libtiff.

Used as a judge where Pillow and OpenCV cannot (half-float TIFF), and to make test files that
the other tools cannot write (tiled TIFFs, associated alpha). Reads strips or tiles, compression
none (1) or deflate (8, 32946), predictors 1, 2 and 3, contiguous planes, either byte order.

usage: tiny_tiff.py write-tiled OUT WIDTH HEIGHT TILE_W TILE_H DTYPE CHANNELS EXTRA RAW_OUT [ICC_FILE]
  writes a random image (seed 7) as an uncompressed tiled TIFF, and its pixels raw to RAW_OUT.
  DTYPE is uint8, uint16, float16 or float32; EXTRA is the ExtraSamples value (or -1 for none).
"""
import json
import struct
import sys
import zlib

import numpy as np

TYPES = {1: "B", 2: "s", 3: "H", 4: "I", 5: "II", 6: "b", 7: "B", 8: "h", 9: "i", 11: "f", 12: "d", 16: "Q"}
SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 11: 4, 12: 8, 16: 8}


def read(path):
    data = open(path, "rb").read()
    bo = "<" if data[:2] == b"II" else ">"
    magic = struct.unpack(bo + "H", data[2:4])[0]
    if magic != 42:
        raise ValueError("only classic TIFF")
    ifd = struct.unpack(bo + "I", data[4:8])[0]
    n = struct.unpack(bo + "H", data[ifd:ifd + 2])[0]
    tags = {}
    for i in range(n):
        e = ifd + 2 + 12 * i
        tag, typ, count = struct.unpack(bo + "HHI", data[e:e + 8])
        size = SIZES[typ] * count
        off = e + 8 if size <= 4 else struct.unpack(bo + "I", data[e + 8:e + 12])[0]
        raw = data[off:off + size]
        if typ in (1, 7) and tag == 34675:
            tags[tag] = raw
            continue
        if typ == 2:
            tags[tag] = raw.rstrip(b"\0").decode("latin1")
            continue
        vals = struct.unpack(bo + TYPES[typ] * count, raw) if typ != 5 else struct.unpack(bo + "I" * (2 * count), raw)
        tags[tag] = vals[0] if count == 1 else vals
    w, h = tags[256], tags[257]
    spp = tags.get(277, 1)
    bps = tags.get(258, 1)
    bps = bps[0] if isinstance(bps, tuple) else bps
    fmt = tags.get(339, 1)
    fmt = fmt[0] if isinstance(fmt, tuple) else fmt
    comp = tags.get(259, 1)
    pred = tags.get(317, 1)
    dt = {(1, 8): "u1", (1, 16): "u2", (3, 16): "f2", (3, 32): "f4"}[(fmt, bps)]
    sb = bps // 8
    tiled = 322 in tags
    bw = tags[322] if tiled else w
    bh = tags[323] if tiled else min(tags.get(278, h), h)
    offs = tags[324] if tiled else tags[273]
    cnts = tags[325] if tiled else tags[279]
    offs = offs if isinstance(offs, tuple) else (offs,)
    cnts = cnts if isinstance(cnts, tuple) else (cnts,)
    out = np.zeros((h, w, spp), dtype=np.dtype(dt).newbyteorder("<"))
    across = (w + bw - 1) // bw if tiled else 1
    for k, (o, c) in enumerate(zip(offs, cnts)):
        blob = data[o:o + c]
        if comp in (8, 32946):
            blob = zlib.decompress(blob)
        elif comp != 1:
            raise ValueError("compression %d" % comp)
        rows = len(blob) // (bw * spp * sb)
        buf = np.frombuffer(blob[:rows * bw * spp * sb], dtype=np.uint8).reshape(rows, bw * spp * sb).copy()
        if pred == 3:
            # Byte-wise differencing with a stride of one pixel (spp bytes), as libtiff's fpAcc.
            buf = np.cumsum(buf.reshape(rows, -1, spp), axis=1, dtype=np.uint64).astype(np.uint8).reshape(rows, -1)
            # Byte planes, most significant first whatever the file's byte order; flip to little-endian.
            planes = buf.reshape(rows, sb, bw * spp)[:, ::-1, :]
            samples = np.ascontiguousarray(planes.transpose(0, 2, 1)).view(np.dtype(dt).newbyteorder("<"))
            block = samples.reshape(rows, bw, spp)
        else:
            block = buf.view(np.dtype(dt).newbyteorder(bo)).reshape(rows, bw, spp)
            if pred == 2:
                block = np.cumsum(block.astype(np.uint64), axis=1).astype(block.dtype)
        ty, tx = (k // across, k % across) if tiled else (k, 0)
        y0, x0 = ty * bh, tx * bw
        hh, ww = min(rows, h - y0), min(bw, w - x0)
        if hh > 0 and ww > 0:
            out[y0:y0 + hh, x0:x0 + ww] = block[:hh, :ww]
    return (out[:, :, 0] if spp == 1 else out), tags


def write_tiled(path, arr, tw, th, extra, icc=None):
    h, w = arr.shape[:2]
    spp = 1 if arr.ndim == 2 else arr.shape[2]
    arr = arr.reshape(h, w, spp)
    dt = arr.dtype
    bps = dt.itemsize * 8
    fmt = 3 if dt.kind == "f" else 1
    across, down = (w + tw - 1) // tw, (h + th - 1) // th
    tiles = []
    for ty in range(down):
        for tx in range(across):
            t = np.zeros((th, tw, spp), dtype=dt.newbyteorder("<"))
            part = arr[ty * th:(ty + 1) * th, tx * tw:(tx + 1) * tw]
            t[:part.shape[0], :part.shape[1]] = part
            tiles.append(t.tobytes())
    body = b"".join(tiles)
    offsets, pos = [], 8
    for t in tiles:
        offsets.append(pos)
        pos += len(t)
    extra_data = []

    def entry(tag, typ, values):
        return (tag, typ, values)
    entries = [entry(256, 4, [w]), entry(257, 4, [h]), entry(258, 3, [bps] * spp), entry(259, 3, [1]),
               entry(262, 3, [2 if spp >= 3 else 1]), entry(277, 3, [spp]), entry(284, 3, [1]),
               entry(322, 4, [tw]), entry(323, 4, [th]), entry(324, 4, offsets), entry(325, 4, [len(t) for t in tiles]),
               entry(339, 3, [fmt] * spp)]
    if extra >= 0:
        entries.append(entry(338, 3, [extra]))
    if icc:
        entries.append(entry(34675, 7, list(icc)))
    entries.sort()
    ifd_off = pos + (pos & 1)
    heap = ifd_off + 2 + 12 * len(entries) + 4
    ifd, heapbytes = b"", b""
    for tag, typ, vals in entries:
        fmtc = {3: "H", 4: "I", 7: "B"}[typ]
        packed = struct.pack("<" + fmtc * len(vals), *vals)
        if len(packed) <= 4:
            ifd += struct.pack("<HHI", tag, typ, len(vals)) + packed.ljust(4, b"\0")
        else:
            ifd += struct.pack("<HHII", tag, typ, len(vals), heap + len(heapbytes))
            heapbytes += packed + (b"\0" if len(packed) & 1 else b"")
    out = b"II" + struct.pack("<HI", 42, ifd_off) + body + (b"\0" if pos & 1 else b"")
    out += struct.pack("<H", len(entries)) + ifd + struct.pack("<I", 0) + heapbytes
    open(path, "wb").write(out)


def main():
    if sys.argv[1] == "write-tiled":
        out, w, h, tw, th, dtype, ch, extra, raw = sys.argv[2:11]
        icc = open(sys.argv[11], "rb").read() if len(sys.argv) > 11 else None
        w, h, tw, th, ch, extra = int(w), int(h), int(tw), int(th), int(ch), int(extra)
        rng = np.random.default_rng(7)
        if dtype in ("uint8", "uint16"):
            arr = rng.integers(0, np.iinfo(dtype).max + 1, size=(h, w, ch)).astype(dtype)
        else:
            arr = rng.random((h, w, ch)).astype(dtype)
        write_tiled(out, arr, tw, th, extra, icc)
        arr.astype(arr.dtype.newbyteorder("<")).tofile(raw)
        print(json.dumps({"width": w, "height": h, "channels": ch, "dtype": dtype}))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
