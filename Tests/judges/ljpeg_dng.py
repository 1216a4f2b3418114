#!/usr/bin/env python3
"""The independent judge of Daguerre's lossless JPEG codec: LibRaw (through rawpy) reads DNGs.

  ljpeg_dng.py read FILE.dng OUT.raw
      Prints JSON describing the full-resolution raw IFD (NewSubfileType 0), found with
      tifffile: compression, photometric, size, samples, bits, tile or strip layout with the
      offsets and byte counts of its tiles/strips, DNGVersion, LinearizationTable (LibRaw maps
      decoded samples through it). Writes LibRaw's raw_image (rawpy,
      little-endian uint16, C order) to OUT.raw and adds its shape and LibRaw's sizes.

  ljpeg_dng.py write SPEC.json OUT.dng OUT.raw
      Builds a minimal CFA DNG (DNG 1.4, Compression 7) whose tiles are the files SPEC lists,
      in row-major tile order: {"width", "height", "tileWidth", "tileLength", "bitsPerSample",
      "whiteLevel", "tiles": [paths], "cfa": [0, 1, 1, 2], "dngVersion": [1, 4, 0, 0]},
      then reads it back as `read` does (so LibRaw decodes the tiles Daguerre encoded).
"""
import json
import struct
import sys

import numpy
import rawpy
import tifffile


def raw_ifd(path):
    with tifffile.TiffFile(path) as tif:
        candidates = []
        for page in tif.pages:
            candidates.append(page)
            for sub in page.pages or []:
                candidates.append(sub)
        dng_version = None
        tag = tif.pages[0].tags.get("DNGVersion")
        if tag is not None:
            dng_version = list(tag.value)
        for page in candidates:
            kind = page.tags.get("NewSubfileType")
            if (kind.value if kind is not None else 0) == 0:
                return {
                    "compression": int(page.compression),
                    "photometric": int(page.photometric),
                    "width": page.imagewidth,
                    "height": page.imagelength,
                    "samplesPerPixel": page.samplesperpixel,
                    "bitsPerSample": page.bitspersample,
                    "tileWidth": page.tilewidth,
                    "tileLength": page.tilelength,
                    "rowsPerStrip": page.rowsperstrip,
                    "offsets": [int(x) for x in page.dataoffsets],
                    "byteCounts": [int(x) for x in page.databytecounts],
                    "dngVersion": dng_version,
                    "linearization": [int(x) for x in page.tags["LinearizationTable"].value]
                    if "LinearizationTable" in page.tags else None,
                }
    raise SystemExit(f"{path}: no full-resolution IFD")


def read(path, out):
    result = {"ifd": raw_ifd(path)}
    with rawpy.imread(path) as raw:
        image = numpy.ascontiguousarray(raw.raw_image, dtype="<u2")
        s = raw.sizes
        result["rawShape"] = list(image.shape)
        result["rawType"] = str(raw.raw_type)
        result["sizes"] = {k: int(getattr(s, k)) for k in ("raw_height", "raw_width", "height", "width", "top_margin", "left_margin")}
        image.tofile(out)
    print(json.dumps(result))


def write(spec_path, out_dng, out_raw):
    with open(spec_path) as f:
        spec = json.load(f)
    tiles = []
    for p in spec["tiles"]:
        with open(p, "rb") as f:
            tiles.append(f.read())
    entries = []  # (tag, type, count, value bytes)

    def add(tag, typ, values):
        fmt = {1: "B", 2: "s", 3: "H", 4: "I", 10: "i"}[typ]
        if typ == 2:
            data = values.encode() + b"\0"
            entries.append((tag, typ, len(data), data))
        elif typ == 10:
            data = b"".join(struct.pack("<ii", n, d) for n, d in values)
            entries.append((tag, typ, len(values), data))
        else:
            data = struct.pack("<" + fmt * len(values), *values)
            entries.append((tag, typ, len(values), data))

    # Layout: header, tile data, then the IFD and its out-of-line values.
    header = 8
    offsets = []
    pos = header
    for t in tiles:
        offsets.append(pos)
        pos += len(t)
        pos += pos & 1
    ifd_offset = pos
    add(254, 4, [0])
    add(256, 4, [spec["width"]])
    add(257, 4, [spec["height"]])
    add(258, 3, [spec["bitsPerSample"]])
    add(259, 3, [7])
    add(262, 3, [32803])
    add(271, 2, "Daguerre")
    add(272, 2, "LosslessJPEG judge")
    add(274, 3, [1])
    add(277, 3, [1])
    add(284, 3, [1])
    add(322, 4, [spec["tileWidth"]])
    add(323, 4, [spec["tileLength"]])
    add(324, 4, offsets)
    add(325, 4, [len(t) for t in tiles])
    add(33421, 3, [2, 2])
    add(33422, 1, spec.get("cfa", [0, 1, 1, 2]))
    add(50706, 1, spec.get("dngVersion", [1, 4, 0, 0]))
    add(50707, 1, [1, 1, 0, 0])
    add(50708, 2, "Daguerre LosslessJPEG judge")
    add(50717, 4, [spec["whiteLevel"]])
    add(50721, 10, [(1, 1), (0, 1), (0, 1), (0, 1), (1, 1), (0, 1), (0, 1), (0, 1), (1, 1)])
    add(50778, 3, [21])
    entries.sort()
    ifd_size = 2 + 12 * len(entries) + 4
    extra = ifd_offset + ifd_size
    ifd = struct.pack("<H", len(entries))
    blobs = b""
    for tag, typ, count, data in entries:
        if len(data) <= 4:
            ifd += struct.pack("<HHI", tag, typ, count) + data.ljust(4, b"\0")
        else:
            ifd += struct.pack("<HHII", tag, typ, count, extra + len(blobs))
            blobs += data + (b"\0" if len(data) & 1 else b"")
    ifd += struct.pack("<I", 0)
    with open(out_dng, "wb") as f:
        f.write(b"II*\0" + struct.pack("<I", ifd_offset))
        for t in tiles:
            f.write(t)
            if f.tell() & 1:
                f.write(b"\0")
        f.write(ifd)
        f.write(blobs)
    read(out_dng, out_raw)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "read":
        read(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        raise SystemExit(__doc__)
