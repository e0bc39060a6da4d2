#!/usr/bin/env python3
"""Summarises fit.tgz (made by fit.sh): the correctly rounded sum's median
launch time in microseconds at each size, with the small route off, on one
block of 1,024, and on the fewest 256-thread granules that give each thread at
most 16 floats ("fit"), three interleaved rounds; the bandwidth kernel's from
the route-off bench beside them. Usage: fit.py [fit.tgz]"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_json import medians, records  # noqa: E402

def main(path):
    times = {}
    for (cache, variant, round_), record in records(path, r"([^/-]+)-([^/-]+)-([^/-]+)\.json$").items():
        for n, row in medians(record).items():
            for kernel, ms in row.items():
                times[(cache, n, variant, round_, kernel)] = ms * 1e3
    sizes = sorted({k[1] for k in times})
    rounds = sorted({k[3] for k in times})
    print("cache n | correctly rounded: off / 1024 / fit (bandwidth), us, one column per round | fit over 1024")
    for cache in ("warm", "cold"):
        for n in sizes:
            cells, ratios = [], []
            for r in rounds:
                off, big, fit = (times[(cache, n, v, r, "correctly_rounded")] for v in ("off", "r1024", "fit"))
                bw = times[(cache, n, "off", r, "bandwidth")]
                cells.append(f"{off:.2f} / {big:.2f} / {fit:.2f} ({bw:.2f})")
                ratios.append(f"{fit / big:.2f}")
            print(f"{cache} {n} | " + " | ".join(cells) + " | " + " ".join(ratios))

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "fit.tgz")
