#!/usr/bin/env python3
"""Test inputs for daguerre-bench.

  make_input.py photo OUT.jpg [--kodak DIR] [--size 10000] [--seed 1]
      (DIR defaults to $KODAK_DIR, else <checkout>/Tests/Resources/kodak24)
      A SIZE×SIZE RGB JPEG (quality 92) tiled from randomly chosen 500×500 Kodak crops
      (seeded; some mirrored left-right or upside down).
  make_input.py tiny OUT.png [--size 20]
      A small SIZE×SIZE RGB gradient PNG for the memory scenario (daguerre's Lanczos scale
      is capped at 1000×, so 20×20 upscaled 1000× gives the 20000×20000 image).
"""
import argparse, glob, os, random, sys

from PIL import Image

Image.MAX_IMAGE_PIXELS = None


def photo(args):
    paths = sorted(glob.glob(os.path.join(args.kodak, "*.png")))
    if not paths:
        sys.exit(f"make_input.py: no PNG crops in {args.kodak}")
    rng = random.Random(args.seed)
    tiles = [Image.open(p).convert("RGB") for p in paths]
    tw, th = tiles[0].size
    n = -(-args.size // tw)
    canvas = Image.new("RGB", (args.size, args.size))
    for ty in range(n):
        for tx in range(n):
            t = rng.choice(tiles)
            r = rng.random()
            if r < 0.25:
                t = t.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
            elif r < 0.4:
                t = t.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
            canvas.paste(t, (tx * tw, ty * th))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    tmp = args.out + ".tmp.jpg"
    canvas.save(tmp, quality=92)
    os.replace(tmp, args.out)


def tiny(args):
    n = args.size
    im = Image.new("RGB", (n, n))
    im.putdata([(int(40 + 190 * x / (n - 1)), int(40 + 180 * y / (n - 1)), int(220 - 150 * (x + y) / (2 * n - 2)))
                for y in range(n) for x in range(n)])
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    im.save(args.out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    # The crops the tests use, in the checkout: <checkout>/Tests/Resources/kodak24.
    default_kodak = os.environ.get("KODAK_DIR") or os.path.normpath(
        os.path.join(here, "..", "..", "Tests", "Resources", "kodak24"))
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="kind", required=True)
    a = sub.add_parser("photo")
    a.add_argument("out")
    a.add_argument("--kodak", default=default_kodak)
    a.add_argument("--size", type=int, default=10000)
    a.add_argument("--seed", type=int, default=1)
    b = sub.add_parser("tiny")
    b.add_argument("out")
    b.add_argument("--size", type=int, default=20)
    args = p.parse_args()
    {"photo": photo, "tiny": tiny}[args.kind](args)


if __name__ == "__main__":
    main()
