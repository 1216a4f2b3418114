#!/usr/bin/env python3
"""Judges a filter gallery (`daguerre filters --gallery DIR`) with Python's HTML parser and Pillow.

usage: gallery_judge.py DIR

Prints JSON: the figures the page names ("figures"), the images it links that Pillow cannot open
("broken"), the contact sheet's size, and per sheet cell (from the page's image map) whether it
is the error red and its pixel standard deviation ("cells": {name: {"red": bool, "std": float}}).
"""
import json
import os
import sys
from html.parser import HTMLParser

import numpy as np
from PIL import Image


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.figures, self.images, self.areas = [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure":
            self.figures.append(a.get("id"))
        elif tag == "img":
            self.images.append(a.get("src"))
        elif tag == "area":
            self.areas.append((a.get("title"), [int(v) for v in a.get("coords", "").split(",")]))


def main():
    root = sys.argv[1]
    page = Page()
    with open(os.path.join(root, "index.html"), encoding="utf-8") as f:
        page.feed(f.read())
    broken = []
    for src in page.images:
        try:
            with Image.open(os.path.join(root, src)) as im:
                im.load()
        except Exception as e:  # any failure to open is what is being judged
            broken.append(f"{src}: {e}")
    sheet = np.asarray(Image.open(os.path.join(root, "contact-sheet.png")).convert("RGB")).astype(np.float64)
    cells = {}
    for name, (x0, y0, x1, y1) in page.areas:
        cell = sheet[y0:y1, x0:x1]
        mean = cell.reshape(-1, 3).mean(axis=0)
        red = bool(abs(mean[0] - 150) < 2 and mean[1] < 25 and mean[2] < 25 and cell.std() < 1)
        cells[name] = {"red": red, "std": float(cell.std())}
    print(json.dumps({"figures": page.figures, "broken": broken, "sheet": [sheet.shape[1], sheet.shape[0]], "cells": cells}))


if __name__ == "__main__":
    main()
