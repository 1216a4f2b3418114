#!/usr/bin/env python3
"""Writes small valid seed files for the fuzzer into fuzz/corpus (Pillow)."""
import io, os
from PIL import Image
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
os.makedirs(here, exist_ok=True)
im = Image.new("RGB", (24, 17))
for x in range(24):
    for y in range(17):
        im.putpixel((x, y), (x * 10, y * 15, (x * y) % 255))
im.save(os.path.join(here, "rgb.jpg"), quality=80)
im.convert("L").save(os.path.join(here, "gray.jpg"), quality=70)
im.save(os.path.join(here, "progressive.jpg"), quality=75, progressive=True)
im.save(os.path.join(here, "rgb.png"))
im.convert("RGBA").save(os.path.join(here, "rgba.png"))
im.convert("P").save(os.path.join(here, "palette.png"))
im.save(os.path.join(here, "rgb.tif"))
im.save(os.path.join(here, "lzw.tif"), compression="tiff_lzw")
im.convert("I;16").save(os.path.join(here, "gray16.tif"))
print(sorted(os.listdir(here)))

# HEIC seeds for FuzzHEIF (corpus-heif): 16×16 stills written by pillow-heif (libheif with
# x265), each exercising one part of HEIFFile: EXIF, XMP, an ICC profile, nclx, alpha, a
# thumbnail item, 10 bits, a grid-free rotation, and a motion photo's `mpvd` box.
import pillow_heif
from PIL import ImageCms
heif = os.path.join(os.path.dirname(here), "corpus-heif")
os.makedirs(heif, exist_ok=True)
small = im.resize((16, 16))
exif = Image.Exif()
exif[0x0110] = "Fuzz"  # Model
exif[0x0112] = 6  # Orientation
xmp = (b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
       b'<rdf:Description xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MotionPhoto="1"/>'
       b'</rdf:RDF></x:xmpmeta>')
def save(name, image, **kw):
    pillow_heif.from_pillow(image).save(os.path.join(heif, name), quality=40, **kw)
save("plain.heic", small)
save("exif-xmp.heic", small, exif=exif.tobytes(), xmp=xmp)
save("icc.heic", small, icc_profile=ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
save("nclx.heic", small, color_primaries=12, transfer_characteristics=13, matrix_coefficients=6, full_range_flag=1)
save("alpha.heic", small.convert("RGBA"))
h = pillow_heif.from_pillow(im.resize((32, 32)))
h.info["thumbnails"] = [8]
h.save(os.path.join(heif, "thumbnail.heic"), quality=40)
pillow_heif.from_bytes(mode="RGB;16", size=(16, 16), data=bytes(16 * 16 * 6)).save(os.path.join(heif, "10bit.heic"), quality=40)
# A HEIC motion photo as Samsung writes it: the MP4 in an `mpvd` box after the HEIF boxes.
with open(os.path.join(heif, "plain.heic"), "rb") as f:
    still = f.read()
with open(os.path.join(os.path.dirname(here), "corpus-quicktime", "seed-tiny.mp4"), "rb") as f:
    mp4 = f.read()
with open(os.path.join(heif, "motion-mpvd.heic"), "wb") as f:
    f.write(still + (8 + len(mp4)).to_bytes(4, "big") + b"mpvd" + mp4)
print(sorted(os.listdir(heif)))
