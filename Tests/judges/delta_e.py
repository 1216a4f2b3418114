#!/usr/bin/env python3
"""CIEDE2000 judge (colour-science): delta_e.py PAIRS.json

PAIRS.json holds {"white": [X, Y, Z], "pairs": [[[X, Y, Z] reference, [X, Y, Z] test], ...]};
both colours are converted to CIELAB against the given white. Prints {"delta_e": [...]}.
"""
import json
import sys

import numpy as np
import colour

spec = json.load(open(sys.argv[1]))
white_xy = colour.XYZ_to_xy(np.array(spec["white"]))
out = []
for ref, test in spec["pairs"]:
    a = colour.XYZ_to_Lab(np.array(ref), white_xy)
    b = colour.XYZ_to_Lab(np.array(test), white_xy)
    out.append(float(colour.delta_E(a, b, method="CIE 2000")))
print(json.dumps({"delta_e": out}))
