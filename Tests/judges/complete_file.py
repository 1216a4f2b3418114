#!/usr/bin/env python3
"""Judge of whole files: is each file complete and valid, read by a reader independent of
Daguerre? A file a killed writer leaves at its destination must pass, or not be there at all.

usage:
  complete_file.py KIND:PATH [KIND:PATH ...]
      KIND is one of
        jpeg         Pillow decodes every scan (truncation is an error); the file ends with EOI
        png          Pillow verifies every chunk's CRC up to IEND, then decodes the image
        tiff16       tifffile reads every IFD (SubIFDs too) without a complaint; every tag value,
                     strip and tile lies inside the file; `exiftool -validate` finds nothing wrong
                     (it walks the EXIF IFDs too); the first image decodes to 16-bit samples
        dng          the TIFF walk above, then LibRaw (rawpy) unpacks the mosaic and develops it
        mov          the top-level boxes tile the file exactly, with moov and mdat; ffprobe sees a
                     video stream; `ffmpeg -v error -i PATH -f null -` decodes it with no error
        motionphoto  exiftool reads XMP GCamera:MotionPhoto 1 and the Container directory; the
                     video item's length of bytes at the end is an MP4 judged as mov above;
                     Pillow decodes the primary JPEG
        pair         PATH is STILL.jpg,MOVIE.mov: both complete (jpeg, mov), and the still's
                     Apple MediaGroupUUID equals the movie's Keys:ContentIdentifier
  prints {"results": [{"path", "kind", "complete", "reason"}]}, one per argument, in order.
"""
import json
import logging
import os
import subprocess
import sys
import tempfile

import numpy as np
import rawpy
import tifffile
from PIL import Image, ImageFile

ImageFile.LOAD_TRUNCATED_IMAGES = False


class Complaints(logging.Handler):
    """What tifffile logs instead of raising (a tag value past the end of the file...)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


COMPLAINTS = Complaints()
logging.getLogger("tifffile").addHandler(COMPLAINTS)
logging.getLogger("tifffile").propagate = False


class Incomplete(Exception):
    pass


def need(ok, reason):
    if not ok:
        raise Incomplete(reason)


def jpeg(path):
    with open(path, "rb") as f:
        data = f.read()
    need(data[:2] == b"\xff\xd8", "no SOI marker at the start")
    need(data[-2:] == b"\xff\xd9", "no EOI marker at the end")
    with Image.open(path) as im:
        im.load()
        need(im.width > 0 and im.height > 0, "no pixels")
    return f"{im.width}x{im.height} {im.mode}"


def png(path):
    with open(path, "rb") as f:
        data = f.read()
    need(data[-12:] == b"\x00\x00\x00\x00IEND\xaeB`\x82", "the file does not end with the IEND chunk")
    with Image.open(path) as im:
        im.verify()
    with Image.open(path) as im:
        im.load()
    return f"{im.width}x{im.height} {im.mode}"


def tiff_walk(path):
    """Every IFD and SubIFD, each tag's value and each strip or tile inside the file, and nothing
    tifffile complained of. Returns the open file."""
    size = os.path.getsize(path)
    COMPLAINTS.messages = []
    tif = tifffile.TiffFile(path)
    pages = 0

    def walk(page):
        nonlocal pages
        pages += 1
        for tag in page.tags.values():
            need(tag.valueoffset + tag.valuebytecount <= size,
                 f"IFD at {page.offset}: tag {tag.code}'s value at {tag.valueoffset}+{tag.valuebytecount} past the end ({size} bytes)")
        for offset, count in zip(page.dataoffsets, page.databytecounts):
            need(count > 0, f"IFD at {page.offset}: an empty strip or tile")
            need(offset + count <= size, f"IFD at {page.offset}: data at {offset}+{count} past the end ({size} bytes)")
        subifds = page.tags.get("SubIFDs")
        if subifds is not None:
            for off in np.atleast_1d(subifds.value):
                need(int(off) < size, f"SubIFD at {off} past the end")
                sub = tifffile.TiffPage(tif, index=0, offset=int(off))
                walk(sub)

    for page in tif.pages:
        walk(page)
    need(pages > 0, "no IFD")
    need(not COMPLAINTS.messages, f"tifffile: {'; '.join(COMPLAINTS.messages)[:300]}")
    # exiftool walks the IFDs tifffile leaves aside (EXIF, GPS, interoperability).
    out = subprocess.run(["exiftool", "-validate", "-warning", "-error", "-a", "-s3", path], capture_output=True, text=True)
    need(out.returncode == 0 and out.stdout.strip() == "OK", f"exiftool -validate: {' / '.join(out.stdout.split(chr(10)))[:300]}")
    return tif


def tiff16(path):
    tif = tiff_walk(path)
    with tif:
        first = tif.pages[0]
        pixels = first.asarray()
        need(pixels.dtype == np.uint16, f"{pixels.dtype} samples, not 16-bit")
        need(pixels.size == first.imagewidth * first.imagelength * first.samplesperpixel, "fewer samples than the image holds")
    return f"{first.imagewidth}x{first.imagelength}x{first.samplesperpixel} uint16"


def dng(path):
    tiff_walk(path).close()
    with rawpy.imread(path) as r:
        mosaic = np.array(r.raw_image, copy=True)
        need(mosaic.size > 0, "no raw data")
        rgb = r.postprocess(half_size=True, output_bps=8)
        need(rgb.size > 0, "LibRaw developed nothing")
    return f"{mosaic.shape[1]}x{mosaic.shape[0]} mosaic"


def boxes(data, what):
    """The top-level ISO BMFF boxes of `data`, which must tile it exactly."""
    names = []
    at = 0
    while at < len(data):
        need(at + 8 <= len(data), f"{what}: a box header cut at {at}")
        size = int.from_bytes(data[at:at + 4], "big")
        name = data[at + 4:at + 8].decode("latin-1")
        if size == 1:
            need(at + 16 <= len(data), f"{what}: a 64-bit box header cut at {at}")
            size = int.from_bytes(data[at + 8:at + 16], "big")
        elif size == 0:
            size = len(data) - at
        need(size >= 8, f"{what}: box '{name}' at {at} has size {size}")
        need(at + size <= len(data), f"{what}: box '{name}' at {at} ({size} bytes) runs past the end ({len(data)} bytes)")
        names.append(name)
        at += size
    need("moov" in names and "mdat" in names, f"{what}: boxes {names}, no moov or mdat")
    return names


def movie(path, what="movie"):
    with open(path, "rb") as f:
        names = boxes(f.read(), what)
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-show_format", "-of", "json", path],
                           capture_output=True, text=True)
    need(probe.returncode == 0 and not probe.stderr.strip(), f"ffprobe: {probe.stderr.strip()[:300]}")
    streams = json.loads(probe.stdout).get("streams", [])
    video = [s for s in streams if s.get("codec_type") == "video"]
    need(video, "ffprobe finds no video stream")
    decode = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", path, "-f", "null", "-"],
                            capture_output=True, text=True)
    need(decode.returncode == 0 and not decode.stderr.strip(), f"ffmpeg: {decode.stderr.strip()[:300]}")
    return f"{'/'.join(names)}; {len(streams)} streams, video {video[0].get('width')}x{video[0].get('height')}"


def exiftool(path, tags):
    out = subprocess.run(["exiftool", "-j", "-n", "-struct"] + tags + [path], capture_output=True, text=True)
    need(out.returncode == 0, f"exiftool: {out.stderr.strip()[:300]}")
    return json.loads(out.stdout)[0]


def motionphoto(path):
    tags = exiftool(path, ["-XMP-GCamera:MotionPhoto", "-XMP-Container:Directory"])
    need(tags.get("MotionPhoto") == 1, f"XMP GCamera:MotionPhoto is {tags.get('MotionPhoto')!r}, not 1")
    items = [entry.get("Item", entry) for entry in tags.get("Directory", [])]
    video = [i for i in items if i.get("Semantic") == "MotionPhoto"]
    need(video and int(video[0].get("Length", 0)) > 0, f"no MotionPhoto item with a length in the Container directory: {items}")
    length = int(video[0]["Length"])
    with open(path, "rb") as f:
        data = f.read()
    need(length < len(data), f"the directory's video of {length} bytes is longer than the file ({len(data)} bytes)")
    with tempfile.NamedTemporaryFile(suffix=".mp4") as mp4:
        mp4.write(data[-length:])
        mp4.flush()
        described = movie(mp4.name, "the embedded MP4")
    with Image.open(path) as im:
        im.load()
    return f"primary {im.width}x{im.height}; video {length} bytes: {described}"


def pair(paths):
    still, mov = paths.split(",")
    a = jpeg(still)
    b = movie(mov)
    s = exiftool(still, ["-Apple:MediaGroupUUID"]).get("MediaGroupUUID")
    m = exiftool(mov, ["-Keys:ContentIdentifier"]).get("ContentIdentifier")
    need(s, "the still has no Apple MediaGroupUUID")
    need(s == m, f"the still's MediaGroupUUID {s} is not the movie's ContentIdentifier {m}")
    return f"{a}; {b}; paired by {s}"


KINDS = {"jpeg": jpeg, "png": png, "tiff16": tiff16, "dng": dng, "mov": movie, "motionphoto": motionphoto, "pair": pair}


def judge(argument):
    kind, _, path = argument.partition(":")
    result = {"path": path, "kind": kind}
    if kind not in KINDS:
        sys.exit(f"unknown kind {kind!r}: use one of {', '.join(KINDS)}")
    try:
        result.update(complete=True, reason=KINDS[kind](path))
    except Incomplete as e:
        result.update(complete=False, reason=str(e))
    except Exception as e:  # any reader's refusal: the file is not a whole, valid file
        result.update(complete=False, reason=f"{type(e).__name__}: {e}")
    return result


if __name__ == "__main__":
    print(json.dumps({"results": [judge(a) for a in sys.argv[1:]]}))
