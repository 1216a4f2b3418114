#!/usr/bin/env python3
"""QR descriptors for BarcodeGenerator's test (GeneratorFilterTests), made by python-qrcode, an
encoder nobody here wrote: for each case its final codewords (qrcode.util.create_data: data
and error correction, interleaved) and the module matrix python-qrcode draws from them at the
same version, level and mask, which BarcodeGenerator must reproduce module for module.

usage: qr_descriptor_judge.py CASES.json, CASES: [{"label", "message", "version", "level",
"mask"}]. Prints {"cases": [{"label", "codewords": [int], "modules": ["0101…" per row]}]}.
"""
import json
import sys

import qrcode
import qrcode.util

LEVELS = {"L": qrcode.constants.ERROR_CORRECT_L, "M": qrcode.constants.ERROR_CORRECT_M,
          "Q": qrcode.constants.ERROR_CORRECT_Q, "H": qrcode.constants.ERROR_CORRECT_H}


def main():
    out = []
    for c in json.load(open(sys.argv[1])):
        level = LEVELS[c["level"]]
        q = qrcode.QRCode(version=c["version"], error_correction=level, mask_pattern=c["mask"], border=0)
        q.add_data(c["message"].encode())
        q.make(fit=False)
        codewords = qrcode.util.create_data(c["version"], level, q.data_list)
        rows = ["".join("1" if m else "0" for m in row) for row in q.modules]
        out.append({"label": c["label"], "codewords": list(codewords), "modules": rows})
    print(json.dumps({"cases": out}))


if __name__ == "__main__":
    main()
