#!/usr/bin/env python3
"""ICC judge: icc_info.py FILE

Prints JSON with the ICC profile Pillow finds in FILE (im.info['icc_profile'], hex) and the
ProfileDescription exiftool reports, so tests can check both the bytes and what other tools
make of them.
"""
import json
import subprocess
import sys

from PIL import Image

path = sys.argv[1]
im = Image.open(path)
icc = im.info.get("icc_profile")
desc = None
try:
    out = subprocess.run(["exiftool", "-j", "-ProfileDescription", path], capture_output=True, text=True, check=True).stdout
    desc = json.loads(out)[0].get("ProfileDescription")
except Exception as e:  # reported, not hidden: the test asserts on the description
    desc = "exiftool failed: %s" % e
print(json.dumps({"pillow_icc_hex": icc.hex() if icc else None, "exiftool_description": desc}))
