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
